internal import CWebP

/// Writes WebP through libwebp's one-call encoders: lossless by default (drawn maps compress
/// better than PNG and stay exact), lossy at a given quality (imagery).
enum WebPEncoder {
    /// WebP bytes for `canvas`; `quality` nil → lossless, 1–100 → lossy.
    static func encode(_ canvas: Canvas, quality: Int?) throws -> [UInt8] {
        if let quality, !(1...100).contains(quality) { throw ImageFormatError.badQuality(quality) }
        guard canvas.width <= 16_383, canvas.height <= 16_383 else {
            throw ImageFormatError.encodingFailed(format: "webp", reason: "\(canvas.width)×\(canvas.height) exceeds WebP's 16383-pixel side")
        }
        let rgba = PNGEncoder.straightPixels(canvas, channels: 4)
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = rgba.withUnsafeBufferPointer { pixels in
            if let quality {
                return WebPEncodeRGBA(pixels.baseAddress, Int32(canvas.width), Int32(canvas.height), Int32(canvas.width * 4), Float(quality), &output)
            }
            return WebPEncodeLosslessRGBA(pixels.baseAddress, Int32(canvas.width), Int32(canvas.height), Int32(canvas.width * 4), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard size > 0, let output else {
            throw ImageFormatError.encodingFailed(format: "webp", reason: "libwebp could not encode \(canvas.width)×\(canvas.height)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

extension WebPEncoder {
    /// The version of the libwebp encoder this process runs with (`WebPGetEncoderVersion`).
    static var libraryVersion: String {
        let v = WebPGetEncoderVersion()
        return "\(v >> 16).\(v >> 8 & 0xff).\(v & 0xff)"
    }
}
