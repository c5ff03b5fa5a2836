import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 client over POSIX sockets for the server tests: one request per
/// connection (`Connection: close`), the response read to end of file. Every wait is bounded
/// by socket timeouts, so a server that hangs fails the test instead of hanging the suite.
enum HTTPTestClient {
    struct Response: CustomStringConvertible {
        var status: Int
        /// Header values by lowercased name.
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
        var description: String { "\(status) \(headers) \(text.prefix(300))" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request to `127.0.0.1:port` and reads the whole response.
    static func request(port: Int, method: String = "GET", target: String, headers: [(String, String)] = [],
                        body: [UInt8] = [], timeoutSeconds: Int = Int(TestEnvironment.seconds(60))) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let raw = try exchange(port: port, chunks: [Array(head.utf8) + body], timeoutSeconds: timeoutSeconds)
        return try parse(raw, isHead: method == "HEAD")
    }

    /// Opens a connection, writes `chunks` with `pause` seconds between them, then reads until
    /// the server closes the connection. Returns the bytes read.
    static func exchange(port: Int, chunks: [[UInt8]], pause: Double = 0, timeoutSeconds: Int = Int(TestEnvironment.seconds(60))) throws -> [UInt8] {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        for (i, chunk) in chunks.enumerated() {
            if i > 0 && pause > 0 { Thread.sleep(forTimeInterval: pause) }
            try send(fd, chunk)
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                out += buffer[0..<n]
            } else if n == 0 {
                return out
            } else if errno == EINTR {
                continue
            } else if errno == ECONNRESET {
                return out
            } else {
                throw Failure(description: "recv failed: errno \(errno) after \(out.count) bytes")
            }
        }
    }

    /// A connected socket to `127.0.0.1:port` with send and receive timeouts.
    static func connect(port: Int, timeoutSeconds: Int = Int(TestEnvironment.seconds(60))) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send failed: errno \(errno)")
            }
            sent += n
        }
    }

    /// Status line, headers and body (by `Content-Length`, else to the end).
    static func parse(_ raw: [UInt8], isHead: Bool = false) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, raw.count - 3)).first(where: { raw[$0..<($0 + 4)].elementsEqual(separator) }) else {
            throw Failure(description: "no complete response head in \(raw.count) bytes: \(String(decoding: raw.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: raw[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(raw[(end + 4)...])
        if isHead || status == 304 || status == 204 {
            body = []
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard body.count >= length else { throw Failure(description: "body cut short: \(body.count) of \(length) bytes") }
            body = Array(body.prefix(length))
        }
        return Response(status: status, headers: headers, body: body)
    }
}
