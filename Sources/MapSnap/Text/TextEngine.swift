
/// The renderer's door to text: bundled fonts, layout and drawing in points × scale.
///
/// Sizes given here are in points; the engine multiplies by the render scale. Boxes include
/// the halo, so what `measure` reports is the space `draw` needs.
final class TextEngine: Sendable {
    /// The fonts, or nil when they could not be loaded (text is then skipped and the render
    /// reports `fontError`).
    let fonts: FontLibrary?
    /// Why `fonts` is nil.
    let fontError: FontError?
    /// The folder the fonts were asked from; nil for the bundled fonts.
    let fontsDirectory: String?
    let renderer: TextRenderer
    /// Characters no bundled face could draw, in the order met (this engine's renders only).
    private let missing = Locked<[Character]>([])
    /// Why text of this engine's renders was laid out without HarfBuzz (it could not be loaded).
    private let unshaped = Locked<FontError?>(nil)
    /// Layouts made so far, shared by every engine made from this one (`forRender`): a map
    /// lays out the same street name in every tile and at every anchor it tries, and renders
    /// of one area (a batch, a server) lay out the same names again.
    private let layouts: TextLayoutCache
    /// Shaped runs, shared like `layouts` (a layout missed at one size reuses the run shaped
    /// at another).
    private let shaping: ShapingCache

    /// The engine a renderer owns: the fonts in `fontsDirectory` — nil: the bundled fonts,
    /// which every renderer using them shares (`FontLibrary.standard()`: loaded once, and
    /// immutable) — drawn through `glyphs`, this renderer's own glyph cache.
    static func loading(fontsDirectory: String?, glyphs: GlyphCache) -> TextEngine {
        let loaded = Result { () throws(FontError) -> FontLibrary in
            guard let fontsDirectory else { return try FontLibrary.standard() }
            return try FontLibrary(fontsDirectory: fontsDirectory)
        }
        switch loaded {
        case .success(let fonts):
            return TextEngine(fonts: fonts, fontError: nil, fontsDirectory: fontsDirectory, renderer: TextRenderer(cache: glyphs))
        case .failure(let error):
            return TextEngine(fonts: nil, fontError: error, fontsDirectory: fontsDirectory, renderer: TextRenderer(cache: glyphs))
        }
    }

    convenience init(fonts: FontLibrary?, fontError: FontError?, fontsDirectory: String? = nil,
                     renderer: TextRenderer = TextRenderer()) {
        self.init(fonts: fonts, fontError: fontError, fontsDirectory: fontsDirectory, renderer: renderer,
                  layouts: TextLayoutCache(), shaping: ShapingCache())
    }

    private init(fonts: FontLibrary?, fontError: FontError?, fontsDirectory: String?, renderer: TextRenderer,
                 layouts: TextLayoutCache, shaping: ShapingCache) {
        self.fonts = fonts
        self.fontError = fontError
        self.fontsDirectory = fontsDirectory
        self.renderer = renderer
        self.layouts = layouts
        self.shaping = shaping
    }

    /// An engine for one render: the same fonts, glyph, shaping and layout caches, its own
    /// record of what could not be drawn.
    func forRender() -> TextEngine {
        TextEngine(fonts: fonts, fontError: fontError, fontsDirectory: fontsDirectory, renderer: renderer,
                   layouts: layouts, shaping: shaping)
    }

    /// `text` laid out in `face` (one of `fonts`, this engine's fonts, falling back through
    /// them), from the cache when it was laid out before; its missing characters are
    /// recorded for this render.
    func layout(_ text: String, face: FreeTypeFace, fonts: FontLibrary, options: TextLayoutOptions) -> TextLayout {
        let layout = layouts.layout(text, face: face, options: options) {
            TextLayout(text, face: face, fonts: fonts, options: options, cache: shaping)
        }
        record(layout)
        return layout
    }

    /// How many layouts the shared cache holds (tests).
    var layoutCacheCount: Int { layouts.count }

    /// Notes the characters `layout` had to draw as missing-glyph boxes, and whether it was
    /// shaped without HarfBuzz.
    func record(_ layout: TextLayout) {
        if let error = HarfBuzzFont.libraryError { unshaped.withLock { $0 = error } }
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
            let which = fontsDirectory.map { "the fonts in \($0)" } ?? "the bundled fonts"
            out.append("no text drawn: \(which) could not be loaded (\(fontError))")
        }
        if let error = unshaped.withLock({ $0 }) {
            out.append("text drawn unshaped (one glyph per character: no kerning, ligatures or joining): \(error)")
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
        return layout(text, face: bold ? fonts.bold : fonts.regular, fonts: fonts, options: options)
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

/// Text layouts by text, face and options. A layout depends on nothing else (the faces and
/// their fallbacks are fixed for the engines sharing the cache), so a cached one is exactly
/// the one that would be made: what was rendered before changes no byte.
final class TextLayoutCache: Sendable {
    /// Holds its face, so a face's identity cannot be reused by another while its layouts
    /// are kept.
    private struct Key: Hashable {
        let text: String
        let face: FreeTypeFace
        let options: TextLayoutOptions

        static func == (a: Key, b: Key) -> Bool { a.face === b.face && a.text == b.text && a.options == b.options }

        func hash(into h: inout Hasher) {
            h.combine(text)
            h.combine(ObjectIdentifier(face))
            h.combine(options)
        }
    }

    /// At most this many layouts are kept (about 1 KB each for a street name); a full cache
    /// starts again empty.
    static let capacity = 4_096
    private let entries = Locked<[Key: TextLayout]>([:])

    func layout(_ text: String, face: FreeTypeFace, options: TextLayoutOptions, make: () -> TextLayout) -> TextLayout {
        let key = Key(text: text, face: face, options: options)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let made = make()
        entries.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
        }
        return made
    }

    /// How many layouts are kept (tests).
    var count: Int { entries.withLock { $0.count } }
}
