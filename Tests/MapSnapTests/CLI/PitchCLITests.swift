import Foundation
import Testing
import MapSnap

/// `--pitch` from every input: the flag, the spec's `pitch`, the Static Maps URL's `pitch`
/// through `render --url` and through `serve` (the issue's `bearing=90&pitch=30`); bad
/// values exit 2 naming the range; `--help`.
@Suite struct PitchCLITests {
    @Test func flagSpecAndURLTiltTheMapAlike() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let scene = BearingCLITests.scene
        let flag = try CLIRunner.run(scene + ["--bearing", "90", "--pitch", "30", "-o", "flag.png"], in: dir)
        #expect(flag.exitCode == 0, "\(flag)")
        try CLIRunner.write("""
        {"style": "\(RenderCommandTests.plain)", "size": "160x120", "center": [60.17, 24.94], "zoom": 15, "bearing": 90, "pitch": 30,
         "markers": ["label:A|60.171,24.943"], "paths": ["weight:4|60.168,24.935|60.172,24.946"],
         "attribution": "none", "format": "png32"}
        """, to: dir + "/spec.json")
        let spec = try CLIRunner.run(["render", "--spec", "spec.json", "-o", "spec.png"], in: dir)
        #expect(spec.exitCode == 0, "\(spec)")
        let url = "https://maps.googleapis.com/maps/api/staticmap?size=160x120&center=60.17,24.94&zoom=15&bearing=90&pitch=30"
            + "&markers=label:A|60.171,24.943&path=weight:4|60.168,24.935|60.172,24.946"
        let fromURL = try CLIRunner.run(["render", "--style", RenderCommandTests.plain, "--url", url, "--attribution", "none",
                                         "--format", "png32", "-o", "url.png"], in: dir)
        #expect(fromURL.exitCode == 0, "\(fromURL)")
        let turned = try CLIRunner.run(scene + ["--bearing", "90", "-o", "turned.png"], in: dir)
        #expect(turned.exitCode == 0)
        let png = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try png("flag.png") == png("spec.png"))
        #expect(try png("url.png") == png("flag.png"))
        #expect(try png("flag.png") != png("turned.png"))
    }

    @Test func serveTiltsTheMapLikeRenderURL() throws {
        try ServerFixtures.expectServeMatchesRenderURL(
            "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=15&size=300x200&bearing=90&pitch=30"
                + "&markers=label:H|60.17,24.94&format=png32",
            replacing: "pitch=30", with: "pitch=90", naming: ["pitch", "0…85"])
    }

    @Test(arguments: ["90", "-5", "steep", "nan"])
    func badPitchesExitTwoNamingTheRange(value: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(BearingCLITests.scene + ["--pitch", value, "-o", "bad.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("--pitch") && r.stderr.contains("0…85"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.png"))
    }

    @Test func helpDocumentsTheFlag() throws {
        let r = try CLIRunner.run(["render", "--help"])
        defer { CLIRunner.cleanUp(r.directory) }
        let help = String(decoding: r.stdout, as: UTF8.self)
        #expect(help.contains("--pitch DEG") && help.contains("0-85"))
    }
}
