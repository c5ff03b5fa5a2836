/// Which part of the text box sits on the anchor point (MapLibre's `text-anchor`):
/// `.left` puts the box's left edge, vertically centred, on the point.
enum TextAnchor: String, Sendable, Hashable, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The anchor's position within a box, as fractions of its width and height.
    var fraction: (x: Double, y: Double) {
        switch self {
        case .center: return (0.5, 0.5)
        case .left: return (0, 0.5)
        case .right: return (1, 0.5)
        case .top: return (0.5, 0)
        case .bottom: return (0.5, 1)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }
}

/// Colours of drawn text.
struct TextPaint: Sendable, Hashable {
    /// Fill colour of the glyphs.
    var color: Color
    /// Colour of the halo drawn beneath the glyphs; `nil` or transparent for none.
    var haloColor: Color?
    /// How far the halo reaches beyond the glyph outlines, in pixels (MapLibre
    /// `text-halo-width` × render scale); clamped to `GlyphRasterSpec.maxHaloPixels`.
    var haloWidth: Double

    init(color: Color = .black, haloColor: Color? = nil, haloWidth: Double = 0) {
        self.color = color
        self.haloColor = haloColor
        self.haloWidth = haloWidth
    }

    /// The halo radius actually drawn (0 when there is no visible halo).
    var effectiveHaloWidth: Double {
        guard let halo = haloColor, halo.alpha > 0, haloWidth.isFinite, haloWidth > 0 else { return 0 }
        return min(haloWidth, GlyphRasterSpec.maxHaloPixels)
    }
}

/// Where a text was (or would be) drawn.
struct TextBox: Sendable, Hashable {
    /// The layout box placed by its anchor: the box collision detection and camera fitting
    /// use (it does not move with ink, so labels line up regardless of their letters).
    var frame: PixelRect
    /// The pixels the glyphs and halo cover (whole pixels, not clipped to any canvas);
    /// `nil` when nothing is drawn (empty or all-space text).
    var inkBounds: PixelRect?
}

/// Draws `TextLayout`s onto a `Canvas` with FreeType glyphs from a `GlyphCache`.
///
/// Pixel placement: each line's baseline is rounded to a whole pixel (unhinted glyphs then
/// sit on the same rows on every label), and each pen x is quantised to a quarter pixel so
/// spacing stays even without a cache entry per position. Halos are drawn for the whole
/// text first and the glyphs second, so a halo never covers a neighbouring letter.
struct TextRenderer: Sendable {
    /// The glyph cache used for every rasterisation.
    let cache: GlyphCache

    init(cache: GlyphCache = GlyphCache()) {
        self.cache = cache
    }

    /// The box `draw` would return, without drawing.
    func measure(_ layout: TextLayout, at point: PixelPoint, anchor: TextAnchor = .center,
                        haloWidth: Double = 0) -> TextBox {
        let paint = TextPaint(color: .black, haloColor: haloWidth > 0 ? .white : nil, haloWidth: haloWidth)
        return visit(layout, at: point, anchor: anchor, paint: paint) { _, _, _, _ in }
    }

    /// Draws `layout` with its `anchor` on `point` and returns where it went.
    @discardableResult
    func draw(_ layout: TextLayout, on canvas: Canvas, at point: PixelPoint,
                     anchor: TextAnchor = .center, paint: TextPaint) -> TextBox {
        visit(layout, at: point, anchor: anchor, paint: paint) { bitmap, x, y, color in
            bitmap.coverage.withUnsafeBufferPointer { mask in
                canvas.blendMask(mask, maskWidth: bitmap.width, maskHeight: bitmap.height, x: x, y: y, color: color)
            }
        }
    }

    /// Draws one glyph with its pen at `origin` (on the baseline, pixels), rotated clockwise
    /// by `rotation` radians about the pen — the primitive for labels along lines. Returns
    /// the pixels covered, or `nil` when the glyph has none.
    @discardableResult
    func drawGlyph(_ glyph: PositionedGlyph, sizePixels: Double, on canvas: Canvas?,
                          at origin: PixelPoint, rotation: Double = 0, paint: TextPaint) -> PixelRect? {
        let (px, sx) = GlyphRasterSpec.split(origin.x)
        let (py, sy) = GlyphRasterSpec.split(origin.y)
        let steps = Double(GlyphRasterSpec.subpixelSteps)
        let subpixel = PixelPoint(x: Double(sx) / steps, y: Double(sy) / steps)
        var ink: PixelRect?
        let halo = paint.effectiveHaloWidth
        var passes: [(Double, Color)] = []
        if halo > 0, let haloColor = paint.haloColor { passes.append((halo, haloColor)) }
        passes.append((0, paint.color))
        for (radius, color) in passes {
            let spec = GlyphRasterSpec(glyph: glyph.glyph, sizePixels: sizePixels, subpixel: subpixel,
                                       rotation: rotation, haloRadius: radius)
            let bitmap = cache.bitmap(glyph.face, spec)
            guard !bitmap.isEmpty else { continue }
            let x = px + bitmap.left, y = py - bitmap.top
            ink = TextRenderer.union(ink, x, y, bitmap)
            if let canvas {
                bitmap.coverage.withUnsafeBufferPointer { mask in
                    canvas.blendMask(mask, maskWidth: bitmap.width, maskHeight: bitmap.height, x: x, y: y, color: color)
                }
            }
        }
        return ink
    }

    /// The layout box's top-left for an anchor on `point`.
    static func origin(of layout: TextLayout, at point: PixelPoint, anchor: TextAnchor) -> PixelPoint {
        let f = anchor.fraction
        return PixelPoint(x: point.x - layout.width * f.x, y: point.y - layout.height * f.y)
    }

    /// Walks every bitmap `draw` blends — halos first, then glyphs — and computes the box.
    /// `draw` and `measure` share it, so the measured box is the drawn box by construction.
    private func visit(_ layout: TextLayout, at point: PixelPoint, anchor: TextAnchor, paint: TextPaint,
                       body: (GlyphBitmap, Int, Int, Color) -> Void) -> TextBox {
        let topLeft = TextRenderer.origin(of: layout, at: point, anchor: anchor)
        let frame = PixelRect(x: topLeft.x, y: topLeft.y, width: layout.width, height: layout.height)
        let size = layout.options.sizePixels
        let steps = Double(GlyphRasterSpec.subpixelSteps)
        var passes: [(Double, Color)] = []
        let halo = paint.effectiveHaloWidth
        if halo > 0, let haloColor = paint.haloColor { passes.append((halo, haloColor)) }
        passes.append((0, paint.color))
        var ink: PixelRect?
        for (radius, color) in passes {
            for glyph in layout.glyphs {
                let (px, sx) = GlyphRasterSpec.split(topLeft.x + glyph.origin.x)
                // The line's baseline on a whole pixel; a mark the shaper raised or lowered
                // keeps its fraction as a sub-pixel offset.
                var py = Int((topLeft.y + glyph.origin.y - glyph.offset.y).rounded()), sy: UInt8 = 0
                if glyph.offset.y != 0 { (py, sy) = GlyphRasterSpec.split(Double(py) + glyph.offset.y) }
                let spec = GlyphRasterSpec(glyph: glyph.glyph, sizePixels: size,
                                           subpixel: PixelPoint(x: Double(sx) / steps, y: Double(sy) / steps), haloRadius: radius)
                let bitmap = cache.bitmap(glyph.face, spec)
                guard !bitmap.isEmpty else { continue }
                let x = px + bitmap.left, y = py - bitmap.top
                ink = TextRenderer.union(ink, x, y, bitmap)
                body(bitmap, x, y, color)
            }
        }
        return TextBox(frame: frame, inkBounds: ink)
    }

    private static func union(_ box: PixelRect?, _ x: Int, _ y: Int, _ bitmap: GlyphBitmap) -> PixelRect {
        let r = PixelRect(x: Double(x), y: Double(y), width: Double(bitmap.width), height: Double(bitmap.height))
        return box.map { $0.union(r) } ?? r
    }
}
