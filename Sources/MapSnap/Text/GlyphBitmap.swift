/// An 8-bit coverage image of one glyph (or of its halo), placed relative to the pen.
///
/// FreeType's convention: `left` is the distance in pixels from the pen origin to the first
/// column, `top` the distance from the baseline *up* to the first row. On a y-down canvas
/// the bitmap's top-left therefore lands at `(penX + left, baselineY - top)`.
struct GlyphBitmap: Sendable, Hashable {
    /// Columns.
    let width: Int
    /// Rows.
    let height: Int
    /// Pen origin to first column, in pixels.
    let left: Int
    /// Baseline up to first row, in pixels.
    let top: Int
    /// `width * height` coverage bytes, row-major, 0 = empty, 255 = full.
    let coverage: [UInt8]

    init(width: Int, height: Int, left: Int, top: Int, coverage: [UInt8]) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height,
                     "coverage must hold width * height bytes")
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.coverage = coverage
    }

    /// A bitmap with no pixels (spaces, unrenderable glyphs).
    static let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [])

    /// True when there is nothing to draw.
    var isEmpty: Bool { width == 0 || height == 0 }

    /// The same bitmap cropped to its non-zero coverage, so that boxes computed from
    /// bitmaps are exactly the pixels drawn (FreeType sizes bitmaps by the outline's control
    /// box, which can leave empty rows and columns).
    func trimmed() -> GlyphBitmap {
        guard !isEmpty else { return self }
        var minX = width, minY = height, maxX = -1, maxY = -1
        coverage.withUnsafeBufferPointer { c in
            for y in 0..<height {
                let row = y * width
                var first = -1, last = -1
                for x in 0..<width where c[row + x] != 0 {
                    if first < 0 { first = x }
                    last = x
                }
                guard first >= 0 else { continue }
                minX = Swift.min(minX, first); maxX = Swift.max(maxX, last)
                if minY == height { minY = y }
                maxY = y
            }
        }
        guard maxX >= 0 else { return .empty }
        if minX == 0 && minY == 0 && maxX == width - 1 && maxY == height - 1 { return self }
        let w = maxX - minX + 1, h = maxY - minY + 1
        var out = [UInt8](repeating: 0, count: w * h)
        coverage.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    for x in 0..<w { o[y * w + x] = c[(y + minY) * width + x + minX] }
                }
            }
        }
        return GlyphBitmap(width: w, height: h, left: left + minX, top: top - minY, coverage: out)
    }

    /// Memory held by the coverage, for cache budgeting.
    var byteCount: Int { coverage.count }
}

/// Everything that changes the pixels of a rasterised glyph, quantised so that equal keys
/// give equal bitmaps and nearby requests share a cache entry.
///
/// Quantisation steps were picked by eye: 1/4-pixel pen offsets are indistinguishable from
/// exact ones at map label sizes, and a half-degree rotation step is invisible on a glyph
/// following a curved road.
struct GlyphRasterSpec: Hashable, Sendable {
    /// Sub-pixel pen positions per pixel.
    static let subpixelSteps = 4
    /// Rotation buckets per full turn (half a degree each).
    static let rotationSteps = 720
    /// Largest font size and halo radius rasterised, in pixels; bigger requests are clamped
    /// (bounded allocations).
    static let maxSizePixels = 1024.0, maxHaloPixels = 64.0

    /// Glyph index in its face.
    var glyph: UInt32
    /// Font size (em height) in 1/64 pixel.
    var size64: Int32
    /// Pen offset right of the integer pixel, in 1/`subpixelSteps` pixel.
    var subpixelX: UInt8
    /// Pen offset below the integer pixel, in 1/`subpixelSteps` pixel (rotated text only).
    var subpixelY: UInt8
    /// Clockwise rotation on screen, in 1/`rotationSteps` of a turn.
    var rotationStep: Int16
    /// Halo (outline) radius in 1/64 pixel; 0 asks for the glyph itself.
    var haloRadius64: Int32

    /// Quantises a request. `sizePixels` is the em size; `subpixel` the pen position's
    /// fractional part (each component in 0..<1); `rotation` clockwise radians on screen;
    /// `haloRadius` the halo's outward distance in pixels (0 for the plain glyph).
    init(glyph: UInt32, sizePixels: Double, subpixel: PixelPoint = PixelPoint(x: 0, y: 0),
                rotation: Double = 0, haloRadius: Double = 0) {
        self.glyph = glyph
        let size = sizePixels.isFinite ? min(max(sizePixels, 1.0 / 64), GlyphRasterSpec.maxSizePixels) : 16
        size64 = Int32((size * 64).rounded())
        subpixelX = GlyphRasterSpec.quantiseFraction(subpixel.x)
        subpixelY = GlyphRasterSpec.quantiseFraction(subpixel.y)
        let turns = rotation.isFinite ? rotation / (2 * Double.pi) : 0
        var step = Int((turns * Double(GlyphRasterSpec.rotationSteps)).rounded()) % GlyphRasterSpec.rotationSteps
        if step < 0 { step += GlyphRasterSpec.rotationSteps }
        rotationStep = Int16(step)
        let halo = haloRadius.isFinite ? min(max(haloRadius, 0), GlyphRasterSpec.maxHaloPixels) : 0
        haloRadius64 = Int32((halo * 64).rounded())
    }

    /// Splits a pen coordinate into an integer pixel and a sub-pixel step, carrying a
    /// fraction that rounds up to a whole pixel, so `Double(pixel) + step/steps ≈ value`.
    static func split(_ value: Double) -> (pixel: Int, step: UInt8) {
        let v = value.isFinite ? min(max(value, -1e9), 1e9) : 0
        let floor = v.rounded(.down)
        let step = Int(((v - floor) * Double(subpixelSteps)).rounded())
        if step >= subpixelSteps { return (Int(floor) + 1, 0) }
        return (Int(floor), UInt8(step))
    }

    private static func quantiseFraction(_ f: Double) -> UInt8 {
        guard f.isFinite else { return 0 }
        let step = Int((min(max(f, 0), 1) * Double(subpixelSteps)).rounded())
        return UInt8(min(step, subpixelSteps - 1))
    }

    /// The rotation this spec stands for, in clockwise radians.
    var rotationRadians: Double {
        Double(rotationStep) / Double(GlyphRasterSpec.rotationSteps) * 2 * Double.pi
    }
}
