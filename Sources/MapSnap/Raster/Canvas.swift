import Synchronization

/// An RGBA8 raster with premultiplied alpha, row-major, origin top-left, y down: what the
/// renderer draws on. Users get the finished pixels as a `MapImage` value.
///
/// Every drawing operation composites through `compositeOver` — source-over with exact
/// integer arithmetic, written once — so that renders are byte-identical on every machine:
/// fills and strokes (the rasterizer's rows, `blendCoverage` / `PixelRows`), glyph masks
/// (`blendMask`), canvases (`composite`), patterns, images and signed-distance icons.
/// `pixels` holds `width * height * 4` bytes; the PNG encoder un-premultiplies.
///
/// Sharing: a canvas is drawn on by the one render that made it (big fills split it into
/// disjoint bands of rows, `PixelRows`). Canvases that other threads see — decoded raster
/// tiles in the renderer's cache, sprite and icon images — are finished before they are
/// shared and only read afterwards; that is the invariant behind the unchecked `Sendable`.
package final class Canvas: @unchecked Sendable {
    package let width: Int
    package let height: Int
    /// Premultiplied RGBA bytes, `width * height * 4`.
    package var pixels: [UInt8]
    /// Threads one drawing operation may use (big fills are split into bands of rows);
    /// 1, the default, draws on the calling thread. Output does not depend on it.
    package var maximumThreads = 1
    /// Dashes this canvas's strokes may still make (see `Dasher.maxDashesPerCanvas`): one
    /// canvas is one render, and the budget bounds what a render's dash patterns can cost.
    package internal(set) var remainingDashes = Dasher.maxDashesPerCanvas
    /// When drawing on this canvas gives up (a server render's time limit; `.none` by
    /// default). Fills check it between bands of rows; the painters between layers and
    /// overlays (`drawingDeadlinePassed()`). Once it has passed the pixels are unfinished and
    /// `drawingWasAbandoned` is true: the render must throw rather than return them.
    package var deadline = Deadline.none
    /// Where paths and images drawn on this canvas land: nil draws them as given; a turned
    /// camera's base map sets its map frame's transform (`Camera.mapFrame`) so painters
    /// draw north-up and the canvas turns every path and image onto the image — the
    /// transform is applied to the geometry before it is stroked and filled, so coverage is
    /// computed at the destination (no resampling of drawn pixels).
    var mapTransform: PixelTransform?
    /// For a projective `mapTransform` (a pitched camera's band): geometry whose depth is
    /// below this is cut away before it is carried (see `DepthClipper`).
    var mapMinimumDepth = 0.0
    /// True once some drawing was skipped because `deadline` had passed.
    package var drawingWasAbandoned: Bool { abandoned.load(ordering: .relaxed) }
    /// Written from the threads of a banded fill, hence atomic.
    private let abandoned = Atomic<Bool>(false)

    /// A transparent canvas. `width` and `height` must be positive; callers validate sizes
    /// from user input against `RenderLimits` before getting here.
    package init(width: Int, height: Int, fill: Color = .clear) {
        precondition(width > 0 && height > 0, "canvas size must be positive")
        self.width = width
        self.height = height
        let p = Canvas.premultiply(fill)
        let count = width * height * 4
        // One pass: a byte fill when the four bytes agree (clear, white), else the pixel repeated.
        self.pixels = [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            let raw = UnsafeMutableRawPointer(buf.baseAddress!)
            if p.0 == p.1 && p.1 == p.2 && p.2 == p.3 {
                raw.initializeMemory(as: UInt8.self, repeating: p.0, count: count)
            } else {
                let pixel = (UInt32(p.0) | UInt32(p.1) << 8 | UInt32(p.2) << 16 | UInt32(p.3) << 24).littleEndian
                raw.initializeMemory(as: UInt32.self, repeating: pixel, count: count / 4)
            }
            initialized = count
        }
    }

    /// Wraps existing premultiplied RGBA bytes (count must be `width * height * 4`).
    package init(width: Int, height: Int, premultipliedPixels: [UInt8]) {
        precondition(width > 0 && height > 0 && premultipliedPixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = premultipliedPixels
    }

    /// True, and `drawingWasAbandoned` set, when `deadline` has passed: the caller stops
    /// drawing. One clock read; none at all without a deadline.
    package func drawingDeadlinePassed() -> Bool {
        guard deadline.instant != nil else { return false }
        if abandoned.load(ordering: .relaxed) { return true }
        guard deadline.hasPassed else { return false }
        abandoned.store(true, ordering: .relaxed)
        return true
    }

    /// Premultiplied bytes of a straight-alpha colour, rounded to nearest.
    @inlinable
    package static func premultiply(_ c: Color) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = UInt32(c.alpha)
        return (UInt8(div255(UInt32(c.red) * a)), UInt8(div255(UInt32(c.green) * a)),
                UInt8(div255(UInt32(c.blue) * a)), c.alpha)
    }

    /// Exact `round(x / 255)` for `x` in 0…65025.
    @inlinable @inline(__always)
    package static func div255(_ x: UInt32) -> UInt32 {
        let t = x + 128
        return (t + (t >> 8)) >> 8
    }

    /// The straight-alpha colour at a pixel (for tests and samplers).
    package func color(atX x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return Color(premultipliedPixels: pixels, at: (y * width + x) * 4)
    }

    /// Composites a coverage mask (`maskWidth * maskHeight` bytes, row-major) whose top-left
    /// lands at (`x`, `y`). Used for glyphs and other pre-rasterised shapes.
    package func blendMask(_ mask: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int,
                          x: Int, y: Int, color: Color) {
        guard color.alpha > 0, maskWidth > 0, maskHeight > 0, mask.count >= maskWidth * maskHeight else { return }
        let src = Canvas.premultiply(color)
        let x0 = max(x, 0), x1 = min(x + maskWidth, width)
        let y0 = max(y, 0), y1 = min(y + maskHeight, height)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            for py in y0..<y1 {
                let mrow = (py - y) * maskWidth - x
                let row = py * w * 4
                for px_ in x0..<x1 {
                    let cov = UInt32(mask[mrow + px_])
                    if cov == 0 { continue }
                    Canvas.blendPixel(px, row + px_ * 4, src, cov)
                }
            }
        }
    }

    /// Source-over of a premultiplied colour scaled by coverage (0…255) onto one pixel.
    @inlinable @inline(__always)
    static func blendPixel(_ px: UnsafeMutableBufferPointer<UInt8>, _ i: Int,
                           _ src: (UInt8, UInt8, UInt8, UInt8), _ cov: UInt32) {
        if cov == 255 && src.3 == 255 {
            // Opaque and fully covered: what `compositeOver` would compute, without the work.
            px[i] = src.0; px[i + 1] = src.1; px[i + 2] = src.2; px[i + 3] = 255
            return
        }
        compositeOver(px, i, scaled((UInt32(src.0), UInt32(src.1), UInt32(src.2), UInt32(src.3)), by: cov))
    }

    /// A premultiplied pixel (channels 0…255) scaled by `k` (0…255: a coverage, an opacity
    /// or their product), each channel rounded exactly.
    @inlinable @inline(__always)
    static func scaled(_ s: (UInt32, UInt32, UInt32, UInt32), by k: UInt32) -> (UInt32, UInt32, UInt32, UInt32) {
        (div255(s.0 * k), div255(s.1 * k), div255(s.2 * k), div255(s.3 * k))
    }

    /// Source-over, the one place it is written: the premultiplied pixel `s` (red, green,
    /// blue, alpha, each 0…255) onto the premultiplied bytes `dst[i ..< i + 4]`,
    /// `d = s + d · (255 − sα) / 255` per channel with `div255`'s exact rounding.
    ///
    /// On valid premultiplied input (colour ≤ alpha) the sum never passes 255; the `min`
    /// keeps a malformed source from trapping instead of clipping anything real.
    @inlinable @inline(__always)
    static func compositeOver(_ dst: UnsafeMutableBufferPointer<UInt8>, _ i: Int,
                              _ s: (UInt32, UInt32, UInt32, UInt32)) {
        let inv = 255 - s.3
        dst[i] = UInt8(min(255, s.0 + div255(UInt32(dst[i]) * inv)))
        dst[i + 1] = UInt8(min(255, s.1 + div255(UInt32(dst[i + 1]) * inv)))
        dst[i + 2] = UInt8(min(255, s.2 + div255(UInt32(dst[i + 2]) * inv)))
        dst[i + 3] = UInt8(min(255, s.3 + div255(UInt32(dst[i + 3]) * inv)))
    }

    /// Composites another premultiplied canvas source-over at an integer offset, scaled by
    /// `opacity` (0…255).
    package func composite(_ other: Canvas, x: Int, y: Int, opacity: UInt8 = 255) {
        let x0 = max(x, 0), x1 = min(x + other.width, width)
        let y0 = max(y, 0), y1 = min(y + other.height, height)
        guard x0 < x1, y0 < y1, opacity > 0 else { return }
        let w = width, ow = other.width, op = UInt32(opacity)
        other.pixels.withUnsafeBufferPointer { s in
            pixels.withUnsafeMutableBufferPointer { d in
                for py in y0..<y1 {
                    for px_ in x0..<x1 {
                        let si = ((py - y) * ow + (px_ - x)) * 4
                        let source = Canvas.scaled((UInt32(s[si]), UInt32(s[si + 1]), UInt32(s[si + 2]),
                                                    UInt32(s[si + 3])), by: op)
                        if source.3 == 0 { continue }
                        Canvas.compositeOver(d, (py * w + px_) * 4, source)
                    }
                }
            }
        }
    }

    /// True when every pixel is fully opaque (the PNG encoder then writes RGB).
    package var isOpaque: Bool {
        pixels.withUnsafeBytes { p in
            guard let base = p.baseAddress else { return true }
            return Canvas.opaquePrefix(base, count: p.count / 4) == p.count / 4
        }
    }

    /// How many of the `count` premultiplied RGBA pixels at `pixels` are fully opaque before
    /// the first that is not (`count` when all are). Alphas are read eight pixels at a time —
    /// four 8-byte loads and-ed, alpha the top byte of each little-endian pixel — then singly:
    /// the whole-canvas scan before every PNG encode, and raster tiles' opaque runs.
    static func opaquePrefix(_ pixels: UnsafeRawPointer, count: Int) -> Int {
        let alphas: UInt64 = 0xFF00_0000_FF00_0000
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: pixels.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var i = 0
        while i + 8 <= count {
            let o = i * 4
            guard word(o) & word(o + 8) & word(o + 16) & word(o + 24) & alphas == alphas else { break }
            i += 8
        }
        while i < count, pixels.load(fromByteOffset: i * 4 + 3, as: UInt8.self) == 255 { i += 1 }
        return i
    }
}
