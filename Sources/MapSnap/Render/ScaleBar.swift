import Foundation

/// The length and label of a metric scale bar: the largest "nice" distance (1, 2 or 5 × 10ⁿ
/// meters) whose bar is at most `maximumPixels` long at the camera's centre latitude.
struct ScaleBar: Sendable, Hashable {
    var meters: Double
    var pixels: Double
    var label: String

    init?(metersPerPixel: Double, maximumPixels: Double) {
        guard metersPerPixel.isFinite, metersPerPixel > 0, maximumPixels > 1 else { return nil }
        let maxMeters = metersPerPixel * maximumPixels
        let magnitude = pow(10, floor(log10(maxMeters)))
        var nice = magnitude
        for m in [5.0, 2.0, 1.0] where m * magnitude <= maxMeters {
            nice = m * magnitude
            break
        }
        meters = nice
        pixels = nice / metersPerPixel
        label = ScaleBar.format(meters: nice)
    }

    /// "500 m", "2 km", "0.5 m" — no trailing zeros.
    static func format(meters: Double) -> String {
        func trim(_ v: Double) -> String {
            v == v.rounded() ? String(Int(v)) : String(v)
        }
        return meters >= 1000 ? "\(trim(meters / 1000)) km" : "\(trim(meters)) m"
    }
}
