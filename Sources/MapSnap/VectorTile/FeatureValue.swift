/// A property value of a map feature (MVT tag value, GeoJSON property) as seen by style
/// expressions. MVT's int/uint/sint/float/double all become `.number`.
enum FeatureValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// The geometry kind of a feature, as reported by `["geometry-type"]` / legacy `$type`.
enum GeometryType: String, CaseIdentified, Sendable {
    case point = "Point"
    case lineString = "LineString"
    case polygon = "Polygon"
}
