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
    /// The stored tile is larger than `MBTilesSource.maxTileBytes`.
    case tileTooLarge(path: String, tile: String, size: Int, limit: Int)
    /// A query was stopped before it finished: it ran too long (a `tiles` view that never
    /// ends) or the render's deadline passed. `reason` says which.
    case interrupted(path: String, tile: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .cannotOpen(let p, let c, let m): return "\(p): cannot open as SQLite (code \(c)): \(m)"
        case .notMBTiles(let p, let m): return "\(p): not an MBTiles file: \(m)"
        case .queryFailed(let p, let t, let c, let m): return "\(p): reading tile \(t) failed (SQLite code \(c)): \(m)"
        case .corruptTile(let p, let t, let e): return "\(p): tile \(t): \(e)"
        case .tileTooLarge(let p, let t, let size, let limit): return "\(p): tile \(t) of \(size) bytes exceeds the \(limit)-byte tile limit"
        case .interrupted(let p, let t, let reason): return "\(p): reading tile \(t) stopped: \(reason)"
        }
    }
}

/// A tile source backed by an MBTiles 1.x SQLite file, opened read-only.
///
/// One connection and one prepared statement serve all threads, serialised by a lock: a
/// tile read is a single indexed lookup, far cheaper than the decode that follows it.
/// The only file that imports `CSQLite`.
///
/// The file is treated as hostile: no extensions, no side-effecting functions in its views
/// (`trusted_schema` off), no blob over `maxTileBytes` (its size is asked with
/// `length(tile_data)` before the bytes are read, and SQLite's length limit backs that up),
/// and every read — tile lookups, the metadata, `convert`'s walk — draws on one budget of
/// virtual-machine instructions per connection (`SQLiteConnection.Watchdog`) and stops when
/// the caller's deadline passes: a `tiles` view over an endless recursive CTE would otherwise
/// never return, and one doing heavy work per row would make every read cost that work.
final class MBTilesSource: TileSource, Sendable {
    /// The file path, for messages.
    let path: String
    let metadata: TileSourceMetadata

    /// Largest stored tile read, as for HTTP and directory sources.
    static let maxTileBytes = 32 << 20
    /// Most SQLite virtual-machine instructions one step of a query may run (about half a
    /// second in a release build), and the most the connection's budget holds: an indexed
    /// lookup takes hundreds and a scan step returns its row after tens, so only a step that
    /// runs without producing rows — a view over an endless recursive CTE — comes near it.
    static let maxInstructionsPerStep = 10_000_000
    /// Instructions each step adds back to the connection's budget (capped at
    /// `maxInstructionsPerStep`). A real lookup or row costs far less, so honest reads never
    /// drain it (a lookup that scans an unindexed table of 30,000 tiles still fits); a view
    /// whose rows each cost millions drains it within a few reads, after which every read
    /// stops within this many instructions (~10 ms) instead of paying the view's work.
    static let instructionsAddedPerStep = 250_000

    /// The connection and its tile lookup, used by one thread at a time: a connection
    /// opened without SQLite's own mutex must not be shared, and statements carry cursor state.
    private struct Database {
        let connection: SQLiteConnection
        let tileStatement: SQLiteStatement
        /// Whether a tile exists, without reading its blob (sparse sources' ancestor walk).
        let existsStatement: SQLiteStatement
    }

    private let database: Locked<Database>

    /// Opens `path` read-only and reads its `metadata` table.
    init(path: String) throws(MBTilesError) {
        self.path = path
        // SQLite would block reading a FIFO; only a regular file can be a database.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw MBTilesError.cannotOpen(path: path, code: SQLITE_CANTOPEN, message: "not a regular file")
        }
        let connection = try SQLiteConnection(path: path)
        let tileStatement: SQLiteStatement
        let existsStatement: SQLiteStatement
        do {
            // length() of a stored blob is read from the record header, not the blob: a
            // 900 MB tile is refused without being loaded.
            tileStatement = try connection.prepare("""
                SELECT CASE WHEN length(tile_data) <= ?4 THEN tile_data END, length(tile_data) FROM tiles
                WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3
                """)
            existsStatement = try connection.prepare("""
                SELECT 1 FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3
                """)
        } catch {
            throw MBTilesError.notMBTiles(path: path, message: error.message)
        }
        var meta = TileSourceMetadata()
        var entries: [String: String] = [:]
        // The metadata table is optional and a broken one is ignored; a read the budget or
        // deadline stopped is an error (a partial read would look like a complete one).
        if let statement = try? connection.prepare("SELECT name, value FROM metadata") {
            do throws(SQLiteFailure) {
                while try statement.step() {
                    if let name = statement.text(0), let value = statement.text(1), entries[name] == nil {
                        entries[name] = value
                    }
                }
            } catch {
                if let reason = error.interruption { throw .interrupted(path: path, tile: "(metadata)", reason: reason) }
            }
        }
        meta.apply(entries: entries)
        if meta.format == .unknown, let statement = try? connection.prepare("SELECT tile_data FROM tiles LIMIT 1") {
            do throws(SQLiteFailure) {
                if try statement.step() { meta.format = TileFormat(sniffing: statement.blob(0)) }
            } catch {
                if let reason = error.interruption { throw .interrupted(path: path, tile: "(first tile)", reason: reason) }
            }
        }
        // Tiles are returned in XYZ order whatever the file stores; record that.
        meta.scheme = .xyz
        metadata = meta
        database = Locked(Database(connection: connection, tileStatement: tileStatement, existsStatement: existsStatement))
    }

    func tileData(for tile: TileID) throws -> [UInt8]? {
        try tileData(for: tile, deadline: .none)
    }

    /// The tile's bytes; a query still running when `deadline` passes is stopped and throws.
    func tileData(for tile: TileID, deadline: Deadline) throws -> [UInt8]? {
        guard let stored = try rawTileData(for: tile, deadline: deadline) else { return nil }
        // Raster tiles are never gzipped; only vector (or undeclared) tiles are inflated.
        guard metadata.format == .mvt || metadata.format == .unknown else { return stored }
        do {
            return try Gzip.decompressIfNeeded(stored)
        } catch {
            throw MBTilesError.corruptTile(path: path, tile: tile.description, error)
        }
    }

    /// The tile as stored (possibly gzip-compressed), or nil when absent.
    func rawTileData(for tile: TileID, deadline: Deadline = .none) throws -> [UInt8]? {
        try database.withLock { db -> Result<[UInt8]?, MBTilesError> in
            let statement = db.tileStatement
            db.connection.deadline = deadline
            defer {
                statement.reset()
                db.connection.deadline = .none
            }
            statement.bind(Int64(tile.z), at: 1)
            statement.bind(Int64(tile.x), at: 2)
            statement.bind(Int64(tile.tmsY), at: 3)
            statement.bind(Int64(Self.maxTileBytes), at: 4)
            do throws(SQLiteFailure) {
                guard try statement.step() else { return .success(nil) }
            } catch {
                return .failure(failure(error, tile: tile.description))
            }
            if statement.isNull(0), !statement.isNull(1) {
                return .failure(.tileTooLarge(path: path, tile: tile.description, size: statement.int(1), limit: Self.maxTileBytes))
            }
            return .success(statement.blob(0))
        }.get()
    }

    func hasTile(_ tile: TileID) throws -> Bool {
        try database.withLock { db -> Result<Bool, MBTilesError> in
            let statement = db.existsStatement
            defer { statement.reset() }
            statement.bind(Int64(tile.z), at: 1)
            statement.bind(Int64(tile.x), at: 2)
            statement.bind(Int64(tile.tmsY), at: 3)
            do throws(SQLiteFailure) {
                return .success(try statement.step())
            } catch {
                return .failure(failure(error, tile: tile.description))
            }
        }.get()
    }

    /// The error for a failed step: why it was interrupted, that a blob was too big, or
    /// SQLite's own message.
    private func failure(_ error: SQLiteFailure, tile: String) -> MBTilesError {
        if let reason = error.interruption { return .interrupted(path: path, tile: tile, reason: reason) }
        if error.code == SQLITE_TOOBIG {
            return .tileTooLarge(path: path, tile: tile, size: Self.maxTileBytes + 1, limit: Self.maxTileBytes)
        }
        return .queryFailed(path: path, tile: tile, code: error.code, message: error.message)
    }

    /// The tiles of zoom `z` whose columns and (XYZ) rows lie in the ranges given, with their
    /// stored sizes, in the database's row order — one indexed range query, no tile bytes read
    /// (`data extract` reads the bytes afterwards, tile by tile, in the order it writes them).
    func storedTiles(zoom z: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws -> [(tile: TileID, size: Int)] {
        let prepared = database.withLock { db in
            Result { () throws(SQLiteFailure) in
                try db.connection.prepare("""
                    SELECT tile_column, tile_row, length(tile_data) FROM tiles
                    WHERE zoom_level = ?1 AND tile_column BETWEEN ?2 AND ?3 AND tile_row BETWEEN ?4 AND ?5
                    """)
            }
        }
        let statement: SQLiteStatement
        switch prepared {
        case .success(let s): statement = s
        case .failure(let error): throw MBTilesError.notMBTiles(path: path, message: error.message)
        }
        let n = 1 << z
        statement.bind(Int64(z), at: 1)
        statement.bind(Int64(columns.lowerBound), at: 2)
        statement.bind(Int64(columns.upperBound), at: 3)
        // XYZ rows y0…y1 are TMS rows (n-1-y1)…(n-1-y0).
        statement.bind(Int64(n - 1 - rows.upperBound), at: 4)
        statement.bind(Int64(n - 1 - rows.lowerBound), at: 5)
        var out: [(tile: TileID, size: Int)] = []
        while true {
            let row = database.withLock { _ in
                Result { () throws(SQLiteFailure) -> (x: Int, row: Int, size: Int)? in
                    guard try statement.step() else { return nil }
                    return (statement.int(0), statement.int(1), statement.int(2))
                }
            }
            let found: (x: Int, row: Int, size: Int)?
            switch row {
            case .success(let r): found = r
            case .failure(let error): throw failure(error, tile: "(zoom \(z) range)")
            }
            guard let (x, tmsRow, size) = found else { break }
            guard let tile = TileID(z: z, x: x, y: n - 1 - tmsRow) else { continue }
            out.append((tile, size))
        }
        return out
    }

    /// Calls `body` with every tile as stored (XYZ address, raw possibly-gzipped bytes), in
    /// the database's row order. Rows with out-of-range addresses are skipped.
    func forEachStoredTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        let prepared = database.withLock { db in
            Result { () throws(SQLiteFailure) in
                try db.connection.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
            }
        }
        let statement: SQLiteStatement
        switch prepared {
        case .success(let s): statement = s
        case .failure(let error): throw MBTilesError.notMBTiles(path: path, message: error.message)
        }
        while true {
            // The row is read under the lock too: the connection serves tile lookups meanwhile.
            let row = database.withLock { _ in
                Result { () throws(SQLiteFailure) -> (z: Int, x: Int, row: Int, bytes: [UInt8])? in
                    guard try statement.step() else { return nil }
                    return (statement.int(0), statement.int(1), statement.int(2), statement.blob(3))
                }
            }
            let found: (z: Int, x: Int, row: Int, bytes: [UInt8])?
            switch row {
            case .success(let r): found = r
            case .failure(let error): throw failure(error, tile: "(scan)")
            }
            guard let (z, x, tmsRow, bytes) = found else { break }
            guard (0...30).contains(z), tmsRow >= 0, tmsRow < (1 << z),
                  let id = TileID(z: z, x: x, y: (1 << z) - 1 - tmsRow) else { continue }
            try body(id, bytes)
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
    /// Why the progress handler stopped the step, when it did.
    var interruption: String?
}

/// Owns a `sqlite3*` (read-only unless made for a test), closed in `deinit`.
///
/// A progress handler runs every `progressInterval` instructions of any statement and
/// interrupts a step when the connection's instruction budget is spent (see `Watchdog`) or
/// `deadline` has passed. Callers serialise use of a connection (see `MBTilesSource`).
final class SQLiteConnection {
    let handle: OpaquePointer
    /// When the current step must give up; set by the caller around its query.
    var deadline: Deadline {
        get { watchdog.deadline }
        set { watchdog.deadline = newValue }
    }

    static let progressInterval: Int32 = 1000
    private let watchdog: Watchdog

    /// What the progress handler sees: the connection's instruction budget and the deadline.
    ///
    /// One budget serves every read of the connection, a token bucket: it starts full at
    /// `MBTilesSource.maxInstructionsPerStep`, each step adds
    /// `MBTilesSource.instructionsAddedPerStep` (never above full), and the running step
    /// spends it. A step can so never run more than the full budget, honest reads (hundreds
    /// of instructions each) keep it full, and a file whose every row costs millions spends
    /// it within a few reads — the rest stop after their small refill.
    final class Watchdog {
        var deadline = Deadline.none
        var instructionsLeft = MBTilesSource.maxInstructionsPerStep
        /// Set when the handler interrupted the step.
        var reason: String?

        /// A step begins: the refill, and no reason yet.
        func beginStep(refill: Int = MBTilesSource.instructionsAddedPerStep) {
            instructionsLeft = min(MBTilesSource.maxInstructionsPerStep, instructionsLeft + refill)
            reason = nil
        }

        /// True to interrupt the step.
        func tick() -> Bool {
            instructionsLeft -= Int(SQLiteConnection.progressInterval)
            if instructionsLeft <= 0 {
                reason = "its queries ran more than the \(MBTilesSource.maxInstructionsPerStep) SQLite instructions allowed "
                    + "(plus \(MBTilesSource.instructionsAddedPerStep) per read row): a view doing heavy work per row?"
                return true
            }
            if deadline.hasPassed {
                reason = "the render's time limit passed"
                return true
            }
            return false
        }
    }

    /// How a connection opens its file.
    enum OpenMode {
        /// Read-only: every map source.
        case readOnly
        /// Read-write, the file already there (`MBTilesWriter`'s temporary): if it is gone
        /// (a signal handler removed it), the open fails instead of creating it again.
        case openExisting
        /// Read-write, created if missing (tests build hostile databases with `execute`).
        case createForTesting
    }

    /// Opens `path` with no extensions and distrusted schema, read-only unless `mode` says.
    init(path: String, mode: OpenMode = .readOnly) throws(MBTilesError) {
        var db: OpaquePointer?
        let writable = mode != .readOnly
        let flags = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY
        case .openExisting: SQLITE_OPEN_READWRITE
        case .createForTesting: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw MBTilesError.cannotOpen(path: path, code: code, message: message)
        }
        let distrusted = mapsnap_sqlite_distrust(db)
        guard distrusted == SQLITE_OK else {
            sqlite3_close_v2(db)
            throw MBTilesError.cannotOpen(path: path, code: distrusted, message: "cannot disable extensions")
        }
        if !writable {
            // A blob or string over the tile limit fails to load instead of being allocated.
            sqlite3_limit(db, SQLITE_LIMIT_LENGTH, Int32(MBTilesSource.maxTileBytes))
        }
        handle = db
        watchdog = Watchdog()
        let context = Unmanaged.passUnretained(watchdog).toOpaque()
        sqlite3_progress_handler(db, Self.progressInterval, { context in
            guard let context else { return 0 }
            return Unmanaged<Watchdog>.fromOpaque(context).takeUnretainedValue().tick() ? 1 : 0
        }, context)
    }

    /// Runs SQL statements that return no rows (tests build fixtures with it).
    func execute(_ sql: String) throws(SQLiteFailure) {
        let kept = watchdog.instructionsLeft
        watchdog.instructionsLeft = Int.max
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        watchdog.instructionsLeft = kept
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error \(code)"
            sqlite3_free(message)
            throw SQLiteFailure(code: code, message: text)
        }
    }

    /// Tells the watchdog a step begins (its refill of the budget).
    fileprivate func beginStep() {
        watchdog.beginStep()
    }

    /// Why the last step was interrupted, if the watchdog did it.
    fileprivate var interruption: String? { watchdog.reason }

    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
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

    /// Binds text (copied by SQLite: `SQLITE_TRANSIENT`).
    func bind(_ text: String, at index: Int32) {
        sqlite3_bind_text(handle, index, text, -1, mapsnap_sqlite_transient())
    }

    /// Binds a blob (copied by SQLite); an empty one is a zero-length blob, not NULL.
    func bind(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), mapsnap_sqlite_transient())
        }
    }

    /// Advances to the next row: true when a row is available, false when done. Each call
    /// spends from, and first adds a little to, the connection's instruction budget.
    func step() throws(SQLiteFailure) -> Bool {
        connection.beginStep()
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(connection.handle)),
                                interruption: code == SQLITE_INTERRUPT ? connection.interruption : nil)
        }
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
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

extension MBTilesSource {
    /// The version of the SQLite this process runs with (`sqlite3_libversion`), for `--version`.
    static var sqliteVersion: String? { sqlite3_libversion().map { String(cString: $0) } }
}
