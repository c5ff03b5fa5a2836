import Foundation
import Testing
@testable import MapSnap
#if canImport(Glibc)
import Glibc
#endif

/// `HTTPServer` against clients an attacker would write (issue 28): slow readers, slow
/// writers, thousands of parameters, ambiguous framing, a blocked log. Every test uses small
/// limits and loopback sockets, tens at most, and bounds each wait.
@Suite(.serialized) struct HTTPServerHostileClientTests {
    /// A running `HTTPServer` with a handler and the records it reported.
    final class Running: Sendable {
        let server: HTTPServer
        let port: Int
        let records = Locked<[HTTPExchangeRecord]>([])
        let handled = Locked<Int>(0)

        init(_ configure: (inout HTTPServer.Settings) -> Void = { _ in },
             handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void = { _, responder in responder.respond(.text(200, "ok")) }) throws {
            var settings = HTTPServer.Settings(address: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false))
            configure(&settings)
            let records = self.records
            let handled = self.handled
            server = HTTPServer(settings: settings, handler: { request, responder in
                handled.withLock { $0 += 1 }
                handler(request, responder)
            }, completion: { record in records.withLock { $0.append(record) } })
            port = try server.start()
        }

        deinit { server.stop() }

        /// Waits (bounded) until `condition` holds.
        func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(TestEnvironment.seconds(seconds))
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return condition()
        }
    }

    // MARK: Finding 2: slow readers

    @Test func slowReadersOfOneBodyShareItAndTheSendingCapAnswers503() throws {
        let size = 8 << 20
        let body = HTTPBody([UInt8](repeating: 0x5A, count: size))
        let readers = 12, extra = 4
        let running = try Running({
            $0.maximumSendingBytes = readers * size
            $0.perClientConnectionLimit = 0
        }, handler: { _, responder in responder.respond(HTTPResponse(status: 200, body: body)) })
        let before = Self.residentBytes()
        var slow: [Int32] = []
        defer { slow.forEach { close($0) } }
        for _ in 0..<readers {
            // A client that asks and then reads nothing.
            let fd = try Self.connect(port: running.port, receiveBuffer: 4_096)
            slow.append(fd)
            try HTTPTestClient.send(fd, Array("GET /map HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        }
        #expect(running.wait { running.server.sendingBytes == readers * size }, "sending \(running.server.sendingBytes)")
        // Each connection holds the one shared body, not a copy: 12 copies would be 96 MB.
        let grown = Self.residentBytes() - before
        #expect(grown < 40 << 20, "resident memory grew by \(grown >> 20) MB for \(readers) slow readers of one 8 MB body")
        // Beyond the cap: 503 with Retry-After, at once.
        for _ in 0..<extra {
            let response = try HTTPTestClient.request(port: running.port, target: "/map", timeoutSeconds: 10)
            #expect(response.status == 503)
            #expect(response.headers["retry-after"] == "1")
        }
        slow.forEach { close($0) }
        slow = []
        #expect(running.wait { running.server.sendingBytes == 0 }, "the bytes of closed connections are given back")
    }

    @Test func connectionsGetAModestSendBuffer() throws {
        let running = try Running({ $0.sendBufferBytes = 32_768 }, handler: { _, responder in responder.respond(.text(200, "ok")) })
        let fd = try Self.connect(port: running.port)
        defer { close(fd) }
        #expect(running.wait { running.server.openConnections == 1 })
        // The server's end of this connection: the socket of this process whose peer is `fd`.
        let serverSide = try #require(Self.peerSocket(of: fd))
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(serverSide, SOL_SOCKET, SO_SNDBUF, &size, &length)
        // Linux doubles the value asked for; its default grows to megabytes.
        #expect(size == 65_536, "SO_SNDBUF \(size)")
    }

    // MARK: Finding 4: slowloris

    @Test func aHeadTrickledByteByByteIsCutAtTheHeadDeadline() throws {
        let running = try Running({ $0.headerTimeoutSeconds = 1; $0.connectionTimeoutSeconds = 60 })
        let fd = try HTTPTestClient.connect(port: running.port, timeoutSeconds: 10)
        defer { close(fd) }
        let started = Date()
        try HTTPTestClient.send(fd, Array("GET /health HTTP/1.1\r\nX-Slow: ".utf8))
        // One byte every 100 ms keeps the idle timeout from ever firing.
        var cut = false
        while Date().timeIntervalSince(started) < TestEnvironment.seconds(6) {
            if send(fd, "a", 1, Int32(MSG_NOSIGNAL)) < 0 { cut = true; break }
            var probe = [UInt8](repeating: 0, count: 256)
            let n = probe.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n >= 0 {
                // Closed (0), or the 408 before the close.
                cut = true
                #expect(n == 0 || String(decoding: probe.prefix(n), as: UTF8.self).hasPrefix("HTTP/1.1 408"))
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(cut, "the trickling connection was still open after \(elapsed) s")
        #expect(elapsed < TestEnvironment.seconds(4))
        #expect(running.wait { running.records.withLock { $0.contains { $0.status == 408 && $0.outcome == .timedOut } } },
                "the cut connection is logged")
        #expect(running.handled.withLock { $0 } == 0)
    }

    @Test func aBodyBelowTheMinimumRateIsCut() throws {
        let running = try Running({ $0.headerTimeoutSeconds = 0.5; $0.minimumBodyBytesPerSecond = 1_000; $0.connectionTimeoutSeconds = 60 })
        let fd = try HTTPTestClient.connect(port: running.port, timeoutSeconds: 10)
        defer { close(fd) }
        let started = Date()
        try HTTPTestClient.send(fd, Array("POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8))
        var cut = false
        while Date().timeIntervalSince(started) < TestEnvironment.seconds(6) {
            // 10 bytes per 100 ms: 100 bytes/s, a tenth of the minimum.
            if send(fd, "0123456789", 10, Int32(MSG_NOSIGNAL)) < 0 { cut = true; break }
            var probe = [UInt8](repeating: 0, count: 256)
            let n = probe.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n >= 0 { cut = true; break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(cut, "the slow body was still being read after \(Date().timeIntervalSince(started)) s")
        #expect(running.wait { running.records.withLock { $0.contains { $0.status == 408 && $0.path == "/render" } } })
        #expect(running.handled.withLock { $0 } == 0)
    }

    @Test func oneAddressCannotTakeEveryConnection() throws {
        #expect(HTTPServer.Settings(address: .init(host: "127.0.0.1", port: 0, isIPv6: false)).perClientConnectionLimit > 0,
                "a per-IP connection limit is on by default")
        #expect(ServerConfiguration().connections.maximumPerClient > 0)
        let running = try Running({ $0.perClientConnectionLimit = 3; $0.connectionTimeoutSeconds = 60 })
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<3 { held.append(try HTTPTestClient.connect(port: running.port, timeoutSeconds: 5)) }
        #expect(running.wait { running.server.openConnections == 3 })
        // A fourth from the same address is closed without an answer…
        let refused = try HTTPTestClient.exchange(port: running.port, chunks: [Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)],
                                                  timeoutSeconds: 5)
        #expect(refused.isEmpty, "\(String(decoding: refused, as: UTF8.self))")
        // …while another address (127.0.0.2 is loopback too) is served: a probe still answers.
        let probe = try Self.connect(port: running.port, from: "127.0.0.2")
        defer { close(probe) }
        try HTTPTestClient.send(probe, Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let answer = try Self.readAll(probe)
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    // MARK: Finding 5: many parameters

    @Test(arguments: [2_000, 8_000])
    func thousandsOfParametersAre414AndLogged(count: Int) throws {
        let running = try Running()
        let query = (0..<count).map { "v\($0)=x" }.joined(separator: "&")
        let started = Date()
        let response = try HTTPTestClient.request(port: running.port, target: "/staticmap?" + query, timeoutSeconds: 10)
        #expect(response.status == 414)
        #expect(response.text.contains("more than 1000 query parameters"))
        #expect(Date().timeIntervalSince(started) < TestEnvironment.seconds(5))
        #expect(running.wait { running.records.withLock { $0.contains { $0.status == 414 && $0.path == "/staticmap" } } })
        #expect(running.handled.withLock { $0 } == 0)
    }

    @Test func manyParametersWithinTheCapReachTheHandler() throws {
        let seen = Locked<Int>(0)
        let running = try Running(handler: { request, responder in
            seen.withLock { $0 = request.query.count }
            responder.respond(.text(200, "ok"))
        })
        // 800 × `&v=1`: a legitimate repeated parameter, 3.3 KB.
        let target = "/staticmap?center=1,2" + String(repeating: "&v=1", count: 800)
        #expect(try HTTPTestClient.request(port: running.port, target: target, timeoutSeconds: 10).status == 200)
        #expect(seen.withLock { $0 } == 801)
    }

    @Test func headersTooLargeForLibmicrohttpdAreAnsweredAndLogged() throws {
        let running = try Running()
        let headers = (0..<3_000).map { ("X-H\($0)", "1") }
        let response = try HTTPTestClient.request(port: running.port, target: "/health", headers: headers, timeoutSeconds: 10)
        #expect(response.status == 431)
        #expect(running.wait { running.records.withLock { $0.contains { $0.status == 431 } } }, "the refusal is logged")
    }

    // MARK: Finding 11: framing, proxies

    @Test(arguments: [
        "Content-Length: 2\r\nContent-Length: 2\r\n",
        "Content-Length: 2\r\nContent-Length: 40\r\n",
        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
    ])
    func ambiguousFramingIsRefusedBeforeTheHandler(headers: String) throws {
        let running = try Running()
        let raw = try HTTPTestClient.exchange(port: running.port, chunks: [Array("POST /render HTTP/1.1\r\nHost: x\r\n\(headers)\r\n{}".utf8)],
                                              timeoutSeconds: 10)
        let response = try HTTPTestClient.parse(raw)
        #expect(response.status == 400, "\(response)")
        #expect(running.handled.withLock { $0 } == 0)
    }

    @Test func forwardedForNamesTheClientOnlyBehindATrustedProxy() throws {
        let seen = Locked<[String]>([])
        let handler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
            seen.withLock { $0.append(request.clientAddress) }
            responder.respond(.text(200, "ok"))
        }
        let direct = try Running(handler: handler)
        let proxied = try Running({ $0.trustedProxies = ["127.0.0.1", "10.0.0.2"] }, handler: handler)
        let header = [("X-Forwarded-For", "198.51.100.1, 203.0.113.9, 10.0.0.2")]
        _ = try HTTPTestClient.request(port: direct.port, target: "/", headers: header)
        _ = try HTTPTestClient.request(port: proxied.port, target: "/", headers: header)
        _ = try HTTPTestClient.request(port: proxied.port, target: "/")
        _ = try HTTPTestClient.request(port: proxied.port, target: "/", headers: [("X-Forwarded-For", "not-an-address")])
        // Untrusted peer: its header is ignored. Trusted: the rightmost untrusted address
        // (198.51.100.1 is only what the client claimed).
        #expect(seen.withLock { $0 } == ["127.0.0.1", "203.0.113.9", "127.0.0.1", "127.0.0.1"])
        #expect(proxied.records.withLock { $0.contains { $0.clientAddress == "203.0.113.9" } })
    }

    // MARK: Finding 12: the event loop does only I/O

    @Test func aSlowHandlerDoesNotDelayAnotherConnection() throws {
        let release = DispatchSemaphore(value: 0)
        let running = try Running({ $0.ioThreads = 1 }, handler: { request, responder in
            if request.path == "/slow" { _ = release.wait(timeout: .now() + 20) }
            responder.respond(.text(200, request.path))
        })
        defer { release.signal() }
        let slow = try HTTPTestClient.connect(port: running.port, timeoutSeconds: 30)
        defer { close(slow) }
        try HTTPTestClient.send(slow, Array("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(running.wait { running.handled.withLock { $0 } == 1 })
        // The one event-loop thread is free while the slow handler works.
        let fast = try HTTPTestClient.request(port: running.port, target: "/fast", timeoutSeconds: 5)
        #expect(fast.status == 200 && fast.text == "/fast\n")
        release.signal()
        #expect(try HTTPTestClient.parse(Self.readAll(slow)).text == "/slow\n")
    }

    // MARK: Helpers

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A connected socket to 127.0.0.1:`port` from `source`, with a small receive buffer when asked.
    static func connect(port: Int, from source: String? = nil, receiveBuffer: Int32 = 0) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClient.Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: Int(TestEnvironment.seconds(10)), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if receiveBuffer > 0 {
            var size = receiveBuffer
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            _ = inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw HTTPTestClient.Failure(description: "bind \(source) failed: errno \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw HTTPTestClient.Failure(description: "connect failed: errno \(errno)") }
        return fd
    }

    static func readAll(_ fd: Int32) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { out += buffer[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            return out
        }
    }

    /// The socket of this process that is the other end of `fd` (a loopback connection).
    static func peerSocket(of fd: Int32) -> Int32? {
        var mine = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &mine) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) } }
        for candidate in Int32(3)..<Int32(4_096) where candidate != fd {
            var peer = sockaddr_in()
            var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(candidate, $0, &peerLength) }
            }
            guard ok == 0, peer.sin_family == sa_family_t(AF_INET), peer.sin_port == mine.sin_port,
                  peer.sin_addr.s_addr == mine.sin_addr.s_addr else { continue }
            return candidate
        }
        return nil
    }
}
