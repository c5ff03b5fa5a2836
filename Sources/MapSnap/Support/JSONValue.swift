import Foundation

/// A JSON document as a tree: mapsnap's one in-memory JSON type, for documents that are read
/// as a whole (styles, specs, tile metadata) and for the writer.
///
/// Numbers are `Double`s parsed exactly as `Double(String)` would; objects keep their keys
/// in document order (`JSONObject`), so whatever is built from them is the same on every run.
/// Big inputs whose shape is known (GeoJSON coordinates) skip the tree: see `JSONReader`.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type name for messages ("expected number, found string").
    var typeName: String { kind.name }

    /// The value's kind; `kind.withArticle` names it in messages ("found an array").
    var kind: JSONReader.Kind {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// Short text of the value for messages; long values are cut.
    var excerpt: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let b): text = b ? "true" : "false"
        case .number(let n): text = JSONWriter.format(n)
        case .string(let s): text = "\"" + s + "\""
        case .array(let items): text = "[" + items.map(\.excerpt).joined(separator: ", ") + "]"
        case .object(let o): text = "{" + o.keys.sorted().joined(separator: ", ") + "}"
        }
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }

    /// Parses a whole document into a tree, refusing nesting deeper than `maximumDepth`.
    /// `origin` names the document in errors.
    static func parse(_ data: Data, origin: String, maximumDepth: Int) throws(JSONError) -> JSONValue {
        try parse([UInt8](data), origin: origin, maximumDepth: maximumDepth)
    }

    /// Parses a whole document into a tree; see `parse(_:origin:maximumDepth:)`.
    static func parse(_ bytes: [UInt8], origin: String, maximumDepth: Int = JSONReader.defaultMaximumDepth) throws(JSONError) -> JSONValue {
        var reader = try JSONReader(bytes: bytes, source: origin, maximumDepth: maximumDepth)
        let value = try reader.readValue()
        try reader.finish()
        return value
    }
}

extension JSONValue {
    /// The string, or nil for any other type.
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The number, or nil for any other type (booleans are not numbers).
    var numberValue: Double? { if case .number(let n) = self { n } else { nil } }

    /// The object, or nil for any other type.
    var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The elements, or nil for any other type.
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
