/// Writes `JSONValue`s as JSON text: mapsnap's one JSON writer (specs, compare reports, tile
/// metadata, inline GeoJSON in styles).
///
/// The output depends only on the value, so equal values give equal bytes on every run:
/// - keys in the object's order (document or insertion order), or sorted by their UTF-8
///   bytes with `sortedKeys` — never a `Dictionary`'s per-process order;
/// - numbers: whole numbers below 10¹⁵ as integers (`3`, not `3.0`), others in Swift's
///   shortest round-trip form (`0.1`, `1e-07`), which `JSONReader` reads back to the same
///   `Double`; NaN and infinities, which JSON cannot express, as `null`;
/// - strings: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`, everything
///   else verbatim UTF-8 (no `\/`);
/// - `pretty`: two-space indentation, `"key": value`, and arrays of scalars kept on one line
///   (`[60.17, 24.94]`) so coordinate lists stay readable.
package enum JSONWriter {
    /// The text of `value`.
    static func text(_ value: JSONValue, pretty: Bool = false, sortedKeys: Bool = false) -> String {
        var out = ""
        write(value, pretty: pretty, sortedKeys: sortedKeys, indent: 0, to: &out)
        return out
    }

    /// The UTF-8 bytes of `value`'s text.
    static func bytes(_ value: JSONValue, pretty: Bool = false, sortedKeys: Bool = false) -> [UInt8] {
        Array(text(value, pretty: pretty, sortedKeys: sortedKeys).utf8)
    }

    private static func write(_ value: JSONValue, pretty: Bool, sortedKeys: Bool, indent: Int, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += format(n)
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            let multiline = pretty && items.contains { if case .array = $0 { return true }; if case .object = $0 { return true }; return false }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += pretty && !multiline ? ", " : "," }
                if multiline { newline(indent + 1, to: &out) }
                write(item, pretty: pretty, sortedKeys: sortedKeys, indent: indent + 1, to: &out)
            }
            if multiline { newline(indent, to: &out) }
            out += "]"
        case .object(let object):
            if object.isEmpty {
                out += "{}"
                return
            }
            var members = Array(object)
            if sortedKeys { members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } }
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(indent + 1, to: &out) }
                appendString(member.key, to: &out)
                out += pretty ? ": " : ":"
                write(member.value, pretty: pretty, sortedKeys: sortedKeys, indent: indent + 1, to: &out)
            }
            if pretty { newline(indent, to: &out) }
            out += "}"
        }
    }

    private static func newline(_ indent: Int, to out: inout String) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// A number as JSON text; see the type's notes.
    static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// Appends `s` as a JSON string literal.
    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `s` as a JSON string literal (also for the CLI's hand-ordered reports).
    package static func quoted(_ s: String) -> String {
        var out = ""
        appendString(s, to: &out)
        return out
    }
}
