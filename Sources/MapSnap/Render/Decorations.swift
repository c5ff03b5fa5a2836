import Foundation

/// The furniture around the map: attribution (bottom right), scale bar (bottom left), an
/// optional caption (top left) and an optional north arrow (top right). Sizes are in
/// points × scale. All of it stays level when the map is turned: the scale bar measures
/// along the image's horizontal, which a rotation does not stretch.
struct Decorations {
    let camera: Camera
    let canvas: Canvas
    let text: TextEngine

    var scale: Double { camera.scale }
    static let attributionSize = 10.0
    /// The smallest size the credit shrinks to on a thumbnail.
    static let minimumAttributionSize = 7.0
    static let captionSize = 13.0
    static let scaleBarTextSize = 10.0
    static let margin = 6.0

    /// Boxes that decorations will occupy, so base-map labels avoid them.
    func reservedRects(attribution: String, caption: String?, scaleBar: Bool, northArrow: Bool = false) -> [PixelRect] {
        var out: [PixelRect] = []
        if northArrow, let r = northArrowRect { out.append(r) }
        let credit = attributionLayout(attribution)
        if let r = credit?.rect { out.append(r) }
        if let c = caption, let r = captionRect(c) { out.append(r) }
        if scaleBar, let r = scaleBarLayout(beside: credit?.rect)?.box { out.append(r) }
        return out
    }

    func draw(attribution: String, caption: String?, scaleBar: Bool, northArrow: Bool = false) {
        if northArrow { drawNorthArrow() }
        let credit = attributionLayout(attribution)
        if scaleBar, let l = scaleBarLayout(beside: credit?.rect) { drawScaleBar(l) }
        if let credit {
            let r = credit.rect
            var box = Path()
            box.addRect(r)
            canvas.fill(box, color: Color(red: 255, green: 255, blue: 255, alpha: 190))
            let pad = 3 * scale
            text.draw(attribution, in: PixelRect(minX: r.minX + pad, minY: r.minY + pad / 2, maxX: r.maxX - pad, maxY: r.maxY),
                      sizePoints: credit.sizePoints, bold: false, color: Color(rgb: 0x333333),
                      haloColor: nil, haloPoints: 0, scale: scale, on: canvas,
                      maxWidthPixels: credit.maxWidth, alignment: .right)
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

    /// Where the credit goes and how it is set.
    struct AttributionLayout {
        var rect: PixelRect
        var sizePoints: Double
        var maxWidth: Double
    }

    /// The credit at 10 pt within `attributionMaxWidth`. On an image too narrow for one of
    /// its words at that width (a thumbnail), it may take the image's whole width and shrink
    /// to 7 pt, the first setting whose widest line fits: the credit must stay on the map, and
    /// a word cut off at the left edge credits no one.
    func attributionLayout(_ attribution: String) -> AttributionLayout? {
        guard !attribution.isEmpty else { return nil }
        let pad = 3 * scale
        let fullWidth = Double(canvas.width) - 2 * pad
        var settings = [(Decorations.attributionSize, attributionMaxWidth)]
        if fullWidth > attributionMaxWidth {
            settings.append((Decorations.attributionSize, fullWidth))
        }
        for size in stride(from: Decorations.attributionSize - 1, through: Decorations.minimumAttributionSize, by: -1) {
            settings.append((size, max(fullWidth, attributionMaxWidth)))
        }
        var chosen: (size: Double, maxWidth: Double, measured: (width: Double, height: Double))?
        for (size, maxWidth) in settings {
            let m = text.measure(attribution, sizePoints: size, bold: false, scale: scale, haloPoints: 0,
                                 maxWidthPixels: maxWidth)
            chosen = (size, maxWidth, m)
            if m.width <= maxWidth + 0.5 { break }
        }
        guard let chosen else { return nil }
        let w = min(chosen.measured.width + 2 * pad, Double(canvas.width))
        let h = chosen.measured.height + pad
        return AttributionLayout(rect: PixelRect(x: Double(canvas.width) - w, y: Double(canvas.height) - h, width: w, height: h),
                                 sizePoints: chosen.size, maxWidth: chosen.maxWidth)
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

    /// The scale bar in the bottom-left corner, or nil when there is no room: a bar under
    /// 8 px, or a bar and label that do not fit in the image. The credit (`credit`, the
    /// attribution's box) has the bottom row first: a bar that would run into it is
    /// shortened to a rounder distance that ends before it, and left out when even that does
    /// not fit — on a narrow image the credit takes the whole width.
    func scaleBarLayout(beside credit: PixelRect?) -> ScaleBarLayout? {
        let widest = min(100 * scale, Double(canvas.width) / 3)
        guard let full = scaleBarLayout(maximumPixels: widest) else { return nil }
        guard let credit, full.box.intersects(credit) else { return full }
        let room = credit.minX - 4 * scale - (full.origin.x + 2 * scale)
        guard let short = scaleBarLayout(maximumPixels: min(widest, room)), !short.box.intersects(credit) else { return nil }
        return short
    }

    private func scaleBarLayout(maximumPixels maxPx: Double) -> ScaleBarLayout? {
        guard let bar = ScaleBar(metersPerPixel: camera.metersPerPixel, maximumPixels: maxPx), bar.pixels >= 8 else { return nil }
        let m = text.measure(bar.label, sizePoints: Decorations.scaleBarTextSize, bold: false, scale: scale, haloPoints: 1.5)
        let margin = Decorations.margin * scale
        let y = Double(canvas.height) - margin - 3 * scale
        let origin = PixelPoint(x: margin + 2 * scale, y: y)
        let box = PixelRect(minX: margin, minY: y - m.height - 6 * scale, maxX: origin.x + max(bar.pixels, m.width) + 2 * scale, maxY: y + 3 * scale)
        guard box.minY >= 0, box.maxX <= Double(canvas.width) else { return nil }
        return ScaleBarLayout(bar: bar, origin: origin, box: box, labelSize: m)
    }

    /// A bar with end ticks, white-cased so it reads on any background, label above it.
    func drawScaleBar(_ l: ScaleBarLayout) {
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

    static let northArrowDiameter = 30.0

    /// The north arrow's disc in the top-right corner, or nil when the image is too small to
    /// hold it beside a margin.
    var northArrowRect: PixelRect? {
        let d = Decorations.northArrowDiameter * scale, margin = Decorations.margin * scale
        guard Double(canvas.width) >= d + 2 * margin, Double(canvas.height) >= d + 2 * margin else { return nil }
        return PixelRect(x: Double(canvas.width) - margin - d, y: margin, width: d, height: d)
    }

    /// A compass needle on a white disc, its red half pointing to north as the camera's
    /// heading turns it (north is straight up at heading 0), with an upright "N" beyond the
    /// red tip.
    func drawNorthArrow() {
        guard let r = northArrowRect else { return }
        let c = PixelPoint(x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2)
        let radius = r.width / 2
        var disc = Path()
        disc.addCircle(center: PixelPoint(x: c.x, y: c.y + 1 * scale), radius: radius)
        canvas.fill(disc, color: Color(red: 0, green: 0, blue: 0, alpha: 50))
        disc = Path()
        disc.addCircle(center: c, radius: radius)
        canvas.fill(disc, color: Color(red: 255, green: 255, blue: 255, alpha: 235))
        // North on the image: the world's (0, −1) turned by the heading; a pitched view
        // foreshortens its up-down part by cos(pitch) at the centre.
        let (cs, sn) = camera.headingCosSin
        var north = PixelPoint(x: -sn, y: -cs), east = PixelPoint(x: cs, y: -sn)
        if camera.isPitched {
            let squeezed = PixelPoint(x: -sn, y: -cs * cos(camera.pitch * .pi / 180))
            north = squeezed * (1 / squeezed.length)
            east = PixelPoint(x: -north.y, y: north.x)
        }
        let tip = c + north * (0.45 * radius), tail = c - north * (0.62 * radius)
        let half = 0.24 * radius
        for (end, color) in [(tip, Color(rgb: 0xD93025)), (tail, Color(rgb: 0x5F6368))] {
            var needle = Path()
            needle.move(to: c + east * half)
            needle.line(to: end)
            needle.line(to: c - east * half)
            needle.close()
            canvas.fill(needle, color: color)
        }
        // The "N" sits upright just beyond the tip, centred on the line through the needle.
        let size = 9.0
        let m = text.measure("N", sizePoints: size, bold: true, scale: scale, haloPoints: 0)
        let at = c + north * (0.72 * radius)
        text.draw("N", in: PixelRect(x: at.x - m.width / 2, y: at.y - m.height / 2, width: m.width, height: m.height),
                  sizePoints: size, bold: true, color: Color(rgb: 0x202124), haloColor: nil, haloPoints: 0,
                  scale: scale, on: canvas)
    }
}
