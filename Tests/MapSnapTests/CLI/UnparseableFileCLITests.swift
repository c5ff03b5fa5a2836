import Foundation
import Testing
@testable import MapSnap

/// A file mapsnap cannot parse is named with what was expected, and its content is never
/// echoed: the first bytes of a key file given by mistake must not land in a CI log.
@Suite struct UnparseableFileCLITests {
    /// The file's content: printable, so an echo shows up as text or as hex.
    static let secret = "SECRETKEY-0123456789"
    static var secretHex: String { secret.utf8.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ") }

    static let view = ["--center", "60.17,24.94", "--zoom", "12", "--size", "64x48", "--style", RenderCommandTests.plain]
    /// (arguments; what the message must say besides the file's name).
    static let cases: [([String], String)] = [
        (["render", "--source", "key.txt", "-o", "map.png"] + view, "not an MBTiles, PMTiles or tile directory"),
        (["render", "--marker", "icon:key.txt|60.17,24.94", "-o", "map.png"] + view, "not a PNG file"),
        (["compare", "key.txt", "key.txt"], "not a PNG file"),
        (["info", "key.txt"], "not an MBTiles, PMTiles or tile directory"),
        (["convert", "key.txt", "out.pmtiles"], "key.txt"),
    ]

    @Test(arguments: cases)
    func theMessageNamesTheFileAndNotItsBytes(arguments: [String], expected: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write(Self.secret, to: dir + "/key.txt")
        let r = try CLIRunner.run(arguments, in: dir)
        #expect(r.exitCode == 2, "\(arguments): \(r)")
        #expect(r.stderr.contains("key.txt"), "\(arguments): the file is named: \(r.stderr)")
        #expect(r.stderr.contains(expected), "\(arguments): says what was expected: \(r.stderr)")
        #expect(!r.stderr.contains("SECRET"), "\(arguments): echoes the content: \(r.stderr)")
        #expect(!r.stderr.lowercased().contains(Self.secretHex), "\(arguments): echoes the content in hex: \(r.stderr)")
    }

    /// The library's errors for unrecognised bytes carry no copy of them in their text.
    @Test func libraryMessagesDoNotEchoBytes() {
        let bytes = Array(Self.secret.utf8.prefix(8))
        let messages = [
            TileSourceError.unrecognizedFormat(path: "key.txt", firstBytes: bytes).description,
            PNGError.notPNG(origin: "key.txt", signature: bytes).description,
            JPEGError.notJPEG(origin: "key.txt", signature: bytes).description,
            RasterImageError.unrecognized(origin: "key.txt", signature: bytes).description,
        ]
        for m in messages {
            #expect(m.hasPrefix("key.txt: "), "\(m)")
            #expect(!m.contains("SECRET") && !m.lowercased().contains(Self.secretHex), "\(m)")
            #expect(m.contains("text"), "says what it looks like: \(m)")
        }
    }
}
