import Foundation

/// Builds a PMTiles v3 archive from (tile, bytes) pairs.
///
/// The archive is clustered (tile data in tile-id order), identical tile contents are stored
/// once, consecutive ids with identical contents become one run-length entry, directories and
/// metadata are gzip-compressed, and leaf directories are used when the root directory would
/// not fit in the first 16 KiB. Tiles are held in memory until `write(to:)`: the archive must
/// fit in RAM (fine for city and country extracts, not for a planet).
struct PMTilesWriter: Sendable {
    /// The format recorded in the header's tile type.
    var format: TileFormat
    /// How the bytes passed to `add` are compressed (they are stored as given).
    var tileCompression: PMTilesHeader.Compression
    /// Name, attribution, bounds, zoom range and vector layers written to the header and JSON.
    var metadata: TileSourceMetadata

    /// Root directory budget: the spec asks that header + root fit in 16 KiB.
    static let maxRootDirectoryBytes = 16_384 - PMTilesHeader.size
    /// When set, forces leaf directories of this many entries (tests use it to exercise leaves).
    var forcedLeafSize: Int?

    private var tiles: [UInt64: [UInt8]] = [:]

    /// A writer for tiles of `format`, stored with `tileCompression` (gzip for MVT by convention).
    init(format: TileFormat, tileCompression: PMTilesHeader.Compression, metadata: TileSourceMetadata = TileSourceMetadata()) {
        self.format = format
        self.tileCompression = tileCompression
        self.metadata = metadata
    }

    /// Number of tiles added.
    var tileCount: Int { tiles.count }

    /// Adds a tile. Adding the same tile twice throws `PMTilesError.duplicateTile`.
    mutating func add(_ tile: TileID, data: [UInt8]) throws(PMTilesError) {
        let id = PMTilesTileID.id(for: tile)
        guard tiles[id] == nil else { throw .duplicateTile(tile.description) }
        tiles[id] = data
    }

    /// The complete archive bytes.
    func archive() throws -> [UInt8] {
        // Sorting by id makes the output independent of insertion and dictionary order.
        let ids = tiles.keys.sorted()
        var entries: [PMTilesEntry] = []
        var tileData: [UInt8] = []
        var offsets: [[UInt8]: UInt64] = [:]
        var minZoom = Int.max, maxZoom = Int.min
        var previous: [UInt8]?
        for id in ids {
            guard let data = tiles[id], let tile = PMTilesTileID.tile(for: id) else { continue }
            minZoom = min(minZoom, tile.z)
            maxZoom = max(maxZoom, tile.z)
            if let last = entries.last, last.tileID + UInt64(last.runLength) == id, previous == data, last.runLength < UInt32.max {
                entries[entries.count - 1].runLength += 1
                continue
            }
            guard data.count <= Int(UInt32.max) else { throw PMTilesError.tileOutOfBounds(path: "(writer)", tile: tile.description, offset: 0, length: UInt64(data.count)) }
            let offset: UInt64
            if let existing = offsets[data] {
                offset = existing
            } else {
                offset = UInt64(tileData.count)
                offsets[data] = offset
                tileData.append(contentsOf: data)
            }
            entries.append(PMTilesEntry(tileID: id, offset: offset, length: UInt32(data.count), runLength: 1))
            previous = data
        }

        let (root, leaves) = try Self.buildDirectories(entries, forcedLeafSize: forcedLeafSize)
        let json = try Gzip.compress(metadataJSON())

        var header = PMTilesHeader()
        header.rootDirectoryOffset = UInt64(PMTilesHeader.size)
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = header.rootDirectoryOffset + header.rootDirectoryLength
        header.metadataLength = UInt64(json.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = UInt64(tileData.count)
        header.addressedTilesCount = entries.reduce(0) { $0 + UInt64($1.runLength) }
        header.tileEntriesCount = UInt64(entries.count)
        header.tileContentsCount = UInt64(offsets.count)
        header.clustered = true
        header.internalCompression = PMTilesHeader.Compression.gzip.rawValue
        header.tileCompression = tileCompression.rawValue
        switch format {
        case .mvt: header.tileType = 1
        case .png: header.tileType = 2
        case .jpg: header.tileType = 3
        case .webp: header.tileType = 4
        case .unknown: header.tileType = 0
        }
        if minZoom <= maxZoom {
            header.minZoom = UInt8(minZoom)
            header.maxZoom = UInt8(maxZoom)
        }
        func e7(_ degrees: Double) -> Int32 { Int32(max(-2_000_000_000, min(2_000_000_000, (degrees * 1e7).rounded()))) }
        if let b = metadata.bounds {
            header.minLonE7 = e7(b.southWest.longitude)
            header.minLatE7 = e7(b.southWest.latitude)
            header.maxLonE7 = e7(b.northEast.longitude)
            header.maxLatE7 = e7(b.northEast.latitude)
        }
        if let c = metadata.center {
            header.centerLonE7 = e7(c.longitude)
            header.centerLatE7 = e7(c.latitude)
        } else if metadata.bounds != nil {
            header.centerLonE7 = Int32((Int64(header.minLonE7) + Int64(header.maxLonE7)) / 2)
            header.centerLatE7 = Int32((Int64(header.minLatE7) + Int64(header.maxLatE7)) / 2)
        }
        header.centerZoom = UInt8(max(0, min(30, Int(metadata.centerZoom ?? Double(header.minZoom)))))

        var out = header.encoded()
        out.reserveCapacity(Int(header.tileDataOffset) + tileData.count)
        out.append(contentsOf: root)
        out.append(contentsOf: json)
        out.append(contentsOf: leaves)
        out.append(contentsOf: tileData)
        return out
    }

    /// Writes the archive to `path` with `AtomicFile`: a regular file atomically, a FIFO or
    /// device (`/dev/null`) in place, never replacing one.
    func write(to path: String) throws {
        let bytes = try archive()
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw PMTilesError.io(path: path, offset: 0, reason: error.reason)
        }
    }

    /// Root directory and concatenated leaf directories, both gzip-compressed.
    static func buildDirectories(_ entries: [PMTilesEntry], forcedLeafSize: Int?) throws -> (root: [UInt8], leaves: [UInt8]) {
        if forcedLeafSize == nil {
            let root = try Gzip.compress(PMTilesDirectory.encode(entries))
            if root.count <= maxRootDirectoryBytes { return (root, []) }
        }
        var leafSize = max(1, forcedLeafSize ?? 4096)
        while true {
            var leaves: [UInt8] = []
            var rootEntries: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafSize, entries.count)])
                let leaf = try Gzip.compress(PMTilesDirectory.encode(chunk))
                rootEntries.append(PMTilesEntry(tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves.append(contentsOf: leaf)
                start += leafSize
            }
            let root = try Gzip.compress(PMTilesDirectory.encode(rootEntries))
            if root.count <= maxRootDirectoryBytes || forcedLeafSize != nil { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// TileJSON-style metadata, serialised with sorted keys so the archive is deterministic.
    func metadataJSON() -> [UInt8] {
        var object = JSONObject()
        if let v = metadata.name { object["name"] = .string(v) }
        if let v = metadata.attribution { object["attribution"] = .string(v) }
        if let v = metadata.description { object["description"] = .string(v) }
        object["format"] = .string(format == .mvt ? "pbf" : format.rawValue)
        for (key, value) in metadata.extra { object[key] = .string(value) }
        if !metadata.vectorLayers.isEmpty {
            object["vector_layers"] = .array(metadata.vectorLayers.map(Self.json))
        }
        return JSONWriter.bytes(.object(object), sortedKeys: true)
    }

    /// A TileJSON `vector_layers` entry (also MBTiles' `json` metadata row).
    static func json(_ layer: TileSourceMetadata.VectorLayer) -> JSONValue {
        var l: JSONObject = ["id": .string(layer.id)]
        var fields = JSONObject()
        for f in layer.fields { fields[f.name] = .string(f.type) }
        l["fields"] = .object(fields)
        if let v = layer.minZoom { l["minzoom"] = .number(Double(v)) }
        if let v = layer.maxZoom { l["maxzoom"] = .number(Double(v)) }
        if let v = layer.description { l["description"] = .string(v) }
        return .object(l)
    }
}
