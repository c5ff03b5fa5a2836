import Foundation
import Testing
@testable import MapSnap

/// Issue #10's fault-injection cases against `HTTPTileSource`: each hostile server behaviour
/// ends the fetch within its limit, with a clear (and redacted) error, and leaves nothing in
/// the cache.
///
/// Bounds on elapsed time are upper bounds with generous slack (the machine is shared): they
/// catch a fetch that ignores its deadline, not a slow one.
@Suite struct HostileServerTests {
    static let tile = HTTPTileSourceTests.tile

    /// Names below the cache root (empty when nothing was cached, not even a folder's file).
    static func cachedFiles(_ source: HTTPTileSource) -> [String] {
        guard let cache = source.cache else { return [] }
        let all = FileManager.default.enumerator(atPath: cache.directory)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(".tile") || $0.hasSuffix(".absent") || $0.contains(".tmp-") }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double { FetchClock.seconds(from: start, to: .now) }

    // MARK: - Bodies

    /// (fetches at once) An endless body stops at the tile limit, alone or with others
    /// streaming at the same time, and is neither retried nor cached.
    @Test(arguments: [1, 4])
    func endlessBodyStopsAtTheTileLimit(parallel: Int) throws {
        let server = try LocalHTTPServer { _, _ in .endless }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { $0.maxTileBytes = 1 << 20 }
        let tiles = (0..<parallel).compactMap { TileID(z: 10, x: $0, y: 0) }
        let results = source.prefetch(tiles)
        for tile in tiles {
            #expect {
                try results[tile]?.result.get()
            } throws: { error in
                guard case .bodyTooLarge(_, let size, 1 << 20)? = error as? HTTPTileSourceError else { return false }
                return size > 1 << 20
            }
        }
        #expect(server.requestCount == parallel)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    /// (Content-Encoding?) A gzip bomb stops at the tile limit counted in decoded bytes,
    /// whether curl decodes it (`Content-Encoding: gzip`) or the source un-gzips a vector
    /// tile sent as a gzip file.
    @Test(arguments: [true, false])
    func gzipBombStopsAtTheDecodedLimit(encoded: Bool) throws {
        let bomb = HostileBodies.gigabyteGzipBomb
        #expect(bomb.count < 8 << 20)
        let server = try LocalHTTPServer { _, _ in
            encoded ? .gzipBomb : .ok(bomb, contentType: "application/x-protobuf")
        }
        defer { server.stop() }
        // The bomb is 6.8 MB on the wire: a limit above that lets the source's own gunzip meet it.
        let source = try HTTPTileSourceTests.source(server, path: "/{z}/{x}/{y}.pbf") { $0.maxTileBytes = 8 << 20 }
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            switch error as? HTTPTileSourceError {
            case .bodyTooLarge(_, let size, let limit)?: return encoded && limit == 8 << 20 && size > limit
            case .invalidBody(_, let reason)?: return !encoded && reason.contains("exceeds the limit of \(8 << 20) bytes")
            default: return false
            }
        }
        #expect(server.requestCount == 1)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    @Test func hugeContentLengthFailsBeforeTheBody() throws {
        let server = try LocalHTTPServer { _, _ in .hugeContentLength }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server)
        #expect(throws: HTTPTileSourceError.bodyTooLarge(url: source.url(for: Self.tile), size: 1_000_000_000_000,
                                                         limit: 32 << 20)) {
            try source.load(Self.tile)
        }
        #expect(server.requestCount == 1)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    /// (path, body) A 200 error page or JSON where a tile was expected fails validation for
    /// raster, vector and extension-less templates, and is never cached.
    @Test(arguments: [
        ("/{z}/{x}/{y}.png", "<!DOCTYPE html><html>Quota exceeded</html>"),
        ("/{z}/{x}/{y}.pbf", "<!DOCTYPE html><html>Quota exceeded</html>"),
        ("/{z}/{x}/{y}.pbf", "{\"error\": \"invalid key\"}"),
        ("/tiles/{z}/{x}/{y}", "<html><body>Log in</body></html>"),
        ("/tiles/{z}/{x}/{y}", "  [\"not\", \"a tile\"]"),
    ])
    func errorPageForATileIsNeverCached(path: String, page: String) throws {
        let server = try LocalHTTPServer { _, _ in .ok(Array(page.utf8), contentType: "text/html") }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server, path: path)
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            guard case .invalidBody(_, let reason)? = error as? HTTPTileSourceError else { return false }
            return reason.contains(String(page.trimmingCharacters(in: .whitespaces).prefix(5)))
        }
        #expect(server.requestCount == 1)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    // MARK: - Time

    @Test func hangingServerTimesOutOnEveryAttempt() throws {
        let server = try LocalHTTPServer { _, _ in .hang }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { $0.timeout = 0.3; $0.maxRetries = 1 }
        let start = ContinuousClock.now
        #expect(throws: HTTPTileSourceError.timedOut(url: source.url(for: Self.tile), seconds: 0.3, attempts: 2)) {
            try source.load(Self.tile)
        }
        #expect(Self.seconds(since: start) < 10)
        #expect(server.requestCount == 2)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    /// A deadline closer than the request timeout ends the fetch at the deadline.
    @Test func deadlineCutsAHangingRequestShort() throws {
        let server = try LocalHTTPServer { _, _ in .hang }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { $0.timeout = 20 }
        let start = ContinuousClock.now
        #expect(throws: HTTPTileSourceError.deadlineExceeded(url: source.url(for: Self.tile), attempts: 1)) {
            try source.load(Self.tile, deadline: Deadline(start + .milliseconds(800)))
        }
        #expect(Self.seconds(since: start) < 10)
        #expect(server.requestCount == 1)
    }

    /// (low-speed limit?) A body that trickles in is cut off by the request timeout, or
    /// sooner by the low-speed limit.
    @Test(arguments: [false, true])
    func tricklingBodyIsCutOff(lowSpeed: Bool) throws {
        let body = try HTTPTileSourceTests.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, _ in .trickle(body, interval: 0.2) }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { o in
            o.maxRetries = 0
            o.timeout = lowSpeed ? 30 : 1
            o.lowSpeedLimit = lowSpeed ? 100 : 0
            o.lowSpeedTime = 1
        }
        let start = ContinuousClock.now
        #expect(throws: HTTPTileSourceError.timedOut(url: source.url(for: Self.tile), seconds: lowSpeed ? 30 : 1, attempts: 1)) {
            try source.load(Self.tile, deadline: Deadline(start + .seconds(20)))
        }
        #expect(Self.seconds(since: start) < 15)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    // MARK: - Redirects

    @Test func redirectLoopStopsAfterFiveHops() throws {
        let server = try LocalHTTPServer { request, _ in .redirect(to: request.path) }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server)
        #expect(throws: HTTPTileSourceError.tooManyRedirects(url: source.url(for: Self.tile), limit: 5)) {
            try source.load(Self.tile)
        }
        #expect(server.requestCount == 6)  // the request and five redirects, not retried
    }

    @Test func sameOriginRedirectsAreFollowed() throws {
        let body = try HTTPTileSourceTests.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { request, _ in
            switch request.path {
            case "/moved/12/2331/1185.png": return .ok(body, contentType: "image/png")
            case "/again/12/2331/1185.png": return .redirect(to: "/moved/12/2331/1185.png", status: 307)
            default: return .redirect(to: "/again/12/2331/1185.png", status: 301)
            }
        }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server)
        #expect(try source.load(Self.tile) == body)
        #expect(server.requestCount == 3)
    }

    /// (allowed?) A redirect to another origin is refused (the other server sees nothing)
    /// unless the option allows it; the URLs in the error keep their secrets hidden.
    @Test(arguments: [false, true])
    func crossOriginRedirect(allowed: Bool) throws {
        let body = try HTTPTileSourceTests.fixtureBytes(Self.tile)
        let other = try LocalHTTPServer { _, _ in .ok(body, contentType: "image/png") }
        defer { other.stop() }
        let server = try LocalHTTPServer { _, _ in .redirect(to: other.baseURL + "/t.png?key=SECRET-2") }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server, path: "/{z}/{x}/{y}.png?access_token=SECRET-1") {
            $0.allowsCrossOriginRedirects = allowed
        }
        if allowed {
            #expect(try source.load(Self.tile) == body)
            #expect(other.requestCount == 1)
            return
        }
        do {
            _ = try source.load(Self.tile)
            Issue.record("a cross-origin redirect was followed")
        } catch {
            guard case .redirectRefused(let url, let location, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(url.hasSuffix("?access_token=REDACTED") && location.hasSuffix("?key=REDACTED"))
            #expect(reason.contains("another origin"))
            #expect(!error.description.contains("SECRET"), "\(error)")
        }
        #expect(other.requestCount == 0)
        #expect(server.requestCount == 1)
    }

    // MARK: - Politeness

    @Test func retryAfterIsWaitedFor() throws {
        let body = try HTTPTileSourceTests.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, n in n == 1 ? .retryAfter(1) : .ok(body, contentType: "image/png") }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { $0.retryBackoff = 0 }
        #expect(try source.load(Self.tile) == body)
        let requests = server.receivedRequests
        #expect(requests.count == 2)
        if requests.count == 2 {
            // A lower bound: the client may wait longer than asked, never less.
            #expect(FetchClock.seconds(from: requests[0].time, to: requests[1].time) >= 0.9)
        }
    }

    /// A `Retry-After` longer than allowed (2 s here) fails the tile at once, and holds the
    /// host's next requests without sending them. (30 s rather than an hour: the hold is per
    /// port, and a later test's server may get this one.)
    @Test func longRetryAfterFailsAtOnceAndHoldsTheHost() throws {
        let server = try LocalHTTPServer { _, _ in .retryAfter(30) }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server)
        #expect(throws: HTTPTileSourceError.rateLimited(url: source.url(for: Self.tile), status: 429, retryAfter: 30, attempts: 1)) {
            try source.load(Self.tile)
        }
        let next = try #require(TileID(z: 12, x: 2332, y: 1185))
        #expect {
            try source.load(next)
        } throws: { error in
            guard case .rateLimited(_, nil, let wait?, 0)? = error as? HTTPTileSourceError else { return false }
            return wait > 2 && wait <= 30
        }
        #expect(server.requestCount == 1)
        #expect(Self.cachedFiles(source).isEmpty)
    }

    /// (server) After three failures to connect in a row the host's breaker opens: later
    /// tiles fail at once without a request.
    @Test(arguments: ["closes", "refuses"])
    func deadHostTripsTheBreaker(kind: String) throws {
        let dead = try DeadPort()
        let server = try LocalHTTPServer { _, _ in LocalHTTPServer.Response(status: 200, behaviour: .closeWithoutResponse) }
        defer { server.stop() }
        var options = try HTTPTileSourceTests.options()
        options.breakerCooldown = 3
        let base = kind == "closes" ? server.baseURL : dead.baseURL
        let source = try HTTPTileSource(template: base + "/{z}/{x}/{y}.png", options: options)
        let start = ContinuousClock.now
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            guard case .connectionFailed(_, _, 3)? = error as? HTTPTileSourceError else { return false }
            return true
        }
        for x in 0..<5 {
            let tile = try #require(TileID(z: 12, x: x, y: 0))
            #expect {
                try source.load(tile)
            } throws: { error in
                guard case .hostUnavailable(_, let host, 3, let retryIn)? = error as? HTTPTileSourceError else { return false }
                return host.hasPrefix("127.0.0.1:") && retryIn <= 3
            }
        }
        #expect(Self.seconds(since: start) < 10)
        if kind == "closes" { #expect(server.requestCount == 3) }
        withExtendedLifetime(dead) {}
    }

    /// Sources of different options (as separate renders or batch jobs would open) share one
    /// connection cap per host.
    @Test func connectionCapIsSharedBySources() throws {
        let body = try HTTPTileSourceTests.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, _ in
            var r = LocalHTTPServer.Response.ok(body, contentType: "image/png")
            r.delay = 0.1
            return r
        }
        defer { server.stop() }
        let sources = try (0..<3).map { _ in
            try HTTPTileSourceTests.source(server) { $0.maxConcurrentRequests = 2; $0.cacheEnabled = false }
        }
        let tiles = (0..<6).compactMap { TileID(z: 10, x: $0, y: 1) }
        let counts = Locked([Int](repeating: 0, count: sources.count))
        DispatchQueue.concurrentPerform(iterations: sources.count) { i in
            // prefetch runs two threads per source: six callers for the host in all.
            let fetched = sources[i].prefetch(tiles).values.filter { (try? $0.result.get()) == body }.count
            counts.withLock { $0[i] = fetched }
        }
        #expect(counts.withLock { $0 } == [6, 6, 6])
        #expect(server.requestCount == 18)
        #expect(server.peakConcurrentRequests == 2)
    }

    /// A transfer that would pass the process-wide memory limit fails (and is retried), and
    /// gives its reservation back.
    @Test func transferMemoryLimitIsEnforced() throws {
        let server = try LocalHTTPServer { _, _ in .ok([UInt8](repeating: 0, count: 300_000), contentType: "image/png") }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server) { $0.maxTransferMemoryBytes = 100_000; $0.maxRetries = 1 }
        #expect(throws: HTTPTileSourceError.transferMemoryExhausted(url: source.url(for: Self.tile), limit: 100_000, attempts: 2)) {
            try source.load(Self.tile)
        }
        #expect(server.requestCount == 2)
    }

    // MARK: - Secrets

    /// Errors and warnings name the URL with its credentials masked.
    @Test func messagesNeverShowTheCredentials() throws {
        let server = try LocalHTTPServer { request, _ in request.path.hasPrefix("/12/") ? .status(403) : .status(500) }
        defer { server.stop() }
        let source = try HTTPTileSourceTests.source(server, path: "/{z}/{x}/{y}.png?api_key=SECRET&style=dark") {
            $0.maxRetries = 0
        }
        let forbidden = source.fetch(Self.tile)
        let failed = source.fetch(try #require(TileID(z: 3, x: 1, y: 1)))
        var texts = forbidden.warnings.map(\.description)
        if case .failure(let error) = failed.result { texts.append(error.description) } else { Issue.record("HTTP 500 was accepted") }
        #expect(forbidden.warnings.count == 1)
        for text in texts {
            #expect(!text.contains("SECRET"), "\(text)")
        }
        #expect(forbidden.warnings.first?.description.contains("api_key=REDACTED&style=dark") == true)
        #expect(source.metadata.name?.contains("SECRET") == false)
        #expect(server.receivedRequests.allSatisfy { $0.path.contains("api_key=SECRET") })
    }
}
