import Foundation

/// Writes an MBTiles 1.3 file (SQLite: `metadata(name, value)`, `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` with TMS rows) that appears at its path only when
/// complete: the database is built in a temporary beside it (`TemporaryFile`, so a killed
/// run's leftover is removed like any other) and renamed into place by `finish`.
///
/// Tiles are stored exactly as given (vector tiles usually gzip-compressed, as MBTiles
/// readers expect); rows go in one transaction, without a journal — the rename is what
/// makes the file appear whole.
final class MBTilesWriter {
    private let file: TemporaryFile
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    /// Tiles added so far.
    private(set) var tileCount = 0

    /// Starts the database beside `path`.
    init(path: String) throws(MBTilesError) {
        do {
            file = try TemporaryFile(destination: path)
        } catch {
            throw .cannotOpen(path: path, code: 14, message: error.reason)
        }
        do {
            connection = try SQLiteConnection(path: file.path, mode: .openExisting)
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                BEGIN;
                """)
            insert = try connection.prepare("INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)")
        } catch let error as MBTilesError {
            throw error
        } catch let error as SQLiteFailure {
            throw .cannotOpen(path: path, code: error.code, message: error.message)
        } catch {
            throw .cannotOpen(path: path, code: 1, message: "\(error)")
        }
    }

    /// Adds `tile` (XYZ) with its bytes as stored.
    func add(_ tile: TileID, data: [UInt8]) throws(MBTilesError) {
        insert.reset()
        insert.bind(Int64(tile.z), at: 1)
        insert.bind(Int64(tile.x), at: 2)
        insert.bind(Int64((1 << tile.z) - 1 - tile.y), at: 3)
        insert.bind(data, at: 4)
        do {
            _ = try insert.step()
        } catch {
            throw .queryFailed(path: file.destination, tile: tile.description, code: error.code, message: error.message)
        }
        tileCount += 1
    }

    /// Writes the `metadata` rows (in the order given), indexes the tiles and renames the
    /// database into place.
    func finish(metadata rows: [(name: String, value: String)]) throws(MBTilesError) {
        do {
            let statement = try connection.prepare("INSERT INTO metadata VALUES (?1, ?2)")
            for row in rows {
                statement.reset()
                statement.bind(row.name, at: 1)
                statement.bind(row.value, at: 2)
                _ = try statement.step()
            }
            try connection.execute("""
                COMMIT;
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                CREATE UNIQUE INDEX metadata_index ON metadata (name);
                """)
        } catch {
            throw .queryFailed(path: file.destination, tile: "(metadata)", code: error.code, message: error.message)
        }
        do {
            try file.commit()
        } catch {
            throw .cannotOpen(path: file.destination, code: 14, message: error.reason)
        }
    }

    /// The MBTiles `metadata` rows describing `metadata` (the spec's names: `format`,
    /// `bounds`, `center`, `minzoom`, `maxzoom`, `json` with `vector_layers`, …) and its
    /// `extra` entries, in a fixed order so the file is deterministic.
    static func metadataRows(_ metadata: TileSourceMetadata) -> [(name: String, value: String)] {
        var rows: [(name: String, value: String)] = []
        if let v = metadata.name { rows.append(("name", v)) }
        rows.append(("format", metadata.format == .mvt ? "pbf" : metadata.format.rawValue))
        rows.append(("minzoom", String(metadata.minZoom)))
        rows.append(("maxzoom", String(metadata.maxZoom)))
        func number(_ d: Double) -> String { String(decoding: JSONWriter.bytes(.number(d)), as: UTF8.self) }
        if let b = metadata.bounds {
            rows.append(("bounds", [b.southWest.longitude, b.southWest.latitude, b.northEast.longitude, b.northEast.latitude]
                .map(number).joined(separator: ",")))
        }
        if let c = metadata.center {
            rows.append(("center", ([c.longitude, c.latitude] + (metadata.centerZoom.map { [$0] } ?? [])).map(number).joined(separator: ",")))
        }
        if let v = metadata.attribution { rows.append(("attribution", v)) }
        if let v = metadata.description { rows.append(("description", v)) }
        if !metadata.vectorLayers.isEmpty {
            let layers = JSONValue.array(metadata.vectorLayers.map(PMTilesWriter.json))
            rows.append(("json", String(decoding: JSONWriter.bytes(.object(["vector_layers": layers]), sortedKeys: true), as: UTF8.self)))
        }
        let known = Set(rows.map(\.name))
        for key in metadata.extra.keys.sorted() where !known.contains(key) {
            if let value = metadata.extra[key] { rows.append((key, value)) }
        }
        return rows
    }
}
