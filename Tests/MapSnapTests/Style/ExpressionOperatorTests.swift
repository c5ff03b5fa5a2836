import Foundation
import Testing
@testable import MapSnap

private let feature = FakeFeature(.polygon, id: 7, [
    "class": .string("park"), "rank": .number(3), "name": .string("Kaivopuisto"), "hex": .string("#ff0000"),
])

/// One case per operator of `ExpressionOperators.table`; adding an operator without a case
/// fails `everyOperatorHasACase`.
@Suite struct ExpressionOperatorTests {
    /// Operator → (expression, value for `feature` at zoom 12).
    static let cases: [String: (String, StyleValue)] = [
        "literal": (#"["literal", ["a", 1]]"#, .array([.string("a"), .number(1)])),
        "get": (#"["get", "class"]"#, .string("park")),
        "has": (#"["has", "rank"]"#, .bool(true)),
        "properties": (#"["properties"]"#, .null),
        "geometry-type": (#"["geometry-type"]"#, .string("Polygon")),
        "id": (#"["id"]"#, .number(7)),
        "zoom": (#"["zoom"]"#, .number(12)),
        "let": (#"["let", "r", ["get", "rank"], ["+", ["var", "r"], 1]]"#, .number(4)),
        "var": (#"["let", "c", "x", ["concat", ["var", "c"], ["var", "c"]]]"#, .string("xx")),
        "==": (#"["==", ["get", "class"], "park"]"#, .bool(true)),
        "!=": (#"["!=", ["get", "class"], "park"]"#, .bool(false)),
        "<": (#"["<", ["get", "rank"], 3]"#, .bool(false)),
        "<=": (#"["<=", ["get", "rank"], 3]"#, .bool(true)),
        ">": (#"[">", ["get", "name"], "K"]"#, .bool(true)),
        ">=": (#"[">=", 2, ["get", "rank"]]"#, .bool(false)),
        "all": (#"["all", true, ["has", "name"]]"#, .bool(true)),
        "any": (#"["any", false, ["has", "nope"]]"#, .bool(false)),
        "none": (#"["none", ["has", "nope"]]"#, .bool(true)),
        "!": (#"["!", ["has", "class"]]"#, .bool(false)),
        "in": (#"["in", ["get", "class"], ["literal", ["wood", "park"]]]"#, .bool(true)),
        "match": (#"["match", ["get", "rank"], [1, 2], "low", 3, "three", "other"]"#, .string("three")),
        "case": (#"["case", ["==", ["get", "rank"], 1], "one", "many"]"#, .string("many")),
        "coalesce": (#"["coalesce", ["get", "nope"], ["get", "name"]]"#, .string("Kaivopuisto")),
        "interpolate": (#"["interpolate", ["linear"], ["zoom"], 10, 0, 14, 100]"#, .number(50)),
        "step": (#"["step", ["get", "rank"], "a", 2, "b", 4, "c"]"#, .string("b")),
        "to-string": (#"["to-string", ["get", "rank"]]"#, .string("3")),
        "to-boolean": (#"["to-boolean", ["get", "nope"]]"#, .bool(false)),
        "to-number": (#"["to-number", ["get", "name"], "2.5"]"#, .number(2.5)),
        "to-color": (#"["to-color", ["get", "hex"]]"#, .color(StyleColor(red: 1, green: 0, blue: 0))),
        "string": (#"["string", ["get", "rank"], ["get", "class"]]"#, .string("park")),
        "number": (#"["number", ["get", "rank"]]"#, .number(3)),
        "boolean": (#"["boolean", ["get", "class"], false]"#, .bool(false)),
        "array": (#"["array", "number", 2, ["literal", [1, 2]]]"#, .array([.number(1), .number(2)])),
        "typeof": (#"["typeof", ["get", "class"]]"#, .string("string")),
        "concat": (#"["concat", ["get", "class"], "-", ["get", "rank"]]"#, .string("park-3")),
        "format": (#"["format", ["get", "name"], {"font-scale": 1.2}, "!", {}]"#, .string("Kaivopuisto!")),
        "image": (#"["image", ["concat", "icon-", ["get", "class"]]]"#, .string("icon-park")),
        "upcase": (#"["upcase", ["get", "class"]]"#, .string("PARK")),
        "downcase": (#"["downcase", "ÅBO"]"#, .string("åbo")),
        "length": (#"["length", "ä😀"]"#, .number(3)),
        "-": (#"["-", ["get", "rank"], 5]"#, .number(-2)),
        "+": (#"["+", ["get", "rank"], 1, 2]"#, .number(6)),
        "*": (#"["*", ["get", "rank"], 2]"#, .number(6)),
        "min": (#"["min", ["get", "rank"], 1]"#, .number(1)),
        "max": (#"["max", ["get", "rank"], 1]"#, .number(3)),
        "/": (#"["/", ["get", "rank"], 4]"#, .number(0.75)),
        "%": (#"["%", ["get", "rank"], 2]"#, .number(1)),
        "^": (#"["^", ["get", "rank"], 2]"#, .number(9)),
        "e": (#"["e"]"#, .number(M_E)),
        "pi": (#"["pi"]"#, .number(Double.pi)),
        "ln2": (#"["ln2"]"#, .number(M_LN2)),
        "abs": (#"["abs", ["-", ["get", "rank"]]]"#, .number(3)),
        "round": (#"["round", -0.5]"#, .number(0)),
        "floor": (#"["floor", 2.7]"#, .number(2)),
        "ceil": (#"["ceil", -2.7]"#, .number(-2)),
        "sqrt": (#"["sqrt", 16]"#, .number(4)),
        "ln": (#"["ln", 1]"#, .number(0)),
        "log10": (#"["log10", 1000]"#, .number(3)),
        "log2": (#"["log2", 8]"#, .number(3)),
        "sin": (#"["sin", 0]"#, .number(0)),
        "cos": (#"["cos", 0]"#, .number(1)),
        "tan": (#"["tan", 0]"#, .number(0)),
        "asin": (#"["asin", 1]"#, .number(Double.pi / 2)),
        "acos": (#"["acos", 1]"#, .number(0)),
        "atan": (#"["atan", 0]"#, .number(0)),
        "rgb": (#"["rgb", 0, 255, 0]"#, .color(StyleColor(red: 0, green: 1, blue: 0))),
        "rgba": (#"["rgba", 0, 0, 255, 0.25]"#, .color(StyleColor(red: 0, green: 0, blue: 1, alpha: 0.25))),
        "to-rgba": (#"["to-rgba", ["to-color", ["get", "hex"]]]"#, .array([.number(255), .number(0), .number(0), .number(1)])),
        "at": (#"["at", 1, ["literal", ["a", "b", "c"]]]"#, .string("b")),
    ]

    @Test func everyOperatorHasACase() {
        let supported = Set(ExpressionOperators.table.keys).subtracting(ExpressionOperators.unsupportedOperators)
        #expect(supported.subtracting(Self.cases.keys).sorted() == [])
        #expect(Set(Self.cases.keys).subtracting(supported).sorted() == [])
    }

    @Test(arguments: cases.keys.sorted())
    func operatorEvaluates(name: String) throws {
        let (text, expected) = try #require(Self.cases[name])
        let expression = try compileExpression(text)
        #expect(expression.evaluate(zoom: 12, feature: feature) == expected, "\(text)")
    }

    @Test(arguments: ExpressionOperators.unsupportedOperators)
    func unsupportedOperatorsWarnAndYieldNull(name: String) throws {
        let text = "[\"coalesce\", [\"\(name)\"], 1]"
        #expect(try expressionWarnings(text).map(\.kind) == [.unsupportedExpression(name)])
        #expect(try compileExpression(text).evaluate(zoom: 12, feature: feature) == .number(1))
    }

    /// (misspelt operator, names the error suggests).
    @Test(arguments: [
        ("intepolate", #"did you mean "interpolate"?"#),
        ("concatt", #"did you mean "concat"?"#),
        ("tostring", #"did you mean "to-string", "string"?"#),
        ("Get", #"did you mean "get", "let", "at"?"#),
    ])
    func unknownOperatorSuggestsCloseNames(name: String, suggestion: String) {
        do {
            _ = try compileExpression("[\"\(name)\", 1]")
            Issue.record("\(name) compiled")
        } catch {
            let message = "\(error)"
            #expect(message.contains("unknown expression operator \"\(name)\""), "\(message)")
            #expect(message.hasSuffix(suggestion), "\(message)")
        }
    }

    @Test func unknownOperatorFarFromAllNamesSuggestsNothing() {
        #expect {
            _ = try compileExpression(#"["xyzzy-plugh", 1]"#)
        } throws: { error in
            "\(error)".hasSuffix("unknown expression operator \"xyzzy-plugh\"")
        }
    }

    @Test(arguments: [
        (#"["abs", 1, 2]"#, #""abs" expects 1 argument(s), found 2"#),
        (#"["rgb", 1, 2]"#, #""rgb" expects 3 argument(s), found 2"#),
        (#"["+"]"#, #""+" expects at least 1 argument(s), found 0"#),
        (#"["get", "a", ["properties"], 3]"#, #""get" expects 1–2 argument(s), found 3"#),
    ])
    func arityComesFromTheTable(text: String, message: String) {
        #expect {
            _ = try compileExpression(text)
        } throws: { error in
            "\(error)".hasSuffix(message)
        }
    }
}
