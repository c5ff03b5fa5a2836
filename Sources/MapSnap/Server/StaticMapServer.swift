import Foundation
import Synchronization

/// A self-hosted Static Maps HTTP API over one shared `MapRenderer`.
///
/// Endpoints:
/// - `GET|HEAD /maps/api/staticmap?…` and `/staticmap?…`: Google's Static Maps parameters,
///   exactly what `mapsnap render --url` accepts (`maptype` names a configured style);
/// - `POST /render`: a JSON render spec (docs/spec-format.md) without file paths;
/// - `GET /health` (liveness), `GET /ready` (readiness: 503 while draining),
///   `GET /metrics` (Prometheus text), `GET /` (a page documenting the API).
///
/// Images carry `ETag` (canonical request + data version; `If-None-Match` gets `304` without
/// a render), `Cache-Control: public, max-age` and `X-Mapsnap-Detail`: the share of the image
/// with detailed map data (`MapCoverage.detailedFraction`, two decimals; renders under
/// 0.75 are counted in `mapsnap_renders_without_detail_total`). A map drawn without some of
/// its tiles is `Cache-Control: no-store` with `X-Missing-Tiles: failed/requested` and a tag
/// of its own. Errors are one line of text (JSON when the
/// client accepts `application/json`): `400` bad request (a limit, an unknown parameter),
/// `403` key, `404`, `405`, `413`, `414`, `429`/`503` with `Retry-After` when the render
/// queue is full, `503` when drawing outlasts the render timeout. With a router, maps may ask
/// for directions; its faults are `502`/`504` (see `route(_:router:mapRequest:identity:_:_:)`).
///
/// Renders run on `renderThreads` threads; socket I/O never does (see `HTTPServer`), so slow
/// clients cannot hold a render thread. The same request gives the same bytes as the CLI at
/// any concurrency: renders are deterministic and the renderer's caches never change output.
package final class StaticMapServer: Sendable {
    package let configuration: ServerConfiguration
    /// The renderer every request uses (styles, sources and tiles shared across requests).
    package let renderer: MapRenderer
    /// What `ETag`s depend on besides the request: version, configuration and data files.
    package let dataVersion: String
    /// The data directory whose regions the maps draw.
    let regions: DataDirectory

    let metrics = ServerMetrics()
    let queue: RenderQueue
    let responses: ResponseCache
    private let places: (any PlaceResolving)?
    /// Access-log lines on their way to `accessLog`, formatted and written by one thread:
    /// a blocked standard error drops (and counts) lines instead of delaying connections.
    private let logQueue: BoundedLogQueue<@Sendable () -> String>
    private let http = Locked<HTTPServer?>(nil)
    private let draining = Atomic<Bool>(false)
    /// The port bound by `start()` (the kernel's for port 0): icons never point at it.
    private let boundPort = Atomic<Int>(0)

    /// Paths of the map endpoints.
    static let staticMapPaths: Set<String> = ["/maps/api/staticmap", "/staticmap"]
    /// The response header giving `MapCoverage.detailedFraction`.
    static let detailHeader = "X-Mapsnap-Detail"
    /// The response header of a map drawn without some of its tiles: `failed/requested`.
    static let missingTilesHeader = "X-Missing-Tiles"
    /// Seconds clients are asked to wait when the queue is full.
    static let retryAfterSeconds = 1

    /// A server for `configuration`; nothing listens before `start()`.
    /// - Parameters:
    ///   - version: mapsnap's version, part of every `ETag`.
    ///   - places: resolves place names and addresses (default: the bundled Helsinki index
    ///     and GeoNames; `mapsnap serve` adds the data directory's region indexes).
    ///   - accessLog: receives one line per finished request (default: standard error).
    package init(configuration: ServerConfiguration, version: String, renderer: MapRenderer = MapRenderer(),
                places: (any PlaceResolving)? = PlaceResolver(indexPaths: []),
                accessLog: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.configuration = configuration
        self.renderer = renderer
        self.places = places
        logQueue = BoundedLogQueue { line in accessLog(line()) }
        dataVersion = Self.dataVersion(configuration: configuration, version: version)
        regions = DataDirectory.resolve(explicit: configuration.dataDirectory)
        responses = ResponseCache(budget: configuration.responseCacheBytes)
        queue = RenderQueue(threads: configuration.renderThreads, capacity: configuration.maximumConcurrentRequests,
                            perClientLimit: configuration.limits.maximumQueuedPerClient)
    }

    /// Starts listening; returns the address bound (with the kernel's port for port 0).
    @discardableResult
    package func start() throws(HTTPServerError) -> Int {
        // Fonts load before the first request, not during it.
        renderer.loadFonts()
        var settings = HTTPServer.Settings(address: configuration.listen)
        settings.connectionTimeoutSeconds = configuration.connectionTimeoutSeconds
        settings.maximumTargetLength = configuration.limits.maximumURLLength
        settings.maximumBodyBytes = configuration.limits.maximumBodyBytes
        let connections = configuration.connections
        settings.connectionLimit = connections.maximumConnections
        settings.perClientConnectionLimit = connections.maximumPerClient
        settings.headerTimeoutSeconds = Double(connections.headerTimeoutSeconds)
        settings.minimumBodyBytesPerSecond = connections.minimumBodyBytesPerSecond
        settings.maximumParameters = connections.maximumParameters
        settings.maximumSendingBytes = connections.maximumSendingBytes
        settings.sendBufferBytes = connections.sendBufferBytes
        settings.trustedProxies = Set(connections.trustedProxies)
        // Probes never wait behind costly requests on the handler threads.
        settings.immediatePaths = ["/health", "/ready"]
        let server = HTTPServer(settings: settings, handler: { [weak self] request, responder in
            guard let self else { return responder.respond(.text(503, "shutting down")) }
            self.handle(request, responder)
        }, completion: { [weak self] record in
            self?.finished(record)
        }, diagnostic: { [weak self] message in
            self?.libraryMessage(message)
        })
        let port = try server.start()
        boundPort.store(port, ordering: .relaxed)
        http.withLock { $0 = server }
        return port
    }

    /// True until `drain` begins.
    package var isReady: Bool { !draining.load(ordering: .acquiring) }

    /// Stops accepting connections, answers what was accepted, then stops — within
    /// `timeout` (plus a fraction of a second to close): renders still waiting then are
    /// answered `503` and dropped, renders still running are left to finish unwaited, and
    /// open connections are closed. Returns false when requests were cut off.
    @discardableResult
    package func drain(timeout: Duration = .seconds(30)) -> Bool {
        draining.store(true, ordering: .releasing)
        let server = http.withLock { $0 }
        server?.stopAccepting()
        let deadline = ContinuousClock.now + timeout
        var drained = true
        while (server?.activeExchanges ?? 0) > 0 {
            if ContinuousClock.now >= deadline {
                drained = false
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        if !queue.shutdown(until: deadline) { drained = false }
        server?.stop()
        http.withLock { $0 = nil }
        // The access-log lines of what was answered are written before returning.
        logQueue.flush(timeout: .milliseconds(500))
        return drained
    }

    // MARK: Routing

    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let cors = corsHeaders(request)
        let respond: @Sendable (HTTPResponse, String) -> Void = { response, note in
            var response = response
            response.headers += cors
            responder.respond(response, note: note)
        }
        let path = request.path
        let method = request.method
        if method == "OPTIONS" && !cors.isEmpty {
            return respond(HTTPResponse(status: 204, headers: [
                ("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"),
                ("Access-Control-Allow-Headers", "Content-Type, X-API-Key, If-None-Match"),
                ("Access-Control-Max-Age", "86400"),
            ]), "")
        }
        let allowed: [String]
        switch path {
        case "/": allowed = ["GET", "HEAD"]
        case "/health", "/ready", "/metrics": allowed = ["GET", "HEAD"]
        case "/render": allowed = ["POST"]
        default:
            guard Self.staticMapPaths.contains(path) else {
                return respond(errorResponse(404, "no such endpoint: \(path) (see GET /)", request), "")
            }
            allowed = ["GET", "HEAD"]
        }
        guard allowed.contains(method) else {
            var response = errorResponse(405, "\(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", ")))", request)
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return respond(response, "")
        }
        switch path {
        case "/":
            respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                                 body: Array(LandingPage.html(configuration: configuration).utf8)), "")
        case "/health":
            respond(.text(200, "ok", headers: [("Cache-Control", "no-store")]), "")
        case "/ready":
            respond(isReady ? .text(200, "ready", headers: [("Cache-Control", "no-store")])
                            : .text(503, "draining", headers: [("Cache-Control", "no-store"), ("Retry-After", "\(Self.retryAfterSeconds)")]), "")
        case "/metrics":
            respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                                 body: Array(metricsText().utf8)), "")
        default:
            handleMap(request, respond)
        }
    }

    /// A map request: key, parse, `ETag`/`304`, then a render thread.
    private func handleMap(_ request: HTTPRequest, _ respond: @escaping @Sendable (HTTPResponse, String) -> Void) {
        guard isReady else {
            return respond(errorResponse(503, "the server is shutting down", request,
                                         extra: [("Retry-After", "\(Self.retryAfterSeconds)"), ("Connection", "close")]), "")
        }
        if !configuration.apiKeys.isEmpty {
            let given = request.header("x-api-key") ?? request.query.last { $0.name == "key" }?.value
                .flatMap { StaticMapsURL.percentDecode(Substring($0)) }
            guard let given, configuration.apiKeys.contains(where: { Self.constantTimeEquals($0, given) }) else {
                return respond(errorResponse(403, given == nil ? "this server needs an API key (key= or X-API-Key)" : "the API key is not valid", request), "")
            }
        }
        let mapRequest: MapRequest
        do {
            let listening = ListenAddress(host: configuration.listen.host, port: boundPort.load(ordering: .relaxed),
                                          isIPv6: configuration.listen.isIPv6)
            mapRequest = request.method == "POST"
                ? try MapRequest(body: request.body, configuration: configuration, resolver: places, listening: listening)
                : try MapRequest(query: request.query, configuration: configuration, resolver: places, listening: listening)
        } catch {
            return respond(errorResponse(400, Self.publicMessage(String(describing: error)), request), "")
        }
        // Regions added, removed or rewritten while the server runs change the maps, and so
        // does a configured style or source file replaced: their stamps are read per request
        // (a directory listing and a few `stat`s), not once at start-up.
        let identity = [dataVersion, regions.stamp(), configuredFilesStamp()] + mapRequest.identity
        if let directions = mapRequest.directions, let router = configuration.router {
            // The router is asked on a render thread (a network call that may take seconds),
            // and the image's tag holds its answer, so it is known only after.
            return enqueue(request, respond) {
                self.route(directions, router: router, mapRequest: mapRequest, identity: identity, request, respond)
            }
        }
        let tag = EntityTag.make(identity)
        if let (response, note) = storedResponse(tag: tag, request) { return respond(response, note) }
        enqueue(request, respond) {
            self.draw(mapRequest, options: mapRequest.options, tag: tag, request, respond)
        }
    }

    /// `ETag` and `Cache-Control` of an image whose tag is `tag`.
    func cacheHeaders(_ tag: String) -> [(name: String, value: String)] {
        [("ETag", tag), ("Cache-Control", "public, max-age=\(configuration.cacheMaxAgeSeconds)")]
    }

    /// `304` when the client holds the image tagged `tag`, the kept image when the response
    /// cache has it; nil when it must be drawn.
    func storedResponse(tag: String, _ request: HTTPRequest) -> (HTTPResponse, String)? {
        if let condition = request.header("if-none-match"), EntityTag.matches(ifNoneMatch: condition, tag: tag) {
            metrics.recordNotModified()
            return (HTTPResponse(status: 304, headers: cacheHeaders(tag)), "etag=hit")
        }
        if let stored = responses.entry(for: tag) {
            return (HTTPResponse(status: 200, headers: [("Content-Type", stored.contentType)] + stored.headers + cacheHeaders(tag),
                                 body: stored.body), stored.note + " cache=hit")
        }
        return nil
    }

    /// Runs `work` on a render thread, or answers `429`/`503` when the queue refuses it.
    func enqueue(_ request: HTTPRequest, _ respond: @escaping @Sendable (HTTPResponse, String) -> Void,
                 _ work: @escaping @Sendable () -> Void) {
        do {
            try queue.submit(client: request.clientAddress, cancel: {
                respond(self.errorResponse(503, "the server is shutting down", request,
                                           extra: [("Retry-After", "\(Self.retryAfterSeconds)"), ("Connection", "close")]), "queue=cancelled")
            }, work)
        } catch .clientLimit {
            respond(errorResponse(429, "too many requests from \(request.clientAddress) in the queue; retry later", request,
                                  extra: [("Retry-After", "\(Self.retryAfterSeconds)")]), "queue=client-limit")
        } catch {
            respond(errorResponse(503, "the render queue is full; retry later", request,
                                  extra: [("Retry-After", "\(Self.retryAfterSeconds)")]), "queue=full")
        }
    }

    /// Draws `options` (the request's, with any routes added), keeps the image under `tag`
    /// and answers; on a render thread.
    func draw(_ mapRequest: MapRequest, options: MapSnapshotOptions, tag: String, _ request: HTTPRequest,
              _ respond: @escaping @Sendable (HTTPResponse, String) -> Void) {
        let cacheHeaders = cacheHeaders(tag)
        let snapshot: MapSnapshot
        let image: [UInt8]
        do {
            snapshot = try renderer.render(options)
            image = try snapshot.data(format: mapRequest.format, quality: mapRequest.quality)
        } catch RenderError.timedOut(let seconds) {
            metrics.recordRender(succeeded: false, tileErrors: 0)
            return respond(errorResponse(503, "the map could not be drawn within the server's render timeout of \(Int(seconds)) s; "
                                         + "retry later, or ask for a simpler map", request,
                                         extra: [("Retry-After", "\(Self.retryAfterSeconds)")]), "render=timeout")
        } catch RenderError.overlay(let error) {
            // An icon from an allowed host that failed: the message names the URL and the kind
            // of failure, never bytes of the reply (which could be any service's); a time-out
            // or an unreachable host is the environment's.
            metrics.recordRender(succeeded: false, tileErrors: 0)
            let (status, message) = Self.iconFailure(error)
            return respond(errorResponse(status, message, request,
                                         extra: status == 503 ? [("Retry-After", "\(Self.retryAfterSeconds)")] : []),
                           "render=icon-error")
        } catch let error as RenderError where error.isInputError {
            metrics.recordRender(succeeded: false, tileErrors: 0)
            return respond(errorResponse(400, Self.publicMessage(error.description), request), "render=error")
        } catch {
            metrics.recordRender(succeeded: false, tileErrors: 0)
            return respond(errorResponse(500, Self.publicMessage("render failed: \(error)"), request), "render=error")
        }
        let tiles = snapshot.baseMapTiles
        metrics.recordRender(succeeded: !tiles.nothingLoaded, tileErrors: tiles.failed,
                             lacksDetail: !tiles.nothingLoaded && snapshot.coverage.lacksDetail)
        logWarnings(snapshot.warnings, request)
        if tiles.nothingLoaded {
            // Every tile that exists failed (an unreachable tile server): not an image to cache.
            return respond(errorResponse(503, "no base-map tile could be read (\(tiles.failed) of \(tiles.requested) failed); retry later",
                                         request, extra: [("Retry-After", "5")]), "render=no-tiles")
        }
        let detail = Self.detailText(snapshot.coverage)
        var note = "style=\(mapRequest.styleName) format=\(mapRequest.format.rawValue) detail=\(detail)"
        if !snapshot.warnings.isEmpty { note += " warnings=\(snapshot.warnings.count)" }
        var imageHeaders = [(name: Self.detailHeader, value: detail)]
        // One copy of the image, shared by the cache and every response sending it.
        let body = HTTPBody(image)
        guard tiles.failed > 0 else {
            responses.store(ResponseCache.Entry(contentType: mapRequest.format.contentType, body: body, note: note,
                                                headers: imageHeaders), for: tag)
            return respond(HTTPResponse(status: 200, headers: [("Content-Type", mapRequest.format.contentType)] + imageHeaders + cacheHeaders,
                                        body: body), note)
        }
        // A map missing a tile could be whole next time: it is not kept here nor by any cache
        // downstream, and its tag is not the complete map's, so that a client holding it
        // never has it confirmed (`304`) once the tiles are back.
        let missing = "\(tiles.failed)/\(tiles.requested)"
        note += " tiles-missing=\(missing)"
        imageHeaders.append((Self.missingTilesHeader, missing))
        let incomplete: [(name: String, value: String)] = [
            ("ETag", EntityTag.make([tag, "missing tiles", missing])), ("Cache-Control", "no-store"),
        ]
        respond(HTTPResponse(status: 200, headers: [("Content-Type", mapRequest.format.contentType)] + imageHeaders + incomplete,
                             body: body), note)
    }

    // MARK: Responses

    /// The status and message for a marker icon that could not be used.
    static func iconFailure(_ error: OverlayError) -> (Int, String) {
        switch error {
        case .iconUnavailable(let url, let e) where e.isTransient:
            return (503, "markers: icon \(url): not fetched in time or the host could not be reached; retry later")
        case .iconUnavailable(let url, .refused):
            return (400, "markers: icon \(url): the icon host redirected elsewhere than the hosts this server fetches icons from "
                    + "(iconHosts), or to this server itself; the redirect was not followed")
        case .iconUnavailable(let url, _):
            return (400, "markers: icon \(url): the icon host answered with an error or with something not a PNG or JPEG image")
        case .unreadableIcon(let url, let reason) where reason.hasSuffix("(HTTP 404)"):
            return (400, "markers: icon \(url): the icon host has no such image (HTTP 404)")
        case .unreadableIcon(let url, _), .invalidIcon(let url, _):
            return (400, "markers: icon \(url): not a usable PNG or JPEG image (at most "
                    + "\(IconStore.maximumSide)×\(IconStore.maximumSide) px and \(IconStore.maximumRemoteBytes >> 20) MiB)")
        }
    }

    /// An error: the message as one line of text, or `{"error": {"status", "message"}}`
    /// when the client accepts JSON.
    func errorResponse(_ status: Int, _ message: String, _ request: HTTPRequest,
                       extra: [(name: String, value: String)] = []) -> HTTPResponse {
        let headers = extra + [("Cache-Control", "no-store")]
        if let accept = request.header("accept"), accept.lowercased().contains("application/json") {
            let json = "{\"error\":{\"status\":\(status),\"message\":\(JSONWriter.quoted(message))}}\n"
            return HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
        }
        return .text(status, message, headers: headers)
    }

    /// `0.08`, `1.00`: the detailed share of the image, two decimals, rounded down so that a
    /// map lacking any detail never reads `1.00`.
    static func detailText(_ coverage: MapCoverage) -> String {
        String(format: "%.2f", (coverage.detailedFraction * 100).rounded(.down) / 100)
    }

    /// CORS headers for a request whose `Origin` is allowed; none otherwise.
    private func corsHeaders(_ request: HTTPRequest) -> [(name: String, value: String)] {
        guard !configuration.corsOrigins.isEmpty else { return [] }
        if configuration.corsOrigins.contains("*") {
            return [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, \(Self.detailHeader), \(Self.missingTilesHeader)")]
        }
        guard let origin = request.header("origin"), configuration.corsOrigins.contains(origin) else {
            return [("Vary", "Origin")]
        }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"), ("Access-Control-Expose-Headers", "ETag, \(Self.detailHeader), \(Self.missingTilesHeader)")]
    }

    private func metricsText() -> String {
        let text = metrics.text(ServerMetrics.Gauges(rendersInFlight: queue.running, queueLength: queue.waiting,
                                                     queueCapacity: queue.capacity, renderer: renderer.statistics,
                                                     responses: responses.statistics, ready: isReady))
        let server = http.withLock { $0 }
        return text + """
            # HELP mapsnap_http_connections Connections open.
            # TYPE mapsnap_http_connections gauge
            mapsnap_http_connections \(server?.openConnections ?? 0)
            # HELP mapsnap_http_sending_bytes Bytes of response bodies being sent.
            # TYPE mapsnap_http_sending_bytes gauge
            mapsnap_http_sending_bytes \(server?.sendingBytes ?? 0)
            # HELP mapsnap_access_log_dropped_total Access-log lines dropped because the log could not keep up.
            # TYPE mapsnap_access_log_dropped_total counter
            mapsnap_access_log_dropped_total \(logQueue.droppedCount)

            """
    }

    /// One access-log line per finished exchange, and the request metrics. On the event
    /// loop: the line is formatted and written by the log queue's thread.
    private func finished(_ record: HTTPExchangeRecord) {
        let seconds = Double(record.duration.components.seconds) + Double(record.duration.components.attoseconds) * 1e-18
        metrics.recordRequest(status: record.status, seconds: seconds)
        let now = Date()
        logQueue.enqueue { Self.accessLogLine(record, seconds: seconds, time: now) }
    }

    /// Most warning lines one render writes to the log; the rest are counted in the last.
    static let maximumWarningLines = 20

    /// A render's warnings (a tile that failed, data over-zoomed or missing, a glyph no font
    /// has) as log lines beside the access log's, each naming the request: the operator sees
    /// what the client only sees as a poorer map. They go to the server's log, never to the
    /// client (they may quote bytes a tile server sent).
    private func logWarnings(_ warnings: [String], _ request: HTTPRequest) {
        guard !warnings.isEmpty else { return }
        let now = Date()
        let client = request.clientAddress, path = request.path
        var lines = Array(warnings.prefix(Self.maximumWarningLines))
        if warnings.count > lines.count { lines.append("\(warnings.count - lines.count) more warnings not shown") }
        for warning in lines {
            logQueue.enqueue {
                "{\"time\":\(JSONWriter.quoted(Self.timestamp(now))),\"client\":\(JSONWriter.quoted(client))"
                    + ",\"path\":\(JSONWriter.quoted(path)),\"warning\":\(JSONWriter.quoted(Self.oneLine(warning)))}"
            }
        }
    }

    /// A message of libmicrohttpd's (a connection refused at a limit) as a log line.
    private func libraryMessage(_ message: String) {
        let now = Date()
        logQueue.enqueue {
            "{\"time\":\(JSONWriter.quoted(Self.timestamp(now))),\"libmicrohttpd\":\(JSONWriter.quoted(message))}"
        }
    }

    private static func accessLogLine(_ record: HTTPExchangeRecord, seconds: Double, time: Date) -> String {
        var line = "{\"time\":\(JSONWriter.quoted(Self.timestamp(time)))"
        line += ",\"client\":\(JSONWriter.quoted(record.clientAddress))"
        line += ",\"method\":\(JSONWriter.quoted(record.method)),\"path\":\(JSONWriter.quoted(record.path))"
        line += ",\"status\":\(record.status),\"bytes\":\(record.bodyBytes)"
        line += ",\"ms\":\(String(format: "%.1f", seconds * 1000)),\"outcome\":\"\(record.outcome.rawValue)\""
        if !record.note.isEmpty { line += ",\"note\":\(JSONWriter.quoted(record.note))" }
        return line + "}"
    }

    // MARK: Helpers

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Compares without stopping at the first difference, so timing does not reveal a key.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0 && x.count == y.count
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// An error message fit for a client: one line, and no server file path (a path names
    /// the server's layout; the message keeps the file's name).
    static func publicMessage(_ text: String) -> String {
        let line = oneLine(text)
        guard let serverPath else { return line }
        return serverPath.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "$1")
    }

    /// An absolute path of two or more parts, not inside a URL (`https://host/a/b` is kept):
    /// the last part is captured.
    private static let serverPath: NSRegularExpression? = {
        let part = "[^\\s/\"'`,;()<>]+"
        return try? NSRegularExpression(pattern: "(?<![\\w:/.%~-])/(?:\(part)/)+(\(part))")
    }()

    /// The `FileStamp` of every configured style, source and DEM file, read per request: a
    /// file replaced while the server runs changes every `ETag` (and the renderer opens the
    /// new file: see `MapRenderer.setupKey`). A file that only a style file names (an
    /// `mbtiles://` source, a sprite sheet) counts once the renderer has prepared the style:
    /// the first map of the style is tagged without it, the next ones with it.
    func configuredFilesStamp() -> String {
        var parts: [String] = []
        for name in configuration.styles.keys.sorted() {
            guard let entry = configuration.styles[name] else { continue }
            // Bundled style names (`normal`) are no paths; configured paths are absolute.
            for path in [entry.style, entry.source, entry.dem].compactMap({ $0 }) where path.contains("/") && !path.contains("://") {
                parts.append(path + "=" + (FileStamp.of(path) ?? "none"))
            }
            // Files named only inside a style file (its sources, its sprite sheet), as far as
            // the renderer has read them.
            if entry.style.contains("/"), !entry.style.contains("://") {
                let inside = renderer.styleFilesStamp(style: entry.style)
                if !inside.isEmpty { parts.append(entry.style + " names " + inside) }
            }
        }
        return parts.joined(separator: "|")
    }

    /// mapsnap's version, the configuration text, and size and modification time of the
    /// bundled `Styles/` and `Data/` files (configured files: `configuredFilesStamp`).
    static func dataVersion(configuration: ServerConfiguration, version: String) -> String {
        var parts = [version, configuration.configurationText]
        let fm = FileManager.default
        func stamp(_ path: String) {
            guard let a = try? fm.attributesOfItem(atPath: path) else { return }
            let size = (a[.size] as? NSNumber)?.intValue ?? -1
            let date = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            parts.append("\(path):\(size)@\(date)")
        }
        for (folder, probe) in [("Styles", "normal.json"), ("Data", "world.mbtiles")] {
            guard case .success(let directory) = ResourceLocator.directory(named: folder, probe: probe) else { continue }
            for name in ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).sorted() { stamp(directory + "/" + name) }
        }
        return EntityTag.make(parts)
    }
}
