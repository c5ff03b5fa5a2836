import Foundation
import Testing
import MapSnap

/// One bad `mapsnap render` invocation and what its error line must name.
struct BadRenderCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// Arguments after the common prefix (`render --style plain --size 120x80 [-o out/map.png]`).
    var arguments: [String]
    /// Files to create in the working directory first (relative path → contents).
    var files: [String: String] = [:]
    /// Substrings the single stderr line must contain (flag, file, position, value).
    var mentions: [String]
    /// False for the case that tests the missing `-o`.
    var withOutput = true

    var testDescription: String { name }
}

/// Bad input: exit 2, a single `mapsnap: error:` line naming the flag/file/position, and
/// nothing written. I/O failures: exit 3, and again nothing (partial) written.
@Suite struct RenderFailureTests {
    static let marker = ["--marker", "60.17,24.94"]

    static let badInputs: [BadRenderCase] = [
        BadRenderCase(name: "latitude 95", arguments: ["--marker", "95,24.94"], mentions: ["--marker", "latitude 95"]),
        BadRenderCase(name: "latitude 91 in --visible", arguments: marker + ["--visible", "91,0"], mentions: ["--visible", "latitude 91"]),
        BadRenderCase(name: "NaN centre", arguments: ["--center", "NaN,24.94", "--zoom", "3"], mentions: ["--center", "NaN", "finite"]),
        BadRenderCase(name: "NaN marker", arguments: ["--marker", "60,nan"], mentions: ["--marker", "nan"]),
        BadRenderCase(
            name: "malformed GeoJSON", arguments: ["--geojson", "bad.geojson"],
            files: ["bad.geojson": "{\"type\": \"Feature\",\n \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]} x}"],
            mentions: ["bad.geojson", "invalid JSON", "74"]),
        BadRenderCase(
            name: "GeoJSON with a non-numeric coordinate", arguments: ["--geojson", "coords.geojson"],
            files: ["coords.geojson": #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": ["a", 2]}}"#],
            mentions: ["coords.geojson", "geometry.coordinates"]),
        BadRenderCase(name: "malformed GPX", arguments: ["--gpx", TestPaths.fixture("gpx/malformed.gpx")],
                      mentions: ["malformed.gpx", "line 6"]),
        BadRenderCase(name: "GPX with a non-numeric latitude", arguments: ["--gpx", TestPaths.fixture("gpx/bad-lat.gpx")],
                      mentions: ["bad-lat.gpx", "line 6", "abc"]),
        BadRenderCase(name: "truncated polyline", arguments: ["--polyline", "_p~iF~ps|U_ulL"],
                      mentions: ["--polyline", "offset 14"]),
        BadRenderCase(name: "polyline ending inside a value", arguments: ["--polyline", "_p~iF~ps|U_ulLnnqC_mqNvxq`"],
                      mentions: ["--polyline", "offset 22"]),
        BadRenderCase(name: "truncated polyline6", arguments: ["--polyline6", "_izlhA~rlgdF_{geC"],
                      mentions: ["--polyline6", "offset 17"]),
        // The example of frederickjansen/polyline's tests (MIT), a precision-6 polyline.
        BadRenderCase(name: "precision-6 polyline given to --polyline", arguments: ["--polyline", "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"],
                      mentions: ["--polyline", "offset 6", "valid precision-6 polyline", "polyline6"]),
        BadRenderCase(name: "bad colour", arguments: ["--path", "color:0xZZZZZZ|60.17,24.94|60.18,24.95"],
                      mentions: ["--path", "0xZZZZZZ"]),
        BadRenderCase(name: "unknown flag near --marker", arguments: ["--markr", "60.17,24.94"],
                      mentions: ["--markr", "did you mean --marker?"]),
        BadRenderCase(name: "unknown flag far from all", arguments: marker + ["--frobnicate-everything"],
                      mentions: ["--frobnicate-everything"]),
        BadRenderCase(name: "missing value for --size", arguments: marker + ["--size"], mentions: ["--size", "value"]),
        BadRenderCase(name: "missing value for -o", arguments: marker + ["-o"], mentions: ["-o needs a value"], withOutput: false),
        BadRenderCase(name: "malformed --size", arguments: marker + ["--size", "100x"], mentions: ["--size", "100x"]),
        BadRenderCase(name: "size over the limit", arguments: marker + ["--size", "9000x9000"],
                      mentions: ["--size", "9000x9000", "8192"]),
        BadRenderCase(name: "size times scale over the limit", arguments: marker + ["--size", "5000x5000", "--scale", "2"],
                      mentions: ["5000x5000", "scale 2", "8192"]),
        BadRenderCase(name: "scale 5", arguments: marker + ["--scale", "5"], mentions: ["--scale", "5"]),
        BadRenderCase(name: "zoom 23", arguments: marker + ["--zoom", "23"], mentions: ["--zoom", "23"]),
        BadRenderCase(name: "bearing 400", arguments: marker + ["--bearing", "400"], mentions: ["--bearing", "400", "-360…360"]),
        BadRenderCase(name: "bearing not a number", arguments: marker + ["--bearing", "north"],
                      mentions: ["--bearing", "north", "-360…360 or auto"]),
        BadRenderCase(name: "bearing -361 inside --url",
                      arguments: ["--url", "https://maps.googleapis.com/maps/api/staticmap?size=100x80&zoom=3&center=1,2&bearing=-361"],
                      mentions: ["--url", "bearing", "-361", "-360…360"]),
        BadRenderCase(name: "spec bearing out of range", arguments: ["--spec", "spec.json"],
                      files: ["spec.json": #"{"center": "60,24", "zoom": 3, "bearing": 1000}"#],
                      mentions: ["spec.json", "bearing", "1000", "-360…360"]),
        BadRenderCase(name: "negative padding", arguments: marker + ["--padding", "-5"], mentions: ["--padding", "-5"]),
        BadRenderCase(name: "zoom 99 inside --url",
                      arguments: ["--url", "https://maps.googleapis.com/maps/api/staticmap?size=100x80&zoom=99&center=1,2"],
                      mentions: ["--url", "zoom", "99"]),
        BadRenderCase(name: "unknown style name", arguments: marker + ["--style", "nosuch"], mentions: ["--style", "nosuch"]),
        BadRenderCase(
            name: "style JSON syntax error", arguments: marker + ["--style", "broken-style.json"],
            files: ["broken-style.json": #"{"version": 8, "sources": {}, "layers": [ {"id": "bg" "type": "background"} ]}"#],
            mentions: ["broken-style.json:1:55:", "layers[0]", "byte 54"]),
        BadRenderCase(
            name: "style with an unknown layer type", arguments: marker + ["--style", "bad-type.json"],
            files: ["bad-type.json": #"{"version": 8, "sources": {}, "layers": [ {"id": "bg", "type": "backgroundx"} ]}"#],
            mentions: ["bad-type.json", "layers[0].type", "backgroundx"]),
        BadRenderCase(name: "missing --geojson file", arguments: ["--geojson", "missing.geojson"],
                      mentions: ["--geojson", "missing.geojson"]),
        BadRenderCase(name: "spec with an unknown key", arguments: ["--spec", "spec.json"],
                      files: ["spec.json": #"{"center": "60,24", "zom": 3}"#], mentions: ["spec.json", "\"zom\""]),
        BadRenderCase(name: "unexpected positional argument", arguments: marker + ["extra"], mentions: ["'extra'"]),
        BadRenderCase(name: "nothing to show", arguments: [], mentions: ["nothing to show"]),
        BadRenderCase(name: "GeoJSON with no features", arguments: ["--geojson", TestPaths.fixture("corpus/geojsonvt-empty.geojson")],
                      mentions: ["geojsonvt-empty.geojson", "no features", "nothing to show"]),
        BadRenderCase(name: "GPX with an empty track", arguments: ["--gpx", TestPaths.fixture("corpus/togeojson-empty_trk.gpx")],
                      mentions: ["togeojson-empty_trk.gpx", "no track, route or waypoint", "nothing to show"]),
        BadRenderCase(name: "missing -o", arguments: marker, mentions: ["-o"], withOutput: false),
        BadRenderCase(name: "switch given a value", arguments: marker + ["--no-scale-bar=yes"], mentions: ["--no-scale-bar"]),
    ]

    @Test(arguments: badInputs)
    func badInputExitsTwoWithOneLineAndWritesNothing(_ c: BadRenderCase) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        for (name, text) in c.files { try CLIRunner.write(text, to: dir + "/" + name) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let args = ["render", "--style", TestPaths.plainStyle, "--size", "120x80"]
            + (c.withOutput ? ["-o", "out/map.png"] : []) + c.arguments
        let r = try CLIRunner.run(args, in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1, "expected one line: \(r.stderr)")
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("mapsnap: error: "), "\(line)")
        for m in c.mentions {
            #expect(line.contains(m), "\(line) should mention \(m)")
        }
        #expect(r.stdout.isEmpty)
        #expect(CLIRunner.listing(dir + "/out").isEmpty, "nothing may be written on bad input")
    }

    /// A FIFO given as an input file fails at once with a clean error instead of waiting for a
    /// writer that never comes (the runner kills a hang after its timeout).
    @Test func fifoAsInputFileIsRefusedWithoutHanging() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try #require(mkfifo(dir + "/route.geojson", 0o600) == 0)
        for flag in ["--geojson", "--gpx", "--spec", "--style"] {
            let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + [flag, "./route.geojson", "-o", "map.png"]), in: dir)
            #expect(!r.timedOut && r.exitCode == 2, "\(flag): \(r)")
            #expect(r.stderr.contains("route.geojson") && r.stderr.contains("FIFO"), "\(flag): \(r.stderr)")
        }
        let batch = try CLIRunner.run(["batch", "route.geojson", "--out-dir", "."], in: dir)
        #expect(!batch.timedOut && batch.exitCode == 2 && batch.stderr.contains("FIFO"), "\(batch)")
    }

    /// With `-o -`, bad input must not put a single byte on stdout.
    @Test func badInputWritesNothingToStdout() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--style", TestPaths.plainStyle, "--marker", "95,0", "-o", "-"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1)
    }

    /// Output paths that cannot be written: exit 3, a line naming the path, no file or temporary.
    @Test func missingOutputDirectoryExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "no-such-dir/map.png"]), in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderrLines.first?.hasPrefix("mapsnap: error: ") == true)
        #expect(r.stderr.contains("no-such-dir/map.png"))
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// Root ignores directory permissions, so this only means something for other users.
    @Test(.enabled(if: getuid() != 0, "root ignores directory permissions"))
    func readOnlyOutputDirectoryExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let locked = dir + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0o555)
        defer { chmod(locked, 0o755) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "locked/map.png"]), in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("locked/map.png"))
        #expect(CLIRunner.listing(locked).isEmpty)
    }

    /// The output path is an existing directory: the final rename fails; the directory and its
    /// contents survive and no temporary file is left beside it.
    @Test func outputPathIsADirectoryExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/taken", withIntermediateDirectories: true)
        try CLIRunner.write("keep", to: dir + "/taken/inside.txt")
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "taken"]), in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("taken"))
        #expect(CLIRunner.listing(dir) == ["taken"])
        #expect(CLIRunner.listing(dir + "/taken") == ["inside.txt"])
    }

    @Test func missingTileSourceExitsTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["render", "--source", "missing.mbtiles", "--marker", "60,24", "--size", "100x80",
                                   "-o", "map.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines == ["mapsnap: error: --source missing.mbtiles: no such file or directory"])
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// A failing render (bad input, missing source, unwritable temporary) leaves an existing
    /// output file exactly as it was.
    @Test(arguments: [
        (["--marker", "95,24.94"], Int32(2)),
        (["--marker", "60,24", "--polyline", "_p~iF~ps|U_ulL"], Int32(2)),
        (["--marker", "60,24", "--source", "missing.mbtiles"], Int32(2)),
    ])
    func existingOutputSurvivesAFailedRender(flags: [String], exitCode: Int32) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let old = "previous render, not a PNG"
        try CLIRunner.write(old, to: dir + "/map.png")
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(flags + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == exitCode, "\(r)")
        #expect(FileManager.default.contents(atPath: dir + "/map.png") == Data(old.utf8))
        #expect(CLIRunner.listing(dir) == ["map.png"])
    }

    /// A successful render does replace the old file (atomically, no temporary left behind).
    @Test func successfulRenderReplacesTheOutput() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("old", to: dir + "/map.png")
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir) == ["map.png"])
        _ = CLIRunner.decodePNG(atPath: dir + "/map.png")
    }
}
