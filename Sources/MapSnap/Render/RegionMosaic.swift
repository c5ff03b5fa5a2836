import Foundation

/// The regions of a data directory as one render's base map uses them: vector regions in
/// mosaic order (the most detailed first), raster regions, and the problems met reading them.
///
/// A bundled style (`normal`, `terrain`, `hybrid`, `satellite`) without `--source` draws
/// every region where it covers the view: a vector region's tiles replace the embedded world
/// data inside the region's bounds from `fromZoom` up, tile by tile; where two regions
/// overlap, the one with the higher maximum zoom wins (then the one whose name sorts first).
/// Regions of the OpenMapTiles schema are drawn by the style's OpenMapTiles layers, regions
/// of the Protomaps schema by the Protomaps variant's layers, composited into one style
/// (`composedStyle`); raster regions are imagery, drawn by the styles with imagery
/// (`hybrid`, `satellite`) in front of the bundled Blue Marble.
struct RegionMosaic: Sendable {
    /// One region in the mosaic.
    struct Entry: Sendable {
        let region: Region
        let opened: TileSourceRegistry.Opened
        /// The vector schema family its tiles are drawn with.
        let usesProtomapsLayers: Bool
    }

    /// Vector regions, most detailed first.
    let vector: [Entry]
    /// Raster regions, most detailed first.
    let raster: [Entry]
    /// One line per archive that could not be used.
    let problems: [String]

    /// Regions replace the embedded data from this zoom up (the bundled city from z10):
    /// below it a city-sized rectangle of other data would only be a patch.
    static let fromZoom = 8

    /// The source id and URL of the Protomaps layers in a composed style.
    static let protomapsSourceID = "protomaps"
    static let protomapsSourceURL = "mapsnap:regions-protomaps"

    /// No regions.
    init() {
        vector = []
        raster = []
        problems = []
    }

    /// The regions of `directory`.
    init(directory: DataDirectory) {
        let (regions, problems) = directory.regions()
        var problemLines = problems
        var vector: [Entry] = [], raster: [Entry] = []
        for region in regions {
            let opened = TileSourceRegistry.register(region.source)
            if !region.isVector {
                raster.append(Entry(region: region, opened: opened, usesProtomapsLayers: false))
                continue
            }
            switch region.schema {
            case .openMapTiles?:
                vector.append(Entry(region: region, opened: opened, usesProtomapsLayers: false))
            case .protomaps?:
                vector.append(Entry(region: region, opened: opened, usesProtomapsLayers: true))
            case .protomapsLegacy?:
                vector.append(Entry(region: region, opened: opened, usesProtomapsLayers: true))
                problemLines.append("region \(region.name) (\(region.path)): Protomaps tiles of a schema before version 4 (pmap:kind fields); "
                                    + "the bundled styles read version 4, so roads, land use and labels are missing")
            case nil:
                problemLines.append("region \(region.name) (\(region.path)): vector tiles of neither the OpenMapTiles nor the Protomaps schema; not used")
            }
        }
        func order(_ a: Entry, _ b: Entry) -> Bool {
            a.region.maxZoom != b.region.maxZoom ? a.region.maxZoom > b.region.maxZoom : a.region.name < b.region.name
        }
        self.vector = vector.sorted(by: order)
        self.raster = raster.sorted(by: order)
        self.problems = problemLines
    }

    var isEmpty: Bool { vector.isEmpty && raster.isEmpty }
    /// Whether the style must be composed with the Protomaps variant's layers.
    var needsProtomapsLayers: Bool { vector.contains(where: \.usesProtomapsLayers) }

    /// The candidates of a vector style source drawn with one schema's layers: that schema's
    /// regions supply tiles, the other schema's regions are holes (their area is left to the
    /// other source's layers), in mosaic order.
    func vectorCandidates(protomapsLayers: Bool) -> [ResolvedSource.Candidate] {
        vector.map { e in candidate(e, isHole: e.usesProtomapsLayers != protomapsLayers) }
    }

    /// The candidates of the imagery slot: the raster regions, in mosaic order.
    var rasterCandidates: [ResolvedSource.Candidate] { raster.map { candidate($0, isHole: false) } }

    /// A region as a candidate: inside its bounds (bounds without area, such as a PMTiles
    /// header's zeros, count as none: the whole world) from `fromZoom` up.
    private func candidate(_ e: Entry, isHole: Bool) -> ResolvedSource.Candidate {
        let bounds = e.region.bounds.flatMap { $0.hasArea ? $0 : nil }
        return .init(source: e.opened, name: e.region.path, fromZoom: max(Self.fromZoom, e.region.minZoom),
                     bounds: bounds, attribution: e.region.attribution.map(Self.plainCredit),
                     label: "region \(e.region.name)", isHole: isHole)
    }

    /// A credit as text to draw: HTML tags removed (archives often carry TileJSON's
    /// `<a href=…>` credits) and the common entities decoded.
    static func plainCredit(_ html: String) -> String {
        var out = ""
        var inTag = false
        for c in html {
            if c == "<" { inTag = true; continue }
            if c == ">", inTag { inTag = false; continue }
            if !inTag { out.append(c) }
        }
        for (entity, text) in [("&copy;", "©"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: text)
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A bundled style composed of its OpenMapTiles variant (`Styles/NAME.json`) and the
    /// vector layers of its Protomaps variant (`Styles/protomaps/NAME.json`, ids prefixed
    /// `protomaps:`, source `protomaps` → the Protomaps regions): the OpenMapTiles layers
    /// below labels, then the Protomaps ones, then the labels of each in the same order — so
    /// inside a Protomaps region its own earth, water and roads cover the (holed) world, and
    /// labels of both collide as one set. Layers of the variant that read other sources (the
    /// relief, imagery) are left out: the OpenMapTiles variant draws them once for the whole map.
    static func composedStyle(openMapTiles: [UInt8], protomaps: [UInt8], origin: String) throws(StyleError) -> [UInt8] {
        func object(_ bytes: [UInt8], _ name: String) throws(StyleError) -> JSONObject {
            do {
                guard case .object(let o) = try JSONValue.parse(bytes, origin: name) else {
                    throw StyleError.invalidValue(origin: name, keyPath: "(root)", reason: "not a JSON object")
                }
                return o
            } catch let e as StyleError {
                throw e
            } catch let e as JSONError {
                throw .invalidJSON(e)
            } catch {
                throw .invalidValue(origin: name, keyPath: "(root)", reason: "\(error)")
            }
        }
        var base = try object(openMapTiles, origin)
        let variant = try object(protomaps, "protomaps/" + origin)
        guard case .object(var sources)? = base["sources"], case .array(let baseLayers)? = base["layers"],
              case .object(let variantSources)? = variant["sources"], case .array(let variantLayers)? = variant["layers"] else {
            throw .invalidValue(origin: origin, keyPath: "(root)", reason: "a bundled style without sources or layers")
        }
        let vectorIDs = Set(variantSources.compactMap { entry -> String? in
            guard case .object(let s) = entry.value, s["type"]?.stringValue == "vector" else { return nil }
            return entry.key
        })
        sources[protomapsSourceID] = .object(["type": .string("vector"), "url": .string(protomapsSourceURL)])
        func isSymbol(_ layer: JSONValue) -> Bool { layer.objectValue?["type"]?.stringValue == "symbol" }
        let extra = variantLayers.compactMap { item -> JSONValue? in
            guard case .object(var layer) = item, let source = layer["source"]?.stringValue, vectorIDs.contains(source),
                  let id = layer["id"]?.stringValue else { return nil }
            layer["id"] = .string("protomaps:" + id)
            layer["source"] = .string(protomapsSourceID)
            return .object(layer)
        }
        let layers = baseLayers.filter { !isSymbol($0) } + extra.filter { !isSymbol($0) }
            + baseLayers.filter(isSymbol) + extra.filter(isSymbol)
        base["sources"] = .object(sources)
        base["layers"] = .array(layers)
        return JSONWriter.bytes(.object(base))
    }
}
