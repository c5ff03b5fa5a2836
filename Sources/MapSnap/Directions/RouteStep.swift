/// One maneuver of a route: MapKit's `MKRoute.Step` (instructions, distance) with the time
/// the engine gave it and the point where it starts.
public struct RouteStep: Sendable, Hashable {
    /// What to do, as the engine wrote it ("Turn right onto Mannerheimintie.").
    public var instructions: String
    /// Length of the step in metres.
    public var distance: Double
    /// Time the engine expects the step to take, in seconds.
    public var expectedTravelTime: Double
    /// Where the maneuver happens.
    public var location: LatLng

/// A maneuver: its text, the metres and seconds to the next one, and where it is.
    public init(instructions: String, distance: Double, expectedTravelTime: Double, location: LatLng) {
        self.instructions = instructions
        self.distance = distance
        self.expectedTravelTime = expectedTravelTime
        self.location = location
    }
}
