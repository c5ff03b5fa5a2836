internal import CDeflate
internal import CZlib

/// Why a gzip or zlib stream could not be inflated or deflated.
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first bytes are neither a gzip member (1f 8b) nor a zlib header.
    case notCompressed(firstBytes: [UInt8])
    /// zlib reported corrupt data; `inputOffset` is how far it had read when it gave up.
    case corruptStream(zlibCode: Int32, message: String, inputOffset: Int)
    /// The input ended before the end-of-stream marker.
    case truncated(inputLength: Int)
    /// Inflating would produce more than `limit` bytes (a decompression bomb or a wrong cap).
    case outputTooLarge(limit: Int)
    /// The input is too large for a single zlib call.
    case inputTooLarge(length: Int)
    /// zlib could not be initialised (out of memory).
    case initializationFailed(zlibCode: Int32)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .notCompressed(let bytes):
            return "gzip: data does not start with a gzip or zlib header (found \(ContentKind.describe(bytes)))"
        case .corruptStream(let code, let message, let offset):
            return "gzip: corrupt stream at input byte \(offset): \(message) (zlib code \(code))"
        case .truncated(let length):
            return "gzip: stream truncated, all \(length) input bytes consumed before the end marker"
        case .outputTooLarge(let limit):
            return "gzip: inflated data exceeds the limit of \(limit) bytes"
        case .inputTooLarge(let length):
            return "gzip: input of \(length) bytes is too large"
        case .initializationFailed(let code):
            return "gzip: zlib initialisation failed (code \(code))"
        }
    }
}

/// gzip/zlib compression through the system zlib, with libdeflate inflating whole gzip
/// members when it can (about twice zlib's speed) and whole zlib streams for
/// `PNGFastDecoder` (`inflateExactly`). The only file that imports `CZlib`.
enum Gzip {
    /// Default cap on inflated output: far above any real tile, far below a bomb.
    static let defaultMaxOutputBytes = 64 << 20

    /// The container written by `compress`.
    enum Container: Sendable {
        case gzip
        case zlib
    }

    /// True when `bytes` begins with the gzip magic 1f 8b.
    static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    /// True when `bytes` begins with a valid zlib header (CMF/FLG check, deflate method).
    static func isZlib(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        let cmf = UInt16(bytes[0]), flg = UInt16(bytes[1])
        return cmf & 0x0f == 8 && cmf >> 4 <= 7 && (cmf << 8 | flg) % 31 == 0
    }

    /// Inflates a gzip or zlib stream (the container is detected from the header).
    ///
    /// Throws `GzipError.outputTooLarge` as soon as the output would exceed `maxOutputBytes`,
    /// so a decompression bomb costs at most that much memory.
    static func decompress(_ bytes: [UInt8], maxOutputBytes: Int = defaultMaxOutputBytes) throws(GzipError) -> [UInt8] {
        guard isGzip(bytes) || isZlib(bytes) else {
            throw .notCompressed(firstBytes: Array(bytes.prefix(4)))
        }
        guard bytes.count <= Int(UInt32.max) else { throw .inputTooLarge(length: bytes.count) }
        if let whole = inflateGzipMember(bytes, maxOutputBytes: maxOutputBytes) { return whole }
        // 32 + 15: accept both zlib and gzip headers with the largest window.
        let stream = try ZStream(inflateWindowBits: 32 + 15)
        var output = [UInt8]()
        // Tiles typically inflate 3–10×; start there and grow geometrically up to the cap.
        var capacity = min(max(bytes.count * 4, 1024), max(maxOutputBytes, 1))
        output.reserveCapacity(capacity)
        var produced = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var tooLarge = false
        let result: Int32 = bytes.withUnsafeBufferPointer { input in
            stream.pointer.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointer.pointee.avail_in = UInt32(input.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.pointer.pointee.next_out = out.baseAddress
                    stream.pointer.pointee.avail_out = UInt32(out.count)
                    return inflate(stream.pointer, Z_NO_FLUSH)
                }
                let written = chunk.count - Int(stream.pointer.pointee.avail_out)
                if produced + written > maxOutputBytes {
                    tooLarge = true
                    return code
                }
                if written > 0 {
                    if produced + written > capacity {
                        capacity = min(max(capacity * 2, produced + written), maxOutputBytes)
                        output.reserveCapacity(capacity)
                    }
                    output.append(contentsOf: chunk[0..<written])
                    produced += written
                }
                if code == Z_STREAM_END { return code }
                // Each call gets a whole empty chunk, so Z_BUF_ERROR can only mean that no
                // progress is possible: the input ended early. Stopping here also rules out a hang.
                if code != Z_OK { return code }
            }
        }
        if tooLarge { throw .outputTooLarge(limit: maxOutputBytes) }
        switch result {
        case Z_STREAM_END:
            return output
        case Z_BUF_ERROR:
            throw .truncated(inputLength: bytes.count)
        default:
            let consumed = bytes.count - Int(stream.pointer.pointee.avail_in)
            let message = stream.pointer.pointee.msg.map { String(cString: $0) } ?? "zlib error"
            throw .corruptStream(zlibCode: result, message: message, inputOffset: consumed)
        }
    }

    /// The fast path of `decompress` for gzip: libdeflate inflates the first member into a
    /// buffer of the size its trailer states (the last 4 bytes, ISIZE, when the file is one
    /// member), checking the member's CRC-32 and size as zlib does. Nil whenever that does
    /// not simply succeed — not gzip, a size over the cap, trailing data, a damaged stream —
    /// and zlib then inflates (or reports) exactly as before; so the output is zlib's.
    private static func inflateGzipMember(_ bytes: [UInt8], maxOutputBytes: Int) -> [UInt8]? {
        guard isGzip(bytes), bytes.count >= 18 else { return nil }
        let n = bytes.count
        let stated = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        guard stated <= maxOutputBytes else { return nil }
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: max(stated, 1)) { buffer, initialized in
            // All the input in one member, exactly the stated size: anything else is zlib's to judge.
            ok = bytes.withUnsafeBytes { input in
                inflateExactly(input, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<stated])), container: .gzip)
            }
            initialized = ok ? stated : 0
        }
        return ok ? out : nil
    }

    /// libdeflate inflates `input` — one gzip member or one zlib stream, checksum checked — into
    /// `out`; true only when the stream takes all of `input` and fills `out` exactly.
    static func inflateExactly(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer,
                               container: Container) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        var consumed = 0, produced = 0
        let code = container == .gzip
            ? libdeflate_gzip_decompress_ex(decompressor, input.baseAddress, input.count, out.baseAddress, out.count,
                                            &consumed, &produced)
            : libdeflate_zlib_decompress_ex(decompressor, input.baseAddress, input.count, out.baseAddress, out.count,
                                            &consumed, &produced)
        return code == LIBDEFLATE_SUCCESS && consumed == input.count && produced == out.count
    }

    /// Inflates when `bytes` starts with a gzip or zlib header; returns them unchanged otherwise.
    ///
    /// Used for tile payloads whose compression is only knowable from their magic bytes.
    /// An uncompressed MVT begins with a field tag (0x1a for `layers`), which is never a
    /// valid gzip magic, and never passes the zlib header check.
    static func decompressIfNeeded(_ bytes: [UInt8], maxOutputBytes: Int = defaultMaxOutputBytes) throws(GzipError) -> [UInt8] {
        guard isGzip(bytes) || isZlib(bytes) else { return bytes }
        return try decompress(bytes, maxOutputBytes: maxOutputBytes)
    }

    /// CRC-32 (ISO-HDLC, polynomial 0xEDB88320: the checksum of PNG chunks and gzip trailers)
    /// of `bytes`, continuing from `crc` (0 to start), computed by libdeflate (carry-less
    /// multiplication where the CPU has it: every chunk of every PNG tile read and written
    /// is checked, ~6 instructions a byte with zlib's tables).
    static func crc32(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0, continuing: crc) }
    }

    /// CRC-32 of raw bytes (see the `ArraySlice` form).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        // size_t length: no 4 GiB split is needed.
        return libdeflate_crc32(crc, base, bytes.count)
    }

    /// Deflates `bytes` into a gzip (default) or zlib container.
    ///
    /// Deterministic: the gzip header written by zlib has no timestamp or file name.
    static func compress(_ bytes: [UInt8], container: Container = .gzip, level: Int = 6) throws(GzipError) -> [UInt8] {
        guard bytes.count <= Int(UInt32.max) else { throw .inputTooLarge(length: bytes.count) }
        let windowBits: Int32 = container == .gzip ? 16 + 15 : 15
        let stream = try ZStream(deflateLevel: Int32(max(0, min(9, level))), windowBits: windowBits)
        let bound = Int(deflateBound(stream.pointer, UInt(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound + 32)
        let code: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.pointer.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointer.pointee.avail_in = UInt32(input.count)
                stream.pointer.pointee.next_out = out.baseAddress
                stream.pointer.pointee.avail_out = UInt32(out.count)
                return deflate(stream.pointer, Z_FINISH)
            }
        }
        guard code == Z_STREAM_END else {
            throw .corruptStream(zlibCode: code, message: "deflate did not finish", inputOffset: 0)
        }
        output.removeLast(Int(stream.pointer.pointee.avail_out))
        return output
    }
}

/// Owns a heap-allocated `z_stream`: zlib keeps a back-pointer to the stream, so it must not
/// move after init, and it must be ended exactly once.
private final class ZStream {
    let pointer: UnsafeMutablePointer<z_stream>
    private let isDeflate: Bool
    /// Set only after a successful init, so `deinit` never ends a stream zlib did not start.
    private var isStarted = false

    init(inflateWindowBits: Int32) throws(GzipError) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        isDeflate = false
        let code = mapsnap_inflate_init2(pointer, inflateWindowBits)
        guard code == Z_OK else { throw .initializationFailed(zlibCode: code) }
        isStarted = true
    }

    init(deflateLevel: Int32, windowBits: Int32) throws(GzipError) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        isDeflate = true
        let code = mapsnap_deflate_init2(pointer, deflateLevel, windowBits)
        guard code == Z_OK else { throw .initializationFailed(zlibCode: code) }
        isStarted = true
    }

    deinit {
        if isStarted {
            if isDeflate { deflateEnd(pointer) } else { inflateEnd(pointer) }
        }
        pointer.deallocate()
    }
}

extension Gzip {
    /// The version of the zlib this process runs with (`zlibVersion`), for `--version`.
    static var zlibVersion: String? { CZlib.zlibVersion().map { String(cString: $0) } }

    /// libdeflate's version as its header says (the library has no run-time query).
    static var libdeflateVersion: String? { mapsnap_libdeflate_version().map { String(cString: $0) } }
}
