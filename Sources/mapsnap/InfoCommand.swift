import Foundation
import MapSnap

/// `mapsnap info SOURCE`: what a tile source holds.
enum InfoCommand {
    static let help = """
    USAGE: mapsnap info SOURCE

    Prints a tile source's format, zoom range, bounds, layers, vector schema
    (OpenMapTiles or Protomaps, which picks the bundled styles' variant) and
    attribution. SOURCE is an .mbtiles or .pmtiles file or a z/x/y tile directory.
    """

    static let options = OptionTable(valued: [], switches: ["--help"], aliases: ["-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw .usage("info: expected one SOURCE (see mapsnap info --help)")
        }
        try InputPath.checkSource(path, label: "info:")
        let source: any TileSource
        do {
            source = try TileSources.open(path)
        } catch {
            throw error.isInputProblem ? .input("info: \(error)") : .runtime("info: \(error)")
        }
        Output.out(describe(source.metadata, path: path, schema: VectorTileSchema.identify(source)))
    }

    static func describe(_ m: TileSourceMetadata, path: String, schema: VectorTileSchema?) -> String {
        var lines = ["source:      \(path)",
                     "format:      \(m.format.rawValue)\(m.format.isVector ? " (vector tiles)" : " (raster tiles)")",
                     "zoom:        \(m.minZoom)-\(m.maxZoom)"]
        if let n = m.name { lines.append("name:        \(n)") }
        if let b = m.bounds {
            lines.append("bounds:      \(b.southWest.longitude),\(b.southWest.latitude),\(b.northEast.longitude),\(b.northEast.latitude) (W,S,E,N)")
        }
        if let c = m.center { lines.append("center:      \(c.latitude),\(c.longitude)") }
        lines.append("tile size:   \(m.tileSize) px")
        if !m.vectorLayers.isEmpty {
            lines.append("layers:")
            for l in m.vectorLayers {
                let fields = l.fields.map(\.name).joined(separator: ", ")
                var zooms = ""
                if let a = l.minZoom, let b = l.maxZoom { zooms = " z\(a)-\(b)" }
                lines.append("  \(l.id)\(zooms)\(fields.isEmpty ? "" : ": \(fields)")")
            }
        }
        if let schema { lines.append("schema:      \(schema)") }
        lines.append("attribution: \(m.attribution.flatMap { $0.isEmpty ? nil : $0 } ?? "(none)")")
        return lines.joined(separator: "\n")
    }
}
