import Foundation
import Testing
@testable import MapSnap

/// `mapsnap serve` with a router: Google Directions' parameters on `/staticmap` (and a
/// spec's `"directions"` on `/render`) routed through a real Valhalla engine, drawn exactly as
/// `mapsnap render --url … --router …` draws them; and, with a stand-in router on loopback,
/// every fault: 502 (unreachable, 5xx, garbage), 504 (no answer in time), 400 (the engine's
/// "no route"), none of them cached, and an `ETag` that follows the router's answer.
@Suite(.serialized) struct ServerDirectionsTests {
    static let walk = "/staticmap?size=400x300&origin=60.1710,24.9414&destination=60.1675,24.9525&mode=walking"

    /// A Valhalla stand-in answering each request with `answer(n)` (n counts from 1).
    final class StandIn: Sendable {
        let server: LocalHTTPServer
        private let count = Locked(0)
        var requests: Int { count.withLock { $0 } }
        var router: Router { Router("valhalla+http://127.0.0.1:\(server.port)")! }

        init(_ answer: @escaping @Sendable (Int) -> LocalHTTPServer.Response) throws {
            let count = self.count
            server = try LocalHTTPServer { _, _ in
                let n = count.withLock { $0 += 1; return $0 }
                return answer(n)
            }
        }
        deinit { server.stop() }
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("directions/" + name))))
    }

    // MARK: Without a router

    @Test func directionsWithoutARouterAre400SayingSo() throws {
        let server = try TestServer()
        defer { server.stop() }
        let served = try server.get(Self.walk)
        #expect(served.status == 400)
        #expect(served.text.contains("directions need a routing engine, and this server has none"), "\(served)")
        #expect(served.text.contains("mapsnap serve --router URL"))
        #expect(served.headers["cache-control"] == "no-store")
        let spec = try server.request("POST", "/render", body: Array(#"{"size":"300x200","directions":{"origin":"60.171,24.9414","destination":"60.1675,24.9525"}}"#.utf8))
        #expect(spec.status == 400)
        #expect(spec.text.contains("this server has none"), "\(spec)")
    }

    @Test func aRouterMakesTheDirectionsParametersKnown() throws {
        let standIn = try StandIn { _ in .status(500) }
        let server = try TestServer { $0.router = standIn.router }
        defer { server.stop() }
        let served = try server.get("/staticmap?size=100x100&center=1,2&zoom=3&bogus=1")
        #expect(served.status == 400)
        #expect(served.text.contains("origin") && served.text.contains("waypoints"), "\(served)")
        #expect(standIn.requests == 0)
    }

    @Test func theConfigurationNamesTheRouterAndItsTimeout() throws {
        var c = ServerConfiguration()
        try c.apply(bytes: Array(#"{"router": "osrm+http://10.0.0.5:5000", "routerTimeout": 4}"#.utf8), source: "server.json", baseDirectory: nil)
        #expect(c.router == Router(engine: .osrm, baseURL: "http://10.0.0.5:5000"))
        #expect(c.routerTimeoutSeconds == 4)
        #expect(throws: ServerConfigurationError.badValue(source: "server.json", keyPath: "router",
                                                          reason: "\"ftp://x\" is not an http(s) URL (optionally prefixed valhalla+, osrm+ or graphhopper+)")) {
            var d = ServerConfiguration()
            try d.apply(bytes: Array(#"{"router": "ftp://x"}"#.utf8), source: "server.json", baseDirectory: nil)
        }
        #expect(throws: ServerConfigurationError.self) {
            var d = ServerConfiguration()
            try d.apply(bytes: Array(#"{"routerTimeout": 0}"#.utf8), source: "server.json", baseDirectory: nil)
        }
    }

    @Test func serveRefusesARouterThatIsNotAURL() throws {
        let result = try CLIRunner.run(["serve", "--listen", "127.0.0.1:0", "--router", "ftp://x"])
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 2)
        #expect(result.stderrLines == ["mapsnap: error: --router ftp://x: expected an http(s) URL, optionally prefixed valhalla+, osrm+ or graphhopper+"],
                "\(result)")
    }

    /// Without --router or a config's "router", serve takes $MAPSNAP_ROUTER, as render does.
    @Test func serveReadsMAPSNAP_ROUTER() throws {
        let result = try CLIRunner.run(["serve", "--listen", "127.0.0.1:0"], environment: ["MAPSNAP_ROUTER": "ftp://y"])
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 2)
        #expect(result.stderrLines == ["mapsnap: error: MAPSNAP_ROUTER ftp://y: expected an http(s) URL, optionally prefixed valhalla+, osrm+ or graphhopper+"],
                "\(result)")
    }

    // MARK: A stand-in router: faults and caching

    @Test func routerErrorsAre502AndNeverCached() throws {
        let standIn = try StandIn { _ in .status(500) }
        let server = try TestServer { $0.router = standIn.router }
        defer { server.stop() }
        let first = try server.get(Self.walk)
        #expect(first.status == 502, "\(first)")
        #expect(first.headers["cache-control"] == "no-store")
        #expect(first.headers["etag"] == nil)
        #expect(first.text.contains("the routing engine (Valhalla) could not be reached or failed"), "\(first)")
        #expect(!first.text.contains("127.0.0.1"), "the router's address is the operator's business")
        let asked = standIn.requests
        #expect(asked >= 1)
        // Asked again: not an answer kept from the first time.
        let second = try server.get(Self.walk)
        #expect(second.status == 502)
        #expect(standIn.requests > asked)
        #expect(server.accessLogEventually { $0.contains("\"status\":502") && $0.contains("router=fault") })
    }

    @Test func anUnreachableRouterIs502() throws {
        let dead = try DeadPort()
        let server = try TestServer { $0.router = Router("valhalla+" + dead.baseURL) }
        defer { server.stop() }
        let served = try server.get(Self.walk)
        #expect(served.status == 502, "\(served)")
        #expect(served.headers["cache-control"] == "no-store")
    }

    @Test func aRouterAnsweringGarbageIs502() throws {
        let standIn = try StandIn { _ in .ok(Array("<html>proxy error</html>".utf8), contentType: "text/html") }
        let server = try TestServer { $0.router = standIn.router }
        defer { server.stop() }
        let served = try server.get(Self.walk)
        #expect(served.status == 502, "\(served)")
        #expect(served.text.contains("gave no usable answer"), "\(served)")
    }

    @Test func aSlowRouterIs504() throws {
        let standIn = try StandIn { _ in LocalHTTPServer.Response(status: 200, behaviour: .hang(seconds: 10)) }
        let server = try TestServer { $0.router = standIn.router; $0.routerTimeoutSeconds = 1 }
        defer { server.stop() }
        let started = Date()
        let served = try server.get(Self.walk)
        #expect(served.status == 504, "\(served)")
        #expect(served.headers["cache-control"] == "no-store")
        #expect(served.text.contains("did not answer in time"), "\(served)")
        #expect(Date().timeIntervalSince(started) < 9, "answered at the router timeout, not when the router gave up")
    }

    @Test func theEnginesNoRouteIs400WithItsReason() throws {
        let body = try Self.fixture("valhalla-no-route.json")
        let standIn = try StandIn { _ in LocalHTTPServer.Response(status: 400, headers: [("Content-Type", "application/json")], body: body) }
        let server = try TestServer { $0.router = standIn.router }
        defer { server.stop() }
        let served = try server.get(Self.walk)
        #expect(served.status == 400, "\(served)")
        #expect(served.text.hasPrefix("directions: no route: No suitable edges near location"), "\(served)")
        #expect(!served.text.contains("127.0.0.1"))
        #expect(served.headers["cache-control"] == "no-store")
    }

    /// The tag holds the router's answer: the same request is a cache hit (and `304`) while
    /// the answer stays, and gets a new tag and image when the engine answers differently.
    @Test func theETagFollowsTheRoutersAnswer() throws {
        let first = try Self.fixture("valhalla-walk-alternates.json")
        let other = try Self.fixture("valhalla-bike-waypoint-miles.json")
        let answer = Locked(first)
        let standIn = try StandIn { _ in .ok(answer.withLock { $0 }, contentType: "application/json") }
        let server = try TestServer { $0.router = standIn.router }
        defer { server.stop() }
        let a = try server.get(Self.walk)
        #expect(a.status == 200, "\(a)")
        #expect(a.headers["content-type"] == "image/png")
        let tag = try #require(a.headers["etag"])
        let again = try server.get(Self.walk)
        #expect(again.headers["etag"] == tag && again.body == a.body)
        #expect(server.accessLogEventually { $0.contains("cache=hit") })
        let conditional = try server.get(Self.walk, headers: [("If-None-Match", tag)])
        #expect(conditional.status == 304)
        // Every one of them asked the router: its answer is part of the tag.
        #expect(standIn.requests == 3)

        answer.withLock { $0 = other }
        let changed = try server.get(Self.walk, headers: [("If-None-Match", tag)])
        #expect(changed.status == 200, "a new route is not confirmed by the old tag: \(changed)")
        #expect(changed.headers["etag"] != nil && changed.headers["etag"] != tag)
        #expect(changed.body != a.body)
    }

    // MARK: A real engine

    /// The walk through the server is byte for byte the CLI's `--url … --router …`, names
    /// resolve as the CLI resolves them, and a spec's `"directions"` routes on `/render`.
    @Test(.disabled(if: ValhallaEngine.skipped, "\(ValhallaEngine.skipVariable)=1"))
    func walkThroughTheServerIsTheCLIsImage() throws {
        let engine = try ValhallaEngine()
        defer { engine.stop() }
        let server = try TestServer { $0.router = Router(engine.url) }
        defer { server.stop() }
        let targets = [Self.walk + "&alternatives=true",
                       "/staticmap?size=500x400&origin=Helsinki+Central+Station&destination=Market+Square,+Helsinki&mode=walking",
                       "/maps/api/staticmap?size=400x300&origin=60.1710,24.9414&destination=60.1675,24.9525&waypoints=via:60.1690,24.9440&mode=bicycling"]
        for target in targets {
            let served = try server.get(target)
            #expect(served.status == 200, "\(target): \(served)")
            let cli = try CLIRunner.run(["render", "--url", "https://maps.googleapis.com" + target, "--router", engine.url, "-o", "-", "-q"])
            defer { CLIRunner.cleanUp(cli.directory) }
            #expect(cli.exitCode == 0, "\(cli)")
            #expect(served.body == cli.stdout, "\(target): the server's image differs from mapsnap render --url")
        }
        let spec = #"{"size":"400x300","directions":{"origin":"60.1710,24.9414","destination":"60.1675,24.9525","mode":"walk"}}"#
        let posted = try server.request("POST", "/render", headers: [("Content-Type", "application/json")], body: Array(spec.utf8))
        #expect(posted.status == 200, "\(posted)")
        #expect(posted.headers["content-type"] == "image/png")
        let impossible = try server.get("/staticmap?size=300x200&origin=60.1710,24.9414&destination=48.85,2.35")
        #expect(impossible.status == 400)
        #expect(impossible.text.contains("no route: No suitable edges near location"), "\(impossible)")
    }
}
