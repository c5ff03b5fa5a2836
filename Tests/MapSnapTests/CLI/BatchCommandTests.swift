import Foundation
import Testing
import MapSnap

/// `mapsnap batch`: JSON Lines of specs, failures by line number, parallelism-independent bytes.
@Suite struct BatchCommandTests {
    /// A small job on the plain style; `extra` is spliced into the JSON object.
    static func job(_ extra: String) -> String {
        #"{"style": "\#(TestPaths.plainStyle)", "size": "120x80", \#(extra)}"#
    }

    @Test func goodJobsRenderAndTheBadOneIsReportedByLine() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write([
            Self.job(#""markers": ["label:1|60.17,24.94"], "output": "first.png""#),
            Self.job(#""markers": ["95,24.94"], "output": "second.png""#),
            Self.job(#""paths": ["color:red|weight:3|60.17,24.94|60.18,24.96"]"#),
        ].joined(separator: "\n") + "\n", to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        // Unnamed jobs are named after their line.
        #expect(CLIRunner.listing(dir + "/out") == ["0003.png", "first.png"])
        for name in ["0003.png", "first.png"] {
            let image = CLIRunner.decodePNG(atPath: dir + "/out/" + name)
            #expect(image?.width == 120 && image?.height == 80)
        }
        let errors = r.stderrLines
        #expect(errors.allSatisfy { $0.hasPrefix("mapsnap: error: ") }, "\(r.stderr)")
        #expect(errors.first?.contains("jobs.jsonl:2: ") == true, "\(r.stderr)")
        #expect(errors.first?.contains("latitude 95") == true, "\(r.stderr)")
        #expect(errors.last?.contains("1 of 3 jobs failed") == true, "\(r.stderr)")
    }

    /// The same warning from many jobs (here: a tile directory that names no attribution) is
    /// printed once, with the first job that met it, and the repeats are counted at the end;
    /// `--quiet` prints neither.
    @Test func aWarningRepeatedByManyJobsIsPrintedOnce() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let tiles = try RasterTileGridTests.makeTiles()
        defer { CLIRunner.cleanUp(tiles) }
        let lines = (0..<3).map { k in
            Self.job(#""source": "\#(tiles)", "center": "0.3,-0.\#(k + 1)", "zoom": 1, "scaleBar": false"#)
        }
        try CLIRunner.write(lines.joined(separator: "\n") + "\n", to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", ".", "--jobs", "2"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let uncredited = r.stderrLines.filter { $0.contains("no attribution in its metadata") }
        #expect(uncredited.count == 1, "\(r.stderr)")
        #expect(uncredited.first?.hasPrefix("mapsnap: warning: jobs.jsonl:") == true, "\(r.stderr)")
        #expect(r.stderrLines.last == "mapsnap: warning: 2 more warnings repeated one printed above for an earlier job and were not printed again",
                "\(r.stderr)")
        let quiet = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", ".", "--quiet"], in: dir)
        #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty, "\(quiet)")
    }

    /// A line that does not parse (bad JSON, unknown key) fails only its own job; blank lines
    /// are skipped but still counted, so messages and default names keep the file's line numbers.
    @Test(arguments: [
        ("malformed JSON", #"{"size": "120x80", "markers": ["#, ["jobs.jsonl:3:32: ", "invalid JSON at markers", "(byte "]),
        ("unknown key", Self.job(#""markerz": ["60,24"]"#), ["jobs.jsonl:3: ", "\"markerz\""]),
        ("unknown style", Self.job(#""style": "nosuch", "markers": ["60,24"]"#), ["jobs.jsonl:3: ", "nosuch"]),
    ])
    func unparsableLineFailsOnlyItsJob(name: String, badLine: String, mentions: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write([
            Self.job(#""markers": ["60.17,24.94"]"#),
            "",
            badLine,
            "   ",
            Self.job(#""markers": ["60.18,24.95"]"#),
        ].joined(separator: "\n"), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "."], in: dir)
        #expect(r.exitCode == 2, "\(name): \(r)")
        #expect(CLIRunner.listing(dir) == ["0001.png", "0005.png", "jobs.jsonl"], "\(name)")
        let first = r.stderrLines.first ?? ""
        for m in mentions { #expect(first.contains(m), "\(name): \(first) should mention \(m)") }
        if name == "malformed JSON" {
            // The byte offset counts from the start of the file (lines 1 and 2 come first).
            let offset = (Self.job(#""markers": ["60.17,24.94"]"#) + "\n\n").utf8.count + badLine.utf8.count
            #expect(first.contains("(byte \(offset))"), "\(first)")
        }
        #expect(r.stderrLines.last?.contains("1 of 3 jobs failed") == true, "\(r.stderr)")
    }

    /// Two jobs naming one output file would race (the winner depending on the worker count):
    /// the later line fails, the first one's file is written.
    @Test func duplicateOutputNameFailsTheLaterJob() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write([
            Self.job(#""markers": ["60.17,24.94"], "output": "same.png""#),
            Self.job(#""markers": ["60.18,24.95"], "output": "0003.png""#),
            Self.job(#""markers": ["60.19,24.96"]"#),
            Self.job(#""markers": ["60.20,24.97"], "output": "sub/same.png""#),
        ].joined(separator: "\n"), to: dir + "/jobs.jsonl")
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--jobs", "3"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["0003.png", "same.png"])
        #expect(r.stderrLines.count == 3, "\(r.stderr)")
        #expect(r.stderr.contains("jobs.jsonl:3: output \"0003.png\" is already written by line 2"), "\(r.stderr)")
        #expect(r.stderr.contains("jobs.jsonl:4: output \"same.png\" is already written by line 1"), "\(r.stderr)")
        #expect(r.stderrLines.last?.contains("2 of 4 jobs failed") == true)
    }

    /// Output bytes do not depend on the number of workers.
    @Test func jobsOneAndJobsThreeGiveIdenticalFiles() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let lines = [
            Self.job(#""markers": ["label:A|60.17,24.94"], "caption": "one""#),
            Self.job(#""paths": ["color:0x0000ffaa|weight:5|60.17,24.94|60.18,24.96|60.16,24.97"]"#),
            Self.job(#""gpx": "\#(TestPaths.fixture("gpx/track-1.1.gpx"))", "scale": 2"#),
            Self.job(#""polyline": "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "attribution": "none""#),
        ]
        try CLIRunner.write(lines.joined(separator: "\n"), to: dir + "/jobs.jsonl")
        var outputs: [[Data?]] = []
        for n in ["1", "3"] {
            try FileManager.default.createDirectory(atPath: dir + "/j\(n)", withIntermediateDirectories: true)
            let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "j\(n)", "--jobs", n], in: dir)
            #expect(r.exitCode == 0, "\(r)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            #expect(r.stdoutText.contains("rendered 4 maps"))
            let names = CLIRunner.listing(dir + "/j\(n)")
            #expect(names == ["0001.png", "0002.png", "0003.png", "0004.png"])
            outputs.append(names.map { FileManager.default.contents(atPath: dir + "/j\(n)/" + $0) })
        }
        #expect(outputs.count == 2 && outputs[0] == outputs[1])
        #expect(outputs.first?.allSatisfy { $0 != nil } == true)
    }

    @Test(arguments: [
        (["jobs.jsonl"], Int32(2), "--out-dir"),
        // A missing --out-dir is made (BatchOutputDirectoryTests); a file in its way is not.
        (["jobs.jsonl", "--out-dir", "jobs.jsonl/maps"], Int32(2), "--out-dir jobs.jsonl/maps: jobs.jsonl is a file, not a directory"),
        (["missing.jsonl", "--out-dir", "."], Int32(2), "missing.jsonl"),
        (["jobs.jsonl", "--out-dir", ".", "--jobs", "0"], Int32(2), "--jobs"),
        (["jobs.jsonl", "--out-dir", ".", "-j"], Int32(2), "-j needs a value"),
        ([], Int32(2), "JOBS.jsonl"),
    ])
    func usageAndIOErrors(arguments: [String], exitCode: Int32, mention: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(Self.job(#""markers": ["60,24"]"#), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch"] + arguments, in: dir)
        #expect(r.exitCode == exitCode, "\(r)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(mention), "\(r.stderr)")
        #expect(CLIRunner.listing(dir) == ["jobs.jsonl"])
    }
}
