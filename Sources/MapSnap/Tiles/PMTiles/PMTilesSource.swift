import Foundation

/// A tile source reading a PMTiles v3 archive by byte ranges (the file is never loaded whole):
/// a local file (`pread`, so concurrent lookups need no file-position lock) or an archive on
/// an HTTP server (range requests, cached like tiles: `PMTilesHTTPReader`).
///
/// The root directory is decoded at open; leaf directories are decoded on demand and kept in
/// a cache bounded in bytes.
///
/// **Bounds** (a small hostile file must not take gigabytes): a directory inflates to at most
/// `maxDirectoryBytes`, decoded directories held at once (root and cached leaves) take at most
/// `maxCachedDirectoryBytes`, leaves are decoded one at a time, and a stored tile is at most
/// `maxTileBytes`. Past a bound the lookup throws; the render skips that tile with a warning.
final class PMTilesSource: TileSource, @unchecked Sendable {
    /// The file path or (redacted) URL, for messages.
    let path: String
    let header: PMTilesHeader
    let metadata: TileSourceMetadata
    /// The JSON metadata as stored, inflated (empty when the archive has none).
    let jsonMetadata: [UInt8]

    /// Most bytes one directory (root or leaf) may take, stored or inflated. Real archives'
    /// leaves hold a few thousand entries (tens of KiB); 8 MiB is ~2 million entries.
    static let maxDirectoryBytes = 8 << 20
    /// Most memory held by decoded directories at once: the root plus the leaves cached.
    static let maxCachedDirectoryBytes = 64 << 20
    /// Most bytes of the JSON metadata, stored or inflated.
    static let maxMetadataBytes = 16 << 20
    /// Largest stored tile, as for HTTP and directory sources.
    static let maxTileBytes = 32 << 20
    /// Leaf directories kept decoded; a render touches few, a conversion walks them in order.
    static let leafCacheCapacity = 64
    /// The spec's writers nest at most root → leaf; allow some slack, never unbounded.
    static let maxDirectoryDepth = 4

    /// Where the archive's bytes come from.
    let file: any PMTilesByteSource
    /// The root directory, decoded.
    let rootEntries: [PMTilesEntry]
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var leafCache: [UInt64: [PMTilesEntry]] = [:]
    /// Guarded by `lock`; insertion order for FIFO eviction.
    private var leafCacheOrder: [UInt64] = []
    /// Guarded by `lock`: decoded bytes of the cached leaves.
    private var leafCacheBytes = 0
    /// Held while a leaf is read and decoded, so that concurrent lookups never hold more than
    /// one uncached leaf in memory (and never decode the same leaf twice).
    private let decodeLock = NSLock()

    /// Opens `path`, validates the header and reads the root directory and metadata.
    convenience init(path: String) throws(PMTilesError) {
        try self.init(bytes: PMTilesFile(file: try ReadOnlyFile(path: path), path: path), name: path, deadline: .none)
    }

    /// Opens the archive `bytes` hold (`name` in messages): validates the header and reads the
    /// root directory and metadata by `deadline`.
    init(bytes file: any PMTilesByteSource, name path: String, deadline: Deadline) throws(PMTilesError) {
        self.path = path
        self.file = file
        let headBytes = try file.read(offset: 0, length: UInt64(min(file.size, PMTilesHeader.size)), deadline: deadline)
        let header = try PMTilesHeader(bytes: headBytes, fileSize: file.size, path: path)
        self.header = header
        guard header.internalCompression == PMTilesHeader.Compression.none.rawValue
                || header.internalCompression == PMTilesHeader.Compression.gzip.rawValue else {
            throw PMTilesError.unsupportedCompression(path: path, what: "internal", code: header.internalCompression)
        }
        guard header.tileCompression <= PMTilesHeader.Compression.gzip.rawValue else {
            throw PMTilesError.unsupportedCompression(path: path, what: "tile", code: header.tileCompression)
        }
        rootEntries = try Self.readDirectory(file: file, header: header, offset: header.rootDirectoryOffset,
                                             length: header.rootDirectoryLength, path: path, deadline: deadline)

        var json: [UInt8] = []
        var meta = TileSourceMetadata()
        if header.metadataLength > 0 {
            guard header.metadataLength <= UInt64(Self.maxMetadataBytes) else {
                throw PMTilesError.invalidMetadata(path: path, reason: "\(header.metadataLength) bytes exceeds the \(Self.maxMetadataBytes)-byte limit")
            }
            let raw = try file.read(offset: header.metadataOffset, length: header.metadataLength, deadline: deadline)
            let bytes = try Self.inflateInternal(raw, header: header, path: path, what: "metadata", limit: Self.maxMetadataBytes)
            let object: JSONValue
            do {
                object = try JSONValue.parse(bytes, origin: "metadata")
            } catch {
                throw PMTilesError.metadataNotJSON(path: path, error)
            }
            guard case .object(let dictionary) = object else {
                throw PMTilesError.invalidMetadata(path: path, reason: "top level is not an object")
            }
            meta.apply(json: dictionary)
            json = bytes
        }
        switch header.tileType {
        case 1: meta.format = .mvt
        case 2: meta.format = .png
        case 3: meta.format = .jpg
        case 4: meta.format = .webp
        default: meta.format = .unknown
        }
        meta.minZoom = Int(header.minZoom)
        meta.maxZoom = Int(header.maxZoom)
        meta.bounds = .init(
            southWest: LatLng(latitude: Double(header.minLatE7) / 1e7, longitude: Double(header.minLonE7) / 1e7),
            northEast: LatLng(latitude: Double(header.maxLatE7) / 1e7, longitude: Double(header.maxLonE7) / 1e7))
        meta.center = LatLng(latitude: Double(header.centerLatE7) / 1e7, longitude: Double(header.centerLonE7) / 1e7)
        meta.centerZoom = Double(header.centerZoom)
        meta.scheme = .xyz
        metadata = meta
        jsonMetadata = json
    }

    func tileData(for tile: TileID) throws -> [UInt8]? {
        try tileData(for: tile, deadline: .none)
    }

    /// The tile's bytes, reading (over the network, for a remote archive) by `deadline`.
    func tileData(for tile: TileID, deadline: Deadline) throws -> [UInt8]? {
        guard let raw = try storedTileData(for: tile, deadline: deadline) else { return nil }
        switch header.tileCompression {
        case PMTilesHeader.Compression.gzip.rawValue:
            do { return try Gzip.decompress(raw) } catch {
                throw PMTilesError.decompression(path: path, what: "tile \(tile)", error)
            }
        case PMTilesHeader.Compression.unknown.rawValue where metadata.format == .mvt:
            do { return try Gzip.decompressIfNeeded(raw) } catch {
                throw PMTilesError.decompression(path: path, what: "tile \(tile)", error)
            }
        default:
            return raw
        }
    }

    /// The tile's bytes as stored in the archive (still compressed), or nil when absent.
    func storedTileData(for tile: TileID, deadline: Deadline = .none) throws -> [UInt8]? {
        let id = PMTilesTileID.id(for: tile)
        var entries = rootEntries
        for _ in 0..<Self.maxDirectoryDepth {
            guard let entry = PMTilesDirectory.find(id, in: entries) else { return nil }
            if entry.runLength > 0 {
                guard entry.length <= Self.maxTileBytes else {
                    throw PMTilesError.tileTooLarge(path: path, tile: tile.description, length: UInt64(entry.length), limit: Self.maxTileBytes)
                }
                let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
                guard !overflow, end <= header.tileDataLength else {
                    throw PMTilesError.tileOutOfBounds(path: path, tile: tile.description, offset: entry.offset, length: UInt64(entry.length))
                }
                return try file.read(offset: header.tileDataOffset + entry.offset, length: UInt64(entry.length), deadline: deadline)
            }
            entries = try leafDirectory(at: entry, deadline: deadline)
        }
        throw PMTilesError.directoryTooDeep(path: path, tileID: id)
    }

    private func cachedLeaf(at offset: UInt64) -> [PMTilesEntry]? {
        lock.lock()
        defer { lock.unlock() }
        return leafCache[offset]
    }

    private func leafDirectory(at entry: PMTilesEntry, deadline: Deadline = .none) throws -> [PMTilesEntry] {
        if let cached = cachedLeaf(at: entry.offset) { return cached }
        decodeLock.lock()
        defer { decodeLock.unlock() }
        // Another thread may have decoded it while this one waited.
        if let cached = cachedLeaf(at: entry.offset) { return cached }
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.leafDirectoriesLength else {
            throw PMTilesError.corruptDirectory(path: path, offset: header.leafDirectoriesOffset &+ entry.offset,
                                                reason: "leaf of \(entry.length) bytes lies outside the leaf section")
        }
        let entries = try Self.readDirectory(file: file, header: header, offset: header.leafDirectoriesOffset + entry.offset,
                                             length: UInt64(entry.length), path: path, deadline: deadline)
        let size = Self.decodedSize(entries)
        let budget = Self.maxCachedDirectoryBytes - Self.decodedSize(rootEntries)
        guard size <= budget else {
            throw PMTilesError.corruptDirectory(path: path, offset: header.leafDirectoriesOffset + entry.offset,
                                                reason: "\(entries.count) entries exceed the \(Self.maxCachedDirectoryBytes)-byte directory budget")
        }
        lock.lock()
        defer { lock.unlock() }
        while !leafCacheOrder.isEmpty && (leafCacheOrder.count >= Self.leafCacheCapacity || leafCacheBytes + size > budget) {
            let evicted = leafCacheOrder.removeFirst()
            leafCacheBytes -= leafCache[evicted].map(Self.decodedSize) ?? 0
            leafCache[evicted] = nil
        }
        leafCache[entry.offset] = entries
        leafCacheOrder.append(entry.offset)
        leafCacheBytes += size
        return entries
    }

    /// Memory held by decoded directories now: the root and the cached leaves.
    var cachedDirectoryBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return Self.decodedSize(rootEntries) + leafCacheBytes
    }

    /// Memory taken by decoded entries.
    static func decodedSize(_ entries: [PMTilesEntry]) -> Int {
        entries.count * MemoryLayout<PMTilesEntry>.stride
    }

    private static func readDirectory(file: any PMTilesByteSource, header: PMTilesHeader, offset: UInt64, length: UInt64, path: String,
                                      deadline: Deadline) throws(PMTilesError) -> [PMTilesEntry] {
        guard length <= UInt64(maxDirectoryBytes) else {
            throw PMTilesError.corruptDirectory(path: path, offset: offset, reason: "\(length) bytes exceeds the \(maxDirectoryBytes)-byte directory limit")
        }
        let raw = try file.read(offset: offset, length: length, deadline: deadline)
        return try decodeDirectory(raw, header: header, offset: offset, path: path)
    }

    /// The entries of the directory stored as `raw` (compressed as the header says) at file
    /// offset `offset`, within the bounds above.
    static func decodeDirectory(_ raw: [UInt8], header: PMTilesHeader, offset: UInt64, path: String) throws(PMTilesError) -> [PMTilesEntry] {
        guard raw.count <= maxDirectoryBytes else {
            throw PMTilesError.corruptDirectory(path: path, offset: offset, reason: "\(raw.count) bytes exceeds the \(maxDirectoryBytes)-byte directory limit")
        }
        let bytes = try inflateInternal(raw, header: header, path: path, what: "directory at offset \(offset)", limit: maxDirectoryBytes)
        do {
            return try PMTilesDirectory.decode(bytes)
        } catch {
            throw PMTilesError.corruptDirectory(path: path, offset: offset, reason: error.reason)
        }
    }

    private static func inflateInternal(_ raw: [UInt8], header: PMTilesHeader, path: String, what: String,
                                        limit: Int) throws(PMTilesError) -> [UInt8] {
        guard header.internalCompression == PMTilesHeader.Compression.gzip.rawValue else { return raw }
        do {
            return try Gzip.decompress(raw, maxOutputBytes: limit)
        } catch {
            throw .decompression(path: path, what: what, error)
        }
    }

    /// Every (tile, stored bytes) of the archive in tile-id order, expanding runs.
    func forEachStoredTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        func walk(_ entries: [PMTilesEntry], depth: Int) throws {
            guard depth < Self.maxDirectoryDepth else { throw PMTilesError.directoryTooDeep(path: path, tileID: entries.first?.tileID ?? 0) }
            for entry in entries {
                if entry.runLength == 0 {
                    try walk(try leafDirectory(at: entry), depth: depth + 1)
                    continue
                }
                guard entry.length <= Self.maxTileBytes else {
                    throw PMTilesError.tileTooLarge(path: path, tile: "id \(entry.tileID)", length: UInt64(entry.length), limit: Self.maxTileBytes)
                }
                guard entry.offset &+ UInt64(entry.length) <= header.tileDataLength else {
                    throw PMTilesError.tileOutOfBounds(path: path, tile: "id \(entry.tileID)", offset: entry.offset, length: UInt64(entry.length))
                }
                let bytes = try file.read(offset: header.tileDataOffset + entry.offset, length: UInt64(entry.length), deadline: .none)
                for k in 0..<UInt64(entry.runLength) {
                    // Ids only grow along a run: past zoom 30 (or wrapping) none is a tile, so
                    // a hostile run of 2³² ids there ends at once instead of spinning.
                    let (id, overflow) = entry.tileID.addingReportingOverflow(k)
                    guard !overflow, let tile = PMTilesTileID.tile(for: id) else { break }
                    try body(tile, bytes)
                }
            }
        }
        try walk(rootEntries, depth: 0)
    }
}

/// Where a PMTiles archive's bytes come from: a local file or an HTTP server.
protocol PMTilesByteSource: Sendable {
    /// The archive's size in bytes.
    var size: Int { get }
    /// Exactly `length` bytes at `offset`, by `deadline` (a local file ignores it).
    func read(offset: UInt64, length: UInt64, deadline: Deadline) throws(PMTilesError) -> [UInt8]
}

/// A local PMTiles file.
struct PMTilesFile: PMTilesByteSource {
    let file: ReadOnlyFile
    let path: String
    var size: Int { file.size }

    func read(offset: UInt64, length: UInt64, deadline: Deadline) throws(PMTilesError) -> [UInt8] {
        try file.read(offset: offset, length: length, path: path)
    }
}

/// A read-only file descriptor read with `pread`; closed in `deinit`.
final class ReadOnlyFile: Sendable {
    let descriptor: Int32
    let size: Int

    init(path: String) throws(PMTilesError) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw PMTilesError.io(path: path, offset: 0, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw PMTilesError.io(path: path, offset: 0, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw PMTilesError.io(path: path, offset: 0, reason: "not a regular file")
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    /// Reads exactly `length` bytes at `offset`; a short read (file truncated since open) throws.
    func read(offset: UInt64, length: UInt64, path: String) throws(PMTilesError) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= UInt64(size) else {
            throw .io(path: path, offset: offset, reason: "range of \(length) bytes extends past the end of the \(size)-byte file")
        }
        var buffer = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(descriptor, base + done, raw.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw .io(path: path, offset: offset + UInt64(done), reason: n == 0 ? "unexpected end of file" : String(cString: strerror(errno)))
            }
            done += n
        }
        return buffer
    }

    deinit { close(descriptor) }
}
