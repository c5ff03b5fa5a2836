/// The renderer's door to text: bundled fonts, layout and drawing in points × scale.
///
/// Sizes given here are in points; the engine multiplies by the render scale. Boxes include
/// the halo, so what `measure` reports is the space `draw` needs.
final class TextEngine: Sendable {
    /// The bundled fonts, or nil when no font could be found at all (text is then skipped
    /// and the render reports a warning).
    let fonts: FontLibrary?
    let renderer = TextRenderer()

    /// One library for the process: FreeType faces are loaded once.
    static let shared = TextEngine()

    init() {
        fonts = try? FontLibrary.standard()
    }

    func layout(_ text: String, sizePoints: Double, bold: Bool, scale: Double, maxWidthPixels: Double? = nil,
                alignment: TextAlignment = .left) -> TextLayout? {
        guard let fonts else { return nil }
        let options = TextLayoutOptions(sizePixels: sizePoints * scale, maxWidth: maxWidthPixels, alignment: alignment)
        return TextLayout(text, face: bold ? fonts.bold : fonts.regular, fonts: fonts, options: options)
    }

    /// Size of the text box in pixels, halo included.
    func measure(_ text: String, sizePoints: Double, bold: Bool, scale: Double, haloPoints: Double,
                 maxWidthPixels: Double? = nil) -> (width: Double, height: Double) {
        guard let l = layout(text, sizePoints: sizePoints, bold: bold, scale: scale, maxWidthPixels: maxWidthPixels) else { return (0, 0) }
        let h = haloPoints * scale
        return (l.width + 2 * h, l.height + 2 * h)
    }

    /// Draws text with its box's top-left (halo included) at `rect`'s top-left.
    func draw(_ text: String, in rect: PixelRect, sizePoints: Double, bold: Bool, color: Color,
              haloColor: Color?, haloPoints: Double, scale: Double, on canvas: Canvas,
              maxWidthPixels: Double? = nil, alignment: TextAlignment = .left) {
        guard let l = layout(text, sizePoints: sizePoints, bold: bold, scale: scale, maxWidthPixels: maxWidthPixels,
                             alignment: alignment) else { return }
        let h = haloColor == nil ? 0 : haloPoints * scale
        renderer.draw(l, on: canvas, at: PixelPoint(x: rect.minX + h, y: rect.minY + h), anchor: .topLeft,
                      paint: TextPaint(color: color, haloColor: haloColor, haloWidth: h))
    }

    /// Draws text centred on a point (pin labels).
    func drawCentered(_ text: String, at point: PixelPoint, sizePoints: Double, bold: Bool, color: Color,
                      scale: Double, on canvas: Canvas) {
        guard let l = layout(text, sizePoints: sizePoints, bold: bold, scale: scale) else { return }
        // Centre the ink of capitals/digits, not the line box: shift by half the descent.
        let p = PixelPoint(x: point.x, y: point.y + l.descent / 2)
        renderer.draw(l, on: canvas, at: p, anchor: .center, paint: TextPaint(color: color))
    }
}
