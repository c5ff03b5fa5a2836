import Foundation

/// The row order of tiles as stored: XYZ (y = 0 at the top) or TMS (y = 0 at the bottom).
/// Sources translate to XYZ; this records what the file declares.
package enum TileScheme: String, Sendable, Hashable {
    case xyz
    case tms
}

/// What a tile source says about itself (MBTiles metadata table, PMTiles header + JSON,
/// a directory's `metadata.json`). Every field is optional in the wild, hence the defaults.
package struct TileSourceMetadata: Sendable, Equatable {
    /// A geographic rectangle; west may exceed east for sources spanning the antimeridian.
    package struct Bounds: Sendable, Equatable {
        package var southWest: LatLng
        package var northEast: LatLng

        /// Whether the rectangle encloses some area of the map: south below north, west and
        /// east apart, all finite. A header that never set them (a PMTiles archive's zeros)
        /// says nothing about where the data is.
        package var hasArea: Bool {
            let (s, n, w, e) = (southWest.latitude, northEast.latitude, southWest.longitude, northEast.longitude)
            return s.isFinite && n.isFinite && w.isFinite && e.isFinite && s < n && w != e
        }
    }

    /// One field of a vector layer, as listed in `vector_layers[].fields`.
    package struct Field: Sendable, Equatable {
        package var name: String
        /// "String", "Number", "Boolean" or a free description, as the source wrote it.
        package var type: String
    }

    /// A vector layer declared by the source (TileJSON `vector_layers`).
    package struct VectorLayer: Sendable, Equatable {
        package var id: String
        /// Fields sorted by name, so equal metadata compares equal regardless of JSON order.
        package var fields: [Field] = []
        package var minZoom: Int?
        package var maxZoom: Int?
        package var description: String?
    }

    package var format: TileFormat = .unknown
    package var minZoom = 0
    package var maxZoom = 14
    package var bounds: Bounds?
    package var center: LatLng?
    package var centerZoom: Double?
    package var name: String?
    package var attribution: String?
    package var description: String?
    package var vectorLayers: [VectorLayer] = []
    /// Tile edge in pixels for raster sources (256 unless declared otherwise).
    package var tileSize = 256
    package var scheme: TileScheme = .xyz
    /// mapsnap's own string entries (keys starting `mapsnap:`, such as `mapsnap:origin`, which
    /// records where a region's tiles came from), as written.
    package var extra: [String: String] = [:]

    /// The `mapsnap:absent-tiles` entry that marks a sparse source.
    package static let absentTilesKey = "mapsnap:absent-tiles"

    /// A sparse source (`mapsnap:absent-tiles` = `ancestor`, as the bundled mid-zoom world
    /// tiles): where a tile is absent, its nearest stored ancestor over-zoomed is the data —
    /// the open ocean at z10 is the ocean of the z8 tile — rather than nothing.
    package var absentTilesAreAncestors: Bool { extra[Self.absentTilesKey] == "ancestor" }
}

extension TileSourceMetadata {
    /// Applies MBTiles-style string entries (`name`, `format`, `bounds` "w,s,e,n",
    /// `center` "lon,lat,zoom", `minzoom`, …, `json`). Malformed values are ignored:
    /// metadata is advisory and a bad `bounds` must not make the tiles unreadable.
    mutating func apply(entries: [String: String]) {
        if let v = entries["format"] { format = TileFormat(name: v) }
        if let v = entries["minzoom"].flatMap({ Int($0.trimmingSpaces()) }), (0...30).contains(v) { minZoom = v }
        if let v = entries["maxzoom"].flatMap({ Int($0.trimmingSpaces()) }), (0...30).contains(v) { maxZoom = v }
        if let v = entries["bounds"] { bounds = Self.parseBounds(v) ?? bounds }
        if let v = entries["center"], let c = Self.parseNumbers(v), c.count >= 2 {
            center = LatLng(latitude: c[1], longitude: c[0])
            if c.count >= 3 { centerZoom = c[2] }
        }
        if let v = entries["name"] { name = v }
        for (key, value) in entries where key.hasPrefix("mapsnap:") { extra[key] = value }
        if let v = entries["attribution"] { attribution = v }
        if let v = entries["description"] { description = v }
        if let v = entries["scheme"] { scheme = v.lowercased() == "tms" ? .tms : .xyz }
        if let v = entries["tilesize"].flatMap({ Int($0) }), (1...4096).contains(v) { tileSize = v }
        if let text = entries["json"], case .object(let object)? = try? JSONValue.parse(Array(text.utf8), origin: "metadata json") {
            apply(json: object)
        }
    }

    /// Applies TileJSON / PMTiles-style JSON keys (`vector_layers`, and the string keys above
    /// when present as JSON values).
    mutating func apply(json: JSONObject) {
        var strings: [String: String] = [:]
        for key in ["format", "name", "attribution", "description", "scheme"] {
            if case .string(let v)? = json[key] { strings[key] = v }
        }
        for (key, value) in json where key.hasPrefix("mapsnap:") {
            if case .string(let v) = value { strings[key] = v }
        }
        for key in ["minzoom", "maxzoom", "tilesize", "tile_size"] {
            let name = key == "tile_size" ? "tilesize" : key
            switch json[key] {
            case .number(let v)?: if let n = Self.integer(v) { strings[name] = "\(n)" }
            case .string(let v)?: strings[name] = v
            default: break
            }
        }
        if let b = Self.numbers(json["bounds"]) { strings["bounds"] = b } else if case .string(let b)? = json["bounds"] { strings["bounds"] = b }
        if let c = Self.numbers(json["center"]) { strings["center"] = c } else if case .string(let c)? = json["center"] { strings["center"] = c }
        if !strings.isEmpty { apply(entries: strings) }
        if case .array(let layers)? = json["vector_layers"] {
            vectorLayers = layers.compactMap { item in
                guard case .object(let layer) = item, case .string(let id)? = layer["id"] else { return nil }
                let fields = (layer["fields"]?.objectValue ?? JSONObject())
                    .map { Field(name: $0.key, type: $0.value.stringValue ?? JSONWriter.text($0.value)) }
                    .sorted { $0.name < $1.name }
                return VectorLayer(
                    id: id, fields: fields,
                    minZoom: layer["minzoom"]?.numberValue.flatMap(Self.integer),
                    maxZoom: layer["maxzoom"]?.numberValue.flatMap(Self.integer),
                    description: layer["description"]?.stringValue)
            }
        }
    }

    /// A JSON number as a whole number (truncated, as TileJSON writers mean), when it is one.
    private static func integer(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e9 else { return nil }
        return Int(value)
    }

    /// A JSON array of numbers as "a,b,c" for `parseNumbers`; nil for anything else.
    private static func numbers(_ value: JSONValue?) -> String? {
        guard case .array(let items)? = value else { return nil }
        var parts: [String] = []
        for item in items {
            guard case .number(let n) = item else { return nil }
            parts.append("\(n)")
        }
        return parts.joined(separator: ",")
    }

    static func parseNumbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",").map { Double($0.trimmingSpaces()) }
        guard !parts.isEmpty, parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        return parts.compactMap { $0 }
    }

    static func parseBounds(_ text: String) -> Bounds? {
        guard let b = parseNumbers(text), b.count == 4 else { return nil }
        return Bounds(southWest: LatLng(latitude: b[1], longitude: b[0]), northEast: LatLng(latitude: b[3], longitude: b[2]))
    }
}
