import Foundation
import Testing
@testable import MapSnap

/// Sparse sources (`mapsnap:absent-tiles` = `ancestor`): an absent tile is drawn from its
/// deepest stored ancestor, never below the source's min zoom; other sources are unchanged.
@Suite struct SparseTileSourceTests {
    /// z1–3; stored: every z1 tile, z2 (0,0), z3 (1,1) (inside z2 (0,0)) and z3 (7,7)
    /// (whose z2 parent (3,3) is absent). Rows are TMS.
    static func archive(sparse: Bool) throws -> MBTilesSource {
        func tms(_ z: Int, _ y: Int) -> Int { (1 << z) - 1 - y }
        var sql = HostileTiles.vectorMetadata + """
            INSERT INTO metadata VALUES ('minzoom', '1'), ('maxzoom', '3');
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """
        if sparse { sql += "INSERT INTO metadata VALUES ('mapsnap:absent-tiles', 'ancestor');" }
        var rows: [(Int, Int, Int)] = [(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1), (2, 0, 0), (3, 1, 1), (3, 7, 7)]
        rows = rows.map { ($0.0, $0.1, tms($0.0, $0.2)) }
        for (z, x, row) in rows {
            sql += "INSERT INTO tiles VALUES (\(z), \(x), \(row), x'1a00');"
        }
        return try MBTilesSource(path: HostileTiles.mbtiles(sql))
    }

    @Test func metadataMarksTheSourceSparse() throws {
        #expect(try Self.archive(sparse: true).metadata.absentTilesAreAncestors)
        #expect(try !Self.archive(sparse: false).metadata.absentTilesAreAncestors)
        var other = TileSourceMetadata()
        other.apply(entries: ["mapsnap:absent-tiles": "nothing"])
        #expect(!other.absentTilesAreAncestors)
    }

    @Test func hasTileAnswersWithoutReading() throws {
        let source = try Self.archive(sparse: true)
        #expect(try source.hasTile(TileID(z: 3, x: 1, y: 1)!))
        #expect(try source.hasTile(TileID(z: 1, x: 1, y: 0)!))
        #expect(try !source.hasTile(TileID(z: 3, x: 0, y: 0)!))
        #expect(try !source.hasTile(TileID(z: 2, x: 3, y: 3)!))
    }

    @Test func absentTilesWalkUpToTheDeepestStoredAncestor() throws {
        let source = try Self.archive(sparse: true)
        // Stored: itself.
        #expect(source.storedTile(for: TileID(z: 3, x: 1, y: 1)!) == TileID(z: 3, x: 1, y: 1)!)
        // Absent at z3, its z2 parent (0,0) stored.
        #expect(source.storedTile(for: TileID(z: 3, x: 0, y: 1)!) == TileID(z: 2, x: 0, y: 0)!)
        // Absent at z3 and z2: the z1 tile.
        #expect(source.storedTile(for: TileID(z: 3, x: 6, y: 6)!) == TileID(z: 1, x: 1, y: 1)!)
        // A stored tile under an absent parent is still itself.
        #expect(source.storedTile(for: TileID(z: 3, x: 7, y: 7)!) == TileID(z: 3, x: 7, y: 7)!)
        // Never below the min zoom, even when that tile is absent too.
        #expect(source.storedTile(for: TileID(z: 1, x: 0, y: 0)!) == TileID(z: 1, x: 0, y: 0)!)
    }

    @Test func ordinarySourcesAreNotWalked() throws {
        let source = try Self.archive(sparse: false)
        #expect(source.storedTile(for: TileID(z: 3, x: 0, y: 1)!) == TileID(z: 3, x: 0, y: 1)!)
    }
}
