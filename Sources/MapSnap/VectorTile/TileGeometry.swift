/// A point in a vector tile's own coordinate space: extent units (typically 0…4096) with
/// y pointing down, origin at the tile's top-left. Geometry may lie outside 0…extent (buffer).
public struct TilePoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// Decoded geometry of one feature, laid out flat so one buffer can be reused across features.
///
/// - `.point`: one part holding every point of the (multi)point.
/// - `.lineString`: one part per MoveTo (a multi-line has several).
/// - `.polygon`: one part per ring, in stream order. Rings are implicitly closed: the first
///   point is *not* repeated at the end. Use `RingClassifier` to group rings into polygons.
public struct TileGeometry: Sendable {
    /// The geometry type the points were decoded as.
    public internal(set) var type: GeometryType = .point
    /// All points of all parts, in stream order.
    public internal(set) var points: [TilePoint] = []
    /// Index into `points` where each part begins; parts are contiguous and in order.
    public internal(set) var partStarts: [Int] = []

    public init() {}

    /// Number of parts (points group, lines, or rings).
    public var partCount: Int { partStarts.count }

    /// The index range in `points` of part `i`.
    public func partRange(_ i: Int) -> Range<Int> {
        let lower = partStarts[i]
        let upper = i + 1 < partStarts.count ? partStarts[i + 1] : points.count
        return lower..<upper
    }

    /// The points of part `i`.
    public func part(_ i: Int) -> ArraySlice<TilePoint> { points[partRange(i)] }

    /// Empties the buffer but keeps its storage for the next feature.
    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        partStarts.removeAll(keepingCapacity: true)
    }
}
