/// What to route: MapKit's `MKDirections.Request` (source, destination, transport type,
/// alternate routes) with Google Directions' waypoints and `avoid`.
///
/// Places are coordinates here: names and addresses are resolved by the input syntaxes
/// (`--from`, a spec's `"origin"`) before a request is made, so a request is what is sent.
public struct DirectionsRequest: Sendable, Hashable {
    /// Where the route starts.
    public var source: LatLng
    /// Where it ends.
    public var destination: LatLng
    /// Points it passes through, in order (Google's `waypoints`, Valhalla's `through`).
    public var waypoints: [LatLng]
    /// How it is travelled.
    public var transportType: TransportType
    /// How many alternate routes to ask for besides the best one (0 = none). Engines may
    /// return fewer; an engine that offers none returns only the best route.
    public var alternateCount: Int
    /// Road features to keep off.
    public var avoid: Set<RoadFeature>

    /// Most alternates asked for: engines give at most two or three.
    public static let maximumAlternateCount = 3
    /// Most waypoints between source and destination (Google allows 25).
    public static let maximumWaypointCount = 25

    /// Features of the road network a route can avoid (Google's `avoid=tolls|highways|ferries`).
    public enum RoadFeature: String, Sendable, Hashable, CaseIterable, Comparable {
        case tolls, highways, ferries
/// By name, so a set of features prints in a stable order.
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

/// A request from `source` to `destination` through `waypoints`, in order.
    public init(source: LatLng, destination: LatLng, waypoints: [LatLng] = [], transportType: TransportType = .drive,
                alternateCount: Int = 0, avoid: Set<RoadFeature> = []) {
        self.source = source
        self.destination = destination
        self.waypoints = waypoints
        self.transportType = transportType
        self.alternateCount = alternateCount
        self.avoid = avoid
    }

    /// Every stop in order: source, waypoints, destination.
    public var stops: [LatLng] { [source] + waypoints + [destination] }
}
