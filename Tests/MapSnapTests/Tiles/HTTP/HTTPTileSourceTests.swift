import Foundation
import Testing
@testable import MapSnap

/// Network behaviour against `LocalHTTPServer` on 127.0.0.1: no outside network, short
/// timeouts, every wait bounded.
@Suite struct HTTPTileSourceTests {
    /// The six raster fixture tiles (12 and 13 around Helsinki).
    static let fixtureTiles: [TileID] = [
        TileID(z: 12, x: 2331, y: 1185), TileID(z: 12, x: 2332, y: 1185),
        TileID(z: 13, x: 4663, y: 2370), TileID(z: 13, x: 4663, y: 2371),
        TileID(z: 13, x: 4664, y: 2370), TileID(z: 13, x: 4664, y: 2371),
    ].compactMap { $0 }
    static let tile = TileID(z: 12, x: 2331, y: 1185)!

    static func fixtureBytes(_ tile: TileID) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(TileFixtures.helsinkiRaster)/\(tile.z)/\(tile.x)/\(tile.y).png")))
    }

    /// Options for tests: a fresh cache directory and fast retries. The timeout is generous
    /// (the machine may be busy); timeout tests set their own short one. Breaker pauses and
    /// `Retry-After` holds are short because they are per `host:port` and process-wide: a
    /// later test's server may get the same ephemeral port.
    static func options(cacheDirectory: String? = nil) throws -> HTTPTileSource.Options {
        var options = HTTPTileSource.Options()
        options.timeout = 5
        options.retryBackoff = 0.01
        options.maxRetries = 2
        options.breakerCooldown = 1
        options.maxRetryAfter = 2
        options.cacheDirectory = try cacheDirectory ?? TileFixtures.temporaryDirectory()
        return options
    }

    /// A source on `server` (`.png` tiles unless `template` says otherwise) with `options(…)`.
    static func source(_ server: LocalHTTPServer, cacheDirectory: String? = nil, path: String = "/{z}/{x}/{y}.png",
                       configure: (inout HTTPTileSource.Options) -> Void = { _ in }) throws -> HTTPTileSource {
        var options = try options(cacheDirectory: cacheDirectory)
        configure(&options)
        return try HTTPTileSource(template: server.baseURL + path, options: options)
    }

    @Test func servesTheSameBytesAsTheDirectory() throws {
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(TileFixtures.helsinkiRaster))
        defer { server.stop() }
        let http = try Self.source(server)
        let directory = try DirectorySource(path: TileFixtures.helsinkiRaster)
        let missing = try #require(TileID(z: 13, x: 4665, y: 2370))
        let results = http.prefetch(Self.fixtureTiles + [missing] + Self.fixtureTiles)
        #expect(results.count == 7)
        for tile in Self.fixtureTiles {
            let expected = try #require(try directory.tileData(for: tile))
            #expect(try results[tile]?.result.get() == expected, "\(tile)")
            #expect(try http.tileData(for: tile) == expected)
        }
        #expect(try results[missing]?.result.get() == .some(nil))
        #expect(server.requestCount == 7)  // duplicates fetched once; the loop above hit the cache
        #expect(server.receivedRequests.allSatisfy { $0.headers["user-agent"] == HTTPTileSource.defaultUserAgent })
        #expect(HTTPTileSource.defaultUserAgent.hasPrefix("mapsnap/"))
        #expect(results.values.allSatisfy { $0.warnings.isEmpty })
    }

    @Test func secondFetchIsACacheHitEvenAcrossInstances() throws {
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(TileFixtures.helsinkiRaster))
        defer { server.stop() }
        let cacheDirectory = try TileFixtures.temporaryDirectory()
        let first = try Self.source(server, cacheDirectory: cacheDirectory)
        let bytes = try first.tileData(for: Self.tile)
        #expect(server.requestCount == 1)
        let second = try Self.source(server, cacheDirectory: cacheDirectory)
        #expect(try second.tileData(for: Self.tile) == bytes)
        #expect(try first.tileData(for: Self.tile) == bytes)
        #expect(server.requestCount == 1)
    }

    @Test func serverErrorsAreRetriedThenSucceed() throws {
        let body = try Self.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, n in n <= 2 ? .status(503) : .ok(body) }
        defer { server.stop() }
        let source = try Self.source(server)
        #expect(try source.tileData(for: Self.tile) == body)
        #expect(server.requestCount == 3)
    }

    @Test func persistentServerErrorThrowsAndCachesNothing() throws {
        let server = try LocalHTTPServer { _, _ in .status(500) }
        defer { server.stop() }
        let source = try Self.source(server)
        let url = source.url(for: Self.tile)
        #expect(throws: HTTPTileSourceError.serverError(url: url, status: 500, attempts: 3)) {
            try source.load(Self.tile)
        }
        #expect(server.requestCount == 3)
        #expect(try #require(source.cache).lookup(Self.tile) == nil)
    }

    @Test func timeoutThrowsAndCachesNothing() throws {
        let body = try Self.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, _ in LocalHTTPServer.Response(status: 200, body: body, delay: 1.5) }
        defer { server.stop() }
        let source = try Self.source(server) { $0.timeout = 0.3; $0.maxRetries = 1 }
        let url = source.url(for: Self.tile)
        #expect(throws: HTTPTileSourceError.timedOut(url: url, seconds: 0.3, attempts: 2)) {
            try source.load(Self.tile)
        }
        #expect(server.requestCount == 2)
        #expect(try #require(source.cache).lookup(Self.tile) == nil)
    }

    @Test func truncatedBodyThrowsAndCachesNothing() throws {
        let body = try Self.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, _ in
            LocalHTTPServer.Response(status: 200, body: body, truncateBodyAfter: body.count / 2)
        }
        defer { server.stop() }
        let source = try Self.source(server) { $0.maxRetries = 1 }
        do {
            _ = try source.load(Self.tile)
            Issue.record("a truncated body was accepted")
        } catch {
            // curl may report the short read itself; either way it is a failed attempt.
            switch error {
            case .truncatedBody(_, let expected, let received, let attempts):
                #expect(expected == body.count && received < expected && attempts == 2)
            case .connectionFailed(_, _, let attempts):
                #expect(attempts == 2)
            default:
                Issue.record("unexpected \(error)")
            }
        }
        #expect(server.requestCount == 2)
        #expect(try #require(source.cache).lookup(Self.tile) == nil)
    }

    /// (declare Content-Length?) Oversized bodies are cut off whether the size is declared up
    /// front or only discovered while streaming, and are not retried or cached.
    @Test(arguments: [true, false])
    func oversizedBodyIsRejected(declared: Bool) throws {
        let body = [UInt8](repeating: 7, count: 5000)
        let server = try LocalHTTPServer { _, _ in
            LocalHTTPServer.Response(status: 200, body: body, omitContentLength: !declared)
        }
        defer { server.stop() }
        let source = try Self.source(server) { $0.maxTileBytes = 1000 }
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            guard case .bodyTooLarge(_, let size, 1000)? = error as? HTTPTileSourceError else { return false }
            return declared ? size == 5000 : size > 1000
        }
        #expect(server.requestCount == 1)
        #expect(try #require(source.cache).lookup(Self.tile) == nil)
    }

    @Test func notFoundIsAbsentAndRemembered() throws {
        let server = try LocalHTTPServer { _, _ in .status(404) }
        defer { server.stop() }
        let source = try Self.source(server)
        #expect(try source.tileData(for: Self.tile) == nil)
        #expect(try source.tileData(for: Self.tile) == nil)
        #expect(server.requestCount == 1)
        #expect(try #require(source.cache).lookup(Self.tile)?.entry == .absent)
    }

    @Test func noContentIsAbsent() throws {
        let server = try LocalHTTPServer { _, _ in .status(204) }
        defer { server.stop() }
        #expect(try Self.source(server).tileData(for: Self.tile) == nil)
    }

    @Test func forbiddenIsAbsentWithAWarningAndNotCached() throws {
        let server = try LocalHTTPServer { _, _ in .status(403) }
        defer { server.stop() }
        let source = try Self.source(server)
        let url = source.url(for: Self.tile)
        for _ in 0..<2 {
            let fetched = source.fetch(Self.tile)
            #expect(try fetched.result.get() == nil)
            #expect(fetched.warnings == [.clientError(tile: Self.tile, url: url, status: 403)])
        }
        #expect(server.requestCount == 2)
    }

    @Test func htmlInsteadOfAnImageIsRejectedAndNotCached() throws {
        let server = try LocalHTTPServer { _, _ in .ok(Array("<html>quota exceeded</html>".utf8), contentType: "text/html") }
        defer { server.stop() }
        let source = try Self.source(server)
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            guard case .invalidBody(_, let reason)? = error as? HTTPTileSourceError else { return false }
            return reason.contains("<html>")
        }
        #expect(try #require(source.cache).lookup(Self.tile) == nil)
    }

    @Test func staleEntryIsRefetched() throws {
        let old = try Self.fixtureBytes(Self.fixtureTiles[0]), new = try Self.fixtureBytes(Self.fixtureTiles[1])
        let server = try LocalHTTPServer { _, n in .ok(n == 1 ? old : new) }
        defer { server.stop() }
        let source = try Self.source(server)
        #expect(try source.tileData(for: Self.tile) == old)
        let path = try #require(source.cache).dataPath(for: Self.tile)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-8 * 24 * 3600)], ofItemAtPath: path)
        #expect(try source.tileData(for: Self.tile) == new)
        #expect(server.requestCount == 2)
        #expect(try #require(source.cache).lookup(Self.tile) == .init(entry: .data(new), isFresh: true))
    }

    @Test func staleEntryIsUsedWhenTheRefreshFails() throws {
        let old = try Self.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer { _, n in n == 1 ? .ok(old) : .status(500) }
        defer { server.stop() }
        let source = try Self.source(server) { $0.maxRetries = 0 }
        #expect(try source.tileData(for: Self.tile) == old)
        let path = try #require(source.cache).dataPath(for: Self.tile)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-8 * 24 * 3600)], ofItemAtPath: path)
        let fetched = source.fetch(Self.tile)
        #expect(try fetched.result.get() == old)
        let warnings = fetched.warnings
        #expect(warnings.count == 1)
        if case .servedStale(let tile, let reason)? = warnings.first {
            #expect(tile == Self.tile && reason.contains("500"))
        } else {
            Issue.record("\(warnings)")
        }
    }

    @Test func corruptCacheEntryIsReplaced() throws {
        let body = try Self.fixtureBytes(Self.tile)
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(TileFixtures.helsinkiRaster))
        defer { server.stop() }
        let source = try Self.source(server)
        let cache = try #require(source.cache)
        // A PNG cut short, as a crash of some older tool could have left it.
        try cache.store(Array(body.prefix(body.count / 2)), for: Self.tile)
        let fetched = source.fetch(Self.tile)
        #expect(try fetched.result.get() == body)
        #expect(server.requestCount == 1)
        #expect(cache.lookup(Self.tile)?.entry == .data(body))
        #expect(fetched.warnings == [.corruptCacheEntry(tile: Self.tile, path: cache.dataPath(for: Self.tile))])
    }

    @Test func offlineModeNeverTouchesTheNetwork() throws {
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(TileFixtures.helsinkiRaster))
        defer { server.stop() }
        let cacheDirectory = try TileFixtures.temporaryDirectory()
        let online = try Self.source(server, cacheDirectory: cacheDirectory)
        let body = try online.tileData(for: Self.tile)
        let offline = try Self.source(server, cacheDirectory: cacheDirectory) { $0.offline = true }
        let path = try #require(offline.cache).dataPath(for: Self.tile)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-30 * 24 * 3600)], ofItemAtPath: path)
        #expect(try offline.tileData(for: Self.tile) == body)  // stale, but offline takes it
        let other = Self.fixtureTiles[1]
        let fetched = offline.fetch(other)
        #expect(try fetched.result.get() == nil)
        #expect(fetched.warnings == [.notCached(tile: other)])
        #expect(server.requestCount == 1)
    }

    @Test func connectionRefusedIsAConnectionError() throws {
        let dead = try DeadPort()
        let template = dead.baseURL + "/{z}/{x}/{y}.png"
        var options = HTTPTileSource.Options()
        options.timeout = 0.5
        options.maxRetries = 1
        options.retryBackoff = 0.01
        options.cacheEnabled = false
        let source = try HTTPTileSource(template: template, options: options)
        #expect(source.cache == nil)
        #expect {
            try source.load(Self.tile)
        } throws: { error in
            guard let e = error as? HTTPTileSourceError else { return false }
            switch e {
            case .connectionFailed(_, _, 2), .timedOut(_, _, 2): return true
            default: return false
            }
        }
        withExtendedLifetime(dead) {}
    }

    /// Synchronous calls from far more Dispatch pool threads than there are cores complete:
    /// each transfer runs on its caller's thread, so blocked pool threads cannot starve it.
    /// A starved transfer would never start, so the time-out only has to be longer than any
    /// machine needs for one local fetch (it was 2 s, which a loaded or sanitized run could
    /// exceed); the group's wait bounds the test.
    @Test func synchronousCallsFromDispatchWorkersDoNotStarve() throws {
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(TileFixtures.helsinkiRaster))
        defer { server.stop() }
        let source = try Self.source(server) { $0.cacheEnabled = false; $0.timeout = 60; $0.maxRetries = 0 }
        let tiles = Self.fixtureTiles
        let count = 24
        let sizes = Locked([Int](repeating: -1, count: count))
        let group = DispatchGroup()
        for i in 0..<count {
            DispatchQueue.global().async(group: group) {
                let bytes = (try? source.tileData(for: tiles[i % tiles.count])) ?? nil
                sizes.withLock { $0[i] = bytes?.count ?? -2 }
            }
        }
        #expect(group.wait(timeout: .now() + TestEnvironment.seconds(90)) == .success)
        let expected = try (0..<count).map { try Self.fixtureBytes(tiles[$0 % tiles.count]).count }
        #expect(sizes.withLock { $0 } == expected)
        #expect(server.requestCount == count)
    }

    @Test func jpegTilesAreCheckedBeforeCaching() throws {
        let good = try jpegFixture("rgb-baseline.jpg"), cut = try jpegFixture("truncated.jpg")
        let server = try LocalHTTPServer { request, _ in
            .ok(request.path.hasPrefix("/1/") ? good : cut, contentType: "image/jpeg")
        }
        defer { server.stop() }
        var options = HTTPTileSource.Options()
        options.cacheDirectory = try TileFixtures.temporaryDirectory()
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.jpg", options: options)
        let goodTile = try #require(TileID(z: 1, x: 0, y: 0)), cutTile = try #require(TileID(z: 2, x: 0, y: 0))
        #expect(try source.tileData(for: goodTile) == good)
        #expect(try RasterImageDecoder.decode(good, origin: "t").width == 32)
        #expect(throws: HTTPTileSourceError.invalidBody(url: source.url(for: cutTile),
                                                        reason: "JPEG without its end-of-image marker (truncated)")) {
            try source.load(cutTile)
        }
        let cache = try #require(source.cache)
        #expect(cache.lookup(goodTile)?.entry == .data(good))
        #expect(cache.lookup(cutTile) == nil)
    }

    @Test func gzippedVectorTilesArriveUncompressedAndAreCachedSo() throws {
        let raw = try TileFixtures.centralTileBytes()
        let gzipped = try Gzip.compress(raw)
        let server = try LocalHTTPServer { _, _ in .ok(gzipped, contentType: "application/x-protobuf") }
        defer { server.stop() }
        var options = HTTPTileSource.Options()
        options.cacheDirectory = try TileFixtures.temporaryDirectory()
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.pbf", options: options)
        #expect(source.metadata.format == .mvt)
        #expect(try source.tileData(for: TileFixtures.centralTile) == raw)
        #expect(try #require(source.cache).lookup(TileFixtures.centralTile)?.entry == .data(raw))
    }

    @Test func factoryOpensURLTemplates() throws {
        var options = HTTPTileSource.Options()
        options.cacheEnabled = false
        let source = try TileSources.open("https://tile.example.org/{z}/{x}/{y}.png", httpOptions: options)
        #expect((source as? HTTPTileSource)?.metadata.format == .png)
        #expect(throws: TileSourceError.self) { try TileSources.open("http://tile.example.org/{z}/{x}.png") }
        do {
            _ = try TileSources.open("http://tile.example.org/{z}/{x}.png")
        } catch {
            guard case .http(.invalidTemplate(let template, _)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(template == "http://tile.example.org/{z}/{x}.png")
        }
    }
}
