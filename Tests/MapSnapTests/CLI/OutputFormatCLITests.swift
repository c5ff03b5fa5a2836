import Foundation
import Testing
@testable import MapSnap

/// `--format`, `--quality`, spec `format` and file extensions for `render` and `batch`.
@Suite struct OutputFormatCLITests {
    static let view = ["--center", "60.17,24.94", "--zoom", "13", "--size", "120x80"]

    static func kind(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count > 25 { return bytes[25] == 3 ? "png8" : "png32" }
        if JPEGCodec.isJPEG(bytes) { return "jpg" }
        if bytes.count > 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return "unknown"
    }

    @Test(arguments: [
        (["--format", "jpg", "-o", "map.out"], "map.out", "jpg"),
        (["-o", "map.webp"], "map.webp", "webp"),
        (["-o", "map.jpeg"], "map.jpeg", "jpg"),
        (["-o", "map.png"], "map.png", "png32"),
        (["--format", "png", "-o", "map.png"], "map.png", "png8"),
        (["--format", "png32", "-o", "map.jpg"], "map.jpg", "png32"),
        (["--url", "staticmap?size=64x64&center=1,2&zoom=3", "-o", "map.png"], "map.png", "png8"),
        (["--url", "staticmap?size=64x64&center=1,2&zoom=3&format=png32", "-o", "map.png"], "map.png", "png32"),
        (["--url", "staticmap?size=64x64&center=1,2&zoom=3", "-o", "map.jpg"], "map.jpg", "jpg"),
        (["--url", "staticmap?size=64x64&center=1,2&zoom=3&format=webp&quality=70", "-o", "map.png"], "map.png", "webp"),
    ])
    func renderWritesTheFormatAskedFor(arguments: [String], file: String, expected: String) throws {
        let r = try CLIRunner.run(["render"] + Self.view + arguments + ["-q"])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 0, "\(r)")
        let bytes = [UInt8](FileManager.default.contents(atPath: r.directory + "/" + file) ?? Data())
        #expect(Self.kind(bytes) == expected, "\(arguments)")
    }

    @Test func badFormatsAndQualitiesAreExit2() throws {
        for (arguments, message) in [
            (["--format", "gif"], "--format: format \"gif\": GIF is not written"),
            (["--quality", "0"], "--quality: \"0\": out of range 1…100"),
            (["--quality", "7.5"], "--quality: \"7.5\": not a whole number"),
            (["--url", "staticmap?center=1,2&zoom=3&format=bmp"], "--url format: \"bmp\": format \"bmp\": expected"),
        ] {
            let r = try CLIRunner.run(["render"] + Self.view + arguments + ["-o", "map.png"])
            defer { CLIRunner.cleanUp(r.directory) }
            #expect(r.exitCode == 2, "\(arguments): \(r)")
            #expect(r.stderrLines.first?.hasPrefix("mapsnap: error: " + message) == true, "\(arguments): \(r.stderr)")
            #expect(!CLIRunner.listing(r.directory).contains("map.png"))
        }
    }

    @Test func batchJobsTakeTheirFormatOrTheFlag() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write("""
        {"center": [60.17, 24.94], "zoom": 12, "size": "64x64", "format": "jpg", "quality": 50}
        {"center": [60.17, 24.94], "zoom": 12, "size": "64x64"}
        {"center": [60.17, 24.94], "zoom": 12, "size": "64x64", "output": "named.png"}
        """, to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--format", "webp", "-q"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir + "/out") == ["0001.jpg", "0002.webp", "named.png"])
        func kind(_ name: String) -> String { Self.kind([UInt8](FileManager.default.contents(atPath: dir + "/out/" + name) ?? Data())) }
        #expect(kind("0001.jpg") == "jpg")
        #expect(kind("0002.webp") == "webp")
        #expect(kind("named.png") == "webp", "--format wins over the output name's extension")
    }

    /// An output name whose extension mapsnap cannot write, with no format named, is exit 2
    /// naming the formats it writes, and nothing is written; a name without extension is PNG,
    /// and a named format goes to any name.
    @Test(arguments: ["map.gif", "map.tiff", "map.bmp", "map.svg", "map.pdf"])
    func unwritableExtensionsAreExit2(file: String) throws {
        let r = try CLIRunner.run(["render"] + Self.view + ["-o", file])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 2, "\(r)")
        let ext = String(file.split(separator: ".").last ?? "")
        #expect(r.stderrLines == ["mapsnap: error: -o \(file): mapsnap cannot write .\(ext) images; it writes .png, .jpg (.jpeg) and .webp, or any name with --format png, png8, png32, jpg, jpg-baseline or webp"])
        #expect(CLIRunner.listing(r.directory).isEmpty)
    }

    @Test func extensionlessNamesArePNGAndANamedFormatGoesAnywhere() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let plain = try CLIRunner.run(["render"] + Self.view + ["-o", "map", "-q"], in: dir)
        #expect(plain.exitCode == 0, "\(plain)")
        #expect(Self.kind([UInt8](FileManager.default.contents(atPath: dir + "/map") ?? Data())) == "png32")
        let named = try CLIRunner.run(["render"] + Self.view + ["--format", "png8", "-o", "map.gif", "-q"], in: dir)
        #expect(named.exitCode == 0, "\(named)")
        #expect(Self.kind([UInt8](FileManager.default.contents(atPath: dir + "/map.gif") ?? Data())) == "png8")
    }

    @Test func unwritableFormatsListTheWritableOnes() throws {
        for format in ["gif", "bmp", "tiff"] {
            let r = try CLIRunner.run(["render"] + Self.view + ["--format", format, "-o", "map.png"])
            defer { CLIRunner.cleanUp(r.directory) }
            #expect(r.exitCode == 2, "\(r)")
            #expect(r.stderrLines.count == 1)
            #expect(r.stderr.contains("--format: format \"\(format)\"") && r.stderr.contains("expected png, png8, png32, jpg, jpg-baseline or webp"), "\(r.stderr)")
        }
    }

    /// A batch job's output and `compare --diff` follow the same rule.
    @Test func batchOutputsAndCompareDiffsAreCheckedToo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("""
        {"center": [60.17, 24.94], "zoom": 12, "size": "48x32", "output": "one.gif"}
        {"center": [60.17, 24.94], "zoom": 12, "size": "48x32", "output": "two.gif", "format": "png"}
        """, to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "-q"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.first == "mapsnap: error: jobs.jsonl:1: output one.gif: mapsnap cannot write .gif images; it writes .png, .jpg (.jpeg) and .webp, or any name with --format png, png8, png32, jpg, jpg-baseline or webp")
        #expect(CLIRunner.listing(dir + "/out") == ["two.gif"])

        let compare = try CLIRunner.run(["compare", CompareCommandTests.fixture("one_pixel"), CompareCommandTests.fixture("base"), "--diff", "diff.tiff"], in: dir)
        #expect(compare.exitCode == 2, "\(compare)")
        #expect(compare.stderrLines == ["mapsnap: error: compare: --diff diff.tiff: mapsnap cannot write .tiff images here; the diff image is PNG (name it .png)"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/diff.tiff"))
    }
}
