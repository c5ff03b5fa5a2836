import Foundation

/// A style ready to draw from: parsed, its sources opened and resolved. Expensive to make
/// and immutable, so a `MapRenderer` keeps it for the renders that use the same style,
/// sources and network options.
struct BaseMapSetup: Sendable {
    /// Everything a setup depends on.
    struct Key: Hashable, Sendable {
        /// `normal`, `terrain`, `hybrid` or a style file path.
        var style: String
        /// The style file's `FileStamp`: an edited or replaced file is prepared again.
        var styleFileStamp: String?
        /// `FileStamp`s of a local `source` and `demSource` ("" for none or a URL): a file
        /// replaced on disk prepares the style again, with the new file opened.
        var sourceFileStamps: [String] = []
        /// `--source`: replaces the style's sources of its kind.
        var source: String?
        /// `--dem`: replaces the `raster-dem` sources and fills the bundled `mapsnap:dem` slot.
        var demSource: String?
        var demEncoding: DEMEncoding?
        /// `--sprite`: a local copy of the style's sprite sheet (base path, without `.json`).
        var sprite: String?
        /// Device pixels per CSS pixel: picks `@2x` sprite sheets from 2 up.
        var pixelRatio: Double
        var http: HTTPTileSource.Options
        /// Google styling rules and label language applied to the style.
        var customization = StyleCustomization()
        /// The data directory whose regions a bundled style draws (nil: none), and its
        /// `DataDirectory.stamp()`: a region added, removed or rewritten prepares the style again.
        var dataDirectory: String? = nil
        var regionsStamp = ""
    }

    /// The styles in `Styles/`, by name.
    static let builtinStyles = BundledStyle.names

    let style: Style
    let sources: [String: ResolvedSource]
    /// The style's icons and patterns (empty when it names no sprite or it is unavailable).
    let sprites: SpriteSheet
    /// Style warnings and sources that could not be resolved.
    let warnings: [String]
    /// True when something the style needs could not be fetched this time (the network, the
    /// deadline, an offline cache miss): the setup serves this render but is not kept.
    let isIncomplete: Bool
    /// Local files named only inside the style (its sources' `.mbtiles`/`.pmtiles`, its
    /// sprite sheet) with the `FileStamp` each had when it was read ("" when absent): the
    /// key stamps the style file and the `--source`/`--dem` files, not these.
    let localFiles: [String: String]

    /// False once a local file the style read has been replaced, edited, added or removed:
    /// a kept setup must then be prepared again (a few `stat`s per render).
    var isCurrent: Bool {
        localFiles.allSatisfy { (FileStamp.of($0.key) ?? "") == $0.value }
    }

    /// Loads the style (`normal`, `terrain`, `hybrid`, `satellite` from the bundled `Styles/`, a
    /// JSON file, or an `http(s)` URL fetched through the HTTP layer) and resolves its sources
    /// through `registry`; what it fetches ends by `deadline`.
    ///
    /// The bundled styles come for two schemas: `Styles/NAME.json` reads OpenMapTiles tiles (the
    /// embedded data), `Styles/protomaps/NAME.json` the same map from Protomaps tiles. Which one
    /// is used follows the vector `--source` (`VectorTileSchema.identify`), so a Protomaps
    /// extract draws like any other data.
    init(key: Key, sources registry: TileSourceRegistry, deadline: Deadline = .none) throws(RenderError) {
        let styleName = key.style
        let builtin = Self.builtinStyles
        let fetcher = HTTPResourceFetcher(options: key.http, deadline: deadline)
        let remote = ResourceLocation.isRemote(styleName)
        guard remote || builtin.contains(styleName) || styleName.hasSuffix(".json") || FileManager.default.fileExists(atPath: styleName) else {
            throw RenderError.unknownStyle(styleName)
        }
        var override: TileSourceRegistry.Opened?
        if let o = key.source {
            do {
                override = try registry.open(o, http: key.http, deadline: deadline)
            } catch {
                throw RenderError.source(role: .source, location: URLRedaction.redact(o), error: error)
            }
        }
        var schemaWarning: String?
        // Regions draw under the bundled styles only, and not when --source names the tiles.
        var regions = RegionMosaic()
        if builtin.contains(styleName), override == nil, let dir = key.dataDirectory {
            regions = RegionMosaic(directory: DataDirectory(path: dir))
        }
        /// A bundled style of the embedded data's schema (OpenMapTiles): its data can show
        /// beneath a vector `--source`.
        var readsEmbeddedSchema = false
        var loaded: Style
        /// What the style's relative locations resolve against: its folder or its URL.
        let base: String?
        if remote {
            loaded = try Self.fetchStyle(styleName, fetcher: fetcher, customization: key.customization)
            base = styleName
        } else {
            var path = styleName
            if builtin.contains(styleName) {
                let file = Self.bundledStyleFile(styleName, source: override?.source, sourceName: key.source ?? "",
                                                 deadline: deadline, warning: &schemaWarning)
                readsEmbeddedSchema = !file.hasPrefix("protomaps/")
                switch ResourceLocator.directory(named: "Styles", probe: file) {
                case .success(let dir): path = (dir as NSString).appendingPathComponent(file)
                case .failure(let e): throw RenderError.resourcesNotFound(e)
                }
            }
            do {
                // A bundled style given raster tiles usually only lends them its background
                // (below): its background layer is read first, the rest only if needed.
                let rasterOverride = builtin.contains(styleName) && override.map { !$0.source.metadata.format.isVector } == true
                if regions.needsProtomapsLayers {
                    loaded = try Self.composedStyle(path: path, customization: key.customization)
                } else {
                    loaded = try Style.load(path: path, customization: key.customization,
                                            layerTypes: rasterOverride ? ["background"] : nil)
                }
                if rasterOverride, !BaseMap.takesRasterBase(loaded) {
                    loaded = try Style.load(path: path, customization: key.customization)
                }
            } catch {
                throw RenderError.style(error)
            }
            base = builtin.contains(styleName) ? nil : (path as NSString).deletingLastPathComponent
        }
        // Raster tiles given to a style without raster layers become the whole base map:
        // the background, then the tiles (a vector street style on top would only hide them).
        if let o = override?.source, !o.metadata.format.isVector, BaseMap.takesRasterBase(loaded) {
            loaded = BaseMap.rasterBaseStyle(background: loaded, tileSize: o.metadata.tileSize)
        }
        style = loaded
        var warnings = StyleWarning.lines(loaded.warnings)
        if let schemaWarning { warnings.append(schemaWarning) }
        warnings += regions.problems
        do {
            sprites = try SpriteLoader.load(loaded, override: key.sprite, pixelRatio: key.pixelRatio,
                                            fetcher: fetcher.rebased(base),
                                            overrideFetcher: fetcher.rebased(nil), warnings: &warnings)
        } catch {
            throw RenderError.sprite(error, style: URLRedaction.redact(styleName), fromOptions: key.sprite != nil)
        }
        let dataDir = try? ResourceLocator.directory(named: "Data", probe: "helsinki.mbtiles").get()
        var resolver = StyleSourceResolver(styleBase: base, dataDirectory: dataDir, override: override, overrideName: key.source ?? "",
                                           demOverride: key.demSource, demEncodingOverride: key.demEncoding, http: key.http,
                                           registry: registry, deadline: deadline, regions: regions)
        resolver.embeddedBeneathOverride = readsEmbeddedSchema
        sources = try resolver.resolve(loaded, warnings: &warnings)
        if let missing = Self.missingLayersWarning(loaded, sources) { warnings.append(missing) }
        self.warnings = warnings + fetcher.warnings
        isIncomplete = fetcher.hadTransientFailure
        localFiles = resolver.localFiles.withLock { $0 }.merging(fetcher.localFiles) { first, _ in first }
    }

    /// The bundled style at `path` (`Styles/NAME.json`) composed with the vector layers of its
    /// Protomaps variant (`Styles/protomaps/NAME.json`), for Protomaps regions.
    private static func composedStyle(path: String, customization: StyleCustomization) throws(StyleError) -> Style {
        let name = (path as NSString).lastPathComponent
        let variant = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("protomaps/" + name)
        func read(_ file: String) throws(StyleError) -> [UInt8] {
            do {
                return try InputFile.read(file, limit: Style.maximumInputBytes)
            } catch {
                throw .unreadable(origin: (file as NSString).lastPathComponent, reason: error.description)
            }
        }
        let bytes = try RegionMosaic.composedStyle(openMapTiles: try read(path), protomaps: try read(variant), origin: name)
        return try Style.parse(bytes: bytes, origin: name, customization: customization)
    }

    /// A style at an `http(s)` URL. A missing or malformed document is bad input (exit 2);
    /// a network failure or an offline cache miss is the environment's (exit 3).
    private static func fetchStyle(_ url: String, fetcher: HTTPResourceFetcher,
                                   customization: StyleCustomization) throws(RenderError) -> Style {
        let shown = URLRedaction.redact(url)
        let fetched: [UInt8]?
        do {
            fetched = try fetcher.fetch(url, kind: .json, limit: Style.maximumInputBytes)
        } catch {
            throw .styleUnavailable(error)
        }
        guard let bytes = fetched else { throw .remoteStyleNotFound(url: shown) }
        do {
            return try Style.parse(bytes: bytes, origin: shown, customization: customization)
        } catch {
            throw .style(error)
        }
    }

    /// The bundled style file (relative to `Styles/`) of `name` for the schema of the vector
    /// `source`: the Protomaps variant for Protomaps tiles, the OpenMapTiles one otherwise
    /// (no source, raster tiles, a schema that cannot be told). Tiles of a Protomaps schema
    /// before version 4 get the Protomaps variant too (their layer names match, their
    /// `pmap:` fields do not) and a warning saying what will be missing.
    static func bundledStyleFile(_ name: String, source: (any TileSource)?, sourceName: String, deadline: Deadline = .none,
                                 warning: inout String?) -> String {
        guard let source, source.metadata.format.isVector, let schema = VectorTileSchema.identify(source, deadline: deadline) else {
            return "\(name).json"
        }
        switch schema {
        case .openMapTiles:
            return "\(name).json"
        case .protomaps:
            return "protomaps/\(name).json"
        case .protomapsLegacy:
            warning = "--source \(URLRedaction.redact(sourceName)): Protomaps tiles of a schema before version 4 (pmap:kind fields); "
                + "the bundled styles read version 4, so roads, land use and labels are missing"
            return "protomaps/\(name).json"
        }
    }

    /// One line naming, per vector source, the source layers the style's layers read but
    /// the data does not have (as its metadata's `vector_layers` lists them): a style
    /// written for another schema otherwise draws next to nothing without a word. Sources
    /// whose metadata lists no layers are not judged.
    static func missingLayersWarning(_ style: Style, _ sources: [String: ResolvedSource]) -> String? {
        var parts: [String] = []
        for id in sources.keys.sorted() {
            guard let s = sources[id], s.isVector else { continue }
            var available: Set<String> = []
            var listed: [String] = []
            for c in s.candidates {
                for l in c.source.metadata.vectorLayers where available.insert(l.id).inserted { listed.append(l.id) }
            }
            guard !available.isEmpty else { continue }
            var missing: [String] = []
            for layer in style.layers where layer.source == id && layer.type != .background {
                guard let name = layer.sourceLayer, !available.contains(name), !missing.contains(name) else { continue }
                missing.append(name)
            }
            guard !missing.isEmpty else { continue }
            func list(_ names: [String], _ limit: Int) -> String {
                names.count <= limit ? names.joined(separator: ", ")
                    : names.prefix(limit).joined(separator: ", ") + ", … (\(names.count) in all)"
            }
            parts.append("source \"\(id)\" has no layers \(list(missing, 8)) (the data has: \(list(listed, 12)))")
        }
        guard !parts.isEmpty else { return nil }
        return "style \"\(style.origin)\": " + parts.joined(separator: "; ") + "; layers reading them draw nothing"
    }
}

/// The base map of one render: a prepared style, and the tiles loaded for its camera.
///
/// Layers are drawn layer-major across all covering tiles (all fills under all roads under
/// all labels), in two passes so overlays can sit between roads and labels.
final class BaseMap {
    enum Pass { case belowLabels, labels }

    let style: Style
    let sources: [String: ResolvedSource]
    let sprites: SpriteSheet
    private(set) var warnings: [String] = []
    private var loaded: [String: LoadedSource] = [:]
    /// Layers already reported as skipped (one warning each).
    private var reported: Set<String> = []
    /// Decoded tiles shared with other renders (nil: decode every tile afresh).
    let tileCache: DecodedTileCache?
    var maxThreads: Int?
    var loadOrder: (@Sendable (Int) -> [Int])?
    /// When tile loading gives up (the render's time limit).
    var deadline = Deadline.none

    /// A pitched camera's bands, nearest first, each with the base map of its own frame
    /// (tiles at the band's zoom); empty otherwise. Set by `prepare`.
    private(set) var bands: [(band: PitchBand, map: BaseMap)] = []

    init(setup: BaseMapSetup, tileCache: DecodedTileCache?) {
        style = setup.style
        sources = setup.sources
        sprites = setup.sprites
        warnings = setup.warnings
        self.tileCache = tileCache
    }

    /// The base map of one band of a pitched image: this map's style and sources, no
    /// warnings of its own yet.
    private init(bandOf parent: BaseMap) {
        style = parent.style
        sources = parent.sources
        sprites = parent.sprites
        tileCache = parent.tileCache
        maxThreads = parent.maxThreads
        loadOrder = parent.loadOrder
        deadline = parent.deadline
    }

    /// Whether raster tiles given to `style` replace its layers (it has no raster source of
    /// its own; the hillshade relief does not count).
    static func takesRasterBase(_ style: Style) -> Bool {
        !style.sources.values.contains(where: { $0.kind == .raster && $0.url != "mapsnap:relief" })
    }

    /// A style of the given style's background colour plus one raster layer.
    static func rasterBaseStyle(background: Style, tileSize: Int) -> Style {
        var color = "#ffffff"
        if let bg = background.layers.first(where: { $0.type == .background }) {
            color = bg.property(.backgroundColor).color(atZoom: 10).cssString
        }
        let json = """
        {"version": 8, "name": "raster base map",
         "sources": {"raster": {"type": "raster", "url": "mapsnap:override", "tileSize": \(tileSize)}},
         "layers": [{"id": "background", "type": "background", "paint": {"background-color": "\(color)"}},
                    {"id": "raster", "type": "raster", "source": "raster"}]}
        """
        // The JSON is ours and valid; fall back to the original style rather than trap.
        return (try? Style.parse(data: Data(json.utf8), origin: "raster base map")) ?? background
    }

    /// Loads every source a visible layer needs at this camera, so that attribution is
    /// known (and its space reserved) before anything is drawn.
    ///
    /// The sources load side by side, each with its tiles in parallel; then the source layers
    /// the visible style layers read are decoded from those tiles, also in parallel, instead
    /// of one by one as the first layer reading each is drawn. Neither changes a byte: every
    /// source keeps its own tiles and warnings, and a decoded layer is the same whichever
    /// thread decodes it.
    func prepare(camera imageCamera: Camera) {
        if imageCamera.isPitched {
            // Each band loads the tiles of its own frame.
            if bands.isEmpty { bands = imageCamera.pitchBands.map { ($0, BaseMap(bandOf: self)) } }
            for b in bands { b.map.prepare(camera: b.band.camera) }
            return
        }
        // A turned camera loads the tiles of its north-up map frame.
        let camera = imageCamera.mapFrame?.camera ?? imageCamera
        var ids: [String] = []
        var readLayers: [String: [String]] = [:]
        for layer in style.layers where BaseMap.draws(layer, atZoom: camera.zoom) {
            guard let id = layer.source, sources[id] != nil else { continue }
            if !ids.contains(id) { ids.append(id) }
            if let name = layer.sourceLayer, !readLayers[id, default: []].contains(name) {
                readLayers[id, default: []].append(name)
            }
        }
        let missing = ids.compactMap { id in loaded[id] == nil ? sources[id].map { (id, $0) } : nil }
        let made = Locked([String: LoadedSource]())
        let load = loader(camera: camera)
        Parallel.forEach(missing.count, maxThreads: maxThreads) { i in
            let l = load(missing[i].1)
            made.withLock { $0[missing[i].0] = l }
        }
        made.withLock { for (id, l) in $0 { loaded[id] = l } }
        var decodes: [(tile: VectorTile, layer: String)] = []
        for id in ids {
            guard let l = loaded[id] else { continue }
            for payload in l.payloads {
                guard case .vector(let vt) = payload else { continue }
                for name in readLayers[id] ?? [] where vt.layerHeaders.contains(where: { $0.name == name }) {
                    decodes.append((vt, name))
                }
            }
        }
        // A layer that fails to decode is reported by the walk that reads it.
        let work = decodes
        Parallel.forEach(work.count, maxThreads: maxThreads) { i in _ = try? work[i].tile.layer(named: work[i].layer) }
    }

    /// Whether a layer draws anything at this zoom: visible, in its zoom range, and (for
    /// raster layers, which fade out by zoom) not fully transparent. A layer that draws
    /// nothing loads no tiles and credits no source.
    static func draws(_ layer: StyleLayer, atZoom zoom: Double) -> Bool {
        guard layer.isVisible(atZoom: zoom) else { return false }
        if layer.type == .raster, let o = layer.property(.rasterOpacity).number(atZoom: zoom), o <= 0 { return false }
        return true
    }

    /// The tile sources that supplied tiles to this image (after `prepare`), in a stable
    /// order: source ids sorted, candidates in priority order.
    private var suppliers: [ResolvedSource.Candidate] {
        loaded.keys.sorted().flatMap { id in
            loaded[id].map { l in l.usedCandidates.map { l.source.candidates[$0] } } ?? []
        } + bands.flatMap { $0.map.suppliers }
    }

    /// Credits of the sources that supplied tiles to this image, deduplicated, in the order
    /// of `suppliers`.
    var attribution: String {
        var seen: [String] = []
        for c in suppliers {
            guard let a = c.attribution else { continue }
            for part in a.split(separator: ";").map({ $0.trimmingSpaces() })
                where !part.isEmpty && !seen.contains(part) {
                seen.append(part)
            }
        }
        return seen.joined(separator: " · ")
    }

    /// Names of the tile sources that supplied tiles to this image but carry no credit of
    /// their own (no `attribution` in their metadata or style source), sorted: their data goes
    /// uncredited unless the caller gives an attribution.
    var uncreditedSources: [String] {
        let names = suppliers.filter { ($0.attribution?.trimmingSpaces() ?? "").isEmpty }.map(\.name)
        return Set(names).sorted()
    }

    /// The integer zoom whose vector tiles are drawn.
    static func vectorDataZoom(_ camera: Camera) -> Int { TileCover.dataZoom(for: camera.zoom, maxZoom: 22) }

    /// The zoom whose raster tiles are drawn: about one tile pixel per image pixel.
    static func rasterDataZoom(_ camera: Camera, tileSize: Int) -> Int {
        let z = camera.zoom + log2(camera.scale) - log2(Double(max(tileSize, 1)) / 256)
        return max(0, min(22, Int((z - 0.25).rounded(.up))))
    }

    func loadedSource(_ id: String, camera: Camera) -> LoadedSource? {
        if let l = loaded[id] { return l }
        guard let s = sources[id] else { return nil }
        let l = loader(camera: camera)(s)
        loaded[id] = l
        return l
    }

    /// Loads a source's tiles for `camera` at its data zoom, with this map's threads, load
    /// order, cache and deadline; callable from any thread.
    private func loader(camera: Camera) -> @Sendable (ResolvedSource) -> LoadedSource {
        let maxThreads = self.maxThreads, loadOrder = self.loadOrder, tileCache = self.tileCache, deadline = self.deadline
        return { s in
            let z = s.isVector ? Self.vectorDataZoom(camera) : Self.rasterDataZoom(camera, tileSize: s.tileSize)
            return LoadedSource(source: s, camera: camera, dataZoom: z, maxThreads: maxThreads, loadOrder: loadOrder,
                                cache: tileCache, deadline: deadline)
        }
    }

    /// Where the image has detail (after drawing: every source the style drew from).
    /// A turned camera's share is measured over its map frame (the image's bounding box).
    /// A pitched camera's is measured over the band that holds the centre (the nearest
    /// band when none does).
    func coverage(camera: Camera) -> MapCoverage {
        if camera.isPitched, let b = bands.first(where: { $0.band.rows.contains(camera.pixelHeight / 2) }) ?? bands.first {
            return b.map.coverage(camera: b.band.camera)
        }
        return MapCoverage.measure(loaded.keys.sorted().compactMap { loaded[$0] }, camera: camera.mapFrame?.camera ?? camera)
    }

    /// A line for each `--source` that supplied no tile to the image.
    /// A pitched image's: a source that supplied no tile to any band.
    var namedSourceWarnings: [String] {
        guard !bands.isEmpty else { return MapCoverage.namedSourceWarnings(loaded.keys.sorted().compactMap { loaded[$0] }) }
        var supplied: Set<Int> = []
        for (_, map) in bands {
            for l in map.loaded.values {
                for (k, c) in l.source.candidates.enumerated() where l.candidateStatistics[k].loaded > 0 || l.candidateStatistics[k].failed > 0 {
                    supplied.insert(c.sourceID)
                }
            }
        }
        return Self.uniqued(bands.flatMap { band in
            MapCoverage.namedSourceWarnings(band.map.loaded.keys.sorted().compactMap { band.map.loaded[$0] }, except: supplied)
        })
    }

    /// `lines` without repeats, in order of first occurrence (bands report alike).
    private static func uniqued(_ lines: [String]) -> [String] {
        var seen: Set<String> = []
        return lines.filter { seen.insert($0).inserted }
    }

    /// Tile counts of every source loaded so far.
    var tileStatistics: TileLoadStatistics {
        bands.reduce(loaded.values.reduce(TileLoadStatistics()) { $0 + $1.statistics }) { $0 + $1.map.tileStatistics }
    }

    /// Everything that went wrong but was survived: style warnings, unresolved sources,
    /// skipped layers, then skipped tiles per source (sources in id order).
    var allWarnings: [String] {
        let own = warnings + loaded.keys.sorted().flatMap { loaded[$0]?.warnings ?? [] }
        return bands.isEmpty ? own : Self.uniqued(own + bands.flatMap { $0.map.allWarnings })
    }

    /// Whether the `.labels` pass places anything at `zoom` (a raster-only map places
    /// nothing, so nothing needs to keep clear for it).
    func placesLabels(atZoom zoom: Double) -> Bool {
        style.layers.contains { BaseMap.placesLabels($0, atZoom: zoom) }
    }

    private static func placesLabels(_ layer: StyleLayer, atZoom zoom: Double) -> Bool {
        layer.type == .symbol && layer.isVisible(atZoom: zoom)
    }

    /// Draws one pass of the style's layers (problems go to `allWarnings`).
    ///
    /// A turned camera draws in its north-up map frame (`Camera.mapFrame`): below the labels
    /// the canvas turns every path and tile image onto the image; labels are placed and
    /// drawn upright in image pixels (`SymbolPlacer`).
    ///
    /// A pitched camera draws band by band (`Camera.pitchBands`), see `drawPitched`.
    func drawLayers(camera imageCamera: Camera, canvas: Canvas, labels: LabelCollisionIndex, pass: Pass,
                    text: TextEngine) {
        if imageCamera.isPitched {
            drawPitched(camera: imageCamera, canvas: canvas, labels: labels, pass: pass, text: text)
            return
        }
        let frame = imageCamera.mapFrame
        let camera = frame?.camera ?? imageCamera
        let ctx = PaintContext(camera: camera, canvas: canvas, zoom: camera.zoom, sprites: sprites,
                               toImage: frame?.toImage, heading: frame == nil ? 0 : imageCamera.heading)
        draw(ctx, labels: labels, pass: pass, text: text)
    }

    /// One pass of the style's layers in `ctx`'s frame; below the labels, the canvas's
    /// `mapTransform` is `ctx.toImage` for the pass.
    func draw(_ ctx: PaintContext, labels: LabelCollisionIndex, pass: Pass, text: TextEngine) {
        let canvas = ctx.canvas, camera = ctx.camera, zoom = ctx.zoom
        switch pass {
        case .belowLabels:
            canvas.mapTransform = ctx.toImage
            defer { canvas.mapTransform = nil }
            for layer in style.layers where BaseMap.draws(layer, atZoom: zoom) {
                // Past the drawing deadline the render is thrown away: draw nothing more.
                if canvas.drawingDeadlinePassed() { return }
                switch layer.type {
                case .background:
                    BackgroundPainter.draw(layer, ctx)
                case .fill:
                    guard let src = source(for: layer, camera: camera, vector: true) else { continue }
                    FillPainter.draw(layer, src, ctx)
                case .fillExtrusion:
                    guard let src = source(for: layer, camera: camera, vector: true) else { continue }
                    FillPainter.draw(layer, src, ctx, properties: .fillExtrusion)
                case .line:
                    guard let src = source(for: layer, camera: camera, vector: true) else { continue }
                    LinePainter.draw(layer, src, ctx)
                case .raster:
                    guard let src = source(for: layer, camera: camera, vector: false) else { continue }
                    RasterPainter.draw(layer, src, ctx)
                case .hillshade:
                    guard let src = source(for: layer, camera: camera, vector: false, dem: true) else { continue }
                    HillshadePainter.draw(layer, src, ctx)
                case .symbol:
                    continue
                default:
                    report(layer, "layer type \(layer.type) is not drawn")
                }
            }
        case .labels:
            var placer = SymbolPlacer(context: ctx, labels: labels, text: text, sprites: sprites)
            for layer in style.layers where BaseMap.placesLabels(layer, atZoom: zoom) {
                if canvas.drawingDeadlinePassed() { return }
                guard let src = source(for: layer, camera: camera, vector: true) else { continue }
                placer.collect(layer, src)
            }
            if canvas.drawingDeadlinePassed() { return }
            placer.placeAndDraw()
        }
    }

    private func source(for layer: StyleLayer, camera: Camera, vector: Bool, dem: Bool = false) -> LoadedSource? {
        guard let id = layer.source else {
            report(layer, "has no source")
            return nil
        }
        guard let s = sources[id] else {
            // A source we could not resolve was already reported once when resolving.
            return nil
        }
        guard s.isVector == vector else {
            report(layer, "source \"\(id)\" is \(s.isVector ? "vector" : "raster") data")
            return nil
        }
        guard (s.demEncoding != nil) == dem else {
            report(layer, dem ? "source \"\(id)\" is not raster-dem data" : "source \"\(id)\" is raster-dem (elevation) data")
            return nil
        }
        return loadedSource(id, camera: camera)
    }

    private func report(_ layer: StyleLayer, _ message: String) {
        guard reported.insert(layer.id).inserted else { return }
        warnings.append("style layer \"\(layer.id)\": \(message); skipped")
    }
}

/// What every painter needs: where and at which zoom to draw.
struct PaintContext {
    let camera: Camera
    let canvas: Canvas
    /// The camera's fractional zoom, for style evaluation.
    let zoom: Double
    /// The style's icons and patterns.
    var sprites = SpriteSheet()
    /// A turned camera's map from `camera`'s pixels (its north-up map frame) to the image's;
    /// nil when the map is north up and the two are the same.
    var toImage: PixelTransform? = nil
    /// The image's heading, degrees clockwise (0 when north up).
    var heading = 0.0
    /// A pitched image's band: the image rows whose labels this frame places (a label is
    /// placed by the band its anchor falls in); nil for the whole image.
    var labelRows: Range<Int>? = nil
    /// A pitched image's band: frame geometry shallower than this lies under the image's
    /// bottom edge, towards the eye (see `DepthClipper`).
    var minimumDepth = 0.0
    /// A pitched image's camera, for the labels pass: symbols are scaled by the perspective
    /// at their anchors (`symbolScale(atRow:)`); nil for a flat image.
    var pitchedCamera: Camera? = nil
    /// Style pixel sizes are CSS pixels; multiply by this for device pixels.
    var pixelRatio: Double { camera.scale }
    /// The area painters draw, in the pixels they draw in: the canvas, or a turned camera's
    /// map frame (which holds the whole turned image).
    var canvasRect: PixelRect {
        toImage == nil ? imageRect : PixelRect(x: 0, y: 0, width: Double(camera.pixelWidth), height: Double(camera.pixelHeight))
    }
    /// The image, in image pixels: where labels must fit.
    var imageRect: PixelRect { PixelRect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)) }
}

/// Sprite images as fill patterns for one render: scaled once to device pixels (a 1x
/// image at scale 2 doubles) and pinned to the map — their repeats start at the world's
/// top-left pixel, so a pattern stays put under the map whatever the camera, and two
/// layers with the same pattern line up.
struct PatternBook {
    let sprites: SpriteSheet
    let pixelRatio: Double
    /// Image pixel of the world's top-left corner, rounded.
    let originX: Int, originY: Int
    private var scaled: [String: Canvas?] = [:]

    init(_ ctx: PaintContext) {
        sprites = ctx.sprites
        pixelRatio = ctx.pixelRatio
        let o = ctx.camera.pixel(forWorld: WorldPoint(x: 0, y: 0))
        // At most about 1e10 (z22, scale 4): exact as Int; clamped so nothing can trap.
        func whole(_ v: Double) -> Int { v.isFinite ? Int(min(max(v.rounded(), -1e15), 1e15)) : 0 }
        originX = whole(o.x)
        originY = whole(o.y)
    }

    /// Largest pattern repeat, in device pixels per side: an index entry with a tiny
    /// `pixelRatio` must not blow a small image up to gigapixels.
    static let maximumPatternSide = 4096.0

    /// The pattern named `name` in device pixels, or nil when the sprite has no such image
    /// (or it would be larger than `maximumPatternSide`).
    mutating func pattern(_ name: String) -> Canvas? {
        if let hit = scaled[name] { return hit }
        var out: Canvas?
        if !name.isEmpty, let sprite = sprites.image(named: name),
           sprite.width * pixelRatio <= Self.maximumPatternSide, sprite.height * pixelRatio <= Self.maximumPatternSide {
            let w = max(1, Int((sprite.width * pixelRatio).rounded())), h = max(1, Int((sprite.height * pixelRatio).rounded()))
            if w == sprite.image.width && h == sprite.image.height {
                out = sprite.image
            } else {
                let c = Canvas(width: w, height: h)
                c.draw(sprite.image, in: PixelRect(x: 0, y: 0, width: Double(w), height: Double(h)))
                out = c
            }
        }
        scaled[name] = out
        return out
    }
}
