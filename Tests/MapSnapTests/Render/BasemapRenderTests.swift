import Foundation
import Testing
@testable import MapSnap

/// Named online base maps (`Basemap`) rendered from loopback stand-ins of their providers
/// (`BasemapStandIns`): credits, the OpenStreetMap tile policy (User-Agent, two connections,
/// only the view's tiles, a 7-day cache floor), HTTP caching and revalidation, offline renders,
/// the Protomaps build list and its failures.
@Suite struct BasemapRenderTests {
    static let helsinki = LatLng(60.1699, 24.9384)

    /// Inside the Protomaps fixture's area at zoom 15 with a 300×200 image.
    static let kaisaniemi = LatLng(60.1715, 24.944)

    static func options(_ name: String, env: [String: String], cache: String, zoom: Double = 14,
                        size: (Int, Int) = (400, 300), center: LatLng = helsinki) throws -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: size.0, height: size.1, scale: 1, center: center, zoom: zoom, style: "normal")
        o.http = try HTTPTileSourceTests.options(cacheDirectory: cache)
        o.basemap = try Basemap.named(name, environment: EnvironmentVariables(env.merging(["MAPSNAP_CONTACT": "ops@example.org"]) { $1 }))
        return o
    }

    /// Saves a render under .build for a look (the tests' eyes are the assertions).
    static func keep(_ snapshot: MapSnapshot, _ name: String) {
        let dir = TestPaths.repositoryRoot + "/.build/basemap-renders"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? snapshot.write(to: dir + "/\(name).png")
    }

    static func count(_ image: MapImage, _ colour: Color) -> Int { RemoteStyleRenderTests.count(image, colour) }

    @Test(arguments: [("liberty", Color(red: 255, green: 255, blue: 255)), ("positron", Color(red: 0xdd, green: 0xdd, blue: 0xdd)),
                      ("bright", Color(red: 0xfc, green: 0x8a, blue: 0x3b))])
    func openFreeMapStylesRenderFromTheirStandInWithTheirCredit(name: String, road: Color) throws {
        let (_, server) = try BasemapStandIns.openFreeMap()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let snapshot = try MapRenderer().render(Self.options(name, env: BasemapStandIns.environment(openFreeMap: server), cache: cache))
        Self.keep(snapshot, name)
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.attribution == "© OpenFreeMap © OpenMapTiles © OpenStreetMap contributors")
        #expect(Self.count(snapshot.image, road) > 500, "roads in the style's own colour")
        #expect(Self.count(snapshot.image, Color(red: 0x9e, green: 0xca, blue: 0xe1)) > 100, "water")
        let paths = server.receivedRequests.map(\.path)
        #expect(paths.contains("/styles/\(name)") && paths.contains("/planet"))
        #expect(paths.contains { $0.hasPrefix("/planet/20250101_001001_pt/14/") })
        #expect(server.receivedRequests.allSatisfy { $0.headers["user-agent"] == "mapsnap/0.1.0 (+offline static map renderer; contact: ops@example.org)" })
    }

    @Test func osmRendersOnlyTheViewsTilesWithThePolicyUserAgentAndCredit() throws {
        let server = try BasemapStandIns.openStreetMap()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let options = try Self.options("osm", env: BasemapStandIns.environment(openStreetMap: server), cache: cache, zoom: 13)
        let snapshot = try MapRenderer().render(options)
        Self.keep(snapshot, "osm")
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.attribution == "© OpenStreetMap contributors")
        #expect(Self.count(snapshot.image, .white) < snapshot.image.width * snapshot.image.height / 2, "the raster tiles are drawn")
        let requests = server.receivedRequests
        #expect(requests.allSatisfy { $0.headers["user-agent"] == "mapsnap/0.1.0 (+offline static map renderer; contact: ops@example.org)" })
        // No prefetching: every tile asked for touches the image, each once.
        let camera = snapshot.camera
        let tiles = requests.map(\.path)
        #expect(Set(tiles).count == tiles.count, "\(tiles)")
        #expect(tiles.count >= 4)
        for path in tiles {
            let p = path.dropFirst().replacingOccurrences(of: ".png", with: "").split(separator: "/").compactMap { Double($0) }
            try #require(p.count == 3)
            let n = pow(2, p[0])
            let nw = camera.point(for: WebMercator.unproject(WorldPoint(x: p[1] / n, y: p[2] / n)))
            let se = camera.point(for: WebMercator.unproject(WorldPoint(x: (p[1] + 1) / n, y: (p[2] + 1) / n)))
            #expect(p[0] == 13 && se.x > 0 && nw.x < Double(camera.pixelWidth) && se.y > 0 && nw.y < Double(camera.pixelHeight), "\(path)")
        }
    }

    /// Four renders at once, each with four loading threads and a user's connection limit of
    /// 8: the stand-in never sees more than 2 requests at once for `osm`, while the same tiles
    /// as a plain `source` (the control) do get more — so the count can tell.
    @Test func osmNeverUsesMoreThanTwoConnectionsEvenForConcurrentRenders() throws {
        func peak(basemap: Bool) throws -> Int {
            let server = try BasemapStandIns.openStreetMap(delay: 0.05)
            defer { server.stop() }
            let env = BasemapStandIns.environment(openStreetMap: server)
            let renders = DispatchGroup()
            let failures = Locked<[String]>([])
            for k in 0..<4 {
                var o = try Self.options("osm", env: env, cache: try TileFixtures.temporaryDirectory(), zoom: 13, size: (900, 700))
                o.center = LatLng(60.17 + Double(k) * 0.2, 24.94)
                o.http.maxConcurrentRequests = 8
                o.maximumThreads = 4
                if !basemap {
                    o.basemap = nil
                    o.source = env["MAPSNAP_BASEMAP_OSM_URL"]
                    o.attribution = ""
                }
                renders.enter()
                let options = o
                Thread {
                    do { _ = try MapRenderer().render(options) } catch { failures.withLock { $0.append("\(error)") } }
                    renders.leave()
                }.start()
            }
            renders.wait()
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(server.requestCount >= 4 * 12)
            return server.peakConcurrentRequests
        }
        let limited = try peak(basemap: true)
        #expect(limited <= 2 && limited >= 1, "\(limited)")
        let control = try peak(basemap: false)
        #expect(control > 2, "the control render should overlap more than 2 requests (\(control))")
    }

    /// `Cache-Control: max-age=60` is not the end of an OpenStreetMap tile: the policy's 7 days
    /// are the floor, so a second render (a fresh renderer, nothing in memory) asks nothing,
    /// and `--offline` renders the same bytes.
    @Test func osmTilesStayCachedSevenDaysWhateverTheirMaxAgeAndRenderOffline() throws {
        let server = try BasemapStandIns.openStreetMap(cacheControl: "max-age=60")
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let options = try Self.options("osm", env: BasemapStandIns.environment(openStreetMap: server), cache: cache)
        let first = try MapRenderer().render(options)
        let asked = server.requestCount
        #expect(asked > 0)
        let expiries = try Self.cacheExpiries(in: cache)
        #expect(expiries.count == asked)
        let week = Date().timeIntervalSince1970 + 7 * 24 * 3600
        #expect(expiries.allSatisfy { $0 > week - 120 && $0 <= week + 1 }, "\(expiries)")
        let second = try MapRenderer().render(options)
        #expect(server.requestCount == asked)
        var offline = options
        offline.http.offline = true
        let third = try MapRenderer().render(offline)
        #expect(server.requestCount == asked)
        #expect(try first.pngData() == second.pngData())
        #expect(try first.pngData() == third.pngData())
    }

    /// The `expires` of every `.meta` file under `cache`.
    static func cacheExpiries(in cache: String) throws -> [Double] {
        let files = (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".meta") }
        return try files.map { file in
            let text = try String(contentsOfFile: cache + "/" + file, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("expires ") })
            return try #require(Double(line.dropFirst("expires ".count)))
        }
    }

    /// Without a policy floor a tile lives as long as its `max-age`; a stale one with an `ETag`
    /// is asked for with `If-None-Match`, and the `304` keeps the cached bytes.
    @Test func aStaleTileIsRevalidatedWithItsETag() throws {
        let server = try BasemapStandIns.openStreetMap(cacheControl: "max-age=0")
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let source = try HTTPTileSourceTests.source(server, cacheDirectory: cache)
        let tile = try #require(TileID(z: 13, x: 4663, y: 2370))
        let first = try #require(try source.load(tile))
        let again = try #require(try source.load(tile))
        #expect(first == again)
        let requests = server.receivedRequests
        #expect(requests.count == 2)
        #expect(requests.first?.headers["if-none-match"] == nil)
        #expect(requests.last?.headers["if-none-match"] == "\"t13-4663-2370\"")
        // The 304 renewed the entry for its own max-age (0): the next use asks again.
        _ = try source.load(tile)
        #expect(server.requestCount == 3)
    }

    @Test func freshnessFollowsCacheControlThenExpires() {
        #expect(HTTPFreshness(cacheControl: "public, max-age=3600", expires: nil, date: nil, age: "600").lifetime == 3000)
        #expect(HTTPFreshness(cacheControl: "no-cache", expires: nil, date: nil, age: nil).lifetime == 0)
        #expect(HTTPFreshness(cacheControl: "max-age=oops", expires: nil, date: nil, age: nil).lifetime == 0)
        #expect(HTTPFreshness(cacheControl: nil, expires: "Sun, 06 Nov 1994 09:49:37 GMT",
                              date: "Sun, 06 Nov 1994 08:49:37 GMT", age: nil).lifetime == 3600)
        #expect(HTTPFreshness(cacheControl: nil, expires: "0", date: nil, age: nil).lifetime == 0)
        #expect(HTTPFreshness(cacheControl: "public", expires: nil, date: nil, age: nil).lifetime == nil)
    }

    @Test func protomapsRendersTheNewestBuildOfTheList() throws {
        let (_, server) = try BasemapStandIns.protomaps()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let snapshot = try MapRenderer().render(Self.options("protomaps", env: BasemapStandIns.environment(protomaps: server),
                                                             cache: cache, zoom: 15, size: (300, 200), center: Self.kaisaniemi))
        Self.keep(snapshot, "protomaps")
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.attribution == "Protomaps © OpenStreetMap contributors")
        let paths = server.receivedRequests.map(\.path)
        #expect(paths.first == "/builds.json")
        #expect(paths.dropFirst().allSatisfy { $0 == "/20260102.pmtiles" } && paths.count > 1, "\(paths)")
        #expect(server.receivedRequests.dropFirst().allSatisfy { $0.headers["range"] != nil })
        // Drawn like the local archive in the bundled style.
        var local = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: Self.kaisaniemi, zoom: 15, style: "normal",
                                       source: TestPaths.fixture("helsinki-protomaps.pmtiles"), attribution: "Protomaps © OpenStreetMap contributors")
        local.dataDirectory = ""
        var remote = try Self.options("protomaps", env: BasemapStandIns.environment(protomaps: server), cache: cache, zoom: 15,
                                      size: (300, 200), center: Self.kaisaniemi)
        remote.dataDirectory = ""
        #expect(try MapRenderer().render(remote).pngData() == MapRenderer().render(local).pngData())
    }

    @Test func aRemovedProtomapsBuildSaysHowToPickACurrentOne() throws {
        let (_, server) = try BasemapStandIns.protomaps()
        defer { server.stop() }
        var env = BasemapStandIns.environment(protomaps: server)
        env["MAPSNAP_BASEMAP_PROTOMAPS_URL"] = server.baseURL + "/20240101.pmtiles"
        let options = try Self.options("protomaps", env: env, cache: try TileFixtures.temporaryDirectory())
        #expect {
            try MapRenderer().render(options)
        } throws: { error in
            guard case RenderError.basemap(let e) = error else { return false }
            return e == .notFound(name: "protomaps", url: server.baseURL + "/20240101.pmtiles", variable: "MAPSNAP_BASEMAP_PROTOMAPS_URL")
                && e.description.contains("Protomaps removes old planet builds") && (error as? RenderError)?.isInputError == true
        }
        // A list naming no build.
        let (site, other) = try BasemapStandIns.protomaps()
        defer { other.stop() }
        site.put("/builds.json", text: "[]")
        let empty = try Self.options("protomaps", env: BasemapStandIns.environment(protomaps: other), cache: try TileFixtures.temporaryDirectory())
        #expect(throws: RenderError.basemap(.buildsUnavailable(url: other.baseURL + "/builds.json", reason: "names no dated .pmtiles build",
                                                                 isTransient: false))) {
            try MapRenderer().render(empty)
        }
    }

    @Test func unknownNamesSuggestTheClosest() {
        #expect(throws: BasemapError.unknownName("libery", suggestion: "liberty")) { try Basemap.named("libery", environment: [:]) }
        #expect(throws: BasemapError.unknownName("OSN", suggestion: "osm")) { try Basemap.named("OSN", environment: [:]) }
        #expect(throws: BasemapError.unknownName("satellite-hd", suggestion: nil)) { try Basemap.named("satellite-hd", environment: [:]) }
        #expect((try? Basemap.named(" Positron ", environment: [:]))?.url == "https://tiles.openfreemap.org/styles/positron")
        #expect((try? Basemap.named("osm", environment: [:]))?.url == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect((try? Basemap.named("protomaps", environment: [:]))?.buildsURL == Basemap.protomapsDefaultBuildsURL)
    }

    @Test func bulkDownloadsFromOpenStreetMapAreRefused() {
        #expect(Basemap.bulkDownloadRefusal(for: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", environment: [:]) != nil)
        #expect(Basemap.bulkDownloadRefusal(for: "https://TILE.openstreetmap.org:443/1/2/3.png", environment: [:]) != nil)
        #expect(Basemap.bulkDownloadRefusal(for: "http://127.0.0.1:9/{z}/{x}/{y}.png",
                                            environment: ["MAPSNAP_BASEMAP_OSM_URL": "http://127.0.0.1:9/{z}/{x}/{y}.png"]) != nil)
        #expect(Basemap.bulkDownloadRefusal(for: "https://build.protomaps.com/20260101.pmtiles", environment: [:]) == nil)
        #expect(Basemap.newestBuild(in: Array(#"[{"key":"20251231.pmtiles"},{"key":"20260101.pmtiles"},{"key":"x.pmtiles"}]"#.utf8)) == "20260101")
    }
}
