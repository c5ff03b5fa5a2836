import Foundation
import Testing
import MapSnap

/// `--bearing` from every input: the flag, the spec's `bearing`, the Static Maps URL's
/// `bearing` through `render --url` and through `serve`; `--north-arrow`; `--help`.
@Suite struct BearingCLITests {
    static let scene = ["render", "--style", RenderCommandTests.plain, "--size", "160x120", "--center", "60.17,24.94",
                        "--zoom", "15", "--marker", "label:A|60.171,24.943", "--path", "weight:4|60.168,24.935|60.172,24.946",
                        "--attribution", "none", "--format", "png32"]

    /// `scene` with a camera given three ways — `flags`, the spec's `fields` (JSON members
    /// after a comma) and the URL's `parameters` (`&…`) — rendered in `dir` as flag.png,
    /// spec.png and url.png; the three must be the same bytes, and differ from `scene`
    /// rendered with `other` (the camera they must not look like) as other.png.
    static func expectFlagSpecAndURLAlike(flags: [String], fields: String, parameters: String, other: [String],
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let flag = try CLIRunner.run(scene + flags + ["-o", "flag.png"], in: dir)
        #expect(flag.exitCode == 0, "\(flag)", sourceLocation: sourceLocation)
        try CLIRunner.write("""
        {"style": "\(RenderCommandTests.plain)", "size": "160x120", "center": [60.17, 24.94], "zoom": 15, \(fields),
         "markers": ["label:A|60.171,24.943"], "paths": ["weight:4|60.168,24.935|60.172,24.946"],
         "attribution": "none", "format": "png32"}
        """, to: dir + "/spec.json")
        let spec = try CLIRunner.run(["render", "--spec", "spec.json", "-o", "spec.png"], in: dir)
        #expect(spec.exitCode == 0, "\(spec)", sourceLocation: sourceLocation)
        let url = "https://maps.googleapis.com/maps/api/staticmap?size=160x120&center=60.17,24.94&zoom=15\(parameters)"
            + "&markers=label:A|60.171,24.943&path=weight:4|60.168,24.935|60.172,24.946"
        let fromURL = try CLIRunner.run(["render", "--style", RenderCommandTests.plain, "--url", url, "--attribution", "none",
                                         "--format", "png32", "-o", "url.png"], in: dir)
        #expect(fromURL.exitCode == 0, "\(fromURL)", sourceLocation: sourceLocation)
        let unlike = try CLIRunner.run(scene + other + ["-o", "other.png"], in: dir)
        #expect(unlike.exitCode == 0, "\(unlike)", sourceLocation: sourceLocation)
        let png = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try png("flag.png") == png("spec.png"), sourceLocation: sourceLocation)
        // The URL's default path colour differs from --path's only if the syntax differs: same scene.
        #expect(try png("url.png") == png("flag.png"), sourceLocation: sourceLocation)
        #expect(try png("flag.png") != png("other.png"), sourceLocation: sourceLocation)
    }

    @Test func flagSpecAndURLTurnTheMapAlike() throws {
        try Self.expectFlagSpecAndURLAlike(flags: ["--bearing", "90"], fields: #""bearing": 90"#, parameters: "&bearing=90",
                                           other: [])
    }

    @Test func serveTurnsTheMapLikeRenderURL() throws {
        try ServerFixtures.expectServeMatchesRenderURL(
            "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=15&size=300x200&bearing=90"
                + "&markers=label:H|60.17,24.94&format=png32",
            replacing: "bearing=90", with: "bearing=east", naming: ["bearing", "-360…360"])
    }

    @Test func trackUpAndTheNorthArrowSwitches() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let fit = ["render", "--style", RenderCommandTests.plain, "--size", "160x120", "--attribution", "none", "--format", "png32",
                   "--path", "weight:4|60.160,24.930|60.165,24.950|60.170,24.960"]
        let auto = try CLIRunner.run(fit + ["--bearing", "auto", "-o", "auto.png"], in: dir)
        #expect(auto.exitCode == 0 && auto.stderr.isEmpty, "\(auto)")
        let plain = try CLIRunner.run(fit + ["-o", "north.png"], in: dir)
        #expect(plain.exitCode == 0)
        let arrow = try CLIRunner.run(fit + ["--north-arrow", "-o", "arrow.png"], in: dir)
        #expect(arrow.exitCode == 0)
        let noArrow = try CLIRunner.run(fit + ["--bearing", "auto", "--no-north-arrow", "-o", "auto-plain.png"], in: dir)
        #expect(noArrow.exitCode == 0)
        let png = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try png("auto.png") != png("north.png"))
        #expect(try png("arrow.png") != png("north.png"))
        #expect(try png("auto-plain.png") != png("auto.png"))
    }

    @Test func helpDocumentsTheFlags() throws {
        let r = try CLIRunner.run(["render", "--help"])
        defer { CLIRunner.cleanUp(r.directory) }
        let help = String(decoding: r.stdout, as: UTF8.self)
        #expect(help.contains("--bearing DEG|auto") && help.contains("--north-arrow") && help.contains("-360 to 360"))
    }
}
