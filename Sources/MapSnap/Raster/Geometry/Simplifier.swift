/// Reduces huge polylines to what the pixel grid can show, before stroking.
///
/// Two passes per contour, each allowed half the tolerance so that their errors add up to at
/// most `tolerance` pixels (every dropped input point lies within `tolerance` of the output
/// polyline):
///
/// 1. **Radial distance** (O(n)): drop points within `tolerance / 2` of the last kept point.
///    A million-point GPS track drawn across 1000 px collapses to a few thousand points here.
/// 2. **Douglas–Peucker** with an explicit stack (no recursion, so no stack overflow), using the
///    distance to the *segment* (not the infinite line) so back-tracking spikes are kept. DP's
///    worst case is quadratic, so it runs on windows of at most `windowSize` points whose
///    boundary points are always kept: the cost is O(n · windowSize) at worst, O(n log n)
///    typically.
///
/// The default tolerance, 0.25 px, is below what anti-aliasing can show (a quarter pixel moves
/// coverage by at most ~25 % on one edge pixel), and first and last points are always kept,
/// so closed contours stay closed and endpoints (caps) do not move.
enum Simplifier {
    /// Default maximum deviation in pixels.
    static let defaultTolerance = 0.25
    /// Douglas–Peucker runs on windows of at most this many points.
    static let windowSize = 4096

    /// A copy of `path` whose contours deviate from the original by at most `tolerance` px.
    static func simplify(_ path: Path, tolerance: Double = defaultTolerance) -> Path {
        guard tolerance.isFinite, tolerance > 0 else { return path }
        var out = Path()
        var radial: [PixelPoint] = []
        var keep: [Bool] = []
        var stack: [(Int, Int)] = []
        for contour in path.contours {
            let pts = path.points(of: contour)
            radialPass(pts, tolerance: tolerance / 2, into: &radial)
            douglasPeucker(radial, tolerance: tolerance / 2, keep: &keep, stack: &stack)
            var first = true
            for i in radial.indices where keep[i] {
                if first { out.move(to: radial[i]); first = false } else { out.line(to: radial[i]) }
            }
            if contour.isClosed { out.close() }
        }
        return out
    }

    static func radialPass(_ pts: ArraySlice<PixelPoint>, tolerance: Double, into out: inout [PixelPoint]) {
        out.removeAll(keepingCapacity: true)
        var thinner = RadialThinner(tolerance: tolerance)
        for p in pts { thinner.add(p, to: &out) }
        thinner.finish(&out)
    }

    /// The radial pass one point at a time, for callers that produce points as they go (a
    /// path projected while it is thinned never exists at full size): `add` every point in
    /// order, then `finish`. The output is exactly `radialPass` of the same points.
    struct RadialThinner {
        let tolerance: Double
        private let t2: Double
        private var anchor = PixelPoint(x: 0, y: 0)
        private var last = PixelPoint(x: 0, y: 0)
        private(set) var count = 0

        init(tolerance: Double) {
            self.tolerance = tolerance
            t2 = tolerance * tolerance
        }

        /// Takes the next point; the one before it is now known not to be the last.
        @inline(__always)
        mutating func add(_ p: PixelPoint, to out: inout [PixelPoint]) {
            if count == 0 {
                out.append(p)
                anchor = p
            } else if count >= 2 {
                // `last` is a middle point: kept when it is farther than the tolerance.
                let dx = last.x - anchor.x, dy = last.y - anchor.y
                if dx * dx + dy * dy > t2 {
                    out.append(last)
                    anchor = last
                }
            }
            last = p
            count += 1
        }

        /// Ends the line: the last point is always kept, and the kept point before it is
        /// dropped when it is now redundant.
        func finish(_ out: inout [PixelPoint]) {
            guard count > 1 else { return }
            if out.count > 1, let prev = out.last, (last - prev).length <= tolerance { out.removeLast() }
            out.append(last)
        }
    }

    static func douglasPeucker(_ pts: [PixelPoint], tolerance: Double, keep: inout [Bool],
                               stack: inout [(Int, Int)]) {
        keep.removeAll(keepingCapacity: true)
        keep.append(contentsOf: repeatElement(false, count: pts.count))
        guard pts.count > 2 else {
            for i in keep.indices { keep[i] = true }
            return
        }
        let t2 = tolerance * tolerance
        var windowStart = 0
        while windowStart < pts.count - 1 {
            let windowEnd = min(windowStart + windowSize, pts.count - 1)
            keep[windowStart] = true
            keep[windowEnd] = true
            stack.removeAll(keepingCapacity: true)
            stack.append((windowStart, windowEnd))
            while let (a, b) = stack.popLast() {
                guard b - a > 1 else { continue }
                var worst = -1.0, worstIndex = a
                for i in (a + 1)..<b {
                    let d = distanceSquared(pts[i], pts[a], pts[b])
                    if d > worst { worst = d; worstIndex = i }
                }
                if worst > t2 {
                    keep[worstIndex] = true
                    stack.append((worstIndex, b))
                    stack.append((a, worstIndex))
                }
            }
            windowStart = windowEnd
        }
    }

    /// Squared distance from `p` to the segment `a`–`b`.
    @inline(__always)
    static func distanceSquared(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
        let abx = b.x - a.x, aby = b.y - a.y
        let apx = p.x - a.x, apy = p.y - a.y
        let len2 = abx * abx + aby * aby
        var t = len2 > 0 ? (apx * abx + apy * aby) / len2 : 0
        t = min(max(t, 0), 1)
        let dx = apx - t * abx, dy = apy - t * aby
        return dx * dx + dy * dy
    }
}
