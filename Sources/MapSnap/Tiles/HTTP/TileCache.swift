import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An on-disk cache of fetched tiles, one file per tile, and of other fetched resources
/// (styles, TileJSON, sprites, icons, PMTiles byte ranges), one file per URL:
///
///     <directory>/<key>/<z>/<x>/<y>.tile     the response body (validated before it is stored)
///     <directory>/<key>/<z>/<x>/<y>.absent   empty marker: the server said 404/204
///     <directory>/<key>/<hh>/<hash>.body     a resource's body (`key` is `resourceKey`)
///     <directory>/<key>/<hh>/<hash>.absent   the server said the resource does not exist
///     … .meta                                beside a body: its expiry and validator
///
/// Freshness. A body whose response carried caching headers (`HTTPFreshness`) or a version
/// (`ETag`, `Last-Modified`) gets a `.meta` file: `expires <unix seconds>` — the response's
/// time plus the larger of its lifetime (else `maxAge`) and `minimumAge` — then `etag …` and
/// `last-modified …` lines. A body without one is fresh for `max(maxAge, minimumAge)` after its
/// modification time. A stale body with a validator is revalidated (`CacheValidator`): a 304
/// rewrites only the `.meta` file (`refresh`).
///
/// `key` is the FNV-1a 64-bit hash of the URL template (plus `@2x` when the template's tiles
/// depend on the scale), in hex: stable across processes and machines, unlike `hashValue`.
/// A resource's `hash` is the same hash of its URL (and byte range), `hh` its first two
/// digits. Age is the file's modification time.
///
/// Safety of the files below `directory` (the directory itself is the user's and may be a
/// link, but one other users can write is not used: `TileCacheError.sharedDirectory`; the
/// folders the cache makes are `0700`): every folder and file is opened relative to its parent's descriptor with
/// `O_NOFOLLOW`, so a symbolic link planted inside the cache is never followed, for writes
/// or reads; only regular files are read (a FIFO cannot block a read). Writes go to a
/// temporary file in the tile's folder, are synced and renamed over the entry, so a reader
/// sees a whole body or none. Temporaries older than `staleTemporaryAge` that a killed
/// process left behind are removed from a folder the first time this process writes to it.
struct TileCache: Sendable {
    /// The root folder shared by all templates, and this template's folder name in it.
    let directory, key: String
    /// Entries older than this are stale (refetched when the network is allowed).
    let maxAge: TimeInterval
    /// Age limit for "absent" markers, shorter because providers fill gaps.
    let absentMaxAge: TimeInterval
    /// Largest cache file read back.
    let maxEntryBytes: Int
    /// A usage policy's floor: an entry stays fresh at least this long, whatever the server's
    /// headers say (OpenStreetMap's tile policy asks for 7 days).
    var minimumAge: TimeInterval = 0
    /// Most bytes the whole `directory` may hold (every template's and the resources'
    /// entries); past it the least recently used go first (`TileCacheTrimmer`). nil: no cap.
    var maxBytes: Int? = nil

    /// Default freshness: 7 days, as OpenStreetMap's tile usage policy asks.
    static let defaultMaxAge: TimeInterval = 7 * 24 * 3600
    /// Default freshness of "absent" markers: 1 day.
    static let defaultAbsentMaxAge: TimeInterval = 24 * 3600
    /// A temporary file older than this belongs to no running write (a write takes
    /// milliseconds): it was left by a process that was killed.
    static let staleTemporaryAge: TimeInterval = 600

    /// Folders this process has already swept for stale temporaries.
    private static let sweptFolders = Locked<Set<String>>([])  // not `Mutex`: see `HostGate.state`

    /// A cache for `cacheKey` (see `key(for:)`) under `directory`, or under
    /// `defaultDirectory(environment:)` when `directory` is nil.
    init(directory: String? = nil, cacheKey: String, maxAge: TimeInterval = defaultMaxAge,
                absentMaxAge: TimeInterval = defaultAbsentMaxAge, maxEntryBytes: Int = 32 << 20, minimumAge: TimeInterval = 0,
                maxBytes: Int? = nil, environment: EnvironmentVariables = .process) {
        self.maxBytes = maxBytes.map { max(0, $0) }
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.key = cacheKey
        self.minimumAge = max(0, minimumAge)
        self.maxAge = maxAge
        self.absentMaxAge = absentMaxAge
        self.maxEntryBytes = maxEntryBytes
    }

    /// `$MAPSNAP_CACHE_DIR`, else `$XDG_CACHE_HOME/mapsnap/tiles`, else
    /// `~/.cache/mapsnap/tiles` (empty variables count as unset, as XDG says).
    static func defaultDirectory(environment: EnvironmentVariables = .process) -> String {
        if let dir = environment["MAPSNAP_CACHE_DIR"], !dir.isEmpty { return dir }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/mapsnap/tiles" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/mapsnap/tiles"
    }

    /// The stable folder name for a template: 16 hex digits of FNV-1a 64 over its UTF-8.
    static func key(for template: TileURLTemplate, scale: Double) -> String {
        var text = template.template
        if template.usesScale && scale >= 2 { text += "\n@2x" }
        return hash(text)
    }

    /// The folder name of the resources (styles, TileJSON, sprites, icons, byte ranges):
    /// one folder for all of them, beside the templates' folders.
    static let resourceKey = "resources"

    /// 16 hex digits of FNV-1a 64 over the UTF-8 of `text`.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What the cache holds for a tile.
    enum Entry: Sendable, Equatable {
        /// The stored body.
        case data([UInt8])
        /// The server said the tile does not exist.
        case absent
    }

    /// A cached entry and whether it is still fresh at the time of the lookup.
    struct Lookup: Sendable, Equatable {
        var entry: Entry
        var isFresh: Bool
        /// The version of a stored body, to revalidate it with; nil when the server named none.
        var validator: CacheValidator? = nil
    }

    /// Where one entry lives: folders below `directory`, and the names of its body file and
    /// of its "absent" marker.
    struct Address {
        var folders: [String]
        var dataName: String
        var absentName: String
        /// The `.meta` file beside the body.
        var metaName: String { dataName + ".meta" }
    }

    private func address(_ tile: TileID) -> Address {
        Address(folders: [key, String(tile.z), String(tile.x)], dataName: "\(tile.y).tile", absentName: "\(tile.y).absent")
    }

    /// A resource's entry: named by the hash of its URL (which may carry a byte range).
    private func address(resource: String) -> Address {
        let name = Self.hash(resource)
        return Address(folders: [key, String(name.prefix(2))], dataName: name + ".body", absentName: name + ".absent")
    }

    private func folderPath(_ a: Address) -> String { ([directory] + a.folders).joined(separator: "/") }

    /// Path of the body file for `tile`.
    func dataPath(for tile: TileID) -> String { dataPath(address(tile)) }
    /// Path of the "absent" marker for `tile`.
    func absentPath(for tile: TileID) -> String { absentPath(address(tile)) }
    /// Path of the body file for the resource at `url`.
    func dataPath(resource url: String) -> String { dataPath(address(resource: url)) }
    /// Path of the "absent" marker for the resource at `url`.
    func absentPath(resource url: String) -> String { absentPath(address(resource: url)) }

    private func dataPath(_ a: Address) -> String { folderPath(a) + "/" + a.dataName }
    private func absentPath(_ a: Address) -> String { folderPath(a) + "/" + a.absentName }

    /// The entry for `tile`, or nil when there is none (or it cannot be read, is not a
    /// regular file, or lies behind a symbolic link).
    func lookup(_ tile: TileID, now: Date = Date()) -> Lookup? { lookup(address(tile), now: now) }

    /// The entry for the resource at `url` (with any byte range), as `lookup(_:now:)`.
    func lookup(resource url: String, now: Date = Date()) -> Lookup? { lookup(address(resource: url), now: now) }

    /// Stores a complete, validated body for `tile` and drops any "absent" marker. `lifetime`
    /// (from the response's caching headers; nil: `maxAge`) and `validator` go to its `.meta`.
    func store(_ bytes: [UInt8], for tile: TileID, lifetime: TimeInterval? = nil,
               validator: CacheValidator? = nil) throws(TileCacheError) {
        try store(bytes, at: address(tile), lifetime: lifetime, validator: validator)
    }

    /// Stores a complete, validated body for the resource at `url` (see `store(_:for:…)`).
    func store(_ bytes: [UInt8], resource url: String, lifetime: TimeInterval? = nil,
               validator: CacheValidator? = nil) throws(TileCacheError) {
        try store(bytes, at: address(resource: url), lifetime: lifetime, validator: validator)
    }

    /// After a 304: the stored body of `tile` is current for `lifetime` more (nil: `maxAge`);
    /// a new `validator` replaces the old one.
    func refresh(_ tile: TileID, lifetime: TimeInterval?, validator: CacheValidator?) throws(TileCacheError) {
        try refresh(address(tile), lifetime: lifetime, validator: validator)
    }

    /// After a 304 for the resource at `url` (see `refresh(_:lifetime:validator:)`).
    func refresh(resource url: String, lifetime: TimeInterval?, validator: CacheValidator?) throws(TileCacheError) {
        try refresh(address(resource: url), lifetime: lifetime, validator: validator)
    }

    /// Records that `tile` does not exist on the server and drops any stored body.
    func storeAbsent(_ tile: TileID) throws(TileCacheError) { try storeAbsent(at: address(tile)) }

    /// Records that the resource at `url` does not exist on the server.
    func storeAbsent(resource url: String) throws(TileCacheError) { try storeAbsent(at: address(resource: url)) }

    /// Removes whatever is cached for `tile` (e.g. an entry that failed validation).
    func remove(_ tile: TileID) { remove(address(tile)) }

    /// Removes whatever is cached for the resource at `url`.
    func remove(resource url: String) { remove(address(resource: url)) }

    private func lookup(_ a: Address, now: Date) -> Lookup? {
        guard let folder = existingFolder(a) else { return nil }
        if let (bytes, modified) = readEntry(a.dataName, in: folder) {
            markUsed(a.dataName, in: folder)
            let age = now.timeIntervalSince(modified)
            guard let meta = readMeta(a, in: folder) else {
                return Lookup(entry: .data(bytes), isFresh: age <= max(maxAge, minimumAge))
            }
            let fresh = meta.expires.map { now.timeIntervalSince1970 < $0 } ?? (age <= maxAge)
            return Lookup(entry: .data(bytes), isFresh: fresh || age <= minimumAge, validator: meta.validator)
        }
        if let modified = regularFileDate(a.absentName, in: folder) {
            markUsed(a.absentName, in: folder)
            return Lookup(entry: .absent, isFresh: now.timeIntervalSince(modified) <= absentMaxAge)
        }
        return nil
    }

    private func store(_ bytes: [UInt8], at a: Address, lifetime: TimeInterval?, validator: CacheValidator?) throws(TileCacheError) {
        let folder = try openFolder(a, create: true)
        sweepStaleTemporaries(in: folder, path: folderPath(a))
        // The old version's validator must never stand beside the new body.
        unlinkat(folder.fd, a.metaName, 0)
        try writeEntry(bytes, name: a.dataName, in: folder, path: dataPath(a))
        unlinkat(folder.fd, a.absentName, 0)
        if lifetime != nil || validator != nil {
            try writeMeta(a, in: folder, lifetime: lifetime, validator: validator)
        }
        stored(a.dataName, bytes: bytes.count, in: folder)
    }

    /// Sets the entry's access time to now, its last use for `TileCacheTrimmer` (only when
    /// the cache has a cap: otherwise nobody reads it). The modification time is untouched.
    private func markUsed(_ name: String, in folder: Folder) {
        guard maxBytes != nil else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, timespec(tv_sec: 0, tv_nsec: Self.omitTime)]
        _ = utimensat(folder.fd, name, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// `UTIME_OMIT` (a macro Swift does not import): leave that time as it is.
    #if canImport(Darwin)
    private static let omitTime = -2
    #else
    private static let omitTime = (1 << 30) - 2
    #endif

    /// A new entry of `bytes` bytes: used now, and counted against the cap.
    private func stored(_ name: String, bytes: Int, in folder: Folder) {
        guard let maxBytes else { return }
        markUsed(name, in: folder)
        TileCacheTrimmer.shared(directory).stored(max(bytes, 1), cap: maxBytes)
    }

    private func refresh(_ a: Address, lifetime: TimeInterval?, validator: CacheValidator?) throws(TileCacheError) {
        let folder = try openFolder(a, create: true)
        try writeMeta(a, in: folder, lifetime: lifetime, validator: validator ?? readMeta(a, in: folder)?.validator)
    }

    /// What a `.meta` file says.
    private struct Meta {
        var expires: Double?
        var validator: CacheValidator?
    }

    private func writeMeta(_ a: Address, in folder: Folder, lifetime: TimeInterval?, validator: CacheValidator?) throws(TileCacheError) {
        let seconds = max(lifetime ?? maxAge, minimumAge)
        var text = "expires \(Date().timeIntervalSince1970 + seconds)\n"
        if let tag = validator?.entityTag { text += "etag \(tag)\n" }
        if let date = validator?.lastModified { text += "last-modified \(date)\n" }
        try writeEntry(Array(text.utf8), name: a.metaName, in: folder, path: folderPath(a) + "/" + a.metaName)
    }

    private func readMeta(_ a: Address, in folder: Folder) -> Meta? {
        guard let (bytes, _) = readEntry(a.metaName, in: folder), bytes.count <= 4096 else { return nil }
        var meta = Meta()
        var tag: String?, date: String?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "expires": meta.expires = Double(parts[1]).flatMap { $0.isFinite ? $0 : nil }
            case "etag": tag = parts[1]
            case "last-modified": date = parts[1]
            default: continue
            }
        }
        meta.validator = CacheValidator(entityTag: tag, lastModified: date)
        return meta
    }

    private func storeAbsent(at a: Address) throws(TileCacheError) {
        let folder = try openFolder(a, create: true)
        sweepStaleTemporaries(in: folder, path: folderPath(a))
        try writeEntry([], name: a.absentName, in: folder, path: absentPath(a))
        unlinkat(folder.fd, a.dataName, 0)
        unlinkat(folder.fd, a.metaName, 0)
        stored(a.absentName, bytes: 0, in: folder)
    }

    private func remove(_ a: Address) {
        guard let folder = existingFolder(a) else { return }
        unlinkat(folder.fd, a.dataName, 0)
        unlinkat(folder.fd, a.absentName, 0)
        unlinkat(folder.fd, a.metaName, 0)
    }

    // MARK: - Files

    /// An open folder descriptor, closed with its owner.
    private final class Folder {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// The root folder, open, when other users cannot write it; nil when it is missing,
    /// unreadable or shared (`rootProblem` says which).
    private func openRoot() -> Folder? {
        let root = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return nil }
        let folder = Folder(root)
        var info = stat()
        guard fstat(root, &info) == 0, info.st_mode & S_IWOTH == 0 else { return nil }
        return folder
    }

    /// Why `directory` cannot hold a cache (other users can write it), or nil.
    static func rootProblem(_ directory: String) -> TileCacheError? {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_IWOTH != 0 else { return nil }
        return .sharedDirectory(path: directory, mode: UInt32(info.st_mode))
    }

    /// The address's folder when it exists (a lookup): the same walk as `openFolder` but
    /// without building a path or an error for each miss — most lookups of a cold cache miss.
    private func existingFolder(_ address: Address) -> Folder? {
        guard var folder = openRoot() else { return nil }
        for component in address.folders {
            let next = openat(folder.fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return nil }
            folder = Folder(next)
        }
        return folder
    }

    /// The address's folders below `directory`, walked one component at a time without
    /// following links (and created, `0700`, when `create`).
    private func openFolder(_ address: Address, create: Bool) throws(TileCacheError) -> Folder {
        if create, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreate(path: directory, reason: "\(error)")
            }
        }
        if let problem = Self.rootProblem(directory) { throw problem }
        guard var folder = openRoot() else { throw .cannotCreate(path: directory, reason: Self.reason(errno)) }
        var path = directory
        for component in address.folders {
            path += "/" + component
            if create, mkdirat(folder.fd, component, 0o700) != 0, errno != EEXIST {
                throw .cannotCreate(path: path, reason: Self.reason(errno))
            }
            let next = openat(folder.fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let code = errno
                if isSymbolicLink(component, in: folder) { throw .symbolicLink(path: path) }
                throw .cannotCreate(path: path, reason: Self.reason(code))
            }
            folder = Folder(next)
        }
        return folder
    }

    private func isSymbolicLink(_ name: String, in folder: Folder) -> Bool {
        var info = stat()
        return fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Writes `bytes` to a temporary beside `name`, syncs it and renames it over `name` (a
    /// link at `name` is replaced, not followed).
    private func writeEntry(_ bytes: [UInt8], name: String, in folder: Folder, path: String) throws(TileCacheError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 where fd < 0 {
            temporary = ".\(name).tmp-" + Self.randomSuffix()
            fd = openat(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: Self.reason(errno)) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlinkat(folder.fd, temporary, 0)
            throw .cannotWrite(path: path, reason: "\(error)")
        }
        if renameat(folder.fd, temporary, folder.fd, name) != 0 {
            let code = errno
            unlinkat(folder.fd, temporary, 0)
            throw .cannotReplace(path: path, reason: Self.reason(code))
        }
    }

    /// The bytes and modification time of the regular file `name`, or nil (missing, a link,
    /// not a regular file, larger than `maxEntryBytes`, unreadable).
    private func readEntry(_ name: String, in folder: Folder) -> ([UInt8], Date)? {
        // O_NONBLOCK: opening a FIFO planted here must not wait for a writer.
        let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxEntryBytes else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        let complete = bytes.withUnsafeMutableBytes { raw -> Bool in
            while offset < size, let base = raw.baseAddress {
                let n = read(fd, base + offset, size - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard complete else { return nil }
        return (bytes, Self.date(info))
    }

    private func regularFileDate(_ name: String, in folder: Folder) -> Date? {
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Self.date(info)
    }

    /// Removes temporaries older than `staleTemporaryAge` from a folder, once per folder and
    /// process (the set of swept folders is bounded; forgetting it only means sweeping again).
    private func sweepStaleTemporaries(in folder: Folder, path: String) {
        let first = Self.sweptFolders.withLock { swept -> Bool in
            if swept.count >= 10_000 { swept.removeAll() }
            return swept.insert(path).inserted
        }
        guard first else { return }
        let listing = dup(folder.fd)
        guard listing >= 0 else { return }
        guard let stream = fdopendir(listing) else { close(listing); return }
        defer { closedir(stream) }
        let cutoff = Date().addingTimeInterval(-Self.staleTemporaryAge)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("."), name.contains(".tmp-"), let modified = regularFileDate(name, in: folder),
                  modified < cutoff else { continue }
            unlinkat(folder.fd, name, 0)
        }
    }

    private static func date(_ info: stat) -> Date {
        Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    private static func randomSuffix() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
