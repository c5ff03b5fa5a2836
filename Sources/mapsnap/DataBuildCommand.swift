import Foundation
import MapSnap

/// `mapsnap data build`: OpenMapTiles-schema tiles and a place index from an `.osm.pbf`;
/// `mapsnap data index`: the place index alone.
enum DataBuildCommand {
    static let help = """
    USAGE: mapsnap data build REGION.osm.pbf [-o OUT.pmtiles] [--data-dir DIR]

    Builds a region from an OpenStreetMap extract: street-level vector tiles
    (OpenMapTiles schema, z0-14, made by tilemaker) as NAME.pmtiles, and NAME.places,
    the index of its addresses, streets and named places that --center, --marker,
    --path, --url and specs accept ('Aleksanterinkatu 52, Helsinki'). NAME comes from
    the file name (helsinki.osm.pbf -> helsinki); the files go into the data directory
    unless -o names the archive. The sea is made from the extract's coastlines.

    Needs Debian's tilemaker (apt-get install tilemaker). A city takes seconds to
    minutes; nothing is written unless the whole build succeeds.
    """

    static let indexHelp = """
    USAGE: mapsnap data index REGION.osm.pbf -o OUT.places
           mapsnap data index REGION.pmtiles|REGION.mbtiles -o OUT.places

    Builds only the address and place index of an OpenStreetMap extract (no tiles, no
    tilemaker). 'data build' makes it too.

    From an OpenMapTiles or Protomaps vector-tile archive it indexes the named places,
    points of interest and streets of the tiles at their highest zoom, and the house numbers
    whose street is certain (the nearest named street within 50 m, every other name at least
    10 m farther). 'data extract' does this for every region it adds to the data directory.
    """

    static let options = OptionTable(valued: ["--output", "--data-dir"], switches: ["--help"],
                                     aliases: ["-h": "--help", "-o": "--output"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 1, let pbf = args.positionals.first else {
            throw .usage("data build: expected one REGION.osm.pbf (see mapsnap data build --help)")
        }
        try InputPath.check(pbf, .file, label: "data build:")
        if let dir = args.last("--data-dir") { try InputPath.checkOptionalDirectory(dir, label: "--data-dir") }
        let name = regionName(pbf)
        let output: String
        if let o = args.last("--output") {
            guard (o as NSString).pathExtension.lowercased() == "pmtiles" else {
                throw .usage("data build: -o \(o): the output must be a .pmtiles file")
            }
            output = o
        } else {
            guard DataDirectory.isValidRegionName(name) else {
                throw .usage("data build: cannot name a region after '\((pbf as NSString).lastPathComponent)'; give -o NAME.pmtiles")
            }
            output = DataDirectory.resolve(explicit: args.last("--data-dir")).archivePath(forRegion: name)
        }
        guard let tilemaker = RegionBuilder.findTilemaker() else { throw .runtime(RegionBuildError.tilemakerMissing.description) }
        let date = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
        let origin = "\((pbf as NSString).lastPathComponent) (built \(date))"
        do {
            let r = try RegionBuilder.build(pbf: pbf, output: output, origin: origin, tilemaker: tilemaker)
            let p = r.places
            Output.out("wrote \(r.archivePath) (\(r.tileCount) tiles) and \(r.placeIndexPath) (\(p.addresses) addresses, \(p.streets) streets, \(p.pointsOfInterest) points of interest, \(p.places) places)")
        } catch {
            switch error {
            case .badExtract: throw .input(error.description)
            default: throw .runtime(error.description)
            }
        }
    }

    static let indexOptions = OptionTable(valued: ["--output"], switches: ["--help"], aliases: ["-h": "--help", "-o": "--output"])

    static func runIndex(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try indexOptions.parse(arguments)
        if args.has("--help") { Output.out(indexHelp); return }
        guard args.positionals.count == 1, let input = args.positionals.first else {
            throw .usage("data index: expected one REGION.osm.pbf, .pmtiles or .mbtiles (see mapsnap data index --help)")
        }
        guard let output = args.last("--output") else { throw .usage("data index: missing -o OUT.places") }
        try InputPath.check(input, .file, label: "data index:")
        let lower = input.lowercased()
        if lower.hasSuffix(".pmtiles") || lower.hasSuffix(".mbtiles") {
            let p = try writeTileIndex(archive: input, to: output)
            Output.out("wrote \(output) (\(summaryText(p)))")
            return
        }
        do {
            let reader = try OSMPBFReader(path: input)
            let (writer, p) = try PlaceIndexBuilder.build(pbf: reader)
            try AtomicFile.write(writer.encode(), to: output)
            Output.out("wrote \(output) (\(summaryText(p)))")
        } catch let error as AtomicFileError {
            throw .runtime("cannot write \(output): \(error)")
        } catch {
            if case .unreadable = error as? OSMPBFError { throw .runtime("\(input): \(error)") }
            throw .input("\(input): \(error)")
        }
    }

    /// Builds the place index of a local vector-tile archive and writes it to `output` atomically.
    static func writeTileIndex(archive: String, to output: String) throws(CLIError) -> PlaceIndexBuilder.Summary {
        let source: any TileSource
        do { source = try TileSources.open(archive) } catch { throw .input("\(archive): \(error.description)") }
        let writer: PlaceIndexWriter, summary: PlaceIndexBuilder.Summary
        do { (writer, summary) = try PlaceIndexBuilder.build(tiles: source, path: archive) } catch { throw .input(error.description) }
        do { try AtomicFile.write(writer.encode(), to: output) } catch { throw .runtime("cannot write \(output): \(error)") }
        return summary
    }

    static func summaryText(_ p: PlaceIndexBuilder.Summary) -> String {
        "\(p.addresses) addresses, \(p.streets) streets, \(p.pointsOfInterest) points of interest, \(p.places) places"
    }

    /// `helsinki` for `…/helsinki.osm.pbf` (also `.pbf`, `-latest.osm.pbf` kept as is).
    static func regionName(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".osm.pbf", ".pbf"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name
    }
}
