import Foundation
import Testing
import MapSnap

/// `--pitch` from every input: the flag, the spec's `pitch`, the Static Maps URL's `pitch`
/// through `render --url` and through `serve` (the issue's `bearing=90&pitch=30`); bad
/// values exit 2 naming the range; `--help`.
@Suite struct PitchCLITests {
    @Test func flagSpecAndURLTiltTheMapAlike() throws {
        try BearingCLITests.expectFlagSpecAndURLAlike(
            flags: ["--bearing", "90", "--pitch", "30"], fields: #""bearing": 90, "pitch": 30"#,
            parameters: "&bearing=90&pitch=30", other: ["--bearing", "90"])
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
