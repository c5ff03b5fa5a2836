import Foundation
import Testing
@testable import MapSnap

@Suite struct FilterTests {
    /// (filter JSON, whether MapLibre reads it as an expression rather than legacy syntax).
    @Test(arguments: [
        (#"["==", "class", "park"]"#, false),
        (#"["!=", "brunnel", "tunnel"]"#, false),
        (#"["==", ["get", "class"], "park"]"#, true),
        (#"["==", ["geometry-type"], "Polygon"]"#, true),
        (#"["==", "$type", "Polygon"]"#, false),
        (#"["in", "class", "a", "b"]"#, false),
        (#"["in", "class", ["literal", ["a"]]]"#, true),
        (#"["in", ["get", "class"], ["literal", ["a"]]]"#, true),
        (#"["!in", "class", "a"]"#, false),
        (#"["has", "name"]"#, true),
        (#"["has", "$type"]"#, false),
        (#"["!has", "name"]"#, false),
        (#"["all"]"#, true),
        (#"["all", ["==", "class", "x"]]"#, false),
        (#"["all", ["==", ["get", "class"], "x"], true]"#, true),
        (#"["any", ["has", "a"], ["==", "b", 1]]"#, false),
        (#"["none", ["==", ["get", "class"], "x"]]"#, false),
        (#"["match", ["get", "class"], ["a"], true, false]"#, true),
        (#"true"#, true),
        (#"["==", "class"]"#, true),
    ])
    func detectsLegacySyntax(text: String, isExpression: Bool) throws {
        let json = try JSONValue.parse(Data(text.utf8), origin: "t", maximumDepth: 64)
        #expect(ExpressionCompiler.isExpressionFilter(json) == isExpression)
    }

    private static let park = FakeFeature(.polygon, id: 7, ["class": .string("park"), "rank": .number(5), "level": .number(0)])

    /// (filter, expected for `park` at zoom 12).
    @Test(arguments: [
        (#"["==", "class", "park"]"#, true),
        (#"["==", "class", "wood"]"#, false),
        (#"["!=", "class", "wood"]"#, true),
        (#"["!=", "missing", "x"]"#, true),
        (#"["==", "missing", "x"]"#, false),
        (#"["==", "rank", "5"]"#, false),
        (#"["==", "rank", 5]"#, true),
        (#"["<", "rank", 6]"#, true),
        (#"["<", "rank", "6"]"#, false),
        (#"[">=", "missing", 0]"#, false),
        (#"["in", "class", "wood", "park"]"#, true),
        (#"["in", "class", "wood"]"#, false),
        (#"["in", "missing", "wood"]"#, false),
        (#"["!in", "class", "wood"]"#, true),
        (#"["!in", "missing", "wood"]"#, true),
        (#"["has", "rank"]"#, true),
        (#"["!has", "rank"]"#, false),
        (#"["==", "$type", "Polygon"]"#, true),
        (#"["==", "$type", "LineString"]"#, false),
        (#"["in", "$type", "Point", "Polygon"]"#, true),
        (#"["==", "$id", 7]"#, true),
        (#"["has", "$id"]"#, true),
        (#"["all", ["==", "$type", "Polygon"], ["any", ["!has", "level"], ["==", "level", 0]]]"#, true),
        (#"["none", ["==", "class", "park"]]"#, false),
        (#"["all"]"#, true),
        (#"["any"]"#, false),
        (#"false"#, false),
        // Expression filters with the runtime-error rule: a failed comparison fails the filter.
        (#"["all", ["==", ["geometry-type"], "Polygon"], ["==", ["get", "class"], "park"]]"#, true),
        (#"["!", ["<", ["get", "missing"], 3]]"#, false),
        (#"["get", "class"]"#, false),
    ])
    func evaluates(text: String, expected: Bool) throws {
        let filter = try compileExpression(text, filter: true)
        #expect(filter.matches(Self.park, zoom: 12) == expected)
    }

    @Test(arguments: [
        (#"["==", "class"]"#, "filter"),
        (#"["==", 1, "x"]"#, "filter[1]"),
        (#"["in", "class", ["a"], "b"]"#, "filter"),
        (#"["!has"]"#, "filter"),
        (#"["!in", "class", {}]"#, "filter[2]"),
        (#"["bogus", "a"]"#, "filter"),
    ])
    func malformedLegacyFiltersNameTheirPath(text: String, path: String) throws {
        do {
            _ = try compileExpression(text, filter: true)
            Issue.record("\(text) compiled")
        } catch let error as StyleError {
            guard case .invalidExpression(_, let keyPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(keyPath == path)
        }
    }
}
