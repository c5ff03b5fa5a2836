import MapSnap

/// `mapsnap convert IN.mbtiles OUT.pmtiles`: repackage tiles as PMTiles v3.
enum ConvertCommand {
    static let help = """
    USAGE: mapsnap convert IN.mbtiles OUT.pmtiles

    Copies every tile and the metadata of an MBTiles file into a PMTiles v3 archive
    (clustered, gzip directories). The output is written atomically.
    """

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try OptionTable(valued: [], switches: ["--help"], aliases: ["-h": "--help"]).parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 2 else { throw .usage("convert: expected IN.mbtiles OUT.pmtiles") }
        do {
            let n = try PMTilesConverter.convert(mbtiles: args.positionals[0], to: args.positionals[1])
            Output.out("wrote \(n) tiles to \(args.positionals[1])")
        } catch {
            throw .input("\(error)")
        }
    }
}
