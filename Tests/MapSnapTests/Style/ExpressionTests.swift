import Foundation
import Testing
@testable import MapSnap

/// One feature used by most expression cases.
private let road = FakeFeature(.lineString, id: 42, [
    "class": .string("primary"), "rank": .number(3), "name": .string("Main St"), "oneway": .bool(true),
    "zero": .number(0), "empty": .string(""), "numtext": .string(" 12.5 "), "hex": .string("#00ff00"),
])

@Suite struct ExpressionTests {
    /// (expression, expected value at zoom 10 for `road`).
    @Test(arguments: [
        // get / has / id / geometry-type / zoom
        (#"["get", "class"]"#, StyleValue.string("primary")),
        (#"["get", "missing"]"#, .null),
        (#"["get", "class", ["properties"]]"#, .string("primary")),
        (#"["get", ["concat", "cl", "ass"]]"#, .string("primary")),
        (#"["has", "name"]"#, .bool(true)),
        (#"["has", "missing"]"#, .bool(false)),
        (#"["id"]"#, .number(42)),
        (#"["geometry-type"]"#, .string("LineString")),
        (#"["zoom"]"#, .number(10)),
        // comparisons: different types are unequal, never coerced
        (#"["==", ["get", "rank"], 3]"#, .bool(true)),
        (#"["==", ["get", "rank"], "3"]"#, .bool(false)),
        (#"["==", 3, ["get", "rank"]]"#, .bool(true)),
        (#"["!=", ["get", "missing"], "x"]"#, .bool(true)),
        (#"["==", ["get", "missing"], null]"#, .bool(true)),
        (#"["<", ["get", "rank"], 4]"#, .bool(true)),
        (#"[">", 4, ["get", "rank"]]"#, .bool(true)),
        (#"[">=", ["get", "rank"], 3]"#, .bool(true)),
        (#"["<=", "abc", "abd"]"#, .bool(true)),
        // ordering across types is a runtime error: the whole expression yields null
        (#"["<", ["get", "class"], 4]"#, .null),
        (#"["<", ["get", "missing"], 4]"#, .null),
        (#"["!", ["<", ["get", "missing"], 4]]"#, .null),
        // logic
        (#"["all", ["==", ["get", "class"], "primary"], ["has", "name"]]"#, .bool(true)),
        (#"["all"]"#, .bool(true)),
        (#"["any"]"#, .bool(false)),
        (#"["any", false, ["has", "name"]]"#, .bool(true)),
        (#"["none", false, false]"#, .bool(true)),
        (#"["none", false, true]"#, .bool(false)),
        (#"["!", ["has", "missing"]]"#, .bool(true)),
        (#"["!", ["get", "name"]]"#, .null),
        (#"["all", ["get", "name"]]"#, .null),
        // in
        (#"["in", ["get", "class"], ["literal", ["primary", "secondary"]]]"#, .bool(true)),
        (#"["in", ["get", "class"], ["literal", ["trunk"]]]"#, .bool(false)),
        (#"["in", ["get", "rank"], ["literal", [1, 2, 3]]]"#, .bool(true)),
        (#"["in", "ain", ["get", "name"]]"#, .bool(true)),
        (#"["in", "xyz", "abc"]"#, .bool(false)),
        // match / case / coalesce
        (#"["match", ["get", "class"], ["primary", "secondary"], 1, "trunk", 2, 0]"#, .number(1)),
        (#"["match", ["get", "class"], "trunk", 2, 0]"#, .number(0)),
        (#"["match", ["get", "rank"], 3, "three", "other"]"#, .string("three")),
        (#"["match", ["get", "rank"], "3", "string", "other"]"#, .string("other")),
        (#"["match", ["get", "missing"], "x", 1, 9]"#, .number(9)),
        (#"["case", ["has", "missing"], 1, ["==", ["get", "rank"], 3], 2, 3]"#, .number(2)),
        (#"["case", false, 1, 5]"#, .number(5)),
        (#"["coalesce", ["get", "missing"], ["get", "name"]]"#, .string("Main St")),
        (#"["coalesce", ["get", "missing"]]"#, .null),
        // conversions
        (#"["to-string", ["get", "rank"]]"#, .string("3")),
        (#"["to-string", ["get", "missing"]]"#, .string("")),
        (#"["to-string", 1.5]"#, .string("1.5")),
        (#"["to-string", ["get", "oneway"]]"#, .string("true")),
        (#"["to-number", ["get", "numtext"]]"#, .number(12.5)),
        (#"["to-number", ["get", "missing"]]"#, .number(0)),
        (#"["to-number", ["get", "empty"]]"#, .number(0)),
        (#"["to-number", ["get", "name"], 7]"#, .number(7)),
        (#"["to-number", ["get", "name"]]"#, .null),
        (#"["to-boolean", ["get", "zero"]]"#, .bool(false)),
        (#"["to-boolean", ["get", "empty"]]"#, .bool(false)),
        (#"["to-boolean", ["get", "name"]]"#, .bool(true)),
        (#"["to-boolean", ["get", "missing"]]"#, .bool(false)),
        (#"["to-color", ["get", "hex"]]"#, .color(StyleColor(red: 0, green: 1, blue: 0))),
        (#"["to-color", ["get", "name"], "red"]"#, .color(StyleColor(red: 1, green: 0, blue: 0))),
        (#"["string", ["get", "rank"], ["get", "name"]]"#, .string("Main St")),
        (#"["number", ["get", "name"]]"#, .null),
        (#"["boolean", ["get", "oneway"]]"#, .bool(true)),
        // strings
        (#"["concat", ["get", "name"], " (", ["get", "rank"], ")"]"#, .string("Main St (3)")),
        (#"["concat", ["get", "missing"], "x"]"#, .string("x")),
        (#"["upcase", ["get", "name"]]"#, .string("MAIN ST")),
        (#"["downcase", "ÄB"]"#, .string("äb")),
        (#"["upcase", ["get", "missing"]]"#, .null),
        (#"["length", ["get", "name"]]"#, .number(7)),
        (#"["length", ["literal", [1, 2]]]"#, .number(2)),
        (#"["format", ["get", "name"], {"font-scale": 0.8}, " ", {}, ["get", "rank"], {}]"#, .string("Main St 3")),
        (#"["image", ["concat", "shield-", ["get", "rank"]]]"#, .string("shield-3")),
        // arithmetic
        (#"["+", 1, ["get", "rank"], 0.5]"#, .number(4.5)),
        (#"["-", 10, ["get", "rank"]]"#, .number(7)),
        (#"["-", ["get", "rank"]]"#, .number(-3)),
        (#"["*", 2, ["get", "rank"]]"#, .number(6)),
        (#"["/", ["get", "rank"], 2]"#, .number(1.5)),
        (#"["%", 7, 3]"#, .number(1)),
        (#"["%", -7, 3]"#, .number(-1)),
        (#"["^", 2, 10]"#, .number(1024)),
        (#"["min", 3, 1, 2]"#, .number(1)),
        (#"["max", 3, ["get", "rank"], 5]"#, .number(5)),
        (#"["abs", -2.5]"#, .number(2.5)),
        (#"["round", 2.5]"#, .number(3)),
        (#"["round", -2.5]"#, .number(-2)),
        (#"["floor", -1.5]"#, .number(-2)),
        (#"["ceil", 1.2]"#, .number(2)),
        (#"["+", ["get", "name"], 1]"#, .null),
        // let / var, literal, colours
        (#"["let", "r", ["get", "rank"], ["*", ["var", "r"], ["var", "r"]]]"#, .number(9)),
        (#"["let", "a", 1, ["let", "a", 2, ["var", "a"]]]"#, .number(2)),
        (#"["literal", [1, "a", null]]"#, .array([.number(1), .string("a"), .null])),
        (#"["rgb", 255, 0, 0]"#, .color(StyleColor(red: 1, green: 0, blue: 0))),
        (#"["rgba", 0, 0, 255, 0.5]"#, .color(StyleColor(red: 0, green: 0, blue: 1, alpha: 0.5))),
        (#"["rgb", 256, 0, 0]"#, .null),
        (#"["at", 1, ["literal", ["a", "b"]]]"#, .string("b")),
        (#"["at", 2, ["literal", ["a", "b"]]]"#, .null),
        (#"["typeof", ["get", "rank"]]"#, .string("number")),
        // step
        (#"["step", ["zoom"], "a", 10, "b", 12, "c"]"#, .string("b")),
        (#"["step", ["zoom"], "a", 10.5, "b"]"#, .string("a")),
        (#"["step", ["get", "rank"], 0, 3, 1]"#, .number(1)),
        (#"["step", ["get", "name"], 0, 3, 1]"#, .null),
    ])
    func evaluates(text: String, expected: StyleValue) throws {
        let expression = try compileExpression(text)
        #expect(expression.evaluate(zoom: 10, feature: road) == expected)
    }

    /// (interpolate expression, zoom, expected number).
    @Test(arguments: [
        (#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#, -1.0, 1.0),
        (#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#, 0.0, 1.0),
        (#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#, 4.0, 0.75),
        (#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#, 8.0, 0.5),
        (#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#, 22.0, 0.5),
        (#"["interpolate", ["linear"], ["zoom"], 5, 0, 6, 10, 10, 20]"#, 8.0, 15.0),
        (#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#, 1.0, 1.0),
        (#"["interpolate", ["exponential", 1], ["zoom"], 0, 0, 2, 4]"#, 1.0, 2.0),
        (#"["interpolate", ["cubic-bezier", 0, 0, 1, 1], ["zoom"], 0, 0, 10, 100]"#, 5.0, 50.0),
        (#"["interpolate", ["linear"], ["get", "rank"], 0, 0, 10, 100]"#, 0.0, 30.0),
    ])
    func interpolates(text: String, zoom: Double, expected: Double) throws {
        let value = try compileExpression(text).evaluate(zoom: zoom, feature: road)
        let n = try #require(value.numberValue)
        #expect(abs(n - expected) < 1e-9)
    }

    @Test func exponentialInterpolationMatchesMapLibreFormula() throws {
        // base 1.4, stops 5.8→0, 6→3, 20→40 (Positron's tunnel_motorway_casing width).
        let e = try compileExpression(#"["interpolate", ["exponential", 1.4], ["zoom"], 5.8, 0, 6, 3, 20, 40]"#)
        let numerator: Double = pow(1.4, 7.0) - 1
        let denominator: Double = pow(1.4, 14.0) - 1
        let expected: Double = 3 + 37 * (numerator / denominator)
        let n = try #require(e.evaluate(zoom: 13).numberValue)
        #expect(abs(n - expected) < 1e-9)
    }

    @Test func interpolatesColoursAndArrays() throws {
        let colors = try compileExpression(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]"##, kind: .color)
        #expect(colors.evaluate(zoom: 5) == .color(StyleColor(red: 0.5, green: 0.5, blue: 0.5)))
        let arrays = try compileExpression(#"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0, 10]], 10, ["literal", [10, 0]]]"#)
        #expect(arrays.evaluate(zoom: 2) == .array([.number(2), .number(8)]))
    }

    @Test func dependenciesAndConstantFolding() throws {
        let constant = try compileExpression(#"["+", 1, ["*", 2, 3]]"#)
        #expect(constant.isConstant)
        if case .literal(.number(7)) = constant.root {} else { Issue.record("not folded: \(constant.root)") }
        let zoomOnly = try compileExpression(#"["interpolate", ["linear"], ["zoom"], 0, 1, 8, 0.5]"#)
        #expect(zoomOnly.isZoomOnly && !zoomOnly.dependsOnFeature)
        let data = try compileExpression(#"["get", "x"]"#)
        #expect(data.dependsOnFeature && !data.isZoomOnly && !data.isConstant)
        // A constant that fails at runtime stays unfolded and keeps failing.
        let failing = try compileExpression(#"["number", "abc"]"#)
        #expect(failing.evaluate(zoom: 0) == .null)
    }

    @Test func fastPathsAreSelected() throws {
        if case .compareProperty(.equal, key: "class", .string("park")) = try compileExpression(#"["==", ["get", "class"], "park"]"#).root {} else {
            Issue.record("== get/literal did not use the fast path")
        }
        if case .compareProperty(.greater, key: "rank", .number(3)) = try compileExpression(#"["<", 3, ["get", "rank"]]"#).root {} else {
            Issue.record("flipped comparison did not use the fast path")
        }
        if case .inSet = try compileExpression(#"["in", ["get", "class"], ["literal", ["a", "b"]]]"#).root {} else {
            Issue.record("in with a literal list did not become a set lookup")
        }
    }

    /// (malformed expression, fragment of the key path in the error).
    @Test(arguments: [
        (#"[]"#, "value"),
        (#"[1, 2]"#, "value[0]"),
        (#"["nope", 1]"#, "value"),
        (#"["get"]"#, "value"),
        (#"["match", ["get", "a"], "x", 1]"#, "value"),
        (#"["match", ["get", "a"], [], 1, 2]"#, "value[2]"),
        (#"["match", ["get", "a"], true, 1, 2]"#, "value[2]"),
        (#"["case", true, 1]"#, "value"),
        (#"["interpolate", ["linear"], ["zoom"], 5, 1, 3, 2]"#, "value[5]"),
        (#"["interpolate", ["cosine"], ["zoom"], 5, 1]"#, "value[1][0]"),
        (#"["step", ["zoom"], 0, "a", 1]"#, "value[3]"),
        (#"["var", "undefined"]"#, "value"),
        (#"["all", ["==", ["get", "a"], ["nope"]]]"#, "value[1][2]"),
        (#"{"a": 1}"#, "value"),
    ])
    func malformedExpressionsNameTheirPath(text: String, path: String) throws {
        do {
            _ = try compileExpression(text)
            Issue.record("\(text) compiled")
        } catch let error as StyleError {
            guard case .invalidExpression(_, let keyPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(keyPath == path)
        }
    }

    /// MapLibre's parsing rules for ramps: what it accepts compiles, what it rejects fails.
    @Test(arguments: [
        (#"["interpolate", ["linear", 1], ["zoom"], 0, 0, 10, 10]"#, true),  // OpenFreeMap writes this
        (#"["interpolate", ["linear", "x", {}], ["zoom"], 0, 0, 10, 10]"#, true),
        (#"["interpolate", ["exponential", 2, 9], ["zoom"], 0, 0, 10, 10]"#, true),
        (#"["interpolate", ["exponential"], ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", ["exponential", "2"], ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", ["cubic-bezier", 0.4, 0, 0.6, 1], ["zoom"], 0, 0, 10, 10]"#, true),
        (#"["interpolate", ["cubic-bezier", 0.4, 0, 0.6, 1.5], ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", ["cubic-bezier", 0.4, 0, 0.6], ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", [], ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", "linear", ["zoom"], 0, 0, 10, 10]"#, false),
        (#"["interpolate", ["linear"], ["zoom"], 0, 0]"#, true),
        (#"["interpolate", ["linear"], ["zoom"]]"#, false),
        (#"["interpolate", ["linear"], ["zoom"], 0, 0, 0, 1]"#, false),
        (#"["step", ["zoom"], 0]"#, false),
        (#"["step", ["zoom"], 0, 5, 1]"#, true),
    ])
    func rampsAcceptWhatMapLibreAccepts(text: String, accepted: Bool) {
        #expect(((try? compileExpression(text)) != nil) == accepted, "\(text)")
    }

    @Test func interpolateWithOneStopIsThatOutput() throws {
        // MapLibre does not even evaluate the input then.
        let e = try compileExpression(#"["interpolate", ["linear"], ["get", "name"], 0, 7]"#)
        #expect(e.evaluate(zoom: 1, feature: road) == .number(7))
    }

    @Test func openFreeMapLinearWithBaseLoadsAndInterpolates() throws {
        let style = try Style.parse(data: styleJSON(layers: #"""
            {"id": "l", "type": "line", "source": "s", "paint": {"line-width": ["interpolate", ["linear", 1], ["zoom"], 5, 1, 10, 3]}}
            """#), origin: "openfreemap.json")
        #expect(style.layers.first?.property(.lineWidth).number(atZoom: 7.5) == 2)
    }

    @Test func unsupportedOperatorsWarnOnceAndYieldNull() throws {
        let text = #"["coalesce", ["feature-state", "hover"], ["feature-state", "x"], 3]"#
        let warnings = try expressionWarnings(text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.kind == .unsupportedExpression("feature-state"))
        #expect(warnings.first?.occurrences == 2)
        #expect(try compileExpression(text).evaluate(zoom: 1) == .number(3))
    }

    @Test func evaluationWithoutFeatureTreatsPropertiesAsMissing() throws {
        #expect(try compileExpression(#"["get", "a"]"#).evaluate(zoom: 3) == .null)
        #expect(try compileExpression(#"["has", "a"]"#).evaluate(zoom: 3) == .bool(false))
    }
}
