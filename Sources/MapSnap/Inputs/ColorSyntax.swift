/// Colour literals as the Google Maps Static API accepts them, plus the CSS hex forms used by
/// GeoJSON simplestyle and JSON specs. Case-insensitive.
///
/// | Form          | Example      | Alpha          |
/// |---------------|--------------|----------------|
/// | `0xRRGGBB`    | `0xFF8800`   | opaque         |
/// | `0xRRGGBBAA`  | `0xFF880080` | given          |
/// | `#RGB`        | `#f80`       | opaque         |
/// | `#RRGGBB`     | `#ff8800`    | opaque         |
/// | `#RRGGBBAA`   | `#ff880080`  | given          |
/// | name          | `orange`     | opaque         |
public enum ColorSyntax {
    /// Google's ten named colours. Values approximate what Google's servers draw for each name
    /// (their palette is not published; these are the commonly observed sRGB equivalents).
    public static let namedColors: [(name: String, color: Color)] = [
        ("black", Color(rgb: 0x000000)),
        ("brown", Color(rgb: 0xA52A2A)),
        ("green", Color(rgb: 0x00C000)),
        ("purple", Color(rgb: 0x800080)),
        ("yellow", Color(rgb: 0xFFFF00)),
        ("blue", Color(rgb: 0x0000FF)),
        ("gray", Color(rgb: 0x808080)),
        ("orange", Color(rgb: 0xFFA500)),
        ("red", Color(rgb: 0xFF0000)),
        ("white", Color(rgb: 0xFFFFFF)),
    ]

    /// Parses one colour literal (surrounding spaces are ignored).
    public static func parse(_ text: String) throws(ColorSyntaxError) -> Color {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        let lower = trimmed.lowercased()
        if let named = namedColors.first(where: { $0.name == lower }) { return named.color }
        let digits: Substring
        if lower.hasPrefix("0x") {
            digits = lower.dropFirst(2)
            guard digits.utf8.count == 6 || digits.utf8.count == 8 else { throw .invalid(text: trimmed) }
        } else if lower.hasPrefix("#") {
            digits = lower.dropFirst()
            guard [3, 6, 8].contains(digits.utf8.count) else { throw .invalid(text: trimmed) }
        } else {
            throw .invalid(text: trimmed)
        }
        var nibbles: [UInt32] = []
        nibbles.reserveCapacity(8)
        for byte in digits.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(UInt32(byte - UInt8(ascii: "0")))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(UInt32(byte - UInt8(ascii: "a") + 10))
            default: throw .invalid(text: trimmed)
            }
        }
        if nibbles.count == 3 {
            // #RGB doubles each digit: #f80 is #ff8800.
            nibbles = nibbles.flatMap { [$0, $0] }
        }
        let value = nibbles.reduce(UInt32(0)) { $0 << 4 | $1 }
        return nibbles.count == 8 ? Color(rgba: value) : Color(rgb: value)
    }
}

/// Why a colour literal was rejected.
public enum ColorSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case invalid(text: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        let expected = "expected 0xRRGGBB, 0xRRGGBBAA, #RGB, #RRGGBB, #RRGGBBAA or one of "
            + ColorSyntax.namedColors.map(\.name).joined(separator: ", ")
        switch self {
        case .empty: return "empty colour (\(expected))"
        case let .invalid(text): return "\"\(text)\" is not a colour (\(expected))"
        }
    }
}
