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
        pixelPath(projected, camera: ctx.camera, width: ctx.canvas.width, height: ctx.canvas.height,
                  thinning: fillColor == nil, scale: scale)
    }

    /// Fill (Google's `fillcolor:`), casing, then the line; `prepared` (from
    /// `preparedStrokes`, for this canvas) saves making the casing and line fills here.
    func draw(_ projected: ProjectedOverlay, in ctx: OverlayContext, prepared: PreparedStrokes? = nil) {
        if let prepared {
            if let casing = casingColor, let fill = prepared.casing { ctx.canvas.fill(fill, color: casing) }
            if let fill = prepared.line { ctx.canvas.fill(fill, color: color) }
            return
        }
        let canvas = ctx.canvas
        guard var path = pixelPath(projected, camera: ctx.camera, width: canvas.width, height: canvas.height,
                                   thinning: dash.isEmpty && fillColor == nil) else { return }
        if let fill = fillColor {
            // A filled path is a polygon: filled and outlined closed.
            path.close()
            canvas.fill(path, color: fill, rule: .nonZero)
        }
        if let casing = casingColor, casingWidth > 0 {
            canvas.stroke(path, style: casingStyle(scale: ctx.scale), color: casing)
        }
        canvas.stroke(path, style: lineStyle(scale: ctx.scale), color: color)
    }

    /// What `draw` fills for an unfilled, undashed path — its casing and line outlines with
    /// their edge tables — made for a `width` × `height` canvas drawn with `threads` threads
    /// without touching it, so a render can make them on another thread while it draws the
    /// base map. nil for paths `draw` must stroke itself: filled ones, and dashed ones (a
    /// dash draws from the canvas's budget, in drawing order).
    func preparedStrokes(_ projected: ProjectedOverlay, camera: Camera, width: Int, height: Int,
                         threads: Int) -> PreparedStrokes? {
        guard strokesCanBePrepared else { return nil }
        guard let path = pixelPath(projected, camera: camera, width: width, height: height, thinning: true) else {
            return PreparedStrokes(casing: nil, line: nil)
        }
        let scale = camera.scale
        var casing: PreparedFill?
        if let c = casingColor, c.alpha > 0, casingWidth > 0 {
            casing = Canvas.prepareStroke(path, style: casingStyle(scale: scale), width: width, height: height, threads: threads)
        }
        let line = color.alpha > 0
            ? Canvas.prepareStroke(path, style: lineStyle(scale: scale), width: width, height: height, threads: threads)
            : nil
        return PreparedStrokes(casing: casing, line: line)
    }

    /// Whether `preparedStrokes` makes this path's fills: unfilled and undashed.
    var strokesCanBePrepared: Bool { fillColor == nil && dash.isEmpty }

    /// The line's stroke in pixels at `scale`.
    private func lineStyle(scale: Double) -> StrokeStyle {
        StrokeStyle(width: width * scale, cap: cap, join: join, dash: dash.map { $0 * scale })
    }

    /// The casing's stroke: the line widened by the casing on each side.
    private func casingStyle(scale: Double) -> StrokeStyle {
        StrokeStyle(width: width * scale + 2 * casingWidth * scale, cap: cap, join: join, dash: dash.map { $0 * scale })
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
    ///
    /// A pitched camera: the line in the flat image, carried through the tilt (not thinned).
    func pixelPath(_ projected: ProjectedOverlay, camera: Camera, width: Int, height: Int, thinning: Bool,
                   scale k: Double = 1) -> Path? {
        if camera.isPitched {
            guard let flat = pixelPath(projected, camera: camera.flat, width: width, height: height, thinning: false) else { return nil }
            let tilted = camera.tilted(flat, asAreas: fillColor != nil)
            guard !tilted.isEmpty else { return nil }
            return k == 1 ? tilted : tilted.mapPoints { PixelPoint(x: $0.x * k, y: $0.y * k) }
        }
        let world = geodesic ? worldLine(maxStepDegrees: Self.drawStepDegrees) : projected.lines[0]
        guard !world.isEmpty else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        for p in world { lo = min(lo, p.x); hi = max(hi, p.x) }
        // Draw the copy of the world nearest the camera's centre.
        let shift = -((lo + hi) / 2 - camera.centerWorld.x).rounded()
        let toPixel = camera.worldToPixel
        if thinning && world.count > 1024 {
            let w = Double(width), h = Double(height)
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

/// A path's casing and line fills made ahead of drawing (`PathOverlay.preparedStrokes`);
/// nil where that part draws nothing.
struct PreparedStrokes: Sendable {
    let casing: PreparedFill?
    let line: PreparedFill?
}
