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
        /// How the coverage warning names it: "the embedded world data", "--source x.mbtiles"
        /// (credentials already masked).
        let label: String
        /// The highest data zoom at which its tiles still carry detail (`MapCoverage`): past it
        /// they are drawn, over-zoomed, but the view counts as lacking detail there.
        let detailMaxZoom: Int
        /// Named by the user for this render (`--source`): a view where it supplies no tile is
        /// reported, naming it and its bounds (bundled data and regions simply stand aside).
        let isNamedByUser: Bool
        /// A hole: it claims its bounds and draws nothing there — the area of a region that
        /// another style source's layers draw (a Protomaps region under OpenMapTiles layers).
        let isHole: Bool

        init(source: TileSourceRegistry.Opened, name: String, fromZoom: Int, bounds: TileSourceMetadata.Bounds?,
             attribution: String? = nil, toZoom: Int = 30, label: String? = nil, detailMaxZoom: Int? = nil,
             isNamedByUser: Bool = false, isHole: Bool = false) {
            self.isHole = isHole
            self.source = source.source
            self.sourceID = source.id
            self.name = URLRedaction.redact(name)
            self.fromZoom = fromZoom
            self.bounds = bounds
            self.toZoom = toZoom
            self.attribution = attribution ?? source.source.metadata.attribution
            self.label = label ?? self.name
            self.detailMaxZoom = detailMaxZoom ?? MapCoverage.detailMaxZoom(of: source.source.metadata)
            self.isNamedByUser = isNamedByUser
        }

        /// Whether its tiles are used at data zoom `z` at all (its zoom window and the
        /// source's own minimum zoom).
        func isUsed(atZoom z: Int) -> Bool {
            z >= fromZoom && z <= toZoom && z >= source.metadata.minZoom
        }
    }

    let id: String
    let isVector: Bool
    let candidates: [Candidate]
    /// Raster tile size in pixels at scale 1 (256 or 512).
    let tileSize: Int
    /// Set for `raster-dem` sources: their tiles decode to elevations, not images.
    var demEncoding: DEMEncoding? = nil
    /// The bundled data (`mapsnap:embedded`, `…:imagery`, `…:relief` without `--source`), where
    /// regions of the data directory draw: a view lacking detail is mended by adding one.
    var offersRegions = false
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
    /// The data directory's regions, drawn in front of the embedded data (bundled styles only).
    var regions = RegionMosaic()

    /// Bundled styles of the OpenMapTiles schema (the embedded data's): a vector `--source`
    /// then draws in front of the embedded data, which shows wherever it has no tile.
    var embeddedBeneathOverride = false

    /// The local files and folders the style's own sources name, with their `FileStamp`
    /// ("" when absent) taken before each was opened: a prepared style checks them before
    /// it is reused (`BaseMapSetup.isCurrent`), since nothing in its key names them.
    let localFiles = Locked<[String: String]>([:])

    /// The URL of the bundled styles' DEM slot.
    static let demPlaceholder = "mapsnap:dem"

    /// Bundled data files (in `Data/`) and what they stand for.
    static let embeddedVector = ["helsinki.mbtiles", "world-detail.mbtiles", "world.mbtiles"]
    /// The world's sparse mid-zoom tiles (z8–10, over-zoomed past): in front of the z0–7
    /// world tiles from `detailFromZoom`, everywhere.
    static let embeddedDetail = "world-detail.mbtiles"
    /// Its z9 tiles are generalised for over-zooming: coasts stay within about a pixel to z12
    /// (Data/README.md), so the view counts as detailed to there.
    static let detailMaxZoom = 12
    static let detailFromZoom = 8
    static let embeddedRelief = "relief.mbtiles"
    static let embeddedImagery = "imagery.mbtiles"
    /// Highest raster data zoom at which the bundled relief and imagery are drawn.
    static let embeddedRasterMaxZoom = 11
    /// The city tiles replace the world data from this zoom up.
    static let cityFromZoom = 10
    /// How warnings name the bundled data files.
    static let embeddedLabels = ["helsinki.mbtiles": "the bundled Helsinki street data",
                                 "world.mbtiles": "the embedded world data",
                                 "world-detail.mbtiles": "the embedded world data",
                                 "relief.mbtiles": "the bundled relief shading",
                                 "imagery.mbtiles": "the bundled imagery"]

    func resolve(_ style: Style, warnings: inout [String]) throws(RenderError) -> [String: ResolvedSource] {
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
                // Outside the --source's area and where it has no tile (a 404), the embedded data
                // of the same schema is drawn instead of an empty background: the --source then
                // draws within the bounds it declares, as the bundled city tiles and regions do
                // (its tiles at the edge of an extract are blank beyond them).
                let beneath = isVector && embeddedBeneathOverride && s.url == "mapsnap:embedded"
                var cands: [ResolvedSource.Candidate] = [.init(source: override, name: overrideName, fromZoom: 0,
                                                               bounds: beneath ? override.source.metadata.bounds.flatMap { $0.hasArea ? $0 : nil } : nil,
                                                               label: "--source \(URLRedaction.redact(overrideName))", isNamedByUser: true)]
                if beneath {
                    var ignored: [String] = []
                    cands += embeddedCandidates(warnings: &ignored)
                }
                out[id] = ResolvedSource(id: id, isVector: isVector, candidates: cands, tileSize: override.source.metadata.tileSize)
                continue
            }
            let location = s.url ?? s.tiles.first
            guard let location else {
                warnings.append("style source \"\(id)\" has no url or tiles; its layers are skipped")
                continue
            }
            switch location {
            case "mapsnap:embedded":
                out[id] = ResolvedSource(id: id, isVector: true,
                                         candidates: regions.vectorCandidates(protomapsLayers: false) + embeddedCandidates(warnings: &warnings),
                                         tileSize: 512, offersRegions: true)
            case RegionMosaic.protomapsSourceURL:
                out[id] = ResolvedSource(id: id, isVector: true, candidates: regions.vectorCandidates(protomapsLayers: true),
                                         tileSize: 512, offersRegions: true)
            case "mapsnap:relief", "mapsnap:imagery":
                let file = location == "mapsnap:relief" ? Self.embeddedRelief : Self.embeddedImagery
                // Raster regions are imagery: in front of the Blue Marble, not of the relief.
                let front = location == "mapsnap:imagery" ? regions.rasterCandidates : []
                if let path = dataPath(file), let src = try? registry.open(path, http: http) {
                    // The bundled images end at z5; past z11 they are only a blur, so the
                    // style's background shows instead.
                    out[id] = ResolvedSource(id: id, isVector: false,
                                             candidates: front + [.init(source: src, name: file, fromZoom: 0, bounds: nil,
                                                                        attribution: shortAttribution[file],
                                                                        toZoom: Self.embeddedRasterMaxZoom,
                                                                        label: Self.embeddedLabels[file])],
                                             tileSize: src.source.metadata.tileSize, offersRegions: true)
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

    /// The bundled vector data, in priority order: the city's street tiles within their
    /// bounds from `cityFromZoom`, then the world base map everywhere.
    private func embeddedCandidates(warnings: inout [String]) -> [ResolvedSource.Candidate] {
        var cands: [ResolvedSource.Candidate] = []
        let credits = shortAttribution
        for (i, file) in Self.embeddedVector.enumerated() {
            guard let path = dataPath(file), let src = try? registry.open(path, http: http) else { continue }
            let city = i < Self.embeddedVector.count - 1 && file != Self.embeddedDetail
            let fromZoom = city ? Self.cityFromZoom : file == Self.embeddedDetail ? Self.detailFromZoom : 0
            cands.append(.init(source: src, name: file, fromZoom: fromZoom,
                               bounds: city ? src.source.metadata.bounds : nil, attribution: credits[file],
                               label: Self.embeddedLabels[file],
                               detailMaxZoom: file == Self.embeddedDetail ? Self.detailMaxZoom : nil))
        }
        if cands.isEmpty { warnings.append("the embedded base map data (Data/) was not found; drawing the background only") }
        return cands
    }

    /// A `raster-dem` source: `--dem` when given, else its own local tiles; nil (skipped)
    /// for the empty `mapsnap:dem` slot and for encodings mapsnap cannot read.
    private func resolveDEM(_ id: String, _ s: StyleSource, override: TileSourceRegistry.Opened?,
                            warnings: inout [String]) throws(RenderError) -> ResolvedSource? {
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
        let stamp = FileStamp.of(path) ?? ""
        localFiles.withLock { $0[path] = stamp }
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
