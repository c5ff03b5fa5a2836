import Foundation

/// The bubble of a callout marker (`MarkerOverlay.Style.callout`): a rounded box around one
/// line of text with a pointer below whose tip sits on the coordinate, like the time and
/// distance labels map apps put on a route.
///
/// ```
///  ╭───────────────────╮
///  │  18 min · 4.2 km  │   padding around the text, corner radius 6 pt
///  ╰───────╲   ╱───────╯
///           ╲ ╱           pointer 6 pt high
///            • coordinate
/// ```
struct CalloutShape {
    let text: String
    let scale: Double
    let engine: TextEngine

    static let textPoints = 13.0
    static let paddingX = 8.0, paddingY = 5.0
    static let pointerPoints = 6.0
    static let radiusPoints = 6.0

    /// The text's size in pixels.
    private var textSize: (width: Double, height: Double) {
        engine.measure(text, sizePoints: Self.textPoints, bold: true, scale: scale, haloPoints: 0)
    }

    /// The whole drawing (bubble and pointer) in pixels.
    var size: (width: Double, height: Double) {
        let t = textSize
        return (t.width + 2 * Self.paddingX * scale, t.height + 2 * Self.paddingY * scale + Self.pointerPoints * scale)
    }

    func draw(tip: PixelPoint, fill: Color, opacity: Double, on canvas: Canvas) {
        let t = textSize
        let s = size
        let pointer = Self.pointerPoints * scale
        let bubble = PixelRect(x: tip.x - s.width / 2, y: tip.y - s.height, width: s.width, height: s.height - pointer)
        var outline = Path()
        outline.addRoundedRect(bubble, radius: Self.radiusPoints * scale)
        var arrow = Path()
        arrow.move(to: PixelPoint(x: tip.x - pointer, y: bubble.maxY - 0.5 * scale))
        arrow.line(to: PixelPoint(x: tip.x + pointer, y: bubble.maxY - 0.5 * scale))
        arrow.line(to: tip)
        arrow.close()
        let shadow = Color(red: 0, green: 0, blue: 0, alpha: 60).withOpacity(opacity)
        let offset = 1.2 * scale
        canvas.fill(outline.mapPoints { PixelPoint(x: $0.x + offset, y: $0.y + offset) }, color: shadow)
        canvas.fill(arrow.mapPoints { PixelPoint(x: $0.x + offset, y: $0.y + offset) }, color: shadow)
        let rim = Color(red: 0, green: 0, blue: 0, alpha: 70).withOpacity(opacity)
        canvas.stroke(outline, style: StrokeStyle(width: max(1, scale), join: .round), color: rim)
        canvas.stroke(arrow, style: StrokeStyle(width: max(1, scale), join: .round), color: rim)
        canvas.fill(outline, color: fill)
        canvas.fill(arrow, color: fill)
        let ink = MarkerPalette.label(for: fill).withOpacity(opacity * Double(fill.alpha) / 255)
        engine.draw(text, in: PixelRect(x: bubble.minX + (bubble.width - t.width) / 2, y: bubble.minY + (bubble.height - t.height) / 2,
                                        width: t.width, height: t.height),
                    sizePoints: Self.textPoints, bold: true, color: ink, haloColor: nil, haloPoints: 0, scale: scale, on: canvas)
    }
}
