/// Why an HTTP tile source could not be created or a tile could not be fetched. Cases name
/// the template or URL and carry the evidence (status, byte counts, attempts made).
///
/// Templates and URLs in the payloads are redacted (`access_token=REDACTED`, userinfo
/// removed): errors end up in warnings and logs, which must not leak credentials.
public enum HTTPTileSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL template is unusable; `reason` says which rule it breaks.
    case invalidTemplate(template: String, reason: String)
    /// The server kept answering with a server error (5xx) after every attempt.
    case serverError(url: String, status: Int, attempts: Int)
    /// No complete response within `seconds` on every attempt.
    case timedOut(url: String, seconds: Double, attempts: Int)
    /// The body ended before the declared `Content-Length`.
    case truncatedBody(url: String, expected: Int, received: Int, attempts: Int)
    /// The connection failed (refused, reset, DNS) on every attempt.
    case connectionFailed(url: String, reason: String, attempts: Int)
    /// The body (declared, or counted after decoding) exceeds the per-tile size limit; the
    /// transfer was stopped there and is not retried.
    case bodyTooLarge(url: String, size: Int, limit: Int)
    /// A 200 response whose body is not a tile of the expected kind (an HTML error page,
    /// a corrupt image); it is not cached.
    case invalidBody(url: String, reason: String)
    /// More than `limit` redirects in a row (a loop, typically); not retried.
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect the policy does not follow (to another origin, from https to http).
    case redirectRefused(url: String, location: String, reason: String)
    /// HTTP 429 (or a host still inside an earlier `Retry-After`, `status` nil): the server
    /// asked to wait `retryAfter` seconds (nil: it did not say), longer than allowed or than
    /// the deadline leaves.
    case rateLimited(url: String, status: Int?, retryAfter: Double?, attempts: Int)
    /// The host's circuit breaker is open: its last `failures` requests failed to connect or
    /// timed out, so it is not contacted for another `retryIn` seconds.
    case hostUnavailable(url: String, host: String, failures: Int, retryIn: Double)
    /// The deadline the caller gave (the render's time limit) passed before the tile arrived.
    case deadlineExceeded(url: String, attempts: Int)
    /// All transfers of the process together hold `limit` bytes, so this one could not grow;
    /// it failed on every attempt.
    case transferMemoryExhausted(url: String, limit: Int, attempts: Int)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .invalidTemplate(template, reason):
            return "invalid tile URL template '\(template)': \(reason)"
        case let .serverError(url, status, attempts):
            return "\(url): HTTP \(status) (server error) after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case let .timedOut(url, seconds, attempts):
            return "\(url): no response within \(seconds) s, \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case let .truncatedBody(url, expected, received, attempts):
            return "\(url): body cut short: \(received) of \(expected) bytes (Content-Length) after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case let .connectionFailed(url, reason, attempts):
            return "\(url): connection failed after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(reason)"
        case let .bodyTooLarge(url, size, limit):
            return "\(url): body of \(size) bytes exceeds the \(limit)-byte tile limit"
        case let .invalidBody(url, reason):
            return "\(url): response is not a usable tile: \(reason)"
        case let .tooManyRedirects(url, limit):
            return "\(url): more than \(limit) redirects in a row (a redirect loop?)"
        case let .redirectRefused(url, location, reason):
            return "\(url): redirect to \(location) not followed: \(reason)"
        case let .rateLimited(url, status, retryAfter, attempts):
            let wait = retryAfter.map { "asks to wait \(Self.seconds($0))" } ?? "gave no Retry-After"
            if let status {
                return "\(url): rate limited (HTTP \(status)); the server \(wait), after \(Self.attempts(attempts))"
            }
            return "\(url): not requested: the server \(wait) (Retry-After of an earlier response)"
        case let .hostUnavailable(url, host, failures, retryIn):
            return "\(url): not requested: \(host) failed \(failures) times in a row (connection failures or timeouts); "
                + "it is left alone for another \(Self.seconds(retryIn))"
        case let .deadlineExceeded(url, attempts):
            return "\(url): the render's time limit passed, after \(Self.attempts(attempts))"
        case let .transferMemoryExhausted(url, limit, attempts):
            return "\(url): transfers in progress already hold the limit of \(limit) bytes, after \(Self.attempts(attempts))"
        }
    }
}

private extension HTTPTileSourceError {
    static func attempts(_ n: Int) -> String { "\(n) attempt\(n == 1 ? "" : "s")" }

    /// Whole seconds, rounded up ("1 s" rather than "0.37 s").
    static func seconds(_ s: Double) -> String { s.isFinite ? "\(Int(min(max(0, s), 1e9).rounded(.up))) s" : "indefinitely" }
}

/// Something that went wrong without failing the tile: reported so the caller can show it.
enum HTTPTileSourceWarning: Sendable, Equatable, CustomStringConvertible {
    /// A 4xx other than 404 (e.g. 403 for a missing API key); the tile is treated as absent.
    case clientError(tile: TileID, url: String, status: Int)
    /// Refreshing a stale cache entry failed, so the stale copy was used.
    case servedStale(tile: TileID, reason: String)
    /// The tile could not be written to the cache (the fetch itself succeeded).
    case cacheWriteFailed(tile: TileID, path: String, reason: String)
    /// Offline mode and the tile is not in the cache.
    case notCached(tile: TileID)
    /// A cache entry failed validation and was discarded.
    case corruptCacheEntry(tile: TileID, path: String)

    /// The tile the warning is about.
    var tile: TileID {
        switch self {
        case .clientError(let t, _, _), .servedStale(let t, _), .cacheWriteFailed(let t, _, _),
             .notCached(let t), .corruptCacheEntry(let t, _):
            return t
        }
    }

    var description: String {
        switch self {
        case let .clientError(tile, url, status):
            return "tile \(tile): \(url) answered HTTP \(status); drawing nothing there"
        case let .servedStale(tile, reason):
            return "tile \(tile): refresh failed (\(reason)); using the expired cached copy"
        case let .cacheWriteFailed(tile, path, reason):
            return "tile \(tile): could not write cache file \(path): \(reason)"
        case let .notCached(tile):
            return "tile \(tile): not in the cache and offline mode forbids the network"
        case let .corruptCacheEntry(tile, path):
            return "tile \(tile): cache file \(path) is corrupt; discarded"
        }
    }
}
