import Foundation

/// Tiles fetched over HTTP(S) from a URL template, with an on-disk cache (`TileCache`).
///
/// Behaviour per tile:
/// - a fresh, valid cache entry is used without touching the network; a stale one is
///   refetched — conditionally when the server named its version (`ETag`/`Last-Modified`):
///   a 304 keeps the cached bytes — and kept (with a warning) if the refresh fails; an entry
///   that fails validation is deleted. How long an entry is fresh follows the response's
///   caching headers (`HTTPFreshness`), else `cacheMaxAge`, and never less than
///   `cacheMinimumAge`;
/// - 200 → the body, once complete and valid for the source's format (`TileBodyValidator`:
///   PNG chunks and CRCs, JPEG markers, vector tiles un-gzipped and their framing read; HTML
///   or JSON error pages never pass); only then is it cached;
/// - 404 and 204 → absent (`nil`), remembered as a short-lived "absent" marker;
/// - other 4xx → absent, with a warning (typically a missing API key);
/// - failures are retried and bounded as `TileDownloader` describes, then thrown: the
///   renderer skips the tile with a warning.
///
/// Transfers run on the calling thread through libcurl (`CurlTransfer`) under limits that
/// hold however hostile the server: per-transfer bytes (after decoding), process-wide bytes
/// in flight, timeouts, redirects, and per-host connections and failures shared by every
/// source of the process. Calls are synchronous, safe from any thread, and return by the
/// `deadline` they are given: waits end there, and a request's own timeout is shortened to it.
///
/// One source is shared by concurrent renders, so nothing about a call is kept in the source:
/// `fetch(_:deadline:)` returns the tile's warnings with its result.
public final class HTTPTileSource: TileSource, Sendable {
    /// Tunables. The defaults suit public tile servers; tests shorten the timeouts. Limits
    /// marked "process-wide" are shared by all sources of the process: each caller applies
    /// its own value to the shared count.
    public struct Options: Sendable, Hashable {
        /// Subdomains for `{s}`.
        public var subdomains: [String] = TileURLTemplate.defaultSubdomains
        /// Render scale; `{r}` becomes `@2x` at 2 and above.
        public var scale: Double = 1
        /// Hard limit on one request, connection to last byte, in seconds.
        public var timeout: TimeInterval = 10
        /// Limit on connection set-up (DNS, TCP, TLS) within `timeout`, in seconds.
        public var connectTimeout: TimeInterval = 5
        /// A request fails when fewer than `lowSpeedLimit` bytes per second arrive for
        /// `lowSpeedTime` seconds (a trickling server), before `timeout` if that is longer.
        public var lowSpeedLimit: Int = 1024
        /// See `lowSpeedLimit`; whole seconds (rounded up).
        public var lowSpeedTime: TimeInterval = 5
        /// Extra attempts after a timeout, connection error, truncated body, 5xx or 429.
        public var maxRetries: Int = 2
        /// Wait before the first retry; doubles for each further one, up to 30 s (and never
        /// past the deadline).
        public var retryBackoff: TimeInterval = 0.25
        /// Process-wide: transfers to one host (`host:port`) at once, across every source and
        /// render (a batch's jobs share it); more wait their turn. Also the threads of `prefetch`.
        public var maxConcurrentRequests: Int = 8
        /// The `User-Agent` sent; tile usage policies ask clients to identify themselves.
        public var userAgent: String = HTTPTileSource.defaultUserAgent
        /// Whether to read and write the on-disk cache.
        public var cacheEnabled: Bool = true
        /// Cache root; nil means `TileCache.defaultDirectory()` (honours `MAPSNAP_CACHE_DIR`).
        public var cacheDirectory: String?
        /// How long a cached tile or resource is fresh when its response had no caching headers
        /// (`Cache-Control: max-age`, `Expires`), in seconds (default 7 days).
        public var cacheMaxAge: TimeInterval = TileCache.defaultMaxAge
        /// A usage policy's floor: cached responses stay fresh at least this long, whatever
        /// their headers say, in seconds (default 0; OpenStreetMap's tiles: 7 days).
        public var cacheMinimumAge: TimeInterval = 0
        /// Age after which an "absent" marker is asked again, in seconds (default 1 day).
        public var absentMaxAge: TimeInterval = TileCache.defaultAbsentMaxAge
        /// Most bytes the cache folder may hold, all sources' tiles and resources together;
        /// past it the least recently used entries are removed (`TileCacheTrimmer`). nil (the
        /// default): no cap. `mapsnap serve --cache-max-mb`.
        public var cacheMaxBytes: Int?
        /// Cache only: never touch the network (stale entries are used as they are).
        public var offline: Bool = false
        /// Largest response body per transfer, in bytes, counted after `Content-Encoding` is
        /// decoded and after gzip is removed from vector tiles (so a compression bomb stops
        /// here too); a larger declared `Content-Length` fails before the body is read.
        public var maxTileBytes: Int = 32 << 20
        /// Process-wide: bytes all transfers may hold at once; a transfer that would pass it
        /// fails (and is retried).
        public var maxTransferMemoryBytes: Int = 128 << 20
        /// Redirects followed per request; a longer chain (a loop) fails the tile.
        public var maxRedirects: Int = 5
        /// Follow redirects to another scheme, host or port. Off: only same-origin redirects
        /// and http → https on the same host are followed. https → http never is.
        public var allowsCrossOriginRedirects: Bool = false
        /// Longest `Retry-After` (429, 503) waited for, in seconds. A longer one fails the tile at
        /// once, and every request to that host fails at once until the time the server gave
        /// (at most an hour) unless it may wait that long.
        public var maxRetryAfter: TimeInterval = 30
        /// Process-wide: connection failures or timeouts in a row after which a host is not
        /// contacted for `breakerCooldown` seconds (requests to it fail at once).
        public var breakerThreshold: Int = 3
        /// See `breakerThreshold`, in seconds.
        public var breakerCooldown: TimeInterval = 30
        /// Tile format; nil means guess from the template's file extension.
        public var format: TileFormat?
        /// Lowest zoom the server has tiles for.
        public var minZoom: Int = 0
        /// Deepest zoom the server has; the renderer over-zooms beyond it.
        public var maxZoom: Int = 19
        /// Credit drawn on maps using these tiles (the server's terms usually require one).
        public var attribution: String?

        /// The defaults.
        public init() {}
    }

    /// Library version sent in the `User-Agent`.
    static let libraryVersion = MapSnapBuildInfo.version
    /// `mapsnap/<version> (+offline static map renderer)`: tile usage policies (OSM's among
    /// them) ask clients to identify themselves.
    static let defaultUserAgent = "mapsnap/\(libraryVersion) (+offline static map renderer)"

    let template: TileURLTemplate
    package let options: Options
    package let metadata: TileSourceMetadata
    /// The cache in use, or nil when disabled.
    let cache: TileCache?
    private let downloader: TileDownloader

    /// Validates `template`; makes no request.
    package convenience init(template: String, options: Options = Options()) throws(HTTPTileSourceError) {
        try self.init(template: template, options: options, declared: nil)
    }

    /// A source for the tiles a TileJSON document describes: its first template, its zoom
    /// range (tiles past its `maxzoom` are over-zoomed), bounds, `vector_layers` and — unless
    /// `options` has one — attribution. Makes no request.
    convenience init(tileJSON: TileJSON, options: Options) throws(HTTPTileSourceError) {
        var options = options
        let declared = tileJSON.metadata
        options.minZoom = declared.minZoom
        options.maxZoom = declared.maxZoom
        if declared.format != .unknown { options.format = declared.format }
        if options.attribution == nil { options.attribution = declared.attribution }
        try self.init(template: tileJSON.tiles[0], options: options, declared: declared)
    }

    /// `declared`: what a TileJSON document said (vector layers, bounds, center, name).
    init(template: String, options: Options, declared: TileSourceMetadata?) throws(HTTPTileSourceError) {
        let parsed = try TileURLTemplate(template, subdomains: options.subdomains)
        self.template = parsed
        self.options = options
        var meta = TileSourceMetadata(format: options.format ?? TileFormat(name: parsed.pathExtension ?? ""))
        if let declared {
            meta.vectorLayers = declared.vectorLayers
            meta.bounds = declared.bounds
            meta.center = declared.center
            meta.centerZoom = declared.centerZoom
            meta.description = declared.description
        }
        meta.minZoom = max(0, min(options.minZoom, 30))
        meta.maxZoom = max(meta.minZoom, min(options.maxZoom, 30))
        meta.attribution = options.attribution
        meta.name = URLRedaction.redact(template)
        // `@2x` tiles cover the same ground with twice the pixels.
        meta.tileSize = parsed.usesScale && options.scale >= 2 ? 512 : 256
        metadata = meta
        cache = options.cacheEnabled
            ? TileCache(directory: options.cacheDirectory, cacheKey: TileCache.key(for: parsed, scale: options.scale),
                        maxAge: options.cacheMaxAge, absentMaxAge: options.absentMaxAge, maxEntryBytes: options.maxTileBytes,
                        minimumAge: options.cacheMinimumAge, maxBytes: options.cacheMaxBytes)
            : nil
        downloader = TileDownloader(options: options, gate: .shared, budget: .shared)
    }

    /// Why `directory` must not be a cache folder (other users can write it, so they could
    /// plant tiles or styles), or nil; the caches never use such a folder.
    package static func cacheDirectoryProblem(_ directory: String) -> String? {
        TileCache.rootProblem(directory)?.description
    }

    /// The URL of `tile` at this source's scale (with any credentials the template holds:
    /// show `URLRedaction.redact` of it, never the URL itself).
    package func url(for tile: TileID) -> String { template.expand(tile, scale: options.scale) }

    /// Forgets the cached copy of `tile`, e.g. after it failed to decode downstream.
    package func invalidate(_ tile: TileID) { cache?.remove(tile) }

    /// The tile (nil: the server has none) or why it could not be had, and the warnings of
    /// this call alone, by `deadline` (`.none`: only the per-request limits apply).
    func fetch(_ tile: TileID, deadline: Deadline = .none) -> HTTPTileFetch {
        var warnings: [HTTPTileSourceWarning] = []
        let result = Result { () throws(HTTPTileSourceError) -> [UInt8]? in
            try resolve(tile, deadline: deadline, warnings: &warnings)
        }
        return HTTPTileFetch(result: result, warnings: warnings)
    }

    /// The tile's bytes (warnings are dropped: use `fetch(_:deadline:)` to see them).
    package func tileData(for tile: TileID) throws -> [UInt8]? {
        try load(tile)
    }

    /// The tile's bytes by `deadline` (warnings are dropped: use `fetch(_:deadline:)`).
    package func tileData(for tile: TileID, deadline: Deadline) throws -> [UInt8]? {
        try load(tile, deadline: deadline)
    }

    /// `tileData(for:)` with the typed error.
    package func load(_ tile: TileID, deadline: Deadline = .none) throws(HTTPTileSourceError) -> [UInt8]? {
        try fetch(tile, deadline: deadline).result.get()
    }

    /// Fetches many tiles on `options.maxConcurrentRequests` threads (each tile once). The
    /// result maps every requested tile to its outcome; it does not depend on arrival order.
    func prefetch(_ tiles: [TileID], deadline: Deadline = .none) -> [TileID: HTTPTileFetch] {
        let unique = Set(tiles).sorted()
        let results = Locked<[TileID: HTTPTileFetch]>([:])
        let next = Locked(0)
        let finished = DispatchGroup()
        // Dedicated threads rather than Dispatch workers: each blocks on its request, and
        // blocked pool threads would starve other Dispatch work in the process.
        for _ in 0..<min(unique.count, max(1, options.maxConcurrentRequests)) {
            finished.enter()
            let worker = Thread { [self] in
                while true {
                    let index = next.withLock { i -> Int in defer { i += 1 }; return i }
                    guard index < unique.count else { break }
                    let tile = unique[index]
                    let fetched = fetch(tile, deadline: deadline)
                    results.withLock { $0[tile] = fetched }
                }
                finished.leave()
            }
            worker.name = "mapsnap.http-tiles.prefetch"
            worker.start()
        }
        finished.wait()
        return results.withLock { $0 }
    }

    private func resolve(_ tile: TileID, deadline: Deadline,
                         warnings: inout [HTTPTileSourceWarning]) throws(HTTPTileSourceError) -> [UInt8]? {
        var stale: TileCache.Entry?
        var validator: CacheValidator?
        if let cache, let hit = cache.lookup(tile) {
            switch hit.entry {
            case .absent:
                if hit.isFresh || options.offline { return nil }
                stale = .absent
            case .data(let bytes):
                if (try? TileBodyValidator.validate(bytes, format: metadata.format, maxBytes: options.maxTileBytes)) != nil {
                    if hit.isFresh || options.offline { return bytes }
                    stale = .data(bytes)
                    validator = hit.validator
                } else {
                    cache.remove(tile)
                    warnings.append(.corruptCacheEntry(tile: tile, path: cache.dataPath(for: tile)))
                }
            }
        }
        if options.offline {
            warnings.append(.notCached(tile: tile))
            return nil
        }
        let address = url(for: tile)
        do throws(HTTPTileSourceError) {
            switch try downloader.download(address, revalidating: validator, deadline: deadline) {
            case .notModified(let details):
                guard case .data(let bytes)? = stale else {
                    throw HTTPTileSourceError.invalidBody(url: URLRedaction.redact(address), reason: "HTTP 304 to a request that named no cached copy")
                }
                if let cache {
                    do {
                        try cache.refresh(tile, lifetime: details.freshness.lifetime,
                                          validator: CacheValidator(entityTag: details.entityTag, lastModified: details.lastModified))
                    } catch {
                        warnings.append(.cacheWriteFailed(tile: tile, path: cache.dataPath(for: tile), reason: error.description))
                    }
                }
                return bytes
            case .body(let raw, let reserved, let details):
                defer { downloader.budget.release(reserved) }
                let body: [UInt8]
                do {
                    body = try TileBodyValidator.validate(raw, format: metadata.format, maxBytes: options.maxTileBytes)
                } catch {
                    throw HTTPTileSourceError.invalidBody(url: URLRedaction.redact(address), reason: error.reason)
                }
                if let cache {
                    do {
                        try cache.store(body, for: tile, lifetime: details.freshness.lifetime,
                                        validator: CacheValidator(entityTag: details.entityTag, lastModified: details.lastModified))
                    } catch {
                        warnings.append(.cacheWriteFailed(tile: tile, path: cache.dataPath(for: tile), reason: error.description))
                    }
                }
                return body
            case .absent:
                if let cache {
                    do { try cache.storeAbsent(tile) } catch {
                        warnings.append(.cacheWriteFailed(tile: tile, path: cache.absentPath(for: tile), reason: error.description))
                    }
                }
                return nil
            case .clientError(let status):
                warnings.append(.clientError(tile: tile, url: URLRedaction.redact(address), status: status))
                return nil
            }
        } catch {
            switch stale {
            case .data(let bytes)?:
                warnings.append(.servedStale(tile: tile, reason: error.description))
                return bytes
            case .absent?:
                warnings.append(.servedStale(tile: tile, reason: error.description))
                return nil
            case nil:
                throw error
            }
        }
    }
}
