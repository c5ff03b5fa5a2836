extension DirectionsQuery {
    /// The answer to draw: the saved one in `responseFile`, read and parsed (no network), or
    /// the `router`'s for `request()`.
    ///
    /// - Throws: `DirectionsError` (no router, no route, router faults), `InputFileError` for
    ///   an unreadable saved answer, `StaticMapsSyntaxError` when an end is missing.
    public func response(router: Router?, http: HTTPTileSource.Options = HTTPTileSource.Options(),
                         timeoutSeconds: Double? = nil) throws -> DirectionsResponse {
        if let file = responseFile {
            let bytes = try InputFile.read(file, limit: DirectionsResponseParser.maximumResponseBytes)
            var response = try DirectionsResponseParser(origin: file).parse(bytes)
            if let transportType { response.transportType = transportType }
            return response
        }
        let request = try request(origin: "--from/--to")
        guard let router else {
            throw DirectionsError.unsupported(origin: "--from/--to",
                                              reason: "directions need a routing engine: --router URL (or MAPSNAP_ROUTER), or a saved answer with --directions-json FILE")
        }
        return try DirectionsService(router: router, http: http).calculate(request, timeoutSeconds: timeoutSeconds)
    }

    /// How the answer is drawn: the mode asked for (else the one the answer says, else
    /// drive), the units, the maneuver dots.
    public func drawing(for response: DirectionsResponse) -> RouteDrawing {
        RouteDrawing(transportType: transportType ?? response.transportType ?? .drive, units: units ?? .metric, showsSteps: showsSteps)
    }

    /// The overlays of `response` as this query draws them (waypoints get numbered pins).
    public func overlays(for response: DirectionsResponse) -> [Overlay] {
        drawing(for: response).overlays(for: response, waypoints: waypoints)
    }
}
