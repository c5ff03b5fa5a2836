import Foundation

/// Why a tile directory could not be used.
public enum DirectorySourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory holds no `{z}` folder with a `{x}/{y}.ext` tile inside.
    case noTiles(path: String)
    /// `metadata.json` exists but is not a JSON object.
    case invalidMetadata(path: String, reason: String)
    /// `metadata.json` exists but is not JSON; the error names the file, line, column and byte offset.
    case metadataNotJSON(JSONError)
    /// A tile file exists but could not be read.
    case unreadableTile(path: String, reason: String)
    /// A tile file is larger than `DirectorySource.maxTileBytes`.
    case tileTooLarge(path: String, size: Int)
    /// A `.pbf`/`.mvt` tile is gzip-compressed but corrupt.
    case corruptTile(path: String, GzipError)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .noTiles(let p): return "\(p): no {z}/{x}/{y}.{pbf,mvt,png,jpg,jpeg,webp} tiles found"
        case .invalidMetadata(let p, let r): return "\(p): invalid metadata.json: \(r)"
        case .metadataNotJSON(let e): return e.description
        case .unreadableTile(let p, let r): return "\(p): cannot read tile: \(r)"
        case .tileTooLarge(let p, let s): return "\(p): tile of \(s) bytes exceeds the \(DirectorySource.maxTileBytes)-byte limit"
        case .corruptTile(let p, let e): return "\(p): \(e)"
        }
    }
}

/// A tile source over a directory laid out as `root/{z}/{x}/{y}.{ext}` (XYZ rows).
///
/// The extension is detected from the first tile found; metadata comes from an optional
/// `root/metadata.json` (TileJSON-like keys) and otherwise the zoom range is inferred from the
/// numeric folder names.
struct DirectorySource: TileSource {
    /// Extensions recognised, in the order they are tried.
    static let extensions = ["pbf", "mvt", "png", "jpg", "jpeg", "webp"]
    /// Largest tile file read; anything bigger is not a tile.
    static let maxTileBytes = 32 << 20
    /// Largest `metadata.json` read.
    static let maxMetadataBytes = 16 << 20

    let path: String
    /// The tile file extension, without the dot.
    let fileExtension: String
    let metadata: TileSourceMetadata

    /// Scans `path` for zoom folders and a first tile.
    init(path: String) throws(DirectorySourceError) {
        self.path = path
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: path)) ?? []
        // Sorted numerically so detection does not depend on directory listing order.
        let zooms = names.compactMap { Int($0) }.filter { (0...30).contains($0) }.sorted()
        var detected: String?
        search: for z in zooms {
            let xs = ((try? fm.contentsOfDirectory(atPath: "\(path)/\(z)")) ?? []).compactMap { Int($0) }.sorted()
            for x in xs {
                let files = ((try? fm.contentsOfDirectory(atPath: "\(path)/\(z)/\(x)")) ?? []).sorted()
                for file in files {
                    let parts = file.split(separator: ".", maxSplits: 1)
                    if parts.count == 2, Int(parts[0]) != nil, Self.extensions.contains(parts[1].lowercased()) {
                        detected = String(parts[1])
                        break search
                    }
                }
            }
        }
        guard let ext = detected else { throw DirectorySourceError.noTiles(path: path) }
        fileExtension = ext

        var meta = TileSourceMetadata(format: TileFormat(name: ext))
        let zoomsWithTiles = zooms
        if let first = zoomsWithTiles.first, let last = zoomsWithTiles.last {
            meta.minZoom = first
            meta.maxZoom = last
        }
        let metadataPath = "\(path)/metadata.json"
        if fm.fileExists(atPath: metadataPath) {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(metadataPath, limit: Self.maxMetadataBytes)
            } catch {
                throw .invalidMetadata(path: metadataPath, reason: error.reason)
            }
            let object: JSONValue
            do {
                object = try JSONValue.parse(bytes, origin: metadataPath)
            } catch {
                throw .metadataNotJSON(error)
            }
            guard case .object(let dictionary) = object else {
                throw DirectorySourceError.invalidMetadata(path: metadataPath, reason: "not a JSON object")
            }
            meta.apply(json: dictionary)
            if meta.format == .unknown { meta.format = TileFormat(name: ext) }
        }
        meta.scheme = .xyz
        metadata = meta
    }

    func tileData(for tile: TileID) throws -> [UInt8]? {
        let file = "\(path)/\(tile.z)/\(tile.x)/\(tile.y).\(fileExtension)"
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(file, limit: Self.maxTileBytes)
        } catch .notFound {
            return nil
        } catch .tooLarge(_, let size, _) {
            throw DirectorySourceError.tileTooLarge(path: file, size: size ?? Self.maxTileBytes + 1)
        } catch {
            // The file exists, so failing to read it is a broken source, not an absent tile.
            throw DirectorySourceError.unreadableTile(path: file, reason: error.reason)
        }
        guard metadata.format == .mvt else { return bytes }
        do {
            return try Gzip.decompressIfNeeded(bytes)
        } catch {
            throw DirectorySourceError.corruptTile(path: file, error)
        }
    }
}
