/// Writes a PMTiles v3 archive to a file in pieces, so that an archive larger than memory
/// (a country cut out of a planet) streams to disk: tile data first, at offsets the caller
/// chooses and from any thread, then — once every tile is placed — the directories, the
/// metadata and the header. The file appears at its path only when `finish` succeeds
/// (`TemporaryFile`); until then, and after `discard` or a failure, nothing is there.
///
/// Layout (the spec lets every section but the header move, as long as the header and the
/// root directory lie in the first 16 KiB):
///
///     0 header (127)  127 root directory  …zeros…  16384 tile data  leaf directories  metadata
///
/// Tile data starts at a fixed offset because the root directory's size is only known at
/// the end; the gap after the root (at most 16 KiB, read as zeros) is the price.
final class PMTilesFileWriter: Sendable {
    /// Where the tile data section starts.
    static let tileDataOffset = UInt64(16_384)

    /// The archive's path, as given.
    var path: String { file.destination }
    /// The temporary the archive is written to until `finish` renames it.
    var temporaryPath: String { file.path }
    private let file: TemporaryFile

    /// Creates the temporary beside `path`.
    init(path: String) throws(PMTilesError) {
        do {
            file = try TemporaryFile(destination: path)
        } catch {
            throw .io(path: path, offset: 0, reason: error.reason)
        }
    }

    /// Writes tile bytes at `offset` in the tile data section.
    func writeTileData(_ bytes: some Collection<UInt8>, at offset: UInt64) throws(PMTilesError) {
        do {
            try file.write(bytes, at: Self.tileDataOffset + offset)
        } catch {
            throw .io(path: path, offset: Self.tileDataOffset + offset, reason: error.reason)
        }
    }

    /// `length` bytes written at `offset` in the tile data section (to compare contents).
    func readTileData(at offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
        do {
            return try file.read(at: Self.tileDataOffset + offset, count: length)
        } catch {
            throw .io(path: path, offset: Self.tileDataOffset + offset, reason: error.reason)
        }
    }

    /// Writes the directories for `entries` (sorted by tile id, offsets in the tile data
    /// section, which is `tileDataLength` bytes long), the metadata JSON (compressed here)
    /// and `header` — whose section offsets and lengths, entry counts and compression of
    /// directories this sets — then renames the file into place.
    func finish(entries: [PMTilesEntry], tileDataLength: UInt64, header template: PMTilesHeader,
                metadataJSON: [UInt8]) throws(PMTilesError) {
        let root: [UInt8], leaves: [UInt8], json: [UInt8]
        do {
            (root, leaves) = try PMTilesWriter.buildDirectories(entries, forcedLeafSize: nil)
            json = try Gzip.compress(metadataJSON)
        } catch {
            throw .io(path: path, offset: 0, reason: "cannot compress the directories: \(error)")
        }
        guard UInt64(PMTilesHeader.size + root.count) <= Self.tileDataOffset else {
            throw .io(path: path, offset: 0, reason: "the root directory of \(root.count) bytes does not fit in the first 16 KiB")
        }
        var header = template
        header.rootDirectoryOffset = UInt64(PMTilesHeader.size)
        header.rootDirectoryLength = UInt64(root.count)
        header.tileDataOffset = Self.tileDataOffset
        header.tileDataLength = tileDataLength
        header.leafDirectoriesOffset = Self.tileDataOffset + tileDataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.metadataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.metadataLength = UInt64(json.count)
        header.addressedTilesCount = entries.reduce(0) { $0 + UInt64($1.runLength) }
        header.tileEntriesCount = UInt64(entries.count)
        header.internalCompression = PMTilesHeader.Compression.gzip.rawValue
        do {
            // The zero-filled gap up to the tile data is written too: a file with a hole there
            // is the same bytes, but some tools copy holes as holes and others not.
            var head = header.encoded()
            head.append(contentsOf: root)
            head.append(contentsOf: [UInt8](repeating: 0, count: Int(Self.tileDataOffset) - head.count))
            try file.write(head, at: 0)
            try file.write(leaves, at: header.leafDirectoriesOffset)
            try file.write(json, at: header.metadataOffset)
            try file.commit()
        } catch {
            throw .io(path: path, offset: 0, reason: error.reason)
        }
    }

    /// Deletes the temporary; nothing appears at `path`.
    func discard() { file.discard() }
}
