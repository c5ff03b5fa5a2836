import Foundation

/// A parsed JSON value with types told apart by hand (Foundation reports JSON booleans as
/// `NSNumber`), so the style parser can validate every value it reads.
indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON type name for messages ("expected number, found string").
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Short text of the value for messages; long values are cut.
    var excerpt: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let b): text = b ? "true" : "false"
        case .number(let n): text = StyleValue.formatNumber(n)
        case .string(let s): text = "\"" + s + "\""
        case .array(let items): text = "[" + items.map(\.excerpt).joined(separator: ", ") + "]"
        case .object(let o): text = "{" + o.keys.sorted().joined(separator: ", ") + "}"
        }
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }

    /// The type of a JSON `true`/`false` as JSONSerialization returns it.
    private static let booleanType = type(of: NSNumber(value: true))

    /// Reads bytes with JSONSerialization and converts them, refusing nesting deeper than
    /// `maximumDepth`.
    static func parse(_ data: Data, origin: String, maximumDepth: Int) throws -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
            let offset = characterOffset(in: reason)
            let line = offset.map { lineNumber(ofByteOffset: $0, in: data) }
            throw StyleError.invalidJSON(origin: origin, byteOffset: offset, line: line, reason: reason)
        }
        return try convert(object, path: "", origin: origin, depth: 0, maximumDepth: maximumDepth)
    }

    private static func convert(_ object: Any, path: String, origin: String, depth: Int, maximumDepth: Int) throws -> JSONValue {
        guard depth <= maximumDepth else {
            throw StyleError.nestingTooDeep(origin: origin, keyPath: path.isEmpty ? "(root)" : path, limit: maximumDepth)
        }
        switch object {
        case is NSNull:
            return .null
        case let s as String:
            return .string(s)
        case let n as NSNumber:
            if type(of: n) == booleanType { return .bool(n.boolValue) }
            return .number(n.doubleValue)
        case let items as [Any]:
            var out: [JSONValue] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                out.append(try convert(item, path: "\(path)[\(i)]", origin: origin, depth: depth + 1, maximumDepth: maximumDepth))
            }
            return .array(out)
        case let dict as [String: Any]:
            var out: [String: JSONValue] = [:]
            out.reserveCapacity(dict.count)
            for (key, item) in dict {
                let childPath = path.isEmpty ? key : path + "." + key
                out[key] = try convert(item, path: childPath, origin: origin, depth: depth + 1, maximumDepth: maximumDepth)
            }
            return .object(out)
        default:
            throw StyleError.invalidJSON(origin: origin, byteOffset: nil, line: nil,
                                         reason: "unexpected value of type \(type(of: object)) at \(path)")
        }
    }

    /// Foundation says "… around character 13." (or "line 3, column 5" on newer versions);
    /// we pull the character offset out when it is there.
    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    private static func lineNumber(ofByteOffset offset: Int, in data: Data) -> Int {
        var line = 1
        for byte in data.prefix(Swift.max(0, offset)) where byte == UInt8(ascii: "\n") { line += 1 }
        return line
    }
}
