import Foundation

/// One Google Maps styling rule (`style=feature:road.highway|element:geometry|color:0xff8800`
/// in a Static Maps URL, one entry of a Snazzy Maps export): which map features and which of
/// their parts, and what to do to them.
///
/// Rules are applied to a style when it is loaded for a render (`StyleCustomization`), in
/// order, each styler in order, so a later rule overrides an earlier one, as in Google's
/// renderer. Google's taxonomy is mapped onto layers of the OpenMapTiles and Protomaps
/// schemas by their `source-layer`, the classes (kinds) their filter names and their type:
///
/// | feature | OpenMapTiles layers | Protomaps layers |
/// |---|---|---|
/// | `landscape` (`.man_made`, `.natural.landcover`, `.natural.terrain`) | background; building and built-up landuse; landcover; relief and hillshade | background, earth; buildings and built-up landuse; landcover and natural landuse kinds |
/// | `water` | water, waterway, water names | water |
/// | `road.highway` (`.controlled_access`), `road.arterial`, `road.local` | transportation and its names by class: motorway (controlled access) and trunk; primary and secondary; the rest | roads by kind and kind_detail, alike |
/// | `transit.line`, `transit.station.airport` | rail, transit and ferry lines; aeroway and airport labels | rail and ferry roads, transit; aeroway roads and aerodrome POIs |
/// | `poi` (`.park`, `.medical`, `.school`, `.sports_complex`) | poi labels; parks; hospital, school and pitch landuse | pois; park, hospital, school and pitch landuse |
/// | `administrative` (`.country`, `.province`, `.locality`, `.neighborhood`, `.land_parcel`) | boundaries by admin level; place labels by class; house numbers | boundaries and places by kind; address points |
///
/// Elements: `geometry.fill` is a fill's or background's colour and the main line of a road,
/// river or railway; `geometry.stroke` is a fill's outline, a road's casing and a boundary
/// line; `labels.text.fill`, `labels.text.stroke` (the halo) and `labels.icon` are a symbol
/// layer's text colour, halo and icon. `weight` sets a line's width or a halo's width in pixels.
public struct MapStyleRule: Sendable, Hashable {
    /// What to do to the selected parts.
    public enum Styler: Sendable, Hashable {
        /// Keep lightness and saturation, take this colour's hue.
        case hue(Color)
        /// −100…100: towards black (−100) or white (100).
        case lightness(Double)
        /// −100…100: towards grey (−100) or full saturation (100).
        case saturation(Double)
        /// 0.01…10: each channel c becomes c^(1/gamma): above 1 brightens mid-tones, below 1
        /// darkens them; black and white stay.
        case gamma(Double)
        /// Swaps light and dark, keeping hue and saturation.
        case invertLightness(Bool)
        /// `on`, `off` or `simplified` (drawn as `on`).
        case visibility(Bool)
        /// Replaces the colour.
        case color(Color)
        /// Line or halo width in pixels.
        case weight(Double)
    }

    /// `all`, or a feature type such as `road` or `road.highway`; a type selects its subtypes.
    public var feature: String
    /// `all`, or an element such as `geometry` or `labels.text.fill`; an element selects its
    /// sub-elements.
    public var element: String
    /// What to change, applied in order.
    public var stylers: [Styler]

    /// A rule; `feature` and `element` default to everything, as in Google's syntax.
    public init(feature: String = "all", element: String = "all", stylers: [Styler]) {
        self.feature = feature
        self.element = element
        self.stylers = stylers
    }

    /// Google's feature types, for checking what a user wrote.
    public static let features: Set<String> = [
        "all", "administrative", "administrative.country", "administrative.land_parcel", "administrative.locality",
        "administrative.neighborhood", "administrative.province", "landscape", "landscape.man_made",
        "landscape.natural", "landscape.natural.landcover", "landscape.natural.terrain", "poi", "poi.attraction",
        "poi.business", "poi.government", "poi.medical", "poi.park", "poi.place_of_worship", "poi.school",
        "poi.sports_complex", "road", "road.arterial", "road.highway", "road.highway.controlled_access",
        "road.local", "transit", "transit.line", "transit.station", "transit.station.airport",
        "transit.station.bus", "transit.station.rail", "water",
    ]

    /// Google's element types.
    public static let elements: Set<String> = [
        "all", "geometry", "geometry.fill", "geometry.stroke", "labels", "labels.icon", "labels.text",
        "labels.text.fill", "labels.text.stroke",
    ]

    /// Whether `selector` (a rule's feature or element) selects `name`.
    static func selects(_ selector: String, _ name: String) -> Bool {
        selector == "all" || name == selector || name.hasPrefix(selector + ".")
    }
}

/// What a user asks of a style for one render, Google Maps style: styling rules and a label
/// language. Applied to the style's JSON when it is loaded, before it is compiled, so any
/// OpenMapTiles-schema style can be customised and the files stay as they are.
struct StyleCustomization: Sendable, Hashable {
    var rules: [MapStyleRule]
    /// A language code (`de`, `zh-CN`): labels read `name:de` (or `name_de`) where the tiles
    /// have it, else what the style reads.
    var language: String?

    init(rules: [MapStyleRule] = [], language: String? = nil) {
        self.rules = rules
        self.language = language
    }

    var isEmpty: Bool { rules.isEmpty && language == nil }

    /// Applies the rules and the language to every layer of a style document.
    func apply(to style: inout JSONValue) {
        guard !isEmpty, case .object(var root) = style, case .array(var layers)? = root["layers"] else { return }
        for i in layers.indices {
            guard case .object(var layer) = layers[i] else { continue }
            if let language { Self.localize(&layer, language: language) }
            if !rules.isEmpty { Self.style(&layer, rules: rules) }
            layers[i] = .object(layer)
        }
        root["layers"] = .array(layers)
        style = .object(root)
    }

    // MARK: Language

    /// Wraps the layer's `text-field` in a `coalesce` that prefers the language's name
    /// fields. Only fields that read a name are touched (not house numbers or refs).
    private static func localize(_ layer: inout JSONObject, language: String) {
        guard case .object(var layout)? = layer["layout"], let field = layout["text-field"] else { return }
        let original: JSONValue
        switch field {
        case .string(let template):
            // A one-token template such as "{name}" or "{name:latin}".
            guard template.hasPrefix("{"), template.hasSuffix("}"), template.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" }) else { return }
            let key = String(template.dropFirst().dropLast())
            guard key.hasPrefix("name") else { return }
            original = .array([.string("get"), .string(key)])
        case .array(let items):
            guard case .string(let op)? = items.first, ["coalesce", "get", "to-string"].contains(op), mentionsName(field) else { return }
            original = field
        default:
            return
        }
        var codes = [language]
        if let dash = language.firstIndex(where: { $0 == "-" || $0 == "_" }) { codes.append(String(language[..<dash])) }
        var choices: [JSONValue] = [.string("coalesce")]
        for code in codes {
            choices.append(.array([.string("get"), .string("name:" + code)]))
            choices.append(.array([.string("get"), .string("name_" + code)]))
        }
        choices.append(original)
        layout["text-field"] = .array(choices)
        layer["layout"] = .object(layout)
    }

    private static func mentionsName(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): return s.hasPrefix("name")
        case .array(let items): return items.contains(where: mentionsName)
        default: return false
        }
    }

    // MARK: Rules

    /// One part of a layer a rule can select, and the paint property it is drawn with.
    private struct Element {
        var name: String
        /// The colour property (nil: a raster, which only shows or hides).
        var colorProperty: String?
        /// The property `weight` sets.
        var widthProperty: String?
        /// How to hide just this part when the layer has other parts.
        var opacityProperty: String?
        /// The style specification's default colour when the layer does not set one.
        var defaultColor: String
    }

    private static func style(_ layer: inout JSONObject, rules: [MapStyleRule]) {
        guard let feature = feature(of: layer) else { return }
        let elements = self.elements(of: layer, feature: feature)
        var paint: JSONObject = { if case .object(let p)? = layer["paint"] { return p } else { return JSONObject() } }()
        var layout: JSONObject = { if case .object(let l)? = layer["layout"] { return l } else { return JSONObject() } }()
        var touchedPaint = false, touchedLayout = false
        for rule in rules where MapStyleRule.selects(rule.feature, feature) {
            let chosen = elements.filter { MapStyleRule.selects(rule.element, $0.name) }
            guard !chosen.isEmpty else { continue }
            for styler in rule.stylers {
                switch styler {
                case .visibility(let on):
                    if chosen.count == elements.count {
                        layout["visibility"] = .string(on ? "visible" : "none")
                        touchedLayout = true
                    } else {
                        for e in chosen {
                            guard let opacity = e.opacityProperty else { continue }
                            if on { paint[opacity] = nil } else { paint[opacity] = .number(0) }
                            touchedPaint = true
                        }
                    }
                case .color(let c):
                    for e in chosen {
                        guard let property = e.colorProperty else { continue }
                        paint[property] = .string(cssText(StyleColor(c)))
                        touchedPaint = true
                    }
                case .weight(let w):
                    for e in chosen {
                        guard let property = e.widthProperty else { continue }
                        paint[property] = .number(w)
                        touchedPaint = true
                    }
                case .hue, .lightness, .saturation, .gamma, .invertLightness:
                    for e in chosen {
                        guard let property = e.colorProperty else { continue }
                        paint[property] = transformColors(paint[property] ?? .string(e.defaultColor)) { adjust($0, styler) }
                        touchedPaint = true
                    }
                }
            }
        }
        if touchedPaint { layer["paint"] = .object(paint) }
        if touchedLayout { layer["layout"] = .object(layout) }
    }

    /// The Google feature type a layer draws, or nil for layers outside the taxonomy
    /// (imagery), which only `feature:all` rules… also leave alone.
    private static func feature(of layer: JSONObject) -> String? {
        let type = layer["type"]?.stringValue ?? ""
        switch type {
        case "background": return "landscape"
        case "hillshade": return "landscape.natural.terrain"
        case "raster": return layer["source"]?.stringValue == "relief" ? "landscape.natural.terrain" : nil
        default: break
        }
        let classes = Set(strings(in: layer["filter"] ?? .null))
        func has(_ names: String...) -> Bool { names.contains(where: classes.contains) }
        switch layer["source-layer"]?.stringValue ?? "" {
        case "landcover", "natural": return "landscape.natural.landcover"
        case "earth": return "landscape"
        case "mountain_peak": return "landscape.natural.terrain"
        case "building": return "landscape.man_made"
        case "buildings":
            // Protomaps keeps address points (house numbers) with the buildings.
            return type == "symbol" || has("address") ? "administrative.land_parcel" : "landscape.man_made"
        case "landuse":
            if has("hospital") { return "poi.medical" }
            if has("school", "college", "university", "kindergarten") { return "poi.school" }
            if has("pitch", "stadium", "playground") { return "poi.sports_complex" }
            // Protomaps: airports, parks and natural surfaces are landuse kinds.
            if has("aerodrome", "runway", "taxiway") { return "transit.station.airport" }
            if has("park", "national_park", "nature_reserve", "protected_area", "garden") { return "poi.park" }
            if has("wood", "forest", "grass", "grassland", "meadow", "scrub", "farmland", "wetland", "sand", "beach",
                   "glacier", "bare_rock") {
                return "landscape.natural.landcover"
            }
            return "landscape.man_made"
        case "park": return "poi.park"
        case "poi", "pois":
            // Protomaps keeps airports among its POIs (OpenMapTiles: `aerodrome_label`).
            return has("aerodrome") ? "transit.station.airport" : "poi"
        case "water", "waterway", "water_name", "physical_line": return "water"
        case "aeroway", "aerodrome_label": return "transit.station.airport"
        case "transit": return "transit.line"
        case "transportation", "transportation_name":
            if has("rail", "transit") { return "transit.line" }
            if has("ferry") { return "transit.line" }
            if has("motorway") && !has("trunk", "primary", "minor") { return "road.highway.controlled_access" }
            if has("motorway", "trunk") && !has("minor") { return "road.highway" }
            if has("primary", "secondary") && !has("minor") { return "road.arterial" }
            return "road.local"
        case "roads":
            // Protomaps: `kind` highway (motorways), major_road (trunk … tertiary, told apart
            // by `kind_detail`), minor_road, path; rail, ferry and aeroway share the layer.
            if has("rail", "ferry") { return "transit.line" }
            if has("aeroway") { return "transit.station.airport" }
            if has("highway") && !has("major_road", "minor_road") { return "road.highway.controlled_access" }
            if has("trunk") && !has("minor_road") { return "road.highway" }
            if has("primary", "secondary", "major_road") && !has("minor_road") { return "road.arterial" }
            return "road.local"
        case "boundary":
            let levels = Set(numbers(in: layer["filter"] ?? .null))
            if levels.contains(2) { return "administrative.country" }
            if levels.contains(4) { return "administrative.province" }
            return "administrative"
        case "boundaries":
            if has("country") { return "administrative.country" }
            if has("region") { return "administrative.province" }
            return "administrative"
        case "place", "places":
            if has("country") { return "administrative.country" }
            if has("state", "province", "region") { return "administrative.province" }
            if has("suburb", "quarter", "neighbourhood", "macrohood", "hamlet") { return "administrative.neighborhood" }
            return "administrative.locality"
        case "housenumber": return "administrative.land_parcel"
        default: return nil
        }
    }

    /// The parts of a layer a rule can select.
    private static func elements(of layer: JSONObject, feature: String) -> [Element] {
        let id = layer["id"]?.stringValue ?? ""
        switch layer["type"]?.stringValue ?? "" {
        case "background":
            return [Element(name: "geometry.fill", colorProperty: "background-color", defaultColor: "#000000")]
        case "fill":
            return [Element(name: "geometry.fill", colorProperty: "fill-color", opacityProperty: "fill-opacity", defaultColor: "#000000"),
                    Element(name: "geometry.stroke", colorProperty: "fill-outline-color", defaultColor: "#000000")]
        case "fill-extrusion":
            return [Element(name: "geometry.fill", colorProperty: "fill-extrusion-color", opacityProperty: "fill-extrusion-opacity",
                            defaultColor: "#000000")]
        case "line":
            // A road's, river's or railway's line is its fill and its casing its stroke; a
            // boundary is a stroke.
            let isBody = !id.contains("casing") && (feature.hasPrefix("road") || feature.hasPrefix("water") || feature.hasPrefix("transit"))
            return [Element(name: isBody ? "geometry.fill" : "geometry.stroke", colorProperty: "line-color",
                            widthProperty: "line-width", defaultColor: "#000000")]
        case "symbol":
            guard case .object(let layout)? = layer["layout"] else { return [] }
            var out: [Element] = []
            if layout["text-field"] != nil {
                out.append(Element(name: "labels.text.fill", colorProperty: "text-color", opacityProperty: "text-opacity", defaultColor: "#000000"))
                out.append(Element(name: "labels.text.stroke", colorProperty: "text-halo-color", widthProperty: "text-halo-width",
                                   defaultColor: "rgba(0, 0, 0, 0)"))
            }
            if layout["icon-image"] != nil {
                out.append(Element(name: "labels.icon", colorProperty: "icon-color", opacityProperty: "icon-opacity", defaultColor: "#000000"))
            }
            return out
        case "raster", "hillshade":
            return [Element(name: "geometry.fill", colorProperty: nil, defaultColor: "#000000")]
        default:
            return []
        }
    }

    private static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let s): return [s]
        case .array(let items): return items.flatMap(strings)
        default: return []
        }
    }

    private static func numbers(in value: JSONValue) -> [Double] {
        switch value {
        case .number(let n): return [n]
        case .array(let items): return items.flatMap(numbers)
        default: return []
        }
    }

    // MARK: Colours

    /// `value` with every colour string in it (a literal, or the stops of an expression)
    /// transformed.
    private static func transformColors(_ value: JSONValue, _ transform: (StyleColor) -> StyleColor) -> JSONValue {
        switch value {
        case .string(let s):
            guard let c = CSSColor.parse(s) else { return value }
            return .string(cssText(transform(c)))
        case .array(let items):
            return .array(items.map { transformColors($0, transform) })
        default:
            return value
        }
    }

    static func cssText(_ c: StyleColor) -> String {
        func channel(_ v: Double) -> String { JSONWriter.format((v * 255 * 1000).rounded() / 1000) }
        return "rgba(\(channel(c.red)), \(channel(c.green)), \(channel(c.blue)), \(JSONWriter.format((c.alpha * 1000).rounded() / 1000)))"
    }

    /// One styler applied to one colour, in HSL (after Google's documentation of each).
    static func adjust(_ c: StyleColor, _ styler: MapStyleRule.Styler) -> StyleColor {
        var (h, s, l) = hsl(c)
        switch styler {
        case .hue(let target):
            let (th, ts, _) = hsl(StyleColor(target))
            // An achromatic target has no hue to give.
            guard ts > 0 else { return c }
            h = th
            if s == 0 { s = 0.5 }
        case .saturation(let amount):
            let t = max(-1, min(1, amount / 100))
            s = t < 0 ? s * (1 + t) : s + (1 - s) * t
        case .lightness(let amount):
            let t = max(-1, min(1, amount / 100))
            l = t < 0 ? l * (1 + t) : l + (1 - l) * t
        case .gamma(let g):
            guard g > 0 else { return c }
            func curve(_ v: Double) -> Double { pow(v, 1 / g) }
            return StyleColor(red: curve(c.red), green: curve(c.green), blue: curve(c.blue), alpha: c.alpha)
        case .invertLightness(let on):
            guard on else { return c }
            l = 1 - l
        case .visibility, .color, .weight:
            return c
        }
        return CSSColor.hslToRGB(hueDegrees: h, saturation: s, lightness: l, alpha: c.alpha)
    }

    /// Hue in degrees, saturation and lightness in 0…1.
    private static func hsl(_ c: StyleColor) -> (Double, Double, Double) {
        let maxC = max(c.red, c.green, c.blue), minC = min(c.red, c.green, c.blue)
        let l = (maxC + minC) / 2
        guard maxC > minC else { return (0, 0, l) }
        let d = maxC - minC
        let s = l > 0.5 ? d / (2 - maxC - minC) : d / (maxC + minC)
        var h: Double
        if maxC == c.red {
            h = (c.green - c.blue) / d + (c.green < c.blue ? 6 : 0)
        } else if maxC == c.green {
            h = (c.blue - c.red) / d + 2
        } else {
            h = (c.red - c.green) / d + 4
        }
        h *= 60
        return (h, s, l)
    }
}
