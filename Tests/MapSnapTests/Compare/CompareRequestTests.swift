import Foundation
import Testing
@testable import MapSnap

private func fixturePath(_ name: String, filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/compare/\(name)").path
}

@Suite struct CompareRequestParsingTests {
    @Test func defaults() throws {
        let r = try CompareRequest(arguments: ["a.png", "b.png"])
        #expect(r.actualPath == "a.png" && r.expectedPath == "b.png")
        #expect(r.threshold == 0.1 && r.tolerance == .pixels(0) && !r.includeAntiAliasing && r.diffPath == nil && !r.json)
    }

    @Test func allFlagsInBothForms() throws {
        let r = try CompareRequest(arguments: ["--threshold=0.2", "a.png", "--max-diff", "0.5%", "b.png",
                                               "--include-aa", "--diff", "d.png", "--json"])
        #expect(r.threshold == 0.2 && r.tolerance == .percent(0.5) && r.includeAntiAliasing)
        #expect(r.diffPath == "d.png" && r.json)
        #expect(try CompareRequest(arguments: ["a", "b", "--max-diff=12"]).tolerance == .pixels(12))
    }

    @Test(arguments: [
        (["a.png"], CompareRequestError.missingImages(given: 1)),
        (["a", "b", "c"], .unexpectedArgument("c")),
        (["a", "b", "--threshold"], .missingValue(flag: "--threshold")),
        (["a", "b", "--threshold", "1.5"], .invalidValue(flag: "--threshold", value: "1.5", reason: "expected a number from 0 to 1")),
        (["a", "b", "--threshold", "nan"], .invalidValue(flag: "--threshold", value: "nan", reason: "expected a number from 0 to 1")),
        (["a", "b", "--max-diff", "-3"], .invalidValue(flag: "--max-diff", value: "-3", reason: "expected a pixel count or a percentage like 0.5%")),
        (["a", "b", "--max-diff", "101%"], .invalidValue(flag: "--max-diff", value: "101%", reason: "expected a percentage from 0% to 100%")),
        (["a", "b", "--fuzz"], .unknownFlag("--fuzz")),
        (["a", "b", "-t"], .unknownFlag("-t")),
        (["a", "b", "--json=yes"], .invalidValue(flag: "--json", value: "yes", reason: "takes no value")),
    ] as [([String], CompareRequestError)])
    func badArguments(_ args: [String], _ error: CompareRequestError) {
        #expect(throws: error) { try CompareRequest(arguments: args) }
    }

    @Test func messagesNameTheFlag() {
        #expect(CompareRequestError.invalidValue(flag: "--threshold", value: "2", reason: "expected a number from 0 to 1").description
                == "--threshold '2': expected a number from 0 to 1")
    }
}

@Suite struct CompareRequestRunTests {
    @Test func identicalImagesExitZero() throws {
        let out = try CompareRequest(arguments: [fixturePath("base.png"), fixturePath("base.png")]).run()
        #expect(out.exitCode == 0 && out.errorMessage == nil)
        #expect(out.output == "match: 0 differing pixels (0.0000%), max delta 0.0000")
    }

    @Test func mismatchExitsOneAndWritesDiffAtomically() throws {
        let dir = try makeTemporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let diff = dir + "/diff.png"
        let out = try CompareRequest(arguments: [fixturePath("color_big.png"), fixturePath("base.png"), "--diff", diff]).run()
        #expect(out.exitCode == 1)
        #expect(out.output.hasPrefix("mismatch: 568 differing pixels (18.4896%)"))
        #expect(out.output.hasSuffix("(allowed: 0 pixels); diff written to \(diff)"))
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: diff))), origin: diff)
        #expect(image.width == 64 && image.height == 48)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["diff.png"])
    }

    @Test func toleranceTurnsMismatchIntoMatch() throws {
        let args = [fixturePath("shift_1px.png"), fixturePath("base.png")]
        #expect(try CompareRequest(arguments: args).run().exitCode == 1)
        #expect(try CompareRequest(arguments: args + ["--max-diff", "4"]).run().exitCode == 0)
        #expect(try CompareRequest(arguments: args + ["--max-diff", "3"]).run().exitCode == 1)
        #expect(try CompareRequest(arguments: args + ["--max-diff", "0.2%"]).run().exitCode == 0)
        #expect(try CompareRequest(arguments: args + ["--max-diff", "4", "--include-aa"]).run().exitCode == 1)
    }

    @Test func jsonReport() throws {
        let a = fixturePath("one_pixel.png"), e = fixturePath("base.png")
        let out = try CompareRequest(arguments: [a, e, "--json"]).run()
        #expect(out.exitCode == 1)
        let object = try #require(try JSONValue.parse(Array(out.output.utf8), origin: "report").objectValue)
        #expect(object["differingPixels"] == .number(1))
        #expect(object["match"] == .bool(false))
        #expect(object["actual"] == .string(a))
        #expect(object["maxDiffPixels"] == .number(0))
        #expect(object["diff"] == .null)
        #expect(object.keys == ["actual", "expected", "width", "height", "match", "differingPixels", "differingPercentage",
                                "antiAliasedPixels", "maxDelta", "threshold", "maxDiffPixels", "diff"])
        #expect(out.output.hasPrefix("{\"actual\":"))
    }

    @Test func badInputsExitTwoNamingTheFile() throws {
        let missing = try CompareRequest(arguments: ["/no/such.png", fixturePath("base.png")]).run()
        #expect(missing.exitCode == 2 && missing.errorMessage == "/no/such.png: no such file" && missing.output.isEmpty)

        let notPNG = fixturePath("make_pairs.py")
        let unreadable = try CompareRequest(arguments: [fixturePath("base.png"), notPNG]).run()
        #expect(unreadable.exitCode == 2)
        #expect(unreadable.errorMessage?.hasPrefix("\(notPNG): not a PNG file") == true)

        let size = try CompareRequest(arguments: [fixturePath("taller.png"), fixturePath("base.png")]).run()
        #expect(size.exitCode == 2)
        #expect(size.errorMessage == "size mismatch: \(fixturePath("taller.png")) is 64×49, \(fixturePath("base.png")) is 64×48")
    }

    @Test func unwritableDiffExitsThree() throws {
        let out = try CompareRequest(arguments: [fixturePath("one_pixel.png"), fixturePath("base.png"),
                                                 "--diff", "/no/such/dir/diff.png"]).run()
        #expect(out.exitCode == 3)
        #expect(out.errorMessage?.hasPrefix("--diff: cannot create /no/such/dir/diff.png") == true)
    }
}
