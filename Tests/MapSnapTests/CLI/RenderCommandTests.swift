import Foundation
import Testing
import MapSnap

/// `mapsnap render` through the built binary: output files, stdout, flags, determinism.
/// Renders are small and use the background-only test style unless the base map is the point.
@Suite struct RenderCommandTests {
    static let plain = TestPaths.plainStyle
    /// Background colour of `Fixtures/styles/plain.json` (#f4f1ea).
    static let background = Color(rgb: 0xF4F1EA)

    /// A render with nothing but a few small overlays on the plain style.
    static func renderArgs(_ extra: [String]) -> [String] {
        ["render", "--style", plain, "--size", "120x80"] + extra
    }

    /// True when some pixel is far from the plain background (an overlay was drawn).
    static func hasInk(_ canvas: MapSnap.Canvas) -> Bool {
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let c = canvas.color(atX: x, y: y)
                let d = abs(Int(c.red) - Int(background.red)) + abs(Int(c.green) - Int(background.green))
                    + abs(Int(c.blue) - Int(background.blue))
                if d > 60 { return true }
            }
        }
        return false
    }

    @Test func writesAValidPNGAndNothingElse() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(Self.renderArgs(["--marker", "label:A|60.17,24.94", "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.isEmpty, "clean input must not warn: \(r.stderr)")
        #expect(r.stdout.isEmpty)
        // No temporary file left beside the output.
        #expect(CLIRunner.listing(dir) == ["map.png"])
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/map.png"))
        #expect(image.width == 120 && image.height == 80)
        // Top-left corner is away from the marker, the scale bar and the attribution.
        #expect(image.color(atX: 1, y: 1) == Self.background)
        #expect(Self.hasInk(image))
    }

    /// A style whose sprite is a remote URL, pointed at a local copy with `--sprite`.
    @Test func spriteFlagReplacesARemoteSprite() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(##"""
        {"version": 8, "sprite": "https://example.com/sprite",
         "sources": {"s": {"type": "vector", "url": "https://example.com/tiles.json"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "square"}}]}
        """##, to: dir + "/style.json")
        let base = ["render", "--style", "style.json", "--center", "60.17,24.94", "--zoom", "14", "--size", "40x30",
                    "--source", TestPaths.fixture("helsinki-openmaptiles.mbtiles"), "--attribution", "none", "--no-scale-bar"]
        let remote = try CLIRunner.run(base + ["--offline", "--cache-dir", "cache", "-o", "a.png"], in: dir)
        #expect(remote.exitCode == 0, "\(remote)")
        #expect(remote.stderr == "mapsnap: warning: sprite https://example.com/sprite.json: not in the cache, and offline mode forbids the network; icons and patterns are left out\n")
        let local = try CLIRunner.run(base + ["--sprite", TestPaths.fixture("sprites/test"), "-o", "b.png"], in: dir)
        #expect(local.exitCode == 0, "\(local)")
        #expect(local.stderr.isEmpty, "\(local.stderr)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/b.png"))
        #expect(image.color(atX: 20, y: 15) == Color(rgb: 0xFF0000))
        // A sprite that is not there: like any input path that names nothing, exit 2 and one
        // line naming the flag (README, "Exit codes").
        let missing = try CLIRunner.run(base + ["--sprite", "nowhere/sprite", "-o", "c.png"], in: dir)
        #expect(missing.exitCode == 2)
        #expect(missing.stderrLines == ["mapsnap: error: --sprite nowhere/sprite.json: no such file"], "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.png"))
        // A malformed one: exit 2, one line naming the file and key.
        try CLIRunner.write(#"{"square": {"x": 0}}"#, to: dir + "/bad.json")
        try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("sprites/test.png"))).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        let bad = try CLIRunner.run(base + ["--sprite", "bad", "-o", "d.png"], in: dir)
        #expect(bad.exitCode == 2, "\(bad)")
        #expect(bad.stderr.contains("bad.json: square.y: expected an integer"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/d.png"))
    }

    @Test func dashOWritesThePNGToStdout() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let args = Self.renderArgs(["--marker", "60.17,24.94"])
        let piped = try CLIRunner.run(args + ["-o", "-"], in: dir)
        #expect(piped.exitCode == 0, "\(piped)")
        #expect(piped.stderr.isEmpty)
        #expect(CLIRunner.listing(dir).isEmpty, "'-o -' must not create a file named '-'")
        let image = try #require(CLIRunner.decodePNG(piped.stdout, origin: "stdout"))
        #expect(image.width == 120 && image.height == 80)
        // The same bytes as writing a file.
        let filed = try CLIRunner.run(args + ["-o", "map.png"], in: dir)
        #expect(filed.exitCode == 0, "\(filed)")
        #expect(FileManager.default.contents(atPath: dir + "/map.png").map { [UInt8]($0) } == piped.stdout)
    }

    /// `--size` is in points; `--scale` multiplies pixels. `--output=` (inline value) works too.
    @Test(arguments: [
        (["--size", "300x200", "--scale", "2"], 600, 400),
        (["--size", "300x200"], 300, 200),
        (["--size=64x48", "--scale=3"], 192, 144),
        (["--size", "1x1"], 1, 1),
        ([], 600, 400),  // the default size
    ])
    func sizeAndScaleGiveThePixelSize(flags: [String], width: Int, height: Int) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let args = ["render", "--style", Self.plain, "--center", "60.17,24.94", "--zoom", "12"] + flags + ["--output=out.png"]
        let r = try CLIRunner.run(args, in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/out.png"))
        #expect(image.width == width && image.height == height)
    }

    /// A spec file sets everything; flags given as well apply on top. Relative paths in the
    /// spec (its output) resolve against the spec's directory, not the working directory.
    @Test func specFileWithFlagsOnTop() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/specs", withIntermediateDirectories: true)
        try CLIRunner.write("""
            {"size": "200x100", "center": "60.17,24.94", "zoom": 12, "style": "\(Self.plain)",
             "markers": ["color:red|60.17,24.94"], "output": "from-spec.png"}
            """, to: dir + "/specs/spec.json")

        let plain = try CLIRunner.run(["render", "--spec", "specs/spec.json"], in: dir)
        #expect(plain.exitCode == 0, "\(plain)")
        let fromSpec = try #require(CLIRunner.decodePNG(atPath: dir + "/specs/from-spec.png"))
        #expect(fromSpec.width == 200 && fromSpec.height == 100)

        let overridden = try CLIRunner.run(["render", "--spec", "specs/spec.json", "--size", "150x90", "--scale", "2",
                                            "-o", "flags.png"], in: dir)
        #expect(overridden.exitCode == 0, "\(overridden)")
        let fromFlags = try #require(CLIRunner.decodePNG(atPath: dir + "/flags.png"))
        #expect(fromFlags.width == 300 && fromFlags.height == 180)
        #expect(Self.hasInk(fromFlags), "the spec's marker survives the flags")
    }

    /// Every overlay input on its own produces an image with something drawn on it.
    @Test(arguments: [
        ("gpx", ["--gpx", TestPaths.fixture("gpx/track-1.1.gpx")]),
        ("gpx 1.0 route", ["--gpx", TestPaths.fixture("gpx/route-1.0.gpx")]),
        ("geojson", ["--geojson", TestPaths.fixture("geojson/route.geojson")]),
        ("polyline", ["--polyline", "_p~iF~ps|U_ulLnnqC_mqNvxq`@"]),
        ("polyline6", ["--polyline6", "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"]),
        ("url", ["--url", "https://maps.googleapis.com/maps/api/staticmap?size=120x80&markers=color:red|60.17,24.94&path=color:0x0000ffff|weight:4|60.17,24.94|60.18,24.95"]),
        ("path", ["--path", "color:0xff0000ff|weight:4|60.17,24.94|60.16,24.95"]),
    ])
    func eachInputProducesAnImage(name: String, input: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        // No attribution or scale bar, so any ink comes from the overlay. 200×150 leaves room
        // for marker titles (see `fitWithNoRoomForTheTitlesStillShowsTheOverlays`).
        let r = try CLIRunner.run(Self.renderArgs(input + ["--size", "200x150", "--attribution", "none", "--no-scale-bar",
                                                           "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(name): \(r)")
        #expect(r.stderr.isEmpty, "\(name): \(r.stderr)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/map.png"))
        #expect(image.width == 200 && image.height == 150)
        #expect(Self.hasInk(image), "\(name): nothing drawn")
    }

    /// When the padding plus the markers' pixel margins (a titled waypoint) leave no room,
    /// the fit falls back to the bare content instead of zooming in to the maximum (which
    /// once wrote a blank map).
    @Test func fitWithNoRoomForTheTitlesStillShowsTheOverlays() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(Self.renderArgs(["--gpx", TestPaths.fixture("gpx/route-1.0.gpx"), "--attribution", "none",
                                                   "--no-scale-bar", "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/map.png"))
        #expect(Self.hasInk(image), "a fitted render must show its overlays")
    }

    /// `--attribution none`, `--no-scale-bar` and `--caption` are accepted and each changes the image.
    @Test func decorationFlagsChangeTheImage() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let base = ["render", "--style", Self.plain, "--size", "200x120", "--center", "60.17,24.94", "--zoom", "12",
                    "--attribution", "© test data"]
        var outputs: [String: [UInt8]] = [:]
        for (name, flags) in [("base", []), ("noAttribution", ["--attribution", "none"]),
                              ("noScaleBar", ["--no-scale-bar"]), ("caption", ["--caption", "Ride · 12.3 km"])] {
            let r = try CLIRunner.run(base + flags + ["-o", "\(name).png"], in: dir)
            #expect(r.exitCode == 0, "\(name): \(r)")
            #expect(r.stderr.isEmpty, "\(name): \(r.stderr)")
            outputs[name] = FileManager.default.contents(atPath: dir + "/\(name).png").map { [UInt8]($0) }
        }
        let baseBytes = try #require(outputs["base"])
        for name in ["noAttribution", "noScaleBar", "caption"] {
            let bytes = try #require(outputs[name])
            #expect(bytes != baseBytes, "\(name) made no difference")
        }
        // With every decoration off and no caption, only the background is left.
        let bare = try CLIRunner.run(base + ["--attribution", "none", "--no-scale-bar", "-o", "bare.png"], in: dir)
        #expect(bare.exitCode == 0, "\(bare)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/bare.png"))
        #expect(!Self.hasInk(image))
    }

    /// The same command twice gives the same bytes: overlays with text at scale 2, and the
    /// vector base map from the bundled Helsinki tiles (parallel tile loading).
    @Test(arguments: [
        ["--style", RenderCommandTests.plain, "--size", "160x100", "--scale", "2",
         "--gpx", TestPaths.fixture("gpx/track-1.1.gpx"), "--marker", "label:B|title:Café|47.37,8.545",
         "--caption", "5.2 km"],
        ["--source", TestPaths.fixture("helsinki-openmaptiles.mbtiles"), "--style", "normal",
         "--center", "60.1717,24.9443", "--zoom", "14", "--size", "160x120"],
    ])
    func sameCommandTwiceGivesIdenticalBytes(flags: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        for name in ["a.png", "b.png"] {
            let r = try CLIRunner.run(["render"] + flags + ["-o", name], in: dir)
            #expect(r.exitCode == 0, "\(r)")
        }
        let a = try #require(FileManager.default.contents(atPath: dir + "/a.png"))
        let b = try #require(FileManager.default.contents(atPath: dir + "/b.png"))
        #expect(a.count > 100)
        #expect(a == b)
        _ = CLIRunner.decodePNG([UInt8](a), origin: "a.png")
    }
}
