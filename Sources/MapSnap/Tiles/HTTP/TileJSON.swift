import Foundation

/// A TileJSON document — what a style source's `url` usually points at: where a tile set's
/// tiles are (`tiles` URL templates) and what they hold (zoom range, bounds, attribution,
/// `vector_layers`). See https://github.com/mapbox/tilejson-spec.
struct TileJSON: Sendable, Equatable {
    /// Tile URL templates, absolute (relative ones resolve against the document's URL).
    var tiles: [String]
    /// What the document declares (format, zooms, bounds, center, attribution, vector layers).
    var metadata: TileSourceMetadata

    /// Real TileJSON documents are a few KiB (a planet's `vector_layers` included).
    static let maximumBytes = 4 << 20

    /// Parses `bytes` fetched from `url` (shown redacted in errors).
    init(bytes: [UInt8], url: String) throws(ResourceError) {
        let shown = URLRedaction.redact(url)
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes, origin: shown)
        } catch {
            throw .invalid(location: shown, reason: "TileJSON is not JSON: \(error.reason) at byte \(error.byteOffset)")
        }
        guard case .object(let object) = json else { throw .invalid(location: shown, reason: "TileJSON is not a JSON object") }
        guard case .array(let items)? = object["tiles"], !items.isEmpty else {
            throw .invalid(location: shown, reason: "TileJSON has no \"tiles\" URL templates")
        }
        var tiles: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let template) = item else {
                throw .invalid(location: shown, reason: "TileJSON tiles[\(i)] is not a string")
            }
            tiles.append(try ResourceLocation.resolve(template, against: url))
        }
        var meta = TileSourceMetadata()
        meta.maxZoom = 22
        meta.apply(json: object)
        if meta.format == .unknown, !meta.vectorLayers.isEmpty { meta.format = .mvt }
        // TMS rows count from the bottom: the `{-y}` placeholder says so per template.
        if meta.scheme == .tms { tiles = tiles.map { $0.replacingOccurrences(of: "{y}", with: "{-y}") } }
        self.tiles = tiles
        metadata = meta
    }
}
