/// Why JSON text could not be read, with everything needed to find the spot: the source name,
/// the byte offset, line and column, and the key path of the value being read
/// (`features[3].geometry.coordinates[17]`).
///
/// Stage errors (`StyleError`, `GeoJSONError`, `RenderSpecError`) carry it whole, so the
/// evidence survives the stage boundary.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong at that spot.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The text ended while `expected` was still needed.
        case unexpectedEnd(expected: String)
        /// A byte that cannot start or continue what was `expected`; `found` shows it.
        case unexpected(found: String, expected: String)
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape(String)
        /// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair.
        case unpairedSurrogate(String)
        /// Raw bytes that are not UTF-8.
        case invalidUTF8
        /// A control character (U+0000–U+001F) inside a string; JSON requires it escaped.
        case controlCharacter(UInt8)
        /// A number that does not fit a 64-bit float (`1e400`).
        case numberOutOfRange(String)
        /// More arrays/objects open at once than the reader allows.
        case tooDeep(limit: Int)
        /// The document is larger than the reader allows.
        case tooLarge(byteCount: Int, limit: Int)
        /// Something other than white space after the end of the value.
        case trailingData(found: String)
        /// The text is UTF-16 or UTF-32; JSON files must be UTF-8 (RFC 8259 §8.1).
        case notUTF8(encoding: String)

        /// What was wrong, in words (without the place).
        public var description: String {
            switch self {
            case let .unexpectedEnd(expected): return "unexpected end of input, expected \(expected)"
            case let .unexpected(found, expected): return "expected \(expected), found \(found)"
            case let .invalidEscape(text): return "invalid escape \(text)"
            case let .unpairedSurrogate(text): return "unpaired surrogate \(text)"
            case .invalidUTF8: return "invalid UTF-8"
            case let .controlCharacter(byte): return "unescaped control character 0x\(String(byte, radix: 16)) in a string"
            case let .numberOutOfRange(text): return "number \(text) is out of range"
            case let .tooDeep(limit): return "nested deeper than \(limit) levels"
            case let .tooLarge(count, limit): return "\(count) bytes is more than the limit of \(limit)"
            case let .trailingData(found): return "unexpected \(found) after the end of the JSON value"
            case let .notUTF8(encoding): return "the text is \(encoding); save it as UTF-8"
            }
        }
    }

    /// The document's name (a file name, `jobs.jsonl`, a flag).
    public var source: String
    /// Zero-based offset of the offending byte from the start of the file.
    public var byteOffset: Int
    /// One-based line of that byte.
    public var line: Int
    /// One-based column of that byte, counted in Unicode scalars.
    public var column: Int
    /// Where in the document (`layers[2].paint`); empty at the root.
    public var keyPath: String
    /// What was wrong there.
    public var reason: Reason

    init(source: String, byteOffset: Int, line: Int, column: Int, keyPath: String, reason: Reason) {
        self.source = source
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.reason = reason
    }

    /// `spec.json:3:17: invalid JSON at paths[0]: expected ',' or ']', found '}' (byte 52)`:
    /// compiler-style `file:line:column`, so editors can jump to it.
    public var description: String {
        let at = keyPath.isEmpty ? "" : " at \(keyPath)"
        return "\(source):\(line):\(column): invalid JSON\(at): \(reason) (byte \(byteOffset))"
    }
}
