extension PolygonOverlay {
    /// The rings in world space: the outer ring unwrapped across the antimeridian, each hole
    /// unwrapped and shifted by whole worlds to the outer ring's copy.
    func worldRings() -> [[WorldPoint]] {
        guard let outer = rings.first else { return [] }
        let outerWorld = CameraFit.unwrappedWorldPoints(outer)
        guard let ref = outerWorld.first else { return [outerWorld] }
        var out = [outerWorld]
        for hole in rings.dropFirst() {
            var w = CameraFit.unwrappedWorldPoints(hole)
            if let f = w.first {
                let shift = -(f.x - ref.x).rounded()
                if shift != 0 { for i in w.indices { w[i].x += shift } }
            }
            out.append(w)
        }
        return out
    }

    /// Fill (even-odd, so hole winding does not matter), then the outline.
    func draw(_ projected: ProjectedOverlay, in ctx: OverlayContext) {
        let shift = projected.worldShift(for: ctx.camera)
        let toPixel = ctx.camera.worldToPixel
        var path = Path()
        for ring in projected.lines where ring.count >= 2 {
            path.move(to: toPixel(ring[0], shiftX: shift))
            for p in ring.dropFirst() { path.line(to: toPixel(p, shiftX: shift)) }
            path.close()
        }
        guard !path.isEmpty else { return }
        if let fill = fillColor { ctx.canvas.fill(path, color: fill, rule: .evenOdd) }
        if let stroke = strokeColor, strokeWidth > 0 {
            ctx.canvas.stroke(path, style: StrokeStyle(width: strokeWidth * ctx.scale, cap: .round, join: .round), color: stroke)
        }
    }
}
