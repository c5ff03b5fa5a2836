/// Why a PMTiles archive could not be read or written. Offsets are byte offsets in the file.
public enum PMTilesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is shorter than the 127-byte header.
    case fileTooSmall(path: String, size: Int)
    /// The first 7 bytes are not `PMTiles`.
    case badMagic(path: String, found: [UInt8])
    /// The spec version byte is not 3.
    case unsupportedVersion(path: String, version: UInt8)
    /// A header section (`name`) lies outside the file.
    case sectionOutOfBounds(path: String, section: String, offset: UInt64, length: UInt64, fileSize: Int)
    /// A compression method mapsnap does not implement (brotli, zstd, unknown).
    case unsupportedCompression(path: String, what: String, code: UInt8)
    /// A directory is malformed; `reason` says how.
    case corruptDirectory(path: String, offset: UInt64, reason: String)
    /// Leaf directories nest deeper than the spec's practical limit.
    case directoryTooDeep(path: String, tileID: UInt64)
    /// A tile entry points outside the tile data section.
    case tileOutOfBounds(path: String, tile: String, offset: UInt64, length: UInt64)
    /// A stored tile is larger than `PMTilesSource.maxTileBytes`.
    case tileTooLarge(path: String, tile: String, length: UInt64, limit: Int)
    /// Inflating a directory, the metadata or a tile failed.
    case decompression(path: String, what: String, GzipError)
    /// The JSON metadata is too large or not a JSON object.
    case invalidMetadata(path: String, reason: String)
    /// The JSON metadata is not JSON; `error` gives the byte offset within the metadata.
    case metadataNotJSON(path: String, JSONError)
    /// Reading the file failed.
    case io(path: String, offset: UInt64, reason: String)
    /// A remote archive changed between two of its reads (another size or version).
    case archiveChanged(path: String, reason: String)
    /// The writer was given the same tile twice.
    case duplicateTile(String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .fileTooSmall(let p, let s): return "\(p): \(s) bytes is too small for a PMTiles header (127 bytes)"
        case .badMagic(let p, let f): return "\(p): not a PMTiles archive (first bytes \(f))"
        case .unsupportedVersion(let p, let v): return "\(p): PMTiles version \(v) is not supported (expected 3)"
        case .sectionOutOfBounds(let p, let s, let o, let l, let size):
            return "\(p): header section '\(s)' at offset \(o), length \(l) lies outside the \(size)-byte file"
        case .unsupportedCompression(let p, let w, let c): return "\(p): \(w) compression \(c) is not supported (only none and gzip)"
        case .corruptDirectory(let p, let o, let r): return "\(p): directory at offset \(o) is corrupt: \(r)"
        case .directoryTooDeep(let p, let t): return "\(p): leaf directories nest too deep looking up tile id \(t)"
        case .tileOutOfBounds(let p, let t, let o, let l): return "\(p): tile \(t) at data offset \(o), length \(l) lies outside the tile data"
        case .tileTooLarge(let p, let t, let l, let limit): return "\(p): tile \(t) of \(l) bytes exceeds the \(limit)-byte tile limit"
        case .decompression(let p, let w, let e): return "\(p): \(w): \(e)"
        case .invalidMetadata(let p, let r): return "\(p): JSON metadata is invalid: \(r)"
        case .metadataNotJSON(let p, let e): return "\(p): JSON metadata is invalid: not JSON: \(e.reason) at byte \(e.byteOffset)"
        case .io(let p, let o, let r): return "\(p): read failed at offset \(o): \(r)"
        case .archiveChanged(let p, let r): return "\(p): the archive changed on the server while it was read (\(r))"
        case .duplicateTile(let t): return "PMTiles writer: tile \(t) was added twice"
        }
    }
}
