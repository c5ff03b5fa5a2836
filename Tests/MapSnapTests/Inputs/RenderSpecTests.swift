import Foundation
import Testing
@testable import MapSnap

@Suite struct RenderSpecTests {
    private func parse(_ json: String, resolver: (any PlaceResolving)? = nil) throws -> RenderSpec {
        try RenderSpec.parse(data: Data(json.utf8), source: "spec.json", resolver: resolver)
    }

    @Test func fullSpecRoundTrip() throws {
        let json = ##"""
        {
          "size": {"width": 800, "height": 600}, "scale": 2, "center": [47.37, 8.54], "zoom": 12.5, "padding": 10,
          "fractionalZoom": true, "style": "hybrid", "source": "https://tiles.example.com/{z}/{x}/{y}.pbf",
          "paths": [
            "color:red|weight:3|47.1,8.1|47.2,8.2",
            {"coordinates": [[47.1, 8.1], "47.3,8.3", {"lat": 47.4, "lon": 8.4}], "color": "#00ff0080", "width": 6,
             "casingColor": "white", "casingWidth": 2, "dash": [4, 2], "cap": "butt", "join": "bevel",
             "geodesic": true, "fillColor": "none", "level": "aboveRoads"},
            {"polyline": "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI", "precision": 6}
          ],
          "markers": [
            "size:small|label:A|47.5,8.5",
            {"location": "47.6,8.6", "color": "0x0000ff", "size": "mid", "style": "dot", "title": "Dot"},
            {"lat": 47.7, "lon": 8.7, "label": "東京", "title": "Tokyo?"}
          ],
          "polygons": [{"rings": [[[0, 0], [0, 1], [1, 1]], [[0.2, 0.2], [0.2, 0.4], [0.4, 0.4]]], "fillColor": "#ff000040", "strokeColor": null, "strokeWidth": 0}],
          "circles": [{"center": "10,10", "radiusMeters": 500, "fillColor": "#0000ff20", "strokeWidth": 1}],
          "visible": ["1,1|2,2", [3, 3], {"lat": 4, "lon": 4}],
          "geojson": {"type": "Point", "coordinates": [8.9, 47.9]},
          "polyline": "_p~iF~ps|U_ulLnnqC_mqNvxq`@",
          "attribution": "none", "scaleBar": false, "caption": "12.3 km", "output": "/tmp/out.png"
        }
        """##
        let spec = try parse(json)
        let o = spec.options
        #expect(o.width == 800 && o.height == 600 && o.scale == 2)
        #expect(o.center == LatLng(47.37, 8.54) && o.zoom == 12.5 && o.padding == 10 && o.allowsFractionalZoom)
        #expect(o.style == "hybrid" && o.source == "https://tiles.example.com/{z}/{x}/{y}.pbf")
        #expect(o.attribution == "" && !o.showsScaleBar && o.caption == "12.3 km")
        #expect(spec.output == "/tmp/out.png")
        #expect(o.visibleCoordinates == [LatLng(1, 1), LatLng(2, 2), LatLng(3, 3), LatLng(4, 4)])

        // Schema order: geojson, polyline, polygons, circles, paths, markers.
        let kinds = o.overlays.map { overlay -> String in
            switch overlay {
            case .marker: return "marker"
            case .path: return "path"
            case .polygon: return "polygon"
            case .circle: return "circle"
            }
        }
        #expect(kinds == ["marker", "path", "polygon", "circle", "path", "path", "path", "marker", "marker", "marker"])

        guard case let .path(styled) = o.overlays[5] else { Issue.record("expected a path"); return }
        #expect(styled.coordinates == [LatLng(47.1, 8.1), LatLng(47.3, 8.3), LatLng(47.4, 8.4)])
        #expect(styled == PathOverlay(coordinates: styled.coordinates, color: Color(rgba: 0x00FF0080), width: 6,
                                      casingColor: .white, casingWidth: 2, dash: [4, 2], cap: .butt, join: .bevel,
                                      geodesic: true, fillColor: nil, level: .aboveRoads))
        guard case let .path(p6) = o.overlays[6] else { Issue.record("expected a path"); return }
        #expect(p6.coordinates == [LatLng(38.5, -120.2), LatLng(40.7, -120.95), LatLng(43.252, -126.453)])
        guard case let .polygon(polygon) = o.overlays[2] else { Issue.record("expected a polygon"); return }
        #expect(polygon.rings.count == 2 && polygon.strokeColor == nil && polygon.fillColor == Color(rgba: 0xFF000040))
        guard case let .marker(dot) = o.overlays[8], case let .marker(tokyo) = o.overlays[9] else { Issue.record("expected markers"); return }
        #expect(dot.style == .dot(diameter: 12) && dot.color == Color(rgb: 0x0000FF) && dot.title == "Dot")
        #expect(tokyo.label == "東京" && tokyo.coordinate == LatLng(47.7, 8.7))
    }

    @Test func flagsAndSpecBuildTheSameOptions() throws {
        var flags = RenderSpecBuilder()
        try flags.setSize("300x200", origin: "--size")
        try flags.addPath("color:blue|1,1|2,2", origin: "--path")
        try flags.addMarkers("label:S|1,1", origin: "--marker")
        try flags.setZoom("5", origin: "--zoom")
        try flags.setAttribution("© me", origin: "--attribution")
        let fromFlags = try flags.build()
        let fromSpec = try parse(#"{"size": "300x200", "paths": ["color:blue|1,1|2,2"], "markers": ["label:S|1,1"], "zoom": 5, "attribution": "© me"}"#)
        #expect(fromFlags.options.overlays == fromSpec.options.overlays)
        #expect(fromFlags.options.width == fromSpec.options.width && fromFlags.options.zoom == fromSpec.options.zoom)
        #expect(fromFlags.options.attribution == fromSpec.options.attribution)
    }

    @Test func spriteKeyLikeTheFlag() throws {
        var flags = RenderSpecBuilder()
        try flags.setCenter("0,0", origin: "--center")
        try flags.setZoom("1", origin: "--zoom")
        try flags.setSprite("https://example.com/sprite", origin: "--sprite")
        #expect(try flags.build().options.sprite == "https://example.com/sprite")
        // A relative path resolves against the spec's folder, like every file in a spec.
        let dir = TestPaths.temporaryDirectory()
        try Data(#"{"size": "10x10", "zoom": 1, "center": "0,0", "sprite": "sprites/base"}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/spec.json"))
        #expect(try RenderSpec.load(path: dir + "/spec.json").options.sprite == dir + "/sprites/base")
        #expect(throws: RenderSpecError.self) { try parse(#"{"center": "0,0", "zoom": 1, "sprite": ""}"#) }
        #expect(throws: RenderSpecError.self) { try parse(#"{"center": "0,0", "zoom": 1, "sprite": 3}"#) }
    }

    @Test func relativePathsResolveAgainstTheSpecDirectory() throws {
        let specPath = InputsFixtures.path("spec/route.json")
        let spec = try RenderSpec.load(path: specPath)
        let dir = InputsFixtures.path("spec")
        #expect(spec.output == dir + "/out/route.png")
        #expect(spec.options.width == 640 && spec.options.scale == 2 && spec.options.style == "terrain")
        // route.geojson gives a path and a marker, the GPX two segments and two waypoints, plus the icon marker.
        #expect(spec.options.overlays.count == 2 + 4 + 1)
        guard case let .marker(icon) = spec.options.overlays.last else { Issue.record("expected the icon marker last"); return }
        #expect(icon.style == .icon(path: dir + "/pin.png", anchor: PixelPoint(x: 10, y: 32)))
    }

    @Test(arguments: [
        (#"{"colour": "red", "size": "1x1"}"#, RenderSpecError.unknownKey(source: "spec.json", keyPath: "colour", allowed: RenderSpec.keys)),
        (#"{"center": "1,1", "paths": [{"coordinates": [[1, 1]], "colour": "red"}]}"#,
         RenderSpecError.unknownKey(source: "spec.json", keyPath: "paths[0].colour",
                                    allowed: ["coordinates", "polyline", "precision", "color", "width", "casingColor", "casingWidth",
                                              "dash", "cap", "join", "geodesic", "fillColor", "level"])),
        (#"{"size": {"width": 10, "heigth": 10}}"#, RenderSpecError.unknownKey(source: "spec.json", keyPath: "size.heigth", allowed: ["width", "height"])),
        (#"{"center": "1,1", "scaleBar": "no"}"#, RenderSpecError.wrongType(source: "spec.json", keyPath: "scaleBar", expected: "true or false", found: "a string")),
        (#"{"center": "1,1", "paths": "1,1|2,2"}"#, RenderSpecError.wrongType(source: "spec.json", keyPath: "paths", expected: "an array", found: "a string")),
        (#"{"center": [95, 1]}"#, RenderSpecError.badValue(origin: "spec.json: center", reason: "latitude 95.0 out of range -90…90")),
        (#"{"center": "1,1", "markers": [{"lat": 1}]}"#, RenderSpecError.badValue(origin: "spec.json: markers[0]", reason: "give \"lat\" and \"lon\", or \"location\"")),
        (#"{"center": "1,1", "paths": [{"coordinates": [[1, 1]], "cap": "pointy"}]}"#,
         RenderSpecError.badValue(origin: "spec.json: paths[0].cap", reason: "\"pointy\": expected butt, round or square")),
        (#"{"size": "4000x4000", "scale": 4, "center": "1,1"}"#, RenderSpecError.imageTooLarge(width: 4000, height: 4000, scale: 4, limit: 8192)),
        (#"{"size": "600x400"}"#, RenderSpecError.nothingToShow),
        (#"[1]"#, RenderSpecError.wrongType(source: "spec.json", keyPath: "(root)", expected: "an object", found: "an array")),
    ])
    func rejectsBadSpecs(json: String, expected: RenderSpecError) {
        #expect(throws: expected) { try parse(json) }
    }

    /// Path coordinates are read straight from the document when every element is a
    /// `[lat, lon]` pair of plain numbers in range, else as a tree: both give the same
    /// coordinates (numbers parsed as `Double(String)` does) and the same errors.
    @Test func pathCoordinatesReadDirectlyMatchTheTree() throws {
        let texts = ["60.17058712345678901234", "-0.0", "0", "24.9", "1e1", "-33.8688197", "151.20929550000001",
                     "89.99999999999999", "-179.99999999999997", "1.5E-3", "0.1", "12345678901234567890e-18"]
        let pairs = (0..<texts.count).map { i in (texts[(i + 1) % 6], texts[i]) }   // (lat, lon)
        let plain = pairs.filter { !"\($0)".contains("e") && !"\($0)".contains("E") }
        // Plain numbers only (read directly); all of them with a string element (read as a tree).
        for (list, extra) in [(plain, [String]()), (pairs, ["\"1,2\""])] {
            let elements = list.map { "[\($0.0), \($0.1)]" } + extra
            let json = #"{"paths": [{"coordinates": [[1, 2]]}, "1,1|2,2", {"coordinates": ["# + elements.joined(separator: ", ") + "]}]}"
            let spec = try parse(json)
            guard spec.options.overlays.count == 3, case .path(let first) = spec.options.overlays[0],
                  case .path(let p) = spec.options.overlays[2] else { Issue.record("expected three paths"); return }
            #expect(first.coordinates == [LatLng(1, 2)])
            let want = list.map { LatLng(Double($0.0)!, Double($0.1)!) } + (extra.isEmpty ? [] : [LatLng(1, 2)])
            #expect(p.coordinates == want)
        }
    }

    @Test(arguments: [
        (#"{"paths": [{"coordinates": [[1, 1], [95, 1]]}]}"#,
         RenderSpecError.badValue(origin: "spec.json: paths[0].coordinates[1]", reason: "latitude 95.0 out of range -90…90")),
        (#"{"paths": [{"coordinates": [[1, 1], [1, 1, 1]]}]}"#,
         RenderSpecError.wrongType(source: "spec.json", keyPath: "paths[0].coordinates[1]", expected: "[lat, lon] numbers", found: "an array")),
        (#"{"paths": [{"coordinates": [[1, 1], true]}]}"#,
         RenderSpecError.wrongType(source: "spec.json", keyPath: "paths[0].coordinates[1]",
                                   expected: "\"lat,lon\", [lat, lon] or {\"lat\", \"lon\"}", found: "a boolean")),
        (#"{"paths": [{"coordinates": [[1, 1]], "coordinates": 3}]}"#,
         RenderSpecError.wrongType(source: "spec.json", keyPath: "paths[0].coordinates", expected: "an array", found: "a number")),
        (#"{"paths": [{"coordinates": []}]}"#, nil),
    ])
    func pathCoordinateErrors(json: String, expected: RenderSpecError?) {
        if let expected {
            #expect(throws: expected) { try parse(json) }
        } else {
            #expect(throws: RenderSpecError.syntax(.noLocations(origin: "spec.json: paths[0]"))) { try parse(json) }
        }
    }

    @Test func staticMapsErrorsInsideASpecNameTheKeyPath() {
        #expect(throws: RenderSpecError.syntax(.badLocation(origin: "spec.json: paths[1]", number: 3, text: "95,10", problem: .latitudeOutOfRange(95)))) {
            try parse(#"{"paths": ["1,1|2,2", "1,1|2,2|95,10"]}"#)
        }
        #expect(throws: RenderSpecError.geoJSON(.unexpected(source: "spec.json", keyPath: "geojson.coordinates", expected: "[lon, lat] numbers"))) {
            try parse(#"{"geojson": {"type": "Point", "coordinates": "x"}}"#)
        }
    }

    @Test func missingAndOversizedFilesNameTheFile() throws {
        #expect(throws: RenderSpecError.unreadableFile(origin: "spec.json: gpx", path: "nope.gpx", reason: "no such file")) {
            try RenderSpec.parse(data: Data(#"{"gpx": "nope.gpx"}"#.utf8), source: "spec.json", baseDirectory: "/nonexistent-dir")
        }
        var builder = RenderSpecBuilder(baseDirectory: InputsFixtures.directory)
        builder.maximumFileSize = 100
        #expect(throws: RenderSpecError.fileTooLarge(origin: "--gpx", path: "gpx/track-1.1.gpx", limit: 100)) {
            try builder.loadGPX(path: "gpx/track-1.1.gpx", origin: "--gpx")
        }
    }

    @Test func placeNamesInSpecsUseTheResolver() throws {
        let resolver = InputsPlaceTable(places: ["Bern": LatLng(46.948, 7.4474)])
        #expect(try parse(#"{"center": "Bern", "zoom": 10}"#, resolver: resolver).options.center == LatLng(46.948, 7.4474))
        #expect(throws: RenderSpecError.self) { try parse(#"{"center": "Bern", "zoom": 10}"#) }
    }

    @Test func staticMapsURLInASpec() throws {
        let spec = try parse(#"{"url": "https://maps.googleapis.com/maps/api/staticmap?size=512x256&scale=2&maptype=terrain&markers=1,1&key=abc"}"#)
        #expect(spec.options.width == 512 && spec.options.scale == 2 && spec.options.style == "terrain")
        #expect(spec.options.overlays.count == 1)
        #expect(spec.warnings == ["spec.json: url: ignored parameter \"key\" (not needed offline)"])
    }

    @Test func jsonLinesNameTheFailingLine() throws {
        let lines = """
        {"center": "1,1", "zoom": 3, "output": "a.png"}

        {"markers": ["2,2"], "output": "b.png"}
        """
        let specs = try RenderSpec.parseLines(data: Data(lines.utf8), source: "jobs.jsonl")
        #expect(specs.map(\.output) == ["a.png", "b.png"])

        let bad = "{\"center\": \"1,1\"}\n{\"center\": \"1,1\", \"zom\": 3}\n"
        #expect(throws: RenderSpecError.unknownKey(source: "jobs.jsonl:2", keyPath: "zom", allowed: RenderSpec.keys)) {
            try RenderSpec.parseLines(data: Data(bad.utf8), source: "jobs.jsonl")
        }
        let geo = "{\"geojson\": \"missing.geojson\"}\n"
        #expect(throws: RenderSpecError.unreadableFile(origin: "jobs.jsonl:1: geojson", path: "missing.geojson", reason: "no such file")) {
            try RenderSpec.parseLines(data: Data(geo.utf8), source: "jobs.jsonl", baseDirectory: "/nonexistent-dir")
        }
        #expect(throws: RenderSpecError.self) { try RenderSpec.parseLines(data: Data("{\"center\": \n".utf8), source: "jobs.jsonl") }
    }

    @Test func builderPolylineAndAttribution() throws {
        var b = RenderSpecBuilder()
        try b.addPolyline("_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI", precision: 6, origin: "--polyline6")
        #expect(throws: RenderSpecError.syntax(.badPolyline(origin: "--polyline", error: .invalidCharacter(offset: 2, byte: 32)))) {
            try b.addPolyline("__ _", precision: 5, origin: "--polyline")
        }
        // Google's example route at precision 6 (frederickjansen/polyline's tests, MIT): read at
        // precision 5 its second point is 385°N; the error says which flag it belongs to.
        let six = "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"
        #expect(throws: RenderSpecError.syntax(.precision6Polyline(
            origin: "--polyline", error: .coordinateOutOfRange(index: 0, offset: 6, latitude: 385.0, longitude: -1202.0)))) {
            try b.addPolyline(six, precision: 5, origin: "--polyline")
        }
        #expect(StaticMapsSyntaxError.precision6Polyline(
            origin: "--polyline", error: .coordinateOutOfRange(index: 0, offset: 6, latitude: 385.0, longitude: -1202.0)).description
            == "--polyline: encoded polyline: offset 6: point 1 (385.0,-1202.0) is outside -90…90, -180…180; the text is a valid precision-6 polyline: pass it as polyline6")
        // Out of range at both precisions: no such advice.
        let far = try EncodedPolyline.encode([LatLng(latitude: 89, longitude: 179), LatLng(latitude: -89, longitude: -179)], precision: 7)
        #expect(throws: RenderSpecError.self) { try b.addPolyline(far, precision: 5, origin: "--polyline") }
        do {
            try b.addPolyline(far, precision: 5, origin: "--polyline")
        } catch {
            if case .syntax(.badPolyline) = error {} else { Issue.record("expected a plain badPolyline, got \(error)") }
        }
        try b.setAttribution("NONE", origin: "--attribution")
        #expect(b.options.attribution == "")
        try b.setAttribution("© OpenStreetMap", origin: "--attribution")
        #expect(b.options.attribution == "© OpenStreetMap")
        try b.setOutput("-")
        #expect(try b.build().output == "-")
    }
}

@Suite struct RenderSpecJSONTests {
    /// spec → JSON → spec gives the same options (overlays here are already in schema order).
    @Test func writtenSpecReadsBackIdentically() throws {
        var options = MapSnapshotOptions(width: 512, height: 300, scale: 2, center: LatLng(47.37, 8.54), zoom: 11.25,
                                         padding: 12, allowsFractionalZoom: true, style: "terrain", source: "tiles.mbtiles",
                                         attribution: "", showsScaleBar: false, caption: "Route — 12 km")
        options.visibleCoordinates = [LatLng(-33.86, 151.2)]
        options.overlays = [
            .polygon(PolygonOverlay(rings: [[LatLng(0, 0), LatLng(0, 1), LatLng(1, 1)], [LatLng(0.2, 0.2), LatLng(0.2, 0.3), LatLng(0.3, 0.3)]],
                                    fillColor: nil, strokeColor: Color(rgba: 0x11223344), strokeWidth: 3, level: .aboveRoads)),
            .circle(CircleOverlay(center: LatLng(10, 10), radiusMeters: 1234.5)),
            .path(PathOverlay(coordinates: [LatLng(38.5, -120.2), LatLng(40.7, -120.95)], color: Color(rgb: 0xFF8800), width: 7,
                              casingColor: .white, casingWidth: 2, dash: [6, 3], cap: .square, join: .miter, geodesic: true,
                              fillColor: Color(rgba: 0x00FF0040))),
            .path(PathOverlay(coordinates: [LatLng(1, 1), LatLng(2, 2)])),
            .marker(MarkerOverlay(coordinate: LatLng(47.1, 8.1), style: .pin(.tiny), label: "東京", title: "Start")),
            .marker(MarkerOverlay(coordinate: LatLng(47.2, 8.2), style: .dot(diameter: 10), color: Color(rgb: 0x0000FF))),
            .marker(MarkerOverlay(coordinate: LatLng(47.3, 8.3), style: .icon(path: "/icons/pin.png", anchor: PixelPoint(x: 3, y: 29)))),
        ]
        let spec = RenderSpec(options: options, output: "/tmp/out.png")
        let data = try spec.jsonData()
        let back = try RenderSpec.parse(data: data, source: "written.json")
        #expect(back.options.overlays == options.overlays)
        #expect(back.options.visibleCoordinates == options.visibleCoordinates)
        #expect(back.options.center == options.center && back.options.zoom == options.zoom)
        #expect(back.options.width == 512 && back.options.height == 300 && back.options.scale == 2 && back.options.padding == 12)
        #expect(back.options.allowsFractionalZoom && !back.options.showsScaleBar)
        #expect(back.options.style == "terrain" && back.options.source == "tiles.mbtiles")
        #expect(back.options.attribution == "" && back.options.caption == "Route — 12 km")
        #expect(back.output == "/tmp/out.png")
        // Deterministic bytes: writing the re-read spec gives the same document.
        #expect(try back.jsonData() == data)
    }

    @Test func diameterNeedsDotStyle() {
        #expect(throws: RenderSpecError.badValue(origin: "spec.json: markers[0].diameter", reason: "diameter needs \"style\": \"dot\"")) {
            try RenderSpec.parse(data: Data(#"{"markers": [{"lat": 1, "lon": 1, "diameter": 5}]}"#.utf8), source: "spec.json")
        }
    }
}

@Suite struct RenderSpecReadingTests {
    private func parse(_ json: String) throws -> RenderSpec {
        try RenderSpec.parse(data: Data(json.utf8), source: "spec.json")
    }

    @Test func inlineGeoJSONIsStreamedWithTheSpecsKeyPaths() throws {
        let spec = try parse(#"{"geojson": {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}]}, "markers": ["5,6"]}"#)
        #expect(spec.options.overlays.count == 2)
        #expect(throws: RenderSpecError.geoJSON(.coordinateOutOfRange(source: "spec.json", keyPath: "geojson.features[0].geometry.coordinates[1]",
                                                                       longitude: 600, latitude: 4))) {
            try parse(#"{"geojson": {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [600, 4]]}}]}}"#)
        }
        // A later "geojson" replaces an earlier one, as for every other key.
        #expect(try parse(#"{"geojson": {"type": "Point", "coordinates": [1, 2]}, "geojson": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]}}"#)
            .options.overlays.count == 2)
    }

    @Test func syntaxErrorsNameLineColumnAndKeyPath() {
        #expect(throws: RenderSpecError.invalidJSON(JSONError(source: "spec.json", byteOffset: 36, line: 2, column: 19, keyPath: "markers",
                                                              reason: .unexpected(found: "'}'", expected: "',' or ']'")))) {
            try parse("{\"center\": \"1,1\",\n \"markers\": [\"1,1\"}")
        }
    }

    @Test func jsonLinesErrorsGiveTheFilesLineAndByte() throws {
        let file = "{\"center\": \"1,1\", \"output\": \"a.png\"}\n\n{\"center\": \"1,1\", \"zoom\": 3,}\n{\"zom\": 1}\n"
        let jobs = try RenderSpec.parseJobs(data: Data(file.utf8), source: "jobs.jsonl")
        #expect(jobs.map(\.line) == [1, 3, 4])
        #expect(try jobs[0].result.get().output == "a.png")
        guard case .failure(let syntax) = jobs[1].result, case .failure(let unknown) = jobs[2].result else {
            Issue.record("lines 3 and 4 should fail")
            return
        }
        #expect(syntax.description == "jobs.jsonl:3:29: invalid JSON: expected a key in double quotes, found '}' (byte 66)")
        #expect(unknown == .unknownKey(source: "jobs.jsonl:4", keyPath: "zom", allowed: RenderSpec.keys))
    }

    @Test func captionAttributionAndMarkersAreCapped() throws {
        let limit = RenderSpecBuilder.maximumTextLength
        let long = String(repeating: "é", count: limit + 1)
        #expect(try parse(#"{"center": "1,1", "caption": "\#(String(repeating: "é", count: limit))"}"#).options.caption?.count == limit)
        #expect(throws: RenderSpecError.textTooLong(origin: "spec.json: caption", limit: limit)) {
            try parse(#"{"center": "1,1", "caption": "\#(long)"}"#)
        }
        var builder = RenderSpecBuilder()
        #expect(throws: RenderSpecError.textTooLong(origin: "--attribution", limit: limit)) {
            try builder.setAttribution(long, origin: "--attribution")
        }
        #expect(throws: RenderSpecError.textTooLong(origin: "--caption", limit: limit)) {
            try builder.setCaption(String(repeating: "x", count: 10_000_000), origin: "--caption")
        }

        let markerLimit = RenderSpecBuilder.maximumMarkerCount
        let many = #"{"markers": ["# + Array(repeating: #"{"lat": 1, "lon": 2}"#, count: markerLimit + 1).joined(separator: ",") + "]}"
        #expect(throws: RenderSpecError.tooManyMarkers(origin: "spec.json: markers", limit: markerLimit)) { try parse(many) }
        builder.options.center = LatLng(1, 2)
        builder.options.overlays = Array(repeating: .marker(MarkerOverlay(coordinate: LatLng(1, 2))), count: markerLimit + 1)
        #expect(throws: RenderSpecError.tooManyMarkers(origin: "markers from all inputs", limit: markerLimit)) { try builder.build() }
    }
}
