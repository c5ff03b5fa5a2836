/// GraphHopper's `/route` answer (https://docs.graphhopper.com/#operation/getRoute):
///
/// ```
/// {"paths": [{"distance": 4200.3, "time": 1080000, "points_encoded": true, "points": "<polyline>",
///             "instructions": [{"text", "distance", "time", "interval": [0, 3], "street_name"}],
///             "description"?}]}
/// ```
/// Distances in metres, times in **milliseconds**. Points are an encoded polyline at
/// precision 5 (or `points_encoded_multiplier` 1e6: precision 6), or GeoJSON when
/// `points_encoded=false`. A failure is `{"message": "Connection between locations not found", "hints": […]}`.
extension Reading {
    mutating func graphHopper(_ root: JSONObject) throws(DirectionsError) -> DirectionsResponse {
        guard root["paths"] != nil else {
            throw .noRoute(origin: parser.origin, reason: root["message"]?.stringValue ?? "no message")
        }
        var routes: [Route] = []
        for (i, path) in try objects(root, "paths", "").enumerated() where routes.count < DirectionsResponseParser.maximumRouteCount {
            routes.append(try graphHopperPath(path, "paths[\(i)]"))
        }
        return DirectionsResponse(routes: routes, format: .graphHopper)
    }

    private mutating func graphHopperPath(_ p: JSONObject, _ path: String) throws(DirectionsError) -> Route {
        if p["points_encoded"] == .bool(true) || p["points"]?.stringValue != nil, p["elevation"] == .bool(true) {
            throw invalid(join(path, "points"), "3D points (elevation=true) are not read; ask without elevation")
        }
        let line: [LatLng]
        let points = try value(p, "points", path)
        if let text = points.stringValue {
            let multiplier = p["points_encoded_multiplier"]?.numberValue ?? 1e5
            guard multiplier == 1e5 || multiplier == 1e6 else {
                throw invalid(join(path, "points_encoded_multiplier"), "expected 100000 or 1000000, found \(multiplier)")
            }
            line = try polyline(text, precision: multiplier == 1e6 ? 6 : 5, join(path, "points"))
        } else {
            line = try osrmGeometry(points, join(path, "points"), start: nil)
        }
        let instructions = try objects(p, "instructions", path, optional: true)
        try checkStepCount(instructions.count, path)
        var steps: [RouteStep] = []
        var streets: [(name: String, length: Double)] = []
        for (i, step) in instructions.enumerated() {
            let sPath = "\(path).instructions[\(i)]"
            let interval = try array(step, "interval", sPath)
            guard let first = interval.first?.numberValue, first >= 0, Int(first) < line.count else {
                throw invalid(join(sPath, "interval"), "expected [first, last] point indexes within the path's \(line.count) points")
            }
            let distance = try amount(step, "distance", sPath)
            steps.append(RouteStep(instructions: optionalString(step, "text") ?? "", distance: distance,
                                   expectedTravelTime: try amount(step, "time", sPath) / 1000, location: line[Int(first)]))
            if let name = step["street_name"]?.stringValue { streets.append((name, distance)) }
        }
        let description = p["description"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ")
        return Route(polyline: line, distance: try amount(p, "distance", path), expectedTravelTime: try amount(p, "time", path) / 1000,
                     name: description.flatMap { $0.isEmpty ? nil : $0 } ?? Self.mainStreets(streets), steps: steps)
    }
}
