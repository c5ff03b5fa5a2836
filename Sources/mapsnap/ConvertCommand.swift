import Foundation
import MapSnap

/// `mapsnap convert IN.mbtiles OUT.pmtiles`: repackage tiles as PMTiles v3.
enum ConvertCommand {
    static let help = """
    USAGE: mapsnap convert IN.mbtiles OUT.pmtiles

    Copies every tile and the metadata of an MBTiles file into a PMTiles v3 archive
    (clustered, gzip directories). A file is replaced atomically; a FIFO or device is
    written in place.
    """

    static let options = OptionTable(valued: [], switches: ["--help"], aliases: ["-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 2 else { throw .usage("convert: expected IN.mbtiles OUT.pmtiles") }
        let input = args.positionals[0], output = args.positionals[1]
        // A missing input is a missing source (exit 3), like `info`; a broken one is bad input.
        guard FileManager.default.fileExists(atPath: input) else { throw .runtime("\(input): no such file") }
        AtomicFile.removeStaleTemporaries(for: output)
        do {
            let n = try PMTilesConverter.convert(mbtiles: input, to: output)
            Output.out("wrote \(n) tiles to \(output)")
        } catch PMTilesError.io(let path, _, let reason) where path == output {
            // The writer reports its failed write as `.io`; that is an I/O failure, not bad input.
            throw .runtime("cannot write \(output): \(reason)")
        } catch {
            throw .input("\(error)")
        }
    }
}
