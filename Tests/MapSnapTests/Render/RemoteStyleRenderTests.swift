import Foundation
import Testing
@testable import MapSnap

/// Styles, TileJSON, sprites, PMTiles archives and marker icons fetched from a web site
/// (`TestSite` on 127.0.0.1) render exactly what the same files render locally, and again
/// offline from the cache.
@Suite struct RemoteStyleRenderTests {
    static let blue = Color(red: 0, green: 0, blue: 255)
    static let red = Color(red: 255, green: 0, blue: 0)

    /// Water blue, POIs as the sprite's red squares. `source` and `sprite` are written into
    /// the style as given.
    static func styleJSON(source: String, sprite: String) -> String {
        """
        {"version": 8, "name": "remote test", "sprite": "\(sprite)",
         "sources": {"omt": {"type": "vector", "url": "\(source)"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#0000ff"}},
                    {"id": "icons", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": "square"}}]}
        """
    }

    /// A site with the style at `/styles/style.json`, its TileJSON at `/tiles.json` (relative
    /// tile URLs), the tiles under `/tiles/`, and the sprite at `/styles/sprites/test`.
    static func site() throws -> TestSite {
        let site = TestSite()
        site.tiles = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        site.put("/styles/style.json", text: styleJSON(source: "../tiles.json", sprite: "sprites/test"))
        site.put("/tiles.json", text: #"{"tilejson": "3.0.0", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "maxzoom": 14, "attribution": "Test tiles"}"#)
        try site.putTestSprite(at: "/styles/sprites/test")
        return site
    }

    /// The same style as a local file over the fixture MBTiles and sprite.
    static func localStyle(sprite: String = TestPaths.fixture("sprites/test")) throws -> String {
        let dir = TestPaths.temporaryDirectory()
        let path = dir + "/style.json"
        try Data(styleJSON(source: "mbtiles://" + TileFixtures.helsinkiMBTiles, sprite: sprite).utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func options(style: String, cache: String, scale: Double = 1, offline: Bool = false) throws -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 300, height: 200, scale: scale, center: SpriteRenderTests.bay, zoom: 15,
                                   style: style, attribution: "", showsScaleBar: false)
        o.http = try HTTPTileSourceTests.options(cacheDirectory: cache)
        o.http.offline = offline
        return o
    }

    static func count(_ canvas: MapImage, _ color: Color) -> Int {
        var n = 0
        for y in 0..<canvas.height { for x in 0..<canvas.width where canvas.color(atX: x, y: y) == color { n += 1 } }
        return n
    }

    @Test(arguments: [1.0, 2.0])
    func aRemoteStyleRendersAsItsLocalCopyThenOffline(scale: Double) throws {
        let server = try Self.site().start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let url = server.baseURL + "/styles/style.json"
        let remote = try MapRenderer().render(Self.options(style: url, cache: cache, scale: scale))
        #expect(remote.warnings.isEmpty, "\(remote.warnings)")
        let local = try MapRenderer().render(Self.options(style: Self.localStyle(), cache: cache, scale: scale))
        #expect(try remote.pngData() == local.pngData())
        // Water and icons, not just a background.
        #expect(Self.count(remote.image, Self.blue) > 1_000)
        #expect(Self.count(remote.image, Self.red) >= 64 * 4)
        let paths = server.receivedRequests.map(\.path)
        #expect(paths.contains(scale >= 2 ? "/styles/sprites/test@2x.png" : "/styles/sprites/test.png"), "\(paths)")
        #expect(paths.contains("/tiles.json"))

        // A fresh process, offline: everything comes from the cache, byte for byte.
        let before = server.requestCount
        let offline = try MapRenderer().render(Self.options(style: url, cache: cache, scale: scale, offline: true))
        #expect(try offline.pngData() == remote.pngData())
        #expect(server.requestCount == before)
    }

    @Test func offlineWithNothingCachedIsOneLineNamingTheStyle() throws {
        let options = try Self.options(style: "http://127.0.0.1:9/styles/style.json?key=SECRET",
                                       cache: TileFixtures.temporaryDirectory(), offline: true)
        do {
            _ = try MapRenderer().render(options)
            Issue.record("offline with an empty cache must fail")
        } catch let error as RenderError {
            #expect(!error.isInputError)
            #expect(error.description == "--style http://127.0.0.1:9/styles/style.json?key=REDACTED: not in the cache, and offline mode forbids the network")
        }
    }

    @Test func anUncachedTileJSONOfflineNamesTheSource() throws {
        let site = try Self.site()
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        // Only the style is in the cache.
        _ = try HTTPResourceClient(options: Self.options(style: "", cache: cache).http)
            .get(server.baseURL + "/styles/style.json", kind: .json, limit: 1 << 20, deadline: .none)
        do {
            _ = try MapRenderer().render(Self.options(style: server.baseURL + "/styles/style.json", cache: cache, offline: true))
            Issue.record("an uncached TileJSON offline must fail")
        } catch let error as RenderError {
            #expect(error.description == "style source \"omt\" (\(server.baseURL)/tiles.json): not in the cache, and offline mode forbids the network")
        }
    }

    @Test(arguments: [
        ("<html><body>Sign in</body></html>", "text/html", true, "the server sent an HTML page"),
        (#"{"version": 8, "layers": "#, "application/json", true, "JSON"),
    ])
    func aBrokenRemoteStyleIsBadInput(body: String, type: String, isInput: Bool, reason: String) throws {
        let site = TestSite()
        site.put("/style.json", text: body, type: type)
        let server = try site.start()
        defer { server.stop() }
        do {
            _ = try MapRenderer().render(Self.options(style: server.baseURL + "/style.json", cache: TileFixtures.temporaryDirectory()))
            Issue.record("a broken style must fail")
        } catch let error as RenderError {
            #expect(error.isInputError == isInput)
            #expect(error.description.hasPrefix("--style ") && error.description.contains(server.baseURL + "/style.json"), "\(error)")
            #expect(error.description.contains(reason) && !error.description.contains("\n"), "\(error)")
        }
    }

    @Test func aMissingRemoteStyleIsBadInput() throws {
        let server = try TestSite().start()
        defer { server.stop() }
        #expect(throws: RenderError.remoteStyleNotFound(url: "\(server.baseURL)/nothing.json")) {
            try MapRenderer().render(Self.options(style: server.baseURL + "/nothing.json", cache: TileFixtures.temporaryDirectory()))
        }
        let error = RenderError.remoteStyleNotFound(url: "\(server.baseURL)/nothing.json")
        #expect(error.isInputError)
        #expect(error.description == "--style \(server.baseURL)/nothing.json: the server has no such style (HTTP 404)")
    }

    /// A style that names a local file from the web is refused: a web page's style must not
    /// read this machine's files.
    @Test(arguments: [("mbtiles:///etc/passwd", "sprites/none"), ("../tiles.json", "file:///etc/passwd"), ("/etc/x.mbtiles", "sprites/none")])
    func aRemoteStyleCannotNameLocalFiles(source: String, sprite: String) throws {
        let site = try Self.site()
        site.put("/style.json", text: Self.styleJSON(source: source, sprite: sprite))
        let server = try site.start()
        defer { server.stop() }
        do {
            _ = try MapRenderer().render(Self.options(style: server.baseURL + "/style.json", cache: TileFixtures.temporaryDirectory()))
            Issue.record("must fail")
        } catch let error as RenderError {
            if source.hasPrefix("/") {
                // An absolute path is a URL on the style's own server, not a local file (a
                // missing source there: exit 3).
                #expect(error.description == "style source \"omt\" (\(server.baseURL)/etc/x.mbtiles): no such TileJSON document (HTTP 404)")
                #expect(!error.isInputError)
            } else {
                #expect(error.isInputError)
                #expect(error.description.contains("a remote style or TileJSON may only name http(s) resources"), "\(error)")
            }
        }
    }

    @Test func aRemotePMTilesSourceInAStyleAndAsSource() throws {
        let (site, _) = try PMTilesHTTPReaderTests.servedArchive()
        site.put("/style.json", text: Self.styleJSON(source: "pmtiles://data/h.pmtiles", sprite: "sprites/none"))
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let inStyle = try MapRenderer().render(Self.options(style: server.baseURL + "/style.json", cache: cache))
        let local = try MapRenderer().render(Self.options(style: Self.localStyle(sprite: "sprites/none"), cache: cache))
        #expect(try inStyle.pngData() == local.pngData())
        #expect(Self.count(inStyle.image, Self.blue) > 1_000)
        // No sprite there: one warning, no icons.
        #expect(inStyle.warnings.count == 1 && inStyle.warnings[0].contains("sprites/none"), "\(inStyle.warnings)")
        let withIcons = try Self.localStyle()
        var flag = try Self.options(style: withIcons, cache: cache)
        flag.source = server.baseURL + "/data/h.pmtiles"
        let asSource = try MapRenderer().render(flag)
        #expect(try asSource.pngData() == MapRenderer().render(Self.options(style: withIcons, cache: cache)).pngData())
    }
}
