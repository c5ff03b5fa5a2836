import Foundation
import Testing
@testable import MapSnap

/// Google styling rules and a label language applied to a style's JSON before it compiles.
@Suite struct StyleCustomizationTests {
    static let layers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}},
    {"id": "water", "type": "fill", "source": "s", "source-layer": "water", "paint": {"fill-color": "#aad3df"}},
    {"id": "road-minor-casing", "type": "line", "source": "s", "source-layer": "transportation",
     "filter": ["==", ["get", "class"], "minor"], "paint": {"line-color": "#cccccc", "line-width": 3}},
    {"id": "road-minor", "type": "line", "source": "s", "source-layer": "transportation",
     "filter": ["==", ["get", "class"], "minor"], "paint": {"line-color": "#ffffff",
     "line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 16, 6]}},
    {"id": "road-motorway", "type": "line", "source": "s", "source-layer": "transportation",
     "filter": ["==", ["get", "class"], "motorway"], "paint": {"line-color": ["interpolate", ["linear"], ["zoom"], 5, "#ff0000", 10, "#00ff00"]}},
    {"id": "boundary", "type": "line", "source": "s", "source-layer": "boundary",
     "filter": ["==", ["get", "admin_level"], 2], "paint": {"line-color": "#888888"}},
    {"id": "place-city", "type": "symbol", "source": "s", "source-layer": "place", "filter": ["==", ["get", "class"], "city"],
     "layout": {"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]]}, "paint": {"text-color": "#222222"}},
    {"id": "housenumber", "type": "symbol", "source": "s", "source-layer": "housenumber",
     "layout": {"text-field": "{housenumber}"}}
    """

    func style(_ rules: [MapStyleRule], language: String? = nil) throws -> Style {
        try Style.parse(bytes: [UInt8](styleJSON(layers: Self.layers)), origin: "t",
                        customization: StyleCustomization(rules: rules, language: language))
    }

    func color(_ s: Style, _ layer: String, _ property: StyleProperty, zoom: Double = 12) throws -> Color {
        let l = try #require(s.layer(id: layer))
        guard case .color(let c) = l.property(property).value(atZoom: zoom) else {
            Issue.record("\(layer) \(property) is not a colour")
            return .clear
        }
        return c.color
    }

    @Test func noRulesLeaveTheStyleAsItIs() throws {
        let s = try style([])
        #expect(try color(s, "water", .fillColor) == Color(rgb: 0xAAD3DF))
        #expect(try color(s, "road-minor", .lineColor) == Color(rgb: 0xFFFFFF))
    }

    @Test func googlesDocumentationExampleMapsOntoLayers() throws {
        let s = try style([
            MapStyleRule(feature: "road.local", element: "geometry", stylers: [.color(Color(rgb: 0x00FF00))]),
            MapStyleRule(feature: "landscape", element: "geometry.fill", stylers: [.color(Color(rgb: 0x000000))]),
            MapStyleRule(element: "labels", stylers: [.invertLightness(true)]),
        ])
        // road.local: both the line and its casing; the motorway is not local.
        #expect(try color(s, "road-minor", .lineColor) == Color(rgb: 0x00FF00))
        #expect(try color(s, "road-minor-casing", .lineColor) == Color(rgb: 0x00FF00))
        #expect(try color(s, "road-motorway", .lineColor, zoom: 5) == Color(rgb: 0xFF0000))
        #expect(try color(s, "bg", .backgroundColor) == Color(rgb: 0x000000))
        #expect(try color(s, "water", .fillColor) == Color(rgb: 0xAAD3DF))
        // #222222 inverted is #dddddd.
        #expect(try color(s, "place-city", .textColor) == Color(rgb: 0xDDDDDD))
    }

    @Test func colourAdjustmentsReachIntoExpressions() throws {
        let s = try style([MapStyleRule(feature: "road.highway", stylers: [.saturation(-100)])])
        // Red and green stops both become grey of their own lightness.
        #expect(try color(s, "road-motorway", .lineColor, zoom: 5) == Color(rgb: 0x808080))
        #expect(try color(s, "road-motorway", .lineColor, zoom: 10) == Color(rgb: 0x808080))
        let light = try style([MapStyleRule(feature: "water", stylers: [.lightness(100)])])
        #expect(try color(light, "water", .fillColor) == Color(rgb: 0xFFFFFF))
        let dark = try style([MapStyleRule(feature: "water", stylers: [.lightness(-100)])])
        #expect(try color(dark, "water", .fillColor) == Color(rgb: 0x000000))
        let hue = try style([MapStyleRule(feature: "water", stylers: [.hue(Color(rgb: 0xFF0000))])])
        let red = try color(hue, "water", .fillColor)
        #expect(red.red > red.green && red.red > red.blue)
    }

    @Test func visibilityHidesWholeLayersOrJustTheirPart() throws {
        let s = try style([
            MapStyleRule(feature: "administrative", stylers: [.visibility(false)]),
            MapStyleRule(element: "labels", stylers: [.visibility(false)]),
            MapStyleRule(feature: "water", element: "geometry.stroke", stylers: [.visibility(false)]),
        ])
        #expect(s.layer(id: "boundary")?.visibility == Visibility.none)
        #expect(s.layer(id: "place-city")?.visibility == Visibility.none)
        #expect(s.layer(id: "housenumber")?.visibility == Visibility.none)
        // Hiding a fill's outline leaves the fill.
        #expect(s.layer(id: "water")?.visibility == .visible)
        #expect(s.layer(id: "road-minor")?.visibility == .visible)
        // A later rule turns a feature back on.
        let again = try style([MapStyleRule(element: "labels", stylers: [.visibility(false)]),
                               MapStyleRule(feature: "administrative.locality", stylers: [.visibility(true)])])
        #expect(again.layer(id: "place-city")?.visibility == .visible)
        #expect(again.layer(id: "housenumber")?.visibility == Visibility.none)
    }

    @Test func weightSetsLineWidths() throws {
        let s = try style([MapStyleRule(feature: "road", element: "geometry.fill", stylers: [.weight(7)])])
        let width = try #require(s.layer(id: "road-minor")).property(.lineWidth).value(atZoom: 16)
        #expect(width == .number(7))
        // The casing is the stroke, not the fill.
        #expect(try #require(s.layer(id: "road-minor-casing")).property(.lineWidth).value(atZoom: 16) == .number(3))
    }

    @Test func languagePrefersTheLanguagesNameFields() throws {
        let s = try style([], language: "de")
        let layer = try #require(s.layer(id: "place-city"))
        func label(_ properties: [String: FeatureValue]) -> StyleValue {
            layer.property(.textField).value(atZoom: 10, feature: FakeFeature(.point, properties))
        }
        #expect(label(["name": .string("Helsinki"), "name:de": .string("Helsingfors (de)")]) == .string("Helsingfors (de)"))
        #expect(label(["name": .string("Helsinki"), "name_de": .string("Helsinki DE")]) == .string("Helsinki DE"))
        // Where the tiles have no German name, what the style read before.
        #expect(label(["name:latin": .string("Helsinki")]) == .string("Helsinki"))
        // House numbers are not names.
        let numbers = try #require(s.layer(id: "housenumber"))
        #expect(numbers.property(.textField).value(atZoom: 17, feature: FakeFeature(.point, ["housenumber": .string("12"), "name:de": .string("x")])) == .string("12"))
    }

    /// The bundled styles' Protomaps variants keep the OpenMapTiles layers' ids and paint,
    /// with Protomaps source layers and kinds: every Google feature must select the same
    /// layers in both, so a styled Static Maps URL looks the same on either kind of tiles.
    @Test(arguments: ["road.highway.controlled_access", "road.highway", "road.arterial", "road.local", "water",
                      "poi.park", "poi.school", "poi.medical", "landscape.man_made", "landscape.natural.landcover",
                      "transit.line", "transit.station.airport", "administrative.country", "administrative.province",
                      "administrative.locality", "administrative.neighborhood", "administrative.land_parcel", "poi"])
    func protomapsVariantsAnswerRulesLikeTheOpenMapTilesStyles(feature: String) throws {
        let rules = StyleCustomization(rules: [MapStyleRule(feature: feature, stylers: [.color(Color(rgb: 0xFF00FF)), .weight(9)])])
        let root = TestPaths.repositoryRoot + "/Styles/"
        let omt = try Style.load(path: root + "normal.json", customization: rules)
        let pm = try Style.load(path: root + "protomaps/normal.json", customization: rules)
        var touched = 0
        for layer in omt.layers {
            let twin = try #require(pm.layer(id: layer.id), "\(layer.id) is missing from the Protomaps variant")
            for property in [StyleProperty.fillColor, .lineColor, .lineWidth, .textColor, .textHaloColor, .backgroundColor]
            where property.layerType == nil || property.layerType == layer.type {
                let a = layer.property(property).value(atZoom: 15), b = twin.property(property).value(atZoom: 15)
                #expect(a == b, "\(feature): \(layer.id) \(property.rawValue)")
                if layer.paint[property] != nil, a == .number(9) || a == .color(StyleColor(Color(rgb: 0xFF00FF))) { touched += 1 }
            }
        }
        #expect(touched > 0, "\(feature) selects no layer")
    }
}
