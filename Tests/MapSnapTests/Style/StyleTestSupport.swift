import Foundation
@testable import MapSnap

/// A feature built from a literal dictionary, for evaluating filters and properties.
struct FakeFeature: StyleFeature {
    var properties: [String: FeatureValue]
    var geometryType: GeometryType
    var featureID: UInt64?

    init(_ geometryType: GeometryType = .lineString, id: UInt64? = nil, _ properties: [String: FeatureValue] = [:]) {
        self.properties = properties
        self.geometryType = geometryType
        self.featureID = id
    }

    func value(forKey key: String) -> FeatureValue? { properties[key] }
}

enum StyleFixtures {
    /// `Tests/MapSnapTests/Fixtures/Style/<name>`.
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Style/\(name)")
            .path
    }
}

/// Compiles one expression from JSON text.
func compileExpression(_ text: String, filter: Bool = false, kind: StylePropertyKind? = nil) throws -> StyleExpression {
    let json = try JSONValue.parse(Data(text.utf8), origin: "test", maximumDepth: Style.maximumNestingDepth)
    var compiler = ExpressionCompiler(origin: "test")
    return filter ? try compiler.compileFilter(json, at: "filter") : try compiler.compileValue(json, kind: kind, at: "value")
}

/// Warnings the compiler logs for one expression.
func expressionWarnings(_ text: String) throws -> [StyleWarning] {
    let json = try JSONValue.parse(Data(text.utf8), origin: "test", maximumDepth: Style.maximumNestingDepth)
    var compiler = ExpressionCompiler(origin: "test")
    _ = try compiler.compileValue(json, kind: nil, at: "value")
    return compiler.log.warnings
}

/// A minimal style around one layer JSON object (source "s" is a vector source).
func styleJSON(layers: String, extraRoot: String = "") -> Data {
    Data("""
    {"version": 8, "name": "t", \(extraRoot)
     "sources": {"s": {"type": "vector", "tiles": ["http://x/{z}/{x}/{y}.pbf"], "maxzoom": 14}},
     "layers": [\(layers)]}
    """.utf8)
}
