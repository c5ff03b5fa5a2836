/// What a style filter or expression can ask of a feature. Vector-tile features and any
/// other feature model implement this so the style engine stays format-neutral.
protocol StyleFeature {
    /// The value of a property, nil when the feature has no such key.
    func value(forKey key: String) -> FeatureValue?
    var geometryType: GeometryType { get }
    /// The feature id when present (`["id"]`, legacy `$id`).
    var featureID: UInt64? { get }
}

/// Vector-tile features are what base-map styles evaluate.
extension VectorTileFeature: StyleFeature {}
