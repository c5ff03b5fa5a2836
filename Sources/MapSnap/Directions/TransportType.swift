/// How a route is travelled: MapKit's `MKDirectionsTransportType`, Google's `mode`.
///
/// Each routing engine has its own word for each (Valhalla's costing `auto`, OSRM's profile
/// `driving`, GraphHopper's `car`); `Router` maps them. Names are accepted in the forms users
/// bring from those APIs: `drive`/`driving`/`car`, `walk`/`walking`/`foot`, …
public enum TransportType: String, Sendable, Hashable, CaseIterable {
    case drive, walk, bike, transit

    /// The mode a user's word names (`--mode`, a spec's `"mode"`, Google's `mode=`), or nil.
    public init?(name: String) {
        switch name.lowercased() {
        case "drive", "driving", "car", "auto", "automobile": self = .drive
        case "walk", "walking", "foot", "pedestrian": self = .walk
        case "bike", "bicycling", "bicycle", "cycling", "cycle": self = .bike
        case "transit", "public_transport", "multimodal": self = .transit
        default: return nil
        }
    }

    /// The names `init(name:)` accepts, for messages.
    static let acceptedNames = "drive|walk|bike|transit (or Google's driving|walking|bicycling|transit)"
}
