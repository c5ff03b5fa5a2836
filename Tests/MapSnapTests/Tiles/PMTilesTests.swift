import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

@Suite struct PMTilesTileIDTests {
    // From the PMTiles v3 spec's description (z0 is id 0; z1 runs (0,0) (0,1) (1,1) (1,0)
    // along the Hilbert curve) and 2/1/1 → 7 from tinymvt's test of the same mapping.
    @Test(arguments: [
        (0, 0, 0, UInt64(0)), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4),
        (2, 0, 0, 5), (2, 1, 1, 7), (14, 0, 0, 89_478_485), (20, 0, 0, 366_503_875_925),
    ] as [(Int, Int, Int, UInt64)])
    func knownIDs(z: Int, x: Int, y: Int, id: UInt64) throws {
        let tile = try #require(TileID(z: z, x: x, y: y))
        #expect(PMTilesTileID.id(for: tile) == id)
        #expect(PMTilesTileID.tile(for: id) == tile)
    }

    @Test func consecutiveIDsAreNeighbouringTiles() throws {
        // The defining property of a Hilbert curve: each step moves to an edge-adjacent cell.
        for z in 1...6 {
            let first = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
            var previous = try #require(PMTilesTileID.tile(for: first))
            for id in (first + 1)..<(first + (UInt64(1) << (2 * UInt64(z)))) {
                let tile = try #require(PMTilesTileID.tile(for: id))
                #expect(tile.z == z)
                #expect(abs(tile.x - previous.x) + abs(tile.y - previous.y) == 1, "z\(z) id \(id)")
                previous = tile
            }
        }
    }

    @Test func roundTripSeeded() throws {
        var rng = SeededGenerator(seed: 0xb1_1be7)
        for _ in 0..<5000 {
            let z = Int(rng.next() % 31)
            let n = UInt64(1) << UInt64(z)
            let tile = try #require(TileID(z: z, x: Int(rng.next() % n), y: Int(rng.next() % n)))
            #expect(PMTilesTileID.tile(for: PMTilesTileID.id(for: tile)) == tile, "seed 0xb11be7")
        }
        // Beyond zoom 30, TileID cannot represent the tile.
        #expect(PMTilesTileID.tile(for: UInt64.max) == nil)
    }
}

@Suite struct PMTilesDirectoryTests {
    @Test func decodesVarintColumns() throws {
        // 3 entries; ids 1, 2, 10 as deltas 1, 1, 8; runs 1, 2, 0 (a leaf pointer);
        // lengths 10, 5, 7; offsets 0 (+1), contiguous marker 0, 100 (+1).
        let bytes: [UInt8] = [3, 1, 1, 8, 1, 2, 0, 10, 5, 7, 1, 0, 101]
        let entries = try PMTilesDirectory.decode(bytes)
        #expect(entries == [
            PMTilesEntry(tileID: 1, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 2, offset: 10, length: 5, runLength: 2),
            PMTilesEntry(tileID: 10, offset: 100, length: 7, runLength: 0),
        ])
        #expect(PMTilesDirectory.encode(entries) == bytes)
        #expect(PMTilesDirectory.find(0, in: entries) == nil)
        #expect(PMTilesDirectory.find(3, in: entries)?.tileID == 2)
        #expect(PMTilesDirectory.find(4, in: entries) == nil)
        #expect(PMTilesDirectory.find(99, in: entries)?.tileID == 10)
    }

    /// Found by fuzzing: an entry whose offset + length passes UInt64.max made `encode` trap
    /// while checking whether the next entry is contiguous.
    @Test func entriesEndingPastUInt64MaxEncode() throws {
        let entries = [
            PMTilesEntry(tileID: 1, offset: UInt64.max - 1, length: 2, runLength: 1),
            PMTilesEntry(tileID: 2, offset: 0, length: 1, runLength: 1),
        ]
        #expect(try PMTilesDirectory.decode(PMTilesDirectory.encode(entries)) == entries)
    }

    @Test func multiByteVarints() throws {
        let entries = [
            PMTilesEntry(tileID: 89_478_485, offset: 300_000, length: 70_000, runLength: 1),
            PMTilesEntry(tileID: 89_478_486, offset: 5, length: 1, runLength: 1000),
        ]
        #expect(try PMTilesDirectory.decode(PMTilesDirectory.encode(entries)) == entries)
    }

    @Test(arguments: [
        ([200, 1, 0, 0, 0], "entry count 200 exceeds what 5 bytes can hold"),
        ([1, 1, 1, 10, 0], "first entry uses the contiguous-offset marker"),
        ([1, 1, 1, 0, 1], "entry 0 has length 0"),
        ([2, 1, 0, 1, 1, 1, 1, 1, 1], "tile ids not strictly increasing at entry 1"),
    ] as [([UInt8], String)])
    func rejectsMalformed(bytes: [UInt8], reason: String) {
        #expect(throws: PMTilesDirectory.DecodingError(reason: reason)) { try PMTilesDirectory.decode(bytes) }
    }

    @Test func truncatedColumnsThrow() {
        #expect(throws: PMTilesDirectory.DecodingError.self) { try PMTilesDirectory.decode([4, 1, 1, 1, 1, 1]) }
    }
}

@Suite struct PMTilesArchiveTests {
    /// Every tile of the fixture, as the MBTiles source returns it.
    func mbtilesTiles() throws -> [(TileID, [UInt8])] {
        let source = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        var result: [(TileID, [UInt8])] = []
        try source.forEachStoredTile { tile, _ in
            if let data = try source.tileData(for: tile) { result.append((tile, data)) }
        }
        return result
    }

    @Test func convertHelsinkiAndReadEveryTileBack() async throws {
        let path = try TileFixtures.temporaryDirectory() + "/helsinki.pmtiles"
        let written = try PMTilesConverter.convert(mbtiles: TileFixtures.helsinkiMBTiles, to: path)
        #expect(written == 19)  // one tile per zoom for z0–12, 2 at z13, 4 at z14
        let source = try PMTilesSource(path: path)
        #expect(source.header.clustered)
        #expect(source.header.tileType == 1)
        #expect(source.header.tileCompression == PMTilesHeader.Compression.gzip.rawValue)
        #expect(source.header.addressedTilesCount == 19)
        #expect(source.metadata.format == .mvt)
        #expect(source.metadata.minZoom == 0 && source.metadata.maxZoom == 14)
        #expect(source.metadata.name == "Tilemaker to OpenMapTiles schema")
        #expect(source.metadata.vectorLayers == (try MBTilesSource(path: TileFixtures.helsinkiMBTiles).metadata.vectorLayers))
        let bounds = try #require(source.metadata.bounds)
        #expect(abs(bounds.southWest.latitude - 60.1641) < 1e-7 && abs(bounds.northEast.longitude - 24.9535) < 1e-7)

        let tiles = try mbtilesTiles()
        #expect(tiles.count == 19)
        for (tile, expected) in tiles {
            #expect(try source.tileData(for: tile) == expected, "\(tile)")
        }
        #expect(try source.tileData(for: TileID(z: 14, x: 0, y: 0)!) == nil)
        #expect(try source.tileData(for: TileID(z: 15, x: 18652, y: 9484)!) == nil)

        // Concurrent readers (leaf cache and pread shared) agree with a serial read.
        let central = try source.tileData(for: TileFixtures.centralTile)
        let results = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<16 { group.addTask { try? source.tileData(for: TileFixtures.centralTile) } }
            var all: [[UInt8]?] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 == central })

        // Deterministic: converting again gives the same bytes.
        let again = path + ".2"
        try PMTilesConverter.convert(mbtiles: TileFixtures.helsinkiMBTiles, to: again)
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: again))
    }

    @Test func leafDirectoriesAndRunsAndDedup() throws {
        var writer = PMTilesWriter(format: .png, tileCompression: .none)
        writer.forcedLeafSize = 3
        var expected: [TileID: [UInt8]] = [:]
        // z3 full pyramid level: 64 tiles; every 4th tile shares its content so runs and
        // deduplication both occur.
        for x in 0..<8 {
            for y in 0..<8 {
                let tile = TileID(z: 3, x: x, y: y)!
                let data: [UInt8] = (x + y) % 4 == 0 ? [1, 2, 3] : [UInt8(x), UInt8(y), 9, 9]
                try writer.add(tile, data: data)
                expected[tile] = data
            }
        }
        #expect(throws: PMTilesError.duplicateTile("3/0/0")) { try writer.add(TileID(z: 3, x: 0, y: 0)!, data: []) }
        let path = try TileFixtures.temporaryDirectory() + "/grid.pmtiles"
        try writer.write(to: path)
        let source = try PMTilesSource(path: path)
        #expect(source.header.leafDirectoriesLength > 0)
        #expect(source.header.addressedTilesCount == 64)
        #expect(source.header.tileContentsCount == 49)
        #expect(source.metadata.format == .png)
        for (tile, data) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(try source.tileData(for: tile) == data, "\(tile)")
        }
        var walked = 0
        try source.forEachStoredTile { tile, data in
            #expect(expected[tile] == data)
            walked += 1
        }
        #expect(walked == 64)
    }

    func validArchive() throws -> [UInt8] {
        var writer = PMTilesWriter(format: .png, tileCompression: .none)
        try writer.add(TileID(z: 0, x: 0, y: 0)!, data: [1, 2, 3])
        return try writer.archive()
    }

    func open(_ bytes: [UInt8]) throws -> (String, () throws -> PMTilesSource) {
        let path = try TileFixtures.temporaryDirectory() + "/t.pmtiles"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, { try PMTilesSource(path: path) })
    }

    @Test func corruptHeaders() throws {
        let good = try validArchive()
        var (path, load) = try open(good)
        #expect(try load().tileData(for: TileID(z: 0, x: 0, y: 0)!) == [1, 2, 3])

        var magic = good
        magic[0] = UInt8(ascii: "X")
        (path, load) = try open(magic)
        #expect(throws: PMTilesError.badMagic(path: path, found: Array("XMTiles".utf8))) { try load() }

        var version = good
        version[7] = 2
        (path, load) = try open(version)
        #expect(throws: PMTilesError.unsupportedVersion(path: path, version: 2)) { try load() }

        (path, load) = try open(Array(good.prefix(100)))
        #expect(throws: PMTilesError.fileTooSmall(path: path, size: 100)) { try load() }

        var rootLength = good
        rootLength[16] = 0xff
        rootLength[17] = 0xff
        (path, load) = try open(rootLength)
        #expect(throws: PMTilesError.sectionOutOfBounds(path: path, section: "root directory", offset: 127, length: 65535, fileSize: good.count)) {
            try load()
        }

        var brotli = good
        brotli[97] = PMTilesHeader.Compression.brotli.rawValue
        (path, load) = try open(brotli)
        #expect(throws: PMTilesError.unsupportedCompression(path: path, what: "internal", code: 3)) { try load() }

        var zstdTiles = good
        zstdTiles[98] = PMTilesHeader.Compression.zstd.rawValue
        (path, load) = try open(zstdTiles)
        #expect(throws: PMTilesError.unsupportedCompression(path: path, what: "tile", code: 4)) { try load() }

        // Root directory bytes replaced by garbage: gzip fails with a typed error.
        var root = good
        root[127] = 0x00
        root[128] = 0x00
        (path, load) = try open(root)
        #expect {
            try load()
        } throws: { error in
            guard case .decompression(let p, let what, _) = error as? PMTilesError else { return false }
            return p == path && what == "directory at offset 127"
        }
    }
}
