/// How directions look on the map, after the apps users come from: the chosen route in its
/// mode's style (drive: blue with a darker casing; walk: blue dots; bike: green; transit:
/// purple), alternates beneath it in grey, an A pin at the start, numbered pins at waypoints,
/// a B pin at the end, optional numbered dots at each maneuver, and a callout with the
/// route's time and distance ("18 min · 4.2 km") on the route, away from the pins.
public struct RouteDrawing: Sendable {
    /// The mode whose style the chosen route takes.
    public var transportType: TransportType
    /// Units of the callout's distance.
    public var units: TravelSummary.Units
    /// Whether to draw numbered dots at the chosen route's maneuvers (`--steps`).
    public var showsSteps: Bool
    /// Whether to put the time-and-distance callout on the chosen route.
    public var showsCallout: Bool

/// A drawing of routes in `transportType`'s colours, the callout in `units`.
    public init(transportType: TransportType = .drive, units: TravelSummary.Units = .metric, showsSteps: Bool = false,
                showsCallout: Bool = true) {
        self.transportType = transportType
        self.units = units
        self.showsSteps = showsSteps
        self.showsCallout = showsCallout
    }

    /// Colours of the drawing (the chosen route's is its mode's).
    public enum Palette {
        /// The chosen route when driving (Google-like blue).
        public static let drive = Color(rgb: 0x1A73E8)
        /// Its casing.
        public static let driveCasing = Color(rgb: 0x0D47A1)
        /// The chosen route on foot (dotted).
        public static let walk = Color(rgb: 0x1A73E8)
        /// The chosen route by bike.
        public static let bike = Color(rgb: 0x0F9D58)
        /// Its casing.
        public static let bikeCasing = Color(rgb: 0x0B6E3D)
        /// The chosen route by transit.
        public static let transit = Color(rgb: 0x8E24AA)
        /// Its casing.
        public static let transitCasing = Color(rgb: 0x5E1675)
        /// Alternates, under the chosen route.
        public static let alternate = Color(rgb: 0xA0A6AD)
        /// Their casing.
        public static let alternateCasing = Color(rgb: 0x7D838A)
        /// The origin's "A" pin.
        public static let origin = Color(rgb: 0x34A853)
        /// The destination's "B" pin.
        public static let destination = Color(rgb: 0xEA4335)
        /// Numbered waypoint pins.
        public static let waypoint = Color(rgb: 0xFBBC04)
    }

    /// The chosen route's line in this drawing's mode.
    public func routeOverlay(_ line: [LatLng]) -> PathOverlay {
        switch transportType {
        case .drive:
            return PathOverlay(coordinates: line, color: Palette.drive, width: 6, casingColor: Palette.driveCasing, casingWidth: 1.5)
        case .walk:
            // Round dots: an almost empty dash whose round caps make the dot.
            return PathOverlay(coordinates: line, color: Palette.walk, width: 6, casingColor: nil, casingWidth: 0, dash: [0.01, 10])
        case .bike:
            return PathOverlay(coordinates: line, color: Palette.bike, width: 5, casingColor: Palette.bikeCasing, casingWidth: 1.5)
        case .transit:
            return PathOverlay(coordinates: line, color: Palette.transit, width: 6, casingColor: Palette.transitCasing, casingWidth: 1.5)
        }
    }

    /// An alternate route's grey line.
    public func alternateOverlay(_ line: [LatLng]) -> PathOverlay {
        PathOverlay(coordinates: line, color: Palette.alternate, width: 5, casingColor: Palette.alternateCasing, casingWidth: 1)
    }

    /// Everything to draw for `response`, bottom first. `waypoints` are the stops between the
    /// ends (numbered pins); the A and B pins go where the chosen route starts and ends.
    public func overlays(for response: DirectionsResponse, waypoints: [LatLng] = []) -> [Overlay] {
        guard let best = response.routes.first, let start = best.polyline.first, let end = best.polyline.last else { return [] }
        var out: [Overlay] = response.routes.dropFirst().reversed().map { .path(alternateOverlay($0.polyline)) }
        out.append(.path(routeOverlay(best.polyline)))
        if showsSteps {
            let color = routeOverlay([]).color
            for (i, step) in best.steps.enumerated() {
                out.append(.marker(MarkerOverlay(coordinate: step.location, style: .dot(diameter: 14), color: color, label: "\(i + 1)")))
            }
        }
        out.append(.marker(MarkerOverlay(coordinate: start, style: .pin(.normal), color: Palette.origin, label: "A")))
        for (i, w) in waypoints.enumerated() {
            out.append(.marker(MarkerOverlay(coordinate: w, style: .pin(.mid), color: Palette.waypoint, label: "\(i + 1)")))
        }
        out.append(.marker(MarkerOverlay(coordinate: end, style: .pin(.normal), color: Palette.destination, label: "B")))
        if showsCallout, best.polyline.count >= 2 {
            let text = TravelSummary.text(seconds: best.expectedTravelTime, meters: best.distance, units: units)
            let at = Self.calloutPoint(on: best.polyline, avoiding: [start, end] + waypoints)
            out.append(.marker(MarkerOverlay(coordinate: at, style: .callout, color: .white, title: text)))
        }
        return out
    }

    /// Where on `line` the callout goes: halfway along it, or the nearest of a few other
    /// fractions of its length when a pin stands near there (a waypoint at the middle), so
    /// the bubble covers neither the route's pins nor their labels.
    static func calloutPoint(on line: [LatLng], avoiding stops: [LatLng]) -> LatLng {
        let total = Geodesy.lengthMeters(line)
        guard total > 0 else { return line[0] }
        let clearance = total * 0.12
        var fallback: LatLng?
        for fraction in [0.5, 0.4, 0.6, 0.3, 0.7] {
            let p = point(on: line, atMeters: total * fraction)
            if fallback == nil { fallback = p }
            if stops.allSatisfy({ Geodesy.distanceMeters($0, p) > clearance }) { return p }
        }
        return fallback ?? line[0]
    }

    /// The point `distance` metres along `line`.
    static func point(on line: [LatLng], atMeters distance: Double) -> LatLng {
        var left = distance
        for (a, b) in zip(line, line.dropFirst()) {
            let d = Geodesy.distanceMeters(a, b)
            if d >= left, d > 0 {
                let t = left / d
                return LatLng(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)
            }
            left -= d
        }
        return line[line.count - 1]
    }
}
