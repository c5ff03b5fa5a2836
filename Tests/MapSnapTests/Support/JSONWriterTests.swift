import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

@Suite struct JSONWriterTests {
    static let sample: JSONValue = .object([
        "name": .string("a \"b\"\n\\ é/😀\u{1}"), "list": .array([.number(1), .number(2.5), .bool(true), .null]),
        "nested": .object(["z": .array([]), "a": .object([:])]),
    ])

    @Test func compactKeepsInsertionOrder() {
        #expect(JSONWriter.text(Self.sample)
                == #"{"name":"a \"b\"\n\\ é/😀\u0001","list":[1,2.5,true,null],"nested":{"z":[],"a":{}}}"#)
    }

    @Test func sortedKeysSortEveryObject() {
        #expect(JSONWriter.text(Self.sample, sortedKeys: true)
                == #"{"list":[1,2.5,true,null],"name":"a \"b\"\n\\ é/😀\u0001","nested":{"a":{},"z":[]}}"#)
    }

    @Test func prettyIndentsAndKeepsScalarArraysOnOneLine() {
        let value: JSONValue = .object(["coordinates": .array([.array([.number(60.17), .number(24.94)]), .array([.number(1), .number(2)])]),
                                        "b": .bool(false)])
        #expect(JSONWriter.text(value, pretty: true, sortedKeys: true) == """
        {
          "b": false,
          "coordinates": [
            [60.17, 24.94],
            [1, 2]
          ]
        }
        """)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (3, "3"), (-42, "-42"), (0.1, "0.1"), (2.5, "2.5"), (1e-7, "1e-07"),
        (1e15, "1000000000000000.0"), (999_999_999_999_999, "999999999999999"), (1.5e300, "1.5e+300"),
        (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
    ])
    func numbersAreDeterministicAndReadBack(value: Double, text: String) throws {
        #expect(JSONWriter.format(value) == text)
        if value.isFinite {
            #expect(try JSONValue.parse(Array(text.utf8), origin: "n").numberValue == value)
        }
    }

    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\u{7F}\u{2028}"
        let written = JSONWriter.quoted(text)
        #expect(!written.unicodeScalars.dropFirst().dropLast().contains { $0.value < 0x20 })
        #expect(try JSONValue.parse(Array(written.utf8), origin: "s") == .string(text))
    }

    @Test func randomTreesRoundTrip() throws {
        let seed = UInt64(Date().timeIntervalSince1970 * 1000) ^ 0x77
        print("JSONWriterTests.randomTreesRoundTrip seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        func tree(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0...(depth > 3 ? 3 : 5), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2:
                let d = Double(bitPattern: rng.next())
                return .number(d.isFinite ? d : Double(Int.random(in: -1000...1000, using: &rng)))
            case 3:
                let scalars = (0..<Int.random(in: 0...6, using: &rng)).compactMap { _ in
                    Unicode.Scalar(UInt32([Int.random(in: 0...0x7F, using: &rng), Int.random(in: 0...0xD7FF, using: &rng),
                                           Int.random(in: 0x10000...0x10FFFF, using: &rng)][Int.random(in: 0...2, using: &rng)]))
                }
                return .string(String(String.UnicodeScalarView(scalars)))
            case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in tree(depth + 1) })
            default:
                var object = JSONObject()
                for _ in 0..<Int.random(in: 0...20, using: &rng) { object["k\(Int.random(in: 0...30, using: &rng))"] = tree(depth + 1) }
                return .object(object)
            }
        }
        for _ in 0..<500 {
            let value = tree(0)
            for (pretty, sorted) in [(false, false), (true, true), (false, true)] {
                let bytes = JSONWriter.bytes(value, pretty: pretty, sortedKeys: sorted)
                #expect(try JSONValue.parse(bytes, origin: "w") == value, "seed \(seed)")
            }
        }
    }
}

@Suite struct JSONObjectTests {
    @Test func keepsOrderAndLooksUpSmallAndLargeObjects() {
        var object = JSONObject()
        for i in (0..<40).reversed() { object["k\(i)"] = .number(Double(i)) }
        #expect(object.keys.first == "k39" && object.keys.last == "k0")
        #expect(object["k17"] == .number(17))
        #expect(object["nope"] == nil)
        object["k17"] = .string("x")
        #expect(object.count == 40 && object.keys[22] == "k17" && object["k17"] == .string("x"))
        object["k17"] = nil
        #expect(object.count == 39 && object["k17"] == nil && object["k16"] == .number(16) && object["k0"] == .number(0))
        #expect(Array(object.values.prefix(2)) == [.number(39), .number(38)])
    }

    @Test func equalityIgnoresOrder() {
        let a: JSONObject = ["x": .number(1), "y": .null]
        let b: JSONObject = ["y": .null, "x": .number(1)]
        #expect(a == b)
        #expect(a != ["x": .number(1)])
        #expect(a != ["x": .number(1), "z": .null])
    }

    @Test func iteratesMembersInDocumentOrder() throws {
        let object = try #require(try JSONValue.parse(Array(#"{"b": 1, "a": 2, "c": 3}"#.utf8), origin: "o").objectValue)
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object.map(\.value) == [.number(1), .number(2), .number(3)])
    }
}
