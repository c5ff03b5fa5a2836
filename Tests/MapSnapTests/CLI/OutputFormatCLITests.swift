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
}
