extension PolygonOverlay {
    /// The rings in world space (see `WorldRing`: unwrapped across the antimeridian, closed
    /// over a pole when they go round one), each hole shifted by whole worlds to the copy
    /// nearest the middle of the outer ring.
    func worldRings() -> [WorldRing] {
        guard let outer = rings.first else { return [] }
        let outerRing = WorldRing(polygon: outer)
        guard let middle = Self.middleX(outerRing.points) else { return [outerRing] }
        var out = [outerRing]
        for hole in rings.dropFirst() {
            var ring = WorldRing(polygon: hole)
            if let m = Self.middleX(ring.points) {
                let shift = -(m - middle).rounded()
                if shift != 0 { for i in ring.points.indices { ring.points[i].x += shift } }
            }
            out.append(ring)
        }
        return out
    }

    /// Halfway between the smallest and largest x; nil when there are no points.
    private static func middleX(_ points: [WorldPoint]) -> Double? {
        guard var lo = points.first?.x else { return nil }
        var hi = lo
        for p in points {
            lo = min(lo, p.x)
            hi = max(hi, p.x)
        }
        return (lo + hi) / 2
    }

    /// Fill (even-odd, so hole winding does not matter), then the outline, for every world
    /// copy that reaches into the image.
    func draw(_ projected: ProjectedOverlay, in ctx: OverlayContext) {
        let shifts = projected.worldShifts(for: ctx.camera, marginPixels: strokeWidth * ctx.scale)
        // A pitched camera: rings in the flat image, then tilted.
        let toPixel = ctx.camera.flat.worldToPixel
        var path = Path()
        for shift in shifts {
            for ring in projected.lines where ring.count >= 2 {
                path.move(to: toPixel(ring[0], shiftX: shift))
                for p in ring.dropFirst() { path.line(to: toPixel(p, shiftX: shift)) }
                path.close()
            }
        }
        path = ctx.camera.tilted(path, asAreas: true)
        guard !path.isEmpty else { return }
        if let fill = fillColor { ctx.canvas.fill(path, color: fill, rule: .evenOdd) }
        if let stroke = strokeColor, strokeWidth > 0 {
            let outline = projected.hiddenEdges.allSatisfy(\.isEmpty) ? path
                : ctx.camera.tilted(outlinePath(projected, shifts: shifts, toPixel), asAreas: false)
            ctx.canvas.stroke(outline, style: StrokeStyle(width: strokeWidth * ctx.scale, cap: .round, join: .round), color: stroke)
        }
    }

    /// The outline when some edges are not part of it (a split polygon's cut, a pole
    /// closure): each run of outline edges as an open line, so no seam is stroked.
    private func outlinePath(_ projected: ProjectedOverlay, shifts: [Double], _ toPixel: WorldToPixel) -> Path {
        var path = Path()
        for shift in shifts {
            for (ring, hidden) in zip(projected.lines, projected.hiddenEdges) where ring.count >= 2 {
                guard let firstHidden = hidden.first else {
                    path.move(to: toPixel(ring[0], shiftX: shift))
                    for p in ring.dropFirst() { path.line(to: toPixel(p, shiftX: shift)) }
                    path.close()
                    continue
                }
                let hiddenSet = Set(hidden)
                let n = ring.count
                // Walk every edge once, starting just after a hidden one, so that each run of
                // outline edges is one open line.
                var drawing = false
                for step in 1...n {
                    let edge = (firstHidden + step) % n
                    if hiddenSet.contains(edge) {
                        drawing = false
                        continue
                    }
                    if !drawing {
                        path.move(to: toPixel(ring[edge], shiftX: shift))
                        drawing = true
                    }
                    path.line(to: toPixel(ring[(edge + 1) % n], shiftX: shift))
                }
            }
        }
        return path
    }
}
