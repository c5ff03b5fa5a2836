/// The fixed 127-byte PMTiles v3 header (all integers little-endian).
///
///     0 magic "PMTiles"  7 version (3)   8 root dir offset   16 root dir length
///     24 metadata offset  32 metadata length  40 leaf dirs offset  48 leaf dirs length
///     56 tile data offset 64 tile data length 72 addressed tiles  80 tile entries
///     88 tile contents    96 clustered  97 internal compression  98 tile compression
///     99 tile type  100 min zoom  101 max zoom  102 min lon/lat, max lon/lat (i32 × 1e7)
///     118 center zoom  119 center lon/lat (i32 × 1e7)
struct PMTilesHeader: Equatable, Sendable {
    /// Size of the header in bytes.
    static let size = 127

    /// PMTiles compression codes.
    enum Compression: UInt8, Sendable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    var rootDirectoryOffset: UInt64 = 0
    var rootDirectoryLength: UInt64 = 0
    var metadataOffset: UInt64 = 0
    var metadataLength: UInt64 = 0
    var leafDirectoriesOffset: UInt64 = 0
    var leafDirectoriesLength: UInt64 = 0
    var tileDataOffset: UInt64 = 0
    var tileDataLength: UInt64 = 0
    var addressedTilesCount: UInt64 = 0
    var tileEntriesCount: UInt64 = 0
    var tileContentsCount: UInt64 = 0
    var clustered = false
    /// Raw compression code of directories and metadata.
    var internalCompression: UInt8 = Compression.gzip.rawValue
    /// Raw compression code of tiles.
    var tileCompression: UInt8 = Compression.gzip.rawValue
    /// Raw tile type: 0 unknown, 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF.
    var tileType: UInt8 = 1
    var minZoom: UInt8 = 0
    var maxZoom: UInt8 = 0
    /// Bounds and center in degrees × 10^7.
    var minLonE7: Int32 = -1_800_000_000
    var minLatE7: Int32 = -850_511_287
    var maxLonE7: Int32 = 1_800_000_000
    var maxLatE7: Int32 = 850_511_287
    var centerZoom: UInt8 = 0
    var centerLonE7: Int32 = 0
    var centerLatE7: Int32 = 0

    init() {}

    /// Parses and validates a header; `fileSize` bounds every section. `path` is for messages.
    init(bytes: [UInt8], fileSize: Int, path: String) throws(PMTilesError) {
        guard bytes.count >= Self.size, fileSize >= Self.size else {
            throw .fileTooSmall(path: path, size: min(bytes.count, fileSize))
        }
        guard bytes.starts(with: Array("PMTiles".utf8)) else { throw .badMagic(path: path, found: Array(bytes.prefix(7))) }
        guard bytes[7] == 3 else { throw .unsupportedVersion(path: path, version: bytes[7]) }
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            return v
        }
        func i32(_ at: Int) -> Int32 {
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(bytes[at + i]) << (8 * UInt32(i)) }
            return Int32(bitPattern: v)
        }
        rootDirectoryOffset = u64(8)
        rootDirectoryLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTilesCount = u64(72)
        tileEntriesCount = u64(80)
        tileContentsCount = u64(88)
        clustered = bytes[96] == 1
        internalCompression = bytes[97]
        tileCompression = bytes[98]
        tileType = bytes[99]
        minZoom = bytes[100]
        maxZoom = bytes[101]
        minLonE7 = i32(102)
        minLatE7 = i32(106)
        maxLonE7 = i32(110)
        maxLatE7 = i32(114)
        centerZoom = bytes[118]
        centerLonE7 = i32(119)
        centerLatE7 = i32(123)
        let sections: [(String, UInt64, UInt64)] = [
            ("root directory", rootDirectoryOffset, rootDirectoryLength),
            ("metadata", metadataOffset, metadataLength),
            ("leaf directories", leafDirectoriesOffset, leafDirectoriesLength),
            ("tile data", tileDataOffset, tileDataLength),
        ]
        for (name, offset, length) in sections {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= UInt64(fileSize), length == 0 || offset >= UInt64(Self.size) else {
                throw .sectionOutOfBounds(path: path, section: name, offset: offset, length: length, fileSize: fileSize)
            }
        }
        guard rootDirectoryLength > 0 else {
            throw .sectionOutOfBounds(path: path, section: "root directory", offset: rootDirectoryOffset, length: 0, fileSize: fileSize)
        }
    }

    /// The 127 header bytes.
    func encoded() -> [UInt8] {
        var b = Array("PMTiles".utf8)
        b.append(3)
        func put(_ v: UInt64) { for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func put(_ v: Int32) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32(i)))) } }
        for v in [rootDirectoryOffset, rootDirectoryLength, metadataOffset, metadataLength, leafDirectoriesOffset,
                  leafDirectoriesLength, tileDataOffset, tileDataLength, addressedTilesCount, tileEntriesCount, tileContentsCount] {
            put(v)
        }
        b.append(contentsOf: [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom])
        for v in [minLonE7, minLatE7, maxLonE7, maxLatE7] { put(v) }
        b.append(centerZoom)
        put(centerLonE7)
        put(centerLatE7)
        return b
    }
}
