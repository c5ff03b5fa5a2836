/// A property value of a map feature (MVT tag value, GeoJSON property) as seen by style
/// expressions. MVT's int/uint/sint/float/double all become `.number`.
public enum FeatureValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// The geometry kind of a feature, as reported by `["geometry-type"]` / legacy `$type`.
public enum GeometryType: String, Hashable, Sendable {
    case point = "Point"
    case lineString = "LineString"
    case polygon = "Polygon"
}

/// What a style filter or expression can ask of a feature. Vector-tile features and any
/// other feature model implement this so the style engine stays format-neutral.
public protocol StyleFeature {
    /// The value of a property, nil when the feature has no such key.
    func value(forKey key: String) -> FeatureValue?
    var geometryType: GeometryType { get }
    /// The feature id when present (`["id"]`, legacy `$id`).
    var featureID: UInt64? { get }
}
