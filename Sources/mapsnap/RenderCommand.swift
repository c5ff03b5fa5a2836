import Dispatch
import Foundation
import MapSnap

/// `mapsnap render`: flags (or a spec file, or a Static Maps URL) → one PNG.
enum RenderCommand {
    static let help = """
    USAGE: mapsnap render [options] -o OUT.png

    Renders a static map. With no --center/--zoom the camera fits every overlay.
    Overlays draw in the order given; markers above shapes.

    CAMERA AND IMAGE
      --size WxH            image size in points (default 600x400)
      --scale N             pixel ratio 1-4: line widths, markers and text scale too (default 1)
      --center LAT,LON|NAME map centre: a place name, address or named place (resolved
                            offline: region indexes, the bundled Helsinki index, GeoNames)
      --zoom Z              zoom 0-22, fractional allowed
      --bearing DEG|auto    turn the map: the direction the top of the image faces,
                            degrees clockwise from north (-360 to 360; 90 = east up);
                            labels, pins and the scale bar stay level. auto: track-up,
                            the overlays' main direction runs from bottom to top
      --pitch DEG           tilt the view from straight down (0-85, MapLibre's perspective;
                            0 = flat): far streets recede towards the top, the sky above
                            the far limit; labels and pins stay upright
      --padding PX          free space kept around fitted content, in points (default 24)
      --fractional-zoom     fit at a fractional zoom instead of the largest integer zoom
      --max-size PX         largest image side in pixels (default 8192, at most 65536)
      --max-pixels N        largest image area in pixels, width x height after --scale
                            (default 67108864 = 8192x8192, at most 268435456 = 16384x16384)
      --max-cost N          most the overlays may cost to draw, in pixel operations (a cell
                            an outline crosses or a pixel a stroke or fill covers), estimated
                            before anything is drawn; past it exit 2, nothing written
                            (default 1e9, about two CPU-seconds; 0 = no limit; at most 1e12)

    BASE MAP
      --basemap NAME        a named online base map (needs the internet, or --offline and
                            the cache): liberty, positron, bright (OpenFreeMap's styles, no
                            key), osm (OpenStreetMap's standard tiles: at most 2 connections,
                            cached 7 days or more, single maps only — batch and data extract
                            refuse it), protomaps (the Protomaps planet build, its newest
                            dated archive, by range requests). Each credits its provider.
                            URLs: MAPSNAP_BASEMAP_<NAME>_URL (and, for protomaps,
                            MAPSNAP_BASEMAP_PROTOMAPS_BUILDS_URL: see docs/basemaps.md)
      --contact TEXT        an e-mail address or web page sent to base-map providers in the
                            User-Agent (default $MAPSNAP_CONTACT); OpenStreetMap asks for it
      --style NAME|FILE|URL normal (default), terrain, hybrid, satellite (Google's roadmap
                            means normal), or a MapLibre style
                            JSON file or http(s) URL (its TileJSON, PMTiles and sprite URLs
                            are fetched too, all cached)
      --source SOURCE       tiles for the style: .mbtiles, .pmtiles, a z/x/y directory,
                            an http(s) URL template with {z}/{x}/{y} ({s}, {r}, {-y}), or
                            the http(s) URL of a .pmtiles archive (read by range requests;
                            also pmtiles://https://…) or of a TileJSON document;
                            raster tiles with a vector style become the whole base map
      --data-dir DIR        the regions to draw where they cover the view (tile archives
                            from 'mapsnap data extract'/'data build'; default $MAPSNAP_DATA,
                            else $XDG_DATA_HOME/mapsnap, else ~/.local/share/mapsnap), and
                            their address indexes (NAME.places): places and addresses
                            such as 'Aleksanterinkatu 52, Helsinki' work anywhere a
                            location is accepted
      --cache-dir DIR       on-disk cache for everything fetched over HTTP: tiles, styles,
                            TileJSON, sprites, icons, PMTiles ranges (default
                            $MAPSNAP_CACHE_DIR or ~/.cache/mapsnap/tiles); its folders are
                            made private (0700), and a folder other users can write is
                            refused (exit 2; from the environment: not used, a warning)
      --offline             use the cache only; never touch the network (what is not
                            cached is an error naming its URL)
      --timeout SEC         per-request HTTP timeout (default 10; 2 retries on failure)
      --sprite BASE         the style's sprite sheet instead of its own: BASE.json +
                            BASE.png (BASE@2x.* used from --scale 2), a local path or an
                            http(s) URL; icons and fill/line patterns come from it
      --render-timeout SEC  time allowed for loading the base map's tiles; tiles not read
                            by then are skipped (default 300; 0 = no limit)
      --allow-missing-tiles write the map even when no base-map tile could be read
      --require-detail      fail (exit 3, nothing written) when a quarter or more of the view
                            has no detailed map data (only over-zoomed or no tiles: outside
                            every source's area, past the zooms it has); without it that is
                            a warning
      --max-connections N   HTTP connections per host at once, shared by all renders of the
                            process (default 8)
      --allow-cross-origin-redirects
                            follow HTTP redirects to other hosts (default: same host only;
                            https to http never)
      --dem SOURCE          elevation tiles (PNG; same kinds of source as --source) for
                            hillshading: the terrain style shades relief from them, and
                            they replace a style file's raster-dem sources
      --dem-encoding ENC    terrarium or mapbox (Terrain-RGB); default: as the style's
                            raster-dem source says (terrain: terrarium; spec default mapbox)

    OVERLAYS (Google Static Maps syntax; repeatable)
      --path SPEC           e.g. 'color:0xff0000ff|weight:4|60.17,24.94|60.16,24.95'
                            or 'weight:5|enc:ENCODED_POLYLINE'; fillcolor: closes and fills
      --marker SPEC         e.g. 'size:mid|color:blue|label:A|title:Start|60.17,24.94'
                            size:tiny|small|mid|normal, style:dot, anchor:, icon:FILE.png
                            or icon:https://… (PNG or JPEG up to 1 MiB, cached)
      --visible LAT,LON     a point the fitted camera must show
      --geojson FILE        GeoJSON with simplestyle-spec properties
      --gpx FILE            GPX 1.0/1.1: tracks and routes → paths, waypoints → markers
      --polyline ENC        an encoded polyline (precision 5)
      --polyline6 ENC       an encoded polyline (precision 6, OSRM/Valhalla)
      --url URL             a whole Google Static Maps URL
      --spec FILE.json      a JSON spec describing the render (see docs/spec-format.md);
                            flags given as well are applied on top of it

    DIRECTIONS (a route from a routing engine, or a saved answer)
      --from PLACE          where the route starts: LAT,LON, a place name or an address
      --to PLACE            where it ends
      --via PLACE           a stop on the way (repeatable, in order; numbered pins)
      --mode MODE           drive (default), walk, bike or transit
      --alternatives N      also draw up to N alternate routes (0-3), in grey
      --avoid LIST          tolls,highways,ferries (any of them)
      --units U             metric (default) or imperial, for the "18 min · 4.2 km" callout
      --router URL          the engine: valhalla+http://HOST:8002, osrm+http://HOST:5000,
                            graphhopper+http://HOST:8989 (a plain URL: port 5000 = OSRM,
                            8989 = GraphHopper, else Valhalla); default $MAPSNAP_ROUTER
      --directions-json F   draw a saved answer instead (Google Directions, OSRM, Valhalla,
                            GraphHopper or Mapbox JSON, told apart by content; no network)
      --steps               numbered dots at each maneuver of the route
      --steps-out F.json    write the camera and each route's distance, time and steps
                            (the engine's numbers) as JSON, after the image

    DECORATIONS
      --attribution TEXT|none   replace (or remove) the data attribution (≤ 1000 characters)
      --no-scale-bar        hide the scale bar
      --north-arrow, --no-north-arrow
                            draw (or leave out) a north arrow at the top right; by
                            default it is drawn when the map is turned or tilted
      --caption TEXT        a caption box at the top left (≤ 1000 characters)

    OUTPUT
      -o, --output FILE     image to write ('-' for stdout); a file is replaced atomically
                            and keeps its permissions; a FIFO or device (/dev/null) is
                            written in place
      --format NAME         png8 (or png: a palette of at most 256 colours, Google's default),
                            png32 (every colour), jpg (progressive), jpg-baseline, webp
                            (lossless; lossy with --quality). Default: from the file name's
                            extension (.png → png32, .jpg, .webp), png8 for a --url, else png32;
                            a name without extension gets PNG, another extension (.gif,
                            .tiff, …) is refused (exit 2) unless --format names the format
      --quality N           JPEG or lossy WebP quality 1-100 (JPEG default 85)
      -q, --quiet           do not print warnings (errors are still printed, and so is the
                            warning that base-map tiles failed: a map with holes always says so)
      --strict              a map some of whose base-map tiles failed is an error (exit 4,
                            nothing written) instead of a warning

    EXIT CODES
      0 success, 2 bad usage or input (nothing written; also an input file or folder that is
      missing, of the wrong kind or unreadable, and the engine finding no route, with its
      reason), 3 runtime failure (the router unreachable or failing, I/O, network source,
      or no base-map tile could be read — every tile that exists failed or timed out;
      nothing written unless --allow-missing-tiles; or, with --require-detail, too little
      of the view has detailed data), 4 with --strict: some base-map tiles failed (unreadable,
      corrupt or timed out), nothing written. Tiles a source does not have are not failures.

    EXAMPLES
      mapsnap render --marker 'label:A|60.1699,24.9443' --zoom 16 -o helsinki.png
      mapsnap render --basemap liberty --center Paris --zoom 15 -o paris.png
      mapsnap render --gpx examples/ride.gpx --style terrain --size 800x600 --scale 2 -o ride.png
      mapsnap render --style terrain --dem examples/dem/ --center 36.5626,-84.2432 --zoom 12 -o relief.png
      mapsnap render --polyline6 "$(cat examples/route.polyline6)" --marker 'color:green|label:S|60.171321,24.942675' -o route.png
    (the examples/ files are in mapsnap's repository)
      mapsnap render --from 'Helsinki railway station' --to 'Market Square, Helsinki' --mode walk \\
          --router http://127.0.0.1:8002 -o walk.png
    """

    static let options = OptionTable(
        valued: Set(["--size", "--scale", "--center", "--zoom", "--bearing", "--pitch", "--padding", "--style", "--source", "--sprite", "--dem", "--dem-encoding", "--path",
                 "--marker", "--visible", "--geojson", "--gpx", "--polyline", "--polyline6", "--spec", "--url",
                 "--attribution", "--caption", "--output", "--max-size", "--max-pixels", "--cache-dir", "--timeout",
                 "--render-timeout", "--max-connections", "--format", "--quality", "--data-dir", "--basemap", "--contact",
                 "--max-cost"])
            .union(RenderDirections.valuedOptions),
        switches: ["--no-scale-bar", "--north-arrow", "--no-north-arrow", "--fractional-zoom", "--quiet", "--help", "--offline",
                   "--allow-missing-tiles", "--allow-cross-origin-redirects", "--require-detail", "--steps", "--strict"],
        aliases: ["-o": "--output", "-q": "--quiet", "-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        if let extra = args.positionals.first {
            throw .usage("render: unexpected argument '\(extra)' (options start with --; see mapsnap render --help)")
        }
        try checkInputPaths(args)
        // The bundled fonts load (a few milliseconds) on another thread while the inputs are
        // read and the style is prepared; the render waits for them if it gets there first.
        DispatchQueue(label: "mapsnap.warm-up").async { MapRenderer.shared.loadFonts() }
        // Addresses and named places: the data directory's region indexes, the bundled
        // Helsinki index, then the gazetteer (--data-dir is read before any place is).
        let places = DataDirectory.resolve(explicit: args.last("--data-dir")).placeResolver()
        var spec = try buildSpec(args, places: places)
        let directions = try RenderDirections.apply(to: &spec, args)
        guard let output = spec.output else {
            throw .usage("render: missing -o OUT.png (use '-o -' for stdout)")
        }
        if output != "-", let problem = spec.outputNameProblem(fileName: output) {
            throw .usage("\(args.has("--output") ? "-o" : "--spec output") \(problem)")
        }
        if !args.has("--quiet") {
            spec.warnings.forEach(Output.warning)
            places.problems.forEach(Output.warning)
        }
        let camera = try render(spec, to: output, quiet: args.has("--quiet"), allowMissingTiles: args.has("--allow-missing-tiles"),
                                requireDetail: args.has("--require-detail"), strict: args.has("--strict"))
        try RenderDirections.writeSteps(directions, camera: camera, args)
    }

    /// Every file and folder the flags name, by the one rule of `InputPath` (exit 2, the flag
    /// and path once), before anything is read. Paths inside a spec are the library's to
    /// report, with the spec's key.
    static func checkInputPaths(_ args: ParsedArguments) throws(CLIError) {
        for (name, value) in args.options {
            guard let v = value else { continue }
            switch name {
            case "--spec", "--gpx", "--geojson": try InputPath.check(v, .file, label: name)
            case "--style":
                // A name (`normal`, `roadmap`) or a URL is not a path; `x.json` or `dir/x` is.
                let isFile = v.contains("/") || v.lowercased().hasSuffix(".json")
                if isFile, !v.contains("://") { try InputPath.check(v, .file, label: name) }
            case "--source", "--dem": try InputPath.checkSource(v, label: name)
            case "--sprite":
                if !v.contains("://") { try InputPath.check(v + ".json", .file, label: name) }
            case "--data-dir": try InputPath.checkOptionalDirectory(v, label: name)
            case "--cache-dir":
                try InputPath.checkOptionalDirectory(v, label: name)
                if let problem = HTTPTileSource.cacheDirectoryProblem(v) { throw .input("--cache-dir \(problem)") }
            default: break
            }
        }
    }

    /// Why a batch must not render `options` (a bulk download from tile.openstreetmap.org, which
    /// its tile policy prohibits), or nil.
    static func bulkDownloadRefusal(_ options: MapSnapshotOptions) -> String? {
        if let basemap = options.basemap {
            guard basemap.followsOpenStreetMapTilePolicy else { return nil }
            return "basemap osm: " + (Basemap.bulkDownloadRefusal(for: basemap.url)
                ?? "OpenStreetMap's tile usage policy prohibits bulk downloading; render single maps with mapsnap render")
        }
        for location in [options.source, options.style].compactMap({ $0 }) {
            if let refusal = Basemap.bulkDownloadRefusal(for: location) { return "\(location): \(refusal)" }
        }
        return nil
    }

    /// The CLI's time limit for loading tiles when `--render-timeout` is not given.
    static let defaultRenderTimeout = 300.0

    /// `--render-timeout SEC`: seconds, or 0 for no limit.
    static func renderTimeout(_ text: String) throws(CLIError) -> Double? {
        do {
            return try RenderSpecBuilder.renderTimeout(text, origin: "--render-timeout")
        } catch {
            throw .usage(error.description)
        }
    }

    /// `--max-cost N` for `batch`: one limit for every job (the builder's rule).
    static func maximumCost(_ text: String) throws(CLIError) -> Double? {
        do {
            return try RenderSpecBuilder.maximumDrawingCost(text, origin: "--max-cost")
        } catch {
            throw .usage(error.description)
        }
    }

    /// Applies flags in command-line order on top of an optional --spec file.
    static func buildSpec(_ args: ParsedArguments, places: any PlaceResolving) throws(CLIError) -> RenderSpec {
        if args.has("--basemap"), let other = ["--style", "--source"].first(where: args.has) {
            throw .usage("--basemap and \(other) both choose the base map: give one (a base map brings its own style and tiles)")
        }
        do {
            let resolver: (any PlaceResolving)? = places
            var base = MapSnapshotOptions()
            var output: String?
            var warnings: [String] = []
            if let specPath = args.last("--spec") {
                let spec = try RenderSpec.load(path: specPath, resolver: resolver)
                base = spec.options
                output = spec.output
                warnings = spec.warnings
            }
            // The CLI's defaults, set before any flag (the flags go through the builder).
            base.renderTimeout = defaultRenderTimeout
            base.maximumDrawingCost = DrawingCost.defaultLimit
            var b = RenderSpecBuilder(options: base, resolver: resolver)
            if let output { try b.setOutput(output, origin: "--spec") }
            for (name, value) in args.options {
                guard let v = value else {
                    switch name {
                    case "--no-scale-bar": b.setShowsScaleBar(false)
                    case "--north-arrow": b.setShowsNorthArrow(true)
                    case "--no-north-arrow": b.setShowsNorthArrow(false)
                    case "--fractional-zoom": b.setFractionalZoom(true)
                    case "--offline": b.setOffline(true)
                    case "--allow-cross-origin-redirects": b.setAllowsCrossOriginRedirects(true)
                    case "--steps": b.setShowsSteps(true)
                    default: break
                    }
                    continue
                }
                switch name {
                case "--size": try b.setSize(v, origin: name)
                case "--scale": try b.setScale(v, origin: name)
                case "--center": try b.setCenter(v, origin: name)
                case "--zoom": try b.setZoom(v, origin: name)
                case "--bearing": try b.setBearing(v, origin: name)
                case "--pitch": try b.setPitch(v, origin: name)
                case "--padding": try b.setPadding(v, origin: name)
                case "--style": try b.setStyle(v, origin: name)
                case "--source": try b.setSource(v, origin: name)
                case "--basemap": try b.setBasemap(v, origin: name)
                case "--contact": try b.setContact(v, origin: name)
                case "--sprite": try b.setSprite(v, origin: name)
                case "--dem": try b.setDEM(v, origin: name)
                case "--dem-encoding": try b.setDEMEncoding(v, origin: name)
                case "--path": try b.addPath(v, origin: name)
                case "--marker": try b.addMarkers(v, origin: name)
                case "--visible": try b.addVisible(v, origin: name)
                case "--geojson": try b.loadGeoJSON(path: v, origin: name)
                case "--gpx": try b.loadGPX(path: v, origin: name)
                case "--polyline": try b.addPolyline(v, precision: 5, origin: name)
                case "--polyline6": try b.addPolyline(v, precision: 6, origin: name)
                case "--url": try b.applyStaticMapsURL(v, origin: name)
                case "--attribution": try b.setAttribution(v, origin: name)
                case "--caption": try b.setCaption(v, origin: name)
                case "--output": try b.setOutput(v, origin: name)
                case "--format": try b.setFormat(v, origin: name)
                case "--quality": try b.setQuality(v, origin: name)
                case "--cache-dir": b.setCacheDirectory(v)
                case "--data-dir": b.setDataDirectory(v)
                case "--timeout": try b.setHTTPTimeout(v, origin: name)
                case "--max-connections": try b.setMaximumConnections(v, origin: name)
                case "--max-size": try b.setMaximumPixelSize(v, origin: name)
                case "--max-pixels": try b.setMaximumPixelCount(v, origin: name)
                case "--render-timeout": try b.setRenderTimeout(v, origin: name)
                case "--max-cost": try b.setMaximumDrawingCost(v, origin: name)
                case "--from": try b.setDirectionsOrigin(v, origin: name)
                case "--to": try b.setDirectionsDestination(v, origin: name)
                case "--via": try b.addDirectionsWaypoints(v, origin: name)
                case "--mode": try b.setTravelMode(v, origin: name)
                case "--alternatives": try b.setAlternatives(v, origin: name)
                case "--avoid": try b.setAvoid(v, origin: name)
                case "--units": try b.setUnits(v, origin: name)
                case "--directions-json": try b.setDirectionsResponse(v, origin: name)
                default: break
                }
            }
            var spec = try b.build()
            spec.warnings = warnings + spec.warnings
            return spec
        } catch {
            throw .input(error.description)
        }
    }

    /// Renders and writes one map. A map whose base-map tiles all failed (`nothingLoaded`)
    /// is a runtime failure unless `allowMissingTiles`, and so is a map lacking detail
    /// (`MapCoverage.lacksDetail`) with `requireDetail`; nothing is written then. A map some
    /// of whose tiles failed is said so even when `quiet` (`alwaysWarn`), and with `strict`
    /// is `CLIError.incomplete` (exit 4), nothing written. `collect` gets every warning,
    /// printed or not (batch's report).
    @discardableResult
    static func render(_ spec: RenderSpec, to output: String, quiet: Bool, allowMissingTiles: Bool, requireDetail: Bool = false,
                       strict: Bool = false, warn: (String) -> Void = Output.warning,
                       alwaysWarn: ((String) -> Void)? = nil, collect: (String) -> Void = { _ in }) throws(CLIError) -> Camera {
        let snapshot: MapSnapshot
        do {
            snapshot = try MapSnapshotter(options: spec.options).render()
        } catch {
            throw error.isInputError ? .input(error.description) : .runtime(error.description)
        }
        // With --require-detail the coverage warning is the error, said once.
        let failsForDetail = requireDetail && snapshot.coverage.lacksDetail
        for w in snapshot.warnings where !(failsForDetail && w == snapshot.coverage.warning) {
            collect(w)
            if !quiet { warn(w) }
        }
        let tiles = snapshot.baseMapTiles
        if tiles.nothingLoaded {
            let what = "no base-map tile could be read (\(tiles.failed) of \(tiles.requested) failed, none loaded)"
            guard allowMissingTiles else {
                throw .runtime("\(what); nothing written (--allow-missing-tiles writes the map anyway)")
            }
            collect("\(what); writing the map anyway (--allow-missing-tiles)")
            if !quiet { warn("\(what); writing the map anyway (--allow-missing-tiles)") }
        }
        if failsForDetail, let why = snapshot.coverage.warning {
            throw .runtime("\(why); nothing written (--require-detail)")
        }
        if tiles.failed > 0, !tiles.nothingLoaded {
            let what = "\(tiles.failed) of \(tiles.requested) base-map tiles failed (unreadable, corrupt or timed out)"
            if strict { throw .incomplete("\(what); nothing written (--strict)") }
            // Not hidden by -q: a map with holes in it must never look like a whole one.
            let line = "\(what): the map has gaps where they belong (--strict makes this exit 4)"
            collect(line)
            if let alwaysWarn { alwaysWarn(line) } else { warn(line) }
        }
        let format = spec.outputFormat(fileName: output == "-" ? nil : output)
        let png: [UInt8]
        do {
            png = try snapshot.data(format: format, quality: spec.quality)
        } catch {
            throw .runtime("encoding \(format.rawValue): \(error)")
        }
        if output == "-" {
            try Output.png(png)
            return snapshot.camera
        }
        // Temporaries of earlier runs killed mid-write would otherwise stay forever.
        AtomicFile.removeStaleTemporaries(for: output)
        do {
            try AtomicFile.write(png, to: output)
        } catch {
            throw .runtime("\(error)")
        }
        return snapshot.camera
    }
}
