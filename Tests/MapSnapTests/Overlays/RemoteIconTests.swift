import Foundation
import Testing
@testable import MapSnap

/// Marker icons at `http(s)` URLs (Google's `icon:https://…`), fetched from `TestSite` on
/// 127.0.0.1 through the tiles' HTTP layer: drawn, cached, used offline, and refused with
/// one line naming the URL when they are not a small PNG or JPEG.
@Suite struct RemoteIconTests {
    static let green = Color(red: 0, green: 200, blue: 0)
    static let center = LatLng(60.17, 24.94)

    /// A 20×10 icon: green, with a red left half of its top row (to see which way is up).
    static func iconCanvas() -> Canvas {
        var pixels: [UInt8] = []
        for y in 0..<10 {
            for x in 0..<20 { pixels += y == 0 && x < 10 ? [255, 0, 0, 255] : [0, 200, 0, 255] }
        }
        return Canvas(width: 20, height: 10, premultipliedPixels: pixels)
    }

    static func options(_ marker: String, cache: String, offline: Bool = false) throws -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 100, height: 80, center: center, zoom: 12, style: TestPaths.plainStyle,
                                   attribution: "", showsScaleBar: false)
        o.overlays = try StaticMapsSyntax.parseMarkers(marker, origin: "--marker").map(Overlay.marker)
        o.http = try HTTPTileSourceTests.options(cacheDirectory: cache)
        o.http.offline = offline
        return o
    }

    @Test(arguments: [ImageFormat.png32, .jpgBaseline])
    func anIconURLIsDrawnWhereItsAnchorSaysThenOfflineFromTheCache(format: ImageFormat) throws {
        let site = TestSite()
        site.put("/icons/i", try format.encode(Self.iconCanvas(), quality: 100), type: format == .png32 ? "image/png" : "image/jpeg")
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let marker = "icon:\(server.baseURL)/icons/i|anchor:topleft|60.17,24.94"
        let snap = try MapRenderer().render(Self.options(marker, cache: cache))
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        // Top-left corner on the centre (50, 40): 20×10 pixels of icon to the lower right.
        let inside = snap.image.color(atX: 60, y: 45)
        #expect(inside.green > 180 && inside.red < 30 && inside.blue < 30, "\(inside)")
        let top = snap.image.color(atX: 52, y: 40)
        #expect(top.red > 200 && top.green < 60, "\(top)")
        let outside = snap.image.color(atX: 45, y: 35)
        #expect(outside.green < 180 || outside.red > 30, "\(outside)")
        let before = server.requestCount
        #expect(before == 1)
        let offline = try MapRenderer().render(Self.options(marker, cache: cache, offline: true))
        #expect(try offline.pngData() == snap.pngData())
        #expect(server.requestCount == before)
    }

    @Test(arguments: [
        ("/page", "<!DOCTYPE html><p>Not found</p>", "text/html", "the server sent an HTML page"),
        ("/text", "GIF89a....", "image/gif", "expected a PNG or JPEG image, got 10 bytes starting 'GIF89a....'"),
        ("/missing", "", "", "the server has no such image (HTTP 404)"),
    ])
    func whatIsNotAnIconIsOneLineNamingTheURL(path: String, body: String, type: String, reason: String) throws {
        let site = TestSite()
        if !body.isEmpty { site.put(path, text: body, type: type) }
        let server = try site.start()
        defer { server.stop() }
        let url = server.baseURL + path + "?key=SECRET"
        do {
            _ = try MapRenderer().render(Self.options("icon:\(url)|60.17,24.94", cache: TileFixtures.temporaryDirectory()))
            Issue.record("\(path) must fail")
        } catch let error as RenderError {
            let text = error.description
            #expect(text.hasPrefix("\(server.baseURL)\(path)?key=REDACTED: cannot use as marker icon: "), "\(text)")
            #expect(text.contains(reason) && !text.contains("\n") && !text.contains("SECRET"), "\(text)")
            #expect(error.isInputError)
        }
    }

    @Test func aLargeBodyIsCutOffAtTheIconLimit() throws {
        let server = try LocalHTTPServer { _, _ in
            .init(status: 200, headers: [("Content-Type", "image/png")], omitContentLength: true, behaviour: .endless(chunk: [0x89, 0x50, 0x4E, 0x47] + Array(repeating: 0, count: 4092)))
        }
        defer { server.stop() }
        do {
            _ = try MapRenderer().render(Self.options("icon:\(server.baseURL)/huge.png|60.17,24.94", cache: TileFixtures.temporaryDirectory()))
            Issue.record("an endless icon must fail")
        } catch let error as RenderError {
            #expect(error.description.contains("exceeds the limit of \(IconStore.maximumRemoteBytes) bytes"), "\(error)")
        }
    }

    /// Named anchors of an icon URL are kept as fractions until the icon is fetched, and a
    /// spec written back says the name.
    @Test func namedAnchorsOfIconURLsWaitForTheImage() throws {
        let markers = try StaticMapsSyntax.parseMarkers("icon:https://icons.example.org/a.png|anchor:bottomright|1,2", origin: "--marker")
        let marker = try #require(markers.first)
        #expect(marker.style == .icon(path: "https://icons.example.org/a.png", anchor: nil))
        #expect(marker.iconAnchorFraction == IconAnchorFraction(x: 1, y: 1))
        let spec = try RenderSpec.parse(data: Data(#"{"center": [1, 2], "zoom": 3, "markers": [{"lat": 1, "lon": 2, "icon": "https://icons.example.org/a.png", "anchor": "top"}]}"#.utf8),
                                        source: "spec", filePaths: .refused)
        guard case .marker(let m)? = spec.options.overlays.first else { Issue.record("no marker"); return }
        #expect(m.iconAnchorFraction == IconAnchorFraction(x: 0.5, y: 0))
        let written = try RenderSpec.parse(data: spec.jsonData(), source: "written", filePaths: .refused)
        guard case .marker(let again)? = written.options.overlays.first else { Issue.record("no marker written"); return }
        #expect(again == m)
    }
}
