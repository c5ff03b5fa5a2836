/// The value of one paint or layout property: a constant, a legacy function (`stops`) or an
/// expression, compiled into a `StyleExpression` at load time.
///
/// Accessors convert the result to the property's type and fall back to the style-spec
/// default when evaluation fails or yields the wrong type — as MapLibre does.
/// Feature-independent values can be frozen once per render with `resolved(atZoom:)`.
///
/// Colours interpolate component-wise on premultiplied sRGB (MapLibre's "rgb" space), not
/// in linear light; numbers and number arrays interpolate element-wise.
struct PropertyValue: Sendable {
    /// The property this value belongs to (decides type and default).
    let property: StyleProperty
    /// The compiled value.
    let expression: StyleExpression
    private let defaultValue: StyleValue
    /// Set by `bound(to:zoom:)`: `expression` holds only for features of that layer at
    /// that zoom; anything else evaluates `unbound`.
    private let binding: (storage: VectorTileLayerStorage, zoom: Double, unbound: StyleExpression)?

    init(property: StyleProperty, expression: StyleExpression) {
        self.property = property
        self.expression = expression
        self.defaultValue = property.defaultValue
        self.binding = nil
    }

    private init(property: StyleProperty, bound expression: StyleExpression, unbound: StyleExpression, to layer: TileLayerIndex, zoom: Double) {
        self.property = property
        self.expression = expression
        defaultValue = property.defaultValue
        binding = (layer.storage, zoom, unbound)
    }

    /// A constant value for `property`.
    init(property: StyleProperty, constant: StyleValue) {
        self.init(property: property, expression: StyleExpression(constant: constant))
    }

    /// The style-spec default of `property`.
    static func defaultValue(of property: StyleProperty) -> PropertyValue {
        PropertyValue(property: property, constant: property.defaultValue)
    }

    /// Whether the value is the same everywhere.
    var isConstant: Bool { expression.isConstant }
    /// Whether the value depends on zoom only (evaluate once per render).
    var isZoomOnly: Bool { expression.isZoomOnly }
    /// Whether the value must be evaluated per feature.
    var dependsOnFeature: Bool { expression.dependsOnFeature }

    /// This value with everything except feature dependence evaluated at `zoom`: a constant
    /// when the value does not read the feature, otherwise unchanged.
    func resolved(atZoom zoom: Double) -> PropertyValue {
        guard !expression.dependsOnFeature, !expression.isConstant else { return self }
        return PropertyValue(property: property, expression: StyleExpression(constant: expression.evaluate(zoom: zoom)))
    }

    /// This value for the features of one vector-tile layer at `zoom`: property reads are
    /// key/value-index lookups and comparisons and `match` on properties are decided per
    /// distinct value now (see `CompiledFilter`). Same results as `self`; a feature of
    /// another layer, or another zoom, is evaluated unbound.
    func bound(to layer: TileLayerIndex, zoom: Double) -> PropertyValue {
        let unbound = binding?.unbound ?? expression
        guard unbound.dependsOnFeature else { return resolved(atZoom: zoom) }
        let node = ExpressionBinder(layer: layer, zoom: zoom).bind(unbound.root)
        let expression = StyleExpression(root: node.node, dependencies: node.dependencies.isEmpty ? [] : .feature)
        return PropertyValue(property: property, bound: expression, unbound: unbound, to: layer, zoom: zoom)
    }

    // MARK: Raw values

    /// The evaluated value, or the property default when evaluation yields null.
    func value<F: StyleFeature>(atZoom zoom: Double, feature: F) -> StyleValue {
        if let binding, zoom != binding.zoom || (feature as? VectorTileFeature)?.storage !== binding.storage {
            return orDefault(binding.unbound.evaluate(zoom: zoom, feature: feature))
        }
        return orDefault(expression.evaluate(zoom: zoom, feature: feature))
    }

    /// The evaluated value without a feature (property lookups are null).
    func value(atZoom zoom: Double) -> StyleValue {
        orDefault((binding?.unbound ?? expression).evaluate(zoom: zoom))
    }

    func orDefault(_ v: StyleValue) -> StyleValue {
        v == .null ? defaultValue : v
    }

    // MARK: Typed accessors

    /// A colour property (`*-color`). Strings from data are parsed as CSS colours.
    func color<F: StyleFeature>(atZoom zoom: Double, feature: F) -> Color {
        colorValue(value(atZoom: zoom, feature: feature))
    }

    func color(atZoom zoom: Double) -> Color {
        colorValue(value(atZoom: zoom))
    }

    /// A colour that may be unset (`fill-outline-color` defaults to nil = use `fill-color`).
    func optionalColor<F: StyleFeature>(atZoom zoom: Double, feature: F) -> Color? {
        let v = value(atZoom: zoom, feature: feature)
        return v == .null ? nil : ExpressionNode.color(from: v)?.color
    }

    func colorValue(_ v: StyleValue) -> Color {
        if let c = ExpressionNode.color(from: v) { return c.color }
        return ExpressionNode.color(from: defaultValue)?.color ?? .black
    }

    /// A numeric property; nil only when the property has no default (`*-sort-key`).
    func number<F: StyleFeature>(atZoom zoom: Double, feature: F) -> Double? {
        numberValue(value(atZoom: zoom, feature: feature))
    }

    func number(atZoom zoom: Double) -> Double? {
        numberValue(value(atZoom: zoom))
    }

    func numberValue(_ v: StyleValue) -> Double? {
        if case .number(let n) = v, n.isFinite { return n }
        if case .number(let n) = defaultValue { return n }
        return nil
    }

    /// A number-array property (`line-dasharray`, `text-offset`, `*-translate`, padding).
    /// Empty when unset (a solid line for `line-dasharray`).
    func numberArray<F: StyleFeature>(atZoom zoom: Double, feature: F) -> [Double] {
        numberArrayValue(value(atZoom: zoom, feature: feature))
    }

    func numberArray(atZoom zoom: Double) -> [Double] {
        numberArrayValue(value(atZoom: zoom))
    }

    private func numberArrayValue(_ v: StyleValue) -> [Double] {
        func numbers(_ v: StyleValue) -> [Double]? {
            switch v {
            case .number(let n) where n.isFinite: return [n]
            case .array(let items):
                var out: [Double] = []
                for item in items {
                    guard case .number(let n) = item, n.isFinite else { return nil }
                    out.append(n)
                }
                return out
            default: return nil
            }
        }
        return numbers(v) ?? numbers(defaultValue) ?? []
    }

    /// A boolean property.
    func bool<F: StyleFeature>(atZoom zoom: Double, feature: F) -> Bool {
        boolValue(value(atZoom: zoom, feature: feature))
    }

    func bool(atZoom zoom: Double) -> Bool {
        boolValue(value(atZoom: zoom))
    }

    private func boolValue(_ v: StyleValue) -> Bool {
        if case .bool(let b) = v { return b }
        return defaultValue.boolValue ?? false
    }

    /// A string property (`icon-image`); non-strings are converted like `to-string`.
    func string<F: StyleFeature>(atZoom zoom: Double, feature: F) -> String {
        value(atZoom: zoom, feature: feature).description
    }

    func string(atZoom zoom: Double) -> String {
        value(atZoom: zoom).description
    }

    /// A string-array property (`text-font`).
    func stringArray<F: StyleFeature>(atZoom zoom: Double, feature: F) -> [String] {
        stringArrayValue(value(atZoom: zoom, feature: feature))
    }

    func stringArray(atZoom zoom: Double) -> [String] {
        stringArrayValue(value(atZoom: zoom))
    }

    private func stringArrayValue(_ v: StyleValue) -> [String] {
        if case .array(let items) = v, items.allSatisfy({ $0.stringValue != nil }) {
            return items.compactMap(\.stringValue)
        }
        if case .array(let items) = defaultValue { return items.compactMap(\.stringValue) }
        return []
    }

    /// The label text of `text-field`: `{token}` substitution and `format` sections already
    /// reduced to plain text. Empty means no label.
    ///
    /// Labels longer than `Style.maximumLabelCharacters` characters are cut to that length
    /// (a label that long is data gone wrong; cutting keeps layout and collision cheap).
    func textField<F: StyleFeature>(atZoom zoom: Double, feature: F) -> String {
        let text = string(atZoom: zoom, feature: feature)
        let limit = Style.maximumLabelCharacters
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit))
    }

    /// A keyword property (`line-cap`, `symbol-placement`, …) as its enum; the default
    /// when the value is not one of the keywords.
    func keyword<F: StyleFeature, E: RawRepresentable>(_ type: E.Type, atZoom zoom: Double, feature: F) -> E
        where E.RawValue == String {
        keywordValue(type, value(atZoom: zoom, feature: feature))
    }

    func keyword<E: RawRepresentable>(_ type: E.Type, atZoom zoom: Double) -> E where E.RawValue == String {
        keywordValue(type, value(atZoom: zoom))
    }

    private func keywordValue<E: RawRepresentable>(_ type: E.Type, _ v: StyleValue) -> E where E.RawValue == String {
        if let s = v.stringValue, let e = E(rawValue: s) { return e }
        if let s = defaultValue.stringValue, let e = E(rawValue: s) { return e }
        // Only reachable when asking for an enum that does not fit the property.
        preconditionFailure("\(property.rawValue) has no default keyword of type \(E.self)")
    }
}
