import Foundation

/// The tile sources behind one style source, in priority order: the first whose coverage
/// includes a tile draws it. The embedded source is the bundled street-level city tiles in
/// front of the world base map.
struct ResolvedSource: Sendable {
    struct Candidate: Sendable {
        let source: any TileSource
        /// The source's `TileSourceRegistry` id, which keys its decoded tiles.
        let sourceID: Int
        /// How messages name it: a file name, or a URL template with credentials redacted.
        let name: String
        /// Used only for tiles at or above this zoom…
        let fromZoom: Int
        /// …that intersect these bounds (nil = anywhere)…
        let bounds: TileSourceMetadata.Bounds?
        /// …and at or below this zoom (the bundled imagery is a blur past it).
        let toZoom: Int
        /// What to credit on the map when this candidate supplies a tile.
        let attribution: String?

        init(source: TileSourceRegistry.Opened, name: String, fromZoom: Int, bounds: TileSourceMetadata.Bounds?,
             attribution: String? = nil, toZoom: Int = 30) {
            self.source = source.source
            self.sourceID = source.id
            self.name = URLRedaction.redact(name)
            self.fromZoom = fromZoom
            self.bounds = bounds
            self.toZoom = toZoom
            self.attribution = attribution ?? source.source.metadata.attribution
        }
    }

    let id: String
    let isVector: Bool
    let candidates: [Candidate]
    /// Raster tile size in pixels at scale 1 (256 or 512).
    let tileSize: Int
    /// Set for `raster-dem` sources: their tiles decode to elevations, not images.
    var demEncoding: DEMEncoding? = nil
}

/// Turns a style's `sources` into tile sources: `mapsnap:embedded`/`mapsnap:relief`/
/// `mapsnap:imagery`, local `.mbtiles`/`.pmtiles` files and `z/x/y` directories (as `url`,
/// `mbtiles://…`, `pmtiles://…` or a `tiles` template), relative to the style file, and
/// remote ones: URL templates, TileJSON URLs and PMTiles archives over HTTP.
/// `--source` replaces every source of its own kind (vector or raster); `--dem` replaces
/// every `raster-dem` source and fills the bundled styles' `mapsnap:dem` slot, which is
/// otherwise left out silently (the terrain style then simply has no hillshade).
struct StyleSourceResolver {
    /// The style file's folder, or the URL of a remote style: relative locations resolve
    /// against it (nil for the bundled styles).
    let styleBase: String?
    let dataDirectory: String?
    /// `--source`, already opened.
    let override: TileSourceRegistry.Opened?
    let overrideName: String
    /// `--dem SOURCE`: elevation tiles for every `raster-dem` source.
    var demOverride: String? = nil
    /// `--dem-encoding`: wins over the style source's `encoding`.
    var demEncodingOverride: DEMEncoding? = nil
    let http: HTTPTileSource.Options
    /// Where sources are opened (once per renderer).
    let registry: TileSourceRegistry
    /// When what opening fetches over the network (TileJSON, PMTiles headers) must end.
    var deadline: Deadline = .none

    /// The URL of the bundled styles' DEM slot.
    static let demPlaceholder = "mapsnap:dem"

    /// Bundled data files (in `Data/`) and what they stand for.
    static let embeddedVector = ["helsinki.mbtiles", "world-detail.mbtiles", "world.mbtiles"]
    /// The world's sparse mid-zoom tiles (z8–10, over-zoomed past): in front of the z0–7
    /// world tiles from `detailFromZoom`, everywhere.
    static let embeddedDetail = "world-detail.mbtiles"
    static let detailFromZoom = 8
    static let embeddedRelief = "relief.mbtiles"
    static let embeddedImagery = "imagery.mbtiles"
    /// Highest raster data zoom at which the bundled relief and imagery are drawn.
    static let embeddedRasterMaxZoom = 11
    /// The city tiles replace the world data from this zoom up.
    static let cityFromZoom = 10

    func resolve(_ style: Style, warnings: inout [String]) throws -> [String: ResolvedSource] {
        var out: [String: ResolvedSource] = [:]
        var dem: TileSourceRegistry.Opened?
        if let d = demOverride {
            do {
                dem = try registry.open(d, http: http, deadline: deadline)
            } catch {
                throw RenderError.source(role: .dem, location: URLRedaction.redact(d), error: error)
            }
            if dem?.source.metadata.format.isVector == true {
                throw RenderError.demSourceNotRaster(location: URLRedaction.redact(d))
            }
            if !style.sources.values.contains(where: { $0.kind == .rasterDEM }) {
                warnings.append("--dem \(d): the style declares no raster-dem source; the elevation tiles are not used")
            }
        }
        for id in style.sources.keys.sorted() {
            guard let s = style.sources[id] else { continue }
            let isVector: Bool
            switch s.kind {
            case .vector: isVector = true
            case .raster: isVector = false
            case .rasterDEM:
                if let r = try resolveDEM(id, s, override: dem, warnings: &warnings) { out[id] = r }
                continue
            default:
                continue  // geojson, …: layers using them are skipped with a warning
            }
            // A raster --source stands for imagery: it replaces raster sources but not the
            // bundled relief shading, which stays under it.
            if let override, override.source.metadata.format.isVector == isVector, s.url != "mapsnap:relief" {
                out[id] = ResolvedSource(id: id, isVector: isVector,
                                         candidates: [.init(source: override, name: overrideName, fromZoom: 0, bounds: nil)],
                                         tileSize: override.source.metadata.tileSize)
                continue
            }
            let location = s.url ?? s.tiles.first
            guard let location else {
                warnings.append("style source \"\(id)\" has no url or tiles; its layers are skipped")
                continue
            }
            switch location {
            case "mapsnap:embedded":
                var cands: [ResolvedSource.Candidate] = []
                let credits = shortAttribution
                for (i, file) in Self.embeddedVector.enumerated() {
                    guard let path = dataPath(file), let src = try? registry.open(path, http: http) else { continue }
                    let city = i < Self.embeddedVector.count - 1 && file != Self.embeddedDetail
                    let fromZoom = city ? Self.cityFromZoom : file == Self.embeddedDetail ? Self.detailFromZoom : 0
                    cands.append(.init(source: src, name: file, fromZoom: fromZoom,
                                       bounds: city ? src.source.metadata.bounds : nil, attribution: credits[file]))
                }
                if cands.isEmpty { warnings.append("the embedded base map data (Data/) was not found; drawing the background only") }
                out[id] = ResolvedSource(id: id, isVector: true, candidates: cands, tileSize: 512)
            case "mapsnap:relief", "mapsnap:imagery":
                let file = location == "mapsnap:relief" ? Self.embeddedRelief : Self.embeddedImagery
                if let path = dataPath(file), let src = try? registry.open(path, http: http) {
                    // The bundled images end at z5; past z11 they are only a blur, so the
                    // style's background shows instead.
                    out[id] = ResolvedSource(id: id, isVector: false, candidates: [.init(source: src, name: file, fromZoom: 0, bounds: nil,
                                                                                        attribution: shortAttribution[file],
                                                                                        toZoom: Self.embeddedRasterMaxZoom)],
                                             tileSize: src.source.metadata.tileSize)
                }
            default:
                if let src = try openLocal(id: id, location: location, attribution: s.attribution, warnings: &warnings) {
                    out[id] = ResolvedSource(id: id, isVector: isVector, candidates: [.init(source: src, name: location, fromZoom: 0, bounds: nil)],
                                             tileSize: s.tileSize ?? src.source.metadata.tileSize)
                }
            }
        }
        return out
    }

    /// A `raster-dem` source: `--dem` when given, else its own local tiles; nil (skipped)
    /// for the empty `mapsnap:dem` slot and for encodings mapsnap cannot read.
    private func resolveDEM(_ id: String, _ s: StyleSource, override: TileSourceRegistry.Opened?,
                            warnings: inout [String]) throws -> ResolvedSource? {
        let encoding: DEMEncoding
        if let e = demEncodingOverride {
            encoding = e
        } else if let name = s.encoding {
            guard let e = DEMEncoding(rawValue: name) else {
                warnings.append("style source \"\(id)\": raster-dem encoding \"\(name)\" is not supported (mapbox, terrarium); its layers are skipped")
                return nil
            }
            encoding = e
        } else {
            encoding = .mapbox  // the style specification's default
        }
        if let override, let name = demOverride {
            return ResolvedSource(id: id, isVector: false, candidates: [.init(source: override, name: name, fromZoom: 0, bounds: nil)],
                                  tileSize: override.source.metadata.tileSize, demEncoding: encoding)
        }
        guard let location = s.url ?? s.tiles.first else {
            warnings.append("style source \"\(id)\" has no url or tiles; its layers are skipped")
            return nil
        }
        if location == Self.demPlaceholder { return nil }
        guard let src = try openLocal(id: id, location: location, attribution: s.attribution, warnings: &warnings) else { return nil }
        return ResolvedSource(id: id, isVector: false, candidates: [.init(source: src, name: location, fromZoom: 0, bounds: nil)],
                              tileSize: s.tileSize ?? src.source.metadata.tileSize, demEncoding: encoding)
    }

    /// Opens a style source's location: a local file, directory or `z/x/y` template
    /// (relative to the style file), an http(s) `{z}/{x}/{y}` template, a remote PMTiles
    /// archive (`pmtiles://https://…` or a URL ending in `.pmtiles`) or a TileJSON URL. In a
    /// remote style, relative locations resolve against the style's URL and local ones are
    /// refused.
    private func openLocal(id: String, location: String, attribution: String?,
                           warnings: inout [String]) throws(RenderError) -> TileSourceRegistry.Opened? {
        let shown = URLRedaction.redact(location)
        var path = location
        let isPMTiles = path.hasPrefix("pmtiles://")
        for scheme in ["mbtiles://", "pmtiles://", "file://"] where path.hasPrefix(scheme) {
            path.removeFirst(scheme.count)
        }
        if let base = styleBase, ResourceLocation.isRemote(base) {
            do {
                path = try ResourceLocation.resolve(isPMTiles ? path : location, against: base)
            } catch {
                throw RenderError.source(role: .style(id: id), location: shown, error: .resource(error))
            }
        }
        if ResourceLocation.isRemote(path) {
            let remote = isPMTiles && !path.contains("{z}") ? "pmtiles://" + path : path
            do {
                var options = http
                if let attribution { options.attribution = attribution }
                return try registry.open(remote, http: options, deadline: deadline)
            } catch {
                throw RenderError.source(role: .style(id: id), location: URLRedaction.redact(path), error: error)
            }
        }
        if path.contains("{z}") {
            // A local z/x/y template: open its root directory.
            path = String(path[..<(path.range(of: "{z}")?.lowerBound ?? path.endIndex)])
        }
        if !path.hasPrefix("/"), let dir = styleBase {
            path = (dir as NSString).appendingPathComponent(path)
        }
        do {
            return try registry.open(path, http: http)
        } catch {
            throw RenderError.source(role: .style(id: id), location: location, error: error)
        }
    }

    /// Short on-map credits of the bundled data files, from `Data/ATTRIBUTION`
    /// (`file<TAB>credit` per line); the full texts are in Data/LICENSES.md.
    var shortAttribution: [String: String] {
        guard let path = dataPath("ATTRIBUTION"), let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = parts[1].trimmingSpaces() }
        }
        return out
    }

    func dataPath(_ file: String) -> String? {
        guard let dir = dataDirectory else { return nil }
        let p = (dir as NSString).appendingPathComponent(file)
        return FileManager.default.isReadableFile(atPath: p) ? p : nil
    }
}
