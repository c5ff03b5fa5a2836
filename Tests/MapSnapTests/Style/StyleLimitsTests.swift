import Foundation
import Testing
@testable import MapSnap

/// Hostile styles: each is refused with a `StyleError` naming the key path, or evaluated in
/// bounded time. Before `let` was bound once, the nesting cases ran for minutes or crashed.
@Suite struct StyleLimitsTests {
    private static let feature = FakeFeature(.point, ["rank": .number(3), "name": .string("Helsinki")])

    /// `["let", v, ["op", ["var", v], ["var", v]], …]` nested `levels` deep around `body`.
    private static func doubling(_ op: String, seed: String, levels: Int) -> String {
        var text = "[\"var\", \"v\"]"
        for _ in 0..<levels {
            text = "[\"let\", \"v\", [\"\(op)\", [\"var\", \"v\"], [\"var\", \"v\"]], \(text)]"
        }
        return "[\"let\", \"v\", \(seed), \(text)]"
    }

    private static func limitError(_ body: () throws -> Void) -> (keyPath: String, reason: String)? {
        do {
            try body()
        } catch let error as StyleError {
            if case .limitExceeded(_, let keyPath, let reason) = error { return (keyPath, reason) }
            Issue.record("unexpected \(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    @Test func nestedLetIsEvaluatedOncePerLevel() throws {
        // 2^40 evaluations if `var` re-evaluated its binding; 41 additions bound once.
        let e = try compileExpression(Self.doubling("+", seed: #"["get", "rank"]"#, levels: 40))
        #expect(e.dependsOnFeature)
        #expect(e.evaluate(zoom: 0, feature: Self.feature) == .number(3 * 0x100_0000_0000))
    }

    @Test func nestedLetOfFeatureStringsStopsAtTheStringLimit() throws {
        let e = try compileExpression(Self.doubling("concat", seed: #"["get", "name"]"#, levels: 30))
        // 8 × 2^30 bytes would be needed: the concat fails, so the value is null (the default).
        #expect(e.evaluate(zoom: 0, feature: Self.feature) == .null)
        let small = try compileExpression(Self.doubling("concat", seed: #"["get", "name"]"#, levels: 2))
        #expect(small.evaluate(zoom: 0, feature: Self.feature) == .string(String(repeating: "Helsinki", count: 4)))
    }

    @Test func constantConcatDoublingIsAStyleErrorWithItsPath() throws {
        let layer = #"{"id": "l", "type": "symbol", "source": "s", "source-layer": "x", "layout": {"text-field": \#(Self.doubling("concat", seed: "\"ab\"", levels: 30))}}"#
        let error = Self.limitError { _ = try Style.parse(data: styleJSON(layers: layer), origin: "hostile.json") }
        let found = try #require(error)
        #expect(found.keyPath.hasPrefix("layers[0].layout.text-field[3]"))
        #expect(found.reason.contains("longer than \(Style.maximumStringBytes) bytes"))
    }

    @Test func hugeExpressionIsRefused() throws {
        let ones = Array(repeating: "1", count: Style.maximumExpressionNodes + 1).joined(separator: ",")
        let error = Self.limitError { _ = try compileExpression("[\"+\", \(ones)]") }
        #expect(error?.reason == "expression has more than \(Style.maximumExpressionNodes) nodes")
        let literal = Self.limitError { _ = try compileExpression("[\"literal\", [\(ones)]]") }
        #expect(literal?.keyPath.hasPrefix("value[1]") == true)
        let legacy = Self.limitError { _ = try compileExpression("[\"in\", \"class\", \(ones)]", filter: true) }
        #expect(legacy?.keyPath == "filter")
    }

    @Test func expressionJustUnderTheLimitCompiles() throws {
        let ones = Array(repeating: "1", count: 1000).joined(separator: ",")
        #expect(try compileExpression("[\"+\", \(ones)]").evaluate(zoom: 0) == .number(1000))
    }

    @Test func tooManyLayersIsRefused() throws {
        let layers = (0..<3000).map { #"{"id": "l\#($0)", "type": "background"}"# }.joined(separator: ",")
        let error = Self.limitError { _ = try Style.parse(data: styleJSON(layers: layers), origin: "hostile.json") }
        #expect(error?.keyPath == "layers")
        #expect(error?.reason == "3000 layers; at most \(Style.maximumLayerCount) are accepted")
        let fine = (0..<Style.maximumLayerCount).map { #"{"id": "l\#($0)", "type": "background"}"# }.joined(separator: ",")
        #expect(try Style.parse(data: styleJSON(layers: fine), origin: "ok.json").layers.count == Style.maximumLayerCount)
    }

    /// (layer JSON with a string over the limit, key path of the error).
    @Test(arguments: [
        (#"{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "HUGE"}}"#, "layers[0].layout.text-field"),
        (#"{"id": "l", "type": "symbol", "source": "s", "layout": {"icon-image": ["concat", "a", "HUGE"]}}"#, "layers[0].layout.icon-image[2]"),
        (#"{"id": "l", "type": "fill", "source": "s", "filter": ["==", "class", "HUGE"]}"#, "layers[0].filter[2]"),
        (#"{"id": "l", "type": "fill", "source": "s", "filter": ["match", ["get", "c"], "HUGE", true, false]}"#, "layers[0].filter[2]"),
        (#"{"id": "l", "type": "line", "source": "s", "paint": {"line-color": ["literal", "HUGE"]}}"#, "layers[0].paint.line-color[1]"),
    ])
    func hugeStringLiteralsAreRefused(layer: String, keyPath: String) throws {
        let huge = String(repeating: "x", count: Style.maximumStringBytes + 1)
        let data = styleJSON(layers: layer.replacingOccurrences(of: "HUGE", with: huge))
        let error = Self.limitError { _ = try Style.parse(data: data, origin: "hostile.json") }
        #expect(error?.keyPath == keyPath)
        #expect(error?.reason == "string of \(Style.maximumStringBytes + 1) bytes is longer than \(Style.maximumStringBytes)")
    }

    @Test func longLabelsAreCutToTheLabelLimit() throws {
        let style = try Style.parse(data: styleJSON(layers: #"""
            {"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": ["concat", ["get", "name"], " ", ["get", "name"]]}}
            """#), origin: "t")
        let field = try #require(style.layers.first).property(.textField)
        let long = String(repeating: "å", count: 200)
        let text = field.textField(atZoom: 10, feature: FakeFeature(.point, ["name": .string(long)]))
        #expect(text.count == Style.maximumLabelCharacters)
        #expect(text == String((long + " " + long).prefix(Style.maximumLabelCharacters)))
        #expect(field.textField(atZoom: 10, feature: FakeFeature(.point, ["name": .string("Oulu")])) == "Oulu Oulu")
    }
}
