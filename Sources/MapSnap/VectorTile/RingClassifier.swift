/// Polygons grouped from a polygon geometry's rings: each polygon is an exterior ring
/// followed by its holes, given as part indices into the `TileGeometry` they came from.
struct ClassifiedPolygons: Sendable {
    /// Part indices, polygon by polygon: exterior first, then its holes.
    var rings: [Int] = []
    /// Index into `rings` where each polygon begins.
    var polygonStarts: [Int] = []
    /// Rings dropped for having zero area or for being a hole with no exterior before it.
    var droppedRingCount = 0

    init() {}

    var polygonCount: Int { polygonStarts.count }

    /// The part indices of polygon `i`: its exterior ring, then its holes.
    func polygon(_ i: Int) -> ArraySlice<Int> {
        let lower = polygonStarts[i]
        let upper = i + 1 < polygonStarts.count ? polygonStarts[i + 1] : rings.count
        return rings[lower..<upper]
    }

    /// Empties the result but keeps its storage.
    mutating func removeAll() {
        rings.removeAll(keepingCapacity: true)
        polygonStarts.removeAll(keepingCapacity: true)
        droppedRingCount = 0
    }
}

/// Groups MVT polygon rings into polygons with holes by the sign of their area (spec §4.3.4.4).
///
/// In MVT 2 an exterior ring has positive area by the surveyor's formula in tile coordinates
/// (y down — clockwise on screen) and every following negative ring is one of its holes.
/// Tiles from MVT 1 encoders sometimes use the opposite winding throughout, so, like the
/// common MVT decoders, the sign of the *first* non-degenerate ring decides which sign means
/// "exterior" for the feature. Rings with zero area are dropped.
enum RingClassifier {
    /// Twice the signed area of part `part` (surveyor's formula; exact in Int64 for 32-bit
    /// coordinates and rings of fewer than 2^62 / 2^64 … points, i.e. any real ring).
    static func doubledSignedArea(of geometry: TileGeometry, part: Int) -> Int64 {
        let range = geometry.partRange(part)
        guard range.count >= 3 else { return 0 }
        var sum: Int64 = 0
        var prev = geometry.points[range.upperBound - 1]
        for i in range {
            let p = geometry.points[i]
            // Each product is < 2^62; the running sum is bounded by twice the ring's area,
            // which is at most (2^32)^2; the wrapping adds only spare an overflow check per point.
            sum = sum &+ (Int64(prev.x) * Int64(p.y) &- Int64(p.x) * Int64(prev.y))
            prev = p
        }
        return sum
    }

    /// Classifies the rings of `geometry` (which must be a polygon) into `result`.
    static func classify(_ geometry: TileGeometry, into result: inout ClassifiedPolygons) {
        result.removeAll()
        guard geometry.type == .polygon else { return }
        var exteriorIsPositive: Bool?
        for part in 0..<geometry.partCount {
            let area = doubledSignedArea(of: geometry, part: part)
            if area == 0 {
                result.droppedRingCount += 1
                continue
            }
            let positive = area > 0
            if exteriorIsPositive == nil { exteriorIsPositive = positive }
            if positive == exteriorIsPositive {
                result.polygonStarts.append(result.rings.count)
                result.rings.append(part)
            } else if result.polygonStarts.isEmpty {
                result.droppedRingCount += 1
            } else {
                result.rings.append(part)
            }
        }
    }
}
