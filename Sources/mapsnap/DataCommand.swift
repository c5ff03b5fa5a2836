import Foundation
import MapSnap

/// `mapsnap data …`: the regions of the data directory — extract, build, list, remove.
enum DataCommand {
    static let help = """
    USAGE:
      mapsnap data extract SOURCE (--bbox W,S,E,N | --place NAME [--radius KM] | --geojson AREA.geojson)
                           [--maxzoom Z] [-o OUT.pmtiles]
      mapsnap data build REGION.osm.pbf [-o OUT.pmtiles]
      mapsnap data index REGION.osm.pbf -o OUT.places
      mapsnap data list
      mapsnap data remove NAME

    Regions are tile archives in the data directory; every render uses them without
    flags where they cover the view (the most detailed wins, tile by tile, over the
    embedded world data). The data directory is --data-dir DIR, else $MAPSNAP_DATA,
    else $XDG_DATA_HOME/mapsnap, else ~/.local/share/mapsnap.

    Run 'mapsnap data COMMAND --help' for a command's options.
    """

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        guard let sub = arguments.first else { throw .usage("data: expected a command: extract, build, index, list or remove (see mapsnap data --help)") }
        let rest = arguments.dropFirst()
        switch sub {
        case "extract": try DataExtractCommand.run(rest)
        case "build": try DataBuildCommand.run(rest)
        case "index": try DataBuildCommand.runIndex(rest)
        case "list": try list(rest)
        case "remove": try remove(rest)
        case "--help", "-h", "help": Output.out(help)
        default:
            let known = ["extract", "build", "index", "list", "remove"]
            let hint = Suggestion.hint(for: sub, among: known, quote: "'")
            throw .usage("data: unknown command '\(sub)'\(hint); see mapsnap data --help")
        }
    }

    static let listHelp = """
    USAGE: mapsnap data list [--data-dir DIR]

    Lists the regions of the data directory: name, schema, bounds (W,S,E,N), zooms,
    size and where the tiles came from.
    """

    static let listOptions = OptionTable(valued: ["--data-dir"], switches: ["--help"], aliases: ["-h": "--help"])

    static func list(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try listOptions.parse(arguments)
        if args.has("--help") { Output.out(listHelp); return }
        if let extra = args.positionals.first { throw .usage("data list: unexpected argument '\(extra)'") }
        let dir = DataDirectory.resolve(explicit: args.last("--data-dir"))
        let (regions, problems) = dir.regions()
        problems.forEach(Output.warning)
        guard !regions.isEmpty else {
            Output.out("no regions in \(dir.path) (add one with 'mapsnap data extract' or 'mapsnap data build')")
            return
        }
        Output.out("data directory: \(dir.path)")
        let header = ["NAME", "SCHEMA", "BOUNDS (W,S,E,N)", "ZOOM", "SIZE", "ADDRESSES", "ORIGIN"]
        var rows = [header]
        for r in regions {
            rows.append([r.name, r.schemaName, r.boundsText, "\(r.minZoom)-\(r.maxZoom)", byteCount(r.sizeBytes),
                         r.placeIndexPath == nil ? "-" : "yes", r.origin ?? "-"])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        for row in rows {
            let cells = row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            Output.out(cells.joined(separator: "  "))
        }
    }

    static let removeHelp = """
    USAGE: mapsnap data remove NAME [--data-dir DIR]

    Deletes the region NAME (its archive and its place index) from the data directory.
    """

    static let removeOptions = OptionTable(valued: ["--data-dir"], switches: ["--help"], aliases: ["-h": "--help"])

    static func remove(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try removeOptions.parse(arguments)
        if args.has("--help") { Output.out(removeHelp); return }
        guard args.positionals.count == 1, let name = args.positionals.first else {
            throw .usage("data remove: expected one region NAME (see mapsnap data list)")
        }
        let dir = DataDirectory.resolve(explicit: args.last("--data-dir"))
        let matches = dir.archivePaths().filter { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension == name }
        guard !matches.isEmpty else {
            let names = dir.regionNames()
            let hint = Suggestion.hint(for: name, among: names, maxDistance: 3, quote: "'")
            throw .usage("data remove: no region named '\(name)' in \(dir.path)\(hint)")
        }
        let index = (dir.path as NSString).appendingPathComponent("\(name).\(DataDirectory.placeIndexExtension)")
        for file in matches + [index] where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw .runtime("cannot remove \(file): \(error.localizedDescription)")
            }
        }
        Output.out("removed \(name) from \(dir.path)")
    }

    /// `1.2 MB`, `340 kB`, `12 B`: sizes for listings (decimal units).
    static func byteCount(_ n: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(n), unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(n) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}
