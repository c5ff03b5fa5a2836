/// A value produced by a style expression, following MapLibre's runtime types.
///
/// Formatted text (`format`) and resolved images (`image`) are reduced to `.string`;
/// objects are not representable (the `properties` object only exists as an argument
/// of `get`/`has`).
enum StyleValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([StyleValue])

    /// Converts a feature property value.
    @inline(__always)
    init(_ value: FeatureValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        }
    }

    /// The MapLibre type name (`typeof`), also used in messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .color: return "color"
        case .array: return "array"
        }
    }

    /// The payload of `.number`, `.string` or `.bool`; nil for any other type.
    var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The value as `to-string` renders it: null → "", numbers without a trailing ".0",
    /// colours as `rgba(...)`, arrays as JSON.
    var description: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return Self.formatNumber(n)
        case .string(let s): return s
        case .color(let c): return c.description
        case .array(let items): return "[" + items.map { $0.jsonText }.joined(separator: ",") + "]"
        }
    }

    private var jsonText: String {
        switch self {
        case .null: return "null"
        case .string(let s): return "\"" + s + "\""
        default: return description
        }
    }

    /// Formats a number like JavaScript's `String(n)` for the common cases: integers
    /// without a fraction, others with Swift's shortest round-trip representation.
    static func formatNumber(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }
}
