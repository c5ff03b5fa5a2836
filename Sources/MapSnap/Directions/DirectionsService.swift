/// Asks a routing engine for directions: MapKit's `MKDirections.calculate`, synchronously,
/// through the same HTTP layer as tiles (libcurl, the request timeout, bounded retries of
/// connection failures and 5xx, a body size cap, the per-host circuit breaker).
///
/// Answers are never cached: a route depends on the engine's data of the day, and a failure
/// must be seen as one. Errors:
/// - unreachable, 5xx, 401/403 → `.routerUnavailable`, no answer in time → `.routerTimedOut`
///   (runtime failures);
/// - the engine's "no route" (a 4xx with its reason, or an answer with no routes) → `.noRoute`;
/// - a body over `DirectionsResponseParser.maximumResponseBytes` or too many points → `.tooLarge`.
public struct DirectionsService: Sendable {
/// The engine asked, and where.
    public var router: Router
    /// Timeouts, retries and limits of the HTTP layer (`timeout`, `maxRetries`, …); caching
    /// and `offline` do not apply.
    public var http: HTTPTileSource.Options
    /// Most points all answered routes may have together.
    public var maximumPointCount = DirectionsResponseParser.defaultMaximumPointCount

/// A service asking `router` through the HTTP layer with `http`'s timeouts and limits.
    public init(router: Router, http: HTTPTileSource.Options = HTTPTileSource.Options()) {
        self.router = router
        self.http = http
    }

    /// The engine's routes for `request`, best first.
    public func calculate(_ request: DirectionsRequest, timeoutSeconds: Double? = nil) throws(DirectionsError) -> DirectionsResponse {
        let url: String
        switch router.url(for: request) {
        case .success(let u): url = u
        case .failure(let e): throw e
        }
        let name = router.description
        var options = http
        options.maxTileBytes = DirectionsResponseParser.maximumResponseBytes
        let downloader = TileDownloader(options: options, gate: .shared, budget: .shared, keepsClientErrorBodies: true)
        let result: TileDownloader.Download
        do {
            result = try downloader.download(url, deadline: .after(seconds: timeoutSeconds))
        } catch {
            throw Self.failure(error, router: name)
        }
        switch result {
        case .absent:
            throw .routerUnavailable(router: name, reason: "HTTP 404: no route service at this URL (is it a \(router.engine.format.displayName) server?)")
        case .clientError(let status):
            throw .routerUnavailable(router: name, reason: "HTTP \(status)")
        case .notModified:
            // Only a conditional request (a cached copy revalidated) can be answered 304, and
            // routes are never cached: a router answering it is broken.
            throw .routerUnavailable(router: name, reason: "HTTP 304 to a request that was not conditional")
        case .body(let body, let reserved, let details):
            defer { downloader.budget.release(reserved) }
            if details.status == 401 || details.status == 403 || details.status == 429 {
                throw .routerUnavailable(router: name, reason: "HTTP \(details.status)\(details.status == 429 ? " (rate limited)" : " (an API key missing or refused?)")")
            }
            var parser = DirectionsResponseParser(origin: name, fromRouter: true, maximumPointCount: maximumPointCount)
            parser.maximumPointCount = maximumPointCount
            do {
                var response = try parser.parse(body)
                if response.transportType == nil { response.transportType = request.transportType }
                return response
            } catch .noRoute(let origin, let reason) where router.engine == .valhalla && request.transportType == .transit {
                throw transitFailure(request, origin: origin, reason: reason, timeoutSeconds: timeoutSeconds)
            } catch {
                // A 4xx that is not the engine's own "no route" is the router refusing us.
                if details.status >= 400, case .invalidResponse = error {
                    throw .routerUnavailable(router: name, reason: "HTTP \(details.status): \(Self.excerpt(body))")
                }
                throw error
            }
        }
    }

    /// Why Valhalla found no transit route. Its multimodal costing needs public-transport
    /// data (GTFS feeds built into its tiles with `valhalla_ingest_transit`); without any it
    /// answers "Locations are in unconnected regions", which says nothing of the cause. So
    /// the engine's `/transit_available` is asked about both ends: when neither has a stop
    /// within a kilometre, the message says so. Otherwise (or when that cannot be asked) the
    /// engine's own reason stands.
    func transitFailure(_ request: DirectionsRequest, origin: String, reason: String, timeoutSeconds: Double?) -> DirectionsError {
        let noRoute = DirectionsError.noRoute(origin: origin, reason: reason)
        var base = router.baseURL
        var query = ""
        if let q = base.firstIndex(of: "?") {
            query = "&" + base[base.index(after: q)...]
            base = String(base[..<q])
        }
        let locations = [request.source, request.destination].map {
            "{\"lat\":\(Router.number($0.latitude)),\"lon\":\(Router.number($0.longitude)),\"radius\":1000}"
        }.joined(separator: ",")
        var options = http
        options.maxTileBytes = 1 << 16
        options.maxRetries = 0
        let downloader = TileDownloader(options: options, gate: .shared, budget: .shared, keepsClientErrorBodies: true)
        guard case .body(let body, let reserved, _)? = try? downloader.download(
            base + "/transit_available?json=" + Router.escape("{\"locations\":[\(locations)]}") + query,
            deadline: .after(seconds: timeoutSeconds)) else { return noRoute }
        defer { downloader.budget.release(reserved) }
        guard case .array(let answers)? = try? JSONValue.parse(body, origin: origin), answers.count == 2 else { return noRoute }
        let withTransit = answers.map { answer -> Bool in
            if case .object(let o) = answer, case .bool(let b)? = o["istransit"] { return b }
            return true
        }
        guard !withTransit.contains(true) else { return noRoute }
        return .unsupported(origin: origin, reason: "no transit route: the engine has no public-transport data near either end "
                            + "(its tiles were built without GTFS feeds; see valhalla_ingest_transit), so it can route drive, walk and bike only")
    }

    /// What the transfer layer's failure means here, said without the (long) request URL.
    static func failure(_ error: HTTPTileSourceError, router: String) -> DirectionsError {
        switch error {
        case let .bodyTooLarge(_, size, limit):
            return .tooLarge(origin: router, what: "bytes", count: size, limit: limit, fromRouter: true)
        case let .connectionFailed(_, reason, attempts):
            return .routerUnavailable(router: router, reason: "unreachable: \(reason)\(attempts > 1 ? " (\(attempts) attempts)" : "")")
        case let .timedOut(_, seconds, attempts):
            return .routerTimedOut(router: router, reason: "no answer within \(JSONWriter.format(seconds)) s\(attempts > 1 ? " (\(attempts) attempts)" : "")")
        case let .serverError(_, status, attempts):
            return .routerUnavailable(router: router, reason: "HTTP \(status)\(attempts > 1 ? " (\(attempts) attempts)" : "")")
        case .deadlineExceeded:
            return .routerTimedOut(router: router, reason: "no answer before the deadline")
        case let .hostUnavailable(_, _, failures, _):
            return .routerUnavailable(router: router, reason: "unreachable (\(failures) failures in a row)")
        default:
            return .routerUnavailable(router: router, reason: error.description)
        }
    }

    /// The start of a body, printable, for a message.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(160), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.isEmpty ? "empty body" : text
    }
}
