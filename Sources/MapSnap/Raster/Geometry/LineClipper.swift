/// The result of clipping polylines: the visible pieces, and for each piece the distance
/// along its original contour at which it starts (so dash patterns stay in phase).
struct ClippedPath: Sendable {
    var path: Path
    /// One entry per contour of `path`, in pixels.
    var startDistances: [Double]
}

/// Clips polylines (not polygons) to a rectangle, segment by segment (Liang–Barsky).
///
/// Used before stroking with the canvas expanded by the stroke's reach, so a route with
/// millions of off-screen points costs one pass and nothing downstream. Consecutive visible
/// segments stay one contour (joins are preserved); a piece ends where the line leaves the
/// rectangle and a new one starts where it re-enters. A closed contour that is entirely
/// inside stays closed; one that is cut becomes open pieces, with the piece through the
/// start vertex re-joined so that vertex keeps its join.
enum LineClipper {
    /// The parts of `path` inside `rect` (boundary included).
    static func clip(_ path: Path, to rect: PixelRect) -> ClippedPath {
        if isWhollyInside(path, rect) {
            return ClippedPath(path: path, startDistances: [Double](repeating: 0, count: path.contours.count))
        }
        var out = Path()
        // Most contours are one piece: room for their points and an entry point each.
        out.reserveCapacity(path.points.count + path.contours.count)
        var distances: [Double] = []
        var buffer: [PixelPoint] = []
        buffer.reserveCapacity(path.contours.reduce(0) { max($0, $1.count) } + 2)
        var starts: [Int] = []
        var pieceDistances: [Double] = []
        for contour in path.contours {
            let pts = path.points(of: contour)
            guard let first = pts.first else { continue }
            if pts.count == 1 {
                if rect.contains(first) { out.move(to: first); distances.append(0) }
                continue
            }
            buffer.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            pieceDistances.removeAll(keepingCapacity: true)
            var travelled = 0.0
            var open = false
            var firstPieceAtStart = false
            var prev = first
            var rest = pts.dropFirst()
            var closing = contour.isClosed
            var segmentIndex = 0
            var allInside = true
            while true {
                let p: PixelPoint
                if let next = rest.first { p = next; rest = rest.dropFirst() }
                else if closing { p = first; closing = false }
                else { break }
                let d = p - prev
                let length = d.length
                if let (t0, t1) = clipSegment(prev, p, rect) {
                    if t0 > 0 || t1 < 1 { allInside = false }
                    if !open || t0 > 0 {
                        starts.append(buffer.count)
                        pieceDistances.append(travelled + t0 * length)
                        buffer.append(t0 > 0 ? prev + d * t0 : prev)
                        if segmentIndex == 0 && t0 == 0 { firstPieceAtStart = true }
                    }
                    buffer.append(t1 < 1 ? prev + d * t1 : p)
                    open = t1 >= 1
                } else {
                    allInside = false
                    open = false
                }
                travelled += length
                prev = p
                segmentIndex += 1
            }
            guard !starts.isEmpty else { continue }
            starts.append(buffer.count)
            let pieces = starts.count - 1
            if contour.isClosed && allInside {
                out.move(to: buffer[0])
                for i in 1..<buffer.count { out.line(to: buffer[i]) }
                out.close()
                distances.append(0)
                continue
            }
            // Re-join the last piece with the first when they meet at the start vertex.
            let merge = contour.isClosed && open && firstPieceAtStart && pieces > 1
            for k in (merge ? 1 : 0)..<pieces {
                out.move(to: buffer[starts[k]])
                for i in (starts[k] + 1)..<starts[k + 1] { out.line(to: buffer[i]) }
                if merge && k == pieces - 1 {
                    for i in 1..<starts[1] { out.line(to: buffer[i]) }
                }
                distances.append(pieceDistances[k])
            }
        }
        return ClippedPath(path: out, startDistances: distances)
    }

    /// True when clipping would give `path` back unchanged: every contour open and every
    /// point inside `rect` (so every segment is), and no point repeating the one before it
    /// (the rebuilt path would skip it). The usual case for a route inside the image, which
    /// then costs one read of its points instead of a copy.
    private static func isWhollyInside(_ path: Path, _ rect: PixelRect) -> Bool {
        for contour in path.contours where contour.isClosed { return false }
        let pts = path.points
        guard var prev = pts.first else { return true }
        guard rect.contains(prev) else { return false }
        for p in pts.dropFirst() {
            guard rect.contains(p), p != prev else { return false }
            prev = p
        }
        return true
    }

    /// Liang–Barsky: the parameter range of `a`–`b` inside `r`, or nil when it misses.
    static func clipSegment(_ a: PixelPoint, _ b: PixelPoint, _ r: PixelRect) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 {
                if t > t1 { return false }
                if t > t0 { t0 = t }
            } else {
                if t < t0 { return false }
                if t < t1 { t1 = t }
            }
            return true
        }
        guard edge(-dx, a.x - r.minX), edge(dx, r.maxX - a.x),
              edge(-dy, a.y - r.minY), edge(dy, r.maxY - a.y) else { return nil }
        return (t0, t1)
    }
}
