/// Directions settings (`--from`, `--to`, `--via`, `--mode`, `--alternatives`, `--avoid`,
/// `--units`, `--steps`, `--directions-json`; a spec's `"directions"`; a URL's `origin`, …).
extension RenderSpecBuilder {
    /// `--from PLACE`.
    package mutating func setDirectionsOrigin(_ text: String, origin: String) throws {
        directions.origin = try DirectionsQuery.parsePlace(text, origin: origin, resolver: resolver)
    }

    /// `--to PLACE`.
    package mutating func setDirectionsDestination(_ text: String, origin: String) throws {
        directions.destination = try DirectionsQuery.parsePlace(text, origin: origin, resolver: resolver)
    }

    /// `--via PLACE` (repeatable) or a URL's `waypoints=A|B`.
    package mutating func addDirectionsWaypoints(_ text: String, origin: String) throws {
        directions.waypoints += try DirectionsQuery.parseWaypoints(text, origin: origin, resolver: resolver)
        guard directions.waypoints.count <= DirectionsRequest.maximumWaypointCount else {
            throw StaticMapsSyntaxError.tooManyLocations(origin: origin, limit: DirectionsRequest.maximumWaypointCount)
        }
    }

    /// `--mode drive|walk|bike|transit`.
    package mutating func setTravelMode(_ text: String, origin: String) throws {
        directions.transportType = try DirectionsQuery.parseMode(text, origin: origin)
    }

    /// `--alternatives N`.
    package mutating func setAlternatives(_ text: String, origin: String) throws {
        directions.alternateCount = try DirectionsQuery.parseAlternatives(text, origin: origin)
    }

    /// `--avoid tolls,highways,ferries`.
    package mutating func setAvoid(_ text: String, origin: String) throws {
        directions.avoid = try DirectionsQuery.parseAvoid(text, origin: origin)
    }

    /// `--units metric|imperial`.
    package mutating func setUnits(_ text: String, origin: String) throws {
        directions.units = try DirectionsQuery.parseUnits(text, origin: origin)
    }

    /// `--directions-json FILE`: a saved answer, resolved and checked like other input files.
    package mutating func setDirectionsResponse(_ path: String, origin: String) throws {
        directions.responseFile = try checkedPath(path.trimmingASCIIWhitespace(), origin: origin)
    }

    /// A URL's or spec's directions merged in (later values win, waypoints add up).
    mutating func mergeDirections(_ other: DirectionsQuery) {
        if let o = other.origin { directions.origin = o }
        if let d = other.destination { directions.destination = d }
        directions.waypoints += other.waypoints
        if let m = other.transportType { directions.transportType = m }
        if let a = other.alternateCount { directions.alternateCount = a }
        if !other.avoid.isEmpty { directions.avoid = other.avoid }
        if let u = other.units { directions.units = u }
    }
}
