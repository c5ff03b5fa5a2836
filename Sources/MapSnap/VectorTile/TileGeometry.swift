/// A point in a vector tile's own coordinate space: extent units (typically 0…4096) with
/// y pointing down, origin at the tile's top-left. Geometry may lie outside 0…extent (buffer).
struct TilePoint: Hashable, Sendable, CustomStringConvertible {
    var x: Int32
    var y: Int32

    init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    var description: String { "(\(x), \(y))" }
}

/// Decoded geometry of one feature, laid out flat so one buffer can be reused across features.
///
/// - `.point`: one part holding every point of the (multi)point.
/// - `.lineString`: one part per MoveTo (a multi-line has several).
/// - `.polygon`: one part per ring, in stream order. Rings are implicitly closed: the first
///   point is *not* repeated at the end. Use `RingClassifier` to group rings into polygons.
struct TileGeometry: Sendable {
    /// The geometry type the points were decoded as.
    var type: GeometryType = .point
    /// All points of all parts, in stream order.
    var points: [TilePoint] = []
    /// Index into `points` where each part begins; parts are contiguous and in order.
    var partStarts: [Int] = []

    init() {}

    /// Number of parts (points group, lines, or rings).
    var partCount: Int { partStarts.count }

    /// The index range in `points` of part `i`.
    func partRange(_ i: Int) -> Range<Int> {
        let lower = partStarts[i]
        let upper = i + 1 < partStarts.count ? partStarts[i + 1] : points.count
        return lower..<upper
    }

    /// The points of part `i`.
    func part(_ i: Int) -> ArraySlice<TilePoint> { points[partRange(i)] }

    /// Empties the buffer but keeps its storage for the next feature.
    mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        partStarts.removeAll(keepingCapacity: true)
    }
}
