/// Writes a string as a JSON string literal (quotes, backslashes and control characters
/// escaped; everything else verbatim UTF-8), for the few places that emit JSON by hand
/// because they need a fixed key order.
package enum JSONString {
    package static func append(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
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

    package static func quoted(_ s: String) -> String {
        var out = ""
        append(s, to: &out)
        return out
    }
}
