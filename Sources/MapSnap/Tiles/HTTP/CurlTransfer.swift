internal import CCurl

/// Performs `HTTPExchange`s with libcurl's easy interface on the calling thread. The only
/// file that imports `CCurl`.
///
/// Why libcurl and not URLSession: on Linux, URLSession buffers response chunks on its own
/// work queue and `cancel()` waits behind them, so with a few transfers at once neither a size
/// limit nor a timeout held (an endless body grew to 24 GB). Here every limit is enforced on
/// the transfer's own thread, inside curl's loop:
/// - a declared `Content-Length` above the limit fails before the body is read
///   (`CURLOPT_MAXFILESIZE_LARGE`);
/// - the write callback counts decoded bytes (curl decodes `Content-Encoding` before it) and
///   aborts the transfer the moment they pass the limit, or when the process-wide
///   `TransferBudget` refuses more memory;
/// - total, connect and low-speed timeouts are curl's own;
/// - redirects are not followed (`TileDownloader` applies its policy) and only http and https
///   are spoken.
///
/// Easy handles are kept per host after use (`CurlHandlePool`), so keep-alive connections are
/// reused; each handle keeps at most one idle connection.
enum CurlTransfer {
    /// `curl_global_init` runs once, before the first handle, whichever thread gets there first.
    private static let globalInit: CURLcode = mapsnap_curl_global_init()

    static func perform(_ exchange: HTTPExchange) -> HTTPExchange.Outcome {
        guard globalInit == CURLE_OK else {
            return .failed(reason: "libcurl (libcurl.so.4, loaded on first use) could not be loaded or initialised; install libcurl4",
                           retryable: false, hostUnreachable: false)
        }
        guard let easy = CurlHandlePool.shared.take(exchange.connectionKey) ?? CurlEasy() else {
            return .failed(reason: "libcurl could not create a transfer handle", retryable: true, hostUnreachable: false)
        }
        defer { CurlHandlePool.shared.put(easy, key: exchange.connectionKey, limit: exchange.idleConnectionLimit) }
        let h = easy.handle
        mapsnap_curl_easy_reset(h)
        configure(h, easy: easy, exchange: exchange)
        let sink = BodySink(handle: h, limit: exchange.maxBodyBytes, budget: exchange.budget, memoryLimit: exchange.memoryLimit,
                            keepsClientErrors: exchange.keepsClientErrorBodies)
        // The header list must outlive the transfer; the reset of the next use forgets it.
        var headerList: UnsafeMutableRawPointer?
        for line in exchange.headers where !line.contains("\r") && !line.contains("\n") {
            if let next = mapsnap_curl_slist_append(headerList, line) { headerList = next }
        }
        defer { mapsnap_curl_slist_free_all(headerList) }
        if let headerList { _ = mapsnap_curl_setopt_pointer(h, CURLOPT_HTTPHEADER, headerList) }
        let code: CURLcode = withExtendedLifetime(sink) {
            let context = Unmanaged.passUnretained(sink).toOpaque()
            _ = mapsnap_curl_setopt_pointer(h, CURLOPT_WRITEDATA, context)
            _ = mapsnap_curl_setopt_write_function(h, bodySinkCallback)
            _ = mapsnap_curl_setopt_pointer(h, CURLOPT_HEADERDATA, context)
            _ = mapsnap_curl_setopt_header_function(h, headerSinkCallback)
            easy.errorBuffer[0] = 0
            return mapsnap_curl_easy_perform(h)
        }
        let outcome = classify(code, easy: easy, sink: sink)
        if case .response = outcome {} else { sink.releaseReservation() }
        return outcome
    }

    private static func configure(_ h: UnsafeMutableRawPointer, easy: CurlEasy, exchange: HTTPExchange) {
        _ = mapsnap_curl_setopt_string(h, CURLOPT_URL, exchange.url)
        _ = mapsnap_curl_setopt_pointer(h, CURLOPT_ERRORBUFFER, easy.errorBuffer)
        // Signals cannot be used for timeouts in a threaded process.
        _ = mapsnap_curl_setopt_long(h, CURLOPT_NOSIGNAL, 1)
        _ = mapsnap_curl_setopt_long(h, CURLOPT_FOLLOWLOCATION, 0)
        _ = mapsnap_curl_setopt_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = mapsnap_curl_setopt_string(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // "": offer every encoding this libcurl decodes; the write callback sees decoded bytes.
        // Not for a byte range: a range of a compressed representation is not the bytes asked
        // for (PMTiles archives are fetched this way and compress their parts themselves).
        if exchange.range == nil { _ = mapsnap_curl_setopt_string(h, CURLOPT_ACCEPT_ENCODING, "") }
        _ = mapsnap_curl_setopt_string(h, CURLOPT_USERAGENT, exchange.userAgent)
        _ = mapsnap_curl_setopt_offset(h, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(exchange.maxBodyBytes, 0)))
        _ = mapsnap_curl_setopt_long(h, CURLOPT_TIMEOUT_MS, milliseconds(exchange.timeout))
        _ = mapsnap_curl_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(min(exchange.connectTimeout, exchange.timeout)))
        if exchange.lowSpeedLimit > 0, exchange.lowSpeedTime > 0 {
            _ = mapsnap_curl_setopt_long(h, CURLOPT_LOW_SPEED_LIMIT, exchange.lowSpeedLimit)
            _ = mapsnap_curl_setopt_long(h, CURLOPT_LOW_SPEED_TIME, Int(exchange.lowSpeedTime.rounded(.up)))
        }
        _ = mapsnap_curl_setopt_long(h, CURLOPT_MAXCONNECTS, 1)
        if let range = exchange.range {
            _ = mapsnap_curl_setopt_string(h, CURLOPT_RANGE, "\(range.lowerBound)-\(range.upperBound)")
        }
    }

    /// Whole milliseconds, at least 1 (curl reads 0 as "no timeout").
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return Int(Int32.max) }
        return max(1, min(Int(Int32.max), Int((seconds * 1000).rounded(.up))))
    }

    private static func classify(_ code: CURLcode, easy: CurlEasy, sink: BodySink) -> HTTPExchange.Outcome {
        let h = easy.handle
        var declared: curl_off_t = -1
        _ = mapsnap_curl_getinfo_offset(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
        let reason = easy.message(for: code)
        switch code {
        case CURLE_OK:
            var status = 0
            _ = mapsnap_curl_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
            var location: UnsafeMutablePointer<CChar>?
            _ = mapsnap_curl_getinfo_string(h, CURLINFO_REDIRECT_URL, &location)
            var retryAfter: curl_off_t = 0
            _ = mapsnap_curl_getinfo_offset(h, CURLINFO_RETRY_AFTER, &retryAfter)
            var contentType: UnsafeMutablePointer<CChar>?
            _ = mapsnap_curl_getinfo_string(h, CURLINFO_CONTENT_TYPE, &contentType)
            return .response(HTTPExchange.Response(status: status, body: sink.takeBody(), reservedBytes: sink.reserved,
                                                   location: location.map { String(cString: $0) },
                                                   retryAfter: retryAfter > 0 ? Double(retryAfter) : nil,
                                                   contentType: contentType.map { String(cString: $0) },
                                                   contentRange: sink.contentRange, entityTag: sink.entityTag,
                                                   lastModified: sink.lastModified, cacheControl: sink.cacheControl,
                                                   expires: sink.expires, date: sink.date, age: sink.age))
        case CURLE_WRITE_ERROR:
            switch sink.stop {
            case .tooLarge(let size)?: return .tooLarge(size: size)
            case .memoryExhausted?: return .memoryExhausted
            case nil: return .failed(reason: reason, retryable: true, hostUnreachable: false)
            }
        case CURLE_FILESIZE_EXCEEDED:
            // curl fails before it records the length, so the header callback's copy is used.
            return .tooLarge(size: sink.declaredLength ?? (declared > 0 ? Int(clamping: declared) : sink.received))
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_PARTIAL_FILE:
            return .truncated(expected: Int(clamping: declared), received: sink.received)
        case CURLE_BAD_CONTENT_ENCODING:
            return .badContentEncoding(reason: reason)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR,
             CURLE_SSL_CONNECT_ERROR:
            return .failed(reason: reason, retryable: true, hostUnreachable: true)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CACERT_BADFILE, CURLE_OUT_OF_MEMORY:
            return .failed(reason: reason, retryable: false, hostUnreachable: false)
        default:
            return .failed(reason: reason, retryable: true, hostUnreachable: false)
        }
    }
}

/// Receives a transfer's body from curl's write callback: counts every decoded byte, keeps
/// those of a 2xx response within the limits, and says why it stopped the transfer.
private final class BodySink {
    enum Stop { case tooLarge(Int), memoryExhausted }

    let handle: UnsafeMutableRawPointer
    let limit: Int
    let budget: TransferBudget
    let memoryLimit: Int
    private(set) var body: [UInt8] = []
    /// Bytes of `budget` reserved for `body`.
    private(set) var reserved = 0
    /// Decoded body bytes seen, kept or not.
    private(set) var received = 0
    private(set) var stop: Stop?
    /// The last response's `Content-Length`, as its header said.
    private(set) var declaredLength: Int?
    /// The last response's `Content-Range`, as its header said.
    private(set) var contentRange: String?
    /// The last response's `ETag` and `Last-Modified`, as its headers said.
    private(set) var entityTag: String?
    private(set) var lastModified: String?
    /// The last response's caching headers (`HTTPFreshness` reads them).
    private(set) var cacheControl: String?
    private(set) var expires: String?
    private(set) var date: String?
    private(set) var age: String?
    /// Decided at the first body byte: only a 2xx body is kept (and a 4xx one when
    /// `keepsClientErrors`).
    private var keeps: Bool?
    private let keepsClientErrors: Bool

    init(handle: UnsafeMutableRawPointer, limit: Int, budget: TransferBudget, memoryLimit: Int, keepsClientErrors: Bool = false) {
        self.handle = handle
        self.limit = limit
        self.budget = budget
        self.memoryLimit = memoryLimit
        self.keepsClientErrors = keepsClientErrors
    }

    /// Takes `count` bytes; false stops the transfer.
    func accept(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        if keeps == nil {
            var status = 0
            _ = mapsnap_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            keeps = (200..<300).contains(status) || (keepsClientErrors && (400..<500).contains(status))
        }
        guard count <= limit - received else {
            stop = .tooLarge(received + count)
            return false
        }
        received += count
        guard keeps == true, count > 0, let bytes else { return true }
        let needed = body.count + count
        if needed > body.capacity {
            // One allocation in the common case: the declared length, else the whole limit.
            // The limit is only address space until written (a large block is mapped lazily),
            // and one buffer per transfer keeps freed pieces from piling up in the allocator,
            // which geometric growth did (a 32 MiB body left ~100 MiB resident).
            let capacity = declaredLength.flatMap { $0 >= needed && $0 <= limit ? $0 : nil } ?? limit
            // A growing copy holds the old bytes twice until the old buffer is freed.
            guard budget.reserve(body.count, limit: memoryLimit) else {
                stop = .memoryExhausted
                return false
            }
            body.reserveCapacity(capacity)
            budget.release(body.count)
        }
        // The budget counts bytes written: those are the resident ones.
        guard budget.reserve(count, limit: memoryLimit) else {
            stop = .memoryExhausted
            return false
        }
        reserved += count
        body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        return true
    }

    /// The body, in a buffer of its own size when the one it grew in is much larger (the
    /// caller may keep it: a decoded vector tile holds its bytes).
    func takeBody() -> [UInt8] {
        body.capacity > body.count + body.count / 2 + 4096 ? Array(body) : body
    }

    /// Notes `Content-Length` from one header line (a status line starts a new response:
    /// interim ones such as 100 Continue have their own headers).
    func header(_ line: UnsafeRawBufferPointer) {
        let lower = String(decoding: line.prefix(96), as: UTF8.self).lowercased()
        if lower.hasPrefix("http/") {
            declaredLength = nil
            contentRange = nil
            entityTag = nil
            lastModified = nil
            cacheControl = nil
            expires = nil
            date = nil
            age = nil
        } else if let name = Self.keptHeaders.first(where: { lower.hasPrefix($0) }) {
            // Case kept: an entity tag is compared byte for byte. At most 256 bytes are kept.
            let text = String(decoding: line.prefix(256).filter { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { return }
            let value = text[text.index(after: colon)...].trimmingSpaces()
            switch name {
            case "etag:": entityTag = value
            case "last-modified:": lastModified = value
            case "cache-control:": cacheControl = cacheControl.map { $0 + ", " + value } ?? value
            case "expires:": expires = value
            case "date:": date = value
            default: age = value
            }
        } else if lower.hasPrefix("content-length:") {
            declaredLength = Int(String(lower.dropFirst("content-length:".count).filter { !$0.isWhitespace }))
        } else if lower.hasPrefix("content-range:") {
            let value = lower.dropFirst("content-range:".count).drop { $0.isWhitespace }
            contentRange = String(value.reversed().drop { $0.isWhitespace }.reversed())
        }
    }

    /// Headers whose values are kept (lowercased names with their colon).
    private static let keptHeaders = ["etag:", "last-modified:", "cache-control:", "expires:", "date:", "age:"]

    /// Gives the reservation back (the body is dropped).
    func releaseReservation() {
        budget.release(reserved)
        reserved = 0
        body = []
    }
}

/// curl's write callback: hands the bytes to the `BodySink` in `userdata`. Returning anything
/// but `size * count` makes curl abort the transfer with `CURLE_WRITE_ERROR`.
private let bodySinkCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(userdata).takeUnretainedValue()
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    return sink.accept(UnsafeRawPointer(pointer), count: total) ? total : 0
}

/// curl's header callback: one header line at a time, for the `BodySink` in `userdata`.
private let headerSinkCallback: curl_write_callback = { pointer, size, count, userdata in
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard let userdata, !overflow else { return 0 }
    Unmanaged<BodySink>.fromOpaque(userdata).takeUnretainedValue().header(UnsafeRawBufferPointer(start: pointer, count: total))
    return total
}

/// One curl easy handle and its error buffer, freed together. Used by one transfer at a time:
/// it moves between `CurlHandlePool` and a single performing thread, never shared.
final class CurlEasy: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let handle = mapsnap_curl_easy_init() else { return nil }
        self.handle = handle
        let size = Int(mapsnap_curl_error_size())
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
    }

    deinit {
        mapsnap_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// curl's detailed message for the last transfer, else its generic text for `code`.
    func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer).trimmingASCIIWhitespace()
        if !detail.isEmpty { return detail }
        return mapsnap_curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}

extension CurlTransfer {
    /// The version of the libcurl this process loads (`curl_version_info`), or nil when it
    /// cannot be loaded. Loads libcurl, which mapsnap otherwise does only on first use.
    static var libraryVersion: String? { mapsnap_curl_version().map { String(cString: $0) } }
    /// The libcurl header mapsnap was built against (`LIBCURL_VERSION`), without loading it.
    static var headerVersion: String { String(cString: mapsnap_curl_header_version()) }
}
