/// Google's Directions API answer (https://developers.google.com/maps/documentation/directions/get-directions):
///
/// ```
/// {"status": "OK", "geocoded_waypoints": […],
///  "routes": [{"summary": "Mannerheimintie", "overview_polyline": {"points": "<polyline>"},
///              "legs": [{"distance": {"value": 4213, "text"}, "duration": {"value": 1080, "text"},
///                        "steps": [{"html_instructions", "distance": {"value"}, "duration": {"value"},
///                                   "start_location": {"lat", "lng"}, "polyline": {"points"}}]}]}]}
/// ```
/// Values in metres and seconds. The drawn line joins the steps' own polylines (full
/// detail); the overview (simplified) is used when a step has none. A failure is a `status`
/// other than `OK` (`ZERO_RESULTS`, `NOT_FOUND`, …) with an optional `error_message`.
extension Reading {
    mutating func google(_ root: JSONObject) throws(DirectionsError) -> DirectionsResponse {
        let status = try string(root, "status", "")
        guard status == "OK" else {
            let message = root["error_message"]?.stringValue.map { ": \($0)" } ?? ""
            throw .noRoute(origin: parser.origin, reason: status + message)
        }
        var routes: [Route] = []
        for (i, route) in try objects(root, "routes", "").enumerated() where routes.count < DirectionsResponseParser.maximumRouteCount {
            routes.append(try googleRoute(route, "routes[\(i)]"))
        }
        return DirectionsResponse(routes: routes, format: .google, transportType: nil)
    }

    private mutating func googleRoute(_ route: JSONObject, _ path: String) throws(DirectionsError) -> Route {
        var distance = 0.0, duration = 0.0
        var steps: [RouteStep] = []
        var lines: [[LatLng]] = []
        var detailed = true
        for (l, leg) in try objects(route, "legs", path).enumerated() {
            let legPath = "\(path).legs[\(l)]"
            distance += try amount(try object(leg, "distance", legPath), "value", join(legPath, "distance"))
            duration += try amount(try object(leg, "duration", legPath), "value", join(legPath, "duration"))
            let legSteps = try objects(leg, "steps", legPath, optional: true)
            try checkStepCount(steps.count + legSteps.count, legPath)
            for (s, step) in legSteps.enumerated() {
                let sPath = "\(legPath).steps[\(s)]"
                steps.append(RouteStep(
                    instructions: Self.plainText(optionalString(step, "html_instructions") ?? ""),
                    distance: try amount(try object(step, "distance", sPath), "value", join(sPath, "distance")),
                    expectedTravelTime: try amount(try object(step, "duration", sPath), "value", join(sPath, "duration")),
                    location: try latLngObject(step, "start_location", sPath)))
                if detailed, let points = step["polyline"]?.objectValue?["points"]?.stringValue {
                    lines.append(try polyline(points, precision: 5, "\(sPath).polyline.points"))
                } else {
                    detailed = false
                }
            }
            if legSteps.isEmpty { detailed = false }
        }
        let line: [LatLng]
        if detailed, !lines.isEmpty {
            line = Self.joined(lines)
        } else {
            let overview = try object(route, "overview_polyline", path)
            line = try polyline(try string(overview, "points", join(path, "overview_polyline")), precision: 5,
                                "\(path).overview_polyline.points")
        }
        return Route(polyline: line, distance: distance, expectedTravelTime: duration,
                     name: optionalString(route, "summary") ?? "", steps: steps)
    }

    /// Google's `html_instructions` as plain text: tags dropped (a `<div>` starts a new
    /// sentence), the common entities decoded, spaces collapsed.
    static func plainText(_ html: String) -> String {
        var out = ""
        var inTag = false
        var tag = ""
        for c in html {
            if inTag {
                if c == ">" {
                    inTag = false
                    if tag.lowercased().hasPrefix("div") { out += ". " }
                } else {
                    tag.append(c)
                }
            } else if c == "<" {
                inTag = true
                tag = ""
            } else {
                out.append(c)
            }
        }
        for (entity, text) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: text)
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: " .", with: ".")
    }
}
