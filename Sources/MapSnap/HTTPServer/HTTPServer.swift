internal import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd: it parses requests, reads bodies, keeps
/// connections alive, times out idle and slow clients and writes responses; its owner only
/// turns complete requests into responses.
///
/// Threads: libmicrohttpd's event loop (epoll, `ioThreads` threads) does socket I/O and
/// nothing else. A request is handed to the handler once its body has arrived: the connection
/// is suspended (taken out of the event loop) and the handler runs on a worker queue, so
/// parsing a request, resolving places or computing an `ETag` never delays another
/// connection; the answer, from any thread, resumes the connection. A slow client —
/// trickling its request or reading its response slowly — holds only a connection slot, never
/// a worker, and the completion callback (access log) must only hand its record on.
///
/// Hostile clients are bounded here, before any handler runs:
/// - a request head must arrive within `headerTimeoutSeconds` of the connection's opening or
///   of its previous response, and a body at `minimumBodyBytesPerSecond` on average after that
///   (else `408` and the connection is closed): trickling bytes does not keep a slot forever;
/// - at most `connectionLimit` connections, `perClientConnectionLimit` from one IP address;
/// - at most `maximumParameters` query parameters (`414`) and `maximumTargetLength` bytes of
///   target (`414`), with libmicrohttpd's per-connection memory sized for both;
/// - a duplicate `Content-Length`, or one with `Transfer-Encoding`, is refused (`400`);
/// - response bodies are shared, not copied, per connection (`HTTPBody`), and at most
///   `maximumSendingBytes` of bodies are being sent at once (`503` beyond), through send
///   buffers of `sendBufferBytes`.
/// Besides those, the adapter answers `413` when a body is larger than `maximumBodyBytes`, and
/// libmicrohttpd answers malformed HTTP itself (`400`, `431`); such exchanges are reported to
/// the completion callback like any other, and libmicrohttpd's own messages (a connection
/// refused at a limit) to `diagnostic`.
final class HTTPServer: Sendable {
    /// Where and how to listen.
    struct Settings: Sendable {
        var address: ListenAddress
        /// Event-loop threads doing socket I/O (1 is plenty for a render server).
        var ioThreads = 1
        /// Seconds a connection may stay idle (no bytes either way) before it is closed.
        var connectionTimeoutSeconds = 30
        /// Most connections open at once; more are refused at accept. Each takes a file
        /// descriptor: the process's open-file limit must be higher (`LimitNOFILE`).
        var connectionLimit = 1_000
        /// Most connections from one IP address (0: no limit). Behind a reverse proxy every
        /// client shares the proxy's address: raise it there.
        var perClientConnectionLimit = 64
        /// Seconds from a connection's opening, or the end of its previous response, to the
        /// end of its request head.
        var headerTimeoutSeconds = 10.0
        /// Least average rate of a request body, in bytes per second, counted from the end of
        /// the head after a grace of `headerTimeoutSeconds` (0: no minimum).
        var minimumBodyBytesPerSecond = 1_024
        /// Longest request target (path and query) accepted, in bytes.
        var maximumTargetLength = 16_384
        /// Most query parameters accepted (`&`-separated parts of the query).
        var maximumParameters = 1_000
        /// Largest request body accepted, in bytes.
        var maximumBodyBytes = 1 << 20
        /// Room for the request's headers besides its target.
        var headerAllowanceBytes = 32_768
        /// Most bytes of response bodies being sent at once, all connections together; a
        /// response beyond is replaced by `503` with `Retry-After` (0: no limit).
        var maximumSendingBytes = 256 << 20
        /// Kernel send buffer asked for each connection (`SO_SNDBUF`; 0: the kernel's
        /// default, which grows to megabytes per connection for a slow reader).
        var sendBufferBytes = 65_536
        /// Peers whose `X-Forwarded-For` names the client (reverse proxies); the client is then
        /// the rightmost address in it that is not one of these.
        var trustedProxies: Set<String> = []
        /// Paths whose `GET`/`HEAD` the handler answers at once and cheaply (liveness and
        /// readiness probes): handled on the event loop, so that a probe is never queued
        /// behind requests that are expensive to parse. The handler must answer before it
        /// returns and never block.
        var immediatePaths: Set<String> = []

        /// libmicrohttpd's memory per connection: the read buffer holds the request line and
        /// headers, and every query parameter and header takes a record (about 64 bytes) from
        /// the same pool; what does not fit is never answered. Sized for the limits above.
        var connectionMemoryBytes: Int {
            maximumTargetLength + headerAllowanceBytes + (maximumParameters + 256) * 64 + 16_384
        }
    }

    /// Answers one request; must call `responder.respond` exactly once, from any thread.
    typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void
    /// Told once per finished exchange (for access logs and metrics), on the event loop:
    /// must return at once (hand the record to a queue; no I/O).
    typealias Completion = @Sendable (HTTPExchangeRecord) -> Void

    let settings: Settings
    private let handler: Handler
    private let completion: Completion
    private let diagnostic: @Sendable (String) -> Void
    /// The daemon as a bit pattern (0: not running); C pointers are not `Sendable`.
    private let daemon = Locked<Int>(0)
    private let active = Atomic<Int>(0)
    /// The exchanges begun and not finished, so that `stop` can answer those still waiting
    /// for their handler (libmicrohttpd refuses to stop with a suspended connection).
    private let openExchanges = Locked<[ObjectIdentifier: Exchange]>([:])
    private let sending = Atomic<Int>(0)
    /// Open connections by their libmicrohttpd handle's bit pattern; entries leave in the
    /// close notification, before libmicrohttpd closes the socket, so a socket found here
    /// under the lock is still this connection's.
    private let connections = Locked<[Int: Connection]>([:])
    private let watchdog = Locked<DispatchSourceTimer?>(nil)
    private let handlers = DispatchQueue(label: "mapsnap.http.handlers", attributes: .concurrent)
    /// Where libmicrohttpd's messages go (a `mapsnap_mhd_log_target` as a bit pattern), alive
    /// as long as this server.
    private let logTargetBits: Int
    private var logTarget: UnsafeMutablePointer<mapsnap_mhd_log_target> {
        UnsafeMutablePointer(bitPattern: logTargetBits).unsafelyUnwrapped
    }

    init(settings: Settings, handler: @escaping Handler, completion: @escaping Completion,
         diagnostic: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        self.handler = handler
        self.completion = completion
        self.diagnostic = diagnostic
        let target = UnsafeMutablePointer<mapsnap_mhd_log_target>.allocate(capacity: 1)
        target.initialize(to: mapsnap_mhd_log_target(line: nil, context: nil))
        logTargetBits = Int(bitPattern: target)
    }

    deinit {
        stop()
        logTarget.deallocate()
    }

    /// Exchanges begun and not yet finished (requests being read, handled or answered).
    var activeExchanges: Int { active.load(ordering: .acquiring) }
    /// Bytes of response bodies queued on connections and not yet finished.
    var sendingBytes: Int { sending.load(ordering: .acquiring) }
    /// Connections open now.
    var openConnections: Int { connections.withLock { $0.count } }

    /// Starts listening and serving; returns the port bound (the kernel's choice for port 0).
    func start() throws(HTTPServerError) -> Int {
        let address = settings.address
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard mapsnap_mhd() != nil else { throw .libraryMissing }
        logTarget.pointee = mapsnap_mhd_log_target(line: logHandler, context: me)
        let started: OpaquePointer? = address.withSocketAddress { socketAddress in
            mapsnap_mhd_start(flags, socketAddress, accessHandler, me, completedHandler, me, connectionHandler, me, logTarget,
                              UInt32(clamping: max(1, settings.ioThreads)),
                              UInt32(clamping: max(1, settings.connectionTimeoutSeconds)),
                              UInt32(clamping: max(1, settings.connectionLimit)),
                              UInt32(clamping: max(0, settings.perClientConnectionLimit)),
                              settings.connectionMemoryBytes, 128,
                              UInt32(clamping: max(1, settings.maximumParameters)))
        }
        guard let started else { throw .cannotListen(address: address.description) }
        daemon.withLock { $0 = Int(bitPattern: UnsafeRawPointer(started)) }
        startWatchdog()
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

    /// Stops the daemon: exchanges still waiting for their handler's answer are answered
    /// `503` (a handler answering later is ignored), open connections are closed, threads
    /// joined. Idempotent.
    func stop() {
        let unanswered = openExchanges.withLock { Array($0.values) }
        for exchange in unanswered {
            HTTPResponder(exchange: exchange).respond(.text(503, "the server is shutting down", headers: [("Connection", "close")]),
                                                      note: "shutdown")
        }
        // The resumed connections go back to the event loop before it stops.
        if !unanswered.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        watchdog.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        let bits = daemon.withLock { bits in
            defer { bits = 0 }
            return bits
        }
        if let d = OpaquePointer(bitPattern: bits) { mapsnap_mhd_stop_daemon(d) }
    }

    // MARK: Deadlines

    /// What a connection is doing, for the deadlines.
    private struct Connection {
        enum Phase {
            /// Waiting for a request head since `since` (opening or previous response).
            case awaitingHead
            /// Reading the body of `exchange` (head complete at `since`).
            case readingBody(Exchange, received: Int)
            /// Handling or answering: no deadline but the idle timeout.
            case busy
            /// Closed by the watchdog; libmicrohttpd has yet to notice.
            case closing
        }
        var socket: Int32
        var clientAddress: String
        var phase: Phase
        var since: ContinuousClock.Instant
    }

    private func startWatchdog() {
        let tick = max(0.05, min(1.0, settings.headerTimeoutSeconds / 4))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mapsnap.http.deadlines"))
        timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.enforceDeadlines() }
        timer.resume()
        watchdog.withLock { $0 = timer }
    }

    /// Answers `408` and shuts down connections past their head deadline or below the body
    /// rate. Runs under the connection table's lock, so a socket is shut down only while its
    /// connection is open (libmicrohttpd closes a socket after its close notification).
    private func enforceDeadlines() {
        let now = ContinuousClock.now
        let headLimit = Duration.milliseconds(Int(settings.headerTimeoutSeconds * 1000))
        let rate = settings.minimumBodyBytesPerSecond
        var refused: [HTTPExchangeRecord] = []
        connections.withLock { table in
            for (key, connection) in table {
                let elapsed = now - connection.since
                switch connection.phase {
                case .awaitingHead:
                    guard elapsed > headLimit else { continue }
                    refused.append(HTTPExchangeRecord(method: "", path: "", clientAddress: connection.clientAddress, status: 408,
                                                      bodyBytes: 0, note: "no complete request head within \(settings.headerTimeoutSeconds) s",
                                                      duration: elapsed, outcome: .timedOut))
                case .readingBody(let exchange, let received):
                    guard rate > 0, elapsed > headLimit else { continue }
                    let seconds = Double((elapsed - headLimit).components.seconds) + Double((elapsed - headLimit).components.attoseconds) * 1e-18
                    guard Double(received) < Double(rate) * seconds else { continue }
                    let early = exchange.state.withLock { s -> Bool in
                        guard !s.queued else { return true }
                        s.status = 408
                        s.note = "request body slower than \(rate) bytes/s"
                        return false
                    }
                    if early { continue }
                default:
                    continue
                }
                let reply = Array("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)
                _ = reply.withUnsafeBytes { send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                shutdown(connection.socket, Int32(SHUT_RDWR))
                table[key]?.phase = .closing
            }
        }
        refused.forEach(completion)
    }

    private func setPhase(_ connection: OpaquePointer, _ phase: Connection.Phase, restart: Bool = false) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        connections.withLock { table in
            guard table[key] != nil else { return }
            if case .closing = table[key]?.phase { return }
            table[key]?.phase = phase
            if restart { table[key]?.since = .now }
        }
    }

    private func bodyArrived(_ connection: OpaquePointer, bytes: Int) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        connections.withLock { table in
            if case .readingBody(let exchange, let received)? = table[key]?.phase {
                table[key]?.phase = .readingBody(exchange, received: received + bytes)
            }
        }
    }

    // MARK: Callbacks (on libmicrohttpd's threads)

    /// A connection opened or closed.
    fileprivate func connectionChanged(_ connection: OpaquePointer, opened: Bool) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        guard opened else {
            connections.withLock { $0[key] = nil }
            return
        }
        let socket = mapsnap_mhd_connection_fd(connection)
        if socket >= 0, settings.sendBufferBytes > 0 {
            // A slow reader otherwise lets the kernel grow its buffer to megabytes.
            var size = Int32(clamping: settings.sendBufferBytes)
            setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let entry = Connection(socket: socket, clientAddress: Self.clientAddress(connection), phase: .awaitingHead, since: .now)
        connections.withLock { $0[key] = entry }
    }

    /// One call of libmicrohttpd's access handler: a new request, a piece of its body, the
    /// end of its body, or the return of a suspended connection.
    fileprivate func access(connection: OpaquePointer, path: String, method: String,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let tooManyParameters = context.pointee == mapsnap_mhd_too_many_parameters()
        guard let raw = context.pointee, !tooManyParameters else {
            // Headers are in: the exchange begins.
            let exchange = Exchange(connection: connection, method: method, path: path,
                                    clientAddress: Self.clientAddress(connection))
            active.wrappingAdd(1, ordering: .acquiringAndReleasing)
            openExchanges.withLock { $0[ObjectIdentifier(exchange)] = exchange }
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            setPhase(connection, .readingBody(exchange, received: 0), restart: true)
            if tooManyParameters {
                return queue(exchange, .text(414, "more than \(settings.maximumParameters) query parameters", headers: [("Cache-Control", "no-store")]))
            }
            if let refusal = Self.framingError(connection) {
                return queue(exchange, .text(400, refusal, headers: [("Connection", "close")]))
            }
            if let length = Self.lookup(connection, "Content-Length").flatMap({ Int($0) }), length > settings.maximumBodyBytes {
                return queue(exchange, Self.tooLarge(settings.maximumBodyBytes))
            }
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            bodyArrived(connection, bytes: count)
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
            setPhase(connection, .busy)
            let headers = Self.headers(connection)
            let client = clientAddress(peer: exchange.clientAddress, forwardedFor: headers["x-forwarded-for"])
            let request = HTTPRequest(method: method, path: path, query: Self.queryItems(connection),
                                      headers: headers, body: body, clientAddress: client)
            guard request.targetLength <= settings.maximumTargetLength else {
                return queue(exchange, .text(414, "request target longer than \(settings.maximumTargetLength) bytes"))
            }
            if settings.immediatePaths.contains(path), method == "GET" || method == "HEAD", body.isEmpty {
                exchange.state.withLock { $0.clientAddress = client }
                handler(request, HTTPResponder(exchange: exchange))
                let answer = exchange.state.withLock { s -> HTTPResponse? in
                    if let response = s.response { return response }
                    // Not answered at once after all: wait for the answer like any request.
                    s.suspended = true
                    mapsnap_mhd_suspend_connection(connection)
                    return nil
                }
                return answer.map { queue(exchange, $0) } ?? MHD_Result.YES
            }
            // Out of the event loop until answered; the handler runs on a worker.
            exchange.state.withLock { s in
                s.clientAddress = client
                s.suspended = true
                mapsnap_mhd_suspend_connection(connection)
            }
            handlers.async { [handler] in handler(request, HTTPResponder(exchange: exchange)) }
            return MHD_Result.YES
        }
    }

    /// The client's address: the peer, or for a trusted proxy the rightmost address of its
    /// `X-Forwarded-For` that is not itself a trusted proxy (the ones left of it are what the
    /// client claimed, and a client can claim anything).
    func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard settings.trustedProxies.contains(peer), let forwardedFor else { return peer }
        var candidate = peer
        for part in forwardedFor.split(separator: ",").reversed() {
            let address = part.trimmingSpaces()
            var v4 = in_addr(), v6 = in6_addr()
            guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else { break }
            candidate = address
            if !settings.trustedProxies.contains(address) { break }
        }
        return candidate
    }

    /// The exchange is over (answered, timed out, or the client went away).
    fileprivate func completed(connection: OpaquePointer?, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                               code: MHD_RequestTerminationCode) {
        // A connection the deadlines closed was logged then.
        var closedByDeadline = false
        if let connection {
            let key = Int(bitPattern: UnsafeRawPointer(connection))
            closedByDeadline = connections.withLock { table in
                if case .closing? = table[key]?.phase { return true }
                return false
            }
            setPhase(connection, .awaitingHead, restart: true)
        }
        let outcome: HTTPExchangeRecord.Outcome
        switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK: outcome = .completed
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = .timedOut
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: outcome = .clientGone
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = .shutdown
        default: outcome = .failed
        }
        guard let context, let raw = context.pointee, raw != mapsnap_mhd_too_many_parameters() else {
            // libmicrohttpd answered a request the handler never saw (malformed, headers too
            // large): logged all the same.
            if closedByDeadline { return }
            let status = connection.map { Int(mapsnap_mhd_connection_status($0)) } ?? 0
            let client = connection.map(Self.clientAddress) ?? ""
            completion(HTTPExchangeRecord(method: "", path: "", clientAddress: client, status: status, bodyBytes: 0,
                                          note: "refused by libmicrohttpd", duration: .zero, outcome: outcome))
            return
        }
        context.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
        active.wrappingAdd(-1, ordering: .acquiringAndReleasing)
        openExchanges.withLock { $0[ObjectIdentifier(exchange)] = nil }
        let record = exchange.state.withLock { s in
            HTTPExchangeRecord(method: exchange.method, path: exchange.path, clientAddress: s.clientAddress,
                               status: s.status, bodyBytes: s.bodyBytes, note: s.note,
                               duration: ContinuousClock.now - exchange.started, outcome: outcome)
        }
        let sent = exchange.state.withLock { s in
            defer { s.sendingBytes = 0 }
            return s.sendingBytes
        }
        if sent > 0 { sending.wrappingAdd(-sent, ordering: .acquiringAndReleasing) }
        completion(record)
    }

    /// A message of libmicrohttpd's (a connection refused at a limit, a malformed request).
    fileprivate func libraryMessage(_ text: String) {
        diagnostic(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private enum ExchangeStep {
        case done
        case respond(HTTPResponse)
        case dispatch([UInt8])
    }

    /// Hands `response` to libmicrohttpd (only from inside the access handler): its body is
    /// shared with libmicrohttpd, not copied, and counted in the bytes being sent.
    private func queue(_ exchange: Exchange, _ response: HTTPResponse) -> MHD_Result {
        var response = response
        let bodyBytes = exchange.method == "HEAD" ? 0 : response.body.count
        if bodyBytes > 0, settings.maximumSendingBytes > 0 {
            let total = sending.wrappingAdd(bodyBytes, ordering: .acquiringAndReleasing).newValue
            if total > settings.maximumSendingBytes {
                sending.wrappingAdd(-bodyBytes, ordering: .acquiringAndReleasing)
                response = .text(503, "the server is sending too much at once; retry later",
                                 headers: [("Retry-After", "1"), ("Cache-Control", "no-store")])
                exchange.state.withLock { $0.note += ($0.note.isEmpty ? "" : " ") + "sending=full" }
            } else {
                exchange.state.withLock { $0.sendingBytes = bodyBytes }
            }
        }
        let connection = exchange.state.withLock { s -> OpaquePointer? in
            s.queued = true
            s.status = response.status
            s.bodyBytes = exchange.method == "HEAD" ? 0 : response.body.count
            return OpaquePointer(bitPattern: s.connection)
        }
        guard let connection else { return MHD_Result.NO }
        let storage = response.body.storage
        let created = mapsnap_mhd_shared_response(storage.bytes.baseAddress, storage.bytes.count, releaseBody,
                                                  Unmanaged.passRetained(storage).toOpaque())
        guard let created else { return MHD_Result.NO }
        defer { mapsnap_mhd_destroy_response(created) }
        for (name, value) in response.headers where !Self.isReservedHeader(name) {
            _ = mapsnap_mhd_add_response_header(created, name, value)
        }
        return mapsnap_mhd_queue_response(connection, UInt32(clamping: response.status), created)
    }

    /// Why the request's framing is refused before any handler sees it, or nil: two
    /// `Content-Length` headers, or one beside `Transfer-Encoding`, read differently by
    /// different servers — a proxy in front and this one could disagree on where the
    /// request ends (request smuggling).
    private static func framingError(_ connection: OpaquePointer) -> String? {
        var lengths = 0, encodings = 0
        for (name, _) in headerList(connection) {
            switch name.lowercased() {
            case "content-length": lengths += 1
            case "transfer-encoding": encodings += 1
            default: break
            }
        }
        if lengths > 1 { return "more than one Content-Length header" }
        if lengths > 0 && encodings > 0 { return "Content-Length and Transfer-Encoding together" }
        return nil
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

    /// Every header as sent, repeated ones repeated.
    private static func headerList(_ connection: OpaquePointer) -> [(String, String)] {
        var list: [(String, String)] = []
        withUnsafeMutablePointer(to: &list) { box in
            _ = mapsnap_mhd_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let list = cls.assumingMemoryBound(to: [(String, String)].self)
                list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return MHD_Result.YES
            }, box)
        }
        return list
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
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().completed(connection: connection, context: context, code: code)
}

/// libmicrohttpd's connection-notify callback: forwards to the `HTTPServer` passed as `cls`.
private func connectionHandler(cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
                               socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                               code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        .connectionChanged(connection, opened: code.rawValue == 0 /* MHD_CONNECTION_NOTIFY_STARTED */)
}

/// libmicrohttpd's messages, formatted by the shim: forwards to the `HTTPServer` in `context`.
private func logHandler(context: UnsafeMutableRawPointer?, text: UnsafePointer<CChar>?) {
    guard let context, let text else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().libraryMessage(String(cString: text))
}

/// Called by libmicrohttpd when it is done with a response: releases the body's storage
/// retained for it in `queue`.
private func releaseBody(owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<HTTPBody.Storage>.fromOpaque(owner).release()
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
        /// The client as the handler saw it (the peer, or who a trusted proxy forwarded).
        var clientAddress: String
        /// Body bytes counted in `HTTPServer.sendingBytes` until the exchange ends.
        var sendingBytes = 0
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
        state = Locked(State(connection: Int(bitPattern: UnsafeRawPointer(connection)), clientAddress: clientAddress))
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
    /// The libmicrohttpd header mapsnap was built against (`MHD_VERSION`, 0xMMmmpp00 →
    /// `M.m.p`), without loading it.
    static var headerVersion: String {
        let v = mapsnap_mhd_header_version()
        func part(_ shift: UInt) -> String { String((v >> shift) & 0xFF, radix: 16) }
        return "\(part(24)).\(part(16)).\(part(8))"
    }
}
