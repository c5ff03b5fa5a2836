import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server for tests only: POSIX sockets on 127.0.0.1, an ephemeral port, one
/// thread accepting connections and one short-lived thread per connection, every response
/// produced by a closure. Connections are closed after each response.
///
/// It doubles as a fault injector: a response can hang, trickle, stream without end, lie
/// about its length or close without answering (`Response.Behaviour`).
///
/// Every wait is bounded (poll timeouts, receive and send timeouts, capped request size, a
/// cap on streamed bytes and time), and waits end early when the client hangs up, so a
/// broken client or a failing test cannot hang the suite.
final class LocalHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        /// The request target, e.g. `/12/2331/1185.png`.
        var path: String
        /// Header names lowercased.
        var headers: [String: String]
        /// When the request arrived.
        var time: ContinuousClock.Instant = .now
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        /// Seconds to wait before answering (to provoke client timeouts).
        var delay: TimeInterval = 0
        /// Send the full `Content-Length` but only this many body bytes, then close.
        var truncateBodyAfter: Int?
        /// Send no `Content-Length`: the body ends when the connection closes (HTTP/1.0 style).
        var omitContentLength = false
        /// What happens after the request instead of (or after) sending `body`.
        var behaviour: Behaviour = .normal

        /// Hostile ways to answer.
        enum Behaviour: Sendable {
            case normal
            /// Read the request, then say nothing until the client hangs up (or `seconds` pass).
            case hang(seconds: TimeInterval)
            /// Send the head, then `chunk` again and again until the client hangs up (no
            /// `Content-Length` unless the head sets one).
            case endless(chunk: [UInt8])
            /// Send the head, then `body` one `bytesPerTick` slice every `interval` seconds.
            case trickle(bytesPerTick: Int, interval: TimeInterval)
            /// Read the request and close the connection without a response.
            case closeWithoutResponse
        }

        static func ok(_ body: [UInt8], contentType: String = "application/octet-stream") -> Response {
            Response(status: 200, headers: [("Content-Type", contentType)], body: body)
        }
        static func status(_ code: Int) -> Response { Response(status: code) }
    }

    typealias Handler = @Sendable (Request, _ requestNumber: Int) -> Response

    let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var stopped = false
    private var requests: [Request] = []
    private var requestsInProgress = 0
    private var mostRequestsInProgress = 0

    /// Starts listening; throws when the socket cannot be set up.
    init(handler: @escaping Handler) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw ServerError.socket(errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { close(fd); throw ServerError.socket(errno) }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    enum ServerError: Error { case socket(Int32) }

    /// `http://127.0.0.1:<port>`
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Requests received so far, in arrival order.
    var receivedRequests: [Request] { lock.lock(); defer { lock.unlock() }; return requests }
    var requestCount: Int { receivedRequests.count }
    /// The most requests between arrival and the start of their answer at the same moment
    /// so far. Counted up to the answer, not to the closed connection, so that a client that
    /// opens its next connection as soon as it has a whole response is never over-counted.
    var peakConcurrentRequests: Int { lock.lock(); defer { lock.unlock() }; return mostRequestsInProgress }

    /// Stops accepting; the accept thread notices within one poll interval.
    func stop() {
        lock.lock(); stopped = true; lock.unlock()
    }

    deinit { stop() }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(fd) else { return }
        let number: Int = {
            lock.lock(); defer { lock.unlock() }
            requests.append(request)
            requestsInProgress += 1
            mostRequestsInProgress = max(mostRequestsInProgress, requestsInProgress)
            return requests.count
        }()
        let response = handler(request, number)
        let waited = response.delay <= 0 || Self.waitForHangUp(fd, seconds: min(response.delay, 10))
        lock.lock(); requestsInProgress -= 1; lock.unlock()
        guard waited else { return }
        switch response.behaviour {
        case .hang(let seconds):
            _ = Self.waitForHangUp(fd, seconds: min(seconds, 30))
            return
        case .closeWithoutResponse:
            return
        case .normal, .endless, .trickle:
            break
        }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var headers = response.headers
        if !response.omitContentLength, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            headers.append(("Content-Length", "\(response.body.count)"))
        }
        headers.append(("Connection", "close"))
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard sendAll(fd, Array(head.utf8)) else { return }
        switch response.behaviour {
        case .endless(let chunk):
            // Until the client hangs up (a send fails), or 30 s / 16 GiB as a backstop.
            let start = ContinuousClock.now
            var sent = 0
            while sent < 16 << 30, ContinuousClock.now - start < .seconds(30), sendAll(fd, chunk) { sent += chunk.count }
            return
        case .trickle(let bytesPerTick, let interval):
            var offset = 0
            while offset < response.body.count {
                let end = min(response.body.count, offset + max(1, bytesPerTick))
                guard sendAll(fd, Array(response.body[offset..<end])), Self.waitForHangUp(fd, seconds: interval) else { return }
                offset = end
            }
            return
        default:
            break
        }
        let body = response.truncateBodyAfter.map { Array(response.body.prefix($0)) } ?? response.body
        _ = sendAll(fd, body)
        if response.truncateBodyAfter != nil {
            // Let the partial body reach the client before the connection drops.
            Thread.sleep(forTimeInterval: 0.05)
        }
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Waits `seconds` unless the client hangs up first; true when the wait ran its course
    /// (the client is still there).
    static func waitForHangUp(_ fd: Int32, seconds: TimeInterval) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < end {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 20)
            if ready > 0 {
                if poller.revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0 { return false }
                // Readable: the client hung up (recv gives 0 or an error), or sent stray bytes
                // (none expected), which are drained.
                var scratch = [UInt8](repeating: 0, count: 512)
                let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { return false }
            }
        }
        return true
    }

    /// Reads up to the blank line ending the headers (bodies are not expected: GET only).
    private func readRequest(_ fd: Int32) -> Request? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while data.count < 65536 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            data += chunk[0..<n]
            if data.count >= 4, (0...(data.count - 4)).contains(where: { Array(data[$0..<($0 + 4)]) == terminator }) { break }
        }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 429: return "Too Many Requests"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }

    /// A handler serving `root/<path>` files; missing files are 404.
    static func directory(_ root: String) -> Handler {
        { request, _ in
            let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
            guard !path.contains(".."), let data = FileManager.default.contents(atPath: root + path) else {
                return .status(404)
            }
            return .ok([UInt8](data), contentType: "image/png")
        }
    }
}
