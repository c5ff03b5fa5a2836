import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// One malformed document and the exact error it must give.
struct BadJSONCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var offset: Int
    var line: Int = 1
    var column: Int
    var keyPath: String
    var reason: JSONError.Reason

    init(_ name: String, _ text: String, offset: Int, line: Int = 1, column: Int? = nil, keyPath: String = "",
         _ reason: JSONError.Reason) {
        self.init(name, Array(text.utf8), offset: offset, line: line, column: column, keyPath: keyPath, reason)
    }

    init(_ name: String, _ bytes: [UInt8], offset: Int, line: Int = 1, column: Int? = nil, keyPath: String = "",
         _ reason: JSONError.Reason) {
        self.name = name
        self.bytes = bytes
        self.offset = offset
        self.line = line
        self.column = column ?? offset + 1
        self.keyPath = keyPath
        self.reason = reason
    }

    var testDescription: String { name }
}

@Suite struct JSONReaderTests {
    private func parse(_ text: String) throws(JSONError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8), origin: "t.json")
    }

    // MARK: Valid documents

    @Test func treeOfEveryKind() throws {
        let value = try parse(#"{"a": [1, -2.5, true, false, null, "x"], "b": {}, "c": []}"#)
        let expected: JSONValue = .object([
            "a": .array([.number(1), .number(-2.5), .bool(true), .bool(false), .null, .string("x")]),
            "b": .object([:]), "c": .array([]),
        ])
        #expect(value == expected)
        #expect(value.objectValue?.keys == ["a", "b", "c"])
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t""#, "é😀\n\"\\/\u{08}\u{0C}\r\t"),
        (#""日本語 é""#, "日本語 é"),
        (#""\u0000""#, "\u{0}"),
        (#""\uFFFF""#, "\u{FFFF}"),
        (#""a\u0041\u00DF""#, "aAß"),
    ])
    func strings(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test func scalarsAtTheRootAndWhiteSpace() throws {
        #expect(try parse(" \t\r\n 1E+2 \n") == .number(100))
        #expect(try parse("null") == .null)
        #expect(try parse("  [ ]  ") == .array([]))
        let negativeZero = try parse("-0").numberValue
        #expect(negativeZero?.bitPattern == (-0.0).bitPattern)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), origin: "t") == .array([.number(1)]))
    }

    @Test func duplicateKeysKeepTheFirstPositionAndTheLastValue() throws {
        let object = try #require(try parse(#"{"k": 1, "m": 2, "k": 3}"#).objectValue)
        #expect(object.keys == ["k", "m"])
        #expect(object["k"] == .number(3))
    }

    // MARK: Malformed documents

    static let badDocuments: [BadJSONCase] = [
        BadJSONCase("empty", "", offset: 0, .unexpectedEnd(expected: "a value")),
        BadJSONCase("only white space", "  \n ", offset: 4, line: 2, column: 2, .unexpectedEnd(expected: "a value")),
        BadJSONCase("trailing comma in object", #"{"a": 1,}"#, offset: 8, .unexpected(found: "'}'", expected: "a key in double quotes")),
        BadJSONCase("trailing comma in array", "[1, 2,]", offset: 6, keyPath: "[2]", .unexpected(found: "']'", expected: "a value")),
        BadJSONCase("missing colon", #"{"a" 1}"#, offset: 5, keyPath: "a", .unexpected(found: "'1'", expected: "':' after the key")),
        BadJSONCase("missing comma in object", #"{"a":1 "b":2}"#, offset: 7, .unexpected(found: "'\"'", expected: "',' or '}'")),
        BadJSONCase("missing comma in array", "[1 2]", offset: 3, .unexpected(found: "'2'", expected: "',' or ']'")),
        BadJSONCase("unquoted key", "{1: 2}", offset: 1, .unexpected(found: "'1'", expected: "a key in double quotes")),
        BadJSONCase("array closed by brace", #"{"a": [1, 2}"#, offset: 11, keyPath: "a", .unexpected(found: "'}'", expected: "',' or ']'")),
        BadJSONCase("unclosed object", #"{"a": 1"#, offset: 7, .unexpectedEnd(expected: "',' or '}'")),
        BadJSONCase("leading zero", "[01]", offset: 1, keyPath: "[0]", .unexpected(found: "a leading zero", expected: "a number (write 7, not 07)")),
        BadJSONCase("bare fraction point", "[1.]", offset: 3, keyPath: "[0]", .unexpected(found: "']'", expected: "a digit after '.'")),
        BadJSONCase("lone minus", "[-]", offset: 2, keyPath: "[0]", .unexpected(found: "']'", expected: "a digit")),
        BadJSONCase("empty exponent", "[1e]", offset: 3, keyPath: "[0]", .unexpected(found: "']'", expected: "a digit in the exponent")),
        BadJSONCase("plus sign", "[+1]", offset: 1, keyPath: "[0]", .unexpected(found: "'+'", expected: "a value")),
        BadJSONCase("leading point", "[.5]", offset: 1, keyPath: "[0]", .unexpected(found: "'.'", expected: "a value")),
        BadJSONCase("NaN", "[NaN]", offset: 1, keyPath: "[0]", .unexpected(found: "'N'", expected: "a value")),
        BadJSONCase("overflow", "[1e400]", offset: 1, keyPath: "[0]", .numberOutOfRange("1e400")),
        BadJSONCase("unknown escape", #"["a\qb"]"#, offset: 3, keyPath: "[0]", .invalidEscape("\\q")),
        BadJSONCase("short unicode escape", #"["\u12G4"]"#, offset: 2, keyPath: "[0]", .invalidEscape("\\u12G4")),
        BadJSONCase("lone high surrogate", #"["\uD800"]"#, offset: 2, keyPath: "[0]", .unpairedSurrogate("\\uD800")),
        BadJSONCase("lone low surrogate", #"["\uDC00\uD800"]"#, offset: 2, keyPath: "[0]", .unpairedSurrogate("\\uDC00")),
        BadJSONCase("high surrogate before a letter", #"["\uD800\u0041"]"#, offset: 2, keyPath: "[0]", .unpairedSurrogate("\\uD800")),
        BadJSONCase("unterminated string", #""abc"#, offset: 4, .unexpectedEnd(expected: "'\"' closing the string")),
        BadJSONCase("raw tab in a string", "[\"a\tb\"]", offset: 3, keyPath: "[0]", .controlCharacter(9)),
        BadJSONCase("raw newline in a string", "{\"k\": \"a\nb\"}", offset: 8, keyPath: "k", .controlCharacter(10)),
        BadJSONCase("invalid UTF-8", [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], offset: 2, keyPath: "[0]", .invalidUTF8),
        BadJSONCase("overlong UTF-8", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], offset: 2, keyPath: "[0]", .invalidUTF8),
        BadJSONCase("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], offset: 1, .invalidUTF8),
        BadJSONCase("truncated UTF-8", [0x22, 0xE2, 0x82], offset: 1, .invalidUTF8),
        BadJSONCase("UTF-16 with BOM", [0xFF, 0xFE, 0x7B, 0x00], offset: 0, .notUTF8(encoding: "UTF-16")),
        BadJSONCase("UTF-32 without BOM", [0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00], offset: 0, .notUTF8(encoding: "UTF-32")),
        BadJSONCase("trailing garbage", #"{"a": 1} x"#, offset: 9, .trailingData(found: "'x'")),
        BadJSONCase("two documents", "1 2", offset: 2, .trailingData(found: "'2'")),
        BadJSONCase("misspelt literal", #"{"a": {"b": tru}}"#, offset: 15, keyPath: "a.b", .unexpected(found: "'}'", expected: "true")),
        BadJSONCase("truncated literal", "nul", offset: 3, .unexpectedEnd(expected: "null")),
        BadJSONCase("single quotes", "['a']", offset: 1, keyPath: "[0]", .unexpected(found: "'''", expected: "a value")),
        BadJSONCase("comment", "[1] // one", offset: 4, .trailingData(found: "'/'")),
        BadJSONCase("error on a later line", "{\n  \"a\": [\n    1,\n    x\n  ]\n}", offset: 22, line: 4, column: 5, keyPath: "a[1]",
                    .unexpected(found: "'x'", expected: "a value")),
        BadJSONCase("columns count characters", #"["é", x]"#, offset: 7, column: 7, keyPath: "[1]", .unexpected(found: "'x'", expected: "a value")),
        BadJSONCase("non-ASCII outside a string", "[é]", offset: 1, keyPath: "[0]", .unexpected(found: "'é'", expected: "a value")),
    ]

    @Test(arguments: badDocuments)
    func malformedDocumentGivesItsTypedError(_ c: BadJSONCase) {
        do {
            let value = try JSONValue.parse(c.bytes, origin: "t.json")
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error == JSONError(source: "t.json", byteOffset: c.offset, line: c.line, column: c.column, keyPath: c.keyPath, reason: c.reason),
                    "\(error)")
        }
    }

    @Test func messageNamesFileLineColumnPathAndByte() {
        #expect(throws: JSONError.self) { try parse("{\n  \"a\": [1 2]}") }
        do {
            _ = try parse("{\n  \"a\": [1 2]}")
        } catch {
            #expect(error.description == "t.json:2:11: invalid JSON at a: expected ',' or ']', found '2' (byte 12)")
        }
    }

    // MARK: Limits

    @Test func nestingIsCapped() throws {
        let ok = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        #expect(try JSONValue.parse(Array(ok.utf8), origin: "t", maximumDepth: 8) != .null)
        let deep = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect(throws: JSONError(source: "t", byteOffset: 8, line: 1, column: 9, keyPath: "[0][0][0][0][0][0][0][0]",
                                  reason: .tooDeep(limit: 8))) {
            try JSONValue.parse(Array(deep.utf8), origin: "t", maximumDepth: 8)
        }
        // A million open brackets fail fast at the default limit instead of exhausting the stack.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect { try JSONValue.parse(hostile, origin: "t") } throws: { error in
            (error as? JSONError)?.reason == .tooDeep(limit: JSONReader.defaultMaximumDepth)
        }
    }

    @Test func sizeIsCapped() {
        let bytes = Array(("[" + String(repeating: "1,", count: 100) + "1]").utf8)
        #expect(throws: JSONError(source: "t", byteOffset: 0, line: 1, column: 1, keyPath: "",
                                  reason: .tooLarge(byteCount: bytes.count, limit: 100))) {
            _ = try JSONReader(bytes: bytes, source: "t", maximumSize: 100)
        }
    }

    // MARK: Numbers

    /// Texts whose conversion is easy to get wrong: halfway cases, the 2⁵³ edge, subnormals,
    /// more than 19 digits, the largest and smallest doubles.
    @Test(arguments: [
        "0", "-0", "1", "0.1", "1e-7", "0.30000000000000004", "1e22", "1e23", "123456789e-19",
        "9007199254740992", "9007199254740993", "9007199254740995", "9007199254740993.0",
        "4503599627370496.5", "4503599627370497.5", "450359962737049.65",
        "24.941234567890123", "60.16990840440447", "-179.99999999999997", "89.999999999999986",
        "18446744073709551615", "9999999999999999999", "9999999999999999999e19", "9999999999999999999e-19",
        "1844674407370955161.5", "12345678901234567890123", "1.0000000000000000000001", "0.000000000000000000000000000001",
        "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-400", "1.7976931348623157e308", "1.7976931348623158e308",
        "0e999999", "-0.0e-5", "1E5", "1e+5", "7e-20", "7e-23", "123.456e5", "100000000000000000000000",
    ])
    func numbersMatchTheStandardLibrary(text: String) throws {
        let expected = try #require(Double(text))
        let value = try parse(text).numberValue
        #expect(value?.bitPattern == expected.bitPattern, "\(text): \(String(describing: value)) vs \(expected)")
    }

    /// Random decimal texts (1–19 digits, then some longer, any point position, exponents
    /// ±30) and random doubles printed shortest: every one converts to the bits
    /// `Double(String)` gives.
    @Test func randomNumbersMatchTheStandardLibrary() throws {
        let seed = UInt64(Date().timeIntervalSince1970 * 1000)
        print("JSONReaderTests.randomNumbersMatchTheStandardLibrary seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        var mismatches: [String] = []
        for i in 0..<100_000 {
            var text: String
            if i % 4 == 0 {
                let bits = rng.next()
                let d = Double(bitPattern: bits)
                guard d.isFinite else { continue }
                text = "\(d)"
                if text.hasPrefix(".") { text = "0" + text }
            } else {
                let digits = i % 50 == 1 ? Int.random(in: 20...30, using: &rng) : Int.random(in: 1...19, using: &rng)
                var mantissa = String(Int.random(in: 1...9, using: &rng))
                for _ in 1..<digits { mantissa.append(Character(String(Int.random(in: 0...9, using: &rng)))) }
                let point = Int.random(in: 0...digits, using: &rng)
                if point > 0 && point < digits {
                    mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
                }
                text = (Bool.random(using: &rng) ? "-" : "") + mantissa
                if Int.random(in: 0...2, using: &rng) == 0 { text += "e\(Int.random(in: -30...30, using: &rng))" }
            }
            guard let expected = Double(text), expected.isFinite else { continue }
            let value: Double?
            do { value = try parse(text).numberValue } catch { value = nil }
            if value?.bitPattern != expected.bitPattern { mismatches.append("\(text): \(String(describing: value)) vs \(expected)") }
        }
        #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(10))")
    }

    // MARK: Pulling

    @Test func pullReaderWalksMembersAndKnowsItsPath() throws {
        var reader = try JSONReader(bytes: Array(#"{"a": [10, {"b": [1, 2]}], "c": "x"}"#.utf8), source: "t")
        try reader.beginObject()
        #expect(try reader.nextKey() == "a")
        try reader.beginArray()
        #expect(try reader.nextElement())
        #expect(try reader.readNumber() == 10)
        #expect(try reader.nextElement())
        let atObject = reader.mark
        try reader.beginObject()
        #expect(try reader.nextKey() == "b")
        try reader.beginArray()
        #expect(try reader.nextElement())
        #expect(reader.keyPath == "a[1].b[0]")
        #expect(reader.keyPath(depth: reader.depth - 1) == "a[1].b")
        try reader.skipValue()
        #expect(try reader.nextElement())
        #expect(try reader.readNumber() == 2)
        #expect(try !reader.nextElement())
        #expect(try reader.nextKey() == nil)
        #expect(reader.keyPath == "a[1]")
        // Back to the object, read it whole this time.
        let after = reader.mark
        reader.seek(to: atObject)
        #expect(try reader.readValue() == .object(["b": .array([.number(1), .number(2)])]))
        reader.seek(to: after)
        #expect(try !reader.nextElement())
        #expect(try reader.nextKey() == "c")
        #expect(try reader.peek() == .string)
        #expect(throws: JSONError.self) { try reader.readNumber() }
        #expect(try reader.readString() == "x")
        #expect(try reader.nextKey() == nil)
        #expect(reader.keyPath(appending: "d") == "d")
        try reader.finish()
    }

    @Test func documentInsideABiggerBufferKeepsTheFilesLinesAndOffsets() throws {
        let file = Array("{\"a\": 1}\n\n{\"a\": [1,, 2]}\n".utf8)
        let lines = Array(JSONLines(file))
        #expect(lines.map(\.number) == [1, 3])
        var reader = try JSONReader(bytes: file, range: lines[1].range, source: "jobs.jsonl", firstLine: lines[1].number)
        #expect(throws: JSONError(source: "jobs.jsonl", byteOffset: 19, line: 3, column: 10, keyPath: "a[1]",
                                  reason: .unexpected(found: "','", expected: "a value"))) {
            _ = try reader.readValue()
        }
    }

    @Test func jsonLinesSkipBlankLinesAndKeepNumbers() {
        let file = Array("1\r\n \t\r\n[2]\n\n{}".utf8)
        #expect(Array(JSONLines(file)) == [
            JSONLines.Line(number: 1, range: 0..<2), JSONLines.Line(number: 3, range: 7..<10),
            JSONLines.Line(number: 5, range: 12..<14),
        ])
        #expect(Array(JSONLines([])).isEmpty)
        #expect(Array(JSONLines(Array("\n\n".utf8))).isEmpty)
    }

    // MARK: Robustness

    /// Random byte edits of a realistic document never trap; whatever still parses writes
    /// back to text that parses to the same value, and skipping agrees with reading.
    @Test func mutatedDocumentsNeverTrapAndRoundTrip() throws {
        let seed = UInt64(Date().timeIntervalSince1970 * 1000) ^ 0x5EED
        print("JSONReaderTests.mutatedDocumentsNeverTrapAndRoundTrip seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        let original = Array(#"""
        {"version": 8, "name": "t\u00e9st \"q\" \ud83d\ude00", "sources": {"s": {"type": "vector", "bounds": [-180, -85.0511, 180, 85.0511]}},
         "layers": [{"id": "a", "type": "line", "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 5, 1.5e0, 18, 12]},
         "filter": ["all", ["==", "class", "primary"], true, false, null]}], "empty": {}, "list": [], "n": -0.000123E-4}
        """#.utf8)
        let alphabet = Array(#"{}[]",:0123456789.-+eE \ntrufalsn\u"#.utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0: bytes[at] = alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
                case 1: bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)], at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            let value = try? JSONValue.parse(bytes, origin: "m")
            var skipper = try? JSONReader(bytes: bytes, source: "m")
            let skipped = (try? skipper?.skipValue()) != nil && (try? skipper?.finish()) != nil
            #expect(skipped == (value != nil), "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            if let value {
                let written = JSONWriter.bytes(value)
                #expect(try JSONValue.parse(written, origin: "w") == value, "seed \(seed)")
            }
        }
    }
}
