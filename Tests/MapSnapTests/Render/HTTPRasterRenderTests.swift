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
        return o
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
        #expect(fromDisk.canvas.color(atX: 150, y: 110) != Color(rgb: 0xF4F1EA))
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
        let differs = snap.canvas.pixels != good.canvas.pixels
        #expect(differs)
        #expect(snap.canvas.color(atX: 290, y: 210) == good.canvas.color(atX: 290, y: 210))
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
            let c = snap.canvas.color(atX: 100, y: 75)
            #expect(Int(c.red) + Int(c.green) + Int(c.blue) > 300, "\(c)")
        } else {
            let same = snap.canvas.pixels == plain.canvas.pixels
            #expect(same, "\(style) with raster tiles should be the raster base map")
        }
    }
}
