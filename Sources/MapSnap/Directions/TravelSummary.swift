import Foundation

/// A route's time and distance as a map app writes them on the route: "18 min · 4.2 km",
/// "1 h 5 min · 62 km", "12 min · 0.6 mi".
public enum TravelSummary {
    /// Units distances are written in.
    public enum Units: String, Sendable, Hashable, CaseIterable {
        case metric, imperial
    }

    /// "18 min · 4.2 km".
    public static func text(seconds: Double, meters: Double, units: Units) -> String {
        duration(seconds) + " · " + distance(meters, units: units)
    }

    /// "18 min", "1 h 5 min", "2 d 3 h"; at least "1 min".
    public static func duration(_ seconds: Double) -> String {
        let minutes = max(1, Int((max(0, seconds.isFinite ? seconds : 0) / 60).rounded()))
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60, rest = minutes % 60
        if hours < 24 { return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min" }
        let days = hours / 24, restHours = hours % 24
        return restHours == 0 ? "\(days) d" : "\(days) d \(restHours) h"
    }

    /// "850 m", "4.2 km", "42 km"; imperial "500 ft", "0.6 mi", "42 mi".
    public static func distance(_ meters: Double, units: Units) -> String {
        let m = max(0, meters.isFinite ? meters : 0)
        switch units {
        case .metric:
            if m < 995 { return "\(Int((m / 10).rounded()) * 10) m" }
            let km = m / 1000
            return km < 9.95 ? String(format: "%.1f km", km) : "\(Int(km.rounded())) km"
        case .imperial:
            let miles = m / 1609.344
            if miles < 0.1 { return "\(Int((m / 0.3048 / 10).rounded()) * 10) ft" }
            return miles < 9.95 ? String(format: "%.1f mi", miles) : "\(Int(miles.rounded())) mi"
        }
    }
}
