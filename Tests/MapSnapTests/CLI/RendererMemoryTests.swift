import Foundation
import Testing
@testable import MapSnap

/// Memory a long-running renderer must give back: the leak check that stands in for
/// LeakSanitizer, which misreads Swift's tagged enum pointers on Linux (see
/// scripts/sanitize.sh).
@Suite(.serialized) struct RendererMemoryTests {
    /// A style with `layers` filtered, interpolated layers over the Helsinki fixture, so that
    /// preparing it compiles a few hundred expressions.
    static func style(name: String, layers: Int) -> String {
        let source = TestPaths.fixture("helsinki-openmaptiles.mbtiles")
        var list = [##"{"id": "bg", "type": "background", "paint": {"background-color": ["interpolate", ["linear"], ["zoom"], 0, "#f0eee8", 18, "#e0ddd4"]}}"##]
        for i in 0..<layers {
            list.append("""
                {"id": "l\(i)", "type": "line", "source": "t", "source-layer": "transportation",
                 "filter": ["all", ["==", ["get", "class"], "c\(i % 7)"], [">=", ["zoom"], \(i % 10)], ["!", ["has", "x\(i)"]]],
                 "paint": {"line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 5, 0.5, 18, \(i % 9 + 2)],
                           "line-color": ["match", ["get", "class"], "motorway", "#e9ac77", "primary", "#fca", "#fff"]}}
                """)
        }
        return """
            {"version": 8, "name": "\(name)", "sources": {"t": {"type": "vector", "url": "\(source)"}},
             "layers": [\(list.joined(separator: ",\n"))]}
            """
    }

    /// Peak memory of a batch of `count` jobs, each naming a style file of its own (so each
    /// prepares a style, and the renderer keeps only the last 32).
    static func peakOfBatch(jobs count: Int) throws -> HostileHTTPCLITests.MeasuredRun {
        let dir = try makeTemporaryDirectory("renderer-memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        for i in 0..<count {
            let path = "\(dir)/style-\(i).json"
            try style(name: "style \(i)", layers: 60).write(toFile: path, atomically: true, encoding: .utf8)
            lines.append(#"{"style": "\#(path)", "center": [60.1705, 24.9443], "zoom": 13, "size": "32x32", "attribution": "none", "scaleBar": false, "output": "m\#(i).png"}"#)
        }
        let jobs = dir + "/jobs.jsonl"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        try lines.joined(separator: "\n").write(toFile: jobs, atomically: true, encoding: .utf8)
        return try HostileHTTPCLITests.run(["batch", "-q", jobs, "--out-dir", dir + "/out", "--jobs", "2"], in: dir,
                                           timeout: TestEnvironment.seconds(120))
    }

    /// 400 distinct styles take no more memory than 40: a style the renderer forgets is
    /// freed, compiled expressions and all. (A leak of what preparing one such style
    /// allocates, over 360 extra styles, would pass the bound several times over.)
    @Test func forgottenStylesAreFreed() throws {
        let small = try Self.peakOfBatch(jobs: 40)
        let large = try Self.peakOfBatch(jobs: 400)
        #expect(small.exitCode == 0, "\(small)")
        #expect(large.exitCode == 0, "\(large)")
        guard !TestEnvironment.isSanitized else { return } // ASan's quarantine holds freed memory
        #expect(large.peakKiB - small.peakKiB < 16 << 10, "40 styles: \(small.peakKiB) KiB, 400 styles: \(large.peakKiB) KiB")
    }
}
