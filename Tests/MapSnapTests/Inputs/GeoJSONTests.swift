import Foundation
import Testing
@testable import MapSnap

@Suite struct GeoJSONTests {
    private func parse(_ json: String) throws -> GeoJSON {
        try GeoJSON(data: Data(json.utf8), source: "test.geojson")
    }

    @Test func fixtureFeatureCollectionWithSimplestyle() throws {
        let doc = try GeoJSON(data: try InputsFixtures.data("geojson/route.geojson"), source: "route.geojson")
        #expect(doc.overlays.count == 2)
        guard case let .path(path) = doc.overlays[0], case let .marker(marker) = doc.overlays[1] else {
            Issue.record("expected a path then a marker, got \(doc.overlays)")
            return
        }
        #expect(path.coordinates == [LatLng(47.3769, 8.5417), LatLng(47.3750, 8.5450)])  // [lon, lat, alt] swapped, alt dropped
        #expect(path.color == Color(rgba: 0xFF000080))   // stroke #ff0000 at stroke-opacity 0.5
        #expect(path.width == 4)
        #expect(marker.color == Color(rgb: 0x00FF00))
        #expect(marker.style == .pin(.small))
        #expect(marker.label == "1")
        #expect(marker.title == "Start")
    }

    @Test func everyGeometryType() throws {
        let json = """
        {"type": "GeometryCollection", "geometries": [
          {"type": "Point", "coordinates": [1, 2]},
          {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]},
          {"type": "LineString", "coordinates": [[1, 2], [3, 4]]},
          {"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]},
          {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 0]]]},
          {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]]},
          {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [-180, -90]}]}
        ]}
        """
        let kinds = try parse(json).overlays.map { overlay -> String in
            switch overlay {
            case .marker: return "marker"
            case .path: return "path"
            case .polygon: return "polygon"
            case .circle: return "circle"
            }
        }
        #expect(kinds == ["marker", "marker", "marker", "path", "path", "path", "polygon", "polygon", "polygon", "marker"])
    }

    @Test func bareGeometryAndFeature() throws {
        #expect(try parse(#"{"type": "Point", "coordinates": [8.5, 47.3]}"#).overlays
                    == [.marker(MarkerOverlay(coordinate: LatLng(47.3, 8.5)))])
        #expect(try parse(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.5, 47.3]}, "properties": {}}"#).overlays.count == 1)
    }

    @Test func polygonWithHoleAndFillStyle() throws {
        let json = """
        {"type": "Feature", "properties": {"fill": "#00ff00", "fill-opacity": 0.25, "stroke": "#000000", "stroke-width": 1},
         "geometry": {"type": "Polygon", "coordinates": [
           [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
           [[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]]]}}
        """
        guard case let .polygon(polygon) = try parse(json).overlays.first else {
            Issue.record("expected a polygon")
            return
        }
        #expect(polygon.rings.count == 2)
        #expect(polygon.rings[1][1] == LatLng(4, 2))
        #expect(polygon.fillColor == Color(rgba: 0x00FF0040))
        #expect(polygon.strokeColor == Color(rgb: 0x000000))
        #expect(polygon.strokeWidth == 1)
    }

    @Test func fillWithoutOpacityUsesSimplestyleDefault() throws {
        let json = ##"{"type": "Feature", "properties": {"fill": "#ff0000"}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,0]]]}}"##
        guard case let .polygon(polygon) = try parse(json).overlays.first else {
            Issue.record("expected a polygon")
            return
        }
        #expect(polygon.fillColor == Color(rgb: 0xFF0000).withOpacity(0.6))
    }

    @Test func markerSizesAndSymbols() throws {
        func marker(_ props: String) throws -> (MarkerOverlay, [String]) {
            let doc = try parse(#"{"type": "Feature", "properties": \#(props), "geometry": {"type": "Point", "coordinates": [0, 0]}}"#)
            guard case let .marker(m) = doc.overlays.first else { throw GeoJSONError.tooDeep(source: "", keyPath: "") }
            return (m, doc.warnings)
        }
        #expect(try marker(#"{"marker-size": "medium"}"#).0.style == .pin(.mid))
        #expect(try marker(#"{"marker-size": "large"}"#).0.style == .pin(.normal))
        #expect(try marker(#"{"marker-symbol": "A"}"#).0.label == "A")
        #expect(try marker(#"{"marker-symbol": 7}"#).0.label == "7")
        let (cafe, warnings) = try marker(#"{"marker-symbol": "cafe"}"#)
        #expect(cafe.label == nil)
        #expect(warnings.count == 1)
    }

    @Test func emptyGeometriesAreSkipped() throws {
        #expect(try parse(#"{"type": "LineString", "coordinates": []}"#).overlays.isEmpty)
        #expect(try parse(#"{"type": "FeatureCollection", "features": []}"#).overlays.isEmpty)
    }

    @Test(arguments: [
        (#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, "x"]]}}]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "features[1].geometry.coordinates[1]", expected: "[lon, lat] numbers")),
        (#"{"type": "LineString", "coordinates": [[1, 2], [3]]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates[1]", expected: "[lon, lat] numbers")),
        (#"{"type": "Point", "coordinates": [200, 10]}"#,
         GeoJSONError.coordinateOutOfRange(source: "test.geojson", keyPath: "coordinates", longitude: 200, latitude: 10)),
        (#"{"type": "Point", "coordinates": [10, -91]}"#,
         GeoJSONError.coordinateOutOfRange(source: "test.geojson", keyPath: "coordinates", longitude: 10, latitude: -91)),
        (#"{"type": "Point", "coordinates": [true, 1]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates", expected: "[lon, lat] numbers")),
        (#"{"type": "LineString", "coordinates": [[1, 2]]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates", expected: "at least 2 positions, found 1")),
        (#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates[0]", expected: "at least 4 positions, found 3")),
        (#"{"type": "Circle", "coordinates": [1, 2]}"#,
         GeoJSONError.unsupportedType(source: "test.geojson", keyPath: "type", type: "Circle")),
        (#"{"coordinates": [1, 2]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "type", expected: "a string")),
        (#"{"type": "FeatureCollection", "features": {}}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "features", expected: "an array of features")),
        (#"{"type": "FeatureCollection", "features": [{"type": "Point", "coordinates": [1, 2]}]}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "features[0].type", expected: "\"Feature\", found \"Point\"")),
        (##"{"type": "Feature", "properties": {"stroke": "#12"}, "geometry": null}"##,
         GeoJSONError.badProperty(source: "test.geojson", keyPath: "properties.stroke",
                                  reason: ColorSyntaxError.invalid(text: "#12").description)),
        (#"{"type": "Feature", "properties": {"marker-size": "huge"}, "geometry": null}"#,
         GeoJSONError.badProperty(source: "test.geojson", keyPath: "properties.marker-size", reason: "expected small, medium or large")),
        (#"[1, 2]"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "", expected: "a GeoJSON object, found an array")),
    ])
    func malformedInputNamesTheKeyPath(json: String, expected: GeoJSONError) {
        #expect(throws: expected) { try parse(json) }
    }

    @Test func errorMessageFormat() {
        let e = GeoJSONError.unexpected(source: "route.geojson", keyPath: "features[2].geometry.coordinates[5]", expected: "[lon, lat] numbers")
        #expect(e.description == "route.geojson: features[2].geometry.coordinates[5]: expected [lon, lat] numbers")
    }

    @Test func invalidJSONAndDeepNestingDoNotTrap() {
        #expect(throws: GeoJSONError.self) { try parse("{\"type\": ") }
        #expect(throws: GeoJSONError.self) { try parse("") }
        let deep = String(repeating: #"{"type": "GeometryCollection", "geometries": ["#, count: 40) + String(repeating: "]}", count: 40)
        #expect(throws: GeoJSONError.self) { try parse(deep) }
    }
}
