/// Why a Mapbox Vector Tile (MVT 2.1) could not be decoded. Cases name the layer and feature
/// (by index) and carry the offending values.
enum MVTDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The protobuf framing is broken.
    case protobuf(ProtobufError)
    /// A layer has no `name` field.
    case missingLayerName(layerIndex: Int)
    /// A layer's version is not 1 or 2.
    case unsupportedVersion(layer: String, version: UInt64)
    /// A layer's extent is 0 or larger than 2^16.
    case invalidExtent(layer: String, extent: UInt64)
    /// A value message holds none of the seven value types.
    case emptyValue(layer: String, valueIndex: Int)
    /// A feature's tags list has an odd number of entries.
    case oddTagCount(layer: String, feature: Int, count: Int)
    /// A feature's tag refers to a key index beyond the layer's keys.
    case keyIndexOutOfRange(layer: String, feature: Int, index: UInt32, keyCount: Int)
    /// A feature's tag refers to a value index beyond the layer's values.
    case valueIndexOutOfRange(layer: String, feature: Int, index: UInt32, valueCount: Int)
    /// A layer has more features, keys or values than mapsnap accepts.
    case tooManyItems(layer: String, what: String, count: Int, limit: Int)
    /// A geometry command stream is invalid; see `MVTGeometryError`.
    case geometry(layer: String, feature: Int, MVTGeometryError)

    var description: String {
        switch self {
        case .protobuf(let e): return "MVT: \(e)"
        case .missingLayerName(let i): return "MVT: layer #\(i) has no name"
        case .unsupportedVersion(let l, let v): return "MVT: layer '\(l)' has unsupported version \(v) (expected 1 or 2)"
        case .invalidExtent(let l, let e): return "MVT: layer '\(l)' has invalid extent \(e) (must be 1…65536)"
        case .emptyValue(let l, let i): return "MVT: layer '\(l)' value #\(i) holds no value"
        case .oddTagCount(let l, let f, let c): return "MVT: layer '\(l)' feature #\(f) has an odd number of tag indices (\(c))"
        case .keyIndexOutOfRange(let l, let f, let i, let n):
            return "MVT: layer '\(l)' feature #\(f) uses key index \(i) but the layer has \(n) keys"
        case .valueIndexOutOfRange(let l, let f, let i, let n):
            return "MVT: layer '\(l)' feature #\(f) uses value index \(i) but the layer has \(n) values"
        case .tooManyItems(let l, let w, let c, let m): return "MVT: layer '\(l)' has \(c) \(w), more than the limit of \(m)"
        case .geometry(let l, let f, let e): return "MVT: layer '\(l)' feature #\(f): \(e)"
        }
    }
}

/// Why a feature's geometry command stream is invalid. `index` is the position of the
/// offending integer in the feature's `geometry` array.
enum MVTGeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feature's type is UNKNOWN (0) or not 1…3, so its geometry cannot be interpreted.
    case unknownGeometryType(UInt64)
    /// A command id other than MoveTo (1), LineTo (2), ClosePath (7).
    case unknownCommand(id: UInt32, index: Int)
    /// LineTo or ClosePath without a preceding MoveTo.
    case commandBeforeMoveTo(command: String, index: Int)
    /// A command's count asks for more parameters than the data holds.
    case countExceedsData(command: String, count: UInt32, index: Int)
    /// A command that the geometry type does not allow (e.g. ClosePath in a line).
    case unexpectedCommand(command: String, geometryType: GeometryType, index: Int)
    /// A command count that the geometry type does not allow (MoveTo count ≠ 1 in lines and
    /// polygons, ClosePath count ≠ 1, count 0).
    case invalidCount(command: String, count: UInt32, index: Int)
    /// A line with fewer than two points or a polygon ring with fewer than three.
    case tooFewPoints(part: Int, count: Int, index: Int)
    /// A polygon ring is not closed by ClosePath.
    case unclosedRing(part: Int)
    /// Accumulated deltas left the 32-bit coordinate range.
    case coordinateOverflow(index: Int)
    /// The packed geometry field itself is malformed.
    case protobuf(ProtobufError)

    var description: String {
        switch self {
        case .unknownGeometryType(let t): return "geometry type \(t) is not Point, LineString or Polygon"
        case .unknownCommand(let id, let i): return "unknown command id \(id) at geometry index \(i)"
        case .commandBeforeMoveTo(let c, let i): return "\(c) before any MoveTo at geometry index \(i)"
        case .countExceedsData(let c, let n, let i): return "\(c) count \(n) at geometry index \(i) exceeds the remaining data"
        case .unexpectedCommand(let c, let t, let i): return "\(c) is not allowed in a \(t.rawValue) (geometry index \(i))"
        case .invalidCount(let c, let n, let i): return "\(c) has invalid count \(n) at geometry index \(i)"
        case .tooFewPoints(let p, let n, let i): return "part \(p) has only \(n) points (geometry index \(i))"
        case .unclosedRing(let p): return "polygon ring \(p) is not closed with ClosePath"
        case .coordinateOverflow(let i): return "coordinate overflows 32 bits at geometry index \(i)"
        case .protobuf(let e): return "\(e)"
        }
    }
}
