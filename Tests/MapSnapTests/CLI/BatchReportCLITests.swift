import Foundation
import Testing
@testable import MapSnap

/// `batch --report FILE.jsonl` writes one JSON line per job as it finishes, so a batch that
/// is killed part way loses none of the results it had.
@Suite struct BatchReportCLITests {
    /// Every line of a report, parsed (a line that is not whole JSON fails the test).
    static func lines(_ path: String) throws -> [[String: Any]] {
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(text.isEmpty || text.hasSuffix("\n"), "a line cut short: \(text.suffix(200))")
        return try text.split(separator: "\n").map { line in
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLIRunnerError("not an object: \(line)")
            }
            return o
        }
    }

    @Test func everyJobHasItsLine() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write([
            BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "a.png""#),
            BatchCommandTests.job(#""markers": ["95,24.94"], "output": "bad.png""#),
        ].joined(separator: "\n"), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q", "--report", "report.jsonl"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        let lines = try Self.lines(dir + "/report.jsonl").sorted { ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0) }
        #expect(lines.count == 2)
        #expect(lines.first?["line"] as? Int == 1 && lines.first?["exit"] as? Int == 0)
        #expect(lines.first?["output"] as? String == "out/a.png" && lines.first?["error"] is NSNull, "\(lines)")
        #expect(lines.last?["line"] as? Int == 2 && lines.last?["exit"] as? Int == 2)
        #expect((lines.last?["error"] as? String)?.contains("latitude 95") == true, "\(lines)")
    }

    /// SIGKILL mid-batch: the lines written so far are all there and whole, and each job a
    /// line reports as done has its file.
    @Test func aKilledBatchKeepsItsLines() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let job = BatchCommandTests.job(#""size": "800x800", "paths": [{"coordinates": [[60.1, 24.8], [60.3, 25.1], [60.1, 25.1]], "width": 30}]"#)
        try CLIRunner.write(Array(repeating: job, count: 400).joined(separator: "\n"), to: dir + "/jobs.jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CLIRunner.executable))
        process.arguments = ["batch", "jobs.jsonl", "--out-dir", "out", "--jobs", "1", "-q", "--report", "report.jsonl"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(TestEnvironment.seconds(30))
        var seen = 0
        while Date() < deadline, process.isRunning {
            seen = (FileManager.default.contents(atPath: dir + "/report.jsonl") ?? Data()).filter { $0 == 0x0A }.count
            if seen >= 3 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(seen >= 3, "the report had \(seen) lines")
        let lines = try Self.lines(dir + "/report.jsonl")
        #expect(lines.count >= seen && lines.count < 400, "\(lines.count) lines")
        for line in lines {
            #expect(line["exit"] as? Int == 0, "\(line)")
            let output = try #require(line["output"] as? String)
            #expect(CLIRunner.decodePNG(atPath: dir + "/" + output)?.width == 800, "\(output)")
        }
    }

    @Test func anUnwritableReportIsARuntimeFailureBeforeAnyJob() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(BatchCommandTests.job(#""markers": ["60.17,24.94"]"#), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--report", "no/such/dir/report.jsonl"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("--report no/such/dir/report.jsonl"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/0001.png"))
    }
}
