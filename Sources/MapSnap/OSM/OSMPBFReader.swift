import Foundation

/// Reads OpenStreetMap `.osm.pbf` files (the "PBF format" of the OSM wiki): a sequence of
/// blobs, each `[4-byte big-endian length][BlobHeader][Blob]`; the first holds the
/// `OSMHeader`, the others `OSMData` primitive blocks (a string table and groups of nodes,
/// dense nodes, ways or relations).
///
/// Streaming: one blob is in memory at a time (at most 32 MiB inflated, the format's limit),
/// so a city or country extract is read in passes without loading it. Blobs compressed
/// with zlib or stored raw are read; lzma, lz4 and zstd are reported as unsupported. Every
/// length and index is checked: damaged input throws `OSMPBFError`, never traps.
package struct OSMPBFReader: Sendable {
    /// The format's limits: a blob header is at most 64 KiB, a blob (compressed or not) at
    /// most 32 MiB.
    static let maximumHeaderBytes = 64 << 10
    static let maximumBlobBytes = 32 << 20
    /// Features this reader implements; a file requiring any other is refused.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    package let path: String
    package let header: OSMHeader

    /// Opens `path` and reads its header block.
    package init(path: String) throws(OSMPBFError) {
        self.path = path
        var header: OSMHeader?
        try Self.forEachBlob(path: path, limit: 1) { blob, offset, type, bytes throws(OSMPBFError) in
            guard type == "OSMHeader" else { throw .unexpectedBlobType(blob: blob, fileOffset: offset, type: type) }
            header = try Self.decodeHeader(bytes, blob: blob, offset: offset)
        }
        guard let header else { throw .truncated(blob: 0, fileOffset: 0, needed: 4, available: 0) }
        for feature in header.requiredFeatures where !Self.supportedFeatures.contains(feature) {
            throw .unsupportedFeature(feature)
        }
        self.header = header
    }

    /// Reads every data block in file order and calls the closures given for the elements
    /// they hold (a nil closure skips that kind without decoding it).
    package func scan(nodes: ((OSMNode) -> Void)? = nil, ways: ((OSMWay) -> Void)? = nil,
                      relations: ((OSMRelation) -> Void)? = nil) throws(OSMPBFError) {
        try Self.forEachBlob(path: path, limit: nil) { blob, offset, type, bytes throws(OSMPBFError) in
            if blob == 0 { return }
            guard type == "OSMData" else { return }  // unknown blob types are skipped, as the format says
            var block = OSMPrimitiveBlock(bytes: bytes, blob: blob, fileOffset: offset)
            try block.decode(nodes: nodes, ways: ways, relations: relations)
        }
    }

    // MARK: Blobs

    /// Calls `body` with each blob's number, file offset, type and inflated payload.
    private static func forEachBlob(path: String, limit: Int?,
                                    _ body: (Int, Int, String, [UInt8]) throws(OSMPBFError) -> Void) throws(OSMPBFError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
            throw .unreadable(path: path, reason: reason)
        }
        defer { try? handle.close() }
        var offset = 0, blob = 0
        func read(_ count: Int, needed: String) throws(OSMPBFError) -> [UInt8] {
            let data: Data?
            do { data = try handle.read(upToCount: count) } catch { throw .unreadable(path: path, reason: error.localizedDescription) }
            let bytes = data.map { [UInt8]($0) } ?? []
            guard bytes.count == count else {
                throw .truncated(blob: blob, fileOffset: offset, needed: count, available: bytes.count)
            }
            return bytes
        }
        while limit.map({ blob < $0 }) ?? true {
            let lengthBytes: Data?
            do { lengthBytes = try handle.read(upToCount: 4) } catch { throw .unreadable(path: path, reason: error.localizedDescription) }
            guard let lengthBytes, !lengthBytes.isEmpty else { return }  // a clean end between blobs
            guard lengthBytes.count == 4 else {
                throw .truncated(blob: blob, fileOffset: offset, needed: 4, available: lengthBytes.count)
            }
            let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard headerLength <= maximumHeaderBytes else { throw .headerTooLarge(blob: blob, fileOffset: offset, size: headerLength) }
            let headerBytes = try read(headerLength, needed: "blob header")
            let (type, size) = try decodeBlobHeader(headerBytes, blob: blob, offset: offset)
            guard size <= maximumBlobBytes else { throw .blobTooLarge(blob: blob, fileOffset: offset, size: size) }
            let blobBytes = try read(size, needed: "blob")
            let payload = try inflateBlob(blobBytes, blob: blob, offset: offset)
            try body(blob, offset, type, payload)
            offset += 4 + headerLength + size
            blob += 1
        }
    }

    /// `BlobHeader`: 1 type (string), 3 datasize (int32).
    private static func decodeBlobHeader(_ bytes: [UInt8], blob: Int, offset: Int) throws(OSMPBFError) -> (String, Int) {
        var r = ProtobufReader(bytes: bytes)
        var type: String?, size: Int?
        do {
            while !r.isAtEnd {
                let key = try r.readFieldKey()
                switch (key.number, key.wireType) {
                case (1, .lengthDelimited): type = try r.readString()
                case (3, .varint): size = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: try r.readVarint()))
                default: try r.skip(key.wireType)
                }
            }
        } catch {
            throw .malformed(blob: blob, fileOffset: offset, part: "blob header", detail: error.description)
        }
        guard let type, let size, size >= 0 else {
            throw .malformed(blob: blob, fileOffset: offset, part: "blob header", detail: "no type or data size")
        }
        return (type, size)
    }

    /// `Blob`: 1 raw, 2 raw_size, 3 zlib_data, 4 lzma_data, 5 bzip2 (obsolete), 6 lz4, 7 zstd.
    private static func inflateBlob(_ bytes: [UInt8], blob: Int, offset: Int) throws(OSMPBFError) -> [UInt8] {
        var r = ProtobufReader(bytes: bytes)
        var rawSize: Int?
        var payload: (method: Int, range: Range<Int>)?
        do {
            while !r.isAtEnd {
                let key = try r.readFieldKey()
                switch (key.number, key.wireType) {
                case (2, .varint): rawSize = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: try r.readVarint()))
                case (1...7, .lengthDelimited) where key.number != 2: payload = (key.number, try r.readLengthDelimited())
                default: try r.skip(key.wireType)
                }
            }
        } catch {
            throw .malformed(blob: blob, fileOffset: offset, part: "blob", detail: error.description)
        }
        guard let payload else { throw .malformed(blob: blob, fileOffset: offset, part: "blob", detail: "no data") }
        switch payload.method {
        case 1:
            return Array(bytes[payload.range])
        case 3:
            if let rawSize, rawSize < 0 || rawSize > maximumBlobBytes {
                throw .blobTooLarge(blob: blob, fileOffset: offset, size: rawSize)
            }
            let out: [UInt8]
            do {
                out = try Gzip.decompress(Array(bytes[payload.range]), maxOutputBytes: maximumBlobBytes)
            } catch {
                if case .outputTooLarge = error { throw .blobTooLarge(blob: blob, fileOffset: offset, size: rawSize ?? maximumBlobBytes + 1) }
                throw .corruptCompression(blob: blob, fileOffset: offset, detail: error.description)
            }
            if let rawSize, out.count != rawSize {
                throw .corruptCompression(blob: blob, fileOffset: offset, detail: "inflated to \(out.count) bytes, raw_size says \(rawSize)")
            }
            return out
        default:
            let names = [4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"]
            throw .unsupportedCompression(blob: blob, fileOffset: offset, method: names[payload.method] ?? "unknown")
        }
    }

    /// `HeaderBlock`: 1 bbox (1 left, 2 right, 3 top, 4 bottom: sint64 nanodegrees),
    /// 4 required_features, 16 writingprogram, 32 osmosis_replication_timestamp.
    private static func decodeHeader(_ bytes: [UInt8], blob: Int, offset: Int) throws(OSMPBFError) -> OSMHeader {
        var header = OSMHeader(bounds: nil, requiredFeatures: [], writingProgram: nil, replicationTimestamp: nil)
        var r = ProtobufReader(bytes: bytes)
        do {
            while !r.isAtEnd {
                let key = try r.readFieldKey()
                switch (key.number, key.wireType) {
                case (1, .lengthDelimited):
                    var b = r.subReader(try r.readLengthDelimited())
                    var edges = [Int64](repeating: 0, count: 5)
                    while !b.isAtEnd {
                        let k = try b.readFieldKey()
                        if (1...4).contains(k.number), k.wireType == .varint { edges[k.number] = try b.readSignedVarint() } else { try b.skip(k.wireType) }
                    }
                    let sw = LatLng(latitude: Double(edges[4]) * 1e-9, longitude: Double(edges[1]) * 1e-9)
                    let ne = LatLng(latitude: Double(edges[3]) * 1e-9, longitude: Double(edges[2]) * 1e-9)
                    if sw.isValid, ne.isValid, sw.latitude < ne.latitude, sw.longitude < ne.longitude { header.bounds = (sw, ne) }
                case (4, .lengthDelimited): header.requiredFeatures.append(try r.readString())
                case (16, .lengthDelimited): header.writingProgram = try r.readString()
                case (32, .varint): header.replicationTimestamp = Int64(bitPattern: try r.readVarint())
                default: try r.skip(key.wireType)
                }
            }
        } catch {
            throw .malformed(blob: blob, fileOffset: offset, part: "header block", detail: error.description)
        }
        return header
    }
}
