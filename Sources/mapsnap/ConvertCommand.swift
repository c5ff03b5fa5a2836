import Foundation
import MapSnap

/// `mapsnap convert IN OUT`: copy a tile archive into the container OUT's extension names.
enum ConvertCommand {
    static let help = """
    USAGE: mapsnap convert IN.mbtiles|IN.pmtiles OUT.pmtiles|OUT.mbtiles

    Copies every tile and the metadata (name, format, zooms, bounds, centre, attribution,
    vector layers) of an MBTiles file or PMTiles archive into the container OUT's
    extension names: .pmtiles (PMTiles v3, clustered, gzip directories) or .mbtiles
    (MBTiles 1.3) — either way, or into its own format to repack it. Tiles keep their
    bytes (vector tiles an MBTiles file stores uncompressed are gzipped in PMTiles).
    OUT appears only when complete (a file is replaced atomically); a PMTiles archive
    can also go to a FIFO or device, written in place.
    """

    static let options = OptionTable(valued: [], switches: ["--help"], aliases: ["-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 2 else { throw .usage("convert: expected IN OUT (an .mbtiles or .pmtiles file and the archive to write)") }
        let input = args.positionals[0], output = args.positionals[1]
        guard PMTilesConverter.Container(path: output) != nil else {
            let ext = ImageFormat.fileExtension(of: output).map { "a .\($0) file" } ?? "a file without extension"
            throw .usage("convert: \(output): cannot write \(ext); name the output .mbtiles or .pmtiles")
        }
        try InputPath.check(input, .file, label: "convert:")
        AtomicFile.removeStaleTemporaries(for: output)
        do {
            let n = try PMTilesConverter.convert(input, to: output)
            Output.out("wrote \(n) tiles to \(output)")
        } catch PMTilesError.io(let path, _, let reason) where path == output {
            // The writer reports its failed write as `.io`; that is an I/O failure, not bad input.
            throw .runtime("convert: cannot write \(output): \(reason)")
        } catch let error as MBTilesError {
            // The writer's failures name the output; the reader's name the input (bad input).
            if error.description.hasPrefix(output + ":") { throw .runtime("convert: cannot write \(error)") }
            throw .input("convert: \(error)")
        } catch let error as TileSourceError {
            throw error.isInputProblem ? .input("convert: \(error)") : .runtime("convert: \(error)")
        } catch let error as AtomicFileError {
            throw .runtime("convert: \(error)")
        } catch {
            throw .input("convert: \(error)")
        }
    }
}
