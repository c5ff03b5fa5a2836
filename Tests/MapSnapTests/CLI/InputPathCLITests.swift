import Foundation
import Testing
@testable import MapSnap

/// The one rule for input paths (README, "Exit codes"): a path that names nothing, or the
/// wrong kind of thing, is exit 2 with one line that names the flag or command and the path
/// once, and nothing is written — for every flag family of every command.
@Suite struct InputPathCLITests {
    /// (arguments, the line expected on stderr). In the working directory: `folder/` (a
    /// directory), `file.txt` (a regular file), `in.mbtiles` (a tile archive), `box.geojson`.
    static let view = ["--center", "60.17,24.94", "--zoom", "12", "--size", "64x48"]
    static let cases: [([String], String)] = [
        (["render", "--spec", "nope.json", "-o", "map.png"], "--spec nope.json: no such file"),
        (["render", "--spec", "folder", "-o", "map.png"], "--spec folder: is a directory, not a file"),
        (["render", "--gpx", "nope.gpx", "-o", "map.png"], "--gpx nope.gpx: no such file"),
        (["render", "--geojson", "folder", "-o", "map.png"], "--geojson folder: is a directory, not a file"),
        (["render", "--style", "nope/style.json", "-o", "map.png"] + view, "--style nope/style.json: no such file"),
        (["render", "--source", "nope.mbtiles", "-o", "map.png"] + view, "--source nope.mbtiles: no such file or directory"),
        (["render", "--source", "file.txt", "-o", "map.png"] + view, "--source file.txt: not an MBTiles, PMTiles or tile directory (expected an SQLite database or a PMTiles v3 archive; found text)"),
        (["render", "--dem", "nope", "-o", "map.png"] + view, "--dem nope: no such file or directory"),
        (["render", "--sprite", "nope/sprite", "-o", "map.png"] + view, "--sprite nope/sprite.json: no such file"),
        (["render", "--data-dir", "file.txt", "-o", "map.png"] + view, "--data-dir file.txt: is a file, not a directory"),
        (["render", "--cache-dir", "file.txt", "-o", "map.png"] + view, "--cache-dir file.txt: is a file, not a directory"),
        (["render", "--marker", "icon:nope.png|60.17,24.94", "-o", "map.png"], "nope.png: cannot use as marker icon: no such file"),
        (["batch", "nope.jsonl", "--out-dir", "out"], "batch: nope.jsonl: no such file"),
        (["batch", "folder", "--out-dir", "out"], "batch: folder: is a directory, not a file"),
        (["compare", "nope.png", "file.txt"], "compare: nope.png: no such file"),
        (["compare", "folder", "file.txt"], "compare: folder: is a directory, not a file"),
        (["info", "nope.pmtiles"], "info: nope.pmtiles: no such file or directory"),
        (["convert", "nope.mbtiles", "out.pmtiles"], "convert: nope.mbtiles: no such file"),
        (["data", "build", "nope.osm.pbf", "-o", "out.pmtiles"], "data build: nope.osm.pbf: no such file"),
        (["data", "build", "folder", "-o", "out.pmtiles"], "data build: folder: is a directory, not a file"),
        (["data", "extract", "nope.pmtiles", "--bbox", "24.9,60.1,25,60.2", "-o", "out.pmtiles"], "data extract: nope.pmtiles: no such file or directory"),
        (["data", "extract", "in.mbtiles", "--geojson", "nope.geojson", "-o", "out.pmtiles"], "--geojson nope.geojson: no such file"),
        (["serve", "--config", "nope.json"], "--config nope.json: no such file"),
        (["serve", "--config", "folder"], "--config folder: is a directory, not a file"),
    ]

    @Test(arguments: cases)
    func aBadInputPathIsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/folder", withIntermediateDirectories: true)
        try CLIRunner.write("not tiles at all", to: dir + "/file.txt")
        try FileManager.default.copyItem(atPath: InfoCommandTests.mbtiles, toPath: dir + "/in.mbtiles")
        let r = try CLIRunner.run(arguments, in: dir)
        #expect(r.exitCode == 2, "\(arguments): \(r)")
        #expect(r.stderrLines == ["mapsnap: error: " + message], "\(arguments)")
        #expect(CLIRunner.listing(dir) == ["file.txt", "folder", "in.mbtiles"], "\(arguments) wrote something")
    }

    /// Paths inside a spec follow the same rule: exit 2, the spec's key and the path once.
    @Test func aMissingFileInASpecIsExitTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(#"{"center": [60.17, 24.94], "zoom": 12, "source": "nope.pmtiles"}"#, to: dir + "/spec.json")
        let r = try CLIRunner.run(["render", "--spec", "spec.json", "-o", "map.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.components(separatedBy: "nope.pmtiles").count == 2, "the path printed once: \(r.stderr)")
        #expect(CLIRunner.listing(dir) == ["spec.json"])
    }
}

/// `batch --out-dir DIR` makes DIR and its parents when they are missing.
@Suite struct BatchOutputDirectoryTests {
    @Test func missingOutputDirectoryIsCreatedWithItsParents() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(#"{"center": [60.17, 24.94], "zoom": 12, "size": "48x32", "style": "\#(RenderCommandTests.plain)"}"#, to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "maps/2024/june", "-q"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir + "/maps/2024/june") == ["0001.png"])
    }

    @Test(arguments: [("taken", "--out-dir taken: is a file, not a directory"),
                      ("taken/maps", "--out-dir taken/maps: taken is a file, not a directory")])
    func aFileInItsPlaceIsExitTwo(outDir: String, message: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(#"{"center": [60.17, 24.94], "zoom": 12, "size": "48x32"}"#, to: dir + "/jobs.jsonl")
        try CLIRunner.write("a file", to: dir + "/taken")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", outDir], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines == ["mapsnap: error: " + message])
        #expect(CLIRunner.listing(dir) == ["jobs.jsonl", "taken"])
    }

    /// A jobs file that cannot be read leaves no output directory behind.
    @Test func aMissingJobsFileCreatesNothing() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["batch", "nope.jsonl", "--out-dir", "maps"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(CLIRunner.listing(dir).isEmpty)
    }
}
