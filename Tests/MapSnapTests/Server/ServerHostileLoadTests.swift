import Foundation
import Synchronization
import Testing
@testable import MapSnap

/// `StaticMapServer`'s side of issue 28's findings 2, 11 and 12: what the HTTP adapter's
/// protections look like through the map server.
@Suite struct ServerHostileLoadTests {
    @Test func connectionLimitsComeFromTheConfigurationFile() throws {
        var configuration = ServerConfiguration()
        let text = """
            {"connections": {"maxConnections": 50, "maxPerClient": 5, "headerTimeout": 3, "minBodyRate": 10,
                             "maxParameters": 20, "maxSendingMB": 7, "sendBufferKB": 16, "trustedProxies": ["10.0.0.1", "::1"]}}
            """
        try configuration.apply(bytes: Array(text.utf8), source: "server.json", baseDirectory: nil)
        let c = configuration.connections
        #expect(c.maximumConnections == 50 && c.maximumPerClient == 5 && c.headerTimeoutSeconds == 3)
        #expect(c.minimumBodyBytesPerSecond == 10 && c.maximumParameters == 20)
        #expect(c.maximumSendingBytes == 7 << 20 && c.sendBufferBytes == 16 << 10)
        #expect(c.trustedProxies == ["10.0.0.1", "::1"])
        var bad = ServerConfiguration()
        #expect(throws: ServerConfigurationError.badValue(source: "server.json", keyPath: "connections.trustedProxies",
                                                          reason: "\"proxy.example\" is not an IP address")) {
            try bad.apply(bytes: Array(#"{"connections": {"trustedProxies": ["proxy.example"]}}"#.utf8), source: "server.json", baseDirectory: nil)
        }
    }

    @Test func aBlockedAccessLogDelaysNoRequestAndDropsLines() throws {
        let release = DispatchSemaphore(value: 0)
        var configuration = ServerConfiguration(listen: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false))
        configuration.renderThreads = 1
        // Standard error that nobody reads: every write blocks.
        let server = StaticMapServer(configuration: configuration, version: "test",
                                     accessLog: { _ in _ = release.wait(timeout: .now() + 30) })
        let port = try server.start()
        defer {
            for _ in 0..<5_000 { release.signal() }
            server.drain(timeout: .seconds(5))
        }
        // Far more exchanges than the log queue holds, each answered at once.
        for _ in 0..<40 {
            #expect(try HTTPTestClient.request(port: port, target: "/health", timeoutSeconds: 5).status == 200)
        }
        let metrics = try HTTPTestClient.request(port: port, target: "/metrics", timeoutSeconds: 5).text
        #expect(metrics.contains("mapsnap_http_connections "), "\(metrics.suffix(600))")
        #expect(metrics.contains("# TYPE mapsnap_access_log_dropped_total counter\nmapsnap_access_log_dropped_total "))
    }

    @Test func theLogQueueDropsAndCountsWhenItsWriterIsBlocked() {
        let release = DispatchSemaphore(value: 0)
        let written = Locked<[Int]>([])
        let queue = BoundedLogQueue<Int>(capacity: 10) { entry in
            if entry == 0 { _ = release.wait(timeout: .now() + 10) }
            written.withLock { $0.append(entry) }
        }
        // Which entries are kept depends on when the writer takes entry 0 off the queue (one
        // more fits after that, whichever comes next), so the test records what was accepted.
        var accepted: [Int] = []
        let started = ContinuousClock.now
        for i in 0..<100 where queue.enqueue(i) { accepted.append(i) }
        let kept = accepted.count
        // Enqueuing never waited for the blocked writer.
        #expect(ContinuousClock.now - started < .seconds(2))
        // Entry 0 is being written (out of the queue), ten wait, the rest were dropped.
        #expect(kept <= 11 && kept >= 10)
        #expect(queue.droppedCount == 100 - kept)
        release.signal()
        #expect(queue.flush(timeout: .seconds(10)))
        #expect(Array(accepted.prefix(10)) == Array(0..<10))
        #expect(written.withLock { $0 } == accepted)
        queue.stop()
    }

    @Test(arguments: [
        ("render failed: /srv/maps/secret/planet.mbtiles: not a database", "render failed: planet.mbtiles: not a database"),
        ("style \"/etc/mapsnap/topo.json\": bad", "style \"topo.json\": bad"),
        ("icon https://icons.example.org/a/b.png is not allowed", "icon https://icons.example.org/a/b.png is not allowed"),
        ("size=600x400 is over 2048/2", "size=600x400 is over 2048/2"),
    ])
    func errorRepliesNameNoServerPaths(message: String, shown: String) {
        #expect(StaticMapServer.publicMessage(message) == shown)
    }

    @Test func aBrokenConfiguredSourceIsReportedWithoutItsPath() throws {
        let folder = TestPaths.temporaryDirectory() + "/private-layout/data"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = folder + "/tiles.mbtiles"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: broken))
        let server = try TestServer {
            $0.styles = ["broken": .init(style: "normal", source: broken)]
            $0.defaultStyle = "broken"
        }
        defer { server.stop() }
        let response = try server.get("/staticmap?center=60.17,24.94&zoom=12&size=64x64")
        #expect(response.status >= 400, "\(response)")
        #expect(!response.text.contains("private-layout"), "\(response.text)")
    }
}
