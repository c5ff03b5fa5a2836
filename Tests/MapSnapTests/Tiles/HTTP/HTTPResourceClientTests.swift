import Foundation
import Testing
@testable import MapSnap

/// Documents and byte ranges over HTTP (styles, TileJSON, sprites, icons, PMTiles parts)
/// against `LocalHTTPServer` on 127.0.0.1: checked, cached like tiles, offline from the cache.
@Suite struct HTTPResourceClientTests {
    static func client(cache: String, configure: (inout HTTPTileSource.Options) -> Void = { _ in }) throws -> HTTPResourceClient {
        var options = try HTTPTileSourceTests.options(cacheDirectory: cache)
        configure(&options)
        return HTTPResourceClient(options: options)
    }

    static let style = #"{"version": 8, "sources": {}, "layers": []}"#

    /// A site serving `style` at `/style.json`, its server, a fresh cache folder and the URL.
    static func styleSite() throws -> (site: TestSite, server: LocalHTTPServer, cache: String, url: String) {
        let site = TestSite()
        site.put("/style.json", text: style)
        let server = try site.start()
        return (site, server, try TileFixtures.temporaryDirectory(), server.baseURL + "/style.json")
    }

    @Test func fetchesOnceThenServesFromTheCacheAndOffline() throws {
        let (_, server, cache, url) = try Self.styleSite()
        defer { server.stop() }
        let first = try Self.client(cache: cache).get(url, kind: .json, limit: 1000, deadline: .none)
        #expect(first.bytes == Array(Self.style.utf8) && first.warnings.isEmpty)
        #expect(try Self.client(cache: cache).get(url, kind: .json, limit: 1000, deadline: .none).bytes == first.bytes)
        #expect(server.requestCount == 1)
        // Offline, the cache is all there is: there it is, and elsewhere it is a clear error.
        let offline = try Self.client(cache: cache) { $0.offline = true }
        #expect(try offline.get(url, kind: .json, limit: 1000, deadline: .none).bytes == first.bytes)
        #expect(throws: ResourceError.notCached(location: server.baseURL + "/other.json")) {
            try offline.get(server.baseURL + "/other.json", kind: .json, limit: 1000, deadline: .none)
        }
        #expect(server.requestCount == 1)
    }

    @Test func anExpiredCopyIsRefetchedAndKeptWhenTheRefreshFails() throws {
        let (site, server, cache, url) = try Self.styleSite()
        defer { server.stop() }
        let stale = try Self.client(cache: cache) { $0.cacheMaxAge = 0 }
        _ = try stale.get(url, kind: .json, limit: 1000, deadline: .none)
        let changed = #"{"version": 8, "name": "new", "sources": {}, "layers": []}"#
        site.put("/style.json", text: changed)
        #expect(try stale.get(url, kind: .json, limit: 1000, deadline: .none).bytes == Array(changed.utf8))
        #expect(server.requestCount == 2)
        site.failing = true
        let kept = try stale.get(url, kind: .json, limit: 1000, deadline: .none)
        #expect(kept.bytes == Array(changed.utf8))
        #expect(kept.warnings.count == 1 && kept.warnings[0].contains("using the expired cached copy"), "\(kept.warnings)")
    }

    @Test func anHTMLPageIsRefusedAndNotCached() throws {
        let site = TestSite()
        site.put("/style.json", text: "<!DOCTYPE html><p>Quota exceeded</p>", type: "text/html")
        site.put("/icon.png", text: "{\"error\": \"no key\"}", type: "image/png")
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let client = try Self.client(cache: cache)
        let url = server.baseURL + "/style.json"
        #expect(throws: ResourceError.invalid(location: url, reason: "the server sent an HTML page (36 bytes starting '<!DOCTYPE html><p>Quota '), not the JSON asked for")) {
            try client.get(url, kind: .json, limit: 1000, deadline: .none)
        }
        #expect(!FileManager.default.fileExists(atPath: client.cache!.dataPath(resource: url)))
        #expect(throws: ResourceError.invalid(location: server.baseURL + "/icon.png", reason: "expected a PNG or JPEG image, got 19 bytes starting '{\"error\": \"no key\"}'")) {
            try client.get(server.baseURL + "/icon.png", kind: .image, limit: 1000, deadline: .none)
        }
    }

    @Test func missingIsNilAndRememberedAndOtherErrorsNameTheURLWithoutSecrets() throws {
        let server = try LocalHTTPServer { request, _ in
            request.path.hasPrefix("/gone") ? .status(404) : request.path.hasPrefix("/big") ? .ok(Array(repeating: 0x7B, count: 5000)) : .status(403)
        }
        defer { server.stop() }
        let client = try Self.client(cache: try TileFixtures.temporaryDirectory())
        #expect(try client.get(server.baseURL + "/gone.json", kind: .json, limit: 100, deadline: .none).bytes == nil)
        #expect(try client.get(server.baseURL + "/gone.json", kind: .json, limit: 100, deadline: .none).bytes == nil)
        #expect(server.requestCount == 1)
        do {
            _ = try client.get(server.baseURL + "/key.json?access_token=SECRET", kind: .json, limit: 100, deadline: .none)
            Issue.record("a 403 must throw")
        } catch {
            #expect(error.description == "\(server.baseURL)/key.json?access_token=REDACTED: HTTP 403 (an API key missing or refused?)")
        }
        do {
            _ = try client.get(server.baseURL + "/big.json", kind: .json, limit: 100, deadline: .none)
            Issue.record("a body over the limit must throw")
        } catch {
            #expect(error.isTransient && error.description.contains("exceeds the limit of 100 bytes"), "\(error)")
        }
    }

    @Test func byteRangesComeWithTheTotalSizeAndAreCached() throws {
        let site = TestSite()
        let body = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        site.put("/a.bin", body, type: "application/octet-stream")
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let url = server.baseURL + "/a.bin"
        let slice = try Self.client(cache: cache).slice(url, range: 100...199, limit: 100, deadline: .none)
        #expect(slice.bytes == Array(body[100...199]) && slice.totalSize == 50_000)
        #expect(server.receivedRequests.last?.headers["range"] == "bytes=100-199")
        // A range running past the end gives what there is.
        let tail = try Self.client(cache: cache).slice(url, range: 49_990...50_100, limit: 111, deadline: .none)
        #expect(tail.bytes == Array(body[49_990...]) && tail.totalSize == 50_000)
        let offline = try Self.client(cache: cache) { $0.offline = true }
        #expect(try offline.slice(url, range: 100...199, limit: 100, deadline: .none).bytes == slice.bytes)
        #expect(server.requestCount == 2)
    }

    @Test func aServerIgnoringRangesIsUsedForSmallFilesAndNamedForLargeOnes() throws {
        let site = TestSite()
        site.honoursRanges = false
        site.put("/small.bin", Array(0..<200), type: "application/octet-stream")
        site.put("/large.bin", Array(repeating: 1, count: 100_000), type: "application/octet-stream")
        let server = try site.start()
        defer { server.stop() }
        let client = try Self.client(cache: try TileFixtures.temporaryDirectory())
        let small = try client.slice(server.baseURL + "/small.bin", range: 10...19, limit: 1000, deadline: .none)
        #expect(small.bytes == Array(10..<20) && small.totalSize == 200)
        do {
            _ = try client.slice(server.baseURL + "/large.bin", range: 0...99, limit: 1000, deadline: .none)
            Issue.record("a whole 100 kB body for a 100-byte range must throw")
        } catch {
            #expect(error.description.contains("the server may not support range requests"), "\(error)")
        }
    }

    @Test(arguments: [
        ("bytes 0-99/1000", [0, 99, 1000]), ("bytes 5-5/6", [5, 5, 6]), ("Bytes 1-2/3", [1, 2, 3]),
        ("bytes 0-99/*", nil), ("bytes 10-5/100", nil), ("bytes 0-100/100", nil), ("items 0-1/2", nil), ("bytes 0-1", nil),
    ] as [(String, [UInt64]?)])
    func contentRangeHeaders(text: String, expected: [UInt64]?) {
        let parsed = ContentRange(text)
        #expect(parsed.map { [$0.first, $0.last, $0.total] } == expected)
    }

    /// Issue 28, finding 8: an icon URL that hangs on the tile host opens the icons' breaker
    /// for that host, never the tiles': the host's maps keep their tiles.
    @Test func aHangingIconOnTheTileHostLeavesItsTilesAlone() throws {
        let tileBytes = try HTTPTileSourceTests.fixtureBytes(HTTPTileSourceTests.tile)
        let server = try LocalHTTPServer { request, _ in
            request.path.hasPrefix("/icons/") ? LocalHTTPServer.Response(status: 200, behaviour: .hang(seconds: 5))
                                              : .ok(tileBytes, contentType: "image/png")
        }
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let configure: (inout HTTPTileSource.Options) -> Void = {
            $0.timeout = 0.2
            $0.maxRetries = 2
            $0.breakerThreshold = 3
            $0.breakerCooldown = 20
        }
        let icons = try Self.client(cache: cache, configure: configure)
        let icon = server.baseURL + "/icons/pin.png"
        #expect(throws: ResourceError.self) { try icons.get(icon, kind: .image, limit: 1 << 20, deadline: .none) }
        #expect(server.requestCount == 3, "three timeouts in a row")
        // The icons' breaker is open: the next icon fails at once, without a request.
        #expect {
            try icons.get(server.baseURL + "/icons/other.png", kind: .image, limit: 1 << 20, deadline: .none)
        } throws: { error in
            "\(error)".contains("failed 3 times in a row")
        }
        #expect(server.requestCount == 3)
        // The same host's tiles still load.
        let tiles = try HTTPTileSourceTests.source(server, cacheDirectory: cache, configure: configure)
        #expect(try tiles.load(HTTPTileSourceTests.tile) == tileBytes)
        #expect(server.requestCount == 4)
    }
}
