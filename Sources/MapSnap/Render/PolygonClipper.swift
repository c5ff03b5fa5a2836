/// Clips polygon rings to an axis-aligned rectangle (Sutherland–Hodgman, one pass per edge).
///
/// Used to cut each tile's polygons exactly at the tile square, so that the pieces from
/// neighbouring tiles meet on a shared edge and — accumulated into one path and filled
/// once — leave no seam and no double-blended buffer strip. Edges running along the
/// rectangle may be produced; they have zero area and do not affect non-zero filling.
enum PolygonClipper {
    /// Clips `ring` (implicitly closed) into `output` (cleared first). Scratch buffers are
    /// passed in so a layer of thousands of rings allocates once.
    static func clip(_ ring: UnsafeBufferPointer<PixelPoint>, to r: PixelRect,
                     output: inout [PixelPoint], scratch: inout [PixelPoint]) {
        output.removeAll(keepingCapacity: true)
        guard ring.count >= 3 else { return }
        // Fast paths: fully inside (copy) or fully outside one side (empty).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in ring {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        if minX >= r.minX && maxX <= r.maxX && minY >= r.minY && maxY <= r.maxY {
            output.append(contentsOf: ring)
            return
        }
        if maxX <= r.minX || minX >= r.maxX || maxY <= r.minY || minY >= r.maxY { return }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: ring)
        // Four half-planes: x ≥ minX, x ≤ maxX, y ≥ minY, y ≤ maxY.
        for edge in 0..<4 {
            output.removeAll(keepingCapacity: true)
            guard var prev = scratch.last else { break }
            var prevIn = inside(prev, edge, r)
            for cur in scratch {
                let curIn = inside(cur, edge, r)
                if curIn {
                    if !prevIn { output.append(intersect(prev, cur, edge, r)) }
                    output.append(cur)
                } else if prevIn {
                    output.append(intersect(prev, cur, edge, r))
                }
                prev = cur
                prevIn = curIn
            }
            swap(&output, &scratch)
            if scratch.isEmpty { break }
        }
        swap(&output, &scratch)
        if output.count < 3 { output.removeAll(keepingCapacity: true) }
    }

    @inline(__always)
    private static func inside(_ p: PixelPoint, _ edge: Int, _ r: PixelRect) -> Bool {
        switch edge {
        case 0: return p.x >= r.minX
        case 1: return p.x <= r.maxX
        case 2: return p.y >= r.minY
        default: return p.y <= r.maxY
        }
    }

    @inline(__always)
    private static func intersect(_ a: PixelPoint, _ b: PixelPoint, _ edge: Int, _ r: PixelRect) -> PixelPoint {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? r.minX : r.maxX
            let t = (x - a.x) / (b.x - a.x)
            return PixelPoint(x: x, y: a.y + t * (b.y - a.y))
        default:
            let y = edge == 2 ? r.minY : r.maxY
            let t = (y - a.y) / (b.y - a.y)
            return PixelPoint(x: a.x + t * (b.x - a.x), y: y)
        }
    }
}
