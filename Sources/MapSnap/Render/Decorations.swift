/// The furniture around the map: attribution (bottom right), scale bar (bottom left) and an
/// optional caption (top left). Sizes are in points × scale.
struct Decorations {
    let camera: Camera
    let canvas: Canvas
    let text: TextEngine

    var scale: Double { camera.scale }
    static let attributionSize = 10.0
    static let captionSize = 13.0
    static let scaleBarTextSize = 10.0
    static let margin = 6.0

    /// Boxes that decorations will occupy, so base-map labels avoid them.
    func reservedRects(attribution: String, caption: String?, scaleBar: Bool) -> [PixelRect] {
        var out: [PixelRect] = []
        if let r = attributionRect(attribution) { out.append(r) }
        if let c = caption, let r = captionRect(c) { out.append(r) }
        if scaleBar, let r = scaleBarLayout()?.box { out.append(r) }
        return out
    }

    func draw(attribution: String, caption: String?, scaleBar: Bool) {
        if scaleBar { drawScaleBar() }
        if let r = attributionRect(attribution) {
            var box = Path()
            box.addRect(r)
            canvas.fill(box, color: Color(red: 255, green: 255, blue: 255, alpha: 190))
            let pad = 3 * scale
            text.draw(attribution, in: PixelRect(minX: r.minX + pad, minY: r.minY + pad / 2, maxX: r.maxX - pad, maxY: r.maxY),
                      sizePoints: Decorations.attributionSize, bold: false, color: Color(rgb: 0x333333),
                      haloColor: nil, haloPoints: 0, scale: scale, on: canvas,
                      maxWidthPixels: attributionMaxWidth, alignment: .right)
        }
        if let c = caption, let r = captionRect(c) {
            var box = Path()
            box.addRoundedRect(r, radius: 4 * scale)
            canvas.fill(box.mapPoints { PixelPoint(x: $0.x, y: $0.y + 1 * scale) }, color: Color(red: 0, green: 0, blue: 0, alpha: 40))
            canvas.fill(box, color: Color(red: 255, green: 255, blue: 255, alpha: 235))
            let pad = 8 * scale
            text.draw(c, in: PixelRect(minX: r.minX + pad, minY: r.minY + pad / 1.6, maxX: r.maxX - pad, maxY: r.maxY),
                      sizePoints: Decorations.captionSize, bold: true, color: Color(rgb: 0x202124),
                      haloColor: nil, haloPoints: 0, scale: scale, on: canvas)
        }
    }

    /// Long credits wrap (right-aligned) rather than run off the image; the scale bar
    /// keeps the bottom-left corner.
    var attributionMaxWidth: Double { max(Double(canvas.width) * 0.7 - 6 * scale, 40 * scale) }

    func attributionRect(_ attribution: String) -> PixelRect? {
        guard !attribution.isEmpty else { return nil }
        let m = text.measure(attribution, sizePoints: Decorations.attributionSize, bold: false, scale: scale, haloPoints: 0,
                             maxWidthPixels: attributionMaxWidth)
        let pad = 3 * scale
        let w = min(m.width + 2 * pad, Double(canvas.width))
        let h = m.height + pad
        return PixelRect(x: Double(canvas.width) - w, y: Double(canvas.height) - h, width: w, height: h)
    }

    func captionRect(_ caption: String) -> PixelRect? {
        guard !caption.isEmpty else { return nil }
        let m = text.measure(caption, sizePoints: Decorations.captionSize, bold: true, scale: scale, haloPoints: 0)
        let pad = 8 * scale
        let margin = Decorations.margin * scale
        return PixelRect(x: margin, y: margin, width: min(m.width + 2 * pad, Double(canvas.width) - 2 * margin),
                         height: m.height + 2 * pad / 1.6)
    }

    struct ScaleBarLayout {
        var bar: ScaleBar
        var origin: PixelPoint  // left end of the bar line
        var box: PixelRect
        var labelSize: (width: Double, height: Double)
    }

    func scaleBarLayout() -> ScaleBarLayout? {
        let maxPx = min(100 * scale, Double(canvas.width) / 3)
        guard let bar = ScaleBar(metersPerPixel: camera.metersPerPixel, maximumPixels: maxPx), bar.pixels >= 8 else { return nil }
        let m = text.measure(bar.label, sizePoints: Decorations.scaleBarTextSize, bold: false, scale: scale, haloPoints: 1.5)
        let margin = Decorations.margin * scale
        let y = Double(canvas.height) - margin - 3 * scale
        let origin = PixelPoint(x: margin + 2 * scale, y: y)
        let box = PixelRect(minX: margin, minY: y - m.height - 6 * scale, maxX: origin.x + max(bar.pixels, m.width) + 2 * scale, maxY: y + 3 * scale)
        return ScaleBarLayout(bar: bar, origin: origin, box: box, labelSize: m)
    }

    /// A bar with end ticks, white-cased so it reads on any background, label above it.
    func drawScaleBar() {
        guard let l = scaleBarLayout() else { return }
        var p = Path()
        let tick = 5 * scale
        p.move(to: PixelPoint(x: l.origin.x, y: l.origin.y - tick))
        p.line(to: l.origin)
        p.line(to: PixelPoint(x: l.origin.x + l.bar.pixels, y: l.origin.y))
        p.line(to: PixelPoint(x: l.origin.x + l.bar.pixels, y: l.origin.y - tick))
        canvas.stroke(p, style: StrokeStyle(width: 4 * scale, cap: .square, join: .miter), color: Color(red: 255, green: 255, blue: 255, alpha: 220))
        canvas.stroke(p, style: StrokeStyle(width: 1.6 * scale, cap: .square, join: .miter), color: Color(rgb: 0x333333))
        let labelRect = PixelRect(x: l.origin.x + 2 * scale, y: l.origin.y - tick - l.labelSize.height + 1 * scale,
                                  width: l.labelSize.width, height: l.labelSize.height)
        text.draw(l.bar.label, in: labelRect, sizePoints: Decorations.scaleBarTextSize, bold: false,
                  color: Color(rgb: 0x333333), haloColor: .white, haloPoints: 1.5, scale: scale, on: canvas)
    }
}
