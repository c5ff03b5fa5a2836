import Foundation

/// A 2-D path in pixel space made of polylines (contours), each open or closed.
///
/// Curves are flattened when added (`quadTo`, `cubicTo`, `addArc`), so the rasterizer and
/// stroker only ever see line segments. All coordinates should be finite; non-finite points
/// are dropped by `lineTo`/`moveTo` so that untrusted geometry cannot poison a render.
struct Path: Sendable {
    /// One polyline: `count` points starting at `start` in `points`.
    struct Contour: Sendable, Hashable {
        var start: Int
        var count: Int
        var isClosed: Bool
    }

    private(set) var points: [PixelPoint] = []
    private(set) var contours: [Contour] = []

    /// Flattening tolerance in pixels for curves.
    static let flatteningTolerance = 0.1

    init() {}

    /// One open contour through `points`, built in place (the array becomes the path's
    /// storage, no copy): the same path as `move(to:)` the first point and `line(to:)` each
    /// of the rest, so non-finite points and exact repeats are left out.
    init(polyline points: consuming [PixelPoint]) {
        var pts = points
        var n = 0
        for i in pts.indices {
            let p = pts[i]
            guard p.x.isFinite, p.y.isFinite, n == 0 || pts[n - 1] != p else { continue }
            pts[n] = p
            n += 1
        }
        pts.removeLast(pts.count - n)
        self.points = pts
        contours = n > 0 ? [Contour(start: 0, count: n, isClosed: false)] : []
    }

    var isEmpty: Bool { points.isEmpty }

    mutating func reserveCapacity(_ n: Int) { points.reserveCapacity(n) }

    mutating func move(to p: PixelPoint) {
        guard p.x.isFinite, p.y.isFinite else { return }
        contours.append(Contour(start: points.count, count: 1, isClosed: false))
        points.append(p)
    }

    mutating func line(to p: PixelPoint) {
        guard p.x.isFinite, p.y.isFinite else { return }
        guard let last = contours.indices.last, !contours[last].isClosed else {
            move(to: p)
            return
        }
        // Skip exact duplicates: they carry no direction and upset joins.
        if let prev = points.last, prev == p { return }
        points.append(p)
        contours[last].count += 1
    }

    mutating func close() {
        guard let last = contours.indices.last else { return }
        contours[last].isClosed = true
    }

    mutating func quad(to p: PixelPoint, control c: PixelPoint) {
        guard let p0 = points.last, !contours.isEmpty else { move(to: p); return }
        let dd = abs(p0.x - 2 * c.x + p.x) + abs(p0.y - 2 * c.y + p.y)
        let n = Path.curveSegments((dd / Path.flatteningTolerance).squareRoot())
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            line(to: PixelPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                                y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
        }
    }

    mutating func cubic(to p: PixelPoint, control1 c1: PixelPoint, control2 c2: PixelPoint) {
        guard let p0 = points.last, !contours.isEmpty else { move(to: p); return }
        let dd = max(abs(p0.x - 2 * c1.x + c2.x) + abs(p0.y - 2 * c1.y + c2.y),
                     abs(c1.x - 2 * c2.x + p.x) + abs(c1.y - 2 * c2.y + p.y))
        let n = Path.curveSegments((1.5 * dd / Path.flatteningTolerance).squareRoot())
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
            line(to: PixelPoint(x: a * p0.x + b * c1.x + cc * c2.x + d * p.x,
                                y: a * p0.y + b * c1.y + cc * c2.y + d * p.y))
        }
    }

    /// Segments for a curve whose estimated segment count is `estimate`: 1...100, also when
    /// huge or non-finite control points make the estimate infinite or NaN.
    private static func curveSegments(_ estimate: Double) -> Int {
        guard !estimate.isNaN else { return 1 }
        return Int(min(100, max(1, estimate.rounded(.up))))
    }

    /// Adds a closed circle contour (clockwise in y-down space) flattened to the tolerance.
    mutating func addCircle(center: PixelPoint, radius: Double) {
        guard radius > 0, radius.isFinite else { return }
        let segments = Path.segmentCount(radius: radius, sweep: 2 * .pi)
        move(to: PixelPoint(x: center.x + radius, y: center.y))
        for i in 1..<segments {
            let a = 2 * Double.pi * Double(i) / Double(segments)
            line(to: PixelPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a)))
        }
        close()
    }

    /// Adds a closed axis-aligned rectangle.
    mutating func addRect(_ r: PixelRect) {
        move(to: PixelPoint(x: r.minX, y: r.minY))
        line(to: PixelPoint(x: r.maxX, y: r.minY))
        line(to: PixelPoint(x: r.maxX, y: r.maxY))
        line(to: PixelPoint(x: r.minX, y: r.maxY))
        close()
    }

    /// Adds a closed rounded rectangle.
    mutating func addRoundedRect(_ r: PixelRect, radius: Double) {
        let rad = max(0, min(radius, min(r.width, r.height) / 2))
        guard rad > 0 else { addRect(r); return }
        let corners: [(PixelPoint, Double)] = [
            (PixelPoint(x: r.maxX - rad, y: r.minY + rad), -Double.pi / 2),
            (PixelPoint(x: r.maxX - rad, y: r.maxY - rad), 0),
            (PixelPoint(x: r.minX + rad, y: r.maxY - rad), Double.pi / 2),
            (PixelPoint(x: r.minX + rad, y: r.minY + rad), Double.pi),
        ]
        let n = Path.segmentCount(radius: rad, sweep: .pi / 2)
        var first = true
        for (c, a0) in corners {
            for i in 0...n {
                let a = a0 + Double.pi / 2 * Double(i) / Double(n)
                let p = PixelPoint(x: c.x + rad * cos(a), y: c.y + rad * sin(a))
                if first { move(to: p); first = false } else { line(to: p) }
            }
        }
        close()
    }

    /// Appends all contours of another path.
    mutating func append(_ other: Path) {
        let offset = points.count
        points.append(contentsOf: other.points)
        contours.append(contentsOf: other.contours.map { Contour(start: $0.start + offset, count: $0.count, isClosed: $0.isClosed) })
    }

    /// The points of one contour.
    func points(of contour: Contour) -> ArraySlice<PixelPoint> {
        points[contour.start..<(contour.start + contour.count)]
    }

    /// Bounding box of all points, or nil when empty.
    var bounds: PixelRect? {
        guard var r = points.first.map({ PixelRect(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y) }) else { return nil }
        for p in points {
            r.minX = min(r.minX, p.x); r.maxX = max(r.maxX, p.x)
            r.minY = min(r.minY, p.y); r.maxY = max(r.maxY, p.y)
        }
        return r
    }

    /// A copy with every point mapped through `f`.
    func mapPoints(_ f: (PixelPoint) -> PixelPoint) -> Path {
        var copy = self
        copy.points = points.map(f)
        return copy
    }

    /// Segments needed so a flattened arc deviates from the true arc by at most the tolerance.
    static func segmentCount(radius: Double, sweep: Double) -> Int {
        let step = 2 * acos(max(-1, min(1, 1 - Path.flatteningTolerance / max(radius, Path.flatteningTolerance))))
        return max(4, min(1024, Int((abs(sweep) / max(step, 1e-3)).rounded(.up))))
    }
}

