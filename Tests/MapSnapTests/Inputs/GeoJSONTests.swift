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
        (#"{"type": "Point", "coordinates": [541, 10]}"#,
         GeoJSONError.coordinateOutOfRange(source: "test.geojson", keyPath: "coordinates", longitude: 541, latitude: 10)),
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

    // MARK: Streaming

    @Test func membersBeforeTheirTypeAreReadOnceTheTypeIsKnown() throws {
        let json = """
        {"features": [{"geometry": {"coordinates": [[1, 2], [3, 4]], "type": "LineString"},
                       "properties": {"stroke": "#ff0000"}, "type": "Feature"},
                      {"properties": null, "type": "Feature", "geometry": {"type": "Point", "coordinates": [5, 6]}}],
         "type": "FeatureCollection"}
        """
        let overlays = try parse(json).overlays
        #expect(overlays.count == 2)
        guard case let .path(path) = overlays.first, case let .marker(marker) = overlays.last else {
            Issue.record("expected a path then a marker, got \(overlays)")
            return
        }
        #expect(path.coordinates == [LatLng(2, 1), LatLng(4, 3)])
        #expect(path.color == Color(rgb: 0xFF0000))
        #expect(marker.coordinate == LatLng(6, 5))
        // An error in a member read late still names its place.
        #expect(throws: GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates[1]", expected: "[lon, lat] numbers")) {
            try parse(#"{"coordinates": [[1, 2], [3]], "type": "LineString"}"#)
        }
    }

    /// Sorted keys put "type" last at every level: every shape of coordinates read before it
    /// gives what the same geometry gives with "type" first.
    @Test(arguments: [
        #"{"coordinates": [1, 2], "type": "Point"}"#,
        #"{"coordinates": [[1, 2], [3, 4]], "type": "MultiPoint"}"#,
        #"{"coordinates": [], "type": "MultiPoint"}"#,
        #"{"coordinates": [[1, 2], [3, 4, 5]], "type": "LineString"}"#,
        #"{"coordinates": [[[1, 2], [3, 4]], [], [[5, 6], [7, 8]]], "type": "MultiLineString"}"#,
        #"{"coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]], [], [[0.2, 0.2], [0.3, 0.2], [0.3, 0.3], [0.2, 0.2]]], "type": "Polygon"}"#,
        #"{"coordinates": [[], [[0, 0], [1, 0], [1, 1], [0, 0]]], "type": "Polygon"}"#,
        #"{"coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]], "type": "MultiPolygon"}"#,
        #"{"geometries": [{"coordinates": [1, 2], "type": "Point"}, {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}], "type": "GeometryCollection"}"#,
        #"{"features": [{"geometry": {"coordinates": [1, 2], "type": "Point"}, "properties": {"title": "x"}, "type": "Feature"}], "type": "FeatureCollection"}"#,
        #"{"features": [{"type": "Feature", "geometry": null}], "geometry": {"type": "Point", "coordinates": [1, 2]}, "type": "Feature"}"#,
        #"{"coordinates": [[1, 2], [3, 4]], "geometry": {"coordinates": [9, 9], "type": "Point"}, "type": "LineString"}"#,
    ])
    func typeLastReadsLikeTypeFirst(json: String) throws {
        let sorted = try parse(json)
        // The same document with each object's "type" moved to the front.
        let object = try #require(try JSONValue.parse(Array(json.utf8), origin: "t").objectValue)
        func typeFirst(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let items): return .array(items.map(typeFirst))
            case .object(let o):
                var out = JSONObject()
                if let type = o["type"] { out["type"] = type }
                for (key, member) in o where key != "type" { out[key] = typeFirst(member) }
                return .object(out)
            default: return value
            }
        }
        let reference = try parse(JSONWriter.text(typeFirst(.object(object))))
        #expect(sorted.overlays == reference.overlays)
        #expect(sorted.warnings == reference.warnings)
    }

    @Test(arguments: [
        (#"{"features": [{"geometry": {"type": "Point", "coordinates": [1, 2]}, "type": "Point"}], "type": "FeatureCollection"}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "features[0].type", expected: "\"Feature\", found \"Point\"")),
        (#"{"coordinates": [[[0, 0], [1, 1], [0, 0]]], "type": "Polygon"}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates[0]", expected: "at least 4 positions, found 3")),
        (#"{"coordinates": [[1, 2]], "type": "Point"}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates", expected: "[lon, lat] numbers")),
        (##"{"geometry": {"coordinates": [1, 2], "type": "Point"}, "properties": {"stroke": "#12"}, "type": "Feature"}"##,
         GeoJSONError.badProperty(source: "test.geojson", keyPath: "properties.stroke", reason: ColorSyntaxError.invalid(text: "#12").description)),
        (#"{"features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2, 3, 4, 5]}}], "type": "FeatureCollection"}"#,
         GeoJSONError.unexpected(source: "test.geojson", keyPath: "features[0].geometry.coordinates", expected: "[lon, lat] numbers")),
    ])
    func typeLastReportsTheSameErrors(json: String, expected: GeoJSONError) {
        #expect(throws: expected) { try parse(json) }
    }

    @Test func propertiesAfterTheGeometryStillStyleIt() throws {
        let json = ##"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"marker-color": "#00ff00", "title": "T"}}"##
        guard case let .marker(marker) = try parse(json).overlays.first else {
            Issue.record("expected a marker")
            return
        }
        #expect(marker.color == Color(rgb: 0x00FF00) && marker.title == "T")
    }

    @Test func ignoredMembersAndExtraPositionValuesAreSkipped() throws {
        let json = """
        {"type": "Feature", "id": 7, "bbox": [0, 0, 1, 1], "foreign": {"deep": [[[{"x": "y"}]]]},
         "geometry": {"type": "LineString", "coordinates": [[1, 2, 100, {"m": 1}], [3, 4, null]]}, "properties": {"other": [1, {"a": null}]}}
        """
        guard case let .path(path) = try parse(json).overlays.first else {
            Issue.record("expected a path")
            return
        }
        #expect(path.coordinates == [LatLng(2, 1), LatLng(4, 3)])
    }

    @Test(arguments: [
        (#"{"type": "Point", "type": "LineString", "coordinates": [1, 2]}"#, "type"),
        (#"{"type": "Point", "coordinates": [1, 2], "coordinates": [3, 4]}"#, "coordinates"),
        (#"{"type": "Feature", "geometry": null, "geometry": null}"#, "geometry"),
    ])
    func structuralKeysMustBeUnique(json: String, keyPath: String) {
        #expect(throws: GeoJSONError.duplicateKey(source: "test.geojson", keyPath: keyPath)) { try parse(json) }
    }

    @Test func invalidJSONNamesOffsetLineAndKeyPath() {
        let json = "{\"type\": \"LineString\",\n \"coordinates\": [[1, 2], [3, 4 5]]}"
        #expect(throws: GeoJSONError.invalidJSON(JSONError(source: "test.geojson", byteOffset: 54, line: 2, column: 32,
                                                           keyPath: "coordinates[1]", reason: .unexpected(found: "'5'", expected: "',' or ']'")))) {
            try parse(json)
        }
    }

    @Test func markersAreCapped() throws {
        let limit = GeoJSON.maximumMarkerCount
        func multiPoint(_ count: Int) -> String {
            #"{"type": "MultiPoint", "coordinates": ["# + Array(repeating: "[1,2]", count: count).joined(separator: ",") + "]}"
        }
        #expect(try parse(multiPoint(limit)).overlays.count == limit)
        #expect(throws: GeoJSONError.tooManyMarkers(source: "test.geojson", keyPath: "coordinates[\(limit)]", limit: limit)) {
            try parse(multiPoint(limit + 1))
        }
    }

    /// Coordinate pairs are read in bulk with a fast number scanner; every number must still
    /// be the one the standard library's parser gives, whatever its form (forms the fast
    /// scanner leaves alone take the generic path), and white space anywhere is fine.
    @Test func bulkCoordinateNumbersMatchTheStandardParser() throws {
        let numbers = ["0", "-0", "0.5", "-12.345678901234567", "24.946252", "179.99999999999999999",
                       "1e2", "1.5E-3", "-2e+1", "12345678901234567890", "0.000000000000000000001234",
                       "89.1234567890123456789", "7", "-180", "60.1"]
        var pairs: [(String, String)] = []
        for (i, a) in numbers.enumerated() {
            for b in numbers.dropFirst(i % 3) where abs(Double(b)!) <= 90 && abs(Double(a)!) <= 540 { pairs.append((a, b)) }
        }
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        var text = #"{"type": "LineString", "coordinates": ["#
        for (k, (a, b)) in pairs.enumerated() {
            let s = spaces[k % spaces.count]
            text += (k > 0 ? s + "," : "") + s + "[" + s + a + s + "," + s + b + s + "]"
        }
        text += "]}"
        guard case let .path(path) = try parse(text).overlays.first else {
            Issue.record("expected a path")
            return
        }
        let expected = pairs.map { LatLng(latitude: Double($0.1)!, longitude: Double($0.0)!) }
        #expect(path.coordinates.count == expected.count)
        for (got, want) in zip(path.coordinates, expected) {
            #expect(got.latitude.bitPattern == want.latitude.bitPattern && got.longitude.bitPattern == want.longitude.bitPattern,
                    "\(got) != \(want)")
        }
    }

    /// A bad position after many good ones is reported at its own index, as before.
    @Test(arguments: [
        ("[1, 200]", GeoJSONError.coordinateOutOfRange(source: "test.geojson", keyPath: "coordinates[1500]", longitude: 1, latitude: 200)),
        ("[1, \"2\"]", GeoJSONError.unexpected(source: "test.geojson", keyPath: "coordinates[1500]", expected: "[lon, lat] numbers")),
    ])
    func badPositionAfterManyGoodOnesNamesItsIndex(bad: String, expected: GeoJSONError) {
        let good = Array(repeating: "[24.9,60.1]", count: 1500).joined(separator: ",")
        let text = #"{"type": "LineString", "coordinates": ["# + good + "," + bad + ",[1,2]]}"
        #expect(throws: expected) { try parse(text) }
    }

    @Test func leadingZeroInABulkPairIsAJSONError() {
        let text = #"{"type": "LineString", "coordinates": [[1, 2], [05, 1]]}"#
        #expect {
            try parse(text)
        } throws: { error in
            guard case .invalidJSON(let e) = error as? GeoJSONError else { return false }
            return e.keyPath == "coordinates[1][0]" && e.byteOffset == 48
        }
    }

    /// The route of the performance issue: a million positions decode straight into one path
    /// (no timing here; the count and the ends show nothing was lost or reordered).
    @Test func millionPointLineStringDecodes() throws {
        let count = 1_000_000
        var text = ##"{"type": "Feature", "properties": {"stroke": "#1a73e8"}, "geometry": {"type": "LineString", "coordinates": ["##
        text.reserveCapacity(count * 24 + 200)
        for i in 0..<count {
            if i > 0 { text += "," }
            text += "[24.\(1_000_000 + i),60.\(5_000_000 + i % 1000)]"
        }
        text += "]}}"
        let doc = try GeoJSON(bytes: Array(text.utf8), source: "big.geojson")
        guard doc.overlays.count == 1, case let .path(path) = doc.overlays[0] else {
            Issue.record("expected one path, got \(doc.overlays.count) overlays")
            return
        }
        #expect(path.coordinates.count == count)
        #expect(path.coordinates.first == LatLng(60.5, 24.1))
        #expect(path.coordinates.last == LatLng(Double("60.5000999")!, Double("24.1999999")!))
    }
}
