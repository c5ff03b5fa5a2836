import Foundation

/// Fetches documents and byte ranges over HTTP(S) — styles, TileJSON, sprite sheets, marker
/// icons, the parts of a remote PMTiles archive — through the same transfer layer, limits and
/// cache as tiles (`TileDownloader`, `TileCache`):
///
/// - a fresh cache entry is used without touching the network, a stale one is refetched and
///   kept (with a warning) when the refresh fails; offline, the cache is all there is;
/// - a body is checked before it is used or cached: its size against the caller's limit, its
///   first bytes against the `ResourceKind` expected (an HTML error page is never JSON nor
///   an image), and a `Content-Type` of `text/html` is refused for anything but HTML;
/// - 404 and 204 mean "not there" (nil), remembered like a tile's absence; other 4xx and
///   failures after the transfer layer's retries throw;
/// - every wait ends by the caller's deadline.
///
/// Safe from any thread; nothing about a call is kept in the client.
struct HTTPResourceClient: Sendable {
    let options: HTTPTileSource.Options
    /// The cache of resources, or nil when caching is off.
    let cache: TileCache?
    /// Where redirects may lead (`TileDownloader.allowList`); nil: the redirect policy alone.
    let allowList: OriginAllowList?

    init(options: HTTPTileSource.Options, allowList: OriginAllowList? = nil) {
        self.options = options
        self.allowList = allowList
        cache = options.cacheEnabled
            ? TileCache(directory: options.cacheDirectory, cacheKey: TileCache.resourceKey, maxAge: options.cacheMaxAge,
                        absentMaxAge: options.absentMaxAge, maxEntryBytes: options.maxTileBytes,
                        minimumAge: options.cacheMinimumAge, maxBytes: options.cacheMaxBytes)
            : nil
    }

    /// What one fetch produced, and what went wrong without failing it.
    struct Fetched: Sendable {
        /// The body (nil: the server says there is none).
        var bytes: [UInt8]?
        var warnings: [String] = []
        /// The version the server gave the resource (`TileDownloader.Details.validator`);
        /// nil when it gave none or the bytes came from the cache.
        var validator: String? = nil
    }

    /// The resource at `url` (at most `limit` bytes, of `kind`), or nil when the server has none.
    func get(_ url: String, kind: ResourceKind, limit: Int, deadline: Deadline) throws(ResourceError) -> Fetched {
        try resolve(url, cacheKey: url, range: nil, kind: kind, limit: limit, deadline: deadline)
    }

    /// A byte range of the resource at `url` and the resource's whole size.
    struct Slice: Sendable {
        var bytes: [UInt8]
        /// Size of the whole resource in bytes.
        var totalSize: Int
        var warnings: [String] = []
        /// The version of the resource the bytes belong to (`ETag`, else `Last-Modified`);
        /// nil when the server named none or the slice came from the cache.
        var validator: String? = nil
    }

    /// Bytes `range` of the resource at `url` (fewer when the resource ends inside it) and its
    /// total size, from a `206 Partial Content` answer — or from a `200` with the whole body,
    /// when it is small enough to hold (`limit`). A cached slice keeps the total size in its
    /// first 8 bytes (big-endian), so an offline open knows it too.
    func slice(_ url: String, range: ClosedRange<UInt64>, limit: Int, deadline: Deadline) throws(ResourceError) -> Slice {
        let key = url + "\nbytes=\(range.lowerBound)-\(range.upperBound)"
        let shown = URLRedaction.redact(url)
        let fetched = try resolve(url, cacheKey: key, range: range, kind: .bytes, limit: limit + 8, deadline: deadline)
        guard let stored = fetched.bytes else {
            throw .network(location: shown, reason: "\(shown): the server has no such file (HTTP 404)")
        }
        guard stored.count >= 8 else { throw .invalid(location: shown, reason: "range cut short") }
        let total = stored.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard total <= UInt64(Int.max) else { throw .invalid(location: shown, reason: "impossible total size \(total)") }
        return Slice(bytes: Array(stored.dropFirst(8)), totalSize: Int(total), warnings: fetched.warnings, validator: fetched.validator)
    }

    // MARK: - Fetching

    private func resolve(_ url: String, cacheKey: String, range: ClosedRange<UInt64>?, kind: ResourceKind, limit: Int,
                         deadline: Deadline) throws(ResourceError) -> Fetched {
        let shown = URLRedaction.redact(url)
        var warnings: [String] = []
        var stale: TileCache.Entry?
        var validator: CacheValidator?
        if let cache, let hit = cache.lookup(resource: cacheKey) {
            switch hit.entry {
            case .absent:
                if hit.isFresh || options.offline { return Fetched(bytes: nil) }
                stale = .absent
            case .data(let bytes):
                if bytes.count <= limit, kind.rejection(of: range == nil ? bytes : Array(bytes.dropFirst(8))) == nil {
                    if hit.isFresh || options.offline { return Fetched(bytes: bytes) }
                    stale = .data(bytes)
                    validator = hit.validator
                } else {
                    cache.remove(resource: cacheKey)
                    warnings.append("\(shown): cache file \(cache.dataPath(resource: cacheKey)) is corrupt; discarded")
                }
            }
        }
        if options.offline { throw .notCached(location: shown) }
        do throws(ResourceError) {
            let answer = try download(url, range: range, kind: kind, limit: limit, revalidating: validator, deadline: deadline)
            if answer.notModified {
                guard case .data(let bytes)? = stale else {
                    throw .invalid(location: shown, reason: "HTTP 304 to a request that named no cached copy")
                }
                do {
                    try cache?.refresh(resource: cacheKey, lifetime: answer.lifetime, validator: answer.cacheValidator)
                } catch {
                    warnings.append("\(shown): could not write the cache: \(error.description)")
                }
                return Fetched(bytes: bytes, warnings: warnings)
            }
            let bytes = answer.bytes
            if let cache {
                do {
                    if let bytes {
                        try cache.store(bytes, resource: cacheKey, lifetime: answer.lifetime, validator: answer.cacheValidator)
                    } else {
                        try cache.storeAbsent(resource: cacheKey)
                    }
                } catch {
                    warnings.append("\(shown): could not write the cache: \(error.description)")
                }
            }
            return Fetched(bytes: bytes, warnings: warnings, validator: answer.validator)
        } catch {
            // Content problems are the server's answer, not a failed refresh: never mask them.
            if case .network = error, let stale {
                warnings.append("\(shown): refresh failed (\(error.description)); using the expired cached copy")
                switch stale {
                case .data(let bytes): return Fetched(bytes: bytes, warnings: warnings)
                case .absent: return Fetched(bytes: nil, warnings: warnings)
                }
            }
            throw error
        }
    }

    /// What one download said: the checked body (nil for 404/204), or that the cached copy is
    /// current (304); the version the server named and the response's lifetime.
    private struct Answer {
        var bytes: [UInt8]?
        var notModified = false
        var validator: String? = nil
        var cacheValidator: CacheValidator? = nil
        var lifetime: TimeInterval? = nil
    }

    /// One download under the transfer layer's policy; the body checked (and, for a range,
    /// prefixed with the total size) — nil for 404/204 — and the version the server named.
    private func download(_ url: String, range: ClosedRange<UInt64>?, kind: ResourceKind, limit: Int,
                          revalidating: CacheValidator?, deadline: Deadline) throws(ResourceError) -> Answer {
        let shown = URLRedaction.redact(url)
        var limited = options
        limited.maxTileBytes = max(1, min(limit, options.maxTileBytes))
        // Marker icons (the only `.image` resources) are counted apart from what maps need.
        let downloader = TileDownloader(options: limited, gate: .shared, budget: .shared,
                                        purpose: kind == .image ? .icons : .maps, allowList: allowList)
        let result: TileDownloader.Download
        do {
            result = try downloader.download(url, range: range, revalidating: revalidating, deadline: deadline)
        } catch {
            if case .redirectRefused = error {
                // Where the resource points, not the network: not a failure that may pass.
                throw .refused(location: shown, reason: error.description)
            }
            if case .bodyTooLarge(_, let size, _) = error {
                let hint = range == nil ? "" : " (the server may not support range requests: it sent more than was asked)"
                throw .network(location: shown, reason: "\(shown): \(size) bytes exceeds the limit of \(limited.maxTileBytes) bytes\(hint)")
            }
            throw .network(location: shown, reason: error.description)
        }
        switch result {
        case .absent:
            return Answer(bytes: nil)
        case .notModified(let details):
            return Answer(bytes: nil, notModified: true,
                          cacheValidator: CacheValidator(entityTag: details.entityTag, lastModified: details.lastModified),
                          lifetime: details.freshness.lifetime)
        case .clientError(let status):
            throw .network(location: shown, reason: "\(shown): HTTP \(status)\(status == 401 || status == 403 ? " (an API key missing or refused?)" : "")")
        case .body(let body, let reserved, let details):
            defer { downloader.budget.release(reserved) }
            if let type = details.contentType?.lowercased(), type.hasPrefix("text/html") {
                throw .invalid(location: shown, reason: "the server sent an HTML page (\(ResourceKind.describe(body))), not the \(kind == .json ? "JSON" : "file") asked for")
            }
            let cacheValidator = CacheValidator(entityTag: details.entityTag, lastModified: details.lastModified)
            guard let range else {
                if let reason = kind.rejection(of: body) { throw .invalid(location: shown, reason: reason) }
                return Answer(bytes: body, validator: details.validator, cacheValidator: cacheValidator,
                              lifetime: details.freshness.lifetime)
            }
            return Answer(bytes: try Self.prefixedSlice(body, details: details, range: range, shown: shown),
                          validator: details.validator, cacheValidator: cacheValidator, lifetime: details.freshness.lifetime)
        }
    }

    /// The bytes of `range` out of a response, with the resource's total size before them.
    private static func prefixedSlice(_ body: [UInt8], details: TileDownloader.Details, range: ClosedRange<UInt64>,
                                      shown: String) throws(ResourceError) -> [UInt8] {
        let slice: ArraySlice<UInt8>
        let total: UInt64
        if details.status == 206 {
            guard let parsed = ContentRange(details.contentRange ?? "") else {
                throw .invalid(location: shown, reason: "206 answer without a usable Content-Range (\(details.contentRange ?? "none"))")
            }
            let expected = min(range.upperBound, parsed.total &- 1) &- range.lowerBound &+ 1
            guard parsed.first == range.lowerBound, UInt64(body.count) == parsed.last &- parsed.first &+ 1,
                  UInt64(body.count) == expected else {
                throw .invalid(location: shown, reason: "asked for bytes \(range.lowerBound)-\(range.upperBound), got \(details.contentRange ?? "?") with \(body.count) bytes")
            }
            slice = body[...]
            total = parsed.total
        } else {
            // The whole resource: the server ignores ranges, and it was small enough to hold.
            total = UInt64(body.count)
            guard range.lowerBound < total else {
                throw .invalid(location: shown, reason: "byte \(range.lowerBound) lies beyond the \(total)-byte file")
            }
            slice = body[Int(range.lowerBound)..<Int(min(range.upperBound + 1, total))]
        }
        var out: [UInt8] = []
        out.reserveCapacity(8 + slice.count)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: total >> UInt64(shift))) }
        out.append(contentsOf: slice)
        return out
    }
}

/// A `Content-Range: bytes FIRST-LAST/TOTAL` header value (a `*` total is not usable: a
/// PMTiles reader must know the archive's size).
struct ContentRange: Equatable, Sendable {
    var first: UInt64
    var last: UInt64
    var total: UInt64

    init?(_ text: String) {
        let lower = text.lowercased()
        guard lower.hasPrefix("bytes ") else { return nil }
        let rest = lower.dropFirst("bytes ".count)
        let halves = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let ends = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let first = UInt64(ends[0].trimmingSpaces()),
              let last = UInt64(ends[1].trimmingSpaces()),
              let total = UInt64(halves[1].trimmingSpaces()),
              first <= last, last < total else { return nil }
        self.first = first
        self.last = last
        self.total = total
    }
}
