internal import CShims

/// Decodes JPEG (baseline, progressive, restart markers; grey, YCbCr, RGB, CMYK/YCCK) into an
/// opaque RGBA8 canvas through libjpeg-turbo.
///
/// libjpeg reports errors by `longjmp`; that jump stays inside the C shim
/// (`Sources/CShims/mapsnap_jpeg.c`), which returns a status code to Swift. Any libjpeg
/// warning (premature end of data, corrupt entropy data) fails the decode instead of
/// yielding a partly grey image. The IDCT method and upsampling are pinned in the shim so the
/// same file decodes to the same pixels on every machine with the same libjpeg-turbo.
public enum JPEGCodec {
    /// Default decode limit: 16384 × 16384 pixels (1 GiB of RGBA), as for PNG.
    public static let defaultMaxPixelCount = PNGCodec.defaultMaxPixelCount

    /// True when `bytes` begins with the JPEG SOI marker followed by another marker.
    public static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Decodes `bytes` into a canvas (every pixel opaque).
    ///
    /// The header is read first and its declared size checked against `maxPixelCount`
    /// before the pixel buffer is allocated.
    /// - Parameter origin: names the input in error messages (file name, tile address).
    public static func decode(_ bytes: [UInt8], origin: String,
                              maxPixelCount: Int = defaultMaxPixelCount) throws(JPEGError) -> Canvas {
        guard isJPEG(bytes) else { throw .notJPEG(origin: origin, signature: Array(bytes.prefix(8))) }
        let limit = max(0, maxPixelCount)
        var info = mapsnap_jpeg_info()
        let headerStatus = bytes.withUnsafeBufferPointer { buf in
            mapsnap_jpeg_read_header(buf.baseAddress, buf.count, limit, &info)
        }
        try check(headerStatus, info: info, origin: origin, size: bytes.count, maxPixelCount: limit)
        let width = Int(info.width), height = Int(info.height)
        // libjpeg refuses empty images itself, but an empty canvas must never reach callers.
        guard width > 0, height > 0 else {
            throw .corrupt(origin: origin, offset: Int(info.offset), reason: "image declares \(width)×\(height) pixels")
        }
        let byteCount = width * height * 4
        var status = MAPSNAP_JPEG_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            status = bytes.withUnsafeBufferPointer { buf in
                mapsnap_jpeg_decode(buf.baseAddress, buf.count, limit, out.baseAddress, byteCount, &info)
            }
            if status != MAPSNAP_JPEG_OK, let base = out.baseAddress {
                // The shim may have written only some rows; never expose uninitialised memory.
                base.initialize(repeating: 0, count: byteCount)
            }
            initialized = byteCount
        }
        try check(status, info: info, origin: origin, size: bytes.count, maxPixelCount: limit)
        return Canvas(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Reads only the header: the declared width and height, without decoding pixels.
    public static func dimensions(of bytes: [UInt8], origin: String) throws(JPEGError) -> (width: Int, height: Int) {
        guard isJPEG(bytes) else { throw .notJPEG(origin: origin, signature: Array(bytes.prefix(8))) }
        var info = mapsnap_jpeg_info()
        let status = bytes.withUnsafeBufferPointer { buf in
            mapsnap_jpeg_read_header(buf.baseAddress, buf.count, Int.max, &info)
        }
        try check(status, info: info, origin: origin, size: bytes.count, maxPixelCount: Int.max)
        return (Int(info.width), Int(info.height))
    }

    private static func check(_ status: mapsnap_jpeg_status, info: mapsnap_jpeg_info, origin: String,
                              size: Int, maxPixelCount: Int) throws(JPEGError) {
        let offset = Int(clamping: info.offset)
        switch status {
        case MAPSNAP_JPEG_OK:
            return
        case MAPSNAP_JPEG_TRUNCATED:
            throw .truncated(origin: origin, offset: offset, size: size)
        case MAPSNAP_JPEG_TOO_LARGE:
            throw .imageTooLarge(origin: origin, width: Int(info.width), height: Int(info.height), maxPixelCount: maxPixelCount)
        case MAPSNAP_JPEG_UNSUPPORTED_COLOR:
            throw .unsupportedColorSpace(origin: origin, colorSpace: Int(info.color_space), components: Int(info.components))
        case MAPSNAP_JPEG_TOO_MANY_SCANS:
            throw .tooManyScans(origin: origin, limit: Int(MAPSNAP_JPEG_MAX_SCANS))
        default:
            throw .corrupt(origin: origin, offset: offset, reason: message(info))
        }
    }

    private static func message(_ info: mapsnap_jpeg_info) -> String {
        withUnsafeBytes(of: info.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
