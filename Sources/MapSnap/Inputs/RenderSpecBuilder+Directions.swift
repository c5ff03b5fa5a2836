/// Directions settings (`--from`, `--to`, `--via`, `--mode`, `--alternatives`, `--avoid`,
/// `--units`, `--steps`, `--directions-json`; a spec's `"directions"`; a URL's `origin`, …).
extension RenderSpecBuilder {
    /// `--from PLACE`.
    package mutating func setDirectionsOrigin(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        directions.origin = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parsePlace(text, origin: origin, resolver: resolver) }
    }

    /// `--to PLACE`.
    package mutating func setDirectionsDestination(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        directions.destination = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parsePlace(text, origin: origin, resolver: resolver) }
    }

    /// `--via PLACE` (repeatable) or a URL's `waypoints=A|B`.
    package mutating func addDirectionsWaypoints(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        directions.waypoints += try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parseWaypoints(text, origin: origin, resolver: resolver) }
        guard directions.waypoints.count <= DirectionsRequest.maximumWaypointCount else {
            throw .syntax(.tooManyLocations(origin: origin, limit: DirectionsRequest.maximumWaypointCount))
        }
    }

    /// `--mode drive|walk|bike|transit`.
    package mutating func setTravelMode(_ text: String, origin: String) throws(RenderSpecError) {
        directions.transportType = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parseMode(text, origin: origin) }
    }

    /// `--alternatives N`.
    package mutating func setAlternatives(_ text: String, origin: String) throws(RenderSpecError) {
        directions.alternateCount = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parseAlternatives(text, origin: origin) }
    }

    /// `--avoid tolls,highways,ferries`.
    package mutating func setAvoid(_ text: String, origin: String) throws(RenderSpecError) {
        directions.avoid = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parseAvoid(text, origin: origin) }
    }

    /// `--units metric|imperial`.
    package mutating func setUnits(_ text: String, origin: String) throws(RenderSpecError) {
        directions.units = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try DirectionsQuery.parseUnits(text, origin: origin) }
    }

    /// `--directions-json FILE`: a saved answer, resolved and checked like other input files.
    package mutating func setDirectionsResponse(_ path: String, origin: String) throws(RenderSpecError) {
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
