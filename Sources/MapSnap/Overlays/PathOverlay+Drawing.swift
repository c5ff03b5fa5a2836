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

    /// The line in image pixels, every point kept; nil when it has none.
    func pixelLine(_ projected: ProjectedOverlay, in ctx: OverlayContext) -> Path? {
        pixelPath(projected, ctx, thinning: false)
    }

    /// Fill (Google's `fillcolor:`), casing, then the line.
    func draw(_ projected: ProjectedOverlay, in ctx: OverlayContext) {
        guard var path = pixelPath(projected, ctx, thinning: true) else { return }
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

    /// The line in image pixels, thinned when `thinning` allows and it is safe.
    ///
    /// A big line that lies wholly inside the image, with no dash and no fill, is thinned
    /// here, while converting, by the stroker's own first simplification pass (points
    /// closer than its radial tolerance to the last kept point are dropped): a million-point
    /// track then never exists as a million-point path. That pass is idempotent, and inside
    /// the image nothing the stroker does before it (clipping) changes the points, so the
    /// drawing is exactly the same as without this shortcut. Dashes (whose phase depends on
    /// every point) and fills (which are not simplified) take the full line.
    private func pixelPath(_ projected: ProjectedOverlay, _ ctx: OverlayContext, thinning: Bool) -> Path? {
        let world = geodesic ? worldLine(maxStepDegrees: Self.drawStepDegrees) : projected.lines[0]
        guard !world.isEmpty else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        for p in world { lo = min(lo, p.x); hi = max(hi, p.x) }
        // Draw the copy of the world nearest the camera's centre.
        let shift = -((lo + hi) / 2 - ctx.camera.centerWorld.x).rounded()
        let toPixel = ctx.camera.worldToPixel
        var path = Path()
        let thin = thinning && world.count > 1024 && dash.isEmpty && fillColor == nil && {
            let w = Double(ctx.canvas.width), h = Double(ctx.canvas.height)
            var inside = true
            for p in world {
                let q = toPixel(p, shiftX: shift)
                if !(q.x >= 0 && q.x <= w && q.y >= 0 && q.y <= h) { inside = false; break }
            }
            return inside
        }()
        if thin {
            var pixels: [PixelPoint] = []
            pixels.reserveCapacity(world.count)
            for p in world { pixels.append(toPixel(p, shiftX: shift)) }
            var kept: [PixelPoint] = []
            Simplifier.radialPass(pixels[...], tolerance: Simplifier.defaultTolerance / 2, into: &kept)
            path.reserveCapacity(kept.count)
            path.move(to: kept[0])
            for q in kept.dropFirst() { path.line(to: q) }
        } else {
            path.reserveCapacity(world.count)
            path.move(to: toPixel(world[0], shiftX: shift))
            for p in world.dropFirst() { path.line(to: toPixel(p, shiftX: shift)) }
        }
        return path
    }
}
