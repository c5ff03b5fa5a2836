import Dispatch
import Foundation
import Synchronization
import Testing
@testable import MapSnap

/// Issue 28: one client must not take the server down nor make it serve wrong maps. Each
/// test is on loopback, with limits small enough that it runs in a few seconds.
@Suite(.serialized) struct HostileLoadTests {
    /// A `POST /render` body: `count` world-spanning polygons of `points` points with strokes
    /// `width` wide, on a `side`² image at scale 2 and zoom 1 (seeded, so always the same).
    static func heavySpec(count: Int, points: Int, width: Int, side: Int = 256) -> [UInt8] {
        var seed: UInt64 = 28
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var polygons: [String] = []
        for _ in 0..<count {
            let ring = (0..<points).map { _ in String(format: "[%.3f, %.3f]", next() * 140 - 70, next() * 340 - 170) }
            polygons.append("{\"rings\": [[\(ring.joined(separator: ", "))]], \"fillColor\": \"#ff000020\", "
                            + "\"strokeColor\": \"#0000ffc0\", \"strokeWidth\": \(width)}")
        }
        let spec = "{\"size\": \"\(side)x\(side)\", \"scale\": 2, \"center\": [0, 0], \"zoom\": 1, \"attribution\": \"none\", "
            + "\"polygons\": [\(polygons.joined(separator: ", "))]}"
        return Array(spec.utf8)
    }

    // MARK: Finding 1: drawing has a deadline and a cost budget; per-client limit on by default

    @Test func aMapCostlierThanTheLimitIs400NamingItBeforeAnyRender() throws {
        let server = try TestServer { $0.limits.maximumDrawingCost = 1_000_000 }
        defer { server.stop() }
        let refused = try server.request("POST", "/render", body: Self.heavySpec(count: 20, points: 20, width: 60))
        #expect(refused.status == 400, "\(refused)")
        #expect(refused.text.contains("limits.maxDrawingCost") && refused.text.contains("1.0e6"), "\(refused.text)")
        let metrics = try server.get("/metrics").text
        #expect(!metrics.contains("mapsnap_renders_total{result=\"ok\"} 1"), "refused before rendering")
        // A real map under the same small limit still renders.
        let fine = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64&path=weight:3%7C60.16,24.93%7C60.18,24.95")
        #expect(fine.status == 200, "\(fine)")
    }

    @Test func drawingPastTheRenderTimeoutIs503() throws {
        // No cost limit here: only the deadline stops this map (some seconds of drawing).
        let server = try TestServer {
            $0.limits.maximumDrawingCost = .infinity
            // 1 s in a sanitized build, where the small map below takes longer than 0.2 s.
            $0.limits.renderTimeoutSeconds = TestEnvironment.seconds(0.2)
            $0.renderThreads = 1
        }
        defer { server.stop() }
        let answer = try server.request("POST", "/render", body: Self.heavySpec(count: 150, points: 40, width: 120, side: 512))
        #expect(answer.status == 503, "\(answer.status) \(answer.text.prefix(200))")
        #expect(answer.headers["retry-after"] == "1")
        #expect(answer.text.contains("render timeout"), "\(answer.text)")
        // The thread is free again: a small map is answered. (Under the same limit: a slow
        // machine may need the second try, once the tiles are decoded and cached.)
        var statuses: [Int] = []
        for _ in 0..<4 where statuses.last != 200 {
            statuses.append(try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64").status)
        }
        #expect(statuses.last == 200, "\(statuses)")
    }

    @Test func thePerClientQueueLimitIsOnByDefault() throws {
        #expect(ServerConfiguration().limits.maximumQueuedPerClient == 8)
        let server = try TestServer { $0.renderThreads = 1 }
        defer { server.stop() }
        #expect(server.server.queue.perClientLimit == 8)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<8 { try server.server.queue.submit(client: "127.0.0.1") { release.wait() } }
        let refused = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        for _ in 0..<8 { release.signal() }
        #expect(refused.status == 429, "\(refused)")
    }

    // MARK: Finding 7: the request identity is unambiguous; unknown parameters are refused

    @Test func aParameterNameHoldingEqualsCannotPoisonAnotherRequestsImage() throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = "/staticmap?center=60.17,24.94&zoom=13&size=120x90"
        let real = base + "&markers=size:mid%7Ccolor:red%7Clabel:1%3D%7C60.17,24.94"
        let forged = base + "&markers%3Dsize:mid%7Ccolor:red%7Clabel:1=%7C60.17,24.94"
        // Both orders: the forged request first, then the real one, and the other way.
        for order in [[forged, real], [real, forged]] {
            var answers: [String: HTTPTestClient.Response] = [:]
            for target in order { answers[target] = try server.get(target) }
            let f = try #require(answers[forged]), r = try #require(answers[real])
            #expect(r.status == 200, "\(r)")
            #expect(f.status == 400, "\(f.status)")
            #expect(f.text.contains("unknown parameter \"markers=size:mid|color:red|label:1\""), "\(f.text)")
            #expect(f.headers["etag"] == nil)
        }
    }

    @Test func unknownParametersAre400AndGoogleOnesAreKept() throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = "/staticmap?center=60.17,24.94&zoom=13&size=64x64"
        let unknown = try server.get(base + "&colour=red")
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("unknown parameter \"colour\""), "\(unknown.text)")
        // Every parameter of Google's API is accepted (used, or ignored as the CLI does).
        let google = base + "&maptype=roadmap&scale=1&format=png&language=fi&region=fi&key=k&signature=s"
            + "&client=c&channel=x&sensor=false&map_id=m&visible=60.17,24.94&style=feature:poi%7Cvisibility:off"
        #expect(try server.get(google).status == 200)
        // Names and values are told apart however they are split.
        let a = EntityTag.make(["staticmap", "markers", "=a=b"])
        let b = EntityTag.make(["staticmap", "markers=a", "=b"])
        #expect(a != b)
    }

    // MARK: Finding 6: a map missing tiles is not cached as the complete map

    @Test func aMapMissingTilesIsNoStoreWithItsOwnTagAndAHeader() throws {
        var pixels: [UInt8] = []
        for _ in 0..<(256 * 256) { pixels += [40, 160, 40, 255] }
        let tile = try PNGCodec.encode(Canvas(width: 256, height: 256, premultipliedPixels: pixels))
        let broken = Atomic<Bool>(true)
        // Tiles with an odd x fail while `broken` holds.
        let tiles = try LocalHTTPServer { request, _ in
            let parts = request.path.split(separator: "/")
            let x = parts.count >= 3 ? Int(parts[parts.count - 2]) ?? 0 : 0
            return broken.load(ordering: .relaxed) && x % 2 == 1 ? .status(500) : .ok(tile, contentType: "image/png")
        }
        defer { tiles.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.styles = ["remote": .init(style: "normal", source: tiles.baseURL + "/{z}/{x}/{y}.png")]
            $0.defaultStyle = "remote"
            $0.cacheDirectory = cache
        }
        defer { server.stop() }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=512x256&format=png32"
        let partial = try server.get(target)
        #expect(partial.status == 200, "\(partial)")
        let missing = try #require(partial.headers["x-missing-tiles"], "\(partial.headers)")
        let counts = missing.split(separator: "/").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] > 0 && counts[0] < counts[1], "\(missing)")
        #expect(partial.headers["cache-control"] == "no-store")
        let partialTag = try #require(partial.headers["etag"])
        #expect(server.accessLogEventually { $0.contains("tiles-missing=\(missing)") }, "\(server.accessLog)")

        broken.store(false, ordering: .relaxed)
        let revalidated = try server.get(target, headers: [("If-None-Match", partialTag)])
        #expect(revalidated.status == 200, "a map missing tiles is never confirmed by 304")
        #expect(revalidated.headers["x-missing-tiles"] == nil)
        #expect(revalidated.headers["cache-control"]?.hasPrefix("public") == true)
        #expect(revalidated.headers["etag"] != partialTag)
        #expect(revalidated.body != partial.body)
    }

    // MARK: Findings 3 and 9: icons are capped, their failures leak nothing, time-outs are 503

    @Test func iconsAreCappedAndTheirFailuresLeakNoReplyBytes() throws {
        let secret = "SSH-2.0-OpenSSH_9.2 secret-banner"
        let site = try LocalHTTPServer { request, _ in
            request.path.hasPrefix("/hang") ? LocalHTTPServer.Response(status: 200, behaviour: .hang(seconds: 5))
                                            : .ok(Array(secret.utf8), contentType: "image/png")
        }
        defer { site.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.cacheDirectory = cache
            $0.iconHosts = ["http://127.0.0.1:\(site.port)"]
            $0.limits.maximumIconCount = 3
            $0.limits.renderTimeoutSeconds = 0.5
        }
        defer { server.stop() }
        let base = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        let leaky = try server.get(base + "&markers=icon:\(site.baseURL)/x.png%7C60.17,24.94")
        #expect(leaky.status == 400, "\(leaky)")
        #expect(!leaky.text.contains("SSH") && !leaky.text.contains("secret"), "\(leaky.text)")
        #expect(leaky.text.hasPrefix("markers: icon \(site.baseURL)/x.png: "), "\(leaky.text)")

        let many = (0..<4).map { "&markers=icon:\(site.baseURL)/\($0).png%7C60.17,24.9\($0)" }.joined()
        let capped = try server.get(base + many)
        #expect(capped.status == 400)
        #expect(capped.text.contains("limits.maxIcons"), "\(capped.text)")

        let hanging = try server.get(base + "&markers=icon:\(site.baseURL)/hang.png%7C60.17,24.94")
        #expect(hanging.status == 503, "a time-out is the environment's, never 400: \(hanging)")
        #expect(!hanging.text.contains("SSH"))
    }

    @Test func iconsNeverPointAtTheServerItself() throws {
        var options = MapSnapshotOptions(width: 64, height: 64)
        options.overlays = [.marker(MarkerOverlay(coordinate: LatLng(60.17, 24.94),
                                                  style: .icon(path: "http://localhost:8080/staticmap?size=64x64&center=1,2", anchor: nil)))]
        let listening = ListenAddress(host: "0.0.0.0", port: 8080, isIPv6: false)
        #expect(throws: MapRequest.Rejection.self) {
            try MapRequest.checkIcons(options, allowedHosts: ["http://localhost:8080"], listening: listening)
        }
        // Another port of the same host is only what iconHosts says.
        try MapRequest.checkIcons(options, allowedHosts: ["http://localhost:8080"], listening: ListenAddress(host: "0.0.0.0", port: 9090, isIPv6: false))
    }

    // MARK: Finding 9: every redirect hop of an icon is checked; no reply bytes in errors

    /// A 4×4 red PNG.
    static func pin() throws -> [UInt8] {
        try PNGCodec.encode(Canvas(width: 4, height: 4, premultipliedPixels: Array(repeating: [255, 0, 0, 255], count: 16).flatMap { $0 }))
    }

    @Test func iconRedirectsAreCheckedOnEveryHop() throws {
        let secret = "SECRET-reply-of-a-private-service"
        let pin = try Self.pin()
        // A private service nobody listed; its replies must never reach a client.
        let hidden = try LocalHTTPServer { _, _ in .ok(Array(secret.utf8), contentType: "image/png") }
        defer { hidden.stop() }
        let other = try LocalHTTPServer { _, _ in .ok(pin, contentType: "image/png") }
        defer { other.stop() }
        let site = try LocalHTTPServer { request, _ in
            let to: String
            switch request.path {
            case "/listed.png": to = other.baseURL + "/pin.png"
            case "/unlisted.png": to = hidden.baseURL + "/\(secret).png"
            case "/twice.png": to = "/hop.png"  // same origin, then off to the private service
            case "/hop.png": to = hidden.baseURL + "/\(secret).png"
            case "/upgrade.png": to = "https://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "0")/pin.png"
            default: return .status(404)
            }
            return LocalHTTPServer.Response(status: 302, headers: [("Location", to)])
        }
        defer { site.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.cacheDirectory = cache
            $0.iconHosts = ["http://127.0.0.1:\(site.port)", "http://127.0.0.1:\(other.port)"]
        }
        defer { server.stop() }
        let base = "/staticmap?center=60.17,24.94&zoom=12&size=64x64&markers=icon:"
        // A redirect to another listed origin is followed.
        let listed = try server.get(base + site.baseURL + "/listed.png%7C60.17,24.94")
        #expect(listed.status == 200, "\(listed)")
        #expect(other.requestCount == 1)
        // To an unlisted origin, after one hop or two, or to https on a port nobody listed: refused.
        for path in ["/unlisted.png", "/twice.png", "/upgrade.png"] {
            let refused = try server.get(base + site.baseURL + path + "%7C60.17,24.94")
            #expect(refused.status == 400, "\(path): \(refused)")
            #expect(refused.text.contains("iconHosts") && refused.text.contains("not followed"), "\(path): \(refused.text)")
            #expect(!refused.text.contains("SECRET") && !refused.text.contains(hidden.baseURL), "\(path): \(refused.text)")
        }
        #expect(hidden.requestCount == 0, "the private service was never asked")
    }

    @Test func aRedirectToTheServersOwnAddressIsRefusedEvenWhenListed() throws {
        let own = try LocalHTTPServer { _, _ in .ok(Array("a map of this server".utf8), contentType: "image/png") }
        defer { own.stop() }
        let site = try LocalHTTPServer { _, _ in LocalHTTPServer.Response(status: 302, headers: [("Location", "http://localhost:\(own.port)/staticmap")]) }
        defer { site.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // As the server sets it up, with `own` standing for its listen port.
        let list = OriginAllowList(origins: ["http://127.0.0.1:\(site.port)", "http://localhost:\(own.port)"],
                                   ownHost: "0.0.0.0", ownPort: Int(own.port))
        var options = try HTTPTileSourceTests.options(cacheDirectory: cache)
        options.maxRetries = 0
        let client = HTTPResourceClient(options: options, allowList: list)
        #expect {
            try client.get(site.baseURL + "/icon.png", kind: .image, limit: 1 << 20, deadline: .none)
        } throws: { error in
            guard case .refused(_, let reason)? = error as? ResourceError else { return false }
            return reason.contains("this server itself")
        }
        #expect(own.requestCount == 0)
        #expect(list.refusal(HTTPOrigin("http://127.0.0.1:\(own.port)/x")!) == "it leads to this server itself")
        #expect(list.refusal(HTTPOrigin("http://127.0.0.1:\(site.port)/x")!) == nil)
        #expect(list.refusal(HTTPOrigin("https://127.0.0.1:\(site.port)/x")!) != nil, "scheme, host and port must all match")
    }

    @Test(arguments: [
        LocalHTTPServer.Response(status: 500, headers: [("Content-Type", "text/plain")], body: Array("SECRET 500".utf8)),
        LocalHTTPServer.Response(status: 403, headers: [("Content-Type", "text/plain")], body: Array("SECRET 403".utf8)),
        LocalHTTPServer.Response(status: 200, headers: [("Content-Type", "text/html")], body: Array("<p>SECRET page</p>".utf8)),
        LocalHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")], body: Array("SECRET not an image".utf8)),
        LocalHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")],
                                 body: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("SECRET broken png".utf8)),
        LocalHTTPServer.Response(status: 302, headers: [("Location", "http://127.0.0.1:1/SECRET-location")]),
    ])
    func noIconFailureShowsBytesOfTheReply(reply: LocalHTTPServer.Response) throws {
        let site = try LocalHTTPServer { _, _ in reply }
        defer { site.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.cacheDirectory = cache
            $0.iconHosts = ["http://127.0.0.1:\(site.port)"]
            $0.limits.renderTimeoutSeconds = 3
        }
        defer { server.stop() }
        let answer = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64&markers=icon:\(site.baseURL)/i.png%7C60.17,24.94")
        #expect(answer.status == 400 || answer.status == 503, "\(reply.status): \(answer)")
        #expect(!answer.text.contains("SECRET"), "\(reply.status): \(answer.text)")
        #expect(answer.text.hasPrefix("markers: icon \(site.baseURL)/i.png: "), "\(answer.text)")
        if reply.status == 302 {
            // A redirect off the listed hosts is refused, for good (400, not "retry later"),
            // and the answer names neither where it led nor whether anything listens there.
            #expect(answer.status == 400 && answer.text.contains("not followed"), "\(answer)")
            #expect(!answer.text.contains("127.0.0.1:1/") && !answer.text.contains("could not be reached"), "\(answer.text)")
        }
    }

    /// The server's own address through a running server, the way a request goes: the icon
    /// host redirects to a map of this server, whose port iconHosts lists too (a nested map
    /// of itself would hold a render thread waiting for another).
    @Test func anIconRedirectedToThisServerIsRefused() throws {
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // The server's port must be known before it starts (iconHosts lists it): take one
        // that was free a moment ago, and another if a test running alongside took it first.
        var attempt = 0
        var started: (server: TestServer, site: LocalHTTPServer)?
        while started == nil {
            attempt += 1
            let probe = try LocalHTTPServer { _, _ in .status(404) }
            let port = Int(probe.port)
            probe.stop()
            let site = try LocalHTTPServer { _, _ in
                LocalHTTPServer.Response(status: 302, headers: [("Location", "http://localhost:\(port)/staticmap?center=60.17,24.94&zoom=12&size=8x8")])
            }
            do {
                let server = try TestServer {
                    $0.listen = ListenAddress(host: "127.0.0.1", port: port, isIPv6: false)
                    $0.cacheDirectory = cache
                    $0.iconHosts = ["http://127.0.0.1:\(site.port)", "http://localhost:\(port)"]
                }
                started = (server, site)
            } catch where attempt < 5 && "\(error)".contains("cannot listen") {
                site.stop()
            }
        }
        let (server, site) = started!
        defer { site.stop() }
        defer { server.stop() }
        let answer = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64&markers=icon:\(site.baseURL)/i.png%7C60.17,24.94")
        #expect(answer.status == 400 && answer.text.contains("this server itself"), "\(answer)")
        // Only the client's map reached the server: it was never asked for its own.
        #expect(server.accessLogEventually { $0.contains("\"status\":400") })
        #expect(server.accessLog.filter { $0.contains("\"path\":\"/staticmap\"") && $0.contains("\"status\"") }.count == 1,
                "\(server.accessLog)")
    }

    // MARK: Finding 10: warnings reach the log

    @Test func renderWarningsReachTheLogNamingTheRequest() throws {
        let tiles = try LocalHTTPServer { _, _ in .status(500) }
        defer { tiles.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.styles["remote"] = .init(style: "normal", source: tiles.baseURL + "/{z}/{x}/{y}.png")
            $0.cacheDirectory = cache
        }
        defer { server.stop() }
        // A tile server that fails: a 503 for the client, and the failures in the log.
        let failed = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64&maptype=remote")
        #expect(failed.status == 503, "\(failed)")
        #expect(server.accessLogEventually { $0.contains("\"warning\":") && $0.contains("HTTP 500") }, "\(server.accessLog)")
        // Street level where only the world data has anything: the map is drawn, and the log
        // says it lacks detail.
        let coarse = try server.get("/staticmap?center=-30.5,-140.2&zoom=16&size=64x64")
        #expect(coarse.status == 200, "\(coarse)")
        #expect(server.accessLogEventually { $0.contains("\"warning\":") && $0.contains("\"path\":\"/staticmap\"")
                                               && $0.lowercased().contains("detail") }, "\(server.accessLog)")
        #expect(server.accessLogEventually { $0.contains("\"status\":200") && $0.contains("warnings=") }, "\(server.accessLog)")
    }
}
