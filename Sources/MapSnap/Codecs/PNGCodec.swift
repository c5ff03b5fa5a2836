internal import CPNG

/// Encodes canvases to PNG and decodes any PNG into a premultiplied canvas, through libpng's
/// simplified `png_image` API (its `setjmp` stays inside libpng; no jump crosses a Swift frame).
///
/// Determinism: the encoder uses the simplified API's fixed settings — zlib level 6 with
/// libpng's default adaptive filters, an `sRGB` chunk and no time, text or gamma chunks that
/// could vary — so the same canvas gives the same bytes for a given libpng/zlib build.
public enum PNGCodec {
    /// Default decode limit: 16384 × 16384 pixels (1 GiB of RGBA).
    public static let defaultMaxPixelCount = 16384 * 16384

    /// PNG bytes for `canvas`: RGB when every pixel is opaque, RGBA otherwise, 8 bits per
    /// channel. Premultiplied values are un-premultiplied with rounding such that decoding
    /// the file gives back exactly the same premultiplied bytes.
    public static func encode(_ canvas: Canvas) throws(PNGError) -> [UInt8] {
        let opaque = canvas.isOpaque
        let channels = opaque ? 3 : 4
        let raw = straightPixels(canvas, channels: channels)
        let image = PNGImageHandle()
        image.pointer.pointee.width = UInt32(canvas.width)
        image.pointer.pointee.height = UInt32(canvas.height)
        image.pointer.pointee.format = opaque ? formatRGB : formatRGBA

        // A guess that fits any sane image (raw size plus filter bytes plus zlib's stored-block
        // worst case); on the rare miss libpng reports the exact size and we retry once.
        var capacity = raw.count + canvas.height + raw.count / 1000 + 1024
        for _ in 0..<2 {
            var out = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = out.withUnsafeMutableBytes { dst in
                raw.withUnsafeBytes { src in
                    png_image_write_to_memory(image.pointer, dst.baseAddress, &size, 0, src.baseAddress, 0, nil)
                }
            }
            if ok != 0 {
                out.removeSubrange(Int(size)...)
                return out
            }
            guard Int(size) > capacity else { break }
            capacity = Int(size)
            image.reset()
            image.pointer.pointee.width = UInt32(canvas.width)
            image.pointer.pointee.height = UInt32(canvas.height)
            image.pointer.pointee.format = opaque ? formatRGB : formatRGBA
        }
        throw .encodingFailed(reason: image.message)
    }

    /// A palette PNG: `palette` holds premultiplied RGBA values as laid out in memory (at most
    /// 256), `indices` one entry per pixel, row-major. libpng writes `PLTE` (and `tRNS` when an
    /// entry is translucent) at 8 bits per index.
    static func encodePalette(width: Int, height: Int, palette: [UInt32], indices: [UInt8]) throws(PNGError) -> [UInt8] {
        precondition(!palette.isEmpty && palette.count <= 256 && indices.count == width * height, "a palette image of 1…256 colours")
        let colours = Canvas(width: palette.count, height: 1, premultipliedPixels: palette.withUnsafeBytes { Array($0) })
        let colormap = straightPixels(colours, channels: 4)
        let image = PNGImageHandle()
        var capacity = indices.count + height + indices.count / 1000 + colormap.count + 1024
        for _ in 0..<2 {
            image.pointer.pointee.width = UInt32(width)
            image.pointer.pointee.height = UInt32(height)
            image.pointer.pointee.format = formatRGBAColormap
            image.pointer.pointee.colormap_entries = UInt32(palette.count)
            var out = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = out.withUnsafeMutableBytes { dst in
                indices.withUnsafeBytes { src in
                    colormap.withUnsafeBytes { map in
                        png_image_write_to_memory(image.pointer, dst.baseAddress, &size, 0, src.baseAddress, 0, map.baseAddress)
                    }
                }
            }
            if ok != 0 {
                out.removeSubrange(Int(size)...)
                return out
            }
            guard Int(size) > capacity else { break }
            capacity = Int(size)
            image.reset()
        }
        throw .encodingFailed(reason: image.message)
    }

    /// Decodes any PNG (1–16-bit, grey, grey+alpha, palette with tRNS, RGB, RGBA, interlaced)
    /// into a premultiplied RGBA8 canvas.
    ///
    /// The chunk structure and CRCs are validated first and the declared size is checked
    /// against `maxPixelCount` before anything is allocated. 16-bit files without colour-space
    /// chunks are taken as sRGB (as every common encoder means them) and rounded to 8 bits.
    /// - Parameter origin: names the input in error messages, usually the file name.
    public static func decode(_ bytes: [UInt8], origin: String,
                              maxPixelCount: Int = defaultMaxPixelCount) throws(PNGError) -> Canvas {
        let result: Result<Canvas, PNGError> = bytes.withUnsafeBufferPointer { buf in
            do throws(PNGError) {
                return .success(try decode(buf, origin: origin, maxPixelCount: maxPixelCount))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decode(_ buf: UnsafeBufferPointer<UInt8>, origin: String,
                               maxPixelCount: Int) throws(PNGError) -> Canvas {
        let header = try PNGChunkScanner.scan(buf, origin: origin)
        let pixelCount = Int(header.width) * Int(header.height)  // each ≤ 2³¹−1: no overflow on 64-bit
        guard pixelCount <= maxPixelCount else {
            throw .imageTooLarge(origin: origin, width: header.width, height: header.height, maxPixelCount: maxPixelCount)
        }
        let image = PNGImageHandle()
        guard png_image_begin_read_from_memory(image.pointer, buf.baseAddress, buf.count) != 0 else {
            throw .decodingFailed(origin: origin, reason: image.message)
        }
        image.pointer.pointee.format = formatRGBA
        image.pointer.pointee.flags |= flag16BitSRGB
        let width = Int(image.pointer.pointee.width), height = Int(image.pointer.pointee.height)
        guard width == Int(header.width), height == Int(header.height) else {
            throw .decodingFailed(origin: origin, reason: "libpng reports \(width)×\(height), IHDR says \(header.width)×\(header.height)")
        }
        var pixels = [UInt8](repeating: 0, count: pixelCount * 4)
        let ok = pixels.withUnsafeMutableBytes { dst in
            png_image_finish_read(image.pointer, nil, dst.baseAddress, 0, nil)
        }
        guard ok != 0 else { throw .decodingFailed(origin: origin, reason: image.message) }
        premultiplyInPlace(&pixels)
        return Canvas(width: width, height: height, premultipliedPixels: pixels)
    }

    // Values of libpng's PNG_FORMAT_* / PNG_IMAGE_FLAG_* macros (composite macros do not
    // import into Swift).
    private static let formatRGB: UInt32 = 2    // PNG_FORMAT_FLAG_COLOR
    private static let formatRGBA: UInt32 = 3   // PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
    private static let formatRGBAColormap: UInt32 = 11  // … | PNG_FORMAT_FLAG_COLORMAP
    private static let flag16BitSRGB: UInt32 = 4 // PNG_IMAGE_FLAG_16BIT_sRGB

    /// Straight-alpha bytes, `channels` (3 or 4) per pixel. `round(p * 255 / a)` is the exact
    /// inverse of `Canvas.premultiply` (`round(c * a / 255)`): its error is below 0.5·255/a,
    /// which premultiplying shrinks back below 0.5.
    static func straightPixels(_ canvas: Canvas, channels: Int) -> [UInt8] {
        let n = canvas.width * canvas.height
        var out = [UInt8](repeating: 0, count: n * channels)
        canvas.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if channels == 3 {
                    for i in 0..<n {
                        dst[i * 3] = src[i * 4]; dst[i * 3 + 1] = src[i * 4 + 1]; dst[i * 3 + 2] = src[i * 4 + 2]
                    }
                    return
                }
                for i in 0..<n {
                    let s = i * 4
                    let a = UInt32(src[s + 3])
                    dst[s + 3] = UInt8(a)
                    if a == 255 {
                        dst[s] = src[s]; dst[s + 1] = src[s + 1]; dst[s + 2] = src[s + 2]
                    } else if a != 0 {
                        let half = a / 2
                        dst[s] = UInt8(min(255, (UInt32(src[s]) * 255 + half) / a))
                        dst[s + 1] = UInt8(min(255, (UInt32(src[s + 1]) * 255 + half) / a))
                        dst[s + 2] = UInt8(min(255, (UInt32(src[s + 2]) * 255 + half) / a))
                    }
                }
            }
        }
        return out
    }

    /// Straight RGBA → premultiplied, with `Canvas.premultiply`'s rounding.
    static func premultiplyInPlace(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a != 255 {
                    p[i] = UInt8(Canvas.div255(UInt32(p[i]) * a))
                    p[i + 1] = UInt8(Canvas.div255(UInt32(p[i + 1]) * a))
                    p[i + 2] = UInt8(Canvas.div255(UInt32(p[i + 2]) * a))
                }
                i += 4
            }
        }
    }
}

/// Owns one `png_image` at a stable address (libpng keeps a pointer to it as its error
/// context) and releases libpng's state in `deinit`.
private final class PNGImageHandle {
    let pointer: UnsafeMutablePointer<png_image>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: png_image())
        pointer.pointee.version = UInt32(PNG_IMAGE_VERSION)
    }

    /// Frees libpng's state and zeroes the struct for another attempt.
    func reset() {
        png_image_free(pointer)
        pointer.pointee = png_image()
        pointer.pointee.version = UInt32(PNG_IMAGE_VERSION)
    }

    /// libpng's last error or warning text.
    var message: String {
        withUnsafeBytes(of: pointer.pointee.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    deinit {
        png_image_free(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

extension Canvas {
    /// This canvas encoded as PNG (see `PNGCodec.encode`).
    public func pngData() throws(PNGError) -> [UInt8] {
        try PNGCodec.encode(self)
    }
}
