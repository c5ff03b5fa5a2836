extension StaticMapsSyntax {
    /// Parses one Google styling rule, the value of a Static Maps `style=` parameter:
    /// `feature:road.highway|element:geometry.fill|color:0xff8800|weight:2`.
    ///
    /// `feature:` and `element:` (both optional, `all` when left out) come first, then the
    /// stylers, applied in order: `hue:0xRRGGBB`, `lightness:` and `saturation:` (−100…100),
    /// `gamma:` (0.01…10), `invert_lightness:true|false`, `visibility:on|off|simplified`
    /// (`simplified` is drawn as `on`), `color:0xRRGGBB[AA]`, `weight:` (0…200 pixels).
    ///
    /// A feature, element or styler Google has but mapsnap does not know is not an error (a
    /// Snazzy Maps export should still render): the rule or styler is left out and a line
    /// is added to `warnings`. A known styler with a bad value is an error.
    public static func parseMapStyle(_ text: String, origin: String,
                                     warnings: inout [String]) throws(StaticMapsSyntaxError) -> MapStyleRule? {
        var rule = MapStyleRule(stylers: [])
        var known = true
        for (offset, item) in text.split(separator: "|", omittingEmptySubsequences: true).enumerated() {
            guard let colon = item.firstIndex(of: ":") else {
                throw .badValue(origin: origin, key: nil, text: String(item), reason: "expected name:value")
            }
            let key = item[..<colon].lowercased().trimmingASCIIWhitespace()
            let value = item[item.index(after: colon)...]
            switch key {
            case "feature", "element":
                let name = value.lowercased().trimmingASCIIWhitespace()
                let names = key == "feature" ? MapStyleRule.features : MapStyleRule.elements
                guard names.contains(name) else {
                    warnings.append("\(origin): \(key) \"\(name.prefix(40))\" is not one mapsnap knows; the rule is left out")
                    known = false
                    continue
                }
                if key == "feature" { rule.feature = name } else { rule.element = name }
            case "hue": rule.stylers.append(.hue(try color(value, key: key, origin: origin)))
            case "lightness": rule.stylers.append(.lightness(try number(value, key: key, origin: origin, in: -100...100)))
            case "saturation": rule.stylers.append(.saturation(try number(value, key: key, origin: origin, in: -100...100)))
            case "gamma": rule.stylers.append(.gamma(try number(value, key: key, origin: origin, in: 0.01...10)))
            case "invert_lightness": rule.stylers.append(.invertLightness(try bool(value, key: key, origin: origin)))
            case "visibility":
                switch value.lowercased().trimmingASCIIWhitespace() {
                case "on", "simplified": rule.stylers.append(.visibility(true))
                case "off": rule.stylers.append(.visibility(false))
                default: throw .badValue(origin: origin, key: key, text: String(value), reason: "expected on, off or simplified")
                }
            case "color": rule.stylers.append(.color(try color(value, key: key, origin: origin)))
            case "weight": rule.stylers.append(.weight(try number(value, key: key, origin: origin, in: 0...maximumWeight)))
            default:
                warnings.append("\(origin): styler \"\(key.prefix(40))\" (item \(offset + 1)) is not one mapsnap knows; it is left out")
            }
        }
        return known ? rule : nil
    }
}
