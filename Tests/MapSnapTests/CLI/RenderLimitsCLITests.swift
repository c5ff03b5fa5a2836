import Foundation
import Testing
@testable import MapSnap

/// The CLI's side of the render limits (issue #10): image area, maps whose tiles all failed,
/// the render time limit, dash patterns, and batch output names.
@Suite struct RenderLimitsCLITests {
    static let helsinki = ["--center", "60.17,24.94", "--zoom", "12", "--size", "200x120"]

    @Test func hugeSizeIsRefusedByArea() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--max-size", "65536", "--size", "30000x30000", "--center", "0,0", "--zoom", "3",
                                   "-o", "map.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("900000000 pixels") && r.stderr.contains("--max-pixels"), "\(r)")
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    @Test(arguments: [["--max-pixels", "268435457"], ["--max-pixels", "0"], ["--render-timeout", "-1"], ["--render-timeout", "nan"]])
    func limitFlagsAreChecked(_ flag: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(["--marker", "60.17,24.94"] + flag + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains(flag[0]), "\(r)")
    }

    /// Every base-map tile failed: exit 3, nothing written, and with `-q` still the one line.
    @Test(arguments: [false, true])
    func everyTileFailedExitsThree(quiet: Bool) throws {
        let junk = try RenderLimitsTests.junkArchive()
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", junk] + Self.helsinki + (quiet ? ["-q"] : []) + ["-o", "map.png"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        let errors = r.stderrLines.filter { $0.hasPrefix("mapsnap: error: ") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("no base-map tile could be read") == true, "\(r)")
        #expect(errors.first?.contains("--allow-missing-tiles") == true)
        if quiet { #expect(r.stderrLines.count == 1, "\(r)") } else { #expect(r.stderr.contains("skipped")) }
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    @Test func allowMissingTilesWritesTheMap() throws {
        let junk = try RenderLimitsTests.junkArchive()
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", junk] + Self.helsinki + ["--allow-missing-tiles", "-o", "map.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("writing the map anyway"))
        #expect(CLIRunner.decodePNG(atPath: dir + "/map.png")?.width == 200)
    }

    /// A source with no tile here is not a failure: the map is written (background only).
    @Test func absentTilesAreFine() throws {
        let empty = try RenderLimitsTests.emptyArchive()
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", empty] + Self.helsinki + ["-o", "map.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.decodePNG(atPath: dir + "/map.png") != nil)
    }

    /// The PMTiles directory bomb of issue #10 (a leaf inflating past 8 MiB, and leaves that
    /// together exceed the directory budget) costs tiles, not the machine.
    @Test func directoryBombRendersBoundedAndFails() throws {
        let count = PMTilesSource.maxDirectoryBytes / 4 + 1000
        var leaves: [UInt8] = []
        var root: [PMTilesEntry] = []
        // Every z12 tile id, in 32 leaves that each point at the same inflating bomb.
        let first = PMTilesTileID.id(for: TileID(z: 12, x: 0, y: 0)!)
        let leaf = try Gzip.compress(HostileTiles.bombDirectory(firstID: first, count: count))
        for k in 0..<32 {
            root.append(PMTilesEntry(tileID: first + UInt64(k) * (1 << 19), offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
            leaves += leaf
        }
        let bomb = try HostileTiles.file(try HostileTiles.pmtiles(root: root, leaves: leaves, tileData: [0x42]), named: "bomb.pmtiles")
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", bomb] + Self.helsinki + ["-o", "map.png"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("exceeds") || r.stderr.contains("too large"), "\(r)")
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// An MBTiles whose `tiles` view never ends: the time limit stops it and the run ends.
    @Test func renderTimeoutStopsAnEndlessView() throws {
        let path = try HostileTiles.mbtiles(MBTilesLimitsTests.endlessView)
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", path, "--render-timeout", "0.2"] + Self.helsinki + ["-o", "map.png"], in: dir)
        #expect(!r.timedOut)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("time limit"), "\(r)")
    }

    /// A 1e-6 px dash pattern is drawn as the solid line it looks like, faded to the share
    /// the dashes would cover (here half): the same bytes as that line drawn solid.
    @Test func subpixelDashesDrawSolid() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        func spec(_ path: String) -> String {
            #"{"style": "\#(TestPaths.plainStyle)", "size": "200x100", "center": [60.17, 24.94], "zoom": 14, "#
                + #""scaleBar": false, "attribution": "none", "paths": [{"coordinates": [[60.1695, 24.93], [60.1705, 24.95]], "#
                + #""width": 4, "cap": "butt", \#(path)}]}"#
        }
        try CLIRunner.write(spec(#""color": "0xff0000", "dash": [1e-6, 1e-6]"#), to: dir + "/dashed.json")
        try CLIRunner.write(spec(#""color": "0xff000080""#), to: dir + "/solid.json")
        for name in ["dashed", "solid"] {
            let r = try CLIRunner.run(["render", "--spec", "\(name).json", "-o", "\(name).png"], in: dir)
            #expect(r.exitCode == 0, "\(r)")
        }
        let dashed = FileManager.default.contents(atPath: dir + "/dashed.png")
        #expect(dashed != nil && dashed == FileManager.default.contents(atPath: dir + "/solid.png"))
    }

    /// The worst job still fails alone: its base map failed (3); the other job is written.
    @Test func batchCountsAMapWithoutTilesAsFailed() throws {
        let junk = try RenderLimitsTests.junkArchive()
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write([
            #"{"source": "\#(junk)", "center": "60.17,24.94", "zoom": 12, "size": "120x80", "output": "junk.png"}"#,
            BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "good.png""#),
        ].joined(separator: "\n"), to: dir + "/jobs.jsonl")
        var r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("jobs.jsonl:1: no base-map tile could be read"), "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["good.png"])
        r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q", "--allow-missing-tiles"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["good.png", "junk.png"])
    }

    /// Output names another tool or a terminal would misread are refused per job.
    @Test func batchRefusesTrickyOutputNames() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let names = ["-", "-rf.png", ".hidden.png", "cod\u{202E}gnp.exe", "red\u{1B}[31m.png", "a\u{200B}b.png"]
        var lines = names.map { name -> String in
            let escaped = name.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? String(format: "\\u%04X", $0.value) : String($0) }.joined()
            return BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "\#(escaped)""#)
        }
        lines.append(BatchCommandTests.job(#""markers": ["60.17,24.94"], "output": "fine.png""#))
        try CLIRunner.write(lines.joined(separator: "\n"), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["fine.png"])
        for line in 1...names.count {
            #expect(r.stderrLines.contains { $0.contains("jobs.jsonl:\(line): output") }, "line \(line): \(r.stderr)")
        }
        // Messages show invisible characters escaped, never raw.
        #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
        #expect(r.stderr.contains(#"cod\u{202E}gnp.exe"#))
    }

    @Test func batchCleansStaleTemporaries() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write("partial", to: dir + "/out/.0001.png.tmp-Kill3d")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                              ofItemAtPath: dir + "/out/.0001.png.tmp-Kill3d")
        try CLIRunner.write(BatchCommandTests.job(#""markers": ["60.17,24.94"]"#), to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["0001.png"])
    }
}
