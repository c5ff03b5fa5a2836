internal import CPNG

/// Encodes canvases to PNG (`PNGEncoder`: libdeflate, no libpng) and decodes any PNG into a
/// premultiplied canvas: the common layouts through `PNGFastDecoder` (libdeflate), everything
/// else through libpng's simplified `png_image` API (its `setjmp` stays inside libpng; no jump
/// crosses a Swift frame), with the same pixels either way.
///
/// Determinism: the encoder's choices (colour type, row filter, compression level) depend only
/// on the pixels, and it writes no time, text or gamma chunks, so the same canvas gives the
/// same bytes for a given libdeflate build.
package enum PNGCodec {
    /// Default decode limit: 16384 × 16384 pixels (1 GiB of RGBA).
    package static let defaultMaxPixelCount = 16384 * 16384

    /// PNG bytes for `canvas`, 8 bits per channel: RGB when every pixel is opaque, RGBA
    /// otherwise, a 1-bit palette image when every pixel is the same. Premultiplied values are
    /// un-premultiplied with rounding such that decoding the file gives back exactly the same
    /// premultiplied bytes.
    package static func encode(_ canvas: Canvas) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(canvas)
    }

    /// Decodes any PNG (1–16-bit, grey, grey+alpha, palette with tRNS, RGB, RGBA, interlaced)
    /// into a premultiplied RGBA8 canvas.
    ///
    /// The chunk structure and CRCs are validated first and the declared size is checked
    /// against `maxPixelCount` before anything is allocated. 16-bit files without colour-space
    /// chunks are taken as sRGB (as every common encoder means them) and rounded to 8 bits.
    /// - Parameter origin: names the input in error messages, usually the file name.
    package static func decode(_ bytes: [UInt8], origin: String,
                              maxPixelCount: Int = defaultMaxPixelCount) throws(PNGError) -> Canvas {
        try decode(bytes, origin: origin, maxPixelCount: maxPixelCount, fastPath: true)
    }

    /// `decode`, with `fastPath: false` sending every file through libpng (tests compare the two).
    static func decode(_ bytes: [UInt8], origin: String, maxPixelCount: Int = defaultMaxPixelCount,
                       fastPath: Bool) throws(PNGError) -> Canvas {
        let result: Result<Canvas, PNGError> = bytes.withUnsafeBufferPointer { buf in
            do throws(PNGError) {
                return .success(try decode(buf, origin: origin, maxPixelCount: maxPixelCount, fastPath: fastPath))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decode(_ buf: UnsafeBufferPointer<UInt8>, origin: String,
                               maxPixelCount: Int, fastPath: Bool) throws(PNGError) -> Canvas {
        let header = try PNGChunkScanner.scan(buf, origin: origin)
        let pixelCount = Int(header.width) * Int(header.height)  // each ≤ 2³¹−1: no overflow on 64-bit
        guard pixelCount <= maxPixelCount else {
            throw .imageTooLarge(origin: origin, width: header.width, height: header.height, maxPixelCount: maxPixelCount)
        }
        if fastPath, let canvas = PNGFastDecoder.decode(buf, header: header) { return canvas }
        let image = PNGImageHandle()
        guard png_image_begin_read_from_memory(image.pointer, buf.baseAddress, buf.count) != 0 else {
            throw .decodingFailed(origin: origin, reason: image.message)
        }
        // Files without alpha (no alpha channel, no tRNS) decode opaque: nothing to premultiply.
        let hasAlpha = image.pointer.pointee.format & formatFlagAlpha != 0
        image.pointer.pointee.format = formatRGBA
        image.pointer.pointee.flags |= flag16BitSRGB
        let width = Int(image.pointer.pointee.width), height = Int(image.pointer.pointee.height)
        guard width == Int(header.width), height == Int(header.height) else {
            throw .decodingFailed(origin: origin, reason: "libpng reports \(width)×\(height), IHDR says \(header.width)×\(header.height)")
        }
        // libpng writes every byte of the buffer; on failure the array is discarded.
        var ok: Int32 = 0
        var pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { dst, initialized in
            ok = png_image_finish_read(image.pointer, nil, dst.baseAddress, 0, nil)
            initialized = dst.count
        }
        guard ok != 0 else { throw .decodingFailed(origin: origin, reason: image.message) }
        if hasAlpha { premultiplyInPlace(&pixels) }
        return Canvas(width: width, height: height, premultipliedPixels: pixels)
    }

    // Values of libpng's PNG_FORMAT_* / PNG_IMAGE_FLAG_* macros (composite macros do not
    // import into Swift).
    private static let formatRGBA: UInt32 = 3   // PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
    private static let flag16BitSRGB: UInt32 = 4 // PNG_IMAGE_FLAG_16BIT_sRGB
    private static let formatFlagAlpha: UInt32 = 1 // PNG_FORMAT_FLAG_ALPHA

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
    package func pngData() throws(PNGError) -> [UInt8] {
        try PNGCodec.encode(self)
    }
}

extension PNGCodec {
    /// The version of the libpng this process runs with (`png_get_libpng_ver`), for `--version`.
    static var libraryVersion: String? { png_get_libpng_ver(nil).map { String(cString: $0) } }
}
