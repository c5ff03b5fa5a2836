import Foundation

/// Map requests that ask for directions (`origin=…&destination=…`, a spec's `"directions"`):
/// the configured router is asked on a render thread, then the routes are drawn like the CLI's.
///
/// The image's `ETag` holds the router (engine and URL) and a digest of its answer, not only
/// the request: the same question gives another route when the engine's data changes, and a
/// client or the response cache must not keep the old image under the same tag. So a
/// conditional request still asks the router, but a route that has not changed is answered
/// `304` (or from the response cache) without drawing.
///
/// Router faults are the gateway's: `502` when the engine cannot be reached, fails or
/// answers something unusable or over the limits, `504` when it does not answer within
/// `routerTimeoutSeconds`. The engine's own "no route" (and a mode it cannot route) is the
/// request's: `400` with the engine's reason. None of them is cached (`no-store`, and
/// nothing is kept in the response cache). Messages name the engine, never its URL.
extension StaticMapServer {
    /// Asks `router` for `directions`, then answers from the caches or draws; on a render thread.
    func route(_ directions: DirectionsQuery, router: Router, mapRequest: MapRequest, identity: [String],
               _ request: HTTPRequest, _ respond: @escaping @Sendable (HTTPResponse, String) -> Void) {
        let answer: DirectionsResponse
        do {
            answer = try self.answer(directions, router: router, http: mapRequest.options.http)
        } catch {
            let (status, message) = Self.routerFailure(error, engine: router.engine)
            let extra: [(name: String, value: String)] = status == 400 ? [] : [("Retry-After", "\(Self.retryAfterSeconds)")]
            return respond(errorResponse(status, message, request, extra: extra),
                           "router=\(status == 400 ? "no-route" : "fault") " + Self.oneLine(error.description))
        }
        let tag = EntityTag.make(identity + ["router", router.description, Self.fingerprint(answer)])
        if let (response, note) = storedResponse(tag: tag, request) { return respond(response, note) }
        var options = mapRequest.options
        options.overlays += directions.overlays(for: answer)
        do {
            try MapRequest.checkLimits(options, configuration.limits)
        } catch {
            return respond(errorResponse(400, "directions: with its routes, " + error.description, request), "router=over-limits")
        }
        draw(mapRequest, options: options, tag: tag, request, respond)
    }

    /// The router's answer, its points within the server's limit and its time within
    /// `routerTimeoutSeconds` (one retry of a refused connection or a 5xx inside it).
    private func answer(_ directions: DirectionsQuery, router: Router, http: HTTPTileSource.Options) throws(DirectionsError) -> DirectionsResponse {
        let request: DirectionsRequest
        do {
            request = try directions.request(origin: "directions")
        } catch {
            throw .unsupported(origin: "directions", reason: error.description)
        }
        var options = http
        options.timeout = configuration.routerTimeoutSeconds
        options.maxRetries = 1
        var service = DirectionsService(router: router, http: options)
        service.maximumPointCount = min(service.maximumPointCount, configuration.limits.maximumPointCount)
        return try service.calculate(request, timeoutSeconds: configuration.routerTimeoutSeconds)
    }

    /// The status and client message for a failed directions request.
    static func routerFailure(_ error: DirectionsError, engine: Router.Engine) -> (Int, String) {
        let name = engine.format.displayName
        switch error {
        case .routerTimedOut:
            return (504, "directions: the routing engine (\(name)) did not answer in time; retry later")
        case .routerUnavailable:
            return (502, "directions: the routing engine (\(name)) could not be reached or failed; retry later")
        case let .tooLarge(_, what, count, limit, _):
            return (502, "directions: the routing engine's answer has \(count) \(what), more than this server's limit of \(limit)")
        case let .invalidResponse(_, keyPath, reason, _):
            return (502, "directions: the routing engine (\(name)) gave no usable answer\(keyPath.isEmpty ? "" : " at \(keyPath)"): \(reason)")
        case let .noRoute(_, reason):
            return (400, "directions: no route: \(reason)")
        case let .unsupported(_, reason):
            return (400, "directions: \(reason)")
        }
    }

    /// Everything of an answer that the drawing depends on, as text (for the `ETag`): per
    /// route its line, length, time, name and steps, in the engine's numbers.
    static func fingerprint(_ answer: DirectionsResponse) -> String {
        var text = "\(answer.format.rawValue) \(answer.transportType?.rawValue ?? "-")"
        for route in answer.routes {
            text += "\nroute \(route.distance) \(route.expectedTravelTime) \(JSONWriter.quoted(route.name))\n"
            for p in route.polyline { text += "\(p.latitude),\(p.longitude);" }
            for step in route.steps {
                text += "\nstep \(step.distance) \(step.expectedTravelTime) \(step.location.latitude),\(step.location.longitude) "
                    + JSONWriter.quoted(step.instructions)
            }
        }
        return text
    }
}
