import Foundation
import Testing
@testable import MapSnap

/// Parses one property value as it would appear in a layer's paint/layout.
private func property(_ property: StyleProperty, _ text: String) throws -> PropertyValue {
    let json = try JSONValue.parse(Data(text.utf8), origin: "t", maximumDepth: 64)
    var parser = StyleParser(origin: "t")
    return try #require(try parser.parsePropertyValue(json, property: property, path: "p"))
}

private let feature = FakeFeature(.point, ["name": .string("Paris"), "name:latin": .string("Paris"),
                                           "name:nonlatin": .string("Парис"), "rank": .number(2),
                                           "class": .string("city"), "ref": .number(66)])

@Suite struct PropertyValueTests {
    /// Legacy `stops` functions: (property, function JSON, zoom, expected number).
    @Test(arguments: [
        (StyleProperty.lineWidth, #"{"base": 1.2, "stops": [[8.5, 0], [9, 0.5], [20, 18]]}"#, 8.0, 0.0),
        (.lineWidth, #"{"base": 1.2, "stops": [[8.5, 0], [9, 0.5], [20, 18]]}"#, 21.0, 18.0),
        (.lineWidth, #"{"stops": [[12, 0], [12.5, 1]]}"#, 12.25, 0.5),
        (.lineWidth, #"{"base": 1, "stops": [[0, 0.6], [4, 1.4], [5, 2], [12, 8]]}"#, 2.0, 1.0),
        (.lineWidth, #"{"base": 2, "stops": [[0, 0], [2, 3]]}"#, 1.0, 1.0),
        (.lineWidth, #"{"type": "interval", "stops": [[5, 1], [10, 2]]}"#, 9.99, 1.0),
        (.lineWidth, #"{"type": "interval", "stops": [[5, 1], [10, 2]]}"#, 10.0, 2.0),
        (.lineWidth, #"{"type": "interval", "stops": [[5, 1], [10, 2]]}"#, 2.0, 1.0),
        (.lineWidth, #"{"stops": [[5, 3]]}"#, 20.0, 3.0),
        (.textSize, #"{"property": "rank", "stops": [[1, 10], [3, 20]]}"#, 0.0, 15.0),
        (.textSize, #"{"property": "rank", "type": "interval", "stops": [[0, 10], [2, 20]]}"#, 0.0, 20.0),
        (.textSize, #"{"property": "class", "type": "categorical", "stops": [["town", 10], ["city", 20]]}"#, 0.0, 20.0),
        (.textSize, #"{"property": "class", "type": "categorical", "stops": [["town", 10]], "default": 7}"#, 0.0, 7.0),
        (.textSize, #"{"property": "missing", "stops": [[1, 10], [3, 20]], "default": 9}"#, 0.0, 9.0),
        (.textSize, #"{"property": "missing", "stops": [[1, 10], [3, 20]]}"#, 0.0, 16.0),
        (.textSize, #"{"property": "rank", "type": "identity"}"#, 0.0, 2.0),
    ])
    func legacyFunctions(property p: StyleProperty, text: String, zoom: Double, expected: Double) throws {
        let value = try property(p, text)
        let n = try #require(value.number(atZoom: zoom, feature: feature))
        #expect(abs(n - expected) < 1e-9)
    }

    @Test func stepFunctionsForNonInterpolatableValues() throws {
        // OSM Bright's highway-shield: a duplicated stop, and strings cannot interpolate.
        let placement = try property(.symbolPlacement, #"{"base": 1, "stops": [[7, "point"], [7, "line"], [8, "line"]]}"#)
        #expect(placement.keyword(SymbolPlacement.self, atZoom: 6) == .point)
        #expect(placement.keyword(SymbolPlacement.self, atZoom: 7) == .line)
        let antialias = try property(.fillAntialias, #"{"base": 1, "stops": [[0, false], [9, true]]}"#)
        #expect(antialias.bool(atZoom: 8.9) == false)
        #expect(antialias.bool(atZoom: 9) == true)
    }

    @Test func colourFunctionsInterpolate() throws {
        let fill = try property(.fillColor, #"{"base": 1, "stops": [[12, "hsla(30, 19%, 90%, 0.4)"], [16, "hsla(30, 19%, 90%, 0.2)"]]}"#)
        #expect(fill.color(atZoom: 14).alpha == 77)
        #expect(fill.isZoomOnly)
        let line = try property(.lineColor, ##"["interpolate", ["linear"], ["zoom"], 5.8, "hsla(0,0%,85%,0.53)", 6, "#fff"]"##)
        #expect(line.color(atZoom: 7) == .white)
        #expect(line.color(atZoom: 5) == Color(red: 217, green: 217, blue: 217, alpha: 135))
    }

    @Test func arraysInterpolateAndConstantsValidate() throws {
        let translate = try property(.fillTranslate, #"{"base": 1, "stops": [[6, [2, 0]], [8, [0, 0]]]}"#)
        #expect(translate.numberArray(atZoom: 7) == [1, 0])
        let dashes = try property(.lineDasharray, "[2, 4]")
        #expect(dashes.isConstant)
        #expect(dashes.numberArray(atZoom: 3) == [2, 4])
        #expect(PropertyValue.defaultValue(of: .lineDasharray).numberArray(atZoom: 3) == [])
        let fonts = try property(.textFont, #"["Noto Sans Regular"]"#)
        #expect(fonts.stringArray(atZoom: 1) == ["Noto Sans Regular"])
        let padding = try property(.iconPadding, "3")
        #expect(padding.numberArray(atZoom: 1) == [3])
    }

    /// (text-field value, expected label for `feature`).
    @Test(arguments: [
        ("\"{name}\"", "Paris"),
        ("\"{name:latin}\\n{name:nonlatin}\"", "Paris\nПарис"),
        ("\"{name:latin} {missing}\"", "Paris "),
        ("\"Route {ref}\"", "Route 66"),
        ("\"plain {\"", "plain {"),
        ("\"{}\"", "{}"),
        (#"["concat", ["get", "name:latin"], " ", ["get", "name:nonlatin"]]"#, "Paris Парис"),
        (#"["to-string", ["get", "ref"]]"#, "66"),
        (#"["format", ["get", "name"], {"font-scale": 1.2}, "\n", {}, ["get", "class"], {"text-font": ["literal", ["x"]]}]"#, "Paris\ncity"),
        (#"["coalesce", ["get", "name:en"], ["get", "name"]]"#, "Paris"),
        (#"["get", "missing"]"#, ""),
    ])
    func textField(text: String, expected: String) throws {
        let value = try property(.textField, text)
        #expect(value.textField(atZoom: 10, feature: feature) == expected)
    }

    @Test func iconImageTokensAndSteps() throws {
        #expect(try property(.iconImage, "\"{class}_11\"").string(atZoom: 3, feature: feature) == "city_11")
        let step = try property(.iconImage, #"["step", ["zoom"], "circle-11", 8, ""]"#)
        #expect(step.string(atZoom: 7.9) == "circle-11")
        #expect(step.string(atZoom: 8) == "")
    }

    @Test func keywordsFallBackToDefaults() throws {
        #expect(PropertyValue.defaultValue(of: .lineCap).keyword(LineCap.self, atZoom: 0) == .butt)
        #expect(PropertyValue.defaultValue(of: .lineJoin).keyword(LineJoin.self, atZoom: 0) == .miter)
        #expect(PropertyValue.defaultValue(of: .textAnchor).keyword(TextAnchor.self, atZoom: 0) == .center)
        let anchor = try property(.textAnchor, #"["get", "class"]"#)
        #expect(anchor.keyword(TextAnchor.self, atZoom: 0, feature: feature) == .center)
        let transform = try property(.textTransform, "\"uppercase\"")
        #expect(transform.keyword(TextTransform.self, atZoom: 0).apply("Paris") == "PARIS")
        let stepped = try property(.textAnchor, #"["step", ["zoom"], "left", 8, "center"]"#)
        #expect(stepped.keyword(TextAnchor.self, atZoom: 4) == .left)
    }

    @Test func dataDrivenValuesFallBackToTheDefaultOnBadData() throws {
        let width = try property(.lineWidth, #"["get", "name"]"#)
        #expect(width.number(atZoom: 1, feature: feature) == 1)
        let color = try property(.lineColor, #"["get", "name"]"#)
        #expect(color.color(atZoom: 1, feature: feature) == .black)
        let dataColor = try property(.lineColor, #"["match", ["get", "class"], "city", "red", "blue"]"#)
        #expect(dataColor.color(atZoom: 1, feature: feature) == Color(rgb: 0xFF0000))
    }

    @Test func resolvedAtZoomFreezesZoomOnlyValues() throws {
        let width = try property(.lineWidth, #"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 10]"#)
        let frozen = width.resolved(atZoom: 4)
        #expect(frozen.isConstant)
        #expect(frozen.number(atZoom: 20) == 4)
        let data = try property(.lineWidth, #"["get", "rank"]"#)
        #expect(!data.resolved(atZoom: 4).isConstant)
    }

    /// (property, malformed value, expected error key path).
    @Test(arguments: [
        (StyleProperty.lineWidth, "\"wide\"", "p"),
        (.lineColor, "\"x12\"", "p"),
        (.lineColor, "12", "p"),
        (.lineCap, "\"pointy\"", "p"),
        (.lineDasharray, "[1, \"a\"]", "p[1]"),
        (.lineWidth, #"{"stops": [[1, 2], [0, 3]]}"#, "p.stops[1][0]"),
        (.lineWidth, #"{"stops": [[1]]}"#, "p.stops[0]"),
        (.lineWidth, #"{"stops": []}"#, "p.stops"),
        (.lineWidth, #"{"base": 1}"#, "p.stops"),
        (.lineColor, #"{"stops": [[1, "nope"]]}"#, "p.stops[0][1]"),
        (.lineWidth, #"{"type": "cosine", "stops": [[1, 2]]}"#, "p.type"),
        (.symbolPlacement, #"{"type": "exponential", "stops": [[1, "line"]]}"#, "p.type"),
        (.lineColor, #"["interpolate", ["linear"], ["zoom"], 0, "red", 5, "bleu"]"#, "p"),
        (.iconPadding, "[1, 2, 3, 4, 5]", "p"),
    ])
    func malformedValuesNameTheirPath(p: StyleProperty, text: String, path: String) throws {
        let json = try JSONValue.parse(Data(text.utf8), origin: "t", maximumDepth: 64)
        var parser = StyleParser(origin: "t")
        do {
            _ = try parser.parsePropertyValue(json, property: p, path: "p")
            Issue.record("\(text) parsed")
        } catch let error as StyleError {
            switch error {
            case .wrongType(_, let keyPath, _, _), .invalidValue(_, let keyPath, _), .missingKey(_, let keyPath),
                 .invalidExpression(_, let keyPath, _):
                #expect(keyPath == path, "\(error)")
            default:
                Issue.record("unexpected \(error)")
            }
        }
    }
}
