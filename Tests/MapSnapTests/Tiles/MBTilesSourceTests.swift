import Foundation
import Testing
@testable import MapSnap

@Suite struct MBTilesSourceTests {
    @Test func metadata() throws {
        let source = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        let m = source.metadata
        #expect(m.format == .mvt)
        #expect(m.minZoom == 0)
        #expect(m.maxZoom == 14)
        #expect(m.name == "Tilemaker to OpenMapTiles schema")
        #expect(m.description == "Tile config based on OpenMapTiles schema")
        #expect(m.bounds == .init(southWest: LatLng(60.1641, 24.9351), northEast: LatLng(60.1792, 24.9535)))
        #expect(m.center == LatLng(60.17165, 24.9443))
        #expect(m.centerZoom == 7)
        #expect(m.scheme == .xyz)
        let place = try #require(m.vectorLayers.first { $0.id == "place" })
        #expect(place.fields.contains(.init(name: "class", type: "String")))
        #expect(place.fields.map(\.name) == place.fields.map(\.name).sorted())
        #expect(m.vectorLayers.contains { $0.id == "transportation" })
    }

    @Test func tileIsInflatedAndRowFlipped() throws {
        let source = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        // Stored at TMS row 11641 = 2^14 − 1 − 4742.
        let raw = try #require(try source.rawTileData(for: TileFixtures.centralTile))
        #expect(raw.count == 25596)
        #expect(Gzip.isGzip(raw))
        let tile = try #require(try source.tileData(for: TileFixtures.centralTile))
        #expect(tile.count == 55041)
        #expect(tile.first == 0x1a)
    }

    @Test(arguments: [
        TileID(z: 14, x: 0, y: 0)!,           // far away
        TileID(z: 14, x: 9326, y: 11641)!,    // the TMS row used as an XYZ row
        TileID(z: 15, x: 18652, y: 9484)!,    // beyond max zoom
    ])
    func missingTileIsNil(tile: TileID) throws {
        let source = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        #expect(try source.tileData(for: tile) == nil)
    }

    @Test func concurrentReadsAgree() async throws {
        let source = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        let expected = try source.tileData(for: TileFixtures.centralTile)
        let results = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<16 { group.addTask { try? source.tileData(for: TileFixtures.centralTile) } }
            var all: [[UInt8]?] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test func notMBTiles() throws {
        let dir = try TileFixtures.temporaryDirectory()
        let path = dir + "/empty.sqlite"
        // A valid, empty SQLite database: the 100-byte header of a 1-page file is enough for
        // sqlite to open it, but it has no tables.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect {
            try MBTilesSource(path: path)
        } throws: { error in
            guard case .notMBTiles(let p, let message) = error as? MBTilesError else { return false }
            return p == path && message.contains("tiles")
        }
        #expect {
            try MBTilesSource(path: dir + "/missing.mbtiles")
        } throws: { error in
            guard case .cannotOpen(let p, _, _) = error as? MBTilesError else { return false }
            return p == dir + "/missing.mbtiles"
        }
    }
}
