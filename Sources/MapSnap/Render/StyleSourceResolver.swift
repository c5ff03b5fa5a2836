import Foundation

/// The tile sources behind one style source, in priority order: the first whose coverage
/// includes a tile draws it. The embedded source is the bundled street-level city tiles in
/// front of the world base map.
struct ResolvedSource: @unchecked Sendable {
    struct Candidate {
        let source: any TileSource
        let name: String
        /// Used only for tiles at or above this zoom…
        let fromZoom: Int
        /// …that intersect these bounds (nil = anywhere).
        let bounds: TileSourceMetadata.Bounds?
        /// What to credit on the map when this candidate supplies a tile.
        let attribution: String?

        init(source: any TileSource, name: String, fromZoom: Int, bounds: TileSourceMetadata.Bounds?, attribution: String? = nil) {
            self.source = source
            self.name = name
            self.fromZoom = fromZoom
            self.bounds = bounds
            self.attribution = attribution ?? source.metadata.attribution
        }
    }

    let id: String
    let isVector: Bool
    let candidates: [Candidate]
    /// Raster tile size in pixels at scale 1 (256 or 512).
    let tileSize: Int

}

/// Turns a style's `sources` into tile sources: `mapsnap:embedded`/`mapsnap:relief`/
/// `mapsnap:imagery`, local `.mbtiles`/`.pmtiles` files and `z/x/y` directories (as `url`,
/// `mbtiles://…`, `pmtiles://…` or a `tiles` template), relative to the style file.
/// `--source` replaces every source of its own kind (vector or raster).
struct StyleSourceResolver {
    let styleDirectory: String?
    let dataDirectory: String?
    /// `--source`, already opened.
    let override: (any TileSource)?
    let overrideName: String
    let http: HTTPTileSource.Options

    /// Bundled data files (in `Data/`) and what they stand for.
    static let embeddedVector = ["helsinki.mbtiles", "world.mbtiles"]
    static let embeddedRelief = "relief.mbtiles"
    static let embeddedImagery = "imagery.mbtiles"
    /// The city tiles replace the world data from this zoom up.
    static let cityFromZoom = 10

    func resolve(_ style: Style, warnings: inout [String]) throws -> [String: ResolvedSource] {
        var out: [String: ResolvedSource] = [:]
        for id in style.sources.keys.sorted() {
            guard let s = style.sources[id] else { continue }
            let isVector: Bool
            switch s.kind {
            case .vector: isVector = true
            case .raster: isVector = false
            default:
                continue  // raster-dem, geojson, …: layers using them are skipped with a warning
            }
            if let override, override.metadata.format.isVector == isVector {
                out[id] = ResolvedSource(id: id, isVector: isVector,
                                         candidates: [.init(source: override, name: overrideName, fromZoom: 0, bounds: nil)],
                                         tileSize: override.metadata.tileSize)
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
                for (i, file) in Self.embeddedVector.enumerated() {
                    guard let path = dataPath(file), let src = try? TileSources.open(path) else { continue }
                    let city = i < Self.embeddedVector.count - 1
                    cands.append(.init(source: src, name: file, fromZoom: city ? Self.cityFromZoom : 0,
                                       bounds: city ? src.metadata.bounds : nil, attribution: shortAttribution[file]))
                }
                if cands.isEmpty { warnings.append("the embedded base map data (Data/) was not found; drawing the background only") }
                out[id] = ResolvedSource(id: id, isVector: true, candidates: cands, tileSize: 512)
            case "mapsnap:relief", "mapsnap:imagery":
                let file = location == "mapsnap:relief" ? Self.embeddedRelief : Self.embeddedImagery
                if let path = dataPath(file), let src = try? TileSources.open(path) {
                    out[id] = ResolvedSource(id: id, isVector: false, candidates: [.init(source: src, name: file, fromZoom: 0, bounds: nil,
                                                                                        attribution: shortAttribution[file])],
                                             tileSize: src.metadata.tileSize)
                }
            default:
                var path = location
                for scheme in ["mbtiles://", "pmtiles://", "file://"] where path.hasPrefix(scheme) {
                    path.removeFirst(scheme.count)
                }
                if path.hasPrefix("http://") || path.hasPrefix("https://") {
                    guard path.contains("{z}") || path.contains("{quadkey}") else {
                        warnings.append("style source \"\(id)\": \(location) is a TileJSON URL, which is not fetched; pass --source or use \"tiles\" with a {z}/{x}/{y} template")
                        continue
                    }
                    do {
                        var options = http
                        if let a = s.attribution { options.attribution = a }
                        let src = try HTTPTileSource(template: path, options: options)
                        out[id] = ResolvedSource(id: id, isVector: isVector, candidates: [.init(source: src, name: location, fromZoom: 0, bounds: nil)],
                                                 tileSize: s.tileSize ?? src.metadata.tileSize)
                    } catch {
                        throw RenderError.source("style source \"\(id)\" (\(location)): \(error)")
                    }
                    continue
                }
                if path.contains("{z}") {
                    // A local z/x/y template: open its root directory.
                    path = String(path[..<(path.range(of: "{z}")?.lowerBound ?? path.endIndex)])
                }
                if !path.hasPrefix("/"), let dir = styleDirectory {
                    path = (dir as NSString).appendingPathComponent(path)
                }
                do {
                    let src = try TileSources.open(path)
                    out[id] = ResolvedSource(id: id, isVector: isVector, candidates: [.init(source: src, name: location, fromZoom: 0, bounds: nil)],
                                             tileSize: s.tileSize ?? src.metadata.tileSize)
                } catch {
                    throw RenderError.source("style source \"\(id)\" (\(location)): \(error)")
                }
            }
        }
        return out
    }

    /// Short on-map credits of the bundled data files, from `Data/ATTRIBUTION`
    /// (`file<TAB>credit` per line); the full texts are in Data/LICENSES.md.
    var shortAttribution: [String: String] {
        guard let path = dataPath("ATTRIBUTION"), let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]).trimmingCharacters(in: .whitespaces) }
        }
        return out
    }

    func dataPath(_ file: String) -> String? {
        guard let dir = dataDirectory else { return nil }
        let p = (dir as NSString).appendingPathComponent(file)
        return FileManager.default.isReadableFile(atPath: p) ? p : nil
    }
}
