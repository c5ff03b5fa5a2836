import Foundation
import Testing
@testable import MapSnap
@testable import mapsnap

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

/// `CompareCommand` in-process: parsing the arguments after `compare`.
@Suite struct CompareCommandParsingTests {
    @Test func defaults() throws {
        let c = try CompareCommand(arguments: ["a.png", "b.png"])
        #expect(c.actualPath == "a.png" && c.expectedPath == "b.png")
        #expect(c.threshold == ImageComparator.defaultThreshold && c.tolerance == .pixels(0))
        #expect(!c.includeAntiAliasing && c.diffPath == nil && !c.json)
    }

    @Test func allFlagsInBothForms() throws {
        let c = try CompareCommand(arguments: ["--threshold=0.2", "a.png", "--max-diff", "0.5%", "b.png",
                                               "--include-aa", "--diff", "d.png", "--json"])
        #expect(c.threshold == 0.2 && c.tolerance == .percent(0.5) && c.includeAntiAliasing)
        #expect(c.diffPath == "d.png" && c.json)
        #expect(try CompareCommand(arguments: ["a", "b", "--max-diff=12"]).tolerance == .pixels(12))
    }

    /// Each bad argument list gives one message naming the flag or argument.
    @Test(arguments: [
        (["a.png"], "expected ACTUAL.png and EXPECTED.png, got 1 image path"),
        ([], "expected ACTUAL.png and EXPECTED.png, got 0 image paths"),
        (["a", "b", "c"], "unexpected argument 'c': compare takes exactly two images"),
        (["a", "b", "--threshold"], "--threshold needs a value"),
        (["a", "b", "--threshold", "1.5"], "--threshold '1.5': expected a number from 0 to 1"),
        (["a", "b", "--threshold", "nan"], "--threshold 'nan': expected a number from 0 to 1"),
        (["a", "b", "--max-diff", "-3"], "--max-diff '-3': expected a pixel count or a percentage like 0.5%"),
        (["a", "b", "--max-diff", "101%"], "--max-diff '101%': expected a percentage from 0% to 100%"),
        (["a", "b", "--diff="], "--diff '': expected a file path"),
        (["a", "b", "--fuzz"], "unknown option --fuzz"),
        (["a", "b", "-t"], "unknown option -t"),
        (["a", "b", "--json=yes"], "--json takes no value"),
    ] as [([String], String)])
    func badArguments(_ args: [String], _ message: String) {
        #expect(throws: (any Error).self) { try CompareCommand(arguments: args) }
        do {
            _ = try CompareCommand(arguments: args)
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }
}

/// `CompareCommand.run()` in-process: exit codes, reports and the diff image.
@Suite struct CompareCommandRunTests {
    static func fixture(_ name: String) -> String { TestPaths.fixture("compare/\(name)") }

    @Test func identicalImagesExitZero() throws {
        let out = try CompareCommand(arguments: [Self.fixture("base.png"), Self.fixture("base.png")]).run()
        #expect(out.exitCode == 0 && out.errorMessage == nil)
        #expect(out.output == "match: 0 differing pixels (0.0000%), max delta 0.0000")
    }

    @Test func mismatchExitsOneAndWritesDiffAtomically() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let diff = dir + "/diff.png"
        let out = try CompareCommand(arguments: [Self.fixture("color_big.png"), Self.fixture("base.png"), "--diff", diff]).run()
        #expect(out.exitCode == 1)
        #expect(out.output.hasPrefix("mismatch: 568 differing pixels (18.4896%)"))
        #expect(out.output.hasSuffix("(allowed: 0 pixels); diff written to \(diff)"))
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: diff))), origin: diff)
        #expect(image.width == 64 && image.height == 48)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["diff.png"])
    }

    @Test func toleranceTurnsMismatchIntoMatch() throws {
        let args = [Self.fixture("shift_1px.png"), Self.fixture("base.png")]
        #expect(try CompareCommand(arguments: args).run().exitCode == 1)
        #expect(try CompareCommand(arguments: args + ["--max-diff", "4"]).run().exitCode == 0)
        #expect(try CompareCommand(arguments: args + ["--max-diff", "3"]).run().exitCode == 1)
        #expect(try CompareCommand(arguments: args + ["--max-diff", "0.2%"]).run().exitCode == 0)
        #expect(try CompareCommand(arguments: args + ["--max-diff", "4", "--include-aa"]).run().exitCode == 1)
    }

    @Test func jsonReport() throws {
        let a = Self.fixture("one_pixel.png"), e = Self.fixture("base.png")
        let out = try CompareCommand(arguments: [a, e, "--json"]).run()
        #expect(out.exitCode == 1)
        let object = try #require(try JSONValue.parse(Array(out.output.utf8), origin: "report").objectValue)
        #expect(object["differingPixels"] == .number(1))
        #expect(object["match"] == .bool(false))
        #expect(object["actual"] == .string(a))
        #expect(object["maxDiffPixels"] == .number(0))
        #expect(object["threshold"] == .number(ImageComparator.defaultThreshold))
        #expect(object["diff"] == .null)
        #expect(object.keys == ["actual", "expected", "width", "height", "match", "differingPixels", "differingPercentage",
                                "antiAliasedPixels", "maxDelta", "threshold", "maxDiffPixels", "diff"])
        #expect(out.output.hasPrefix("{\"actual\":"))
    }

    @Test func badInputsExitTwoNamingTheFile() throws {
        let base = Self.fixture("base.png")
        let missing = try CompareCommand(arguments: ["/no/such.png", base]).run()
        #expect(missing.exitCode == 2 && missing.errorMessage == "/no/such.png: no such file" && missing.output.isEmpty)

        let notPNG = Self.fixture("make_pairs.py")
        let unreadable = try CompareCommand(arguments: [base, notPNG]).run()
        #expect(unreadable.exitCode == 2)
        #expect(unreadable.errorMessage?.hasPrefix("\(notPNG): not a PNG file") == true)

        let taller = Self.fixture("taller.png")
        let size = try CompareCommand(arguments: [taller, base]).run()
        #expect(size.exitCode == 2)
        #expect(size.errorMessage == "size mismatch: \(taller) is 64×49, \(base) is 64×48")
    }

    @Test func unwritableDiffExitsThree() throws {
        let out = try CompareCommand(arguments: [Self.fixture("one_pixel.png"), Self.fixture("base.png"),
                                                 "--diff", "/no/such/dir/diff.png"]).run()
        #expect(out.exitCode == 3)
        #expect(out.errorMessage?.hasPrefix("--diff: cannot create /no/such/dir/diff.png") == true)
    }
}
