import Foundation
import Testing
@testable import MapSnap

/// `--max-cost`: the drawing cost of the overlays is estimated before anything is drawn (the
/// server's `DrawingCost`), and a map past the limit is bad input — exit 2, one line naming
/// `--max-cost`, nothing written — by default too.
@Suite struct DrawingCostCLITests {
    /// The issue's input, rebuilt: a spec file under 100 KB whose 300 wide zig-zag paths
    /// across a 4096² world would take seconds and hundreds of megabytes to draw (estimated
    /// at ~5·10⁹ pixel operations, five times the default limit).
    static func costlySpec() -> String {
        var paths: [String] = []
        for k in 0..<300 {
            let offset = Double(k % 60) * 0.5
            let points = (0..<10).map { i in
                let lat = (i % 2 == 0 ? 60.0 : -60.0) - offset
                let lon = -170.0 + Double(i) * 37.0
                return "[\(lat),\(lon)]"
            }
            paths.append(#"{"coordinates":[\#(points.joined(separator: ","))],"width":100,"color":"0xff000080"}"#)
        }
        return #"{"size":"4096x4096","center":[0,0],"zoom":4,"style":"\#(TestPaths.plainStyle)","paths":[\#(paths.joined(separator: ","))]}"#
    }

    @Test func theIssuesInputIsRefusedByDefault() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let spec = Self.costlySpec()
        #expect(spec.utf8.count < 100_000, "\(spec.utf8.count) bytes")
        try CLIRunner.write(spec, to: dir + "/costly.json")
        let r = try CLIRunner.run(["render", "--spec", "costly.json", "-o", "map.png"], in: dir)
        #expect(!r.timedOut)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("--max-cost") && r.stderr.contains("pixel operations"), "\(r)")
        #expect(CLIRunner.listing(dir) == ["costly.json"])
    }

    /// An ordinary map passes the default; a limit below its estimate refuses it, naming the
    /// estimate and the limit; batch takes the flag too.
    @Test func theLimitIsTheFlags() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let path = ["--path", "weight:6|60.17,24.94|60.18,24.96|60.16,24.97"]
        var r = try CLIRunner.run(RenderCommandTests.renderArgs(path + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        r = try CLIRunner.run(RenderCommandTests.renderArgs(path + ["--max-cost", "100", "-o", "small.png"]), in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("--max-cost") && r.stderr.contains("limit of 1.0e2 "), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/small.png"))
        try CLIRunner.write(BatchCommandTests.job(#""paths": [{"coordinates": [[60.17, 24.94], [60.18, 24.96]], "width": 6}]"#),
                            to: dir + "/jobs.jsonl")
        r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q", "--max-cost", "100"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("jobs.jsonl:1:") && r.stderr.contains("--max-cost"), "\(r)")
    }

    @Test(arguments: ["-1", "nan", "abc", "1e13"])
    func badValuesAreUsageErrors(_ value: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(["--marker", "60.17,24.94", "--max-cost", value, "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains("--max-cost \(value)"), "\(r)")
    }
}
