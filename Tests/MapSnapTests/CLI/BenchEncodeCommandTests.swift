import Foundation
import Testing
@testable import MapSnap

/// `mapsnap bench-encode`, the hidden encode timer that `Benchmarks/` (S3) calls.
@Suite struct BenchEncodeCommandTests {
    @Test func printsTimingsAndWritesTheEncodedFile() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let canvas = Canvas(width: 40, height: 30, fill: Color(rgb: 0x336699))
        for i in stride(from: 0, to: canvas.pixels.count, by: 4) { canvas.pixels[i] = UInt8(i % 251) }
        try AtomicFile.write(try canvas.pngData(), to: dir + "/in.png")
        let r = try CLIRunner.run(["bench-encode", "in.png", "--repeat", "3", "-o", "out.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any])
        #expect(json["width"] as? Int == 40 && json["height"] as? Int == 30)
        let out = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/out.png")))
        #expect(json["bytes"] as? Int == out.count)
        #expect(try PNGCodec.decode(out, origin: "out.png").pixels == canvas.pixels)
        let times = ["min_ms", "median_ms", "max_ms"].compactMap { json[$0] as? Double }
        #expect(times.count == 3 && times == times.sorted())
    }

    @Test(arguments: [
        (["bench-encode"], 2), (["bench-encode", "a.png", "--repeat", "0"], 2),
        (["bench-encode", "missing.png"], 3), (["bench-encode", "--help"], 0),
    ] as [([String], Int32)])
    func exitCodes(arguments: [String], exitCode: Int32) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(arguments, in: dir)
        #expect(r.exitCode == exitCode, "\(r)")
    }
}
