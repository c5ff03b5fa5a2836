/// Carries a path through a projective `PixelTransform` (a pitched camera's ground → image
/// map) after cutting away what lies too near or behind the eye.
///
/// A homography sends points of depth ≤ 0 to the wrong side of the image (behind the eye
/// the ground is seen mirrored), so geometry is clipped in the source plane against the
/// half-plane `depth ≥ minimumDepth` — a straight line there, because depth is affine in
/// the source coordinates — and only then mapped. Callers choose `minimumDepth` below the
/// depth of the image's bottom row: everything it cuts lies below the image, so the
/// clipped drawing is exact where it shows.
///
/// Areas (`asAreas`, every contour implicitly closed as fills take them) are clipped as
/// polygons (Sutherland–Hodgman against one edge: the cut is closed along the clip line,
/// below the image). Lines are split where they leave the half-plane; a closed contour
/// that is cut becomes open pieces.
enum DepthClipper {
    static func transform(_ path: Path, by t: PixelTransform, minimumDepth: Double, asAreas: Bool) -> Path {
        var out = Path()
        out.reserveCapacity(path.points.count)
        for contour in path.contours {
            let pts = Array(path.points(of: contour))
            guard !pts.isEmpty else { continue }
            let depths = pts.map { t.depth($0) - minimumDepth }
            if depths.allSatisfy({ $0 >= 0 }) {
                for (k, p) in pts.enumerated() {
                    if k == 0 { out.move(to: t.apply(p)) } else { out.line(to: t.apply(p)) }
                }
                if contour.isClosed { out.close() }
                continue
            }
            if asAreas {
                var ring: [PixelPoint] = []
                for k in pts.indices {
                    let p = pts[k], q = pts[(k + 1) % pts.count]
                    let dp = depths[k], dq = depths[(k + 1) % pts.count]
                    if dp >= 0 { ring.append(p) }
                    if (dp >= 0) != (dq >= 0) { ring.append(crossing(p, q, dp, dq)) }
                }
                guard ring.count >= 3 else { continue }
                for (k, p) in ring.enumerated() {
                    if k == 0 { out.move(to: t.apply(p)) } else { out.line(to: t.apply(p)) }
                }
                out.close()
                continue
            }
            // Lines: walk the segments (closing one for a closed contour), emitting the
            // pieces in front of the clip line.
            let n = pts.count
            let segments = contour.isClosed ? n : n - 1
            var drawing = false
            if depths[0] >= 0 { out.move(to: t.apply(pts[0])); drawing = true }
            if segments > 0 {
                for k in 0..<segments {
                    let p = pts[k], q = pts[(k + 1) % n]
                    let dp = depths[k], dq = depths[(k + 1) % n]
                    switch (dp >= 0, dq >= 0) {
                    case (true, true):
                        if !drawing { out.move(to: t.apply(p)); drawing = true }
                        out.line(to: t.apply(q))
                    case (true, false):
                        if !drawing { out.move(to: t.apply(p)) }
                        out.line(to: t.apply(crossing(p, q, dp, dq)))
                        drawing = false
                    case (false, true):
                        out.move(to: t.apply(crossing(p, q, dp, dq)))
                        out.line(to: t.apply(q))
                        drawing = true
                    case (false, false):
                        drawing = false
                    }
                }
            }
        }
        return out
    }

    /// Where the segment p→q crosses the clip line, from the signed depths over the limit.
    private static func crossing(_ p: PixelPoint, _ q: PixelPoint, _ dp: Double, _ dq: Double) -> PixelPoint {
        let s = dp / (dp - dq)
        return PixelPoint(x: p.x + (q.x - p.x) * s, y: p.y + (q.y - p.y) * s)
    }
}
