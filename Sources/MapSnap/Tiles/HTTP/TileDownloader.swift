import Foundation

/// Gets one tile URL under a source's policy: bounded retries with a doubling backoff,
/// redirects checked hop by hop, `Retry-After` honoured, the per-host connection cap and
/// circuit breaker (`HostGate`), and the caller's deadline over all of it.
///
/// What is retried: timeouts, connection failures, truncated bodies, 5xx and 429, and a
/// transfer refused memory by `TransferBudget`. What is not: an oversized body, a redirect
/// loop or refused redirect, a body that cannot be decoded, a certificate error, an open
/// breaker. Every message shows the URL redacted.
struct TileDownloader: Sendable {
    let options: HTTPTileSource.Options
    let gate: HostGate
    let budget: TransferBudget
    /// Hand a 4xx answer's body back as `.body` (its status in `Details`) instead of
    /// `.clientError`: a routing engine's 400 says why there is no route. 404 stays absent.
    var keepsClientErrorBodies = false
    /// Which of the gate's counts the transfers use (icons never open the tiles' breaker).
    var purpose: HostGate.Purpose = .maps
    /// Where redirects may lead besides what the redirect policy allows (nil: no list):
    /// every hop of a client-chosen URL is checked against it.
    var allowList: OriginAllowList? = nil

    /// What the server said about a tile.
    enum Download {
        /// A 2xx body; `reservedBytes` of `budget` are held for it until the caller releases them.
        case body([UInt8], reservedBytes: Int, details: Details)
        /// 404 or 204.
        case absent
        /// Another 4xx (a missing API key, typically).
        case clientError(Int)
        /// 304: the cached copy the conditional request named is still current.
        case notModified(Details)
    }

    /// What a 2xx response said besides its body.
    struct Details: Sendable, Equatable {
        var status: Int
        var contentType: String?
        /// `Content-Range` of a 206 answer to a range request.
        var contentRange: String?
        /// `ETag` and `Last-Modified`, when the server sent them.
        var entityTag: String? = nil
        var lastModified: String? = nil
        /// How long the body may be used without asking again, from its caching headers.
        var freshness = HTTPFreshness(cacheControl: nil, expires: nil, date: nil, age: nil)

        /// What identifies the version of the resource: the entity tag, else the modification
        /// date (prefixed, so the two are never taken for each other), else nil.
        var validator: String? {
            if let entityTag, !entityTag.isEmpty { return "ETag " + entityTag }
            if let lastModified, !lastModified.isEmpty { return "Last-Modified " + lastModified }
            return nil
        }
    }

    /// How one attempt ended when it neither succeeded nor failed for good.
    private struct Retry: Error {
        var error: HTTPTileSourceError
        /// The host set a `Retry-After` that the gate will wait for: no extra backoff.
        var postponed: Bool
    }

    /// The backoff stops doubling here, in seconds.
    static let longestBackoff: Double = 30

    private var policy: HostGate.Policy {
        HostGate.Policy(cap: options.maxConcurrentRequests, breakerThreshold: options.breakerThreshold,
                        breakerCooldown: options.breakerCooldown, maxRetryAfter: options.maxRetryAfter)
    }

    /// Gets `address` (only `range` of it when given; see `HTTPExchange.range`). `revalidating`:
    /// the version of a cached copy (`CacheValidator`); the server answers 304 (`.notModified`)
    /// when it is still current.
    func download(_ address: String, range: ClosedRange<UInt64>? = nil, revalidating: CacheValidator? = nil,
                  deadline limit: Deadline) throws(HTTPTileSourceError) -> Download {
        let deadline = limit.instant
        let shown = URLRedaction.redact(address)
        let attempts = 1 + max(0, options.maxRetries)
        var delay = max(0, options.retryBackoff)
        var last: Retry?
        for attempt in 1...attempts {
            if let last, !last.postponed {
                if let deadline, FetchClock.secondsLeft(until: deadline) <= delay { throw last.error }
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                delay = min(delay * 2, Self.longestBackoff)
            }
            switch try self.attempt(address, range: range, conditions: revalidating?.requestHeaders ?? [], shown: shown,
                                    number: attempt, deadline: deadline) {
            case .success(let download): return download
            case .failure(let retry): last = retry
            }
        }
        throw last?.error ?? .connectionFailed(url: shown, reason: "no attempt made", attempts: 0)
    }

    /// One attempt: the request and the redirects it leads to.
    private func attempt(_ start: String, range: ClosedRange<UInt64>?, conditions: [String], shown: String, number: Int,
                         deadline: ContinuousClock.Instant?) throws(HTTPTileSourceError) -> Result<Download, Retry> {
        var url = start
        for _ in 0...max(0, options.maxRedirects) {
            guard let origin = HTTPOrigin(url) else {
                throw .connectionFailed(url: shown, reason: "not an http(s) URL", attempts: number)
            }
            let host = origin.hostKey
            let gated = HostGate.key(host, purpose)
            do {
                try gate.admit(gated, policy: policy, deadline: deadline)
            } catch {
                switch error {
                case .breakerOpen(let failures, let remaining):
                    throw .hostUnavailable(url: shown, host: host, failures: failures, retryIn: remaining)
                case .postponed(let remaining):
                    throw .rateLimited(url: shown, status: nil, retryAfter: remaining, attempts: number - 1)
                case .deadline:
                    throw .deadlineExceeded(url: shown, attempts: number - 1)
                }
            }
            let left = deadline.map(FetchClock.secondsLeft(until:))
            if let left, left <= 0 {
                gate.release(gated, report: .neutral, policy: policy)
                throw .deadlineExceeded(url: shown, attempts: number - 1)
            }
            // A deadline closer than the request timeout shortens the request; a timeout then
            // is the deadline's, not the host's fault.
            let cutByDeadline = left.map { $0 < options.timeout } ?? false
            var request = exchange(url, host: host, timeout: min(options.timeout, left ?? .infinity))
            request.range = range
            request.headers = conditions
            request.keepsClientErrorBodies = keepsClientErrorBodies
            let outcome = CurlTransfer.perform(request)
            switch outcome {
            case .response(let response):
                gate.release(gated, report: .answered, policy: policy)
                switch try interpret(response, url: url, shown: shown, host: gated, number: number, deadline: deadline) {
                case .redirect(let next): url = next
                case .done(let result): return result
                }
            case .tooLarge(let size):
                gate.release(gated, report: .answered, policy: policy)
                throw .bodyTooLarge(url: shown, size: size, limit: options.maxTileBytes)
            case .memoryExhausted:
                gate.release(gated, report: .neutral, policy: policy)
                let error = HTTPTileSourceError.transferMemoryExhausted(url: shown, limit: options.maxTransferMemoryBytes,
                                                                        attempts: number)
                return .failure(Retry(error: error, postponed: false))
            case .timedOut:
                // curl's limit was the deadline and it has come (not the low-speed limit).
                if cutByDeadline, let deadline, FetchClock.secondsLeft(until: deadline) <= 0.05 {
                    gate.release(gated, report: .neutral, policy: policy)
                    throw .deadlineExceeded(url: shown, attempts: number)
                }
                gate.release(gated, report: .unreachable, policy: policy)
                return .failure(Retry(error: .timedOut(url: shown, seconds: options.timeout, attempts: number), postponed: false))
            case .truncated(let expected, let received):
                gate.release(gated, report: .neutral, policy: policy)
                let error = HTTPTileSourceError.truncatedBody(url: shown, expected: expected, received: received, attempts: number)
                return .failure(Retry(error: error, postponed: false))
            case .badContentEncoding(let reason):
                gate.release(gated, report: .answered, policy: policy)
                throw .invalidBody(url: shown, reason: "undecodable Content-Encoding: \(reason)")
            case .failed(let reason, let retryable, let unreachable):
                gate.release(gated, report: unreachable ? .unreachable : .neutral, policy: policy)
                let error = HTTPTileSourceError.connectionFailed(url: shown, reason: reason, attempts: number)
                guard retryable else { throw error }
                return .failure(Retry(error: error, postponed: false))
            }
        }
        throw .tooManyRedirects(url: shown, limit: max(0, options.maxRedirects))
    }

    private enum Step {
        case redirect(String)
        case done(Result<Download, Retry>)
    }

    /// What a complete response means for the tile.
    private func interpret(_ response: HTTPExchange.Response, url: String, shown: String, host: String, number: Int,
                           deadline: ContinuousClock.Instant?) throws(HTTPTileSourceError) -> Step {
        let status = response.status
        switch status {
        case 204, 404:
            budget.release(response.reservedBytes)
            return .done(.success(.absent))
        case 200..<300, 304:
            let freshness = HTTPFreshness(cacheControl: response.cacheControl, expires: response.expires,
                                          date: response.date, age: response.age)
            let details = Details(status: status, contentType: response.contentType, contentRange: response.contentRange,
                                  entityTag: response.entityTag, lastModified: response.lastModified, freshness: freshness)
            if status == 304 {
                budget.release(response.reservedBytes)
                return .done(.success(.notModified(details)))
            }
            return .done(.success(.body(response.body, reservedBytes: response.reservedBytes, details: details)))
        case 301, 302, 303, 307, 308:
            guard let location = response.location else {
                throw .invalidBody(url: shown, reason: "HTTP \(status) redirect without a Location")
            }
            let from = HTTPOrigin(url)
            if let allowList {
                // Only listed origins, never the server itself; still never https → http.
                guard let to = HTTPOrigin(location) else {
                    throw .redirectRefused(url: shown, location: URLRedaction.redact(location), reason: "the target is not an http(s) URL")
                }
                if let reason = allowList.refusal(to)
                    ?? from?.refusal(forRedirectTo: location, allowsCrossOrigin: true) {
                    throw .redirectRefused(url: shown, location: URLRedaction.redact(location), reason: reason)
                }
            } else if let reason = from?.refusal(forRedirectTo: location, allowsCrossOrigin: options.allowsCrossOriginRedirects) {
                throw .redirectRefused(url: shown, location: URLRedaction.redact(location), reason: reason)
            }
            return .redirect(location)
        case 429, 503:
            if let wait = response.retryAfter {
                // Every request to the host waits (or fails) from now on, this tile's retry too.
                gate.postpone(host, seconds: wait)
                let beyondDeadline = deadline.map { FetchClock.secondsLeft(until: $0) <= wait } ?? false
                if wait > options.maxRetryAfter || beyondDeadline {
                    throw .rateLimited(url: shown, status: status, retryAfter: wait, attempts: number)
                }
            }
            let error: HTTPTileSourceError = status == 429
                ? .rateLimited(url: shown, status: status, retryAfter: response.retryAfter, attempts: number)
                : .serverError(url: shown, status: status, attempts: number)
            return .done(.failure(Retry(error: error, postponed: response.retryAfter != nil)))
        case 400..<500 where keepsClientErrorBodies:
            let details = Details(status: status, contentType: response.contentType)
            return .done(.success(.body(response.body, reservedBytes: response.reservedBytes, details: details)))
        case 400..<500:
            return .done(.success(.clientError(status)))
        case 500..<600:
            return .done(.failure(Retry(error: .serverError(url: shown, status: status, attempts: number), postponed: false)))
        default:
            throw .invalidBody(url: shown, reason: "unexpected HTTP status \(status)")
        }
    }

    private func exchange(_ url: String, host: String, timeout: Double) -> HTTPExchange {
        HTTPExchange(url: url, userAgent: options.userAgent, maxBodyBytes: options.maxTileBytes, timeout: timeout,
                     connectTimeout: options.connectTimeout, lowSpeedLimit: options.lowSpeedLimit,
                     lowSpeedTime: options.lowSpeedTime, memoryLimit: options.maxTransferMemoryBytes, budget: budget,
                     connectionKey: host, idleConnectionLimit: max(1, options.maxConcurrentRequests))
    }
}
