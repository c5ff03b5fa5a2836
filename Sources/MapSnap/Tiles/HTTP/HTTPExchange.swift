/// One HTTP GET as the transfer layer performs it: a single request and response, no
/// redirect followed, no retry (`TileDownloader` decides those), every resource bounded.
struct HTTPExchange: Sendable {
    /// The absolute http(s) URL requested, and the `User-Agent` header sent with it.
    var url, userAgent: String
    /// Largest body kept or read, counted after content decoding (`Content-Encoding`), so a
    /// gzip bomb stops at the same size as a plain body. A larger declared `Content-Length`
    /// fails before the body is read.
    var maxBodyBytes: Int
    /// Whole exchange, connection to last byte, in seconds.
    var timeout: Double
    /// Connection set-up (DNS, TCP, TLS), in seconds.
    var connectTimeout: Double
    /// The exchange fails when fewer than `lowSpeedLimit` bytes per second arrive for
    /// `lowSpeedTime` seconds (a trickling server).
    var lowSpeedLimit: Int
    var lowSpeedTime: Double
    /// Bytes all transfers of the process may hold at once (see `TransferBudget`).
    var memoryLimit: Int
    var budget: TransferBudget
    /// Transfers with the same key may reuse each other's idle connections.
    var connectionKey: String
    /// Idle connections kept for `connectionKey` (the per-host connection cap).
    var idleConnectionLimit: Int
    /// A byte range to ask for (`Range: bytes=first-last`, both inclusive), or nil for the
    /// whole body. A server may ignore it and answer 200 with everything.
    var range: ClosedRange<UInt64>? = nil
    /// Extra request header lines (`If-None-Match: "abc"`): a conditional request revalidating
    /// a cached copy. Lines holding CR or LF are not sent.
    var headers: [String] = []
    /// Keep the body of a 4xx response too (within the same limits): a routing engine says
    /// why there is no route in the body of its 400 answer.
    var keepsClientErrorBodies = false

    /// A complete response.
    struct Response: Sendable {
        var status: Int
        /// The decoded body of a 2xx response (and of a 4xx one with `keepsClientErrorBodies`);
        /// empty for other statuses (read, counted, dropped).
        var body: [UInt8]
        /// Bytes of `TransferBudget` held for `body`; the receiver releases them.
        var reservedBytes: Int
        /// The absolute target of a redirect (`Location` resolved against the URL), if any.
        var location: String?
        /// `Retry-After` in seconds, if the server sent one (either form: seconds or a date).
        var retryAfter: Double?
        /// `Content-Type` as the server sent it, if it did.
        var contentType: String? = nil
        /// `Content-Range` of a 206 answer (`bytes 0-16383/4096000`), if the server sent one.
        var contentRange: String? = nil
        /// `ETag` and `Last-Modified` as the server sent them, if it did: what tells one
        /// version of a resource from the next (a remote archive must not change while it is
        /// read in pieces).
        var entityTag: String? = nil
        var lastModified: String? = nil
        /// `Cache-Control`, `Expires`, `Date` and `Age` as the server sent them: how long the
        /// body may be used without asking again (`HTTPFreshness`).
        var cacheControl: String? = nil
        var expires: String? = nil
        var date: String? = nil
        var age: String? = nil
    }

    /// How an exchange ended.
    enum Outcome: Sendable {
        case response(Response)
        /// The body (declared or counted after decoding) passed `maxBodyBytes`; the transfer
        /// was stopped there.
        case tooLarge(size: Int)
        /// Growing the body would pass the process-wide transfer memory limit.
        case memoryExhausted
        case timedOut
        /// The connection closed before the declared `Content-Length` arrived.
        case truncated(expected: Int, received: Int)
        /// The server's `Content-Encoding` could not be decoded.
        case badContentEncoding(reason: String)
        /// No usable response. `retryable`: another attempt may succeed (a reset, a refused
        /// connection), unlike a certificate error; `hostUnreachable`: counts towards the
        /// host's circuit breaker.
        case failed(reason: String, retryable: Bool, hostUnreachable: Bool)
    }
}
