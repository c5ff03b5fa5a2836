import Foundation
import Testing
@testable import MapSnap

/// Hostile tile containers (issue #10): small files that used to take gigabytes or hang.
enum HostileTiles {
    /// A PMTiles archive assembled by hand: `root` entries, already-compressed leaf bytes and
    /// tile data, gzip internal compression, tiles stored uncompressed.
    static func pmtiles(root: [PMTilesEntry], leaves: [UInt8] = [], tileData: [UInt8], tileType: UInt8 = 1,
                        maxZoom: UInt8 = 14) throws -> [UInt8] {
        let rootBytes = try Gzip.compress(PMTilesDirectory.encode(root))
        var header = PMTilesHeader()
        header.rootDirectoryOffset = UInt64(PMTilesHeader.size)
        header.rootDirectoryLength = UInt64(rootBytes.count)
        header.metadataOffset = header.rootDirectoryOffset + header.rootDirectoryLength
        header.leafDirectoriesOffset = header.metadataOffset
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = UInt64(tileData.count)
        header.tileCompression = PMTilesHeader.Compression.none.rawValue
        header.tileType = tileType
        header.maxZoom = maxZoom
        return header.encoded() + rootBytes + leaves + tileData
    }

    /// The bytes of a directory of `count` entries with consecutive ids from `firstID`, each a
    /// one-byte tile at offset 0: four bytes per entry, which gzip shrinks ~1000-fold. Built
    /// directly (count, then the id, run, length and offset columns) to stay fast in tests.
    static func bombDirectory(firstID: UInt64, count: Int) -> [UInt8] {
        var w = ProtobufWriter()
        w.writeVarint(UInt64(count))
        w.writeVarint(firstID)
        var bytes = w.bytes
        bytes += Array(repeating: 1, count: count - 1)   // id deltas
        bytes += Array(repeating: 1, count: count * 3)   // run lengths, lengths, offsets + 1
        return bytes
    }

    /// Writes `bytes` to a fresh file named `name` and returns its path.
    static func file(_ bytes: [UInt8], named name: String) throws -> String {
        let path = try TileFixtures.temporaryDirectory() + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An SQLite file built by running `sql`.
    static func mbtiles(_ sql: String) throws -> String {
        let path = try TileFixtures.temporaryDirectory() + "/hostile.mbtiles"
        try SQLiteConnection(path: path, mode: .createForTesting).execute(sql)
        return path
    }

    static let vectorMetadata = "CREATE TABLE metadata (name TEXT, value TEXT); INSERT INTO metadata VALUES ('format', 'pbf');"
}

@Suite struct PMTilesLimitsTests {
    /// Found by fuzzing: a run of 2³² − 1 ids starting near the last zoom-30 id spun through
    /// billions of ids that are no tile. The walk now ends at the first id past zoom 30.
    @Test func runPastZoom30EndsTheWalk() throws {
        let lastID = ((UInt64(1) << 62) - 1) / 3 - 1   // ids of zooms 0…30, minus one
        let root = [PMTilesEntry(tileID: lastID - 1, offset: 0, length: 1, runLength: UInt32.max)]
        let path = try HostileTiles.file(try HostileTiles.pmtiles(root: root, tileData: [0x1a]), named: "run.pmtiles")
        var visited: [TileID] = []
        try PMTilesSource(path: path).forEachStoredTile { tile, _ in visited.append(tile) }
        #expect(visited.map(\.z) == [30, 30])
        #expect(PMTilesTileID.tile(for: lastID + 1) == nil)
    }

    /// A leaf that inflates past 8 MiB is refused before it is decoded.
    @Test func leafInflatingPastTheLimitIsRefused() throws {
        let count = PMTilesSource.maxDirectoryBytes / 4 + 1000
        let leaf = try Gzip.compress(HostileTiles.bombDirectory(firstID: 1_000_000, count: count))
        #expect(leaf.count < 100_000)
        let path = try HostileTiles.file(try HostileTiles.pmtiles(
            root: [PMTilesEntry(tileID: 1_000_000, offset: 0, length: UInt32(leaf.count), runLength: 0)],
            leaves: leaf, tileData: [0x42]), named: "bomb.pmtiles")
        let source = try PMTilesSource(path: path)
        let tile = try #require(PMTilesTileID.tile(for: 1_000_000))
        #expect {
            try source.tileData(for: tile)
        } throws: { error in
            guard case .decompression(let p, _, .outputTooLarge) = error as? PMTilesError else { return false }
            return p == path
        }
        #expect(source.cachedDirectoryBytes <= PMTilesSource.maxCachedDirectoryBytes)
    }

    /// Leaves just under the per-directory limit, each pointed at by the root: the cache
    /// evicts by bytes, so memory held stays within 64 MiB however many are visited.
    @Test func decodedLeavesStayWithinTheBudget() throws {
        let perLeaf = 1_200_000, leafCount = 3
        var leaves: [UInt8] = []
        var root: [PMTilesEntry] = []
        for k in 0..<leafCount {
            let first = UInt64(1_000_000 + k * 2_000_000)
            let leaf = try Gzip.compress(HostileTiles.bombDirectory(firstID: first, count: perLeaf))
            root.append(PMTilesEntry(tileID: first, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
            leaves += leaf
        }
        let path = try HostileTiles.file(try HostileTiles.pmtiles(root: root, leaves: leaves, tileData: [0x42]), named: "leaves.pmtiles")
        let source = try PMTilesSource(path: path)
        for entry in root {
            let tile = try #require(PMTilesTileID.tile(for: entry.tileID + 7))
            #expect(try source.tileData(for: tile) == [0x42])
            #expect(source.cachedDirectoryBytes <= PMTilesSource.maxCachedDirectoryBytes)
        }
        // Without the byte budget all three leaves (86 MB decoded) would be cached.
        #expect(PMTilesSource.decodedSize(Array(repeating: root[0], count: perLeaf)) * leafCount > PMTilesSource.maxCachedDirectoryBytes)
    }

    /// An entry claiming a 40 MiB tile is refused before anything is read.
    @Test func oversizedTileIsRefused() throws {
        let path = try HostileTiles.file(try HostileTiles.pmtiles(
            root: [PMTilesEntry(tileID: 0, offset: 0, length: 40 << 20, runLength: 1)], tileData: [1]), named: "big.pmtiles")
        let source = try PMTilesSource(path: path)
        #expect(throws: PMTilesError.tileTooLarge(path: path, tile: "0/0/0", length: 40 << 20, limit: 32 << 20)) {
            try source.tileData(for: TileID(z: 0, x: 0, y: 0)!)
        }
    }
}

@Suite struct MBTilesLimitsTests {
    /// A `tiles` view over an endless recursive CTE. Its columns are computed from the counter
    /// so that SQLite cannot prove a lookup empty before running it (constant columns would
    /// let it skip the CTE for every tile but 0/0/0).
    static let endlessView = HostileTiles.vectorMetadata + """
        CREATE VIEW tiles AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r)
        SELECT n % 15 AS zoom_level, n % 1000003 AS tile_column, n % 999983 AS tile_row, x'00' AS tile_data
        FROM r WHERE n < 0;
        """

    /// A `tiles` view over a recursive CTE never returns a row; the step budget stops it.
    @Test func endlessViewIsInterrupted() throws {
        let path = try HostileTiles.mbtiles(Self.endlessView)
        let source = try MBTilesSource(path: path)
        #expect {
            try source.tileData(for: TileID(z: 0, x: 0, y: 0)!)
        } throws: { error in
            guard case .interrupted(let p, let tile, let reason) = error as? MBTilesError else { return false }
            return p == path && tile == "0/0/0" && reason.contains("SQLite instructions")
        }
    }

    /// Walking every stored tile (as `convert` does) over the same view stops the same way.
    @Test func endlessViewStopsTheWalk() throws {
        let path = try HostileTiles.mbtiles(Self.endlessView)
        let source = try MBTilesSource(path: path)
        var visited = 0
        #expect {
            try source.forEachStoredTile { _, _ in visited += 1 }
        } throws: { error in
            guard case .interrupted(let p, let tile, let reason) = error as? MBTilesError else { return false }
            return p == path && tile == "(scan)" && reason.contains("SQLite instructions")
        }
        #expect(visited == 0)
    }

    /// With a deadline that has passed, the query stops at the next progress check.
    @Test func deadlineInterruptsTheQuery() throws {
        let path = try HostileTiles.mbtiles(Self.endlessView)
        let source = try MBTilesSource(path: path)
        #expect {
            try source.tileData(for: TileID(z: 0, x: 0, y: 0)!, deadline: .after(seconds: 0))
        } throws: { error in
            guard case .interrupted(_, _, let reason) = error as? MBTilesError else { return false }
            return reason.contains("time limit")
        }
    }

    /// A 100 MB blob is refused from its length; its bytes are never read.
    @Test func hugeBlobIsRefusedByLength() throws {
        let path = try HostileTiles.mbtiles(HostileTiles.vectorMetadata + """
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO tiles VALUES (0, 0, 0, zeroblob(100000000));
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try MBTilesSource(path: path)
        #expect(throws: MBTilesError.tileTooLarge(path: path, tile: "0/0/0", size: 100_000_000, limit: 32 << 20)) {
            try source.tileData(for: TileID(z: 0, x: 0, y: 0)!)
        }
    }

    /// Extensions cannot be loaded, not even by a view calling `load_extension`: with the
    /// schema distrusted, SQLite refuses the view's query when it is prepared.
    @Test func viewCannotLoadExtensions() throws {
        let path = try HostileTiles.mbtiles(HostileTiles.vectorMetadata + """
            CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row,
            load_extension('/nonexistent/evil') AS tile_data;
            """)
        #expect(throws: MBTilesError.notMBTiles(path: path, message: "unsafe use of load_extension()")) {
            try MBTilesSource(path: path)
        }
    }
}

/// A FIFO named as a tile source is refused at once instead of waiting for a writer.
@Suite struct FIFOSourceTests {
    @Test func fifoIsNotATileSource() throws {
        let path = try TileFixtures.temporaryDirectory() + "/tiles.mbtiles"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: TileSourceError.unreadable(path: path, reason: "not a regular file")) { try TileSources.open(path) }
        #expect(throws: MBTilesError.cannotOpen(path: path, code: 14, message: "not a regular file")) { try MBTilesSource(path: path) }
        #expect(throws: PMTilesError.io(path: path, offset: 0, reason: "not a regular file")) { try PMTilesSource(path: path) }
    }
}
