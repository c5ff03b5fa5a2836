import Foundation
import Testing
@testable import MapSnap

/// Named base maps offered by `mapsnap serve`'s configuration (`basemaps`, a style entry's
/// `basemap`, `contact`) and picked by requests like styles.
@Suite struct ServerBasemapTests {
    static func configuration(_ text: String) throws -> ServerConfiguration {
        var c = ServerConfiguration()
        try c.apply(bytes: Array(text.utf8), source: "server.json", baseDirectory: nil)
        return c
    }

    @Test func theConfigurationOffersBasemapsAsStyles() throws {
        let c = try Self.configuration(#"{"basemaps": ["liberty", "osm"], "styles": {"streets": {"basemap": "positron"}}, "defaultStyle": "liberty", "contact": "ops@example.org"}"#)
        #expect(Set(c.styles.keys) == ["streets", "liberty", "osm"])
        #expect(c.styles["liberty"]?.basemap?.name == .liberty && c.styles["streets"]?.basemap?.name == .positron)
        #expect(c.styles.values.allSatisfy { $0.basemap?.contact == "ops@example.org" })
        #expect(c.defaultStyle == "liberty")
    }

    @Test(arguments: [
        (#"{"basemaps": ["lbierty"]}"#, "server.json: basemaps[0]: no base map named 'lbierty' (did you mean 'liberty'?)"),
        (#"{"basemaps": ["osm"]}"#, "server.json: basemaps: serving the osm base map needs a \"contact\""),
        (#"{"styles": {"s": {"basemap": "osm", "source": "x.mbtiles"}}}"#, "server.json: styles.s: a \"basemap\" brings its own style"),
    ])
    func badBasemapConfigurationsAreRefused(text: String, message: String) throws {
        #expect {
            try Self.configuration(text)
        } throws: { error in
            "\(error)".hasPrefix(message) || { print("\(error)"); return false }()
        }
    }

    @Test func aRequestPicksABasemapByName() throws {
        let (_, provider) = try BasemapStandIns.openFreeMap()
        defer { provider.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let server = try TestServer { c in
            try? c.apply(bytes: Array(#"{"basemaps": ["liberty"], "contact": "ops@example.org"}"#.utf8), source: "server.json", baseDirectory: nil)
            c.styles["liberty"]?.basemap?.url = provider.baseURL + "/styles/liberty"
            c.cacheDirectory = cache
        }
        defer { server.stop() }
        for parameter in ["maptype", "basemap"] {
            let r = try server.get("/maps/api/staticmap?center=60.1699,24.9384&zoom=14&size=300x200&\(parameter)=liberty")
            #expect(r.status == 200, "\(r.status) \(String(decoding: r.body, as: UTF8.self))")
            #expect(r.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        #expect(provider.receivedRequests.contains { $0.path == "/styles/liberty" })
        #expect(provider.receivedRequests.allSatisfy { $0.headers["user-agent"]?.hasSuffix("; contact: ops@example.org)") == true })
        let refused = try server.get("/maps/api/staticmap?center=60.1699,24.9384&zoom=14&size=300x200&basemap=osm")
        #expect(refused.status == 400)
    }
}
