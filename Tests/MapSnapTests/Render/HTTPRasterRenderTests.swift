import Foundation
import Testing
@testable import MapSnap

/// Raster tiles over HTTP (a local server on 127.0.0.1) render exactly like the same tiles
/// read from disk, come from the cache the second time, and a failing server costs only
/// the failed tiles — with a warning and nothing bad in the cache.
@Suite(.serialized) struct HTTPRasterRenderTests {
    static let tiles = TestPaths.fixture("helsinki-raster-z12-13")

    func options(source: String, cache: String) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 300, height: 220, scale: 1, center: LatLng(60.1699, 24.9420), zoom: 12.8,
                                   style: TestPaths.plainStyle, source: source, attribution: "", showsScaleBar: false)
        o.http.cacheDirectory = cache
        o.http.timeout = 2
        o.http.retryBackoff = 0.01
        // Breakers and Retry-After holds are per host:port and process-wide; keep them short
        // in case a later test's server gets the same port.
        o.http.breakerCooldown = 1
        o.http.maxRetryAfter = 2
        return o
    }

    /// Files the cache holds (tiles, absent markers, temporaries).
    static func cachedFiles(_ cache: String) -> [String] {
        (FileManager.default.enumerator(atPath: cache)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".tile") || $0.hasSuffix(".absent") || $0.contains(".tmp-") }
    }

    @Test func httpMatchesDirectoryAndTheSecondRenderIsServedFromCache() throws {
        let server = try LocalHTTPServer(handler: LocalHTTPServer.directory(Self.tiles))
        defer { server.stop() }
        let cache = TestPaths.temporaryDirectory()
        let fromDisk = try MapSnapshotter(options: options(source: Self.tiles, cache: cache)).render()
        let template = server.baseURL + "/{z}/{x}/{y}.png"
        let first = try MapSnapshotter(options: options(source: template, cache: cache)).render()
        let firstSame = try first.pngData() == fromDisk.pngData()  // a Bool: Swift Testing would diff the arrays
        #expect(firstSame)
        let requests = server.requestCount
        #expect(requests >= 4)
        let second = try MapSnapshotter(options: options(source: template, cache: cache)).render()
        #expect(server.requestCount == requests, "the second render fetched again")
        let secondSame = try second.pngData() == fromDisk.pngData()
        #expect(secondSame)
        // The map is not blank: the tiles drew.
        #expect(fromDisk.image.color(atX: 150, y: 110) != Color(rgb: 0xF4F1EA))
    }

    /// Issue 28, finding 10: a map's tiles from a slow server are fetched at once, as many as
    /// the host allows, even with one thread per render; the cap holds.
    @Test(arguments: [1, 3, 8])
    func slowTilesAreFetchedConcurrentlyWithinTheHostCap(cap: Int) throws {
        let green = try PNGCodec.encode(Canvas(width: 256, height: 256, fill: Color(rgb: 0x30A030)))
        let server = try LocalHTTPServer { _, _ in
            LocalHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")], body: green, delay: 0.3)
        }
        defer { server.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // 3×3 tiles at zoom 12: a 512-px image centred on a tile's middle.
        var o = options(source: server.baseURL + "/{z}/{x}/{y}.png", cache: cache)
        o.width = 512
        o.height = 512
        o.zoom = 12
        o.center = WebMercator.unproject(WorldPoint(x: (2331.5) / 4096, y: (1185.5) / 4096))
        o.maximumThreads = 1
        o.http.maxConcurrentRequests = cap
        let snapshot = try MapSnapshotter(options: o).render()
        #expect(snapshot.baseMapTiles.failed == 0, "\(snapshot.warnings)")
        #expect(server.requestCount == 9)
        let peak = server.peakConcurrentRequests
        #expect(peak <= cap && peak >= min(cap, 3), "peak \(server.peakConcurrentRequests) with a cap of \(cap)")
    }

    @Test(arguments: ["500", "truncated"])
    func failingTileIsMissingWithAWarningAndNotCached(failure: String) throws {
        let bad = "/13/4663/2370.png"
        let serveDirectory = LocalHTTPServer.directory(Self.tiles)
        let server = try LocalHTTPServer { request, n in
            guard request.path == bad else { return serveDirectory(request, n) }
            if failure == "500" { return .status(500) }
            var r = serveDirectory(request, n)
            r.truncateBodyAfter = r.body.count / 2
            return r
        }
        defer { server.stop() }
        let cache = TestPaths.temporaryDirectory()
        let snap = try MapSnapshotter(options: options(source: server.baseURL + "/{z}/{x}/{y}.png", cache: cache)).render()
        #expect(snap.warnings.contains { $0.contains("13/4663/2370") }, "\(snap.warnings)")
        // Nothing anywhere in the cache holds the failed tile.
        let cached = FileManager.default.enumerator(atPath: cache)?.compactMap { $0 as? String } ?? []
        #expect(!cached.contains { $0.hasSuffix("13/4663/2370.png") || $0.hasSuffix("13/4663/2370") }, "\(cached)")
        // The other tiles drew.
        let good = try MapSnapshotter(options: options(source: Self.tiles, cache: cache)).render()
        let differs = snap.image.pixels != good.image.pixels
        #expect(differs)
        #expect(snap.image.color(atX: 290, y: 210) == good.image.color(atX: 290, y: 210))
    }
}

/// Renders against the fault-injection server: every hostile tile costs only itself, the
/// render ends by its deadline, and nothing bad reaches the cache.
@Suite(.serialized) struct HostileHTTPRenderTests {
    static let tiles = HTTPRasterRenderTests.tiles

    /// Each fixture tile of the render meets another hostile behaviour (the tiles around them
    /// are 404s).
    @Test func everyHostileTileIsSkippedWithinTheDeadline() throws {
        let serveDirectory = LocalHTTPServer.directory(Self.tiles)
        let server = try LocalHTTPServer { request, n in
            switch request.path.split(separator: "?").first ?? "" {
            case "/13/4663/2370.png": return .endless
            case "/13/4664/2370.png": return .gzipBomb
            case "/13/4663/2371.png": return .hang
            case "/13/4664/2371.png": return .htmlPage
            default: return serveDirectory(request, n)
            }
        }
        defer { server.stop() }
        let cache = TestPaths.temporaryDirectory()
        var o = HTTPRasterRenderTests().options(source: server.baseURL + "/{z}/{x}/{y}.png?token=SECRET", cache: cache)
        o.http.timeout = 30
        // Long enough for the limits, not the deadline, to stop the bomb and the endless body.
        o.renderTimeout = TestEnvironment.seconds(2)
        let start = ContinuousClock.now
        let snap = try MapSnapshotter(options: o, renderer: MapRenderer()).render()
        #expect(FetchClock.seconds(from: start, to: .now) < TestEnvironment.seconds(20))
        let skipped = snap.warnings.filter { $0.contains(" skipped: ") }
        #expect(skipped.count == 4, "\(snap.warnings)")
        #expect(skipped.contains { $0.contains("13/4663/2370") && $0.contains("tile limit") })
        #expect(skipped.contains { $0.contains("13/4664/2370") && $0.contains("tile limit") })
        #expect(skipped.contains { $0.contains("13/4663/2371") && $0.contains("time limit") })
        #expect(skipped.contains { $0.contains("13/4664/2371") && $0.contains("not a usable tile") })
        #expect(snap.warnings.allSatisfy { !$0.contains("SECRET") }, "\(snap.warnings)")
        // Only the 404s beside the fixture tiles are remembered (as absent markers).
        let cached = Self.cachedFiles(cache)
        #expect(!cached.isEmpty && cached.allSatisfy { $0.hasSuffix(".absent") }, "\(cached)")
    }

    static func cachedFiles(_ cache: String) -> [String] { HTTPRasterRenderTests.cachedFiles(cache) }

    /// Two renders sharing one renderer, and so one HTTP source, at once: each reports only
    /// the warnings of its own tiles.
    @Test func concurrentRendersReportOnlyTheirOwnWarnings() throws {
        let serveDirectory = LocalHTTPServer.directory(Self.tiles)
        // z12 tiles are forbidden; z13 tiles are served.
        let server = try LocalHTTPServer { request, n in
            request.path.hasPrefix("/12/") ? .status(403) : serveDirectory(request, n)
        }
        defer { server.stop() }
        let renderer = MapRenderer()
        let cache = TestPaths.temporaryDirectory()
        let template = server.baseURL + "/{z}/{x}/{y}.png"
        let forbidden = {
            var o = HTTPRasterRenderTests().options(source: template, cache: cache)
            o.zoom = 12
            return o
        }()
        let served = HTTPRasterRenderTests().options(source: template, cache: cache)
        let warnings = Locked([[String]](repeating: [], count: 8))
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let options = i % 2 == 0 ? forbidden : served
            // A map whose every tile was refused also lacks detail, and its --source supplied no
            // tile: those lines are the render's, not a tile's.
            let w = (try? MapSnapshotter(options: options, renderer: renderer).render()).map { s in
                s.warnings.filter { $0 != s.coverage.warning && !$0.hasPrefix("--source \(template): no tile for this view") }
            } ?? ["render failed"]
            warnings.withLock { $0[i] = w }
        }
        for (i, w) in warnings.withLock({ $0 }).enumerated() {
            if i % 2 == 0 {
                #expect(!w.isEmpty && w.allSatisfy { $0.contains("HTTP 403") && $0.contains("tile 12/") }, "\(w)")
            } else {
                #expect(w.isEmpty, "\(w)")
            }
        }
    }
}

/// What a raster `--source` means with each bundled style.
@Suite struct RasterSourceWithBundledStylesTests {
    @Test(arguments: ["normal", "terrain", "hybrid"])
    func rasterTilesShowInEveryStyle(style: String) throws {
        let tiles = TestPaths.fixture("helsinki-raster-z12-13")
        let o = MapSnapshotOptions(width: 200, height: 150, scale: 1, center: LatLng(60.1699, 24.9420), zoom: 12.8,
                                   style: style, source: tiles, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        // The centre pixel comes from the tiles: the same as a raster-only render.
        let plain = try MapSnapshotter(options: MapSnapshotOptions(width: 200, height: 150, scale: 1, center: LatLng(60.1699, 24.9420),
                                                                   zoom: 12.8, style: TestPaths.plainStyle, source: tiles,
                                                                   attribution: "", showsScaleBar: false)).render()
        if style == "hybrid" {
            // Hybrid draws the tiles as imagery under its roads and labels: not identical,
            // but not the dark hybrid background either.
            let c = snap.image.color(atX: 100, y: 75)
            #expect(Int(c.red) + Int(c.green) + Int(c.blue) > 300, "\(c)")
        } else {
            let same = snap.image.pixels == plain.image.pixels
            #expect(same, "\(style) with raster tiles should be the raster base map")
        }
    }
}
