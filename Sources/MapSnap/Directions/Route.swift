/// One route an engine answered: MapKit's `MKRoute` — its line, length, expected travel
/// time, name and steps. The numbers are the engine's own, never recomputed from the line.
public struct Route: Sendable, Hashable {
    /// The route's line from source to destination (all legs joined).
    public var polyline: [LatLng]
    /// Length in metres.
    public var distance: Double
    /// Time the engine expects the trip to take, in seconds.
    public var expectedTravelTime: Double
    /// A short description (the main roads, like MapKit's `name` and Google's `summary`);
    /// empty when the engine gives none.
    public var name: String
    /// The maneuvers, in order, over all legs.
    public var steps: [RouteStep]

/// A route: its shape, metres, seconds, the engine's name for it and its steps.
    public init(polyline: [LatLng], distance: Double, expectedTravelTime: Double, name: String = "", steps: [RouteStep] = []) {
        self.polyline = polyline
        self.distance = distance
        self.expectedTravelTime = expectedTravelTime
        self.name = name
        self.steps = steps
    }
}
