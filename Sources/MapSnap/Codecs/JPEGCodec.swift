internal import CTurboJPEG

/// Decodes JPEG (baseline, progressive, restart markers; grey, YCbCr, RGB, CMYK/YCCK) into an
/// opaque RGBA8 canvas through libjpeg-turbo's TurboJPEG API.
///
/// TurboJPEG returns libjpeg's errors as status codes (its `setjmp` stays inside the library),
/// so nothing jumps across Swift frames. Decoding stops at libjpeg's first warning (premature
/// end of data, corrupt entropy data) instead of yielding a partly grey image, and refuses
/// progressive files with more than `maximumScanCount` scans. TurboJPEG's defaults are the
/// pixel-affecting knobs we want — accurate integer IDCT, fancy upsampling, block smoothing —
/// so the same file decodes to the same pixels on every machine with the same libjpeg-turbo.
///
/// TurboJPEG 2.1 reports neither the byte offset where libjpeg stopped nor whether the data
/// ran out, so errors carry libjpeg's message, and a failing file that does not end in an EOI
/// marker is reported as truncated. It also refuses chroma subsampling layouts outside its
/// table (4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1, grey), which no common encoder writes.
enum JPEGCodec {
    /// Default decode limit: 16384 × 16384 pixels (1 GiB of RGBA), as for PNG.
    static let defaultMaxPixelCount = PNGCodec.defaultMaxPixelCount
    /// Most scans a progressive file may have (TurboJPEG's `TJFLAG_LIMITSCANS` bound); a
    /// baseline file has 1, a typical progressive one ~10. More is a decoding-time bomb.
    static let maximumScanCount = 500

    /// True when `bytes` begins with the JPEG SOI marker followed by another marker.
    static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Decodes `bytes` into a canvas (every pixel opaque).
    ///
    /// The header is read first and its declared size checked against `maxPixelCount`
    /// before the pixel buffer is allocated.
    /// - Parameter origin: names the input in error messages (file name, tile address).
    static func decode(_ bytes: [UInt8], origin: String,
                              maxPixelCount: Int = defaultMaxPixelCount) throws(JPEGError) -> Canvas {
        let decoder = try TurboJPEGDecoder(bytes: bytes, origin: origin)
        let header = try decoder.header()
        let (width, height) = (header.width, header.height)
        guard width * height <= max(0, maxPixelCount) else {
            throw .imageTooLarge(origin: origin, width: width, height: height, maxPixelCount: maxPixelCount)
        }
        // Grey, RGB and YCbCr come out as RGBA; 4-channel files as libjpeg's raw CMYK, which is
        // converted below (TurboJPEG does no CMYK → RGB conversion).
        let cmyk = header.colorSpace == Int32(TJCS_CMYK.rawValue) || header.colorSpace == Int32(TJCS_YCCK.rawValue)
        var pixels = try decoder.decode(width: width, height: height, format: cmyk ? TJPF_CMYK : TJPF_RGBA)
        if cmyk { convertCMYKToRGBA(&pixels, adobeInverted: hasAdobeMarker(bytes)) }
        return Canvas(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Reads only the header: the declared width and height, without decoding pixels.
    static func dimensions(of bytes: [UInt8], origin: String) throws(JPEGError) -> (width: Int, height: Int) {
        let header = try TurboJPEGDecoder(bytes: bytes, origin: origin).header()
        return (header.width, header.height)
    }

    /// CMYK → RGB with the naive formula R = (1 − C)(1 − K), in place, alpha 255. Adobe
    /// writes CMYK inverted (0 = full ink); plain CMYK stores ink amounts directly.
    static func convertCMYKToRGBA(_ pixels: inout [UInt8], adobeInverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                var c = UInt32(p[i]), m = UInt32(p[i + 1]), y = UInt32(p[i + 2]), k = UInt32(p[i + 3])
                if !adobeInverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                p[i] = UInt8((c * k + 127) / 255)
                p[i + 1] = UInt8((m * k + 127) / 255)
                p[i + 2] = UInt8((y * k + 127) / 255)
                p[i + 3] = 255
                i += 4
            }
        }
    }

    /// True when an Adobe APP14 segment precedes the first scan — libjpeg's own test
    /// (jdmarker.c: `FF EE`, at least 12 data bytes, starting "Adobe") for whether CMYK samples
    /// are stored inverted. TurboJPEG does not expose libjpeg's `saw_Adobe_marker`.
    static func hasAdobeMarker(_ bytes: [UInt8]) -> Bool {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return false }
            let marker = bytes[i + 1]
            switch marker {
            case 0xFF:
                i += 1  // fill byte before a marker
                continue
            case 0xDA, 0xD9:
                return false  // start of scan, end of image
            case 0x01, 0xD0...0xD7:
                i += 2  // markers without a length
                continue
            default:
                break
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xEE, length >= 14, i + 9 <= bytes.count,
               bytes[(i + 4)..<(i + 9)].elementsEqual("Adobe".utf8) {
                return true
            }
            guard length >= 2 else { return false }
            i += 2 + length
        }
        return false
    }
}

/// One TurboJPEG decompressor over one input, destroyed in `deinit`. A fresh handle per
/// decode: TurboJPEG keeps tables from earlier inputs, and a handle is not thread-safe.
private final class TurboJPEGDecoder {
    private let handle: tjhandle
    private let bytes: [UInt8]
    private let origin: String

    init(bytes: [UInt8], origin: String) throws(JPEGError) {
        guard JPEGCodec.isJPEG(bytes) else { throw .notJPEG(origin: origin, signature: Array(bytes.prefix(8))) }
        guard let handle = tjInitDecompress() else {
            throw .decoderUnavailable(origin: origin, reason: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
        self.bytes = bytes
        self.origin = origin
    }

    deinit { tjDestroy(handle) }

    /// Width, height (both positive) and TurboJPEG colour space (`TJCS`) from the header.
    func header() throws(JPEGError) -> (width: Int, height: Int, colorSpace: Int32) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colorSpace: Int32 = -1
        let status = bytes.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(handle, buf.baseAddress, UInt(buf.count), &width, &height, &subsampling, &colorSpace)
        }
        guard status == 0 else { throw failure() }
        // TurboJPEG succeeds without an image when the data holds only tables, or ran out
        // before the frame header.
        guard width > 0, height > 0 else {
            throw failure(reason: "the data holds no image (no frame header before the end)")
        }
        return (Int(width), Int(height), colorSpace)
    }

    /// The pixels, `width × height × format`'s 4 bytes each, rows top to bottom.
    func decode(width: Int, height: Int, format: TJPF) throws(JPEGError) -> [UInt8] {
        let byteCount = width * height * 4
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            status = bytes.withUnsafeBufferPointer { buf in
                tjDecompress2(handle, buf.baseAddress, UInt(buf.count), out.baseAddress, Int32(width), 0, Int32(height),
                              Int32(format.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
            }
            if status != 0, let base = out.baseAddress {
                // TurboJPEG may have written only some rows; never expose uninitialised memory.
                base.initialize(repeating: 0, count: byteCount)
            }
            initialized = byteCount
        }
        guard status == 0 else { throw failure() }
        return pixels
    }

    /// The error for a failed call, from TurboJPEG's message (libjpeg's text).
    ///
    /// A file that does not end with the EOI marker `FF D9` was cut short: whatever libjpeg
    /// then complains about (a missing SOS, a bogus table length), the cause is missing data.
    private func failure(reason: String? = nil) -> JPEGError {
        let message = reason ?? Self.trimmed(String(cString: tjGetErrorStr2(handle)))
        if message.hasPrefix("Progressive JPEG image has more than") {
            return .tooManyScans(origin: origin, limit: JPEGCodec.maximumScanCount)
        }
        let endsWithEOI = bytes.count >= 4 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
        if !endsWithEOI || message == "Premature end of JPEG file" {
            return .truncated(origin: origin, size: bytes.count)
        }
        if message.hasPrefix("Could not determine") {
            return .unsupported(origin: origin, reason: message)
        }
        return .corrupt(origin: origin, reason: message)
    }

    /// TurboJPEG prefixes its own errors with the function name ("tjDecompressHeader3(): ").
    private static func trimmed(_ message: String) -> String {
        guard let range = message.range(of: "(): ") else { return message }
        return String(message[range.upperBound...])
    }
}

extension JPEGCodec {
    /// libjpeg-turbo's version as its header says (TurboJPEG has no run-time query), or nil
    /// when the header was not available at build time.
    static var libraryVersion: String? {
        let n = Int(mapsnap_libjpeg_turbo_version_number())
        return n > 0 ? "\(n / 1_000_000).\(n / 1_000 % 1_000).\(n % 1_000)" : nil
    }
}
