import Foundation
import Testing
@testable import MapSnap

/// Input files with nothing to draw: named in the error when there is nothing else to show,
/// and in a warning when there is.
@Suite struct EmptyInputTests {
    static let cases: [(file: String, lacking: String)] = [
        ("corpus/geojsonvt-empty.geojson", "has no features with a geometry"),
        ("corpus/geojsonvt-feature-null-geometry.geojson", "has no features with a geometry"),
        ("corpus/togeojson-empty_trk.gpx", "has no track, route or waypoint with a point"),
    ]

    func load(_ file: String, into builder: inout RenderSpecBuilder) throws {
        let path = TestPaths.fixture(file)
        if file.hasSuffix(".gpx") {
            try builder.loadGPX(path: path, origin: "--gpx")
        } else {
            try builder.loadGeoJSON(path: path, origin: "--geojson")
        }
    }

    @Test(arguments: cases)
    func aloneItIsNamedInTheError(file: String, lacking: String) throws {
        var builder = RenderSpecBuilder()
        try load(file, into: &builder)
        #expect(throws: RenderSpecError.emptyInput(name: TestPaths.fixture(file), lacking: lacking)) { try builder.build() }
    }

    @Test(arguments: cases)
    func withACentreTheMapIsDrawnWithAWarning(file: String, lacking: String) throws {
        var builder = RenderSpecBuilder()
        try builder.setCenter("60.17,24.94", origin: "--center")
        try builder.setZoom("12", origin: "--zoom")
        try load(file, into: &builder)
        let spec = try builder.build()
        #expect(spec.warnings == ["\(TestPaths.fixture(file)): \(lacking), so nothing of it is drawn"])
    }

    @Test func inlineGeoJSONWithNoFeaturesIsNamedByItsKey() throws {
        #expect(throws: RenderSpecError.emptyInput(name: "spec.json: geojson", lacking: "has no features with a geometry")) {
            try RenderSpec.parse(data: Data(#"{"geojson": {"type": "FeatureCollection", "features": []}}"#.utf8), source: "spec.json")
        }
    }
}
