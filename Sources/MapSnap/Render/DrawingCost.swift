import Foundation

/// What drawing a request's overlays will cost, estimated before anything is drawn, so that
/// a server can refuse a map that would hold a render thread for many seconds (a thousand
/// world-spanning polygons with 200-point strokes on a 2048² canvas: ~40 CPU-seconds)
/// while it admits every real map, which costs a small fraction of that.
///
/// The unit is one *pixel operation*: a cell an outline edge crosses, or a pixel a fill or a
/// stroke covers. A fill's work is its edges' cells plus the pixels it covers; a stroke's is
/// a fill of its outline: two sides and a join (about `length + width` cells each) per
/// segment, and the stroked area (`length × width`, at most the canvas: the outline is
/// filled non-zero in one pass). Lengths are clipped to the canvas's half perimeter (the
/// rasterizer and the stroker clip to it), and everything counts once per copy of the world
/// the image shows. The camera is the one the render uses when the request gives centre and
/// zoom; else a fit to the overlays' points and stroke margins, without the text and icon
/// margins of markers (which only lower the zoom, so the estimate errs high).
///
/// Calibration: the attack above is estimated at 1.9·10¹⁰ and took 37–39 CPU-seconds, so
/// 10⁹ units are roughly 2 CPU-seconds; the costliest real map in the tests and the corpus
/// (every country at 2048²) is 2.9·10⁶ (README's serving section: the default limit).
package enum DrawingCost {
    /// The default limit of `mapsnap render`/`batch` (`--max-cost`) and of `mapsnap serve`
    /// (`limits.maxDrawingCost`): about two CPU-seconds of drawing. It admits every real map
    /// in the tests and the corpus (the costliest, 2.9·10⁶, is 1/300 of it) and refuses a
    /// thousand world-spanning wide-stroked polygons (1.9·10¹⁰, 19 times over it).
    package static let defaultLimit = 1e9

    /// `1.9e10`: a cost for messages (two significant digits).
    package static func engineering(_ x: Double) -> String {
        guard x.isFinite, x >= 1 else { return String(format: "%.0f", x.isFinite ? x : 0) }
        return String(format: "%.1e", x).replacingOccurrences(of: "e+0", with: "e").replacingOccurrences(of: "e+", with: "e")
    }

    /// The estimate for `options`' overlays in the image they describe.
    package static func estimate(_ options: MapSnapshotOptions) -> Double {
        let projected = options.overlays.map(ProjectedOverlay.init)
        return estimate(projected, camera: camera(options, projected))
    }

    /// The estimate for `overlays` drawn with `camera`.
    static func estimate(_ overlays: [ProjectedOverlay], camera: Camera) -> Double {
        let width = Double(camera.pixelWidth), height = Double(camera.pixelHeight)
        let scale = camera.scale
        let frame = Frame(width: width, height: height, worldSize: camera.worldSize)
        var total = 0.0
        for o in overlays {
            switch o.overlay {
            case .path(let p):
                let casing = (p.casingColor?.alpha ?? 0) > 0 && p.casingWidth > 0
                if (p.fillColor?.alpha ?? 0) > 0 { total += frame.fill(o.lines) }
                if p.color.alpha > 0 { total += frame.stroke(o.lines, width: p.width * scale) }
                if casing { total += frame.stroke(o.lines, width: (p.width + 2 * p.casingWidth) * scale) }
            case .polygon(let p):
                if (p.fillColor?.alpha ?? 0) > 0 { total += frame.fill(o.lines) }
                if (p.strokeColor?.alpha ?? 0) > 0 && p.strokeWidth > 0 { total += frame.stroke(o.lines, width: p.strokeWidth * scale) }
            case .circle(let c):
                if (c.fillColor?.alpha ?? 0) > 0 { total += frame.fill(o.lines) }
                if (c.strokeColor?.alpha ?? 0) > 0 && c.strokeWidth > 0 { total += frame.stroke(o.lines, width: c.strokeWidth * scale) }
            case .marker:
                // A pin or an icon and its label: a 64-point square's worth.
                total += markerCost * scale * scale
            }
        }
        return total
    }

    /// A marker's cost in units at scale 1.
    static let markerCost = 64.0 * 64.0

    /// The render's camera, or a close one (see the type's notes).
    static func camera(_ options: MapSnapshotOptions, _ overlays: [ProjectedOverlay]) -> Camera {
        let o = options
        if let c = o.center, let z = o.zoom {
            return Camera(center: c, zoom: z, width: o.width, height: o.height, scale: o.scale)
        }
        var items: [FitItem] = overlays.map { p in
            let margin: Double
            switch p.overlay {
            case .path(let path): margin = path.reach * o.scale
            case .polygon(let polygon): margin = polygon.strokeWidth / 2 * o.scale
            case .circle(let circle): margin = circle.strokeWidth / 2 * o.scale
            case .marker: margin = 0
            }
            return FitItem(points: p.lines.first ?? [], marginLeft: margin, marginTop: margin, marginRight: margin, marginBottom: margin)
        }
        items.append(contentsOf: o.visibleCoordinates.map { FitItem(points: [WebMercator.project($0)]) })
        return CameraFit.camera(fitting: items, width: o.width, height: o.height, scale: o.scale,
                                padding: o.padding, center: o.center, zoom: o.zoom,
                                fractional: o.allowsFractionalZoom, maximumZoom: o.maximumFitZoom)
    }

    /// The image's size and the world's size in its pixels, and the sums over lines in it.
    private struct Frame {
        let width: Double, height: Double, worldSize: Double
        /// Longest stretch of an edge inside the canvas that counts.
        var reach: Double { width + height }
        var area: Double { width * height }
        /// Copies of the world side by side in the image (one unless zoomed far out).
        var copies: Double { 1 + (worldSize > 0 ? (width / worldSize).rounded(.down) : 0) }

        /// Edge cells of `lines` as outlines, and their pixel bounding box's area in the image.
        func fill(_ lines: [[WorldPoint]]) -> Double {
            var cells = 0.0
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for line in lines {
                for (a, b) in zip(line, line.dropFirst()) { cells += min(length(a, b), reach) + 1 }
                for p in line {
                    minX = min(minX, p.x); maxX = max(maxX, p.x)
                    minY = min(minY, p.y); maxY = max(maxY, p.y)
                }
            }
            guard minX <= maxX else { return 0 }
            let covered = min((maxX - minX) * worldSize, width) * min((maxY - minY) * worldSize, height)
            return copies * (cells + covered)
        }

        /// Edge cells of the outline of `lines` stroked `strokeWidth` pixels wide, and the area.
        func stroke(_ lines: [[WorldPoint]], width strokeWidth: Double) -> Double {
            guard strokeWidth.isFinite, strokeWidth > 0 else { return 0 }
            var cells = 0.0, covered = 0.0
            for line in lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    let l = min(length(a, b), reach)
                    cells += 2 * (l + strokeWidth + 1)
                    covered += l * strokeWidth
                }
                // Caps or the closing join.
                if !line.isEmpty { cells += 2 * (strokeWidth + 1) }
            }
            return copies * (cells + min(covered, area))
        }

        func length(_ a: WorldPoint, _ b: WorldPoint) -> Double {
            let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() * worldSize
            return d.isFinite ? d : reach
        }
    }
}
