import Foundation
import Testing

/// `mapsnap info` and `mapsnap convert` on the bundled Helsinki OpenMapTiles extract.
@Suite struct InfoCommandTests {
    static let mbtiles = TestPaths.fixture("helsinki-openmaptiles.mbtiles")

    /// The extract's layers (OpenMapTiles schema, as written by tilemaker).
    static let layers = ["place", "boundary", "poi", "housenumber", "waterway", "transportation",
                         "transportation_name", "building", "water", "water_name", "aeroway", "aerodrome_label",
                         "park", "landuse", "landcover", "mountain_peak"]

    /// The `info` report without its first line (which echoes the path given).
    static func body(_ text: String) -> [Substring] {
        Array(text.split(separator: "\n").drop { $0.hasPrefix("source:") })
    }

    @Test func describesTheMBTilesFixture() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["info", Self.mbtiles], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.isEmpty)
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "source:      \(Self.mbtiles)")
        #expect(lines.contains("format:      mvt (vector tiles)"))
        #expect(lines.contains("zoom:        0-14"))
        #expect(lines.contains("bounds:      24.9351,60.1641,24.9535,60.1792 (W,S,E,N)"))
        let layerStart = try #require(lines.firstIndex(of: "layers:"))
        let layerNames = lines[(layerStart + 1)...].prefix { $0.hasPrefix("  ") }
            .map { $0.dropFirst(2).prefix { $0 != " " && $0 != ":" } }.map(String.init)
        #expect(layerNames == Self.layers)
        #expect(lines.contains("  transportation z4-14: brunnel, class, oneway, ramp, service"))
        #expect(lines.last?.hasPrefix("attribution: ") == true)
    }

    /// The schema line names what picks the bundled styles' variant.
    @Test(arguments: [("helsinki-openmaptiles.mbtiles", "OpenMapTiles"), ("helsinki-protomaps.pmtiles", "Protomaps (v4)"),
                      ("helsinki-protomaps-v2.pmtiles", "Protomaps (before v4)")])
    func namesTheVectorSchema(fixture: String, schema: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["info", TestPaths.fixture(fixture)], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains("schema:      \(schema)"))
        #expect(lines.last?.hasPrefix("attribution: ") == true)
    }

    @Test func missingSourceExitsTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["info", "no-such.mbtiles"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderrLines.first?.hasPrefix("mapsnap: error: ") == true)
        #expect(r.stderr.contains("no-such.mbtiles"))
        #expect(r.stdout.isEmpty)
    }

    /// A file that exists but is not a tile source is bad input (2), not a missing one (3).
    @Test func corruptSourceExitsTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("this is not SQLite", to: dir + "/junk.mbtiles")
        let r = try CLIRunner.run(["info", "junk.mbtiles"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("junk.mbtiles"))
    }

    @Test(arguments: [[String](), ["a.mbtiles", "b.mbtiles"]])
    func wrongNumberOfSourcesIsUsage(arguments: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["info"] + arguments, in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("SOURCE"))
    }

    /// `convert` repackages the MBTiles as PMTiles; `info` on the result reports the same
    /// format, zooms, bounds, centre, layers and attribution.
    @Test func convertThenInfoAgrees() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let converted = try CLIRunner.run(["convert", Self.mbtiles, "helsinki.pmtiles"], in: dir)
        #expect(converted.exitCode == 0, "\(converted)")
        #expect(converted.stdoutText.hasPrefix("wrote "))
        #expect(converted.stdoutText.contains("helsinki.pmtiles"))
        #expect(CLIRunner.listing(dir) == ["helsinki.pmtiles"], "no temporary left beside the archive")

        let original = try CLIRunner.run(["info", Self.mbtiles], in: dir)
        let roundTrip = try CLIRunner.run(["info", "helsinki.pmtiles"], in: dir)
        #expect(roundTrip.exitCode == 0, "\(roundTrip)")
        #expect(Self.body(roundTrip.stdoutText) == Self.body(original.stdoutText))
        #expect(roundTrip.stdoutText.contains("zoom:        0-14"))

        // The same conversion again gives the same bytes.
        let again = try CLIRunner.run(["convert", Self.mbtiles, "again.pmtiles"], in: dir)
        #expect(again.exitCode == 0, "\(again)")
        #expect(FileManager.default.contents(atPath: dir + "/again.pmtiles") == FileManager.default.contents(atPath: dir + "/helsinki.pmtiles"))
    }

    /// Convert failures: an unwritable output is a runtime failure (3), a missing input or one
    /// that is not a tile archive is bad input (2); the line names the file and nothing is left.
    @Test(arguments: [
        ("missing input", "missing.mbtiles", "out.pmtiles", Int32(2), "missing.mbtiles"),
        ("not SQLite", "junk.mbtiles", "out.pmtiles", Int32(2), "junk.mbtiles"),
        ("output directory missing", InfoCommandTests.mbtiles, "no-dir/out.pmtiles", Int32(3), "no-dir/out.pmtiles"),
    ])
    func convertFailuresWriteNothing(name: String, input: String, output: String, exitCode: Int32, mention: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("this is not SQLite", to: dir + "/junk.mbtiles")
        let r = try CLIRunner.run(["convert", input, output], in: dir)
        #expect(r.exitCode == exitCode, "\(name): \(r)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderrLines.first?.hasPrefix("mapsnap: error: ") == true)
        #expect(r.stderr.contains(mention))
        #expect(CLIRunner.listing(dir) == ["junk.mbtiles"])
    }
}
