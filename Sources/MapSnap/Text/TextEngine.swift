
/// The renderer's door to text: bundled fonts, layout and drawing in points × scale.
///
/// Sizes given here are in points; the engine multiplies by the render scale. Boxes include
/// the halo, so what `measure` reports is the space `draw` needs.
final class TextEngine: Sendable {
    /// The bundled fonts, or nil when they could not be loaded (text is then skipped and the
    /// render reports `fontError`).
    let fonts: FontLibrary?
    /// Why `fonts` is nil.
    let fontError: FontError?
    let renderer: TextRenderer
    /// Characters no bundled face could draw, in the order met (this engine's renders only).
    private let missing = Locked<[Character]>([])

    /// The bundled fonts and glyph renderer for the process: FreeType faces load once.
    static let shared: TextEngine = {
        switch Result(catching: { () throws(FontError) -> FontLibrary in try FontLibrary.standard() }) {
        case .success(let fonts): return TextEngine(fonts: fonts, fontError: nil, renderer: TextRenderer())
        case .failure(let error): return TextEngine(fonts: nil, fontError: error, renderer: TextRenderer())
        }
    }()

    init(fonts: FontLibrary?, fontError: FontError?, renderer: TextRenderer = TextRenderer()) {
        self.fonts = fonts
        self.fontError = fontError
        self.renderer = renderer
    }

    /// An engine for one render: the same fonts and glyph cache, its own record of what
    /// could not be drawn.
    func forRender() -> TextEngine {
        TextEngine(fonts: fonts, fontError: fontError, renderer: renderer)
    }

    /// Notes the characters `layout` had to draw as missing-glyph boxes.
    func record(_ layout: TextLayout) {
        guard !layout.missingCharacters.isEmpty else { return }
        missing.withLock { seen in
            for c in layout.missingCharacters where !seen.contains(c) && seen.count < 1000 { seen.append(c) }
        }
    }

    /// What went wrong with text in this engine's renders, as warnings: no fonts at all, or
    /// characters no bundled font has.
    var warnings: [String] {
        var out: [String] = []
        if let fontError, fonts == nil {
            out.append("no text drawn: the bundled fonts could not be loaded (\(fontError))")
        }
        let chars = missing.withLock { $0 }
        if !chars.isEmpty {
            let shown = chars.prefix(8).map { c in
                "'\(c)' (" + c.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") + ")"
            }.joined(separator: ", ")
            let more = chars.count > 8 ? " and \(chars.count - 8) more" : ""
            out.append("no bundled font has \(shown)\(more); drawn as boxes")
        }
        return out
    }

    func layout(_ text: String, sizePoints: Double, bold: Bool, scale: Double, maxWidthPixels: Double? = nil,
                alignment: TextAlignment = .left) -> TextLayout? {
        guard let fonts else { return nil }
        let options = TextLayoutOptions(sizePixels: sizePoints * scale, maxWidth: maxWidthPixels, alignment: alignment)
        let layout = TextLayout(text, face: bold ? fonts.bold : fonts.regular, fonts: fonts, options: options)
        record(layout)
        return layout
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
