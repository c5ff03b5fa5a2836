import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The hostile answers of issue #10's fault-injection server, as `LocalHTTPServer` responses.
extension LocalHTTPServer.Response {
    /// 200 with no length whose body never ends.
    static var endless: Self {
        Self(status: 200, headers: [("Content-Type", "application/octet-stream")], omitContentLength: true,
             behaviour: .endless(chunk: [UInt8](repeating: 0x41, count: 64 << 10)))
    }

    /// 200 with `Content-Encoding: gzip`: under 7 MB on the wire, 1 GiB once decoded.
    static var gzipBomb: Self {
        Self(status: 200, headers: [("Content-Type", "application/x-protobuf"), ("Content-Encoding", "gzip")],
             body: HostileBodies.gigabyteGzipBomb)
    }

    /// Reads the request and never answers (until the client gives up).
    static var hang: Self { Self(status: 200, behaviour: .hang(seconds: 30)) }

    /// `body` one byte every `interval` seconds, its full length declared up front.
    static func trickle(_ body: [UInt8], interval: TimeInterval = 0.25) -> Self {
        Self(status: 200, headers: [("Content-Type", "image/png")], body: body, behaviour: .trickle(bytesPerTick: 1, interval: interval))
    }

    /// A 200 HTML page where a tile was expected (a quota or login page).
    static var htmlPage: Self {
        .ok(Array("<!DOCTYPE html><html><body>Quota exceeded</body></html>".utf8), contentType: "text/html")
    }

    static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: [("Location", location)])
    }

    /// 429 (or 503) asking to come back in `seconds`.
    static func retryAfter(_ seconds: Int, status: Int = 429) -> Self {
        Self(status: status, headers: [("Retry-After", "\(seconds)")])
    }

    /// Declares a `Content-Length` of 10¹² bytes, then streams until the client hangs up.
    static var hugeContentLength: Self {
        Self(status: 200, headers: [("Content-Type", "image/png"), ("Content-Length", "1000000000000")],
             behaviour: .endless(chunk: [UInt8](repeating: 0, count: 64 << 10)))
    }
}

enum HostileBodies {
    /// `gzipBomb(decodedBytes: 1 << 30)`, made once.
    static let gigabyteGzipBomb = gzipBomb(decodedBytes: 1 << 30)

    /// A gzip member whose deflate stream inflates to `decodedBytes` zeros (rounded up to
    /// 1 + 258·k) from about `decodedBytes / 160` bytes: one fixed-Huffman block holding a
    /// literal 0 and then copies of length 258 at distance 1, 13 bits each.
    ///
    /// The trailer's CRC-32 is left 0: computing it would mean running over every decoded
    /// byte, and a client that respects its limits stops long before reaching it.
    static func gzipBomb(decodedBytes: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman
        writer.writeCode(0x30, length: 8)  // literal 0
        let copies = max(0, (decodedBytes - 1 + 257) / 258)
        // Length symbol 285 (258 bytes, code 11000101) then distance code 0 (distance 1,
        // code 00000), as one 13-bit group in stream order.
        let copy = BitWriter.reversed(0xC5, length: 8)
        for _ in 0..<copies { writer.write(copy, bits: 13) }
        writer.writeCode(0, length: 7)  // end of block (256)
        let size = UInt32(truncatingIfNeeded: 1 + copies * 258)
        return [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3] + writer.finish() + [0, 0, 0, 0]
            + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
    }

    /// Deflate's bit order: values are packed LSB first; Huffman codes go MSB first, so
    /// they are written bit-reversed.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var pending: UInt64 = 0
        var count = 0

        static func reversed(_ code: UInt64, length: Int) -> UInt64 {
            (0..<length).reduce(0) { $0 | (code >> $1 & 1) << (length - 1 - $1) }
        }

        mutating func write(_ value: UInt64, bits: Int) {
            pending |= value << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                count -= 8
            }
        }

        mutating func writeCode(_ code: UInt64, length: Int) { write(Self.reversed(code, length: length), bits: length) }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
            return bytes
        }
    }
}

/// A port on 127.0.0.1 where nothing listens: bound (so no test server can take it while the
/// test runs) but never listening, so every connection is refused at once.
final class DeadPort {
    let port: UInt16
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LocalHTTPServer.ServerError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard named else { close(fd); throw LocalHTTPServer.ServerError.socket(errno) }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    var baseURL: String { "http://127.0.0.1:\(port)" }
}
