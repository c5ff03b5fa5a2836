import Foundation
import Testing
@testable import MapSnap

/// `mapsnap convert IN OUT`: the container OUT's extension names, both ways and same to same.
@Suite struct ConvertCommandTests {
    /// Every stored tile of an MBTiles file or PMTiles archive: address → stored bytes.
    static func tiles(_ path: String) throws -> [TileID: [UInt8]] {
        var out: [TileID: [UInt8]] = [:]
        switch try TileSources.open(path) {
        case let m as MBTilesSource: try m.forEachStoredTile { out[$0] = $1 }
        case let p as PMTilesSource: try p.forEachStoredTile { out[$0] = $1 }
        default: Issue.record("\(path) is neither MBTiles nor PMTiles")
        }
        return out
    }

    static func magic(_ path: String) -> [UInt8] {
        Array((FileManager.default.contents(atPath: path) ?? Data()).prefix(7))
    }

    /// MBTiles → PMTiles → MBTiles gives back the same tiles, byte for byte, and the same
    /// metadata as `info` reports it; each step writes the container its extension names.
    @Test func mbtilesToPMTilesAndBackKeepsTilesAndMetadata() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let original = InfoCommandTests.mbtiles
        for (input, output) in [(original, "a.pmtiles"), ("a.pmtiles", "b.mbtiles"), ("b.mbtiles", "c.mbtiles"), ("a.pmtiles", "d.pmtiles")] {
            let r = try CLIRunner.run(["convert", input, output], in: dir)
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(input) → \(output): \(r)")
            #expect(r.stdoutText.hasPrefix("wrote 19 tiles to \(output)"), "\(r.stdoutText)")
        }
        #expect(Self.magic(dir + "/a.pmtiles") == Array("PMTiles".utf8))
        #expect(Self.magic(dir + "/b.mbtiles") == Array("SQLite ".utf8), "an .mbtiles output is an SQLite database, not PMTiles")
        #expect(Self.magic(dir + "/c.mbtiles") == Array("SQLite ".utf8))
        #expect(CLIRunner.listing(dir) == ["a.pmtiles", "b.mbtiles", "c.mbtiles", "d.pmtiles"], "no temporary or journal left")

        let expected = try Self.tiles(original)
        #expect(expected.count == 19)
        for name in ["a.pmtiles", "b.mbtiles", "c.mbtiles", "d.pmtiles"] {
            #expect(try Self.tiles(dir + "/" + name) == expected, "\(name) holds other tiles or bytes")
        }
        // PMTiles → PMTiles repacks to the very same archive.
        #expect(FileManager.default.contents(atPath: dir + "/d.pmtiles") == FileManager.default.contents(atPath: dir + "/a.pmtiles"))

        let info = try CLIRunner.run(["info", original], in: dir)
        for name in ["b.mbtiles", "c.mbtiles"] {
            let again = try CLIRunner.run(["info", name], in: dir)
            #expect(InfoCommandTests.body(again.stdoutText) == InfoCommandTests.body(info.stdoutText), "\(name) lost metadata")
        }
        let meta = try MBTilesSource(path: dir + "/b.mbtiles").metadata
        let originalMeta = try MBTilesSource(path: original).metadata
        #expect(meta.name == originalMeta.name && meta.description == originalMeta.description)
        #expect(meta.bounds == originalMeta.bounds && meta.center == originalMeta.center)
        #expect(meta.vectorLayers.map(\.id) == originalMeta.vectorLayers.map(\.id) && !meta.vectorLayers.isEmpty)
    }

    /// An output extension `convert` cannot write is exit 2 naming the ones it can; an input
    /// directory is refused by the input rule; nothing is written either way.
    @Test(arguments: [
        (["in.mbtiles", "out.zip"], "mapsnap: error: convert: out.zip: cannot write a .zip file; name the output .mbtiles or .pmtiles"),
        (["in.mbtiles", "out"], "mapsnap: error: convert: out: cannot write a file without extension; name the output .mbtiles or .pmtiles"),
        (["folder", "out.pmtiles"], "mapsnap: error: convert: folder: is a directory, not a file"),
    ])
    func refusalsWriteNothing(arguments: [String], message: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.copyItem(atPath: InfoCommandTests.mbtiles, toPath: dir + "/in.mbtiles")
        try FileManager.default.createDirectory(atPath: dir + "/folder", withIntermediateDirectories: true)
        let r = try CLIRunner.run(["convert"] + arguments, in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines == [message])
        #expect(CLIRunner.listing(dir) == ["folder", "in.mbtiles"])
    }
}
