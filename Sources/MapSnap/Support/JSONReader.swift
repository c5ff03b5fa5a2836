/// A byte-level JSON reader (RFC 8259) that can be pulled value by value, so that big inputs
/// go straight to typed values — GeoJSON coordinates into `[LatLng]` — with no tree and no
/// per-value strings in between; `readValue()` builds a `JSONValue` tree where one is wanted.
///
/// ```
/// var reader = try JSONReader(bytes: bytes, source: "route.geojson")
/// try reader.beginObject()
/// while let key = try reader.nextKey() {          // positioned at the member's value
///     switch key {
///     case "coordinates": try reader.beginArray(); while try reader.nextElement() { … }
///     default: try reader.skipValue()
///     }
/// }
/// try reader.finish()                              // only white space may follow
/// ```
///
/// What it accepts, and what it does not:
/// - UTF-8 only; a leading byte-order mark is skipped, UTF-16/32 text is refused by name.
/// - Strings: all escapes, surrogate pairs joined; raw bytes must be valid UTF-8 and control
///   characters escaped; lone surrogates (`"\uD800"`) are errors, so strings are always valid.
/// - Numbers: the JSON grammar (no `+1`, `01`, `.5`, `NaN`), converted to exactly the `Double`
///   that `Double(String)` gives for the same text (both round correctly); a number that
///   overflows to infinity (`1e400`) is an error.
/// - Duplicate keys are not errors: `readValue()` keeps the last value (see `JSONObject`);
///   pull readers see every member and decide themselves.
/// - Nesting is capped at `maximumDepth` open arrays/objects, the size at `maximumSize` bytes;
///   anything but white space after the value is an error (`finish()`).
///
/// Errors are `JSONError`s naming the byte offset, line, column and the key path of the value
/// being read. The path is kept as a small stack of (key or index) frames and only turned into
/// text when an error is thrown, so reading a million coordinates builds no strings.
struct JSONReader {
    /// Nesting limit for documents whose readers do not choose one.
    static let defaultMaximumDepth = 128
    /// Size limit for documents whose readers do not choose one.
    static let defaultMaximumSize = 1 << 30

    /// The bytes that hold the document (a JSON Lines reader shares the whole file).
    let bytes: [UInt8]
    /// Names the document in errors.
    let source: String
    /// Most arrays/objects open at once.
    let maximumDepth: Int
    /// The document is `bytes[start..<end]`.
    let start: Int
    let end: Int
    /// The line number of `start`, for documents that begin inside a file (JSON Lines).
    let firstLine: Int
    /// Offset of the next byte to read.
    private(set) var position: Int
    private var frames: [Frame] = []

    /// One open array or object: how many elements/members have begun, and the last key.
    fileprivate struct Frame {
        var isObject: Bool
        var count: Int
        var key: String
    }

    /// The kind of the next value, from its first byte.
    enum Kind: Equatable, Sendable {
        case null, bool, number, string, array, object

        /// The JSON type name: "boolean", "object".
        var name: String {
            switch self {
            case .null: return "null"
            case .bool: return "boolean"
            case .number: return "number"
            case .string: return "string"
            case .array: return "array"
            case .object: return "object"
            }
        }

        /// "a number", "an object": for messages.
        var withArticle: String {
            switch self {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    /// A place in the document to come back to (`seek(to:)`), with its key path.
    struct Mark {
        fileprivate let position: Int
        fileprivate let frames: [Frame]
    }

    /// A reader over `bytes[range]` (all of `bytes` by default). Throws when the document is
    /// larger than `maximumSize` or is not UTF-8.
    init(bytes: [UInt8], range: Range<Int>? = nil, source: String, firstLine: Int = 1,
         maximumDepth: Int = JSONReader.defaultMaximumDepth,
         maximumSize: Int = JSONReader.defaultMaximumSize) throws(JSONError) {
        let range = range ?? bytes.startIndex..<bytes.endIndex
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "range outside the bytes")
        self.bytes = bytes
        self.source = source
        self.maximumDepth = maximumDepth
        self.start = range.lowerBound
        self.end = range.upperBound
        self.firstLine = firstLine
        self.position = range.lowerBound
        guard range.count <= maximumSize else {
            throw error(.tooLarge(byteCount: range.count, limit: maximumSize), at: start)
        }
        try skipByteOrderMark()
    }

    /// JSON text starts with white space or an ASCII value byte, so a zero byte among the
    /// first two means UTF-16 or UTF-32; FE FF / FF FE are their byte-order marks.
    private mutating func skipByteOrderMark() throws(JSONError) {
        let count = end - start
        if count >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
            position += 3
            return
        }
        guard count >= 2 else { return }
        let (b0, b1) = (bytes[start], bytes[start + 1])
        if (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) || b0 == 0 || b1 == 0 {
            let wide = count >= 4 && ((b0 == 0 && b1 == 0) || (bytes[start + 2] == 0 && bytes[start + 3] == 0))
            throw error(.notUTF8(encoding: wide ? "UTF-32" : "UTF-16"), at: start)
        }
    }

    // MARK: Where we are

    /// How many arrays/objects are open.
    var depth: Int { frames.count }

    /// The key path of the value at the reader (`features[3].geometry`); empty at the root.
    var keyPath: String { keyPath(depth: frames.count) }

    /// The key path through the outermost `depth` open containers only: inside a position
    /// `[lon, lat]`, `keyPath(depth: depth - 1)` names the position itself.
    func keyPath(depth: Int) -> String {
        var out = ""
        for frame in frames.prefix(depth) where frame.count > 0 {
            if frame.isObject {
                if !out.isEmpty { out += "." }
                out += frame.key
            } else {
                out += "[\(frame.count - 1)]"
            }
        }
        return out
    }

    /// `keyPath` with `key` appended, for a member that is missing from the object just read.
    func keyPath(appending key: String) -> String {
        let path = keyPath
        return path.isEmpty ? key : path + "." + key
    }

    /// Where the reader is, to come back with `seek(to:)` (e.g. to a member that could only be
    /// read once a later member was known).
    var mark: Mark { Mark(position: position, frames: frames) }

    mutating func seek(to mark: Mark) {
        position = mark.position
        frames = mark.frames
    }

    /// An error at `offset` (the reader's position by default) with the current key path.
    /// `inMember: false` leaves the current member out of the path (for a separator that is
    /// missing after a member's value, the place is the container).
    func error(_ reason: JSONError.Reason, at offset: Int? = nil, inMember: Bool = true) -> JSONError {
        let offset = Swift.min(Swift.max(offset ?? position, start), end)
        var line = firstLine
        var lineStart = start
        var i = start
        while i < offset {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        // Columns count scalars: every byte but UTF-8 continuation bytes starts one.
        var column = 1
        for byte in bytes[lineStart..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        var path = keyPath
        if !inMember, let top = frames.last, top.count > 0 {
            path = self.keyPath(depth: frames.count - 1)
        }
        return JSONError(source: source, byteOffset: offset, line: line, column: column, keyPath: path, reason: reason)
    }

    /// The byte at `offset` for a message: `'x'`, `end of input`, or its code.
    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return byte == 0x20 ? "a space" : "byte 0x\(String(byte, radix: 16))" }
        // A non-ASCII character outside a string: show it when it decodes.
        var length = 1
        while offset + length < end, length < 4, bytes[offset + length] & 0xC0 == 0x80 { length += 1 }
        if let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self) { return "'\(text)'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// The kind of the next value (after white space), without consuming it.
    mutating func peek() throws(JSONError) -> Kind {
        skipWhitespace()
        guard position < end else { throw error(.unexpectedEnd(expected: "a value")) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw error(.unexpected(found: describeByte(at: position), expected: "a value"))
        }
    }

    /// Consumes `{`; then call `nextKey()` until it returns nil.
    mutating func beginObject() throws(JSONError) {
        try open(UInt8(ascii: "{"), isObject: true)
    }

    /// Consumes `[`; then call `nextElement()` until it returns false.
    mutating func beginArray() throws(JSONError) {
        try open(UInt8(ascii: "["), isObject: false)
    }

    private mutating func open(_ bracket: UInt8, isObject: Bool) throws(JSONError) {
        skipWhitespace()
        guard position < end, bytes[position] == bracket else {
            let expected = isObject ? "an object" : "an array"
            guard position < end else { throw error(.unexpectedEnd(expected: expected)) }
            throw error(.unexpected(found: describeByte(at: position), expected: expected))
        }
        guard frames.count < maximumDepth else { throw error(.tooDeep(limit: maximumDepth)) }
        position += 1
        frames.append(Frame(isObject: isObject, count: 0, key: ""))
    }

    /// Moves to the next member of the innermost object: returns its key with the reader at
    /// the member's value (which the caller must read or skip), or nil after the closing `}`.
    mutating func nextKey() throws(JSONError) -> String? {
        precondition(frames.last?.isObject == true, "nextKey() outside an object")
        let top = frames.count - 1
        skipWhitespace()
        let first = frames[top].count == 0
        guard position < end else {
            throw error(.unexpectedEnd(expected: first ? "a key or '}'" : "',' or '}'"), inMember: false)
        }
        if bytes[position] == UInt8(ascii: "}") {
            position += 1
            frames.removeLast()
            return nil
        }
        if !first {
            guard bytes[position] == UInt8(ascii: ",") else {
                throw error(.unexpected(found: describeByte(at: position), expected: "',' or '}'"), inMember: false)
            }
            position += 1
            skipWhitespace()
        }
        guard position < end, bytes[position] == UInt8(ascii: "\"") else {
            let expected = "a key in double quotes"
            guard position < end else { throw error(.unexpectedEnd(expected: expected), inMember: false) }
            throw error(.unexpected(found: describeByte(at: position), expected: expected), inMember: false)
        }
        let key = try scanString()
        frames[top].count += 1
        frames[top].key = key
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: ":") else {
            guard position < end else { throw error(.unexpectedEnd(expected: "':' after the key")) }
            throw error(.unexpected(found: describeByte(at: position), expected: "':' after the key"))
        }
        position += 1
        return key
    }

    /// Moves to the next element of the innermost array: true with the reader at the element
    /// (which the caller must read or skip), false after the closing `]`.
    mutating func nextElement() throws(JSONError) -> Bool {
        precondition(frames.last?.isObject == false, "nextElement() outside an array")
        let top = frames.count - 1
        skipWhitespace()
        let first = frames[top].count == 0
        guard position < end else {
            throw error(.unexpectedEnd(expected: first ? "a value or ']'" : "',' or ']'"), inMember: false)
        }
        let byte = bytes[position]
        if byte == UInt8(ascii: "]") {
            position += 1
            frames.removeLast()
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else {
                throw error(.unexpected(found: describeByte(at: position), expected: "',' or ']'"), inMember: false)
            }
            position += 1
        }
        frames[top].count += 1
        return true
    }

    /// Checks that only white space follows the value just read.
    mutating func finish() throws(JSONError) {
        skipWhitespace()
        guard position == end else { throw error(.trailingData(found: describeByte(at: position))) }
    }

    // MARK: Scalars

    /// Reads a string value.
    mutating func readString() throws(JSONError) -> String {
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: "\"") else { throw mismatch(expected: "a string") }
        return try scanString()
    }

    /// Reads a number value; see the type's notes on exactness.
    mutating func readNumber() throws(JSONError) -> Double {
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: "-") || (bytes[position] &- UInt8(ascii: "0")) < 10 else {
            throw mismatch(expected: "a number")
        }
        return try scanNumber()
    }

    /// How many `[` open in a row at the reader (white space between allowed; at most 8) and
    /// whether the innermost is empty at once, without consuming anything: lets a reader see a
    /// coordinates array's shape before it knows the geometry's type.
    func arrayNesting() -> (depth: Int, innermostEmpty: Bool) {
        var i = position
        var depth = 0
        while i < end {
            let byte = bytes[i]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                i += 1
            } else if byte == UInt8(ascii: "[") && depth < 8 {
                depth += 1
                i += 1
            } else {
                return (depth, byte == UInt8(ascii: "]"))
            }
        }
        return (depth, false)
    }

    /// Reads `[a, b]` — exactly two plain numbers — when that is what comes next, as a fast
    /// path for coordinates (no frames pushed, no per-element calls). For anything else,
    /// including malformed text and numbers with an exponent, it leaves the reader where it
    /// was and returns nil: the caller then reads the value generically, which reports any
    /// error with its path.
    mutating func readNumberPair() -> (Double, Double)? {
        let end = self.end
        guard let (a, b, next) = bytes.withUnsafeBufferPointer({ PairScanner(bytes: $0, end: end).pair(at: position) })
        else { return nil }
        position = next
        return (a, b)
    }

    /// The bulk form of `nextElement()` + `readNumberPair()` for the array being read (after
    /// `beginArray()`): reads elements for as long as each is exactly `[a, b]` with two plain
    /// numbers and `accept(a, b)` returns true. Returns true after consuming the array's
    /// closing `]`; false when it stopped before an element it leaves to the generic calls
    /// (anything `readNumberPair` refuses, or one `accept` refused), which then read it and
    /// report any error with its path.
    mutating func readNumberPairElements(_ accept: (Double, Double) -> Bool) -> Bool {
        precondition(frames.last?.isObject == false, "readNumberPairElements() outside an array")
        let top = frames.count - 1
        var count = frames[top].count
        var position = self.position
        let end = self.end
        let closed: Bool = bytes.withUnsafeBufferPointer { buf in
            let scan = PairScanner(bytes: buf, end: end)
            while true {
                var i = scan.skipSpace(from: position)
                guard i < end else { return false }
                if buf[i] == UInt8(ascii: "]") {
                    position = i + 1
                    return true
                }
                if count > 0 {
                    guard buf[i] == UInt8(ascii: ",") else { return false }
                    i += 1
                }
                guard let (a, b, next) = scan.pair(at: i), accept(a, b) else { return false }
                position = next
                count += 1
            }
        }
        self.position = position
        frames[top].count = count
        if closed { frames.removeLast() }
        return closed
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        if try consumeLiteral("true") { return true }
        if try consumeLiteral("false") { return false }
        throw mismatch(expected: "true or false")
    }

    /// Reads `null`.
    mutating func readNull() throws(JSONError) {
        skipWhitespace()
        guard try consumeLiteral("null") else { throw mismatch(expected: "null") }
    }

    private func mismatch(expected: String) -> JSONError {
        guard position < end else { return error(.unexpectedEnd(expected: expected)) }
        return error(.unexpected(found: describeByte(at: position), expected: expected))
    }

    /// Consumes `word` when the text continues with it; false when its first byte differs.
    private mutating func consumeLiteral(_ word: StaticString) throws(JSONError) -> Bool {
        let length = word.utf8CodeUnitCount
        // A literal's bytes are static, so the pointer stays valid.
        let expected = word.utf8Start
        guard position < end, bytes[position] == expected[0] else { return false }
        for i in 1..<length {
            guard position + i < end else { throw error(.unexpectedEnd(expected: "\(word)"), at: end) }
            guard bytes[position + i] == expected[i] else {
                throw error(.unexpected(found: describeByte(at: position + i), expected: "\(word)"), at: position + i)
            }
        }
        position += length
        return true
    }

    // MARK: Whole values

    /// Skips one value of any kind, checking its syntax.
    mutating func skipValue() throws(JSONError) {
        switch try peek() {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string:
            try skipString()
        case .number:
            _ = try scanNumber()
        case .bool:
            _ = try readBool()
        case .null:
            try readNull()
        }
    }

    /// Reads one value of any kind as a tree.
    mutating func readValue() throws(JSONError) -> JSONValue {
        switch try peek() {
        case .object:
            try beginObject()
            var object = JSONObject()
            while let key = try nextKey() { object[key] = try readValue() }
            return .object(object)
        case .array:
            try beginArray()
            var items: [JSONValue] = []
            while try nextElement() { items.append(try readValue()) }
            return .array(items)
        case .string:
            return .string(try scanString())
        case .number:
            return .number(try scanNumber())
        case .bool:
            return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        }
    }
}

// MARK: - Strings

extension JSONReader {
    /// Reads the string whose opening quote is at `position`.
    fileprivate mutating func scanString() throws(JSONError) -> String {
        let open = position
        var i = open + 1
        // Most strings are plain ASCII: find the closing quote and decode the bytes as they are.
        while i < end {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                position = i + 1
                return String(decoding: bytes[(open + 1)..<i], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            i += 1
        }
        var out = Array(bytes[(open + 1)..<i])
        position = i
        try scanStringTail(into: &out, building: true)
        // Every byte appended was checked, so the text is valid UTF-8 and nothing is replaced.
        return String(decoding: out, as: UTF8.self)
    }

    /// Checks a string's syntax without building it.
    fileprivate mutating func skipString() throws(JSONError) {
        var nothing: [UInt8] = []
        position += 1
        try scanStringTail(into: &nothing, building: false)
    }

    /// From `position` inside a string to just past its closing quote, appending the decoded
    /// UTF-8 to `out` when `building`.
    private mutating func scanStringTail(into out: inout [UInt8], building: Bool) throws(JSONError) {
        var i = position
        while true {
            guard i < end else { throw error(.unexpectedEnd(expected: "'\"' closing the string"), at: end) }
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                position = i + 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                let (scalar, next) = try unescape(at: i)
                if building { appendUTF8(scalar, to: &out) }
                i = next
            } else if byte < 0x20 {
                throw error(.controlCharacter(byte), at: i)
            } else if byte < 0x80 {
                if building { out.append(byte) }
                i += 1
            } else {
                let length = try utf8SequenceLength(at: i)
                if building { out.append(contentsOf: bytes[i..<(i + length)]) }
                i += length
            }
        }
    }

    /// The length of the valid UTF-8 sequence starting at `i` (a byte ≥ 0x80), per the
    /// well-formed byte sequences of Unicode table 3-7 (no overlongs, surrogates or > U+10FFFF).
    private func utf8SequenceLength(at i: Int) throws(JSONError) -> Int {
        let lead = bytes[i]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error(.invalidUTF8, at: i)
        }
        guard i + length <= end else { throw error(.invalidUTF8, at: i) }
        let second = bytes[i + 1]
        guard second >= low && second <= high else { throw error(.invalidUTF8, at: i) }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { throw error(.invalidUTF8, at: i) }
        return length
    }

    /// Decodes the escape whose backslash is at `i`: the scalar and the offset after it.
    private func unescape(at i: Int) throws(JSONError) -> (Unicode.Scalar, Int) {
        guard i + 1 < end else { throw error(.unexpectedEnd(expected: "an escape"), at: end) }
        let simple: UInt8
        switch bytes[i + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: i)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low one.
                guard i + 7 < end, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u") else {
                    throw error(.unpairedSurrogate(escapeText(at: i, length: 6)), at: i)
                }
                let low = try hexQuad(at: i + 6)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.unpairedSurrogate(escapeText(at: i, length: 6)), at: i)
                }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw error(.unpairedSurrogate(escapeText(at: i, length: 12)), at: i) }
                return (scalar, i + 12)
            case 0xDC00...0xDFFF:
                throw error(.unpairedSurrogate(escapeText(at: i, length: 6)), at: i)
            default:
                guard let scalar = Unicode.Scalar(unit) else { throw error(.unpairedSurrogate(escapeText(at: i, length: 6)), at: i) }
                return (scalar, i + 6)
            }
        default:
            throw error(.invalidEscape(escapeText(at: i, length: 2)), at: i)
        }
        return (Unicode.Scalar(simple), i + 2)
    }

    /// The four hex digits of the `\u` escape whose backslash is at `i`.
    private func hexQuad(at i: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for k in 2..<6 {
            guard i + k < end else { throw error(.unexpectedEnd(expected: "four hex digits after \\u"), at: end) }
            let byte = bytes[i + k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidEscape(escapeText(at: i, length: 6)), at: i)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Up to `length` bytes of an escape from `i`, as text for a message.
    private func escapeText(at i: Int, length: Int) -> String {
        let stop = Swift.min(i + length, end)
        return String(decoding: bytes[i..<stop], as: UTF8.self)
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18))
            out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        }
    }
}

// MARK: - Numbers

extension JSONReader {
    /// Reads the number that starts at `position`, checking the JSON grammar
    /// (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) while collecting up to 19
    /// significant digits, then converts them (`JSONNumber.value`).
    fileprivate mutating func scanNumber() throws(JSONError) -> Double {
        let first = position
        var i = position
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true

        guard i < end else { throw error(.unexpectedEnd(expected: "a digit"), at: i) }
        let lead = bytes[i] &- UInt8(ascii: "0")
        if lead == 0 {
            i += 1
            if i < end, bytes[i] &- UInt8(ascii: "0") < 10 {
                throw error(.unexpected(found: "a leading zero", expected: "a number (write 7, not 07)"), at: i - 1)
            }
        } else if lead < 10 {
            repeat {
                let digit = bytes[i] &- UInt8(ascii: "0")
                if digits < 19 {
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                } else {
                    exact = false
                }
                i += 1
            } while i < end && bytes[i] &- UInt8(ascii: "0") < 10
        } else {
            throw error(.unexpected(found: describeByte(at: i), expected: "a digit"), at: i)
        }

        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, bytes[i] &- UInt8(ascii: "0") < 10 else {
                guard i < end else { throw error(.unexpectedEnd(expected: "a digit after '.'"), at: i) }
                throw error(.unexpected(found: describeByte(at: i), expected: "a digit after '.'"), at: i)
            }
            repeat {
                let digit = bytes[i] &- UInt8(ascii: "0")
                if significand == 0 && digit == 0 {
                    exponent -= 1  // a leading zero of the fraction is not significant
                } else if digits < 19 {
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                    exponent -= 1
                } else {
                    exact = false
                }
                i += 1
            } while i < end && bytes[i] &- UInt8(ascii: "0") < 10
        }

        if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var negativeExponent = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                negativeExponent = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, bytes[i] &- UInt8(ascii: "0") < 10 else {
                guard i < end else { throw error(.unexpectedEnd(expected: "a digit in the exponent"), at: i) }
                throw error(.unexpected(found: describeByte(at: i), expected: "a digit in the exponent"), at: i)
            }
            var value = 0
            repeat {
                // Beyond 10⁶ every result is 0 or infinite; stop growing so nothing overflows.
                if value < 1_000_000 { value = value * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            } while i < end && bytes[i] &- UInt8(ascii: "0") < 10
            exponent += negativeExponent ? -value : value
        }
        position = i

        if exact {
            if significand == 0 { return negative ? -0.0 : 0.0 }
            if let magnitude = JSONNumber.value(significand: significand, exponent: exponent) {
                return negative ? -magnitude : magnitude
            }
        }
        // More than 19 digits or an extreme exponent: rare, so the standard library's parser
        // (the definition of the result) does it.
        let text = String(decoding: bytes[first..<i], as: UTF8.self)
        guard let value = Double(text) else { throw error(.unexpected(found: text, expected: "a number"), at: first) }
        guard value.isFinite else { throw error(.numberOutOfRange(text), at: first) }
        return value
    }
}

/// The coordinate-pair fast path of `JSONReader` over the document's bytes: `[a, b]` with
/// white space anywhere and two plain numbers (`-? (0 | [1-9][0-9]*) (. [0-9]+)?`, at most 19
/// significant digits), converted exactly as `scanNumber` converts them (`JSONNumber.value`).
/// Anything else gives nil and is left to the reader's generic (error-reporting) path.
private struct PairScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The document ends here (a JSON Lines document ends before its buffer does).
    let end: Int

    /// The first offset from `i` that is not JSON white space.
    @inline(__always)
    func skipSpace(from i: Int) -> Int {
        var i = i
        while i < end {
            let b = bytes[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            i += 1
        }
        return i
    }

    /// `[a, b]` starting at `i` (after white space): the numbers and the offset after `]`.
    @inline(__always)
    func pair(at i: Int) -> (Double, Double, Int)? {
        var i = skipSpace(from: i)
        guard i < end, bytes[i] == UInt8(ascii: "[") else { return nil }
        i = skipSpace(from: i + 1)
        guard let a = number(at: &i) else { return nil }
        i = skipSpace(from: i)
        guard i < end, bytes[i] == UInt8(ascii: ",") else { return nil }
        i = skipSpace(from: i + 1)
        guard let b = number(at: &i) else { return nil }
        i = skipSpace(from: i)
        guard i < end, bytes[i] == UInt8(ascii: "]") else { return nil }
        return (a, b, i + 1)
    }

    /// A plain number at `i`, moving `i` past it; nil (and `i` unchanged) otherwise.
    @inline(__always)
    func number(at i: inout Int) -> Double? {
        var j = i
        guard j < end else { return nil }
        let negative = bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        guard j < end else { return nil }
        var significand: UInt64 = 0, digits = 0, exponent = 0
        let lead = bytes[j] &- UInt8(ascii: "0")
        if lead == 0 {
            j += 1
        } else if lead < 10 {
            repeat {
                significand = significand &* 10 &+ UInt64(bytes[j] &- UInt8(ascii: "0"))
                digits += 1
                j += 1
            } while j < end && bytes[j] &- UInt8(ascii: "0") < 10
        } else {
            return nil
        }
        if j < end, bytes[j] == UInt8(ascii: ".") {
            j += 1
            guard j < end, bytes[j] &- UInt8(ascii: "0") < 10 else { return nil }
            repeat {
                let digit = bytes[j] &- UInt8(ascii: "0")
                // A leading zero of the fraction is not significant.
                if significand != 0 || digit != 0 {
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                }
                exponent -= 1
                j += 1
            } while j < end && bytes[j] &- UInt8(ascii: "0") < 10
        }
        // A digit after a leading zero, an exponent, or too many digits: the generic path.
        guard digits <= 19, j >= end || (bytes[j] &- UInt8(ascii: "0") >= 10 && bytes[j] | 0x20 != UInt8(ascii: "e"))
        else { return nil }
        var value = 0.0
        if significand != 0 {
            guard let v = JSONNumber.value(significand: significand, exponent: exponent) else { return nil }
            value = v
        }
        i = j
        return negative ? -value : value
    }
}
