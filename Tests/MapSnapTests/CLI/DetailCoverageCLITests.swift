import Foundation
import Testing
@testable import MapSnap

/// `mapsnap render` where the data has no detail: one warning saying what is missing and
/// what to do, `--require-detail` (exit 3, nothing written), and a `--source` that has no
/// tile in the view (named, with the embedded world data drawn beneath it).
@Suite struct DetailCoverageCLITests {
    static let paris = ["--center", "Paris", "--zoom", "15", "--size", "300x200"]
    static let helsinki = ["--center", "60.1717,24.9443", "--zoom", "15", "--size", "300x300"]

    @Test func parisAtZ15WarnsOnceAndWritesTheMap() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render"] + Self.paris + ["-o", "paris.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("mapsnap: warning: no detailed map data for this view at zoom 15 (the embedded world data ends at z12; "
            + "the bundled Helsinki street data covers only 24.935–24.953 E, 60.164–60.179 N): add your area with 'mapsnap data extract'"),
                "\(r.stderr)")
        #expect(r.stderr.contains("--basemap liberty") && r.stderr.contains("\"Maps of your own city\" in the README"))
        #expect(CLIRunner.decodePNG(atPath: dir + "/paris.png") != nil)
        // -q says nothing.
        let quiet = try CLIRunner.run(["render", "-q"] + Self.paris + ["-o", "quiet.png"], in: dir)
        #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty, "\(quiet)")
    }

    @Test func requireDetailFailsWithNothingWritten() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--require-detail"] + Self.paris + ["-o", "paris.png"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines.count == 1, "the warning is the error, said once: \(r.stderr)")
        #expect(r.stderr.hasPrefix("mapsnap: error: no detailed map data for this view at zoom 15 (the embedded world data ends at z12;"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; nothing written (--require-detail)\n"), "\(r.stderr)")
        #expect(CLIRunner.listing(dir).isEmpty)
        // Even -q keeps the error.
        let quiet = try CLIRunner.run(["render", "--require-detail", "-q"] + Self.paris + ["-o", "paris.png"], in: dir)
        #expect(quiet.exitCode == 3 && quiet.stderr.hasPrefix("mapsnap: error: no detailed map data"), "\(quiet)")
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    @Test func insideTheBundledStreetsThereIsNothingToSay() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--require-detail"] + Self.helsinki + ["-o", "helsinki.png"], in: dir)
        #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r)")
        #expect(CLIRunner.decodePNG(atPath: dir + "/helsinki.png") != nil)
        // The same view twice as wide reaches past the bundled streets' bounds (a third of it).
        let wide = try CLIRunner.run(["render", "--center", "60.1717,24.9443", "--zoom", "15", "--size", "600x300", "-o", "wide.png"], in: dir)
        #expect(wide.exitCode == 0, "\(wide)")
        #expect(wide.stderr.hasPrefix("mapsnap: warning: no detailed map data for 29 % of this view at zoom 15 ("), "\(wide.stderr)")
    }

    @Test func batchRequireDetailFailsTheJobWithoutDetail() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write("""
            {"center": "60.1717,24.9443", "zoom": 15, "size": "300x300", "output": "helsinki.png"}
            {"center": "48.8566,2.3522", "zoom": 15, "size": "300x200", "output": "paris.png"}
            """, to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--require-detail"], in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("jobs.jsonl:2: no detailed map data for this view at zoom 15"), "\(r.stderr)")
        #expect(CLIRunner.listing(dir + "/out") == ["helsinki.png"])
    }

    /// Stockholm's archipelago at z9: water and land from the embedded world data.
    static let stockholm = ["--center", "59.33,18.07", "--zoom", "9", "--size", "240x160", "--attribution", "none", "--no-scale-bar"]

    /// An MBTiles of Helsinki given for Stockholm: a warning naming it and its bounds, and
    /// the embedded world data drawn as if no --source were given.
    @Test func aSourceCoveringElsewhereIsNamedAndTheWorldStillDraws() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let source = TestPaths.fixture("helsinki-openmaptiles.mbtiles")
        let r = try CLIRunner.run(["render", "--source", source] + Self.stockholm + ["-o", "source.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("mapsnap: warning: --source \(source): no tile for this view; "
            + "it covers 24.935–24.953 E, 60.164–60.179 N, zoom 0–14; the embedded world data is drawn there instead\n"), "\(r.stderr)")
        let plain = try CLIRunner.run(["render"] + Self.stockholm + ["-o", "world.png"], in: dir)
        #expect(plain.exitCode == 0, "\(plain)")
        let a = try #require(FileManager.default.contents(atPath: dir + "/source.png"))
        #expect(a == FileManager.default.contents(atPath: dir + "/world.png"), "the world data is drawn beneath the --source")
        #expect(Self.hasWater(try #require(CLIRunner.decodePNG(atPath: dir + "/source.png"))))
    }

    /// An HTTP template that answers 404 for every tile: a warning, exit 0, the world drawn.
    @Test func aTemplateThat404sEverywhereIsNamedAndTheWorldStillDraws() throws {
        let server = try TestSite().start()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let template = server.baseURL + "/tiles/{z}/{x}/{y}.pbf"
        let r = try CLIRunner.run(["render", "--source", template, "--cache-dir", "cache"] + Self.stockholm + ["-o", "source.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(server.requestCount > 0)
        #expect(r.stderr.contains("mapsnap: warning: --source \(template): no tile for this view (all "), "\(r.stderr)")
        #expect(r.stderr.contains("asked for are absent); it declares no bounds (zoom 0–19); the embedded world data is drawn there instead\n"),
                "\(r.stderr)")
        let plain = try CLIRunner.run(["render"] + Self.stockholm + ["-o", "world.png"], in: dir)
        #expect(FileManager.default.contents(atPath: dir + "/source.png") == FileManager.default.contents(atPath: dir + "/world.png"))
        #expect(plain.exitCode == 0)
    }

    /// Pixels of the bundled styles' water (blue well above red).
    static func hasWater(_ image: MapSnap.Canvas) -> Bool {
        var n = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.color(atX: x, y: y)
                if Int(c.blue) > Int(c.red) + 30 { n += 1 }
            }
        }
        return n > image.width * image.height / 20
    }

    @Test func helpNamesTheFlag() throws {
        let r = try CLIRunner.run(["render", "--help"])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.stdoutText.contains("--require-detail      fail (exit 3, nothing written)"))
        let batch = try CLIRunner.run(["batch", "--help"])
        defer { CLIRunner.cleanUp(batch.directory) }
        #expect(batch.stdoutText.contains("[--require-detail]"))
    }
}
