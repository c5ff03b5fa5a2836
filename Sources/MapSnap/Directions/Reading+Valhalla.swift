/// Valhalla's `/route` answer (https://valhalla.github.io/valhalla/api/turn-by-turn/api-reference/):
///
/// ```
/// {"trip": {"units": "kilometers", "summary": {"length": 4.2, "time": 1080},
///           "legs": [{"shape": "<polyline6>", "summary": {…},
///                     "maneuvers": [{"instruction", "length", "time", "begin_shape_index", "street_names"}]}]},
///  "alternates": [{"trip": {…}}]}
/// ```
/// Lengths are in the trip's `units` (kilometres or miles); times in seconds. A failure is
/// `{"error_code": 442, "error": "No path could be found for input", "status_code": 400}`.
extension Reading {
    mutating func valhalla(_ root: JSONObject) throws(DirectionsError) -> DirectionsResponse {
        if root["trip"] == nil {
            let message = root["error"]?.stringValue ?? "unknown error"
            let code = root["error_code"]?.numberValue.map { " (error_code \(Int($0)))" } ?? ""
            throw .noRoute(origin: parser.origin, reason: message + code)
        }
        var routes = [try valhallaTrip(try object(root, "trip", ""), "trip")]
        for (i, alternate) in try objects(root, "alternates", "", optional: true).enumerated()
        where routes.count < DirectionsResponseParser.maximumRouteCount {
            routes.append(try valhallaTrip(try object(alternate, "trip", "alternates[\(i)]"), "alternates[\(i)].trip"))
        }
        let mode = try objects(try object(root, "trip", ""), "legs", "trip").first
            .flatMap { try? objects($0, "maneuvers", "", optional: true).first?["travel_mode"]?.stringValue }
        return DirectionsResponse(routes: routes, format: .valhalla, transportType: mode.flatMap(Self.valhallaMode))
    }

    /// Valhalla's `travel_mode` of a maneuver.
    static func valhallaMode(_ mode: String) -> TransportType? {
        switch mode {
        case "drive": .drive
        case "pedestrian": .walk
        case "bicycle": .bike
        case "transit": .transit
        default: nil
        }
    }

    private mutating func valhallaTrip(_ trip: JSONObject, _ path: String) throws(DirectionsError) -> Route {
        if let status = trip["status"]?.numberValue, status != 0 {
            throw .noRoute(origin: parser.origin, reason: trip["status_message"]?.stringValue ?? "trip status \(Int(status))")
        }
        let metres: Double
        switch trip["units"]?.stringValue ?? "kilometers" {
        case "kilometers", "km": metres = 1000
        case "miles", "mi": metres = 1609.344
        case let other: throw invalid(join(path, "units"), "unknown units '\(other)'")
        }
        let summary = try object(trip, "summary", path)
        var lines: [[LatLng]] = []
        var steps: [RouteStep] = []
        var streets: [(name: String, length: Double)] = []
        for (l, leg) in try objects(trip, "legs", path).enumerated() {
            let legPath = "\(path).legs[\(l)]"
            let shape = try polyline(try string(leg, "shape", legPath), precision: 6, join(legPath, "shape"))
            let maneuvers = try objects(leg, "maneuvers", legPath, optional: true)
            try checkStepCount(steps.count + maneuvers.count, legPath)
            for (m, maneuver) in maneuvers.enumerated() {
                let mPath = "\(legPath).maneuvers[\(m)]"
                let index = Int(try amount(maneuver, "begin_shape_index", mPath))
                guard index < shape.count else {
                    throw invalid(join(mPath, "begin_shape_index"), "\(index) is past the leg's \(shape.count) points")
                }
                let length = try amount(maneuver, "length", mPath) * metres
                steps.append(RouteStep(instructions: optionalString(maneuver, "instruction") ?? "",
                                       distance: length, expectedTravelTime: try amount(maneuver, "time", mPath),
                                       location: shape[index]))
                if let name = maneuver["street_names"]?.arrayValue?.first?.stringValue { streets.append((name, length)) }
            }
            lines.append(shape)
        }
        return Route(polyline: Self.joined(lines), distance: try amount(summary, "length", join(path, "summary")) * metres,
                     expectedTravelTime: try amount(summary, "time", join(path, "summary")),
                     name: Self.mainStreets(streets), steps: steps)
    }

    /// The names of the two streets the route runs longest on, in route order ("Mannerheimintie,
    /// Aleksanterinkatu"): what Google's `summary` and MapKit's `name` give.
    static func mainStreets(_ streets: [(name: String, length: Double)]) -> String {
        var total: [String: Double] = [:]
        var order: [String] = []
        for s in streets where !s.name.isEmpty {
            if total[s.name] == nil { order.append(s.name) }
            total[s.name, default: 0] += s.length
        }
        let top = order.enumerated().sorted { a, b in
            let x = total[a.element] ?? 0, y = total[b.element] ?? 0
            return x != y ? x > y : a.offset < b.offset
        }.prefix(2).sorted { $0.offset < $1.offset }
        return top.map(\.element).joined(separator: ", ")
    }
}
