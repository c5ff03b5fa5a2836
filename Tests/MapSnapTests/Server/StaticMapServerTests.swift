import Dispatch
import Foundation
import Testing
@testable import MapSnap

/// The HTTP API end to end: a server on a loopback port, a real HTTP client over sockets.
@Suite(.serialized) struct StaticMapServerTests {
    @Test func everyGoogleURLGivesTheCLIsBytes() throws {
        let server = try TestServer()
        defer { server.stop() }
        for url in ServerFixtures.googleURLs {
            let cli = try CLIRunner.run(["render", "--url", url, "-o", "-", "-q"])
            defer { CLIRunner.cleanUp(cli.directory) }
            let served = try server.get(ServerFixtures.target(url))
            #expect(cli.exitCode == 0, "\(url): \(cli)")
            #expect(served.status == 200, "\(url): \(served)")
            #expect(served.headers["content-type"] == ServerFixtures.contentType(url))
            #expect(served.headers["content-length"] == String(served.body.count))
            let same = served.body == cli.stdout
            #expect(same, "\(url): the server's image differs from mapsnap render --url")
        }
    }

    @Test func theSameRequestGivesTheSameBytesAtAnyConcurrency() throws {
        // Renders at once, not answers from the response cache.
        let server = try TestServer { $0.renderThreads = 4; $0.responseCacheBytes = 0 }
        defer { server.stop() }
        let targets = ServerFixtures.googleURLs.prefix(3).map(ServerFixtures.target)
        let expected = try targets.map { try server.get($0).body }
        let results = LogBox()
        DispatchQueue.concurrentPerform(iterations: 12) { i in
            let t = targets[i % targets.count]
            let body = (try? server.get(t).body) ?? []
            results.append(body == expected[i % targets.count] ? "same" : "different \(t)")
        }
        #expect(results.lines.count == 12)
        #expect(results.lines.allSatisfy { $0 == "same" }, "\(results.lines)")
    }

    @Test func badParametersAre400WithTheCLIsMessage() throws {
        let server = try TestServer()
        defer { server.stop() }
        let url = "https://maps.googleapis.com/maps/api/staticmap?size=100x80&zoom=99&center=1,2"
        let cli = try CLIRunner.run(["render", "--url", url, "-o", "out.png"])
        defer { CLIRunner.cleanUp(cli.directory) }
        let served = try server.get(ServerFixtures.target(url))
        #expect(served.status == 400)
        #expect(served.headers["content-type"] == "text/plain; charset=utf-8")
        // The CLI names the flag (`--url zoom`), the server the URL (`url zoom`); the rest is the same line.
        let cliMessage = cli.stderrLines.first?.replacingOccurrences(of: "mapsnap: error: --url", with: "url")
        #expect(served.text == (cliMessage ?? "?") + "\n")

        let json = try server.get(ServerFixtures.target(url), headers: [("Accept", "application/json")])
        #expect(json.status == 400)
        #expect(json.headers["content-type"] == "application/json")
        #expect(json.text.hasPrefix("{\"error\":{\"status\":400,\"message\":\"url zoom: "), "\(json)")
    }

    @Test func unknownPathsAre404AndWrongMethods405() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try server.get("/nothing/here").status == 404)
        #expect(try server.get("/../etc/passwd").status == 404)
        let post = try server.request("POST", "/maps/api/staticmap?center=1,2&zoom=3")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        let getRender = try server.get("/render")
        #expect(getRender.status == 405)
        #expect(getRender.headers["allow"] == "POST")
    }

    @Test func oversizedBodiesAre413AndLongURLs414() throws {
        let server = try TestServer { $0.limits.maximumBodyBytes = 1_000; $0.limits.maximumURLLength = 2_000 }
        defer { server.stop() }
        let body = [UInt8](repeating: UInt8(ascii: " "), count: 5_000)
        #expect(try server.request("POST", "/render", body: body).status == 413)
        // A client that announces a huge body and waits for `100 Continue` gets 413 instead.
        let announced = try HTTPTestClient.exchange(port: server.port, chunks: [Array(
            "POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n".utf8)])
        #expect(String(decoding: announced.prefix(12), as: UTF8.self) == "HTTP/1.1 413")
        let long = "/staticmap?center=1,2&zoom=3&caption=" + String(repeating: "a", count: 3_000)
        #expect(try server.get(long).status == 414)
        // Far longer than libmicrohttpd's memory for the request line: it answers 414 itself.
        let huge = "/staticmap?center=1,2&zoom=3&x=" + String(repeating: "a", count: 200_000)
        #expect(try server.get(huge).status == 414)
        // The server is still fine.
        #expect(try server.get("/health").status == 200)
    }

    @Test func keysAreCheckedWhenConfigured() throws {
        let server = try TestServer { $0.apiKeys = ["s3cret"] }
        defer { server.stop() }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        #expect(try server.get(target).status == 403)
        #expect(try server.get(target + "&key=wrong").status == 403)
        #expect(try server.get(target + "&key=s3cret").status == 200)
        #expect(try server.get(target, headers: [("X-API-Key", "s3cret")]).status == 200)
        // Health, readiness and metrics need no key (probes and scrapers have none).
        #expect(try server.get("/health").status == 200)
    }

    @Test func etagAnswers304WithoutRendering() throws {
        let server = try TestServer()
        defer { server.stop() }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        let first = try server.get(target)
        let tag = try #require(first.headers["etag"])
        #expect(tag.hasPrefix("\"") && tag.count == 34)
        #expect(first.headers["cache-control"] == "public, max-age=86400")
        let rendersBefore = server.server.metrics.requests(withStatus: 200)
        let again = try server.get(target, headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["etag"] == tag)
        #expect(try server.get(target, headers: [("If-None-Match", "W/\"other\", \(tag)")]).status == 304)
        #expect(try server.get(target, headers: [("If-None-Match", "\"other\"")]).status == 200)
        // A different image has a different tag; the key does not change the image.
        let other = try server.get("/staticmap?center=60.17,24.94&zoom=13&size=64x64")
        #expect(other.headers["etag"] != tag)
        #expect(try server.get(target + "&key=anything").headers["etag"] == tag)
        #expect(server.server.metrics.requests(withStatus: 200) == rendersBefore + 3)
    }

    @Test func headGivesTheHeadersOfGetWithoutABody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        let get = try server.get(target)
        let head = try server.request("HEAD", target)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["etag"] == get.headers["etag"])
        #expect(head.headers["content-type"] == "image/png")
        #expect(get.body.count > 25 && get.body[25] == 3, "png8 by default, as Google")
        #expect(head.body.isEmpty)
    }

    @Test func metricsCountersMove() throws {
        // Without the response cache, so that the repeated request renders again.
        let server = try TestServer { $0.responseCacheBytes = 0 }
        defer { server.stop() }
        _ = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        _ = try server.get("/staticmap?zoom=99")
        let before = try server.get("/metrics").text
        _ = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        _ = try server.get("/staticmap?zoom=99")
        let after = try server.get("/metrics")
        #expect(after.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        func value(_ text: String, _ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        for (name, growth) in [("mapsnap_http_requests_total{code=\"200\"}", 2.0), ("mapsnap_http_requests_total{code=\"400\"}", 1),
                               ("mapsnap_renders_total{result=\"ok\"}", 1), ("mapsnap_http_request_duration_seconds_count", 3)] {
            let a = try #require(value(before, name), "\(name) missing")
            let b = try #require(value(after.text, name), "\(name) missing")
            #expect(b - a == growth, "\(name): \(a) → \(b)")
        }
        #expect(try #require(value(after.text, "mapsnap_tile_cache_hits_total")) > (value(before, "mapsnap_tile_cache_hits_total") ?? 0),
                "the second render of a view finds its tiles decoded")
        for name in ["mapsnap_renders_in_flight", "mapsnap_render_queue_length", "mapsnap_tile_cache_misses_total", "mapsnap_tile_errors_total"] {
            #expect(value(after.text, name) != nil, "\(name) missing")
        }
    }

    @Test func aRepeatedRequestIsAnsweredFromTheResponseCache() throws {
        let server = try TestServer()
        defer { server.stop() }
        func value(_ name: String) throws -> Int {
            let text = try server.get("/metrics").text
            return try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }, "\(name) missing")
        }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        let first = try server.get(target)
        let renders = try value("mapsnap_renders_total{result=\"ok\"}")
        let second = try server.get(target)
        #expect(second.status == 200 && second.body == first.body)
        #expect(second.headers["etag"] == first.headers["etag"] && second.headers["content-type"] == "image/png")
        #expect(try value("mapsnap_renders_total{result=\"ok\"}") == renders, "the repeated request rendered again")
        #expect(try value("mapsnap_response_cache_hits_total") == 1)
        #expect(try value("mapsnap_response_cache_bytes") == first.body.count)
        // Another format is another image: rendered, then cached beside the first.
        let jpeg = try server.get(target + "&format=jpg")
        #expect(jpeg.headers["content-type"] == "image/jpeg" && jpeg.body != first.body)
        #expect(try value("mapsnap_renders_total{result=\"ok\"}") == renders + 1)
        #expect(try value("mapsnap_response_cache_bytes") == first.body.count + jpeg.body.count)
        #expect(server.accessLogEventually { $0.contains("cache=hit") }, "the access log says where the image came from")
    }

    /// Images say how much of them has detailed map data, from a render or the response
    /// cache alike; renders lacking it are counted.
    @Test func detailHeaderAndMetric() throws {
        let server = try TestServer()
        defer { server.stop() }
        func withoutDetail() throws -> Int {
            let text = try server.get("/metrics").text
            return try #require(text.split(separator: "\n").first { $0.hasPrefix("mapsnap_renders_without_detail_total ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }, "mapsnap_renders_without_detail_total missing")
        }
        #expect(try withoutDetail() == 0)
        let paris = "/staticmap?center=48.8566,2.3522&zoom=15&size=300x200"
        let first = try server.get(paris)
        #expect(first.status == 200 && first.headers["x-mapsnap-detail"] == "0.00", "\(first.headers)")
        #expect(try withoutDetail() == 1)
        let cached = try server.get(paris)
        #expect(cached.body == first.body && cached.headers["x-mapsnap-detail"] == "0.00", "\(cached.headers)")
        #expect(try withoutDetail() == 1, "an image from the response cache is not a render")
        let helsinki = try server.get("/staticmap?center=60.1717,24.9443&zoom=15&size=300x300")
        #expect(helsinki.headers["x-mapsnap-detail"] == "1.00", "\(helsinki.headers)")
        // Half of this one is past the bundled streets' west edge.
        let edge = try server.get("/staticmap?center=60.1716,24.9351&zoom=16&size=400x200")
        #expect(edge.headers["x-mapsnap-detail"] == "0.50", "\(edge.headers)")
        #expect(try withoutDetail() == 2)
        #expect(server.accessLogEventually { $0.contains("detail=0.50") })
    }

    /// A render occupies the queue (capacity 1, or one per client); the next map request is
    /// refused with `Retry-After`: 503 when the queue is full, 429 when its client is over its share.
    @Test(arguments: [(503, "another client"), (429, "127.0.0.1")])
    func busyQueueRefusesWithRetryAfter(status: Int, occupyingClient: String) throws {
        let server = try TestServer {
            $0.renderThreads = 1
            if status == 503 { $0.maximumConcurrentRequests = 1 } else { $0.limits.maximumQueuedPerClient = 1 }
        }
        defer { server.stop() }
        let release = DispatchSemaphore(value: 0)
        try server.server.queue.submit(client: occupyingClient) { release.wait() }
        let refused = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        let metrics = try server.get("/metrics")
        release.signal()
        #expect(refused.status == status)
        #expect(refused.headers["retry-after"] == "1")
        #expect(metrics.status == 200, "non-render endpoints do not queue")
    }

    @Test func requestsNameOnlyConfiguredStyles() throws {
        let server = try TestServer { $0.styles = ["streets": .init(style: "normal")]; $0.defaultStyle = "streets" }
        defer { server.stop() }
        let base = "/staticmap?center=60.17,24.94&zoom=12&size=64x64"
        #expect(try server.get(base + "&maptype=streets").status == 200)
        let refused = try server.get(base + "&maptype=satellite")
        #expect(refused.status == 400)
        #expect(refused.text.contains("not served here"), "\(refused)")
        #expect(try server.get(base + "&maptype=%2Fetc%2Fpasswd").status == 400)
        let icon = try server.get(base + "&markers=icon:/etc/passwd%7C60.17,24.94")
        #expect(icon.status == 400)
        #expect(icon.text.contains("file paths are not allowed"), "\(icon)")
        #expect(try server.get(base + "&markers=icon:x.png%7Canchor:top%7C60.17,24.94").status == 400)
    }

    /// Icon URLs: refused unless the configuration lists their host; then fetched and drawn.
    @Test func iconURLsOnlyFromConfiguredHosts() throws {
        let site = TestSite()
        var pixels: [UInt8] = []
        for _ in 0..<(16 * 16) { pixels += [0, 0, 255, 255] }
        site.put("/pin.png", try PNGCodec.encode(Canvas(width: 16, height: 16, premultipliedPixels: pixels)), type: "image/png")
        let icons = try site.start()
        defer { icons.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(cache) }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=200x200&format=png32&markers=anchor:center%7Cicon:"
            + icons.baseURL + "/pin.png%7C60.17,24.94"
        let closed = try TestServer { $0.cacheDirectory = cache }
        let refused = try closed.get(target)
        closed.stop()
        #expect(refused.status == 400)
        #expect(refused.text.contains("custom icons are not allowed on this server"), "\(refused)")
        let other = try TestServer { $0.cacheDirectory = cache; $0.iconHosts = ["https://icons.example.org:443"] }
        let elsewhere = try other.get(target)
        other.stop()
        #expect(elsewhere.status == 400)
        #expect(elsewhere.text.contains("icons from 127.0.0.1:\(icons.port) are not allowed on this server (iconHosts)"), "\(elsewhere)")
        #expect(icons.requestCount == 0)

        // The host alone is not enough: scheme, host and port (issue 28, finding 9).
        let otherPort = try TestServer { $0.cacheDirectory = cache; $0.iconHosts = ["http://127.0.0.1:\(icons.port &+ 1)"] }
        let wrongPort = try otherPort.get(target)
        otherPort.stop()
        #expect(wrongPort.status == 400)
        #expect(icons.requestCount == 0)
        let open = try TestServer { $0.cacheDirectory = cache; $0.iconHosts = ["http://127.0.0.1:\(icons.port)"] }
        defer { open.stop() }
        let drawn = try open.get(target)
        #expect(drawn.status == 200, "\(drawn)")
        let image = try #require(try? PNGCodec.decode(drawn.body, origin: "response"))
        #expect(image.color(atX: 100, y: 100) == Color(red: 0, green: 0, blue: 255))
        #expect(icons.requestCount == 1)
    }

    @Test func iconHostsAreReadFromTheConfiguration() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(bytes: Array(#"{"iconHosts": ["https://Icons.Example.org:443", "http://127.0.0.1:8081/"]}"#.utf8), source: "c.json", baseDirectory: nil)
        #expect(configuration.iconHosts == ["https://icons.example.org:443", "http://127.0.0.1:8081"])
        // Scheme, host and port, nothing else (issue 28, finding 9: a host alone allowed every port).
        for bad in ["icons.example.org", "127.0.0.1:8081", "https://x", "https://x:443/icons", "ftp://x:21", "https://u@x:443"] {
            #expect(throws: ServerConfigurationError.self, "\(bad)") {
                try configuration.apply(bytes: Array("{\"iconHosts\": [\"\(bad)\"]}".utf8), source: "c.json", baseDirectory: nil)
            }
        }
    }

    @Test func postedSpecsRenderLikeTheCLIAndNameNoFiles() throws {
        let server = try TestServer()
        defer { server.stop() }
        let spec = #"{"size": "160x120", "center": [60.17, 24.94], "zoom": 14, "markers": ["label:A|60.17,24.94"], "paths": [{"coordinates": [[60.17, 24.94], [60.175, 24.95]], "color": "red", "width": 4}]}"#
        let served = try server.request("POST", "/render", headers: [("Content-Type", "application/json")], body: Array(spec.utf8))
        #expect(served.status == 200, "\(served)")
        let directory = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(directory) }
        try CLIRunner.write(spec, to: directory + "/spec.json")
        let cli = try CLIRunner.run(["render", "--spec", "spec.json", "-o", "-", "-q"], in: directory)
        let same = served.body == cli.stdout
        #expect(same, "POST /render differs from mapsnap render --spec")

        for (body, fragment) in [
            (#"{"center": [1, 2], "zoom": 3, "source": "/etc"}"#, "source: not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "geojson": "/etc/passwd"}"#, "file paths are not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "gpx": "a.gpx"}"#, "gpx: not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "sprite": "https://example.org/sprite"}"#, "sprite: not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "markers": [{"lat": 1, "lon": 2, "icon": "https://example.org/x.png"}]}"#, "custom icons are not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "style": "../x.json"}"#, "not served here"),
            (#"{"center": [1, 2], "zoom": 3, "markers": [{"lat": 1, "lon": 2, "icon": "/etc/x.png"}]}"#, "file paths are not allowed"),
            (#"{"url": "staticmap?center=1,2&zoom=3&markers=icon%3A%2Fetc%2Fx.png%7C1,2"}"#, "file paths are not allowed"),
            (#"{"center": [1, 2], "zoom": 3, "#, "body"),
        ] {
            let refused = try server.request("POST", "/render", body: Array(body.utf8))
            #expect(refused.status == 400, "\(body): \(refused)")
            #expect(refused.text.contains(fragment), "\(body): \(refused.text)")
        }
    }

    @Test func perRequestLimitsAreEnforced() throws {
        let server = try TestServer { $0.limits.maximumImageSide = 256; $0.limits.maximumPointCount = 3; $0.limits.maximumOverlayCount = 2 }
        defer { server.stop() }
        #expect(try server.get("/staticmap?center=1,2&zoom=3&size=300x100").status == 400)
        #expect(try server.get("/staticmap?center=1,2&zoom=3&size=200x100&scale=2").status == 400)
        let points = try server.get("/staticmap?size=100x100&path=1,2|1,3|1,4|1,5")
        #expect(points.status == 400)
        #expect(points.text.contains("points"), "\(points)")
        #expect(try server.get("/staticmap?size=100x100&markers=1,2|1,3|1,4").status == 400)
        #expect(try server.get("/staticmap?size=100x100&markers=1,2|1,3").status == 200)
    }

    @Test func corsHeadersOnlyForConfiguredOrigins() throws {
        let server = try TestServer { $0.corsOrigins = ["https://maps.example.org"] }
        defer { server.stop() }
        let allowed = try server.get("/health", headers: [("Origin", "https://maps.example.org")])
        #expect(allowed.headers["access-control-allow-origin"] == "https://maps.example.org")
        #expect(allowed.headers["vary"] == "Origin")
        let other = try server.get("/health", headers: [("Origin", "https://evil.example")])
        #expect(other.headers["access-control-allow-origin"] == nil)
        let preflight = try server.request("OPTIONS", "/render", headers: [("Origin", "https://maps.example.org"),
                                                                          ("Access-Control-Request-Method", "POST")])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)

        let open = try TestServer()
        defer { open.stop() }
        #expect(try open.get("/health", headers: [("Origin", "https://maps.example.org")]).headers["access-control-allow-origin"] == nil)
    }

    @Test func probesAndLandingPage() throws {
        let server = try TestServer()
        let health = try server.get("/health")
        #expect(health.status == 200 && health.text == "ok\n")
        #expect(try server.get("/ready").status == 200)
        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<img src=\"/maps/api/staticmap?center=Helsinki"))
        server.stop()
        #expect(!server.server.isReady)
    }

    @Test func slowClientsTimeOutWithoutHoldingARenderThread() throws {
        let server = try TestServer { $0.renderThreads = 1; $0.connectionTimeoutSeconds = 1 }
        defer { server.stop() }
        // A client that sends half a request line and stalls.
        let stalled = try HTTPTestClient.connect(port: server.port, timeoutSeconds: 20)
        defer { close(stalled) }
        try HTTPTestClient.send(stalled, Array("GET /staticmap?center=1,2&zo".utf8))
        // The only render thread is free: another client is served meanwhile.
        #expect(try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64").status == 200)
        // The stalled connection is closed by the server (end of file, no response).
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(stalled, $0.baseAddress, $0.count, 0) }
        #expect(n <= 0, "the server answered a half request")
    }

    @Test func aMapWhoseTilesAllFailIs503AndCountsTileErrors() throws {
        let tiles = try LocalHTTPServer { _, _ in .status(500) }
        defer { tiles.stop() }
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try TestServer {
            $0.styles = ["remote": .init(style: "normal", source: tiles.baseURL + "/{z}/{x}/{y}.png")]
            $0.defaultStyle = "remote"
            $0.cacheDirectory = cache
        }
        defer { server.stop() }
        let response = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        #expect(response.status == 503, "\(response)")
        #expect(response.headers["retry-after"] == "5")
        #expect(response.text.hasPrefix("no base-map tile could be read"))
        let metrics = try server.get("/metrics").text
        #expect(!metrics.contains("\nmapsnap_tile_errors_total 0\n"), "\(metrics)")
        #expect(metrics.contains("mapsnap_renders_total{result=\"error\"} 1"))
    }

    @Test func everyRequestGetsOneAccessLogLine() throws {
        let server = try TestServer()
        _ = try server.get("/health")
        _ = try server.get("/nothing")
        server.stop()
        let lines = server.accessLog
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("{\"time\":\""))
        #expect(first.contains("\"method\":\"GET\",\"path\":\"/health\",\"status\":200"))
        #expect(lines.last?.contains("\"status\":404") == true)
    }
}
