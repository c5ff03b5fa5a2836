/// "From here to there": the directions part of a render as the user wrote it (`--from`,
/// `--to`, `--via`, `--mode`, …; a spec's `"directions"`; a Static Maps URL's `origin`,
/// `destination`, `waypoints`, `mode`, `alternatives`), places already resolved.
///
/// A front end turns it into a `DirectionsRequest` for a router (`request()`), or reads the
/// saved answer in `responseFile`, then draws the routes with `RouteDrawing`.
public struct DirectionsQuery: Sendable, Hashable {
    /// Where the route starts (`--from`, `origin`).
    public var origin: LatLng?
    /// Where it ends (`--to`, `destination`).
    public var destination: LatLng?
    /// Stops between origin and destination, in order.
    public var waypoints: [LatLng] = []
    /// nil: drive (or what a saved answer says).
    public var transportType: TransportType?
    /// Alternates asked for besides the best route (nil: none).
    public var alternateCount: Int?
    /// Road features the route keeps off (`--avoid`).
    public var avoid: Set<DirectionsRequest.RoadFeature> = []
    /// Units of the time-and-distance callout (nil: metric).
    public var units: TravelSummary.Units?
    /// A saved directions answer to draw instead of asking a router (`--directions-json`).
    public var responseFile: String?
    /// Draw numbered dots at the maneuvers (`--steps`).
    public var showsSteps = false

    /// Nothing asked yet.
    public init() {}

    /// Nothing about directions was said.
    public var isEmpty: Bool {
        origin == nil && destination == nil && waypoints.isEmpty && responseFile == nil
    }

    /// The request to send a router; `origin` names the input in the error when an end is missing.
    public func request(origin name: String = "directions") throws(StaticMapsSyntaxError) -> DirectionsRequest {
        guard let origin, let destination else {
            throw .badValue(origin: name, key: nil, text: "",
                            reason: "directions need both an origin and a destination (--from and --to)")
        }
        return DirectionsRequest(source: origin, destination: destination, waypoints: waypoints,
                                 transportType: transportType ?? .drive, alternateCount: alternateCount ?? 0, avoid: avoid)
    }

    // MARK: Parsing the written forms

    /// `drive|walk|bike|transit`, or Google's `driving|walking|bicycling|transit`.
    public static func parseMode(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> TransportType {
        guard let mode = TransportType(name: text.trimmingASCIIWhitespace()) else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "expected \(TransportType.acceptedNames)")
        }
        return mode
    }

    /// `0`…`3`, or Google's `true` (= 2) / `false` (= 0).
    public static func parseAlternatives(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Int {
        let t = text.trimmingASCIIWhitespace().lowercased()
        if t == "true" { return 2 }
        if t == "false" { return 0 }
        guard let n = Int(t), (0...DirectionsRequest.maximumAlternateCount).contains(n) else {
            throw .badValue(origin: origin, key: nil, text: text,
                            reason: "expected 0-\(DirectionsRequest.maximumAlternateCount), true or false")
        }
        return n
    }

    /// `tolls,highways,ferries` (commas or `|`, any subset); Google's `indoor` is ignored.
    public static func parseAvoid(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Set<DirectionsRequest.RoadFeature> {
        var out: Set<DirectionsRequest.RoadFeature> = []
        for item in text.split(whereSeparator: { $0 == "," || $0 == "|" }) {
            let name = String(item).trimmingASCIIWhitespace().lowercased()
            if name.isEmpty || name == "indoor" { continue }
            guard let feature = DirectionsRequest.RoadFeature(rawValue: name) else {
                throw .badValue(origin: origin, key: nil, text: String(item), reason: "expected tolls, highways or ferries")
            }
            out.insert(feature)
        }
        return out
    }

    /// `metric` or `imperial`.
    public static func parseUnits(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> TravelSummary.Units {
        guard let units = TravelSummary.Units(rawValue: text.trimmingASCIIWhitespace().lowercased()) else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "expected metric or imperial")
        }
        return units
    }

    /// One place; Google's `via:` prefix (pass through without stopping) is accepted and
    /// treated as a stop.
    public static func parsePlace(_ text: String, origin: String, resolver: (any PlaceResolving)?) throws(StaticMapsSyntaxError) -> LatLng {
        var place = text.trimmingASCIIWhitespace()
        if place.lowercased().hasPrefix("via:") { place = String(place.dropFirst(4)) }
        return try StaticMapsSyntax.parseLocation(place, origin: origin, resolver: resolver)
    }

    /// Google's `waypoints=A|via:B|C` (an `optimize:true` first item is ignored).
    public static func parseWaypoints(_ text: String, origin: String, resolver: (any PlaceResolving)?) throws(StaticMapsSyntaxError) -> [LatLng] {
        var out: [LatLng] = []
        for item in text.split(separator: "|") {
            let place = String(item).trimmingASCIIWhitespace()
            if place.isEmpty || place.lowercased().hasPrefix("optimize:") { continue }
            guard out.count < DirectionsRequest.maximumWaypointCount else {
                throw .tooManyLocations(origin: origin, limit: DirectionsRequest.maximumWaypointCount)
            }
            out.append(try parsePlace(place, origin: "\(origin) waypoint \(out.count + 1)", resolver: resolver))
        }
        return out
    }
}
