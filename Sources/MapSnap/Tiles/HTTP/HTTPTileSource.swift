import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tiles fetched over HTTP(S) from a URL template, with an on-disk cache (`TileCache`).
///
/// Behaviour per tile:
/// - a fresh cache entry is used without touching the network; a stale one is refetched, and
///   kept (with a warning) if the refresh fails;
/// - 200 → the body, once complete (`Content-Length` verified) and plausible (PNG chunks and
///   CRCs, JPEG header and end marker, vector tiles un-gzipped); only then is it cached;
/// - 404 and 204 → absent (`nil`), remembered as a short-lived "absent" marker;
/// - other 4xx → absent, with a warning (typically a missing API key);
/// - timeouts, connection failures, truncated bodies and 5xx are retried `maxRetries` times
///   with a doubling backoff, then thrown: the renderer skips the tile with a warning.
///
/// `tileData(for:)` is synchronous: it blocks the calling thread until the request completes
/// or the per-request timeout passes (a hard deadline of its own, so it can never hang).
/// Completions arrive on this source's private `OperationQueue`, never the caller's queue, so
/// calling it from any Dispatch queue or from `prefetch` workers cannot deadlock.
public final class HTTPTileSource: TileSource, @unchecked Sendable {
    /// Tunables. The defaults suit public tile servers; tests shorten the timeouts.
    public struct Options: Sendable, Hashable {
        /// Subdomains for `{s}`.
        public var subdomains: [String] = TileURLTemplate.defaultSubdomains
        /// Render scale; `{r}` becomes `@2x` at 2 and above.
        public var scale: Double = 1
        /// Hard limit on one request, connection to last byte, in seconds.
        public var timeout: TimeInterval = 10
        /// Extra attempts after a timeout, connection error, truncated body or 5xx.
        public var maxRetries: Int = 2
        /// Wait before the first retry; doubles for each further one.
        public var retryBackoff: TimeInterval = 0.25
        /// Requests in flight at once during `prefetch`.
        public var maxConcurrentRequests: Int = 8
        public var userAgent: String = HTTPTileSource.defaultUserAgent
        /// Whether to read and write the on-disk cache.
        public var cacheEnabled: Bool = true
        /// Cache root; nil means `TileCache.defaultDirectory()` (honours `MAPSNAP_CACHE_DIR`).
        public var cacheDirectory: String?
        public var cacheMaxAge: TimeInterval = TileCache.defaultMaxAge
        public var absentMaxAge: TimeInterval = TileCache.defaultAbsentMaxAge
        /// Cache only: never touch the network (stale entries are used as they are).
        public var offline: Bool = false
        /// Largest accepted response body.
        public var maxTileBytes: Int = 32 << 20
        /// Tile format; nil means guess from the template's file extension.
        public var format: TileFormat?
        public var minZoom: Int = 0
        /// Deepest zoom the server has; the renderer over-zooms beyond it.
        public var maxZoom: Int = 19
        public var attribution: String?

        public init() {}
    }

    /// Library version sent in the `User-Agent`.
    public static let libraryVersion = "0.1.0"
    /// `mapsnap/<version> (+offline static map renderer)`: tile usage policies (OSM's among
    /// them) ask clients to identify themselves.
    public static let defaultUserAgent = "mapsnap/\(libraryVersion) (+offline static map renderer)"

    public let template: TileURLTemplate
    public let options: Options
    public let metadata: TileSourceMetadata
    /// The cache in use, or nil when disabled.
    public let cache: TileCache?

    private let session: URLSession
    private let transfers = TileTransfers()
    private let callbackQueue: OperationQueue
    /// Held here because `OperationQueue.underlyingQueue` does not retain it.
    private let callbackDispatchQueue: DispatchQueue
    private let lock = NSLock()
    private var pendingWarnings: [HTTPTileSourceWarning] = []

    /// Validates `template` and prepares the session; makes no request.
    public init(template: String, options: Options = Options()) throws(HTTPTileSourceError) {
        let parsed = try TileURLTemplate(template, subdomains: options.subdomains)
        self.template = parsed
        self.options = options
        var meta = TileSourceMetadata(format: options.format ?? TileFormat(name: parsed.pathExtension ?? ""))
        meta.minZoom = max(0, min(options.minZoom, 30))
        meta.maxZoom = max(meta.minZoom, min(options.maxZoom, 30))
        meta.attribution = options.attribution
        meta.name = template
        // `@2x` tiles cover the same ground with twice the pixels.
        meta.tileSize = parsed.usesScale && options.scale >= 2 ? 512 : 256
        metadata = meta
        cache = options.cacheEnabled
            ? TileCache(directory: options.cacheDirectory, cacheKey: TileCache.key(for: parsed, scale: options.scale),
                        maxAge: options.cacheMaxAge, absentMaxAge: options.absentMaxAge, maxEntryBytes: options.maxTileBytes)
            : nil

        let configuration = URLSessionConfiguration.ephemeral
        // swift-corelibs-foundation truncates these to whole seconds (0.5 s becomes an
        // immediate timeout), so URLSession gets a looser limit and `perform` enforces the
        // exact one with its own deadline.
        configuration.timeoutIntervalForRequest = Self.sessionTimeout(options.timeout)
        configuration.timeoutIntervalForResource = Self.sessionTimeout(options.timeout)
        configuration.httpMaximumConnectionsPerHost = max(1, options.maxConcurrentRequests)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        callbackDispatchQueue = DispatchQueue(label: "mapsnap.http-tiles.callbacks")
        callbackQueue = OperationQueue()
        callbackQueue.name = "mapsnap.http-tiles.callbacks"
        // A serial labelled queue is "overcommit" in Dispatch: it gets a thread even when every
        // pool thread is blocked in `tileData(for:)`. On the default pool the completions
        // would wait for Dispatch to grow the pool, about one thread per second.
        callbackQueue.underlyingQueue = callbackDispatchQueue
        // The session retains its delegate until `invalidateAndCancel()` in deinit.
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: callbackQueue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Warnings collected since the last call, sorted by tile then text (independent of the
    /// order requests finished in), and cleared.
    public func takeWarnings() -> [HTTPTileSourceWarning] {
        lock.lock()
        let warnings = pendingWarnings
        pendingWarnings = []
        lock.unlock()
        return warnings.sorted { a, b in a.tile != b.tile ? a.tile < b.tile : a.description < b.description }
    }

    /// The URL of `tile` at this source's scale.
    public func url(for tile: TileID) -> String { template.expand(tile, scale: options.scale) }

    /// Forgets the cached copy of `tile`, e.g. after it failed to decode downstream.
    public func invalidate(_ tile: TileID) { cache?.remove(tile) }

    /// Fetches many tiles with at most `options.maxConcurrentRequests` in flight. The result
    /// maps every requested tile to its outcome; it does not depend on arrival order.
    public func prefetch(_ tiles: [TileID]) -> [TileID: Result<[UInt8]?, any Error>] {
        let unique = Set(tiles).sorted()
        let results = Locked<[TileID: Result<[UInt8]?, any Error>]>([:])
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
                    let result: Result<[UInt8]?, any Error> = Result { try self.tileData(for: tile) }
                    results.withLock { $0[tile] = result }
                }
                finished.leave()
            }
            worker.name = "mapsnap.http-tiles.prefetch"
            worker.start()
        }
        finished.wait()
        return results.withLock { $0 }
    }

    public func tileData(for tile: TileID) throws -> [UInt8]? {
        try load(tile)
    }

    /// `tileData(for:)` with the typed error.
    public func load(_ tile: TileID) throws(HTTPTileSourceError) -> [UInt8]? {
        var stale: TileCache.Entry?
        if let cache, let hit = cache.lookup(tile) {
            switch hit.entry {
            case .absent:
                if hit.isFresh || options.offline { return nil }
                stale = .absent
            case .data(let bytes):
                if isPlausible(bytes) {
                    if hit.isFresh || options.offline { return bytes }
                    stale = .data(bytes)
                } else {
                    cache.remove(tile)
                    warn(.corruptCacheEntry(tile: tile, path: cache.dataPath(for: tile)))
                }
            }
        }
        if options.offline {
            warn(.notCached(tile: tile))
            return nil
        }
        let address = url(for: tile)
        do {
            switch try fetch(address) {
            case .body(let raw):
                let body = try prepare(raw, url: address)
                if let cache {
                    do { try cache.store(body, for: tile) } catch {
                        warn(.cacheWriteFailed(tile: tile, path: cache.dataPath(for: tile), reason: error.description))
                    }
                }
                return body
            case .absent:
                if let cache {
                    do { try cache.storeAbsent(tile) } catch {
                        warn(.cacheWriteFailed(tile: tile, path: cache.absentPath(for: tile), reason: error.description))
                    }
                }
                return nil
            case .clientError(let status):
                warn(.clientError(tile: tile, url: address, status: status))
                return nil
            }
        } catch {
            switch stale {
            case .data(let bytes)?:
                warn(.servedStale(tile: tile, reason: error.description))
                return bytes
            case .absent?:
                warn(.servedStale(tile: tile, reason: error.description))
                return nil
            case nil:
                throw error
            }
        }
    }

    // MARK: - Network

    private enum FetchOutcome {
        case body([UInt8])
        case absent
        case clientError(Int)
    }

    /// One URL, with bounded retries.
    private func fetch(_ address: String) throws(HTTPTileSourceError) -> FetchOutcome {
        guard let url = URL(string: address) else {
            throw .invalidTemplate(template: template.template, reason: "expands to an invalid URL \(address)")
        }
        let attempts = 1 + max(0, options.maxRetries)
        var delay = options.retryBackoff
        var lastError = HTTPTileSourceError.connectionFailed(url: address, reason: "no attempt made", attempts: 0)
        for attempt in 1...attempts {
            switch perform(url) {
            case .response(let status, let body, let expectedLength):
                switch status {
                case 204, 404:
                    return .absent
                case 200..<300:
                    if let expectedLength, body.count != expectedLength {
                        lastError = .truncatedBody(url: address, expected: expectedLength, received: body.count, attempts: attempt)
                    } else {
                        return .body(body)
                    }
                case 400..<500:
                    return .clientError(status)
                case 500..<600:
                    lastError = .serverError(url: address, status: status, attempts: attempt)
                default:
                    throw .invalidBody(url: address, reason: "unexpected HTTP status \(status)")
                }
            case .tooLarge(let size):
                throw .bodyTooLarge(url: address, size: size, limit: options.maxTileBytes)
            case .timedOut:
                lastError = .timedOut(url: address, seconds: options.timeout, attempts: attempt)
            case .failed(let reason):
                lastError = .connectionFailed(url: address, reason: reason, attempts: attempt)
            }
            if attempt < attempts {
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
            }
        }
        throw lastError
    }

    /// One request under a hard deadline: whatever URLSession does with its own timeout, this
    /// returns after `options.timeout` seconds at most (plus scheduling slack).
    private func perform(_ url: URL) -> TileTransferOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: Self.sessionTimeout(options.timeout))
        request.setValue(options.userAgent, forHTTPHeaderField: "User-Agent")
        let box = Locked<TileTransferOutcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request)
        transfers.register(task, limit: options.maxTileBytes) { outcome in
            box.withLock { $0 = outcome }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + options.timeout) == .success else {
            transfers.forget(task)
            task.cancel()
            return .timedOut
        }
        return box.withLock { $0 } ?? .failed("no response")
    }

    /// URLSession's own timeout: whole seconds, at least one more than the real deadline.
    private static func sessionTimeout(_ timeout: TimeInterval) -> TimeInterval {
        guard timeout.isFinite, timeout > 0 else { return 1 }
        return timeout.rounded(.up) + 1
    }

    // MARK: - Validation

    /// Removes gzip from vector tiles and checks that the body is what the source serves.
    private func prepare(_ body: [UInt8], url: String) throws(HTTPTileSourceError) -> [UInt8] {
        var bytes = body
        if metadata.format == .mvt || (metadata.format == .unknown && Gzip.isGzip(body)) {
            do { bytes = try Gzip.decompressIfNeeded(body) } catch {
                throw .invalidBody(url: url, reason: error.description)
            }
        }
        if let reason = implausibility(bytes) { throw .invalidBody(url: url, reason: reason) }
        return bytes
    }

    private func isPlausible(_ bytes: [UInt8]) -> Bool { implausibility(bytes) == nil }

    /// Why `bytes` cannot be a tile of this source, or nil. Cheap structural checks only (the
    /// renderer decodes once): PNG chunk structure and CRCs, JPEG header and end marker.
    func implausibility(_ bytes: [UInt8]) -> String? {
        let sniffed = RasterImageDecoder.sniff(bytes)
        switch metadata.format {
        case .png, .jpg, .webp:
            guard sniffed != nil else {
                let head = String(decoding: bytes.prefix(16), as: UTF8.self).filter { !$0.isNewline }
                return "expected a \(metadata.format.rawValue.uppercased()) image, got \(bytes.count) bytes starting '\(head)'"
            }
        case .mvt:
            if sniffed != nil { return "expected a vector tile, got an image" }
        case .unknown:
            break
        }
        switch sniffed {
        case .png?:
            do {
                _ = try bytes.withUnsafeBufferPointer { buf throws(PNGError) in try PNGChunkScanner.scan(buf, origin: "tile") }
            } catch {
                return error.description
            }
        case .jpg?:
            guard bytes.count >= 4, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
                return "JPEG without its end-of-image marker (truncated)"
            }
            do { _ = try JPEGCodec.dimensions(of: bytes, origin: "tile") } catch { return error.description }
        default:
            break
        }
        return nil
    }

    private func warn(_ warning: HTTPTileSourceWarning) {
        lock.lock()
        pendingWarnings.append(warning)
        lock.unlock()
    }
}
