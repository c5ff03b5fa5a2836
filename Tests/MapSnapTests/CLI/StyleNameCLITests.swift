import Foundation
import Testing
@testable import MapSnap

/// Style names: Google's map types wherever a style name is accepted, "did you mean" for typos.
@Suite struct StyleNameCLITests {
    static let view = ["--center", "60.17,24.94", "--zoom", "12", "--size", "64x48", "-q"]

    /// `--style roadmap` (and a spec's `"style": "roadmap"`) draws exactly `--style normal`;
    /// `satellite`, `terrain` and `hybrid` are already bundled names; case does not matter.
    @Test func googleMapTypesNameTheBundledStyles() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(#"{"center": [60.17, 24.94], "zoom": 12, "size": "64x48", "style": "roadmap"}"#, to: dir + "/spec.json")
        for (arguments, output) in [(["--style", "normal"], "normal.png"), (["--style", "roadmap"], "roadmap.png"),
                                    (["--style", "RoadMap"], "upper.png"), (["--spec", "spec.json"], "spec.png"),
                                    (["--style", "terrain"], "terrain.png")] {
            let r = try CLIRunner.run(["render"] + Self.view + arguments + ["-o", output], in: dir)
            #expect(r.exitCode == 0, "\(arguments): \(r)")
        }
        let normal = FileManager.default.contents(atPath: dir + "/normal.png")
        #expect(normal != nil)
        for name in ["roadmap.png", "upper.png", "spec.png"] {
            #expect(FileManager.default.contents(atPath: dir + "/" + name) == normal, "\(name) differs from --style normal")
        }
        #expect(FileManager.default.contents(atPath: dir + "/terrain.png") != normal)
    }

    @Test(arguments: [
        (["--style", "normall"], #"--style normall: no such style (did you mean "normal"?)"#),
        (["--style", "roadmpa"], #"--style roadmpa: no such style (did you mean "roadmap"?)"#),
        (["--style", "satelite"], #"--style satelite: no such style (did you mean "satellite"?)"#),
        (["--style", "blueprint"], "--style blueprint: no such style; expected normal, terrain, hybrid, satellite"),
        (["--url", "staticmap?center=60,24&zoom=3&size=64x48&maptype=terain"],
         #"--url maptype: "terain": expected roadmap, terrain, satellite or hybrid (did you mean "terrain"?)"#),
    ])
    func typosGetDidYouMean(arguments: [String], message: String) throws {
        let r = try CLIRunner.run(["render"] + Self.view + arguments + ["-o", "map.png"])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderrLines.first?.hasPrefix("mapsnap: error: " + message) == true, "\(r.stderr)")
        #expect(CLIRunner.listing(r.directory).isEmpty)
    }

    @Test func aSpecStyleTypoGetsDidYouMean() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(#"{"center": [60.17, 24.94], "zoom": 12, "style": "hybird"}"#, to: dir + "/spec.json")
        let r = try CLIRunner.run(["render", "--spec", "spec.json", "-o", "map.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains(#"no such style (did you mean "hybrid"?)"#), "\(r.stderr)")
    }
}
