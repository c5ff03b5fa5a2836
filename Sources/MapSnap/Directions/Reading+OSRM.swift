/// OSRM's `/route/v1` answer (http://project-osrm.org/docs/v5.24.0/api/#route-service) and
/// Mapbox's Directions API v5, which keeps OSRM's shape:
///
/// ```
/// {"code": "Ok", "routes": [{"geometry": "<polyline>" | {"type": "LineString", …},
///                            "distance": 4200.1, "duration": 1080.5,
///                            "legs": [{"summary", "steps": [{"distance", "duration", "name",
///                                      "maneuver": {"location": [lon, lat], "type", "modifier", "instruction"?}}]}]}],
///  "waypoints": [{"location": [lon, lat], "name"}]}
/// ```
/// Distances in metres, durations in seconds. Encoded geometries are precision 5 by default
/// (`geometries=polyline`) or 6 (`polyline6`); the answer does not say which, so the
/// precision whose first point lies nearer the first waypoint wins. OSRM writes no
/// instructions: they are made from the maneuver's type, modifier and street name.
/// A failure is `{"code": "NoRoute", "message": "Impossible route between points"}`.
extension Reading {
    mutating func osrm(_ root: JSONObject, format: DirectionsFormat) throws(DirectionsError) -> DirectionsResponse {
        let code = try string(root, "code", "")
        guard code == "Ok" else {
            throw .noRoute(origin: parser.origin, reason: "\(root["message"]?.stringValue ?? "no message") (code \(code))")
        }
        let start = try objects(root, "waypoints", "", optional: true).first.flatMap { w in
            w["location"].flatMap { try? lonLat($0, "waypoints[0].location") }
        }
        var routes: [Route] = []
        for (i, route) in try objects(root, "routes", "").enumerated() where routes.count < DirectionsResponseParser.maximumRouteCount {
            routes.append(try osrmRoute(route, "routes[\(i)]", start: start))
        }
        return DirectionsResponse(routes: routes, format: format)
    }

    private mutating func osrmRoute(_ route: JSONObject, _ path: String, start: LatLng?) throws(DirectionsError) -> Route {
        let line = try osrmGeometry(try value(route, "geometry", path), join(path, "geometry"), start: start)
        var steps: [RouteStep] = []
        var summaries: [String] = []
        for (l, leg) in try objects(route, "legs", path, optional: true).enumerated() {
            let legPath = "\(path).legs[\(l)]"
            if let s = leg["summary"]?.stringValue, !s.isEmpty { summaries.append(s) }
            let legSteps = try objects(leg, "steps", legPath, optional: true)
            try checkStepCount(steps.count + legSteps.count, legPath)
            for (s, step) in legSteps.enumerated() {
                let sPath = "\(legPath).steps[\(s)]"
                let maneuver = try object(step, "maneuver", sPath)
                let location = try lonLat(try value(maneuver, "location", join(sPath, "maneuver")), "\(sPath).maneuver.location")
                let text = optionalString(maneuver, "instruction")
                    ?? Self.osrmInstruction(type: optionalString(maneuver, "type") ?? "", modifier: optionalString(maneuver, "modifier"),
                                            name: optionalString(step, "name") ?? "")
                steps.append(RouteStep(instructions: text, distance: try amount(step, "distance", sPath),
                                       expectedTravelTime: try amount(step, "duration", sPath), location: location))
            }
        }
        return Route(polyline: line, distance: try amount(route, "distance", path),
                     expectedTravelTime: try amount(route, "duration", path), name: summaries.joined(separator: "; "), steps: steps)
    }

    /// A route or step geometry: an encoded polyline (precision told by `start`) or GeoJSON.
    mutating func osrmGeometry(_ value: JSONValue, _ path: String, start: LatLng?) throws(DirectionsError) -> [LatLng] {
        if let text = value.stringValue {
            guard let start else { return try polyline(text, precision: 5, path) }
            // Decode at 5 without counting, compare with 6: a precision-6 line read at 5 lands
            // ten times farther from the equator and the meridian.
            let five = (try? EncodedPolyline.decode(text, precision: 5)) ?? []
            let six = (try? EncodedPolyline.decode(text, precision: 6)) ?? []
            let distance: (LatLng?) -> Double = { p in
                guard let p else { return .infinity }
                return abs(p.latitude - start.latitude) + abs(p.longitude - start.longitude)
            }
            return try polyline(text, precision: distance(six.first) < distance(five.first) ? 6 : 5, path)
        }
        guard let geometry = value.objectValue else { throw invalid(path, "expected a polyline string or a GeoJSON LineString") }
        guard geometry["type"]?.stringValue == "LineString" else {
            throw invalid(join(path, "type"), "expected \"LineString\", found \(geometry["type"]?.excerpt ?? "nothing")")
        }
        return try lonLatArray(try array(geometry, "coordinates", path), join(path, "coordinates"))
    }

    /// An instruction in words from an OSRM maneuver: "Turn left onto Mannerheimintie".
    static func osrmInstruction(type: String, modifier: String?, name: String) -> String {
        let onto = name.isEmpty ? "" : " onto \(name)"
        switch type {
        case "depart": return name.isEmpty ? "Depart" : "Head \(modifier.map { $0 + " " } ?? "")on \(name)"
        case "arrive": return "Arrive at your destination"
        case "roundabout", "rotary": return "Enter the roundabout" + (name.isEmpty ? "" : " and exit onto \(name)")
        case "continue", "new name": return "Continue" + onto
        case "": return name.isEmpty ? "Continue" : "Continue on \(name)"
        default:
            let verb = type.prefix(1).uppercased() + type.dropFirst()
            return verb + (modifier.map { " \($0)" } ?? "") + onto
        }
    }
}
