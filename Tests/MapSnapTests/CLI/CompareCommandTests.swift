import Foundation
import Testing
import MapSnap

/// `mapsnap compare` exit codes and output, on the comparator fixtures (64×48 images).
@Suite struct CompareCommandTests {
    static func fixture(_ name: String) -> String { TestPaths.fixture("compare/\(name).png") }

    @Test func identicalImagesMatch() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["compare", Self.fixture("base"), Self.fixture("base")], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdoutText.hasPrefix("match: 0 differing pixels"))
    }

    @Test(arguments: [("one_pixel", "1 differing pixel "), ("color_big", "568 differing pixels")])
    func differentImagesExitOneWithASummary(name: String, summary: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["compare", Self.fixture(name), Self.fixture("base")], in: dir)
        #expect(r.exitCode == 1, "\(r)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdoutText.hasPrefix("mismatch: "), "\(r.stdoutText)")
        #expect(r.stdoutText.contains(summary), "\(r.stdoutText)")
    }

    /// A tolerance lets the one-pixel difference pass, and `--diff` writes a decodable image
    /// the size of the inputs.
    @Test func toleranceAndDiffImage() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["compare", Self.fixture("one_pixel"), Self.fixture("base"), "--max-diff", "1",
                                   "--diff", "diff.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.contains("diff written to diff.png"))
        let diff = try #require(CLIRunner.decodePNG(atPath: dir + "/diff.png"))
        #expect(diff.width == 64 && diff.height == 48)
        #expect(CLIRunner.listing(dir) == ["diff.png"])
    }

    /// A render compared with itself through the CLI: the visual-regression workflow.
    @Test func renderComparesEqualToItself() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        for name in ["actual.png", "expected.png"] {
            let r = try CLIRunner.run(RenderCommandTests.renderArgs(["--marker", "label:A|60.17,24.94", "-o", name]), in: dir)
            #expect(r.exitCode == 0, "\(r)")
        }
        let r = try CLIRunner.run(["compare", "actual.png", "expected.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
    }

    /// Bad input is exit 2 with one `mapsnap: error:` line naming the file or flag.
    @Test(arguments: [
        ("size mismatch", ["taller", "base"], ["size mismatch", "64×49", "64×48"]),
        ("missing file", ["/nonexistent/actual.png", "base"], ["/nonexistent/actual.png", "no such file"]),
        ("one image", ["base"], ["got 1 image path"]),
        ("unknown flag", ["base", "base", "--bogus"], ["--bogus"]),
        ("bad threshold", ["base", "base", "--threshold", "2"], ["--threshold", "'2'"]),
        ("bad max-diff", ["base", "base", "--max-diff", "abc"], ["--max-diff", "abc"]),
    ])
    func badInputExitsTwo(name: String, arguments: [String], mentions: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let args = arguments.map { ["base", "taller"].contains($0) ? Self.fixture($0) : $0 }
        let r = try CLIRunner.run(["compare"] + args, in: dir)
        #expect(r.exitCode == 2, "\(name): \(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("mapsnap: error: compare: "), "\(line)")
        for m in mentions { #expect(line.contains(m), "\(line) should mention \(m)") }
    }
}
