/// Draws overlays onto a canvas for one camera: paths, polygons, circles, then markers
/// (markers always above shapes of the same level), then marker titles.
///
/// Widths given in points are multiplied by the camera's scale here, once.
struct OverlayPainter {
    let camera: Camera
    let canvas: Canvas
    let text: TextEngine
    let icons: IconStore
    var warnings: [String] = []

    init(camera: Camera, canvas: Canvas, text: TextEngine, icons: IconStore) {
        self.camera = camera
        self.canvas = canvas
        self.text = text
        self.icons = icons
    }

    var geometry: OverlayGeometry { OverlayGeometry(camera: camera) }
    var scale: Double { camera.scale }

    /// Where each marker's title goes, by overlay index (planned before any label is drawn).
    private var titleRects: [Int: PixelRect] = [:]

    /// Reserves every marker and places every title in the collision index *before* the
    /// base map places its labels, so the map's own labels give way to the user's: overlay
    /// titles are never dropped.
    mutating func planMarkers(_ overlays: [Overlay], labels: LabelCollisionIndex) throws(RenderError) {
        var markers: [(Int, MarkerOverlay, PixelRect)] = []
        for (i, o) in overlays.enumerated() {
            if case .marker(let m) = o { markers.append((i, m, try markerBox(m))) }
        }
        for (_, _, box) in markers { labels.insert(box) }
        for (i, m, box) in markers {
            if let title = m.title, !title.isEmpty {
                titleRects[i] = placeTitle(title, beside: box, labels: labels)
            }
        }
    }

    /// Draws every overlay of `level`, in the order given, shapes before markers.
    mutating func draw(_ overlays: [Overlay], level: Overlay.Level) throws(RenderError) {
        for o in overlays {
            switch o {
            case .path(let p) where p.level == level: drawPath(p)
            case .polygon(let p) where p.level == level: drawPolygon(p)
            case .circle(let c) where c.level == level: drawCircle(c)
            default: break
            }
        }
        var markers: [(Int, MarkerOverlay)] = []
        for (i, o) in overlays.enumerated() {
            if case .marker(let m) = o, m.level == level { markers.append((i, m)) }
        }
        // Pins farther south overlap those north of them, as on a real map.
        let order = markers.indices.sorted {
            let a = markers[$0].1.coordinate.latitude, b = markers[$1].1.coordinate.latitude
            return a != b ? a > b : $0 < $1
        }
        for k in order { try drawMarker(markers[k].1) }
        for (i, m) in markers {
            if let title = m.title, let rect = titleRects[i] { drawTitle(title, in: rect) }
        }
    }

    /// Marks where `level`'s routes (path overlays that are lines, not areas) will be drawn,
    /// casing included, so base-map labels placed afterwards keep clear of them. A route
    /// runs along the very streets whose names are drawn along them, so it would hide a
    /// name from end to end or cut it in half ("uuvikatu"); an area's outline, like a
    /// boundary on any map, only crosses a label and leaves it readable, so areas, circles
    /// and filled paths do not block.
    func reserveRoutes(_ overlays: [Overlay], level: Overlay.Level, labels: LabelCollisionIndex) {
        for case .path(let p) in overlays where p.level == level && p.fillColor == nil {
            let casing = (p.casingColor?.alpha ?? 0) > 0 && p.casingWidth > 0 ? 2 * p.casingWidth : 0
            guard p.color.alpha > 0 || casing > 0, let path = linePath(p) else { continue }
            labels.block(stroke: path, style: StrokeStyle(width: (p.width + casing) * scale, cap: p.cap, join: p.join))
        }
    }

    // MARK: Shapes

    /// A path overlay's line in image pixels, open; nil when it has no points.
    func linePath(_ p: PathOverlay) -> Path? {
        let pts = geometry.pixelLine(p.coordinates, geodesic: p.geodesic)
        guard !pts.isEmpty else { return nil }
        var path = Path()
        path.reserveCapacity(pts.count + 1)
        path.move(to: pts[0])
        for q in pts.dropFirst() { path.line(to: q) }
        return path
    }

    func drawPath(_ p: PathOverlay) {
        guard var path = linePath(p) else { return }
        if let fill = p.fillColor {
            path.close()
            canvas.fill(path, color: fill, rule: .nonZero)
        }
        let width = p.width * scale
        let dash = p.dash.map { $0 * scale }
        if let casing = p.casingColor, p.casingWidth > 0 {
            canvas.stroke(path, style: StrokeStyle(width: width + 2 * p.casingWidth * scale, cap: p.cap, join: p.join,
                                                   dash: dash), color: casing)
        }
        canvas.stroke(path, style: StrokeStyle(width: width, cap: p.cap, join: p.join, dash: dash), color: p.color)
    }

    func drawPolygon(_ p: PolygonOverlay) {
        let rings = geometry.pixelRings(p.rings)
        var path = Path()
        for ring in rings where ring.count >= 2 {
            path.move(to: ring[0])
            for q in ring.dropFirst() { path.line(to: q) }
            path.close()
        }
        guard !path.isEmpty else { return }
        if let fill = p.fillColor { canvas.fill(path, color: fill, rule: .evenOdd) }
        if let stroke = p.strokeColor, p.strokeWidth > 0 {
            canvas.stroke(path, style: StrokeStyle(width: p.strokeWidth * scale, cap: .round, join: .round), color: stroke)
        }
    }

    func drawCircle(_ c: CircleOverlay) {
        // Segment count from the on-screen radius so big circles stay round and small ones cheap.
        let radiusPx = c.radiusMeters / max(camera.metersPerPixel, 1e-9)
        let segments = max(32, min(2048, Int(radiusPx)))
        let ring = Geodesy.circle(center: c.center, radiusMeters: c.radiusMeters, segments: segments)
        drawPolygon(PolygonOverlay(rings: [ring], fillColor: c.fillColor, strokeColor: c.strokeColor,
                                   strokeWidth: c.strokeWidth, level: c.level))
    }

    // MARK: Markers

    /// The box a marker's drawing occupies (titles go beside it).
    func markerBox(_ m: MarkerOverlay) throws(RenderError) -> PixelRect {
        let at = camera.point(for: m.coordinate)
        switch m.style {
        case .pin(let size):
            let shape = PinShape(size: size)
            let r = shape.headRadius * scale
            return PixelRect(minX: at.x - r, minY: at.y - shape.height * scale, maxX: at.x + r, maxY: at.y)
        case .dot(let diameter):
            let r = (diameter / 2 + 1.5) * scale
            return PixelRect(minX: at.x - r, minY: at.y - r, maxX: at.x + r, maxY: at.y + r)
        case .icon(let path, let anchor):
            let image = try icons.image(at: path)
            let a = anchor ?? PixelPoint(x: Double(image.width) / 2, y: Double(image.height))
            return PixelRect(x: at.x - a.x * scale, y: at.y - a.y * scale,
                             width: Double(image.width) * scale, height: Double(image.height) * scale)
        }
    }

    /// Draws a marker.
    func drawMarker(_ m: MarkerOverlay) throws(RenderError) {
        let at = camera.point(for: m.coordinate)
        switch m.style {
        case .pin(let size):
            let shape = PinShape(size: size)
            let outline = shape.path(tip: at, scale: scale)
            // A soft shadow offset down-right, then the body, then a darker rim.
            canvas.fill(outline.mapPoints { PixelPoint(x: $0.x + 1.2 * scale, y: $0.y + 1.2 * scale) },
                        color: Color(red: 0, green: 0, blue: 0, alpha: 50))
            canvas.fill(outline, color: m.color)
            canvas.stroke(outline, style: StrokeStyle(width: max(1, 1 * scale), join: .round),
                          color: MarkerPalette.rim(for: m.color))
            let head = PixelPoint(x: at.x, y: at.y - shape.headCenterOffset * scale)
            if let label = m.label, !label.isEmpty, shape.labelSize > 0 {
                text.drawCentered(label, at: head, sizePoints: label.count > 2 ? shape.labelSize * 0.75 : shape.labelSize,
                                  bold: true, color: MarkerPalette.label(for: m.color), scale: scale, on: canvas)
            } else {
                var dot = Path()
                dot.addCircle(center: head, radius: shape.headRadius * 0.36 * scale)
                canvas.fill(dot, color: MarkerPalette.rim(for: m.color))
            }
        case .dot(let diameter):
            let r = diameter / 2 * scale
            var circle = Path()
            circle.addCircle(center: at, radius: r + 1.5 * scale)
            canvas.fill(circle, color: .white)
            var inner = Path()
            inner.addCircle(center: at, radius: r)
            canvas.fill(inner, color: m.color)
            canvas.stroke(circle, style: StrokeStyle(width: 0.8 * scale), color: Color(red: 0, green: 0, blue: 0, alpha: 90))
            if let label = m.label, !label.isEmpty, diameter >= 12 {
                text.drawCentered(label, at: at, sizePoints: diameter * 0.6, bold: true,
                                  color: MarkerPalette.label(for: m.color), scale: scale, on: canvas)
            }
        case .icon(let path, let anchor):
            let image = try icons.image(at: path)
            let w = Double(image.width) * scale, h = Double(image.height) * scale
            let a = anchor ?? PixelPoint(x: Double(image.width) / 2, y: Double(image.height))
            let rect = PixelRect(x: at.x - a.x * scale, y: at.y - a.y * scale, width: w, height: h)
            canvas.draw(image, in: rect)
        }
    }

    /// Chooses a title's spot beside its marker: right, left, below, above — the first one
    /// inside the image and free of markers and other titles. Overlay titles are never
    /// dropped: when every spot is taken the right-hand one is used anyway.
    func placeTitle(_ title: String, beside box: PixelRect, labels: LabelCollisionIndex) -> PixelRect {
        let size = OverlayPainter.titleSize
        let gap = 3 * scale
        let m = text.measure(title, sizePoints: size, bold: false, scale: scale, haloPoints: 2)
        let midY = (box.minY + box.maxY) / 2
        let candidates = [
            PixelRect(x: box.maxX + gap, y: midY - m.height / 2, width: m.width, height: m.height),
            PixelRect(x: box.minX - gap - m.width, y: midY - m.height / 2, width: m.width, height: m.height),
            PixelRect(x: (box.minX + box.maxX) / 2 - m.width / 2, y: box.maxY + gap, width: m.width, height: m.height),
            PixelRect(x: (box.minX + box.maxX) / 2 - m.width / 2, y: box.minY - gap - m.height, width: m.width, height: m.height),
        ]
        let bounds = PixelRect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        let chosen = candidates.first { c in
            c.minX >= bounds.minX && c.maxX <= bounds.maxX && c.minY >= bounds.minY && c.maxY <= bounds.maxY
                && !labels.collides(c)
        } ?? candidates[0]
        labels.insert(chosen)
        return chosen
    }

    static let titleSize = 13.0

    func drawTitle(_ title: String, in rect: PixelRect) {
        text.draw(title, in: rect, sizePoints: OverlayPainter.titleSize, bold: false, color: Color(rgb: 0x202124),
                  haloColor: .white, haloPoints: 2, scale: scale, on: canvas)
    }
}

/// Colours derived from a marker's fill.
enum MarkerPalette {
    /// A darker rim of the same hue.
    static func rim(for c: Color) -> Color {
        Color(red: UInt8(Double(c.red) * 0.62), green: UInt8(Double(c.green) * 0.62),
              blue: UInt8(Double(c.blue) * 0.62), alpha: max(c.alpha, 200))
    }

    /// Black or white, whichever reads better on the fill (WCAG relative luminance).
    static func label(for c: Color) -> Color {
        func lin(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let l = 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
        return l > 0.4 ? Color(rgb: 0x202124) : .white
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
