import Foundation
import Testing
@testable import MapSnap

@Suite struct TileSourcesTests {
    @Test func sniffsEachKind() throws {
        #expect(try TileSources.open(TileFixtures.helsinkiMBTiles) is MBTilesSource)
        #expect(try TileSources.open(TileFixtures.helsinkiRaster) is DirectorySource)
        let dir = try TileFixtures.temporaryDirectory()
        let pm = dir + "/h.pmtiles"
        try PMTilesConverter.convert(mbtiles: TileFixtures.helsinkiMBTiles, to: pm)
        #expect(try TileSources.open(pm) is PMTilesSource)
    }

    @Test func errorsNameThePath() throws {
        let dir = try TileFixtures.temporaryDirectory()
        #expect(throws: TileSourceError.notFound(path: dir + "/nope")) { try TileSources.open(dir + "/nope") }
        let text = dir + "/notes.txt"
        try Data("hello tiles".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: TileSourceError.unrecognizedFormat(path: text, firstBytes: Array("hello ti".utf8))) {
            try TileSources.open(text)
        }
        #expect(throws: TileSourceError.directory(.noTiles(path: dir))) { try TileSources.open(dir) }
    }

    /// A broken container's own error comes back whole, inside `TileSourceError`: the
    /// PMTiles header error keeps its path, a bad `metadata.json` its byte offset.
    @Test func containerErrorsKeepTheirEvidence() throws {
        let dir = try TileFixtures.temporaryDirectory()
        let pm = dir + "/short.pmtiles"
        try Data("PMTiles".utf8).write(to: URL(fileURLWithPath: pm))
        #expect(throws: TileSourceError.pmtiles(.fileTooSmall(path: pm, size: 7))) { try TileSources.open(pm) }

        let tiles = try TileFixtures.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: tiles + "/1/0", withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4e, 0x47]).write(to: URL(fileURLWithPath: tiles + "/1/0/0.png"))
        try Data(#"{"name": "x",}"#.utf8).write(to: URL(fileURLWithPath: tiles + "/metadata.json"))
        do {
            _ = try TileSources.open(tiles)
            Issue.record("a directory with a broken metadata.json opened")
        } catch {
            guard case .directory(.metadataNotJSON(let json)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(json.source == tiles + "/metadata.json")
            #expect(json.byteOffset == 13)
            #expect((json.line, json.column) == (1, 14))
        }
    }
}

@Suite struct DirectorySourceTests {
    @Test func rasterDirectory() throws {
        let source = try DirectorySource(path: TileFixtures.helsinkiRaster)
        #expect(source.fileExtension == "png")
        #expect(source.metadata.format == .png)
        #expect(source.metadata.minZoom == 12)
        #expect(source.metadata.maxZoom == 13)
        let tile = try #require(try source.tileData(for: TileID(z: 13, x: 4663, y: 2370)!))
        #expect(tile.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        #expect(try source.tileData(for: TileID(z: 13, x: 1, y: 1)!) == nil)
    }

    @Test func vectorDirectoryWithMetadataAndGzip() throws {
        let dir = try TileFixtures.temporaryDirectory()
        let mbtiles = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        let tile = TileFixtures.centralTile
        try FileManager.default.createDirectory(atPath: "\(dir)/14/\(tile.x)", withIntermediateDirectories: true)
        let raw = try #require(try mbtiles.rawTileData(for: tile))
        try Data(raw).write(to: URL(fileURLWithPath: "\(dir)/14/\(tile.x)/\(tile.y).pbf"))
        try Data(#"{"name":"Dir","maxzoom":14,"minzoom":14,"attribution":"© OSM"}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/metadata.json"))
        let source = try DirectorySource(path: dir)
        #expect(source.metadata.format == .mvt)
        #expect(source.metadata.name == "Dir")
        #expect(source.metadata.attribution == "© OSM")
        #expect(try source.tileData(for: tile) == (try mbtiles.tileData(for: tile)))

        try Data("[1,2]".utf8).write(to: URL(fileURLWithPath: dir + "/metadata.json"))
        #expect(throws: DirectorySourceError.invalidMetadata(path: dir + "/metadata.json", reason: "not a JSON object")) {
            try DirectorySource(path: dir)
        }
    }
}

@Suite struct OverzoomedTileTests {
    @Test(arguments: [
        // requested, maxZoom, source, delta, rect (minX, minY, side) for extent 4096
        ("14/9326/4742", 14, "14/9326/4742", 0, [0.0, 0, 4096]),
        ("10/5/5", 14, "10/5/5", 0, [0.0, 0, 4096]),
        ("15/18653/9484", 14, "14/9326/4742", 1, [2048.0, 0, 2048]),
        ("16/37307/18971", 14, "14/9326/4742", 2, [3072.0, 3072, 1024]),
        ("3/7/0", 0, "0/0/0", 3, [3584.0, 0, 512]),
    ] as [(String, Int, String, Int, [Double])])
    func ancestorAndRect(requested: String, maxZoom: Int, source: String, delta: Int, rect: [Double]) throws {
        func parse(_ s: String) throws -> TileID {
            let p = s.split(separator: "/").compactMap { Int($0) }
            return try #require(TileID(z: p[0], x: p[1], y: p[2]))
        }
        let o = OverzoomedTile(requested: try parse(requested), maxZoom: maxZoom)
        #expect(o.source == (try parse(source)))
        #expect(o.zoomDelta == delta)
        #expect(o.scale == Double(1 << delta))
        #expect(o.sourceRect(extent: 4096) == .init(minX: rect[0], minY: rect[1], side: rect[2]))
    }
}
