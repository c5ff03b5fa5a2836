import Foundation
import Testing
@testable import MapSnap

/// Liveness and readiness probes are answered on libmicrohttpd's event loop, never queued
/// like a map: with every render thread held and another map waiting, `/health` and `/ready`
/// still answer. Were they queued behind renders, they would wait for the held renders, which
/// here end only after the probes (the client's time-out then fails the test).
@Suite struct ServerProbeTests {
    @Test func probesAreAnsweredWhileEveryRenderThreadIsBusy() throws {
        let server = try TestServer { $0.renderThreads = 2 }
        defer { server.stop() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            try server.server.queue.submit(client: "192.0.2.1") {
                started.signal()
                release.wait()
            }
        }
        defer { for _ in 0..<2 { release.signal() } }
        for _ in 0..<2 { #expect(started.wait(timeout: .now() + TestEnvironment.seconds(10)) == .success, "a render thread never took the job") }
        // A map from a client waits for a free thread.
        let waiting = LogBox()
        Thread.detachNewThread {
            let answer = try? HTTPTestClient.request(port: server.port, target: "/staticmap?center=60.17,24.94&zoom=12&size=64x64")
            waiting.append(answer.map { "\($0.status)" } ?? "failed")
        }
        var queued = false
        for _ in 0..<500 where !queued {
            let metrics = (try? server.get("/metrics").text) ?? ""
            queued = metrics.contains("\nmapsnap_renders_in_flight 2\n") && metrics.contains("\nmapsnap_render_queue_length 1\n")
            if !queued { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(queued, "both threads busy and one map waiting")
        for path in ["/health", "/ready"] {
            let probe = try HTTPTestClient.request(port: server.port, target: path, timeoutSeconds: Int(TestEnvironment.seconds(5)))
            #expect(probe.status == 200, "\(path): \(probe)")
        }
        #expect(waiting.lines.isEmpty, "the map still waits: the probes did not need a render thread")
    }
}
