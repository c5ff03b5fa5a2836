import Foundation
import Testing
@testable import MapSnap

/// A map with failed base-map tiles always says so: one warning that `-q` does not hide,
/// and with `--strict` (render and batch) the dedicated exit status 4 and nothing written.
@Suite struct MissingTilesCLITests {
    /// The four z13 fixture tiles around their shared corner; the render needs exactly these.
    static let view = ["--center", "60.1743063,24.9609375", "--zoom", "13", "--size", "200x200", "--style", "normal"]

    /// A copy of the raster fixture in `dir/tiles` with one of the four tiles corrupt.
    static func tilesWithOneBroken(in dir: String) throws -> String {
        let tiles = dir + "/tiles"
        try FileManager.default.copyItem(atPath: TestPaths.fixture("helsinki-raster-z12-13"), toPath: tiles)
        try CLIRunner.write("this is not a PNG", to: tiles + "/13/4664/2371.png")
        return tiles
    }

    @Test(arguments: [false, true])
    func oneFailedTileOfFourIsAWarningQuietDoesNotHide(quiet: Bool) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let tiles = try Self.tilesWithOneBroken(in: dir)
        let r = try CLIRunner.run(["render", "--source", tiles] + Self.view + (quiet ? ["-q"] : []) + ["-o", "map.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let line = r.stderrLines.filter { $0.contains("1 of 4 base-map tiles failed") }
        #expect(line.count == 1, "\(r)")
        #expect(line.first?.hasPrefix("mapsnap: warning: ") == true && line.first?.contains("--strict") == true, "\(r)")
        #expect(CLIRunner.decodePNG(atPath: dir + "/map.png")?.width == 200)
    }

    @Test func strictMakesItExitFourWithNothingWritten() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let tiles = try Self.tilesWithOneBroken(in: dir)
        let r = try CLIRunner.run(["render", "--source", tiles] + Self.view + ["-q", "--strict", "-o", "map.png"], in: dir)
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("1 of 4 base-map tiles failed") && r.stderr.contains("--strict"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/map.png"))
    }

    /// The same map with every tile good: `--strict` changes nothing.
    @Test func strictPassesAWholeMap() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", TestPaths.fixture("helsinki-raster-z12-13")] + Self.view
                                  + ["--strict", "-o", "map.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(!r.stderr.contains("failed"), "\(r)")
    }

    /// In a batch the incomplete job exits 4 under `--strict` (others are written); a worse
    /// failure in another job (3) wins; without `--strict` the warning names the job.
    @Test func batchStrict() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let tiles = try Self.tilesWithOneBroken(in: dir)
        let job = #""source": "\#(tiles)", "center": [60.1743063, 24.9609375], "zoom": 13, "size": "200x200", "style": "normal""#
        try CLIRunner.write(["{\(job), \"output\": \"holes.png\"}",
                             BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "good.png""#)].joined(separator: "\n"),
                            to: dir + "/jobs.jsonl")
        var r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("jobs.jsonl:1: 1 of 4 base-map tiles failed"), "\(r)")
        try FileManager.default.removeItem(atPath: dir + "/out")
        r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q", "--strict"], in: dir)
        #expect(r.exitCode == 4, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["good.png"])
        let junk = try RenderLimitsTests.junkArchive()
        try CLIRunner.write(["{\(job), \"output\": \"holes.png\"}",
                             #"{"source": "\#(junk)", "center": "60.17,24.94", "zoom": 12, "size": "120x80", "output": "junk.png"}"#]
                                .joined(separator: "\n"), to: dir + "/jobs.jsonl")
        r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q", "--strict"], in: dir)
        #expect(r.exitCode == 3, "the worst failure wins: \(r)")
    }
}
