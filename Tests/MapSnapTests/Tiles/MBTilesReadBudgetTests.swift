import Foundation
import Testing
@testable import MapSnap

/// Every SQLite read of an MBTiles file (tile lookups, the metadata, `convert`'s walk) draws
/// on one instruction budget per connection, refilled a little by each read and each row: a
/// `tiles` view that does heavy work per row — each lookup under the per-step limit — is
/// stopped after a few reads instead of costing that work on every one (issue 32).
@Suite struct MBTilesReadBudgetTests {
    /// Rows of the view: z12 tiles around Helsinki (x 2330…2339, TMS rows from 2900).
    static let rowCount = 200

    /// A `tiles` view whose every row runs a recursive CTE of `work` steps (about 42
    /// instructions each, 63 for a lookup, which reads `tile_data` twice: 3.2 million for the
    /// default — under the per-step limit, thousands of times what a real lookup costs).
    static func heavyView(work: Int = 50_000, rows: Int = rowCount) -> String {
        HostileTiles.vectorMetadata + """
            CREATE TABLE t (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < \(rows - 1))
            INSERT INTO t SELECT 12, 2330 + i % 10, 2900 + i / 10, x'1a00' FROM k;
            CREATE INDEX t_index ON t (zoom_level, tile_column, tile_row);
            CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row,
              (WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < \(work) + zoom_level)
               SELECT CASE WHEN max(n) >= 0 THEN t.tile_data END FROM r) AS tile_data
            FROM t;
            """
    }

    /// The first lookups pay the heavy rows; once the budget is spent, every further read is
    /// stopped within its small refill — with the error naming the file, tile and reason.
    @Test func heavyRowsSpendTheBudgetAndLaterReadsStop() throws {
        let path = try HostileTiles.mbtiles(Self.heavyView())
        let source = try MBTilesSource(path: path)
        var served = 0, stopped = 0
        for k in 0..<20 {
            let tile = try #require(TileID(z: 12, x: 2330 + k % 10, y: (1 << 12) - 1 - (2900 + k / 10)))
            do {
                if try source.tileData(for: tile) != nil { served += 1 }
            } catch let error as MBTilesError {
                guard case .interrupted(let p, let t, let reason) = error else { throw error }
                #expect(p == path && t == tile.description && reason.contains("SQLite instructions"), "\(error)")
                stopped += 1
            }
        }
        // Without the shared budget all 20 are served, each paying its 3.2 million.
        #expect(served >= 1 && served <= 4, "served \(served) heavy lookups")
        #expect(stopped == 20 - served)
    }

    /// An honest file is never stopped: hundreds of lookups and a full walk stay in budget.
    @Test func honestReadsNeverRunOutOfBudget() throws {
        let source = try MBTilesSource(path: TestPaths.fixture("helsinki-openmaptiles.mbtiles"))
        for _ in 0..<3 {
            for x in 0..<64 {
                _ = try source.tileData(for: TileID(z: 14, x: 9300 + x, y: 4740)!)
            }
        }
        var walked = 0
        try source.forEachStoredTile { _, _ in walked += 1 }
        #expect(walked > 0)
    }

    /// `convert` walks every row: the budget stops the walk of the heavy view after a few
    /// rows — an error naming the file, exit 2, nothing written, well inside the runner's
    /// time-out (the 200 heavy rows would otherwise take minutes).
    @Test func convertStopsOnAHeavyView() throws {
        // 8.4 million instructions a row: each row under the step limit, all 200 rows
        // (1.7 billion) minutes of work.
        let path = try HostileTiles.mbtiles(Self.heavyView(work: 200_000))
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["convert", path, "out.pmtiles"], in: dir)
        #expect(!r.timedOut, "\(r)")
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains(path) && r.stderr.contains("stopped") && r.stderr.contains("SQLite instructions"), "\(r)")
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// The metadata table is read under the same budget: a heavy `metadata` view is an error
    /// when the file is opened, not a silent partial read nor a long one.
    @Test func heavyMetadataIsAnError() throws {
        let path = try HostileTiles.mbtiles("""
            CREATE VIEW metadata AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000)
            SELECT 'name' AS name, max(n) AS value FROM r;
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """)
        #expect {
            try MBTilesSource(path: path)
        } throws: { error in
            guard case .interrupted(let p, let t, _) = error as? MBTilesError else { return false }
            return p == path && t == "(metadata)"
        }
    }
}
