import Foundation
import Synchronization
import Testing
@testable import MapSnap
@testable import mapsnap

/// `mapsnap serve` as a process: it announces its port, answers, and on SIGTERM finishes
/// the request in flight and exits 0.
@Suite(.serialized) struct ServeCommandTests {
    /// A running `mapsnap serve` whose stderr is collected.
    final class ServeProcess: Sendable {
        let process: Process
        let stderr = LogBox()
        let port: Int

        init(_ arguments: [String]) throws {
            guard let executable = CLIRunner.executable else { throw CLIRunnerError("mapsnap executable not found") }
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
            let box = stderr
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if !data.isEmpty { box.append(String(decoding: data, as: UTF8.self)) }
            }
            try process.run()
            // "mapsnap: listening on http://127.0.0.1:PORT/ …"
            var found: Int?
            for _ in 0..<600 where found == nil {
                let text = box.lines.joined()
                if let range = text.range(of: "listening on http://127.0.0.1:") {
                    found = Int(text[range.upperBound...].prefix { $0.isNumber })
                } else {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            guard let found else {
                process.terminate()
                throw CLIRunnerError("serve did not announce its port: \(box.lines.joined())")
            }
            port = found
        }

        var log: String { stderr.lines.joined() }

        /// Waits (at most `seconds`: pass `TestEnvironment.seconds`, a sanitized render is far
        /// slower) for the process to exit; its status, or nil.
        func waitForExit(seconds: Double) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning {
                process.interrupt()
                kill(process.processIdentifier, SIGKILL)
                return nil
            }
            return process.terminationStatus
        }
    }

    @Test func sigtermDrainsTheRequestInFlightAndExitsZero() throws {
        // The default drain limit (30 s), stretched like the other limits in a sanitized build:
        // this render takes over 30 s under AddressSanitizer, and a cut-off render is 503.
        let serve = try ServeProcess(["--threads", "1", "--drain-timeout", "\(Int(TestEnvironment.seconds(30)))"])
        // A render large enough to be in flight when the signal arrives.
        let target = "/staticmap?center=60.17,24.94&zoom=14&size=1000x1000&scale=2&maptype=hybrid"
        let result = LogBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let response = try? HTTPTestClient.request(port: serve.port, target: target)
            result.append(response.map { "\($0.status) \($0.body.count)" } ?? "failed")
            done.signal()
        }
        // Wait until the render is running (metrics say so), then ask the server to stop.
        var inFlight = false
        for _ in 0..<400 where !inFlight {
            let metrics = (try? HTTPTestClient.request(port: serve.port, target: "/metrics").text) ?? ""
            inFlight = metrics.contains("\nmapsnap_renders_in_flight 1\n")
            if !inFlight { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(inFlight, "the render never started: \(serve.log)")
        kill(serve.process.processIdentifier, SIGTERM)
        let status = serve.waitForExit(seconds: TestEnvironment.seconds(60))
        done.wait()
        #expect(status == 0, "exit status \(String(describing: status)): \(serve.log)")
        let answer = result.lines.first ?? ""
        #expect(answer.hasPrefix("200 "), "the request in flight got \(answer)")
        #expect(serve.log.contains("SIGTERM: draining"))
        #expect(serve.log.contains("\"status\":200"), "access log: \(serve.log)")
        // Nothing listens any more.
        #expect(throws: (any Error).self) { try HTTPTestClient.request(port: serve.port, target: "/health", timeoutSeconds: 2) }
    }

    /// Starts `count` slow `POST /render`s (a few seconds of drawing each) on `serve`'s one
    /// render thread and waits until one runs and the rest wait; their answers go to `answers`.
    static func fillQueue(_ serve: ServeProcess, count: Int, answers: LogBox) -> Bool {
        let body = HostileLoadTests.heavySpec(count: 400, points: 40, width: 150, side: 512)
        for _ in 0..<count {
            Thread.detachNewThread {
                let response = try? HTTPTestClient.request(port: serve.port, method: "POST", target: "/render", body: body,
                                                           timeoutSeconds: 120)
                answers.append(response.map { "\($0.status)" } ?? "failed")
            }
        }
        for _ in 0..<500 {
            let metrics = (try? HTTPTestClient.request(port: serve.port, target: "/metrics").text) ?? ""
            if metrics.contains("\nmapsnap_renders_in_flight 1\n"), metrics.contains("\nmapsnap_render_queue_length \(count - 1)\n") {
                return true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// A server whose renders never end by themselves within the test (no cost limit, a long
    /// render timeout).
    static func slowServerConfiguration() throws -> String {
        let directory = TestPaths.temporaryDirectory()
        try CLIRunner.write(#"{"limits": {"maxDrawingCost": 1000000000000, "renderTimeout": 600}}"#, to: directory + "/server.json")
        return directory
    }

    /// Issue 28, finding 10: with a full queue, SIGTERM exits at the drain limit, not after
    /// every admitted render; what is cut off is answered 503.
    @Test func aFullQueueExitsAtTheDrainLimit() throws {
        let directory = try Self.slowServerConfiguration()
        defer { CLIRunner.cleanUp(directory) }
        let serve = try ServeProcess(["--threads", "1", "--drain-timeout", "1", "--config", directory + "/server.json"])
        let answers = LogBox()
        #expect(Self.fillQueue(serve, count: 4, answers: answers), "the queue never filled: \(serve.log)")
        let signalled = ContinuousClock.now
        kill(serve.process.processIdentifier, SIGTERM)
        let status = serve.waitForExit(seconds: 30)
        let took = ContinuousClock.now - signalled
        #expect(status == 0, "exit status \(String(describing: status)): \(serve.log)")
        // The drain limit and a second to close; four renders would take far longer.
        #expect(took < .seconds(TestEnvironment.seconds(3)), "exit took \(took)")
        #expect(serve.log.contains("cut off"), "\(serve.log)")
        // Every client got an answer: the three waiting and the one being drawn were told the
        // server is shutting down (503), none was left to a dropped connection.
        let deadline = Date().addingTimeInterval(5)
        while answers.lines.count < 4 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(answers.lines == ["503", "503", "503", "503"], "\(answers.lines)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSecondSignalExitsAtOnce(second: Int32) throws {
        let directory = try Self.slowServerConfiguration()
        defer { CLIRunner.cleanUp(directory) }
        let serve = try ServeProcess(["--threads", "1", "--drain-timeout", "600", "--config", directory + "/server.json"])
        let answers = LogBox()
        #expect(Self.fillQueue(serve, count: 2, answers: answers), "the queue never filled: \(serve.log)")
        kill(serve.process.processIdentifier, SIGTERM)
        for _ in 0..<200 where !serve.log.contains("draining") { Thread.sleep(forTimeInterval: 0.01) }
        kill(serve.process.processIdentifier, second)
        let status = serve.waitForExit(seconds: 10)
        #expect(status == 128 + second, "exit status \(String(describing: status)): \(serve.log)")
        #expect(serve.log.contains("again: exiting without draining"), "\(serve.log)")
    }

    /// The process's malloc policy (ProcessMemory, set in main.swift; `render`, `batch` and
    /// `serve` reserve): the heap is grown to its reservation at start and the kernel holds it
    /// advised for huge pages. Read from the running server's /proc/PID/smaps (a `render`
    /// ends too soon).
    @Test(.enabled(if: !TestEnvironment.isSanitized && FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage")))
    func heapIsReservedForHugePages() throws {
        let serve = try ServeProcess(["--threads", "1"])
        defer {
            kill(serve.process.processIdentifier, SIGTERM)
            _ = serve.waitForExit(seconds: TestEnvironment.seconds(30))
        }
        // procfs files report size 0: read to the end rather than by size.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(serve.process.processIdentifier)/smaps"))
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        // Mappings: a header line ("start-end perms … [heap]") and then "Key: value" lines.
        var advisedHeap = 0
        var inHeap = false, size = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), range.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inHeap = fields.last == "[heap]"
            } else if inHeap, line.hasPrefix("Size:") {
                size = Int(fields[1]) ?? 0
            } else if inHeap, line.hasPrefix("VmFlags:"), fields.contains("hg") {
                advisedHeap += size * 1024
            }
        }
        #expect(advisedHeap >= ProcessMemory.hugePageHeap - (4 << 20), "heap advised for huge pages: \(advisedHeap) bytes")
    }

    @Test func badConfigurationIsExit2WithOneLine() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(directory) }
        try CLIRunner.write(#"{"styles": {"a": {"style": "normal"}}, "defaultStyle": "b"}"#, to: directory + "/server.json")
        let bad = try CLIRunner.run(["serve", "--config", "server.json"], in: directory)
        #expect(bad.exitCode == 2)
        #expect(bad.stderrLines == ["mapsnap: error: --config server.json: defaultStyle: \"b\" is not one of the styles"])
        let listen = try CLIRunner.run(["serve", "--listen", "example.org:80"], in: directory)
        #expect(listen.exitCode == 2)
        #expect(listen.stderrLines.first?.contains("is not an IP address") == true)
        let threads = try CLIRunner.run(["serve", "--threads", "0"], in: directory)
        #expect(threads.exitCode == 2)
    }

    @Test func configuredStylesAndKeysApply() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(directory) }
        try CLIRunner.write("""
        {"styles": {"streets": {"style": "normal", "source": "\(TestPaths.fixture("helsinki-openmaptiles.mbtiles"))"}},
         "keys": ["k1"], "cacheMaxAge": 60}
        """, to: directory + "/server.json")
        let serve = try ServeProcess(["--config", directory + "/server.json", "--quiet"])
        defer {
            kill(serve.process.processIdentifier, SIGTERM)
            _ = serve.waitForExit(seconds: TestEnvironment.seconds(30))
        }
        let target = "/staticmap?center=60.17,24.94&zoom=14&size=100x100"
        #expect(try HTTPTestClient.request(port: serve.port, target: target).status == 403)
        let ok = try HTTPTestClient.request(port: serve.port, target: target + "&key=k1&maptype=streets")
        #expect(ok.status == 200)
        #expect(ok.headers["cache-control"] == "public, max-age=60")
        #expect(try HTTPTestClient.request(port: serve.port, target: target + "&key=k1&maptype=roadmap").status == 400,
                "roadmap means the bundled normal style, which this configuration does not serve")
        #expect(!serve.log.contains("\"path\""), "--quiet writes no access log")
    }
}
