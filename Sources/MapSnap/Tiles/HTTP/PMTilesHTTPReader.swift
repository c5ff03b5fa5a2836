/// A PMTiles archive on an HTTP(S) server, read with range requests through
/// `HTTPResourceClient`: every range (the header, directories, the metadata, each tile) is
/// cached like a tile and used offline, and every request is bounded by the transfer
/// layer's limits and the caller's deadline.
///
/// The first `headLength` bytes are fetched when the archive is opened and kept: the header
/// and, as the PMTiles specification recommends writers to arrange, the root directory lie
/// inside them, so opening costs one request (plus one for the metadata).
///
/// The archive must stay the same while it is read in pieces: its size must not change, and
/// when the server names versions (`ETag`, else `Last-Modified`) every range must come from
/// the version the first live answer named. Otherwise a read throws
/// `PMTilesError.archiveChanged`: directory offsets of one version point at garbage in the next.
final class PMTilesHTTPReader: PMTilesByteSource {
    let url: String
    let client: HTTPResourceClient
    let size: Int
    /// The archive's first bytes (all of it when it is shorter than `headLength`).
    private let head: [UInt8]
    /// The version the first answer from the server (not the cache) named, if any.
    private let version: Locked<String?>
    /// Range reads made (the opening one included) and the bytes they returned.
    private let counts: Locked<(reads: Int, bytes: Int)>

    /// What is fetched at open.
    static let headLength = 16_384

    /// Fetches the archive's first bytes and learns its size, by `deadline`. Throws the
    /// `ResourceError` of a failed fetch (naming the URL and why: offline and not cached, a
    /// server without range requests, …) and `PMTilesError` for what it got.
    init(url: String, options: HTTPTileSource.Options, deadline: Deadline) throws {
        self.url = url
        client = HTTPResourceClient(options: options)
        let slice = try client.slice(url, range: 0...UInt64(Self.headLength - 1), limit: Self.headLength, deadline: deadline)
        guard slice.bytes.count == min(Self.headLength, slice.totalSize) else {
            throw PMTilesError.io(path: URLRedaction.redact(url), offset: 0,
                                  reason: "got \(slice.bytes.count) of the first \(min(Self.headLength, slice.totalSize)) bytes")
        }
        head = slice.bytes
        size = slice.totalSize
        version = Locked(slice.validator)
        counts = Locked((1, slice.bytes.count))
    }

    /// Range reads made so far (the opening one included; a cached range counts too) and the
    /// bytes they returned: what `data extract` reports as requests and bytes moved.
    var transfers: (reads: Int, bytes: Int) { counts.withLock { $0 } }

    /// The archive's version as the server named it (`ETag "…"` or `Last-Modified …`), once
    /// an answer has come from the server rather than the cache.
    var validator: String? { version.withLock { $0 } }

    func read(offset: UInt64, length: UInt64, deadline: Deadline) throws(PMTilesError) -> [UInt8] {
        let shown = URLRedaction.redact(url)
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= UInt64(size) else {
            throw .io(path: shown, offset: offset, reason: "range of \(length) bytes extends past the end of the \(size)-byte archive")
        }
        if end <= UInt64(head.count) { return Array(head[Int(offset)..<Int(end)]) }
        guard length > 0 else { return [] }
        guard length <= UInt64(Int32.max) else { throw .io(path: shown, offset: offset, reason: "range of \(length) bytes is too long") }
        let slice: HTTPResourceClient.Slice
        do {
            slice = try client.slice(url, range: offset...(end - 1), limit: Int(length), deadline: deadline)
        } catch {
            throw .io(path: shown, offset: offset, reason: error.reason)
        }
        guard slice.totalSize == size else {
            throw .archiveChanged(path: shown, reason: "it is now \(slice.totalSize) bytes, was \(size)")
        }
        if let now = slice.validator {
            let was = version.withLock { known -> String? in
                if known == nil { known = now }
                return known
            }
            if let was, was != now { throw .archiveChanged(path: shown, reason: "\(was) became \(now)") }
        }
        counts.withLock { $0.reads += 1; $0.bytes += slice.bytes.count }
        guard UInt64(slice.bytes.count) == length else {
            throw .io(path: shown, offset: offset, reason: "asked for \(length) bytes, got \(slice.bytes.count)")
        }
        return slice.bytes
    }

}
