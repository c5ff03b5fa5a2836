import Foundation

/// An on-disk cache of fetched tiles, one file per tile:
///
///     <directory>/<key>/<z>/<x>/<y>.tile     the response body
///     <directory>/<key>/<z>/<x>/<y>.absent   empty marker: the server said 404/204
///
/// `key` is the FNV-1a 64-bit hash of the URL template (plus `@2x` when the template's tiles
/// depend on the scale), in hex: stable across processes and machines, unlike `hashValue`.
/// Files are written atomically (temporary file + rename), so a reader sees a whole body or
/// none; age is the file's modification time.
public struct TileCache: Sendable {
    /// Root folder shared by all templates.
    public let directory: String
    /// Folder name for this template.
    public let key: String
    /// Entries older than this are stale (refetched when the network is allowed).
    public let maxAge: TimeInterval
    /// Age limit for "absent" markers, shorter because providers fill gaps.
    public let absentMaxAge: TimeInterval
    /// Largest cache file read back.
    public let maxEntryBytes: Int

    /// Default freshness: 7 days, as OpenStreetMap's tile usage policy asks.
    public static let defaultMaxAge: TimeInterval = 7 * 24 * 3600
    /// Default freshness of "absent" markers: 1 day.
    public static let defaultAbsentMaxAge: TimeInterval = 24 * 3600

    /// A cache for `cacheKey` (see `key(for:)`) under `directory`, or under
    /// `defaultDirectory(environment:)` when `directory` is nil.
    public init(directory: String? = nil, cacheKey: String, maxAge: TimeInterval = defaultMaxAge,
                absentMaxAge: TimeInterval = defaultAbsentMaxAge, maxEntryBytes: Int = 32 << 20,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.key = cacheKey
        self.maxAge = maxAge
        self.absentMaxAge = absentMaxAge
        self.maxEntryBytes = maxEntryBytes
    }

    /// `$MAPSNAP_CACHE_DIR`, else `$XDG_CACHE_HOME/mapsnap/tiles`, else
    /// `~/.cache/mapsnap/tiles` (empty variables count as unset, as XDG says).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["MAPSNAP_CACHE_DIR"], !dir.isEmpty { return dir }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/mapsnap/tiles" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/mapsnap/tiles"
    }

    /// The stable folder name for a template: 16 hex digits of FNV-1a 64 over its UTF-8.
    public static func key(for template: TileURLTemplate, scale: Double) -> String {
        var text = template.template
        if template.usesScale && scale >= 2 { text += "\n@2x" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What the cache holds for a tile.
    public enum Entry: Sendable, Equatable {
        /// The stored body.
        case data([UInt8])
        /// The server said the tile does not exist.
        case absent
    }

    /// A cached entry and whether it is still fresh at the time of the lookup.
    public struct Lookup: Sendable, Equatable {
        public var entry: Entry
        public var isFresh: Bool
    }

    /// Path of the body file for `tile`.
    public func dataPath(for tile: TileID) -> String { folder(for: tile) + "/\(tile.y).tile" }
    /// Path of the "absent" marker for `tile`.
    public func absentPath(for tile: TileID) -> String { folder(for: tile) + "/\(tile.y).absent" }

    private func folder(for tile: TileID) -> String { "\(directory)/\(key)/\(tile.z)/\(tile.x)" }

    /// The entry for `tile`, or nil when there is none (or it cannot be read).
    public func lookup(_ tile: TileID, now: Date = Date()) -> Lookup? {
        let dataFile = dataPath(for: tile)
        if let modified = modificationDate(dataFile), let bytes = read(dataFile) {
            return Lookup(entry: .data(bytes), isFresh: now.timeIntervalSince(modified) <= maxAge)
        }
        if let modified = modificationDate(absentPath(for: tile)) {
            return Lookup(entry: .absent, isFresh: now.timeIntervalSince(modified) <= absentMaxAge)
        }
        return nil
    }

    /// Stores a complete, validated body for `tile` and drops any "absent" marker.
    public func store(_ bytes: [UInt8], for tile: TileID) throws(AtomicFileError) {
        try makeFolder(for: tile)
        try AtomicFile.write(bytes, to: dataPath(for: tile), followsSymbolicLinks: false)
        try? FileManager.default.removeItem(atPath: absentPath(for: tile))
    }

    /// Records that `tile` does not exist on the server and drops any stored body.
    public func storeAbsent(_ tile: TileID) throws(AtomicFileError) {
        try makeFolder(for: tile)
        try AtomicFile.write([], to: absentPath(for: tile), followsSymbolicLinks: false)
        try? FileManager.default.removeItem(atPath: dataPath(for: tile))
    }

    /// Removes whatever is cached for `tile` (e.g. an entry that failed to decode).
    public func remove(_ tile: TileID) {
        try? FileManager.default.removeItem(atPath: dataPath(for: tile))
        try? FileManager.default.removeItem(atPath: absentPath(for: tile))
    }

    private func makeFolder(for tile: TileID) throws(AtomicFileError) {
        let path = folder(for: tile)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: path, errno: 0, reason: "\(error)")
        }
    }

    private func modificationDate(_ path: String) -> Date? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return attributes[.modificationDate] as? Date
    }

    private func read(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // One byte past the cap shows an oversized file without reading all of it.
        guard let data = try? handle.read(upToCount: maxEntryBytes + 1), data.count <= maxEntryBytes else { return nil }
        return [UInt8](data)
    }
}
