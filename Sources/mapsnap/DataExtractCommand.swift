import Foundation
import MapSnap

/// `mapsnap data extract`: the tiles of an area, copied from a PMTiles or MBTiles archive.
enum DataExtractCommand {
    static let help = """
    USAGE: mapsnap data extract SOURCE (--bbox W,S,E,N | --place NAME [--radius KM] | --geojson AREA.geojson)
                                [--minzoom Z] [--maxzoom Z] [-o OUT.pmtiles | --name NAME] [--force]
                                [--dry-run] [-q] [--data-dir DIR]

    Copies the tiles of an area from SOURCE into a PMTiles archive, byte for byte. SOURCE is
    a PMTiles archive — a local file or an http(s):// URL, such as a daily Protomaps planet
    build — or a local MBTiles file (OpenMapTiles schema or any other). From a URL only the
    directories and tiles of the area are fetched, in a few large range requests: the cost
    grows with the area, not with the planet.

    AREA (one of):
      --bbox W,S,E,N        a box in degrees: west, south, east, north (west > east crosses
                            the antimeridian)
      --place NAME          a place name (or LAT,LON) and the square reaching --radius KM
                            (default 10) north, south, east and west of it
      --geojson FILE        the Polygon and MultiPolygon features of a GeoJSON file (the
                            tiles touching the polygons, not their whole box)

    OPTIONS:
      --minzoom Z           lowest zoom copied (default: the source's, usually 0)
      --maxzoom Z           deepest zoom copied (default: the source's deepest; renders zoom
                            in past it). Each extra zoom about quadruples the size.
      -o, --output FILE     write FILE instead of a region of the data directory
      --name NAME           the region's name (default: the place, the GeoJSON file's name,
                            else bbox_W_S_E_N); the archive is DATA_DIR/NAME.pmtiles
      --force               replace a region of the same name (and its place index)
      --dry-run             read the directories only; print what would be copied
      -q, --quiet           no progress line, no summary
      --data-dir DIR        the data directory (default $MAPSNAP_DATA, else
                            $XDG_DATA_HOME/mapsnap, else ~/.local/share/mapsnap)

    The archive keeps the source's metadata (attribution, vector layers) with the area's
    bounds and records its origin (mapsnap:origin: source, area, zooms, date — the date from
    $SOURCE_DATE_EPOCH when set). It is written to a temporary file and renamed when
    complete: Ctrl-C or a failure leaves nothing. A remote archive that changes during the
    extract (another ETag or size) is an error. Progress (tiles, bytes, rate, time left) is
    shown on a terminal.

    A region of the data directory made of vector tiles (OpenMapTiles or Protomaps) also
    gets a place index, DATA_DIR/NAME.places: its streets, points of interest and named
    places, found by --center, markers, paths and URLs. Not its addresses: tiles carry house
    numbers without their street ('data build' from an .osm.pbf indexes addresses).

    EXAMPLES:
      mapsnap data extract https://build.protomaps.com/20261203.pmtiles --place Paris --maxzoom 15
      mapsnap data extract helsinki.mbtiles --bbox 24.90,60.15,24.99,60.19 -o centre.pmtiles

    Exit status: 0 done, 2 bad usage or input (area, zooms, source file), 3 network or
    disk failure, 130 interrupted (Ctrl-C; 143 for SIGTERM).
    """

    static let options = OptionTable(valued: ["--bbox", "--place", "--radius", "--geojson", "--minzoom", "--maxzoom", "--output", "--name",
                                              "--data-dir"],
                                     switches: ["--force", "--dry-run", "--quiet", "--help"],
                                     aliases: ["-o": "--output", "-q": "--quiet", "-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard let source = args.positionals.first else {
            throw .usage("data extract: expected SOURCE (a .pmtiles file or URL, or an .mbtiles file); see mapsnap data extract --help")
        }
        if args.positionals.count > 1 { throw .usage("data extract: unexpected argument '\(args.positionals[1])'") }
        try InputPath.checkSource(source, label: "data extract:")
        if let path = args.last("--geojson") { try InputPath.check(path, .file, label: "--geojson") }
        if let dir = args.last("--data-dir") { try InputPath.checkOptionalDirectory(dir, label: "--data-dir") }
        if let refusal = Basemap.bulkDownloadRefusal(for: source) { throw .usage("data extract \(source): \(refusal)") }
        let quiet = args.has("--quiet")
        let (area, label, derivedName) = try area(args)
        var minZoom: Int?, maxZoom: Int?
        if let text = args.last("--minzoom") { minZoom = try zoom(text, flag: "--minzoom") }
        if let text = args.last("--maxzoom") { maxZoom = try zoom(text, flag: "--maxzoom") }

        let output: String
        // A region in the data directory gets a place index beside it (NAME.places).
        var indexPath: String?
        let dryRun = args.has("--dry-run")
        // Archives of the region in the other format (NAME.mbtiles), replaced once the new one is in place.
        var superseded: [String] = []
        if let path = args.last("--output") {
            if args.last("--name") != nil { throw .usage("data extract: give -o FILE or --name NAME, not both") }
            guard path != "-" else { throw .usage("-o: an archive is written in pieces and cannot go to standard output; name a file") }
            output = path
        } else {
            let name = args.last("--name") ?? derivedName
            guard DataDirectory.isValidRegionName(name) else {
                throw .usage("--name \(name): a region name is letters, digits, '-', '_' and '.', not starting with '.', at most 100 characters")
            }
            let dir = DataDirectory.resolve(explicit: args.last("--data-dir"))
            output = dir.archivePath(forRegion: name)
            let taken = dir.archivePaths().filter { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension == name }
            if !taken.isEmpty, !args.has("--force"), !dryRun {
                throw .usage("data extract: the region '\(name)' already exists (\(taken.joined(separator: ", "))); add --force to replace it, or choose another --name")
            }
            if !dryRun {
                do {
                    try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
                } catch {
                    throw .runtime("cannot create the data directory \(dir.path): \(error.localizedDescription)")
                }
                superseded = taken.filter { $0 != output }
                // The replaced region's place index describes the old tiles' area: it goes too.
                let index = (dir.path as NSString).appendingPathComponent("\(name).\(DataDirectory.placeIndexExtension)")
                if !taken.isEmpty, FileManager.default.fileExists(atPath: index) { superseded.append(index) }
                indexPath = index
            }
        }

        var request = RegionExtractor.Request(source: source, area: area, output: output, date: date())
        request.minZoom = minZoom
        request.maxZoom = maxZoom
        request.areaLabel = label
        request.dryRun = dryRun
        let progress = ProgressLine(enabled: !quiet && !dryRun && isatty(STDERR_FILENO) == 1)
        if !dryRun {
            // The temporary lies beside the file a symbolic link names, if -o is one.
            let target = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
            AtomicFile.removeStaleTemporaries(for: target)
            // The temporary itself is removed by the handler main.swift installed.
            Interruptions.shared.setNote {
                progress.finish()
                Output.error("extract interrupted; nothing was written")
            }
        }
        let shown = RegionExtractor.shown(source)
        progress.note("extract: reading the directories of \(shown)…")
        let started = Date()
        let report: RegionExtractor.Report
        do {
            report = try RegionExtractor.run(request, progress: { progress.update($0) })
        } catch {
            progress.finish()
            if case .cancelled = error { throw .runtime(error.description) }
            throw error.isInputProblem ? .input(error.description) : .runtime(error.description)
        }
        progress.finish()
        // A region of the same name in the other format would shadow or duplicate the new one.
        for other in superseded {
            do { try FileManager.default.removeItem(atPath: other) } catch {
                throw .runtime("wrote \(output) but cannot remove the older \(other): \(error.localizedDescription)")
            }
        }
        let seconds = Date().timeIntervalSince(started)
        var indexNote: String?
        // Vector tiles of a known schema only: a raster region has no names to index.
        if let indexPath, !dryRun, report.tiles > 0, let source = try? TileSources.open(output),
           VectorTileSchema.identify(source) != nil {
            do {
                let summary = try DataBuildCommand.writeTileIndex(archive: output, to: indexPath)
                indexNote = "indexed \(DataBuildCommand.summaryText(summary)) in \(indexPath)"
            } catch {
                Output.warning("data extract: wrote \(output), but no place index: \(error)")
            }
        }
        guard !quiet else { return }
        let ratio = report.tileBytes > 0 ? Double(report.bytesRead) / Double(report.tileBytes) : 0
        if dryRun {
            Output.out("would extract \(count(report.tiles)) tiles (\(count(report.entries)) entries, \(bytes(report.tileBytes))) at z\(report.minZoom)–\(report.maxZoom) from \(shown)")
            Output.out("planned: \(count(report.tileReads)) tile reads of \(bytes(report.tileReadBytes)); read so far (header and directories): \(count(report.reads)) reads, \(bytes(report.bytesRead))")
            Output.out("would write \(output)")
            return
        }
        Output.out("wrote \(output): \(count(report.tiles)) tiles, z\(report.minZoom)–\(report.maxZoom), \(bytes(report.archiveBytes))")
        if let indexNote { Output.out(indexNote) }
        Output.out(String(format: "read %@ in %@ requests, %@ (%.2f× the tiles' bytes), %.1f s", shown, count(report.reads),
                          bytes(report.bytesRead), ratio, seconds))
    }

    // MARK: - Area

    /// The area, the label it gets in `mapsnap:origin`, and the region name it suggests.
    static func area(_ args: ParsedArguments) throws(CLIError) -> (ExtractArea, String?, String) {
        let given = ["--bbox", "--place", "--geojson"].filter(args.has)
        guard given.count == 1 else {
            throw .usage(given.isEmpty ? "data extract: give the area: --bbox W,S,E,N, --place NAME or --geojson FILE"
                                       : "data extract: give one area, not \(given.joined(separator: " and "))")
        }
        if args.has("--radius"), !args.has("--place") { throw .usage("--radius goes with --place") }
        do {
            if let text = args.last("--bbox") {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3] else {
                    throw CLIError.usage("--bbox \(text): expected W,S,E,N — four numbers in degrees (west, south, east, north)")
                }
                let area = try ExtractArea.box(west: w, south: s, east: e, north: n)
                let name = "bbox_" + [w, s, e, n].map { String(format: "%.2f", $0) }.joined(separator: "_")
                return (area, nil, name)
            }
            if let place = args.last("--place") {
                var radius = 10.0
                if let text = args.last("--radius") {
                    guard let r = Double(text) else { throw CLIError.usage("--radius \(text): expected kilometres, such as 10") }
                    radius = r
                }
                let center: LatLng
                do {
                    center = try StaticMapsSyntax.parseLocation(place, origin: "--place", resolver: DataDirectory.resolve(explicit: args.last("--data-dir")).placeResolver())
                } catch {
                    throw CLIError.input(error.description)
                }
                let area = try ExtractArea.around(center, radiusKilometers: radius)
                let isCoordinate = place.allSatisfy { "0123456789+-., ".contains($0) }
                let name = isCoordinate ? nil : regionName(fromPlace: place)
                let label = "\(place) ±\(String(format: "%g", radius)) km"
                return (area, label, name ?? ("place_" + String(format: "%.3f_%.3f", center.latitude, center.longitude)))
            }
            let path = args.last("--geojson") ?? ""
            let bytes = try RenderSpecBuilder().readFile(path, origin: "--geojson")
            let document = try GeoJSON(bytes: bytes, source: path)
            var polygons: [[[LatLng]]] = []
            for overlay in document.overlays {
                if case .polygon(let p) = overlay { polygons.append(p.rings) }
            }
            guard !polygons.isEmpty else {
                throw CLIError.input("--geojson \(path): no Polygon or MultiPolygon in it (the area must be polygons)")
            }
            let area = try ExtractArea.polygons(polygons, flag: "--geojson \(path)")
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let name = regionName(fromPlace: stem) ?? "area"
            return (area, (path as NSString).lastPathComponent, name)
        } catch let error as CLIError {
            throw error
        } catch let error as RegionExtractError {
            throw .input(error.description)
        } catch {
            throw .input("\(error)")
        }
    }

    /// `paris` for "Paris", `sao-paulo` for "São Paulo, Brazil": the place's first part,
    /// folded to lowercase without accents, other characters turned into dashes.
    static func regionName(fromPlace place: String) -> String? {
        let first = place.split(separator: ",").first.map(String.init) ?? place
        let folded = first.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var name = ""
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else if !name.isEmpty, !name.hasSuffix("-") {
                name += "-"
            }
        }
        while name.hasSuffix("-") { name.removeLast() }
        name = String(name.prefix(100))
        return name.isEmpty ? nil : name
    }

    static func zoom(_ text: String, flag: String) throws(CLIError) -> Int {
        guard let z = Int(text), (0...30).contains(z) else { throw .usage("\(flag) \(text): expected a whole zoom from 0 to 30") }
        return z
    }

    /// Now, or `$SOURCE_DATE_EPOCH` (reproducible builds' convention) when set.
    static func date() -> Date {
        if let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Double(text), seconds.isFinite {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date()
    }

    static func count(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func bytes(_ n: UInt64) -> String { DataCommand.byteCount(Int64(clamping: n)) }

    // MARK: - Progress and interruption

    /// The progress line on a terminal: `extract: 1,204/5,230 tiles, 12 MB/48 MB, 3.1 MB/s,
    /// 0:12 left`, redrawn in place at most ten times a second.
    final class ProgressLine: Sendable {
        private struct State {
            var lastDraw = 0.0
            var drawn = false
        }
        private let enabled: Bool
        private let start = Date()
        private let state = Locked(State())

        init(enabled: Bool) { self.enabled = enabled }

        func note(_ text: String) {
            guard enabled else { return }
            state.withLock { s in
                s.drawn = true
                Output.rawNoNewline("\r\u{1B}[2K" + text)
            }
        }

        func update(_ p: RegionExtractor.Progress) {
            guard enabled else { return }
            state.withLock { s in
                let now = Date().timeIntervalSince(start)
                guard now - s.lastDraw >= 0.1 || p.bytesDone == p.bytesTotal else { return }
                s.lastDraw = now
                s.drawn = true
                var text = "extract: \(count(p.tilesDone))/\(count(p.tilesTotal)) tiles, \(bytes(p.bytesDone))/\(bytes(p.bytesTotal))"
                if now > 0.5, p.bytesDone > 0 {
                    let rate = Double(p.bytesDone) / now
                    text += ", \(bytes(UInt64(rate)))/s"
                    if p.bytesDone < p.bytesTotal {
                        let left = Int((Double(p.bytesTotal - p.bytesDone) / rate).rounded())
                        text += ", \(left / 60):\(String(format: "%02d", left % 60)) left"
                    }
                }
                Output.rawNoNewline("\r\u{1B}[2K" + text)
            }
        }

        /// Clears the line, so what follows starts on a clean one.
        func finish() {
            guard enabled else { return }
            state.withLock { s in
                if s.drawn { Output.rawNoNewline("\r\u{1B}[2K") }
                s.drawn = false
            }
        }
    }
}
