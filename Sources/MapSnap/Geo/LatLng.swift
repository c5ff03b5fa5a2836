/// A geographic coordinate in degrees (WGS 84).
///
/// Values are not validated on construction; parsers check ranges and report errors with
/// the position of the offending value. `WebMercator` clamps latitude to ±85.05112878°.
public struct LatLng: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north, −90…90 (negative: south).
    public var latitude: Double
    /// Degrees east, −180…180 (negative: west); overlay vertices may run one world further (see `isValidVertex`).
    public var longitude: Double

    /// A coordinate in degrees; not validated (see `isValid`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A coordinate in degrees, latitude first, as maps write them.
    public init(_ latitude: Double, _ longitude: Double) {
        self.init(latitude: latitude, longitude: longitude)
    }

    /// True when both values are finite, latitude is within ±90 and longitude within ±180.
    public var isValid: Bool {
        Self.isValidLatitude(latitude) && Self.isValidLongitude(longitude)
    }

    /// True for a finite latitude within −90…90 degrees: the one range check every input
    /// (CLI, Static Maps syntax, render specs, GPX, extract areas) applies.
    package static func isValidLatitude(_ degrees: Double) -> Bool { (-90.0...90.0).contains(degrees) }

    /// True for a finite longitude within −180…180 degrees (see `isValidLatitude`).
    package static func isValidLongitude(_ degrees: Double) -> Bool { (-180.0...180.0).contains(degrees) }

    /// Largest |longitude| a vertex of a path, polygon or marker may have: one world beyond
    /// the antimeridian on either side.
    public static let maximumContinuousLongitude = 540.0

    /// True when both values are finite, latitude is within ±90 and longitude within
    /// ±`maximumContinuousLongitude`. Geometry written with continuous longitudes (a ring
    /// that crosses the antimeridian as 170…190°, the Aleutians at −187° in the common US
    /// states file) is accepted by Leaflet, MapLibre and GDAL, and is drawn here as the
    /// same longitudes ±360° would be.
    public var isValidVertex: Bool {
        Self.isValidLatitude(latitude) && longitude.isFinite && abs(longitude) <= Self.maximumContinuousLongitude
    }

    /// `latitude,longitude`, as the CLI and Static Maps syntax take it.
    public var description: String { "\(latitude),\(longitude)" }
}
