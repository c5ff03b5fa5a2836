import Foundation

/// The row order of tiles as stored: XYZ (y = 0 at the top) or TMS (y = 0 at the bottom).
/// Sources translate to XYZ; this records what the file declares.
public enum TileScheme: String, Sendable, Hashable {
    case xyz
    case tms
}

/// What a tile source says about itself (MBTiles metadata table, PMTiles header + JSON,
/// a directory's `metadata.json`). Every field is optional in the wild, hence the defaults.
public struct TileSourceMetadata: Sendable, Equatable {
    /// A geographic rectangle; west may exceed east for sources spanning the antimeridian.
    public struct Bounds: Sendable, Equatable {
        public var southWest: LatLng
        public var northEast: LatLng

        public init(southWest: LatLng, northEast: LatLng) {
            self.southWest = southWest
            self.northEast = northEast
        }
    }

    /// One field of a vector layer, as listed in `vector_layers[].fields`.
    public struct Field: Sendable, Equatable {
        public var name: String
        /// "String", "Number", "Boolean" or a free description, as the source wrote it.
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// A vector layer declared by the source (TileJSON `vector_layers`).
    public struct VectorLayer: Sendable, Equatable {
        public var id: String
        /// Fields sorted by name, so equal metadata compares equal regardless of JSON order.
        public var fields: [Field]
        public var minZoom: Int?
        public var maxZoom: Int?
        public var description: String?

        public init(id: String, fields: [Field] = [], minZoom: Int? = nil, maxZoom: Int? = nil, description: String? = nil) {
            self.id = id
            self.fields = fields
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.description = description
        }
    }

    public var format: TileFormat
    public var minZoom: Int
    public var maxZoom: Int
    public var bounds: Bounds?
    public var center: LatLng?
    public var centerZoom: Double?
    public var name: String?
    public var attribution: String?
    public var description: String?
    public var vectorLayers: [VectorLayer]
    /// Tile edge in pixels for raster sources (256 unless declared otherwise).
    public var tileSize: Int
    public var scheme: TileScheme

    public init(
        format: TileFormat = .unknown, minZoom: Int = 0, maxZoom: Int = 14, bounds: Bounds? = nil,
        center: LatLng? = nil, centerZoom: Double? = nil, name: String? = nil, attribution: String? = nil,
        description: String? = nil, vectorLayers: [VectorLayer] = [], tileSize: Int = 256, scheme: TileScheme = .xyz
    ) {
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.center = center
        self.centerZoom = centerZoom
        self.name = name
        self.attribution = attribution
        self.description = description
        self.vectorLayers = vectorLayers
        self.tileSize = tileSize
        self.scheme = scheme
    }
}

extension TileSourceMetadata {
    /// Applies MBTiles-style string entries (`name`, `format`, `bounds` "w,s,e,n",
    /// `center` "lon,lat,zoom", `minzoom`, …, `json`). Malformed values are ignored:
    /// metadata is advisory and a bad `bounds` must not make the tiles unreadable.
    mutating func apply(entries: [String: String]) {
        if let v = entries["format"] { format = TileFormat(name: v) }
        if let v = entries["minzoom"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), (0...30).contains(v) { minZoom = v }
        if let v = entries["maxzoom"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), (0...30).contains(v) { maxZoom = v }
        if let v = entries["bounds"] { bounds = Self.parseBounds(v) ?? bounds }
        if let v = entries["center"], let c = Self.parseNumbers(v), c.count >= 2 {
            center = LatLng(latitude: c[1], longitude: c[0])
            if c.count >= 3 { centerZoom = c[2] }
        }
        if let v = entries["name"] { name = v }
        if let v = entries["attribution"] { attribution = v }
        if let v = entries["description"] { description = v }
        if let v = entries["scheme"] { scheme = v.lowercased() == "tms" ? .tms : .xyz }
        if let v = entries["tilesize"].flatMap({ Int($0) }), (1...4096).contains(v) { tileSize = v }
        if let json = entries["json"], let data = json.data(using: .utf8),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            apply(json: object)
        }
    }

    /// Applies TileJSON / PMTiles-style JSON keys (`vector_layers`, and the string keys above
    /// when present as JSON values).
    mutating func apply(json: [String: Any]) {
        var strings: [String: String] = [:]
        for key in ["format", "name", "attribution", "description", "scheme"] {
            if let v = json[key] as? String { strings[key] = v }
        }
        for key in ["minzoom", "maxzoom", "tilesize", "tile_size"] {
            if let v = json[key] as? NSNumber { strings[key == "tile_size" ? "tilesize" : key] = "\(v.intValue)" }
            else if let v = json[key] as? String { strings[key] = v }
        }
        if let b = json["bounds"] as? [NSNumber] { strings["bounds"] = b.map { "\($0.doubleValue)" }.joined(separator: ",") }
        else if let b = json["bounds"] as? String { strings["bounds"] = b }
        if let c = json["center"] as? [NSNumber] { strings["center"] = c.map { "\($0.doubleValue)" }.joined(separator: ",") }
        else if let c = json["center"] as? String { strings["center"] = c }
        if !strings.isEmpty { apply(entries: strings) }
        if let layers = json["vector_layers"] as? [[String: Any]] {
            vectorLayers = layers.compactMap { layer in
                guard let id = layer["id"] as? String else { return nil }
                let rawFields = layer["fields"] as? [String: Any] ?? [:]
                let fields = rawFields.map { Field(name: $0.key, type: ($0.value as? String) ?? "\($0.value)") }
                    .sorted { $0.name < $1.name }
                return VectorLayer(
                    id: id, fields: fields,
                    minZoom: (layer["minzoom"] as? NSNumber)?.intValue,
                    maxZoom: (layer["maxzoom"] as? NSNumber)?.intValue,
                    description: layer["description"] as? String)
            }
        }
    }

    static func parseNumbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        return parts.compactMap { $0 }
    }

    static func parseBounds(_ text: String) -> Bounds? {
        guard let b = parseNumbers(text), b.count == 4 else { return nil }
        return Bounds(southWest: LatLng(latitude: b[1], longitude: b[0]), northEast: LatLng(latitude: b[3], longitude: b[2]))
    }
}
