import Dispatch
import Foundation
import Testing
@testable import MapSnap

/// The server's parts on their own: configuration files, entity tags, the render queue and
/// listen addresses.
@Suite struct ServerPartsTests {
    @Test func configurationFileSetsStylesKeysCorsAndLimits() throws {
        var c = ServerConfiguration()
        try c.apply(bytes: Array("""
        {"styles": {"streets": {"style": "normal", "source": "tiles/city.mbtiles"}, "topo": {"style": "styles/topo.json", "dem": "https://dem.example/{z}/{x}/{y}.png", "demEncoding": "mapbox"}},
         "defaultStyle": "topo", "keys": ["a", "b"], "cors": ["*"], "cacheMaxAge": 600,
         "limits": {"maxSize": 1024, "maxPixels": 500000, "maxOverlays": 10, "maxPoints": 99, "maxURLLength": 4096, "maxBodyBytes": 2048, "maxQueuedPerClient": 3}}
        """.utf8), source: "server.json", baseDirectory: "/etc/mapsnap")
        #expect(c.styles["streets"] == .init(style: "normal", source: "/etc/mapsnap/tiles/city.mbtiles"))
        #expect(c.styles["topo"] == .init(style: "/etc/mapsnap/styles/topo.json", dem: "https://dem.example/{z}/{x}/{y}.png", demEncoding: .mapbox))
        #expect(c.styles["normal"] == nil, "a configuration's styles replace the bundled ones")
        #expect(c.defaultStyle == "topo")
        #expect(c.apiKeys == ["a", "b"] && c.corsOrigins == ["*"] && c.cacheMaxAgeSeconds == 600)
        #expect(c.limits.maximumImageSide == 1024 && c.limits.maximumPixelCount == 500_000 && c.limits.maximumOverlayCount == 10)
        #expect(c.limits.maximumPointCount == 99 && c.limits.maximumURLLength == 4096 && c.limits.maximumBodyBytes == 2048)
        #expect(c.limits.maximumQueuedPerClient == 3)
        #expect(c.styleName(for: "topo") == "topo")
        #expect(c.styleName(for: "roadmap") == nil)
    }

    @Test(arguments: [
        (#"[]"#, "server.json: (root): expected an object"),
        (#"{"style": "normal"}"#, "server.json: style: unknown key"),
        (#"{"styles": {}}"#, "server.json: styles: no styles"),
        (#"{"styles": {"a/b": {"style": "normal"}}}"#, "server.json: styles.a/b: style names are"),
        (#"{"styles": {"a": {"source": "x"}}}"#, "server.json: styles.a: missing \"style\""),
        (#"{"styles": {"a": {"style": "normal", "demEncoding": "x"}}}"#, "server.json: styles.a.demEncoding: expected terrarium or mapbox"),
        (#"{"defaultStyle": "nope"}"#, "server.json: defaultStyle: \"nope\" is not one of the styles"),
        (#"{"keys": ["a", 1]}"#, "server.json: keys[1]: expected a string, found a number"),
        (#"{"keys": [""]}"#, "server.json: keys: empty key"),
        (#"{"limits": {"maxSize": 0}}"#, "server.json: limits.maxSize: expected a whole number 1-16384, found 0"),
        (#"{"limits": {"maxSize": 1.5}}"#, "server.json: limits.maxSize: expected a whole number"),
        (#"{"limits": {"max": 1}}"#, "server.json: limits.max: unknown key"),
        (#"{"cacheMaxAge": -1}"#, "server.json: cacheMaxAge: expected a whole number 0-31536000"),
        (#"{"#, "server.json"),
    ])
    func badConfigurationsNameTheKey(text: String, message: String) {
        var c = ServerConfiguration()
        #expect {
            try c.apply(bytes: Array(text.utf8), source: "server.json", baseDirectory: nil)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func entityTagsAreStableAndMatchIfNoneMatchLists() {
        let tag = EntityTag.make(["v1", "center=1,2"])
        #expect(tag == EntityTag.make(["v1", "center=1,2"]))
        #expect(tag != EntityTag.make(["v1", "center=1,3"]))
        #expect(tag != EntityTag.make(["v1center=1,2"]), "part boundaries count")
        #expect(tag != EntityTag.make(["v2", "center=1,2"]))
        #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(EntityTag.matches(ifNoneMatch: tag, tag: tag))
        #expect(EntityTag.matches(ifNoneMatch: "\"x\", W/\(tag)", tag: tag))
        #expect(EntityTag.matches(ifNoneMatch: "*", tag: tag))
        #expect(!EntityTag.matches(ifNoneMatch: "\"x\"", tag: tag))
        #expect(!EntityTag.matches(ifNoneMatch: "", tag: tag))
    }

    @Test func queueAdmitsUpToCapacityAndPerClient() throws {
        let queue = RenderQueue(threads: 1, capacity: 2, perClientLimit: 1)
        let release = DispatchSemaphore(value: 0)
        let ran = LogBox()
        try queue.submit(client: "a") { release.wait(); ran.append("a") }
        #expect(throws: RenderQueue.Refusal.clientLimit) { try queue.submit(client: "a") {} }
        try queue.submit(client: "b") { ran.append("b") }
        #expect(throws: RenderQueue.Refusal.full) { try queue.submit(client: "c") {} }
        release.signal()
        queue.shutdown()
        #expect(ran.lines == ["a", "b"], "admitted jobs run in order before shutdown returns")
        #expect(throws: RenderQueue.Refusal.stopped) { try queue.submit(client: "d") {} }
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1:8080"), ("0.0.0.0:80", "0.0.0.0:80"), ("localhost:0", "127.0.0.1:0"),
        (":9000", "127.0.0.1:9000"), ("[::1]:8080", "[::1]:8080"), ("[::]:8080", "[::]:8080"),
    ])
    func listenAddressesParse(text: String, shown: String) throws {
        #expect(try ListenAddress(parsing: text).description == shown)
    }

    @Test(arguments: ["8080", "127.0.0.1", "example.org:80", "127.0.0.1:99999", "127.0.0.1:x", "[::1:80", "1.2.3:80"])
    func badListenAddressesAreRefused(text: String) {
        #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: text) }
    }
}
