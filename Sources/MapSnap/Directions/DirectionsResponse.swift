/// An engine's answer: MapKit's `MKDirections.Response` — the routes, best first — and
/// which engine's format it came in.
public struct DirectionsResponse: Sendable, Hashable {
    /// The best route first, then the alternates. Never empty.
    public var routes: [Route]
    /// Whose answer it is.
    public var format: DirectionsFormat
    /// The travel mode the answer was asked for or says it is, when known.
    public var transportType: TransportType?

/// An answer: its routes (the chosen one first), the engine format it came in, its mode.
    public init(routes: [Route], format: DirectionsFormat, transportType: TransportType? = nil) {
        self.routes = routes
        self.format = format
        self.transportType = transportType
    }
}

/// The JSON dialects of directions answers mapsnap reads.
public enum DirectionsFormat: String, Sendable, Hashable, CaseIterable {
    /// Valhalla's `/route` (`trip`, legs with precision-6 `shape`, `alternates`).
    case valhalla
    /// OSRM's `/route/v1` (`code`, `routes` with `geometry`, `waypoints`).
    case osrm
    /// Mapbox's Directions API v5: OSRM's shape plus `uuid` and written instructions.
    case mapbox
    /// GraphHopper's `/route` (`paths` with `points`, `instructions`, time in milliseconds).
    case graphHopper = "graphhopper"
    /// Google's Directions API (`status`, `routes` with `overview_polyline` and `legs`).
    case google

    /// How users and messages name it.
    public var displayName: String {
        switch self {
        case .valhalla: "Valhalla"
        case .osrm: "OSRM"
        case .mapbox: "Mapbox Directions"
        case .graphHopper: "GraphHopper"
        case .google: "Google Directions"
        }
    }
}
