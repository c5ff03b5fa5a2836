internal import CTurboJPEG

/// Writes JPEG through libjpeg-turbo's TurboJPEG API (errors come back as return codes, so
/// nothing jumps across Swift frames).
///
/// Pixel-affecting choices are pinned: 4:4:4 chroma (no subsampling — thin coloured route
/// lines and label halos blur visibly at 4:2:0), the accurate integer DCT, and transparent
/// pixels composited over white (JPEG has no alpha).
enum JPEGEncoder {
    /// JPEG bytes for `canvas` at `quality` (1–100); progressive or baseline.
    static func encode(_ canvas: Canvas, quality: Int, progressive: Bool) throws -> [UInt8] {
        guard (1...100).contains(quality) else { throw ImageFormatError.badQuality(quality) }
        let format = progressive ? "jpg" : "jpg-baseline"
        guard let handle = tjInitCompress() else {
            throw ImageFormatError.encodingFailed(format: format, reason: "TurboJPEG could not start a compressor")
        }
        defer { tjDestroy(handle) }
        let rgb = Self.rgbOverWhite(canvas)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let flags = TJFLAG_ACCURATEDCT | (progressive ? TJFLAG_PROGRESSIVE : 0)
        let status = rgb.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(canvas.width), 0, Int32(canvas.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_444.rawValue), Int32(quality), Int32(flags))
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw ImageFormatError.encodingFailed(format: format, reason: message)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// Three bytes per pixel: premultiplied RGBA over an opaque white background
    /// (`c + 255 − a`, exact for premultiplied values).
    static func rgbOverWhite(_ canvas: Canvas) -> [UInt8] {
        let count = canvas.width * canvas.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            canvas.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let background = 255 - p[i * 4 + 3]
                    out[i * 3] = p[i * 4] &+ background
                    out[i * 3 + 1] = p[i * 4 + 1] &+ background
                    out[i * 3 + 2] = p[i * 4 + 2] &+ background
                }
            }
            initialized = count * 3
        }
    }
}
