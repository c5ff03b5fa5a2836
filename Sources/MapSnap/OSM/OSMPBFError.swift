/// Why an OpenStreetMap `.osm.pbf` file could not be read. Every case names the blob (0 for
/// the first, the `OSMHeader`) and the byte offset in the file where it starts, so a damaged
/// download can be told from a bug.
public enum OSMPBFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file ended inside a blob's length, header or body.
    case truncated(blob: Int, fileOffset: Int, needed: Int, available: Int)
    /// A `BlobHeader` declared a size over the format's 64 KiB limit.
    case headerTooLarge(blob: Int, fileOffset: Int, size: Int)
    /// A blob declared (or inflated to) a size over the format's 32 MiB limit.
    case blobTooLarge(blob: Int, fileOffset: Int, size: Int)
    /// The protobuf of a blob header, blob or block is malformed.
    case malformed(blob: Int, fileOffset: Int, part: String, detail: String)
    /// The blob is compressed with something mapsnap does not read (lzma, lz4, zstd, bzip2).
    case unsupportedCompression(blob: Int, fileOffset: Int, method: String)
    /// The blob's zlib stream is damaged.
    case corruptCompression(blob: Int, fileOffset: Int, detail: String)
    /// The file's header requires a feature mapsnap does not implement.
    case unsupportedFeature(String)
    /// The first blob is not an `OSMHeader`, or a later blob's type is not `OSMData`.
    case unexpectedBlobType(blob: Int, fileOffset: Int, type: String)
    /// A tag or role refers to a string beyond the block's string table.
    case badStringIndex(blob: Int, fileOffset: Int, index: Int, tableSize: Int)
    /// Parallel arrays of an element (keys and values, ids and coordinates) differ in length.
    case mismatchedArrays(blob: Int, fileOffset: Int, part: String)

    /// One line naming the blob, its byte offset and what is wrong.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .truncated(let b, let o, let n, let a):
            return "blob \(b) at byte \(o): the file ends early (needs \(n) bytes, \(a) remain)"
        case .headerTooLarge(let b, let o, let s):
            return "blob \(b) at byte \(o): blob header of \(s) bytes is over the 64 KiB limit"
        case .blobTooLarge(let b, let o, let s):
            return "blob \(b) at byte \(o): blob of \(s) bytes is over the 32 MiB limit"
        case .malformed(let b, let o, let part, let detail):
            return "blob \(b) at byte \(o): malformed \(part): \(detail)"
        case .unsupportedCompression(let b, let o, let m):
            return "blob \(b) at byte \(o): \(m) compression is not supported (zlib and raw are)"
        case .corruptCompression(let b, let o, let detail):
            return "blob \(b) at byte \(o): damaged zlib data: \(detail)"
        case .unsupportedFeature(let f): return "the file requires '\(f)', which mapsnap does not read"
        case .unexpectedBlobType(let b, let o, let t):
            return "blob \(b) at byte \(o): unexpected blob type '\(t)'" + (b == 0 ? " (expected OSMHeader: is this an .osm.pbf file?)" : "")
        case .badStringIndex(let b, let o, let i, let n):
            return "blob \(b) at byte \(o): string index \(i) is beyond the string table (\(n) strings)"
        case .mismatchedArrays(let b, let o, let part):
            return "blob \(b) at byte \(o): \(part) arrays differ in length"
        }
    }
}
