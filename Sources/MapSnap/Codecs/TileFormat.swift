/// The encoding of a source's tiles.
public enum TileFormat: String, Sendable, Hashable {
    /// Mapbox Vector Tile (protobuf); `tileData(for:)` returns it uncompressed.
    case mvt
    case png
    case jpg
    case webp
    case unknown

    /// Maps the names used by MBTiles `format`, TileJSON and file extensions.
    init(name: String) {
        switch name.lowercased() {
        case "pbf", "mvt", "application/x-protobuf", "application/vnd.mapbox-vector-tile": self = .mvt
        case "png", "image/png": self = .png
        case "jpg", "jpeg", "image/jpeg": self = .jpg
        case "webp", "image/webp": self = .webp
        default: self = .unknown
        }
    }

    /// True for vector formats.
    public var isVector: Bool { self == .mvt }
}
