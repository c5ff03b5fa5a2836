import Foundation

/// Drawing a pitched camera's base map (see `Camera+Pitch.swift`).
///
/// Below the labels, each band is drawn from its north-up frame onto a canvas of its own
/// rows (white, as the image starts), every path and tile carried through the band's
/// homography as it is drawn (`Canvas.mapTransform`; `DepthClipper` cuts what lies towards
/// the eye), and its rows are copied into the image: a road crossing from one band into
/// the next is cut on a pixel row, each side drawn exactly. Above the far limit the sky is
/// painted, and the farthest ground fades into the fog. Labels are placed band by band,
/// nearest first, into the one collision index: each band places the labels whose anchors
/// fall in its rows, upright in image pixels.
extension BaseMap {
    func drawPitched(camera: Camera, canvas: Canvas, labels: LabelCollisionIndex, pass: Pass, text: TextEngine) {
        switch pass {
        case .belowLabels:
            let sky = style.sky ?? StyleSky()
            paintSky(sky, camera: camera, canvas: canvas)
            for (band, map) in bands {
                if canvas.drawingDeadlinePassed() { return }
                let rows = band.rows
                guard !rows.isEmpty else { continue }
                let strip = Canvas(width: canvas.width, height: rows.count, fill: .white)
                strip.maximumThreads = canvas.maximumThreads
                strip.deadline = canvas.deadline
                strip.mapMinimumDepth = camera.minimumDrawnDepth
                let toStrip = PixelTransform.translation(0, -Double(rows.lowerBound)).after(band.toImage)
                let ctx = PaintContext(camera: band.camera, canvas: strip, zoom: band.camera.zoom, sprites: sprites,
                                       toImage: toStrip, heading: camera.heading)
                map.draw(ctx, labels: labels, pass: .belowLabels, text: text)
                if strip.drawingDeadlinePassed() { _ = canvas.drawingDeadlinePassed(); return }
                let rowBytes = canvas.width * 4, start = rows.lowerBound * rowBytes
                canvas.pixels.replaceSubrange(start..<(start + rows.count * rowBytes), with: strip.pixels)
            }
            fadeIntoFog(sky, camera: camera, canvas: canvas)
        case .labels:
            for (band, map) in bands {
                if canvas.drawingDeadlinePassed() { return }
                var ctx = PaintContext(camera: band.camera, canvas: canvas, zoom: band.camera.zoom, sprites: sprites,
                                       toImage: band.toImage, heading: camera.heading)
                ctx.labelRows = band.rows
                ctx.minimumDepth = camera.minimumDrawnDepth
                ctx.pitchedCamera = camera
                map.draw(ctx, labels: labels, pass: .labels, text: text)
            }
        }
    }

    /// The rows above the far limit: `skyColor` at the top blending to `horizonColor` at the
    /// limit (smoothstep over the sky's height).
    private func paintSky(_ sky: StyleSky, camera: Camera, canvas: Canvas) {
        let rows = camera.skyRows
        guard rows > 0 else { return }
        for y in 0..<rows {
            let t = (Double(y) + 0.5) / Double(rows)
            let k = t * t * (3 - 2 * t)
            let c = sky.skyColor.interpolated(to: sky.horizonColor, fraction: k).color
            var band = Path()
            band.addRect(PixelRect(x: 0, y: Double(y), width: Double(canvas.width), height: 1))
            canvas.fill(band, color: Color(red: c.red, green: c.green, blue: c.blue, alpha: 255))
        }
    }

    /// The farthest ground fades into `fogColor`: fully at the far limit, not at all where
    /// the ground's scale is four times the limit's. Only where the sky shows (a pitch whose
    /// ground reaches the top of the image has no far limit in view).
    private func fadeIntoFog(_ sky: StyleSky, camera: Camera, canvas: Canvas) {
        let top = camera.skyRows
        guard top > 0 else { return }
        let bottom = Int(min(Double(canvas.height), camera.row(forGroundScale: 4 * Camera.farGroundScale).rounded()))
        guard bottom > top else { return }
        let fog = sky.fogColor.color
        for y in top..<bottom {
            let t = 1 - (Double(y) + 0.5 - Double(top)) / Double(bottom - top)
            let alpha = UInt8((255 * t * t).rounded())
            guard alpha > 0 else { continue }
            var band = Path()
            band.addRect(PixelRect(x: 0, y: Double(y), width: Double(canvas.width), height: 1))
            canvas.fill(band, color: Color(red: fog.red, green: fog.green, blue: fog.blue, alpha: alpha))
        }
    }
}

extension PaintContext {
    /// How much a symbol anchored on image row `y` is scaled: MapLibre's perspective ratio,
    /// 0.5 + 0.5 × the ground's scale there relative to the centre's (camera-to-centre over
    /// camera-to-anchor distance), clamped to 0…4 — far labels shrink to about half, near
    /// ones grow, less than the ground itself so that far names stay readable. 1 when flat.
    /// In steps of 1/16, so that labels at nearly the same depth share shaped text and glyph
    /// images (each size is shaped and rasterised once).
    func symbolScale(atRow y: Double) -> Double {
        guard let camera = pitchedCamera else { return 1 }
        let ratio = min(max(0.5 + 0.5 * camera.groundScale(atRow: y), 0), 4)
        return (ratio * 16).rounded() / 16
    }

    /// Where a symbol anchored at frame point `p` sits in the image, or nil when this frame
    /// does not place it: a pitched band places only anchors in front of the eye whose
    /// image row is one of its rows. Without a band: `toImage` applied (or `p` itself).
    func imageAnchor(_ p: PixelPoint) -> PixelPoint? {
        guard let t = toImage else { return p }
        guard let rows = labelRows else { return t.apply(p) }
        guard t.depth(p) > minimumDepth else { return nil }
        let q = t.apply(p)
        return q.y >= Double(rows.lowerBound) && q.y < Double(rows.upperBound) ? q : nil
    }

    /// A line in frame pixels as lines in image pixels: carried by `toImage`; a pitched
    /// band's cut where it passes towards the eye and kept to the band's rows (the pieces in
    /// other rows are the other bands' to place).
    func imageLines(_ line: [PixelPoint]) -> [[PixelPoint]] {
        guard let t = toImage else { return [line] }
        guard let rows = labelRows else { return [line.map(t.apply)] }
        var path = Path()
        for (k, p) in line.enumerated() {
            if k == 0 { path.move(to: p) } else { path.line(to: p) }
        }
        let carried = DepthClipper.transform(path, by: t, minimumDepth: minimumDepth, asAreas: false)
        let band = PixelRect(minX: -Double(canvas.width), minY: Double(rows.lowerBound),
                             maxX: 2 * Double(canvas.width), maxY: Double(rows.upperBound))
        let clipped = LineClipper.clip(carried, to: band).path
        return clipped.contours.filter { $0.count >= 2 }.map { Array(clipped.points(of: $0)) }
    }
}
