import Foundation
internal import CSQLite

/// Why an MBTiles file could not be opened or a tile could not be read from it.
public enum MBTilesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite could not open the file.
    case cannotOpen(path: String, code: Int32, message: String)
    /// The database lacks a usable `tiles` table or view.
    case notMBTiles(path: String, message: String)
    /// A query failed while reading `tile`.
    case queryFailed(path: String, tile: String, code: Int32, message: String)
    /// The stored tile is gzip-compressed but cannot be inflated.
    case corruptTile(path: String, tile: String, GzipError)

    public var description: String {
        switch self {
        case .cannotOpen(let p, let c, let m): return "\(p): cannot open as SQLite (code \(c)): \(m)"
        case .notMBTiles(let p, let m): return "\(p): not an MBTiles file: \(m)"
        case .queryFailed(let p, let t, let c, let m): return "\(p): reading tile \(t) failed (SQLite code \(c)): \(m)"
        case .corruptTile(let p, let t, let e): return "\(p): tile \(t): \(e)"
        }
    }
}

/// A tile source backed by an MBTiles 1.x SQLite file, opened read-only.
///
/// One connection and one prepared statement serve all threads, serialised by a lock: a
/// tile read is a single indexed lookup, far cheaper than the decode that follows it.
/// The only file that imports `CSQLite`.
public final class MBTilesSource: TileSource, @unchecked Sendable {
    /// The file path, for messages.
    public let path: String
    public let metadata: TileSourceMetadata

    private let connection: SQLiteConnection
    /// Guarded by `lock`: SQLite statements carry cursor state.
    private let tileStatement: SQLiteStatement
    private let lock = NSLock()

    /// Opens `path` read-only and reads its `metadata` table.
    public init(path: String) throws {
        self.path = path
        connection = try SQLiteConnection(path: path)
        do {
            tileStatement = try connection.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
        } catch let error as SQLiteFailure {
            throw MBTilesError.notMBTiles(path: path, message: error.message)
        }
        var meta = TileSourceMetadata()
        var entries: [String: String] = [:]
        if let statement = try? connection.prepare("SELECT name, value FROM metadata") {
            while (try? statement.step()) == true {
                if let name = statement.text(0), let value = statement.text(1), entries[name] == nil {
                    entries[name] = value
                }
            }
        }
        meta.apply(entries: entries)
        if meta.format == .unknown, let statement = try? connection.prepare("SELECT tile_data FROM tiles LIMIT 1"),
           (try? statement.step()) == true {
            meta.format = TileFormat(sniffing: statement.blob(0))
        }
        // Tiles are returned in XYZ order whatever the file stores; record that.
        meta.scheme = .xyz
        metadata = meta
    }

    public func tileData(for tile: TileID) throws -> [UInt8]? {
        guard let stored = try rawTileData(for: tile) else { return nil }
        // Raster tiles are never gzipped; only vector (or undeclared) tiles are inflated.
        guard metadata.format == .mvt || metadata.format == .unknown else { return stored }
        do {
            return try Gzip.decompressIfNeeded(stored)
        } catch {
            throw MBTilesError.corruptTile(path: path, tile: tile.description, error)
        }
    }

    /// The tile as stored (possibly gzip-compressed), or nil when absent.
    func rawTileData(for tile: TileID) throws -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        let statement = tileStatement
        defer { statement.reset() }
        do {
            statement.bind(Int64(tile.z), at: 1)
            statement.bind(Int64(tile.x), at: 2)
            statement.bind(Int64(tile.tmsY), at: 3)
            guard try statement.step() else { return nil }
            return statement.blob(0)
        } catch let error as SQLiteFailure {
            throw MBTilesError.queryFailed(path: path, tile: tile.description, code: error.code, message: error.message)
        }
    }

    /// Calls `body` with every tile as stored (XYZ address, raw possibly-gzipped bytes), in
    /// the database's row order. Rows with out-of-range addresses are skipped.
    func forEachStoredTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        let statement: SQLiteStatement
        do {
            statement = try connection.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        } catch let error as SQLiteFailure {
            throw MBTilesError.notMBTiles(path: path, message: error.message)
        }
        while true {
            let hasRow: Bool
            do { hasRow = try statement.step() } catch let error as SQLiteFailure {
                throw MBTilesError.queryFailed(path: path, tile: "(scan)", code: error.code, message: error.message)
            }
            guard hasRow else { break }
            let z = statement.int(0), x = statement.int(1), row = statement.int(2)
            guard (0...30).contains(z), row >= 0, row < (1 << z),
                  let id = TileID(z: z, x: x, y: (1 << z) - 1 - row) else { continue }
            try body(id, statement.blob(3))
        }
    }
}

extension TileFormat {
    /// Guesses the format from a tile's magic bytes (gzip is assumed to hold MVT).
    init(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47]) { self = .png }
        else if bytes.starts(with: [0xff, 0xd8, 0xff]) { self = .jpg }
        else if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else if Gzip.isGzip(bytes) || bytes.first == 0x1a { self = .mvt }
        else { self = .unknown }
    }
}

/// A failed SQLite call: result code and `sqlite3_errmsg`.
struct SQLiteFailure: Error {
    var code: Int32
    var message: String
}

/// Owns a read-only `sqlite3*`, closed in `deinit`.
final class SQLiteConnection {
    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw MBTilesError.cannotOpen(path: path, code: code, message: message)
        }
        handle = db
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
        return SQLiteStatement(connection: self, handle: statement)
    }

    deinit { sqlite3_close_v2(handle) }
}

/// Owns a prepared statement; keeps its connection alive so finalize precedes close.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer

    init(connection: SQLiteConnection, handle: OpaquePointer) {
        self.connection = connection
        self.handle = handle
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Advances to the next row: true when a row is available, false when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(connection.handle)))
        }
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        // column_blob before column_bytes, as the SQLite docs require.
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    deinit { sqlite3_finalize(handle) }
}
