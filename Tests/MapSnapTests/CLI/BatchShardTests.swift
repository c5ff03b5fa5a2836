import Foundation
import Testing
@testable import MapSnap

/// `mapsnap batch --shard K/N`: N machines given one jobs file write, together, exactly the
/// files of one unsharded run, byte for byte.
@Suite struct BatchShardTests {
    /// Seven jobs (one blank line and one unnamed job among them), each a different route.
    static func jobsFile() -> String {
        var lines: [String] = []
        for i in 0..<7 {
            let lat = 60.165 + Double(i) * 0.002
            let output = i == 4 ? "" : #", "output": "route-\#(i).png""#
            lines.append(BatchCommandTests.job(#""paths": ["color:0x1a73e8|weight:4|\#(lat),24.93|\#(lat + 0.004),24.95"], "markers": ["label:\#(i)|\#(lat),24.93"]\#(output)"#))
            if i == 2 { lines.append("") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func files(in dir: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in CLIRunner.listing(dir) {
            out[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
        }
        return out
    }

    @Test(arguments: [3, 10])
    func unionOfShardsIsTheUnshardedOutput(shards: Int) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(Self.jobsFile(), to: dir + "/jobs.jsonl")
        try FileManager.default.createDirectory(atPath: dir + "/all", withIntermediateDirectories: true)
        let whole = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "all", "-q"], in: dir)
        #expect(whole.exitCode == 0, "\(whole)")
        let expected = try Self.files(in: dir + "/all")
        #expect(expected.count == 7)

        var union: [String: [UInt8]] = [:]
        for k in 1...shards {
            let out = dir + "/shard\(k)"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "shard\(k)", "--shard", "\(k)/\(shards)", "--jobs", "\(k % 2 + 1)"],
                                      in: dir)
            #expect(r.exitCode == 0, "\(r)")
            #expect(r.stdoutText.contains("(shard \(k)/\(shards))"), "\(r.stdoutText)")
            for (name, bytes) in try Self.files(in: out) {
                #expect(union[name] == nil, "\(name) written by two shards")
                union[name] = bytes
            }
        }
        #expect(union.keys.sorted() == expected.keys.sorted())
        for (name, bytes) in expected {
            let same = union[name] == bytes
            #expect(same, "\(name) differs between the sharded and the unsharded run")
        }
    }

    @Test func aShardRefusesADuplicateNameClaimedInAnotherShard() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write([
            BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "same.png""#),
            BatchCommandTests.job(#""markers": ["60.18,24.94"], "output": "other.png""#),
            BatchCommandTests.job(#""markers": ["60.19,24.94"], "output": "sub/same.png""#),
        ].joined(separator: "\n"), to: dir + "/jobs.jsonl")
        // Shard 1/2 holds lines 1 and 3: line 3 repeats line 1's name.
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", ".", "--shard", "1/2"], in: dir)
        #expect(r.exitCode == 2)
        #expect(r.stderrLines.first?.contains("jobs.jsonl:3: output \"same.png\" is already written by line 1") == true, "\(r)")
        // Shard 2/2 holds only line 2; the duplicate is not its business.
        let other = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", ".", "--shard", "2/2"], in: dir)
        #expect(other.exitCode == 0, "\(other)")
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "x", "1/2/3", "-1/2", "2"])
    func badShardIsAUsageError(_ shard: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(BatchCommandTests.job(#""markers": ["60.17,24.94"]"#), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", ".", "--shard=\(shard)"], in: dir)
        #expect(r.exitCode == 2)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("--shard \(shard)"), "\(r)")
        #expect(CLIRunner.listing(dir) == ["jobs.jsonl"])
    }

    @Test func noProgressLineWhenStderrIsNotATerminal() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(Self.jobsFile(), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "."], in: dir)
        #expect(r.exitCode == 0)
        #expect(!r.stderr.contains("\r") && !r.stderr.contains("jobs,"), "\(r.stderr)")
    }

    @Test func shardsPartitionTheJobs() throws {
        let jobs = try RenderJobs(bytes: Array(Self.jobsFile().utf8), source: "jobs.jsonl")
        #expect(jobs.count == 7)
        for n in [1, 2, 3, 7, 10] {
            let all = (1...n).flatMap { jobs.shard($0, of: n) }
            #expect(all.sorted() == Array(0..<7), "n = \(n)")
        }
        #expect(jobs.shard(0, of: 3).isEmpty && jobs.shard(4, of: 3).isEmpty)
        #expect(jobs.output(of: 0) == "route-0.png" && jobs.output(of: 4) == nil)
        #expect(jobs.lineNumber(of: 3) == 5, "the blank line keeps the file's numbering")
    }
}
