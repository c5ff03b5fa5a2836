import Testing
@testable import MapSnap

/// A fixed gazetteer for place-name tests.
struct InputsPlaceTable: PlaceResolving {
    let places: [String: LatLng]
    func coordinate(forPlaceNamed name: String) -> LatLng? { places[name] }
}

@Suite struct StaticMapsSyntaxTests {
    @Test func pathDefaultsMatchGoogle() throws {
        let path = try StaticMapsSyntax.parsePath("40.737102,-73.990318|40.749825,-73.987963", origin: "--path")
        #expect(path.coordinates == [LatLng(40.737102, -73.990318), LatLng(40.749825, -73.987963)])
        #expect(path.width == 5)                         // Google: default weight 5 px
        #expect(path.color == Color(rgba: 0x0000FF80))   // Google: blue, 50% opacity
        #expect(path.fillColor == nil)
        #expect(path.geodesic == false)
    }

    @Test func pathStyles() throws {
        let path = try StaticMapsSyntax.parsePath("color:0xff0000ff|weight:3|geodesic:true|fillcolor:0xFFFF0033|8.5,47.3|8.6,47.4|8.7,47.3",
                                                  origin: "--path")
        #expect(path.color == Color(rgba: 0xFF0000FF))
        #expect(path.width == 3)
        #expect(path.geodesic)
        #expect(path.fillColor == Color(rgba: 0xFFFF0033))
        #expect(path.coordinates.count == 3)
    }

    @Test func namedColours() throws {
        #expect(try StaticMapsSyntax.parsePath("color:red|1,2|3,4", origin: "--path").color == Color(rgb: 0xFF0000))
        #expect(try StaticMapsSyntax.parseMarkers("color:Purple|1,2", origin: "--marker")[0].color == Color(rgb: 0x800080))
    }

    @Test func encodedPolylineKeepsItsBars() throws {
        // The Google example contains '|' twice; after enc: everything belongs to the polyline.
        let path = try StaticMapsSyntax.parsePath("weight:2|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@", origin: "--path")
        #expect(path.coordinates == [LatLng(38.5, -120.2), LatLng(40.7, -120.95), LatLng(43.252, -126.453)])
        #expect(path.width == 2)
    }

    @Test(arguments: [
        ("1,2|color:red|3,4", StaticMapsSyntaxError.styleAfterLocation(origin: "--path", item: 2, text: "color:red")),
        ("1,2|enc:??", StaticMapsSyntaxError.styleAfterLocation(origin: "--path", item: 2, text: "enc:??")),
        ("colour:red|1,2", StaticMapsSyntaxError.unknownStyleKey(origin: "--path", item: 1, key: "colour",
                                                                   allowed: ["color", "weight", "fillcolor", "geodesic", "enc"])),
        ("color:red", StaticMapsSyntaxError.noLocations(origin: "--path")),
        ("1,2|95,10", StaticMapsSyntaxError.badLocation(origin: "--path", number: 2, text: "95,10", problem: .latitudeOutOfRange(95))),
        ("1,2|10,-181", StaticMapsSyntaxError.badLocation(origin: "--path", number: 2, text: "10,-181", problem: .longitudeOutOfRange(-181))),
        ("NaN,10", StaticMapsSyntaxError.badLocation(origin: "--path", number: 1, text: "NaN,10", problem: .notFinite)),
        ("inf,10", StaticMapsSyntaxError.badLocation(origin: "--path", number: 1, text: "inf,10", problem: .notFinite)),
        ("1,2,3", StaticMapsSyntaxError.badLocation(origin: "--path", number: 1, text: "1,2,3", problem: .malformed)),
        ("Atlantis", StaticMapsSyntaxError.badLocation(origin: "--path", number: 1, text: "Atlantis", problem: .unknownPlace())),
        ("weight:-1|1,2", StaticMapsSyntaxError.badValue(origin: "--path", key: "weight", text: "-1", reason: "out of range 0…200")),
        ("geodesic:yes|1,2", StaticMapsSyntaxError.badValue(origin: "--path", key: "geodesic", text: "yes", reason: "expected true or false")),
        ("enc:_p~iF~ps|U_ulLnnqC_mqNvxq`", StaticMapsSyntaxError.badPolyline(origin: "--path", error: .truncated(offset: 22))),
    ])
    func pathErrors(text: String, expected: StaticMapsSyntaxError) {
        #expect(throws: expected) { try StaticMapsSyntax.parsePath(text, origin: "--path") }
    }

    @Test func errorMessagesNameFlagPositionAndReason() {
        let e = StaticMapsSyntaxError.badLocation(origin: "--path", number: 3, text: "95,10", problem: .latitudeOutOfRange(95))
        #expect(e.description == "--path: location 3 \"95,10\": latitude 95 out of range -90…90")
        let place = StaticMapsSyntaxError.badLocation(origin: "--center", number: 1, text: "Atlantis", problem: .unknownPlace())
        #expect(place.description.contains("no place named \"Atlantis\""))
    }

    @Test func badColourMessageQuotesTheValue() {
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parsePath("color:0xZZ0000|1,2", origin: "--path") }
        do {
            _ = try StaticMapsSyntax.parsePath("color:0xZZ0000|1,2", origin: "--path")
        } catch {
            #expect(error.description.hasPrefix("--path: color:\"0xZZ0000\": "))
        }
    }

    @Test func placeNamesGoThroughTheResolver() throws {
        let resolver = InputsPlaceTable(places: ["Zürich HB": LatLng(47.3779, 8.5403), "Bern": LatLng(46.948, 7.4474)])
        let path = try StaticMapsSyntax.parsePath("Zürich HB|Bern", origin: "--path", resolver: resolver)
        #expect(path.coordinates == [LatLng(47.3779, 8.5403), LatLng(46.948, 7.4474)])
        #expect(try StaticMapsSyntax.parseLocation("Bern", origin: "--center", resolver: resolver) == LatLng(46.948, 7.4474))
        #expect(throws: StaticMapsSyntaxError.badLocation(origin: "--center", number: 1, text: "Basel", problem: .unknownPlace())) {
            try StaticMapsSyntax.parseLocation("Basel", origin: "--center", resolver: resolver)
        }
    }

    @Test func markerDefaultsMatchGoogle() throws {
        let markers = try StaticMapsSyntax.parseMarkers("40.7,-74.0", origin: "--marker")
        #expect(markers.count == 1)
        #expect(markers[0].style == .pin(.normal))
        #expect(markers[0].color == Color(rgb: 0xEA4335))
        #expect(markers[0].label == nil)
    }

    @Test func markerStylesApplyToEveryLocation() throws {
        let markers = try StaticMapsSyntax.parseMarkers("size:mid|color:0x00FF0080|label:Ä|title:Zürich Hauptbahnhof|47.1,8.1|47.2,8.2",
                                                        origin: "--marker")
        #expect(markers.count == 2)
        for m in markers {
            #expect(m.style == .pin(.mid))
            #expect(m.color == Color(rgba: 0x00FF0080))
            #expect(m.label == "Ä")
            #expect(m.title == "Zürich Hauptbahnhof")
        }
        #expect(markers.map(\.coordinate) == [LatLng(47.1, 8.1), LatLng(47.2, 8.2)])
    }

    @Test(arguments: ["東京", "👍🏽", "ABCDEFGH", "12"])
    func unicodeLabelsUpToEightCharacters(label: String) throws {
        #expect(try StaticMapsSyntax.parseMarkers("label:\(label)|1,2", origin: "--marker")[0].label == label)
    }

    @Test func labelLongerThanEightIsRejected() {
        #expect(throws: StaticMapsSyntaxError.badValue(origin: "--marker", key: "label", text: "ABCDEFGHI", reason: "expected 1…8 characters")) {
            try StaticMapsSyntax.parseMarkers("label:ABCDEFGHI|1,2", origin: "--marker")
        }
    }

    @Test func dotStyleUsesSizeForDiameter() throws {
        #expect(try StaticMapsSyntax.parseMarkers("style:dot|1,2", origin: "-m")[0].style == .dot(diameter: 16))
        #expect(try StaticMapsSyntax.parseMarkers("size:tiny|style:dot|1,2", origin: "-m")[0].style == .dot(diameter: 6))
    }

    @Test(arguments: [
        ("bottom", PixelPoint(x: 10, y: 32)),
        ("top", PixelPoint(x: 10, y: 0)),
        ("center", PixelPoint(x: 10, y: 16)),
        ("topleft", PixelPoint(x: 0, y: 0)),
        ("bottomright", PixelPoint(x: 20, y: 32)),
        ("left", PixelPoint(x: 0, y: 16)),
        ("3,29", PixelPoint(x: 3, y: 29)),
    ])
    func iconAnchors(anchor: String, expected: PixelPoint) throws {
        // pin.png is 20×32.
        let markers = try StaticMapsSyntax.parseMarkers("anchor:\(anchor)|icon:pin.png|1,2", origin: "--marker",
                                                        baseDirectory: InputsFixtures.path("spec"))
        #expect(markers[0].style == .icon(path: InputsFixtures.path("spec/pin.png"), anchor: expected))
    }

    @Test func iconWithoutAnchorKeepsPathAndDefaultAnchor() throws {
        let markers = try StaticMapsSyntax.parseMarkers("icon:/tmp/whatever.png|1,2", origin: "--marker")
        #expect(markers[0].style == .icon(path: "/tmp/whatever.png", anchor: nil))
    }

    @Test func markerErrors() {
        #expect(throws: StaticMapsSyntaxError.badValue(origin: "-m", key: "size", text: "huge", reason: "expected tiny, small, mid or normal")) {
            try StaticMapsSyntax.parseMarkers("size:huge|1,2", origin: "-m")
        }
        #expect(throws: StaticMapsSyntaxError.styleAfterLocation(origin: "-m", item: 2, text: "label:A")) {
            try StaticMapsSyntax.parseMarkers("1,2|label:A", origin: "-m")
        }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseMarkers("anchor:top|1,2", origin: "-m") }
        #expect(throws: StaticMapsSyntaxError.self) {
            try StaticMapsSyntax.parseMarkers("icon:missing.png|anchor:top|1,2", origin: "-m", baseDirectory: "/nonexistent")
        }
    }

    @Test func cameraValues() throws {
        #expect(try StaticMapsSyntax.parseSize("600x400", origin: "--size") == ImageSize(width: 600, height: 400))
        #expect(try StaticMapsSyntax.parseScale("2", origin: "--scale") == 2)
        #expect(try StaticMapsSyntax.parseZoom("13.5", origin: "--zoom") == 13.5)
        #expect(try StaticMapsSyntax.parseLocations("1,2|3,4", origin: "--visible") == [LatLng(1, 2), LatLng(3, 4)])
        for bad in ["600", "0x400", "600x0", "600x9000", "axb", "600x400x2", "-600x400"] {
            #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseSize(bad, origin: "--size") }
        }
        for bad in ["0", "5", "nan", "two"] {
            #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseScale(bad, origin: "--scale") }
        }
        for bad in ["-1", "23", "inf"] {
            #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseZoom(bad, origin: "--zoom") }
        }
    }
}

@Suite struct StaticMapsURLTests {
    @Test func parsesGoogleDocumentationExample() throws {
        // From Google's Maps Static API "Get started" page (the Brooklyn Bridge example),
        // with the place name resolved by a table.
        let url = "https://maps.googleapis.com/maps/api/staticmap?center=Brooklyn+Bridge,New+York,NY&zoom=13&size=600x300&maptype=roadmap"
            + "&markers=color:blue%7Clabel:S%7C40.702147,-74.015794&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
            + "&markers=color:red%7Clabel:C%7C40.718217,-73.998284&key=YOUR_API_KEY"
        let resolver = InputsPlaceTable(places: ["Brooklyn Bridge,New York,NY": LatLng(40.7061, -73.9969)])
        let parsed = try StaticMapsURL(parsing: url, resolver: resolver)
        #expect(parsed.center == LatLng(40.7061, -73.9969))
        #expect(parsed.zoom == 13)
        #expect(parsed.size == ImageSize(width: 600, height: 300))
        #expect(parsed.style == "normal")
        #expect(parsed.markers.map(\.label) == ["S", "G", "C"])
        #expect(parsed.markers.map(\.color) == [Color(rgb: 0x0000FF), Color(rgb: 0x00C000), Color(rgb: 0xFF0000)])
        #expect(parsed.markers[2].coordinate == LatLng(40.718217, -73.998284))
        #expect(parsed.warnings == ["--url: ignored parameter \"key\" (not needed offline)"])
    }

    @Test func pathsVisibleScaleAndMapTypes() throws {
        let url = "staticmap?size=400x400&scale=2&maptype=satellite&path=color:0x0000ff%7Cweight:5%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@"
            + "&path=1,2%7C3,4&visible=10,10%7C11,11&visible=12,12&format=png&language=de&style=feature:road"
        let parsed = try StaticMapsURL(parsing: url)
        #expect(parsed.scale == 2)
        #expect(parsed.style == "satellite")
        #expect(parsed.paths.count == 2)
        #expect(parsed.paths[0].coordinates.count == 3)
        #expect(parsed.visible == [LatLng(10, 10), LatLng(11, 11), LatLng(12, 12)])
        // format, language and style are used, not warned about.
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.format == .png8 && parsed.language == "de", "format=png is Google's png8")
        #expect(parsed.mapStyles == [MapStyleRule(feature: "road", stylers: [])])
        #expect(try StaticMapsURL(parsing: "?maptype=terrain").style == "terrain")
        #expect(try StaticMapsURL(parsing: "?maptype=hybrid").style == "hybrid")
        #expect(try StaticMapsURL(parsing: "?format=jpg-baseline&quality=70").quality == 70)
        let gif = try StaticMapsURL(parsing: "?format=GIF")
        #expect(gif.format == .png8 && gif.warnings == ["--url format: gif is written as png8 (mapsnap does not write GIF)"])
    }

    @Test func styleRulesFromGooglesDocumentation() throws {
        // developers.google.com/maps/documentation/maps-static/styling, "Examples".
        let url = "?size=512x512&zoom=15&center=1,2&style=feature:road.local%7Celement:geometry%7Ccolor:0x00ff00"
            + "&style=feature:landscape%7Celement:geometry.fill%7Ccolor:0x000000&style=element:labels%7Cinvert_lightness:true"
            + "&style=feature:road.arterial%7Celement:labels%7Cinvert_lightness:false"
            + "&style=feature:road.highway%7Celement:geometry%7Cvisibility:simplified%7Ccolor:0xc280e9%7Cweight:2.5"
            + "&style=hue:0x0000ff%7Csaturation:-50%7Clightness:20%7Cgamma:0.8"
        let parsed = try StaticMapsURL(parsing: url)
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.mapStyles == [
            MapStyleRule(feature: "road.local", element: "geometry", stylers: [.color(Color(rgb: 0x00FF00))]),
            MapStyleRule(feature: "landscape", element: "geometry.fill", stylers: [.color(Color(rgb: 0x000000))]),
            MapStyleRule(element: "labels", stylers: [.invertLightness(true)]),
            MapStyleRule(feature: "road.arterial", element: "labels", stylers: [.invertLightness(false)]),
            MapStyleRule(feature: "road.highway", element: "geometry", stylers: [.visibility(true), .color(Color(rgb: 0xC280E9)), .weight(2.5)]),
            MapStyleRule(stylers: [.hue(Color(rgb: 0x0000FF)), .saturation(-50), .lightness(20), .gamma(0.8)]),
        ])
    }

    @Test func unknownStyleFeaturesAreLeftOutWithAWarningAndBadValuesAreErrors() throws {
        let parsed = try StaticMapsURL(parsing: "?style=feature:road.cycleway%7Ccolor:0xff0000&style=feature:water%7Cshimmer:3%7Ccolor:0x0000ff")
        #expect(parsed.mapStyles == [MapStyleRule(feature: "water", stylers: [.color(Color(rgb: 0x0000FF))])])
        #expect(parsed.warnings.count == 2)
        #expect(parsed.warnings[0].contains("style[1]") && parsed.warnings[0].contains("road.cycleway"))
        #expect(parsed.warnings[1].contains("style[2]") && parsed.warnings[1].contains("shimmer"))
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?style=lightness:200") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?style=visibility:maybe") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?language=de%20DE") }
    }

    @Test func markerScaleSizesTheIconAndShadowIsAccepted() throws {
        let markers = try StaticMapsSyntax.parseMarkers("scale:2|shadow:false|icon:pin.png|1,2", origin: "--marker")
        #expect(markers.first?.iconScale == 2)
        #expect(try StaticMapsSyntax.parseMarkers("shadow:true|1,2", origin: "--marker").first?.iconScale == 1)
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseMarkers("scale:8|1,2", origin: "--marker") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseMarkers("shadow:maybe|1,2", origin: "--marker") }
        // A web icon is named as such, with the parameter, before anything is drawn.
        #expect(throws: StaticMapsSyntaxError.badValue(origin: "--url markers[1]", key: "icon", text: "https://goo.gl/5y3S82",
                                                       reason: "icons are not fetched from the web; download the PNG and give its file path")) {
            try StaticMapsURL(parsing: "?markers=icon:https://goo.gl/5y3S82%7C1,2")
        }
    }

    @Test func errorsNameTheRepeatedParameter() {
        #expect(throws: StaticMapsSyntaxError.badLocation(origin: "--url markers[2]", number: 1, text: "95,1", problem: .latitudeOutOfRange(95))) {
            try StaticMapsURL(parsing: "?markers=1,1&markers=95,1")
        }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?path=1,2%ZZ") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?path=1,2%C3") } // not UTF-8
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "?maptype=moon") }
    }

    @Test func percentDecoding() {
        #expect(StaticMapsURL.percentDecode("a%7Cb+c%2B") == "a|b c+")
        #expect(StaticMapsURL.percentDecode("Z%C3%BCrich") == "Zürich")
        #expect(StaticMapsURL.percentDecode("%7") == nil)
    }
}
