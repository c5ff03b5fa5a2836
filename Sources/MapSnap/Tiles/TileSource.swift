import Foundation

/// Something that hands out tiles by address: an MBTiles file, a PMTiles archive, a directory.
///
/// Implementations are safe to call from several threads at once.
package protocol TileSource: Sendable {
    /// What the source declares about itself.
    var metadata: TileSourceMetadata { get }

    /// The bytes of `tile`, or nil when the source has no such tile.
    ///
    /// Throws when the tile exists but cannot be read (I/O error, corrupt container).
    /// Vector tiles come back uncompressed: gzip is removed by the source.
    func tileData(for tile: TileID) throws -> [UInt8]?

    /// The bytes of `tile`, as `tileData(for:)`, from a source that stops waiting — and
    /// throws — once `deadline` passes (a render's time limit). Sources whose reads cannot
    /// hang need not implement it: the default ignores the deadline.
    func tileData(for tile: TileID, deadline: Deadline) throws -> [UInt8]?

    /// Whether the source stores `tile`, without reading it (when the container allows).
    func hasTile(_ tile: TileID) throws -> Bool
}

extension TileSource {
    package func tileData(for tile: TileID, deadline: Deadline) throws -> [UInt8]? {
        try tileData(for: tile)
    }

    package func hasTile(_ tile: TileID) throws -> Bool {
        try tileData(for: tile) != nil
    }

    /// The tile to draw for `tile` (at most `metadata.maxZoom`): itself, or — in a sparse
    /// source, whose absent tiles stand for their nearest stored ancestor
    /// (`TileSourceMetadata.absentTilesAreAncestors`) — the deepest stored ancestor, down to
    /// `minZoom`. A tile that cannot be probed counts as stored: reading it then reports why.
    package func storedTile(for tile: TileID) -> TileID {
        guard metadata.absentTilesAreAncestors else { return tile }
        var t = tile
        while t.z > metadata.minZoom, (try? hasTile(t)) == false {
            t = t.ancestor(atZoom: t.z - 1)
        }
        return t
    }
}

/// Why `TileSources.open` could not open or identify a tile source: the location itself is
/// unusable, or the container it holds is broken, in which case the container's own error
/// comes along whole (with its file or URL and, where it has one, the byte offset).
public enum TileSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case notFound(path: String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is neither SQLite (MBTiles) nor PMTiles; `firstBytes` are evidence for code,
    /// never printed (the message says what they look like).
    case unrecognizedFormat(path: String, firstBytes: [UInt8])
    /// An MBTiles file that SQLite or its schema refused.
    case mbtiles(MBTilesError)
    /// A PMTiles archive (a file or a URL) with a bad header, directory or metadata.
    case pmtiles(PMTilesError)
    /// A tile directory without tiles or with a bad `metadata.json`.
    case directory(DirectorySourceError)
    /// An unusable `http(s)://` URL template.
    case http(HTTPTileSourceError)
    /// A remote archive or TileJSON document that could not be fetched or is not one.
    case resource(ResourceError)

    /// True for bad input (exit 2): nothing or the wrong kind of thing at the path, a file
    /// that is not a tile archive or is a corrupt one, a bad URL template, a remote document
    /// that is missing or malformed. False for the environment (exit 3): a read that failed
    /// part way (I/O), a query that ran out of time, the network, an offline cache miss, a
    /// remote archive that changed while it was read. README, "Exit codes".
    public var isInputProblem: Bool {
        switch self {
        case .notFound, .unreadable, .unrecognizedFormat, .directory, .http: return true
        case .resource(let e): return !e.isTransient
        case .pmtiles(.io), .pmtiles(.archiveChanged): return false
        case .pmtiles: return true
        case .mbtiles(.queryFailed), .mbtiles(.interrupted): return false
        case .mbtiles: return true
        }
    }

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .notFound(let p): return "\(p): no such file or directory"
        case .unreadable(let p, let r): return "\(p): cannot read: \(r)"
        case .unrecognizedFormat(let p, let b):
            return "\(p): not an MBTiles, PMTiles or tile directory (expected an SQLite database or a PMTiles v3 archive; "
                + "found \(ContentKind.describe(b)))"
        case .mbtiles(let e): return e.description
        case .pmtiles(let e): return e.description
        case .directory(let e): return e.description
        case .http(let e): return e.description
        case .resource(let e): return e.description
        }
    }
}

/// Opens tile sources by sniffing what is on disk.
package enum TileSources {
    /// Opens `path` as MBTiles (SQLite header), PMTiles (`PMTiles` magic) or a
    /// `z/x/y.ext` directory. An `http://` or `https://` URL is, by its form:
    /// - a tile URL template (`{z}`/`{x}`/`{y}` or `{quadkey}`): an `HTTPTileSource`;
    /// - a PMTiles archive (a path ending in `.pmtiles`, or written `pmtiles://https://…`):
    ///   read with range requests, its header and directories fetched now;
    /// - anything else: a TileJSON document, fetched now, whose tiles become an
    ///   `HTTPTileSource`.
    /// Remote reads go through the HTTP layer (`httpOptions`: cache, offline mode, limits)
    /// and end by `deadline`.
    package static func open(_ path: String, httpOptions: HTTPTileSource.Options = .init(),
                             deadline: Deadline = .none) throws(TileSourceError) -> any TileSource {
        let lower = path.lowercased()
        if lower.hasPrefix("pmtiles://http://") || lower.hasPrefix("pmtiles://https://") {
            return try openRemotePMTiles(String(path.dropFirst("pmtiles://".count)), options: httpOptions, deadline: deadline)
        }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            if path.contains("{z}") || path.contains("{quadkey}") {
                do { return try HTTPTileSource(template: path, options: httpOptions) } catch { throw .http(error) }
            }
            let pathPart = lower.split(separator: "?", maxSplits: 1).first.map(String.init) ?? lower
            if pathPart.hasSuffix(".pmtiles") {
                return try openRemotePMTiles(path, options: httpOptions, deadline: deadline)
            }
            return try openTileJSON(path, options: httpOptions, deadline: deadline)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TileSourceError.notFound(path: path)
        }
        if isDirectory.boolValue {
            do { return try DirectorySource(path: path) } catch { throw .directory(error) }
        }
        // Opening a FIFO to sniff it would wait for a writer forever; a device is no archive.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw TileSourceError.unreadable(path: path, reason: "not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TileSourceError.unreadable(path: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let head: [UInt8]
        do {
            head = Array(try handle.read(upToCount: 16) ?? Data())
        } catch {
            throw TileSourceError.unreadable(path: path, reason: "\(error)")
        }
        if head.starts(with: Array("SQLite format 3\0".utf8)) {
            do { return try MBTilesSource(path: path) } catch { throw .mbtiles(error) }
        }
        if head.starts(with: Array("PMTiles".utf8)) {
            do { return try PMTilesSource(path: path) } catch { throw .pmtiles(error) }
        }
        throw TileSourceError.unrecognizedFormat(path: path, firstBytes: Array(head.prefix(8)))
    }
}

extension TileSources {
    /// A PMTiles archive on an HTTP server.
    static func openRemotePMTiles(_ url: String, options: HTTPTileSource.Options,
                                  deadline: Deadline) throws(TileSourceError) -> PMTilesSource {
        let reader: PMTilesHTTPReader
        do {
            reader = try PMTilesHTTPReader(url: url, options: options, deadline: deadline)
        } catch let error as ResourceError {
            throw .resource(error)
        } catch let error as PMTilesError {
            throw .pmtiles(error)
        } catch {
            throw .unreadable(path: URLRedaction.redact(url), reason: "\(error)")
        }
        do {
            return try PMTilesSource(bytes: reader, name: URLRedaction.redact(url), deadline: deadline)
        } catch {
            throw .pmtiles(error)
        }
    }

    /// The tiles a TileJSON document at `url` describes.
    static func openTileJSON(_ url: String, options: HTTPTileSource.Options, deadline: Deadline) throws(TileSourceError) -> HTTPTileSource {
        let tileJSON: TileJSON
        do throws(ResourceError) {
            let fetched = try HTTPResourceClient(options: options).get(url, kind: .json, limit: TileJSON.maximumBytes, deadline: deadline)
            guard let bytes = fetched.bytes else {
                throw ResourceError.network(location: URLRedaction.redact(url),
                                            reason: "\(URLRedaction.redact(url)): no such TileJSON document (HTTP 404)")
            }
            tileJSON = try TileJSON(bytes: bytes, url: url)
        } catch {
            throw .resource(error)
        }
        do { return try HTTPTileSource(tileJSON: tileJSON, options: options) } catch { throw .http(error) }
    }
}
