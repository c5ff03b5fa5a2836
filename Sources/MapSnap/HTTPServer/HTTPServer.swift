internal import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd: it parses requests, reads bodies, keeps
/// connections alive, times out idle clients and writes responses; its owner only turns
/// complete requests into responses.
///
/// Threads: libmicrohttpd's event loop (epoll, `ioThreads` threads) does all socket I/O. A
/// request is handed to the handler once its body has arrived, and the connection is then
/// suspended (taken out of the event loop) until the handler answers, from any thread. So a
/// slow client — trickling its request or reading its response slowly — holds only a
/// connection slot, never the handler's worker, and an answer that takes long (a render)
/// holds no I/O thread.
///
/// The adapter answers some requests itself, before the handler sees them: `413` when a body
/// is larger than `maximumBodyBytes`, `414` when the request target is longer than
/// `maximumTargetLength` (libmicrohttpd sends its own `414` for a request line that does not
/// fit its per-connection memory), and libmicrohttpd's `400` for malformed HTTP.
final class HTTPServer: Sendable {
    /// Where and how to listen.
    struct Settings: Sendable {
        var address: ListenAddress
        /// Event-loop threads doing socket I/O (1 is plenty for a render server).
        var ioThreads = 1
        /// Seconds a connection may stay idle (no bytes either way) before it is closed.
        var connectionTimeoutSeconds = 30
        /// Most connections open at once; more are refused at accept.
        var connectionLimit = 1_000
        /// Most connections from one IP address (0: no limit).
        var perClientConnectionLimit = 0
        /// Longest request target (path and query) accepted, in bytes.
        var maximumTargetLength = 16_384
        /// Largest request body accepted, in bytes.
        var maximumBodyBytes = 1 << 20
        /// Room for the request's headers besides its target.
        var headerAllowanceBytes = 32_768
    }

    /// Answers one request; must call `responder.respond` exactly once, from any thread.
    typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void
    /// Told once per finished exchange (for access logs and metrics).
    typealias Completion = @Sendable (HTTPExchangeRecord) -> Void

    let settings: Settings
    private let handler: Handler
    private let completion: Completion
    /// The daemon as a bit pattern (0: not running); C pointers are not `Sendable`.
    private let daemon = Locked<Int>(0)
    private let active = Atomic<Int>(0)

    init(settings: Settings, handler: @escaping Handler, completion: @escaping Completion) {
        self.settings = settings
        self.handler = handler
        self.completion = completion
    }

    deinit { stop() }

    /// Exchanges begun and not yet finished (requests being read, handled or answered).
    var activeExchanges: Int { active.load(ordering: .acquiring) }

    /// Starts listening and serving; returns the port bound (the kernel's choice for port 0).
    func start() throws(HTTPServerError) -> Int {
        let address = settings.address
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let memory = settings.maximumTargetLength + settings.headerAllowanceBytes
        guard mapsnap_mhd() != nil else { throw .libraryMissing }
        let started: OpaquePointer? = address.withSocketAddress { socketAddress in
            mapsnap_mhd_start(flags, socketAddress, accessHandler, me, completedHandler, me,
                              UInt32(clamping: max(1, settings.ioThreads)),
                              UInt32(clamping: max(1, settings.connectionTimeoutSeconds)),
                              UInt32(clamping: max(1, settings.connectionLimit)),
                              UInt32(clamping: max(0, settings.perClientConnectionLimit)),
                              memory, 128)
        }
        guard let started else { throw .cannotListen(address: address.description) }
        daemon.withLock { $0 = Int(bitPattern: UnsafeRawPointer(started)) }
        return Int(mapsnap_mhd_bound_port(started))
    }

    /// Stops accepting connections; requests already accepted are still answered.
    func stopAccepting() {
        daemon.withLock { bits in
            guard let d = OpaquePointer(bitPattern: bits) else { return }
            let socket = mapsnap_mhd_quiesce_daemon(d)
            if socket >= 0 { close(socket) }
        }
    }

    /// Stops the daemon: open connections are closed, threads joined. Idempotent.
    func stop() {
        let bits = daemon.withLock { bits in
            defer { bits = 0 }
            return bits
        }
        if let d = OpaquePointer(bitPattern: bits) { mapsnap_mhd_stop_daemon(d) }
    }

    // MARK: Callbacks (on libmicrohttpd's threads)

    /// One call of libmicrohttpd's access handler: a new request, a piece of its body, the
    /// end of its body, or the return of a suspended connection.
    fileprivate func access(connection: OpaquePointer, path: String, method: String,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let raw = context.pointee else {
            // Headers are in: the exchange begins.
            let exchange = Exchange(connection: connection, method: method, path: path,
                                    clientAddress: Self.clientAddress(connection))
            active.wrappingAdd(1, ordering: .acquiringAndReleasing)
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            if let length = Self.lookup(connection, "Content-Length").flatMap({ Int($0) }), length > settings.maximumBodyBytes {
                return queue(exchange, Self.tooLarge(settings.maximumBodyBytes))
            }
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            let overflow = exchange.state.withLock { s -> Bool in
                // Bytes after an early answer (413) are read and dropped.
                if s.queued { return false }
                guard s.body.count + count <= settings.maximumBodyBytes else { return true }
                if let upload {
                    upload.withMemoryRebound(to: UInt8.self, capacity: count) { s.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
                }
                return false
            }
            return overflow ? queue(exchange, Self.tooLarge(settings.maximumBodyBytes)) : MHD_Result.YES
        }
        // The request is complete, or its connection was resumed with the answer.
        let step = exchange.state.withLock { s -> ExchangeStep in
            if s.queued { return .done }
            if let response = s.response { return .respond(response) }
            if s.dispatched {
                // Resumed without an answer cannot happen; suspend again rather than guess.
                s.suspended = true
                mapsnap_mhd_suspend_connection(connection)
                return .done
            }
            s.dispatched = true
            return .dispatch(s.body)
        }
        switch step {
        case .done:
            return MHD_Result.YES
        case .respond(let response):
            return queue(exchange, response)
        case .dispatch(let body):
            let request = HTTPRequest(method: method, path: path, query: Self.queryItems(connection),
                                      headers: Self.headers(connection), body: body, clientAddress: exchange.clientAddress)
            guard request.targetLength <= settings.maximumTargetLength else {
                return queue(exchange, .text(414, "request target longer than \(settings.maximumTargetLength) bytes"))
            }
            handler(request, HTTPResponder(exchange: exchange))
            let answered = exchange.state.withLock { s -> HTTPResponse? in
                if let response = s.response { return response }
                s.suspended = true
                mapsnap_mhd_suspend_connection(connection)
                return nil
            }
            if let answered { return queue(exchange, answered) }
            return MHD_Result.YES
        }
    }

    /// The exchange is over (answered, timed out, or the client went away).
    fileprivate func completed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, code: MHD_RequestTerminationCode) {
        guard let context, let raw = context.pointee else { return }
        context.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
        active.wrappingAdd(-1, ordering: .acquiringAndReleasing)
        let outcome: HTTPExchangeRecord.Outcome
        switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK: outcome = .completed
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = .timedOut
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: outcome = .clientGone
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = .shutdown
        default: outcome = .failed
        }
        let record = exchange.state.withLock { s in
            HTTPExchangeRecord(method: exchange.method, path: exchange.path, clientAddress: exchange.clientAddress,
                               status: s.status, bodyBytes: s.bodyBytes, note: s.note,
                               duration: ContinuousClock.now - exchange.started, outcome: outcome)
        }
        completion(record)
    }

    private enum ExchangeStep {
        case done
        case respond(HTTPResponse)
        case dispatch([UInt8])
    }

    /// Hands `response` to libmicrohttpd (only from inside the access handler).
    private func queue(_ exchange: Exchange, _ response: HTTPResponse) -> MHD_Result {
        let connection = exchange.state.withLock { s -> OpaquePointer? in
            s.queued = true
            s.status = response.status
            s.bodyBytes = exchange.method == "HEAD" ? 0 : response.body.count
            return OpaquePointer(bitPattern: s.connection)
        }
        guard let connection else { return MHD_Result.NO }
        let created = response.body.withUnsafeBytes { bytes in
            mapsnap_mhd_copied_response(bytes.baseAddress, bytes.count)
        }
        guard let created else { return MHD_Result.NO }
        defer { mapsnap_mhd_destroy_response(created) }
        for (name, value) in response.headers where !Self.isReservedHeader(name) {
            _ = mapsnap_mhd_add_response_header(created, name, value)
        }
        return mapsnap_mhd_queue_response(connection, UInt32(clamping: response.status), created)
    }

    /// Headers libmicrohttpd writes itself (and rejects when added).
    private static func isReservedHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "content-length" || lower == "transfer-encoding" || lower == "connection"
    }

    private static func tooLarge(_ limit: Int) -> HTTPResponse {
        .text(413, "request body larger than \(limit) bytes", headers: [("Connection", "close")])
    }

    private static func lookup(_ connection: OpaquePointer, _ name: String) -> String? {
        mapsnap_mhd_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func clientAddress(_ connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let ok = buffer.withUnsafeMutableBufferPointer { mapsnap_mhd_client_address(connection, $0.baseAddress, 64) }
        guard ok == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func queryItems(_ connection: OpaquePointer) -> [HTTPRequest.QueryItem] {
        var items: [HTTPRequest.QueryItem] = []
        withUnsafeMutablePointer(to: &items) { box in
            _ = mapsnap_mhd_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let items = cls.assumingMemoryBound(to: [HTTPRequest.QueryItem].self)
                items.pointee.append(HTTPRequest.QueryItem(name: String(cString: key), value: value.map { String(cString: $0) }))
                return MHD_Result.YES
            }, box)
        }
        return items
    }

    private static func headers(_ connection: OpaquePointer) -> [String: String] {
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { box in
            _ = mapsnap_mhd_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let headers = cls.assumingMemoryBound(to: [String: String].self)
                let name = String(cString: key).lowercased()
                let text = value.map { String(cString: $0) } ?? ""
                if let earlier = headers.pointee[name] {
                    headers.pointee[name] = earlier + ", " + text
                } else {
                    headers.pointee[name] = text
                }
                return MHD_Result.YES
            }, box)
        }
        return headers
    }
}

/// libmicrohttpd's access handler: forwards to the `HTTPServer` passed as `cls`.
private func accessHandler(cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
                           method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
                           upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
                           context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let uploadSize, let context else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.access(connection: connection, path: url.map { String(cString: $0) } ?? "/",
                         method: method.map { String(cString: $0) } ?? "GET",
                         upload: upload, uploadSize: uploadSize, context: context)
}

/// libmicrohttpd's request-completed callback: forwards to the `HTTPServer` passed as `cls`.
private func completedHandler(cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
                              context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                              code: MHD_RequestTerminationCode) {
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().completed(context: context, code: code)
}

/// One request and its answer, from the headers' arrival to the end of the response.
final class Exchange: Sendable {
    struct State {
        /// The connection as a bit pattern (C pointers are not `Sendable`).
        var connection: Int
        var body: [UInt8] = []
        var dispatched = false
        var response: HTTPResponse?
        var suspended = false
        var queued = false
        var status = 0
        var bodyBytes = 0
        var note = ""
    }

    let method: String
    let path: String
    let clientAddress: String
    let started = ContinuousClock.now
    let state: Locked<State>

    init(connection: OpaquePointer, method: String, path: String, clientAddress: String) {
        self.method = method
        self.path = path
        self.clientAddress = clientAddress
        state = Locked(State(connection: Int(bitPattern: UnsafeRawPointer(connection))))
    }
}

/// Answers one request, once, from any thread.
struct HTTPResponder: Sendable {
    fileprivate let exchange: Exchange

    /// Sends `response`; `note` goes to the exchange's record (e.g. "cache=hit").
    func respond(_ response: HTTPResponse, note: String = "") {
        exchange.state.withLock { s in
            guard s.response == nil else { return }
            s.response = response
            s.note = note
            if s.suspended, let connection = OpaquePointer(bitPattern: s.connection) {
                s.suspended = false
                mapsnap_mhd_resume_connection(connection)
            }
        }
    }
}

/// What happened to one exchange, reported when it is over.
struct HTTPExchangeRecord: Sendable {
    enum Outcome: String, Sendable {
        /// The response was sent completely.
        case completed
        /// The client stayed idle longer than the connection timeout.
        case timedOut = "timed-out"
        /// The client closed the connection or a read failed.
        case clientGone = "client-gone"
        /// The server stopped while the exchange was open.
        case shutdown
        /// A write failed or libmicrohttpd gave up on the connection.
        case failed
    }

    var method: String
    var path: String
    var clientAddress: String
    /// 0 when no response was queued (the client went away first).
    var status: Int
    var bodyBytes: Int
    var note: String
    var duration: Duration
    var outcome: Outcome
}

extension HTTPServer {
    /// The version of the libmicrohttpd this process loads (`MHD_get_version`), or nil when it
    /// cannot be loaded. Loads the library, which mapsnap otherwise does only for `serve`.
    static var libraryVersion: String? { mapsnap_mhd_version().map { String(cString: $0) } }
}
