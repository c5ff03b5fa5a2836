/// CSS colour syntax as MapLibre accepts it in styles.
///
/// Accepted: the CSS named colours and `transparent`; `#rgb`, `#rgba`, `#rrggbb`,
/// `#rrggbbaa`; `rgb()`/`rgba()` with 0…255 or percentage channels; `hsl()`/`hsla()` with
/// a hue in degrees (optional `deg`) and percentage saturation/lightness. Both the comma
/// form `rgba(1, 2, 3, 0.5)` and the CSS Color 4 space form `rgb(1 2 3 / 50%)` are read,
/// and either function name takes three or four arguments. Matching is ASCII
/// case-insensitive and ignores surrounding whitespace. Out-of-range channels are clamped
/// (as browsers do); malformed text returns nil, never traps.
enum CSSColor {
    /// Upper bound on the text we look at; real colours are a few dozen characters.
    static let maximumLength = 128

    /// Parses `text`, nil when it is not a colour.
    static func parse(_ text: String) -> StyleColor? {
        guard text.utf8.count <= maximumLength else { return nil }
        let s = text.lowercased().trimmingASCIIWhitespace()
        if s.isEmpty { return nil }
        if s.hasPrefix("#") { return parseHex(s.dropFirst()) }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let name = s[s.startIndex..<open].trimmingASCIIWhitespace()
            let body = s[s.index(after: open)..<s.index(before: s.endIndex)]
            return parseFunction(name: name, body: String(body))
        }
        if s == "transparent" { return .transparent }
        if let rgb = named[s] {
            return StyleColor(Color(rgb: rgb))
        }
        return nil
    }

    private static func parseHex(_ digits: Substring) -> StyleColor? {
        var values: [Double] = []
        values.reserveCapacity(8)
        for ch in digits.utf8 {
            guard let v = hexValue(ch) else { return nil }
            values.append(Double(v))
        }
        switch values.count {
        case 3, 4:
            let c = values.map { ($0 * 17) / 255 }
            return StyleColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        case 6, 8:
            var c: [Double] = []
            for i in stride(from: 0, to: values.count, by: 2) { c.append((values[i] * 16 + values[i + 1]) / 255) }
            return StyleColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }

    private static func hexValue(_ ch: UInt8) -> UInt8? {
        switch ch {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ch - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ch - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static func parseFunction(name: String, body: String) -> StyleColor? {
        // Split "a, b, c, d" or "a b c / d" into components.
        var parts: [String]
        if body.contains(",") {
            parts = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespace() }
        } else {
            let slashParts = body.split(separator: "/", omittingEmptySubsequences: false)
            guard slashParts.count <= 2 else { return nil }
            parts = slashParts[0].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if slashParts.count == 2 {
                guard parts.count == 3 else { return nil }
                parts.append(slashParts[1].trimmingASCIIWhitespace())
            }
        }
        guard parts.count == 3 || parts.count == 4, !parts.contains(where: \.isEmpty) else { return nil }
        var alpha = 1.0
        if parts.count == 4 {
            guard let a = component(parts[3], percentScale: 1, plainScale: 1) else { return nil }
            alpha = a
        }
        switch name {
        case "rgb", "rgba":
            guard let r = component(parts[0], percentScale: 1, plainScale: 255),
                  let g = component(parts[1], percentScale: 1, plainScale: 255),
                  let b = component(parts[2], percentScale: 1, plainScale: 255) else { return nil }
            return StyleColor(red: r, green: g, blue: b, alpha: alpha)
        case "hsl", "hsla":
            var hueText = Substring(parts[0])
            if hueText.hasSuffix("deg") { hueText = hueText.dropLast(3) }
            guard let hue = Double(hueText), hue.isFinite,
                  let sat = percentage(parts[1]), let light = percentage(parts[2]) else { return nil }
            return hslToRGB(hueDegrees: hue, saturation: sat, lightness: light, alpha: alpha)
        default:
            return nil
        }
    }

    /// A number, or a percentage when it ends in `%`; returns the value in 0…1 units.
    private static func component(_ text: String, percentScale: Double, plainScale: Double) -> Double? {
        if text.hasSuffix("%") {
            guard let v = Double(text.dropLast()), v.isFinite else { return nil }
            return v / 100 * percentScale
        }
        guard let v = Double(text), v.isFinite else { return nil }
        return v / plainScale
    }

    private static func percentage(_ text: String) -> Double? {
        // CSS requires the `%`; MapLibre's parser is lenient about it and so are we.
        let body = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let v = Double(body), v.isFinite else { return nil }
        return Swift.min(Swift.max(v / 100, 0), 1)
    }

    /// The CSS Color 3 algorithm (hue in degrees; saturation/lightness in 0…1).
    static func hslToRGB(hueDegrees: Double, saturation s: Double, lightness l: Double, alpha: Double) -> StyleColor {
        var h = hueDegrees.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        h /= 360
        let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
        let m1 = l * 2 - m2
        func hue(_ x: Double) -> Double {
            var h = x
            if h < 0 { h += 1 }
            if h > 1 { h -= 1 }
            if h * 6 < 1 { return m1 + (m2 - m1) * h * 6 }
            if h * 2 < 1 { return m2 }
            if h * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3.0 - h) * 6 }
            return m1
        }
        return StyleColor(red: hue(h + 1.0 / 3.0), green: hue(h), blue: hue(h - 1.0 / 3.0), alpha: alpha)
    }

    /// The CSS Color 4 named colours (`0xRRGGBB`).
    static let named: [String: UInt32] = [
        "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4,
        "azure": 0xF0FFFF, "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000,
        "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF, "blueviolet": 0x8A2BE2, "brown": 0xA52A2A,
        "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00, "chocolate": 0xD2691E,
        "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
        "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B,
        "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B,
        "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC,
        "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B,
        "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3,
        "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969,
        "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22,
        "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700,
        "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F,
        "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C,
        "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA,
        "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6,
        "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3,
        "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A,
        "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899,
        "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32,
        "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000, "mediumaquamarine": 0x66CDAA,
        "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371,
        "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC,
        "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1,
        "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
        "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500,
        "orchid": 0xDA70D6, "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE,
        "palevioletred": 0xDB7093, "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F,
        "pink": 0xFFC0CB, "plum": 0xDDA0DD, "powderblue": 0xB0E0E6, "purple": 0x800080,
        "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1,
        "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57,
        "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB,
        "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
        "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080,
        "thistle": 0xD8BFD8, "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE,
        "wheat": 0xF5DEB3, "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00,
        "yellowgreen": 0x9ACD32,
    ]
}
