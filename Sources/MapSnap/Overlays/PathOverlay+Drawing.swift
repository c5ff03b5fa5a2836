extension PathOverlay {
    /// Great-circle step when fitting the camera to a geodesic path, in degrees.
    static let fitStepDegrees = 1.0
    /// Great-circle step when drawing a geodesic path, in degrees.
    static let drawStepDegrees = 0.5

    /// How far the stroke reaches beyond the line, in points: half its width plus the casing.
    var reach: Double { width / 2 + (casingColor == nil ? 0 : casingWidth) }

    /// The line in world space, unwrapped (each step takes the short way across the
    /// antimeridian), densified along great circles when `geodesic`.
    func worldLine(maxStepDegrees: Double) -> [WorldPoint] {
        guard geodesic, coordinates.count > 1 else { return CameraFit.unwrappedWorldPoints(coordinates) }
        var dense: [LatLng] = [coordinates[0]]
        for i in 1..<coordinates.count {
            dense.append(contentsOf: Geodesy.greatCircle(from: coordinates[i - 1], to: coordinates[i],
                                                         maxStepDegrees: maxStepDegrees).dropFirst())
        }
        return CameraFit.unwrappedWorldPoints(dense)
    }

    /// The line in image pixels times `scale`, for the label-collision mask (which strokes it
    /// undashed on a grid `scale` times the image's size); nil when it has none. Thinned as
    /// the stroker would thin it (see `pixelPath`).
    func obstacleLine(_ projected: ProjectedOverlay, in ctx: OverlayContext, scale: Double) -> Path? {
        pixelPath(projected, ctx, thinning: fillColor == nil, scale: scale)
    }

    /// Fill (Google's `fillcolor:`), casing, then the line.
    func draw(_ projected: ProjectedOverlay, in ctx: OverlayContext) {
        guard var path = pixelPath(projected, ctx, thinning: dash.isEmpty && fillColor == nil) else { return }
        if let fill = fillColor {
            // A filled path is a polygon: filled and outlined closed.
            path.close()
            ctx.canvas.fill(path, color: fill, rule: .nonZero)
        }
        let scale = ctx.scale
        let width = self.width * scale
        let dash = self.dash.map { $0 * scale }
        if let casing = casingColor, casingWidth > 0 {
            ctx.canvas.stroke(path, style: StrokeStyle(width: width + 2 * casingWidth * scale, cap: cap, join: join,
                                                       dash: dash), color: casing)
        }
        ctx.canvas.stroke(path, style: StrokeStyle(width: width, cap: cap, join: join, dash: dash), color: color)
    }

    /// The line in image pixels (times `scale`), thinned when `thinning` allows and it is safe.
    ///
    /// A big line that lies wholly inside the image is thinned here, while it is projected,
    /// by the stroker's own first simplification pass (points closer than its radial
    /// tolerance to the last kept point are dropped): a million-point track then never exists
    /// as a million-point path. That pass is idempotent, and inside the image nothing the
    /// stroker does before it (clipping) changes the points, so the drawing is exactly the
    /// same as without this shortcut. Callers allow thinning only for undashed strokes
    /// (a dash's phase depends on every point) of unfilled lines (fills are not simplified).
    /// A point outside the image ends the thinning and the line is converted in full.
    func pixelPath(_ projected: ProjectedOverlay, _ ctx: OverlayContext, thinning: Bool,
                   scale k: Double = 1) -> Path? {
        let world = geodesic ? worldLine(maxStepDegrees: Self.drawStepDegrees) : projected.lines[0]
        guard !world.isEmpty else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        for p in world { lo = min(lo, p.x); hi = max(hi, p.x) }
        // Draw the copy of the world nearest the camera's centre.
        let shift = -((lo + hi) / 2 - ctx.camera.centerWorld.x).rounded()
        let toPixel = ctx.camera.worldToPixel
        if thinning && world.count > 1024 {
            let w = Double(ctx.canvas.width), h = Double(ctx.canvas.height)
            var thinner = Simplifier.RadialThinner(tolerance: Simplifier.defaultTolerance / 2)
            var kept: [PixelPoint] = []
            kept.reserveCapacity(min(world.count, 1 << 16))
            var inside = true
            for p in world {
                let q = toPixel(p, shiftX: shift)
                guard q.x >= 0 && q.x <= w && q.y >= 0 && q.y <= h else { inside = false; break }
                thinner.add(k == 1 ? q : PixelPoint(x: q.x * k, y: q.y * k), to: &kept)
            }
            if inside {
                thinner.finish(&kept)
                return Path(polyline: kept)
            }
        }
        var path = Path()
        path.reserveCapacity(world.count)
        for (i, p) in world.enumerated() {
            var q = toPixel(p, shiftX: shift)
            if k != 1 { q = PixelPoint(x: q.x * k, y: q.y * k) }
            if i == 0 { path.move(to: q) } else { path.line(to: q) }
        }
        return path
    }
}
