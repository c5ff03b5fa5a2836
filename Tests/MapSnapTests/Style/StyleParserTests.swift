import Foundation
import Testing
@testable import MapSnap

@Suite struct StyleParserTests {
    /// Loaded once for the filter table.
    private static let osmBright = try? Style.load(path: StyleFixtures.path("osm-bright/style.json"))

    private func layerCounts(_ style: Style) -> [String: Int] {
        var counts: [String: Int] = [:]
        for layer in style.layers { counts[layer.type.description, default: 0] += 1 }
        return counts
    }

    @Test func loadsOSMBright() throws {
        let style = try Style.load(path: StyleFixtures.path("osm-bright/style.json"))
        #expect(style.origin == "style.json")
        #expect(style.layers.count == 123)
        #expect(layerCounts(style) == ["background": 1, "fill": 22, "line": 72, "symbol": 28])
        #expect(style.sources["openmaptiles"]?.kind == .vector)
        // `glyphs` (bundled fonts), `sprite` (loaded by the renderer) and `fill-pattern`
        // (drawn from the sprite) are read without a warning.
        let kinds = style.warnings.map(\.kind)
        #expect(kinds == [.ignoredProperty("text-halo-blur")], "\(style.warnings.map(\.description))")
        #expect(style.sprites == [StyleSprite(id: "default", url: "https://openmaptiles.github.io/osm-bright-gl-style/sprite")])
    }

    @Test func loadsPositron() throws {
        let style = try Style.load(path: StyleFixtures.path("positron/style.json"))
        #expect(style.layers.count == 50)
        #expect(layerCounts(style) == ["background": 1, "fill": 9, "line": 26, "symbol": 14])
        let kinds = Set(style.warnings.map(\.kind))
        // `text-pitch-alignment` has nothing to do on an unpitched image: no warning.
        let expected: Set<StyleWarning.Kind> = [.ignoredProperty("line-blur"), .ignoredProperty("text-halo-blur")]
        #expect(kinds == expected, "\(style.warnings.map(\.description))")
    }

    @Test func warningsAreDeterministic() throws {
        let a = try Style.load(path: StyleFixtures.path("osm-bright/style.json")).warnings
        let b = try Style.load(path: StyleFixtures.path("osm-bright/style.json")).warnings
        #expect(a == b)
    }

    /// Real OSM Bright filters against fake features.
    @Test(arguments: [
        ("highway-primary", FakeFeature(.lineString, ["class": .string("primary")]), true),
        ("highway-primary", FakeFeature(.lineString, ["class": .string("primary"), "brunnel": .string("bridge")]), false),
        ("highway-primary", FakeFeature(.lineString, ["class": .string("primary"), "ramp": .number(1)]), false),
        ("highway-primary", FakeFeature(.polygon, ["class": .string("primary")]), false),
        ("waterway-river", FakeFeature(.lineString, ["class": .string("river"), "intermittent": .number(0)]), true),
        ("waterway-river", FakeFeature(.lineString, ["class": .string("river")]), false),
        ("boundary-land-level-4", FakeFeature(.lineString, ["admin_level": .number(4)]), true),
        ("boundary-land-level-4", FakeFeature(.lineString, ["admin_level": .number(4), "maritime": .number(1)]), false),
        ("boundary-land-level-4", FakeFeature(.lineString, ["admin_level": .string("4")]), false),
        ("poi-level-3", FakeFeature(.point, ["rank": .number(30)]), true),
        ("poi-level-3", FakeFeature(.point, ["rank": .number(30), "level": .number(1)]), false),
        ("place-other", FakeFeature(.point, ["class": .string("hamlet")]), true),
        ("place-other", FakeFeature(.point, ["class": .string("city")]), false),
        ("landcover-glacier", FakeFeature(.polygon, ["subclass": .string("glacier")]), true),
        ("water-pattern", FakeFeature(.polygon), true),
    ])
    func evaluatesOSMBrightFilters(layerID: String, feature: FakeFeature, expected: Bool) throws {
        let style = try #require(Self.osmBright)
        let layer = try #require(style.layer(id: layerID))
        #expect(layer.matches(feature, zoom: 14) == expected)
    }

    @Test func positronPropertiesEvaluate() throws {
        let style = try Style.load(path: StyleFixtures.path("positron/style.json"))
        let capital = try #require(style.layer(id: "place_capital"))
        let paris = FakeFeature(.point, ["class": .string("city"), "capital": .number(2), "name:latin": .string("Paris")])
        #expect(capital.matches(paris, zoom: 6))
        #expect(capital.property(.iconImage).string(atZoom: 6) == "star-11")
        #expect(capital.property(.textAnchor).keyword(TextAnchor.self, atZoom: 9) == .center)
        #expect(capital.property(.lineWidth).number(atZoom: 1) == 1) // default for a missing property
        let background = try #require(style.layers.first)
        #expect(background.type == .background)
        #expect(background.property(.backgroundColor).isConstant)
    }

    @Test func layerVisibilityAndZoomRange() throws {
        let data = styleJSON(layers: """
        {"id": "a", "type": "line", "source": "s", "source-layer": "road", "minzoom": 5, "maxzoom": 10},
        {"id": "b", "type": "fill", "source": "s", "layout": {"visibility": "none"}},
        {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 3}},
        {"id": "d", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-color": "#abc", "fill-extrusion-height": 20}},
        {"id": "e", "type": "circle", "source": "s"}
        """)
        let style = try Style.parse(data: data, origin: "inline")
        let a = try #require(style.layer(id: "a"))
        #expect(a.sourceLayer == "road")
        #expect(!a.isVisible(atZoom: 4.9) && a.isVisible(atZoom: 5) && a.isVisible(atZoom: 9.99) && !a.isVisible(atZoom: 10))
        #expect(style.layer(id: "b")?.visibility == Visibility.none)
        #expect(style.layer(id: "c")?.type == .other("circle"))
        #expect(style.layer(id: "c")?.isVisible(atZoom: 5) == false)
        let circleWarnings = style.warnings.filter { $0.kind == .unsupportedLayerType("circle") }
        #expect(circleWarnings.count == 1)
        #expect(circleWarnings.first?.occurrences == 2)
        #expect(circleWarnings.first?.keyPath == "layers[2].type")
        // Extrusions are drawn as their roofs: parsed, their height a silent no-op.
        let extrusion = try #require(style.layer(id: "d"))
        #expect(extrusion.type == .fillExtrusion && extrusion.isVisible(atZoom: 5))
        #expect(extrusion.property(.fillExtrusionColor).color(atZoom: 5) == Color(rgb: 0xAABBCC))
        #expect(extrusion.property(.fillExtrusionOpacity).number(atZoom: 5) == 1)
        #expect(!style.warnings.contains { $0.kind == .unsupportedLayerType("fill-extrusion") })
        #expect(!style.warnings.contains { $0.keyPath.hasPrefix("layers[3]") })
    }

    @Test func sourcesAreKeptAsData() throws {
        let data = Data("""
        {"version": 8, "sources": {
          "dem": {"type": "raster-dem", "tiles": ["a/{z}/{x}/{y}.png"], "encoding": "terrarium", "tileSize": 256, "maxzoom": 12},
          "sat": {"type": "raster", "url": "mbtiles://sat.mbtiles", "attribution": "© Sat", "scheme": "tms", "bounds": [-180, -85, 180, 85]},
          "pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}},
          "vid": {"type": "video", "urls": []}
        }, "layers": []}
        """.utf8)
        let style = try Style.parse(data: data, origin: "inline")
        #expect(style.sources["dem"]?.kind == .rasterDEM)
        #expect(style.sources["dem"]?.encoding == "terrarium")
        #expect(style.sources["dem"]?.tileSize == 256)
        #expect(style.sources["dem"]?.maxZoom == 12)
        #expect(style.sources["sat"]?.scheme == "tms")
        #expect(style.sources["sat"]?.attribution == "© Sat")
        #expect(style.sources["sat"]?.bounds == [-180, -85, 180, 85])
        let inline = try #require(style.sources["pts"]?.inlineData)
        #expect(String(decoding: inline, as: UTF8.self) == #"{"features":[],"type":"FeatureCollection"}"#)
        #expect(style.warnings.map(\.kind) == [.unsupportedSourceType("video")])
    }

    /// (style JSON, expected error).
    @Test(arguments: [
        (#"{"version": 8, "sources": {}, "layers": [}"#, "invalidJSON"),
        (#"{"version": 7, "sources": {}, "layers": []}"#, "version"),
        (#"{"sources": {}, "layers": []}"#, "version"),
        (#"{"version": 8, "layers": []}"#, "sources"),
        (#"{"version": 8, "sources": {}}"#, "layers"),
        (#"{"version": 8, "sources": {}, "layers": {}}"#, "layers"),
        (#"{"version": 8, "sources": {"s": {"url": "x"}}, "layers": []}"#, "sources.s.type"),
        (#"{"version": 8, "sources": {"s": {"type": "vector", "maxzoom": "9"}}, "layers": []}"#, "sources.s.maxzoom"),
        (#"{"version": 8, "sources": {}, "layers": [{"type": "background"}]}"#, "layers[0].id"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "blob"}]}"#, "layers[0].type"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "line", "source": "nope"}]}"#, "layers[0].source"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "line"}]}"#, "layers[0].source"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background"}, {"id": "a", "type": "background"}]}"#, "layers[1].id"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "minzoom": 30}]}"#, "layers[0].minzoom"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "paint": []}]}"#, "layers[0].paint"),
        (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "paint": {"background-color": 3}}]}"#, "layers[0].paint.background-color"),
        (#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "a", "type": "line", "source": "s", "paint": {"line-width": ["*", 2, ["frobnicate"]]}}]}"#, "layers[0].paint.line-width[2]"),
        (#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "a", "type": "line", "source": "s", "filter": ["==", ["get", "a"]]}]}"#, "layers[0].filter"),
        (#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "a", "type": "line", "source": "s", "layout": {"line-cap": "pointy"}}]}"#, "layers[0].layout.line-cap"),
        ("[1, 2]", "(root)"),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "nesting"),
    ])
    func malformedStylesNameTheKeyPath(text: String, expected: String) {
        do {
            _ = try Style.parse(data: Data(text.utf8), origin: "bad.json")
            Issue.record("parsed: \(text)")
        } catch {
            let message = error.description
            #expect(message.hasPrefix("bad.json"), "\(message)")
            switch error {
            case .invalidJSON(let json):
                #expect(expected == "invalidJSON")
                #expect(json.byteOffset == 41 && json.line == 1 && json.keyPath == "layers[0]", "\(message)")
            case .nestingTooDeep:
                #expect(expected == "nesting")
            case .wrongType(_, let path, _, _), .missingKey(_, let path), .invalidValue(_, let path, _),
                 .invalidExpression(_, let path, _), .duplicateLayerID(_, let path, _), .unknownSource(_, let path, _):
                #expect(path == expected, "\(message)")
            default:
                Issue.record("unexpected \(message)")
            }
        }
    }

    @Test func invalidJSONReportsLine() {
        let text = "{\n  \"version\": 8,\n  \"sources\": {,\n}"
        #expect(throws: StyleError.self) { try Style.parse(data: Data(text.utf8), origin: "x.json") }
        do {
            _ = try Style.parse(data: Data(text.utf8), origin: "x.json")
        } catch {
            if case .invalidJSON(let json) = error {
                #expect(json.line == 3 && json.column == 15 && json.keyPath == "sources", "\(error)")
            } else {
                Issue.record("\(error)")
            }
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: StyleError.unreadable(origin: "nope.json", reason: "/nonexistent/nope.json: no such file")) {
            try Style.load(path: "/nonexistent/nope.json")
        }
    }

    @Test func unknownAndUnsupportedPropertiesWarnOnce() throws {
        let data = styleJSON(layers: """
        {"id": "a", "type": "line", "source": "s", "paint": {"line-colour": "red", "line-gradient": "x", "fill-color": "red", "line-color-transition": {"duration": 0}}},
        {"id": "b", "type": "line", "source": "s", "paint": {"line-gradient": "y", "line-blur": 2}}
        """, extraRoot: #""glyphs": "https://x/{fontstack}/{range}.pbf", "light": {},"#)
        let style = try Style.parse(data: data, origin: "w")
        let descriptions = style.warnings.map(\.description)
        #expect(style.warnings.map(\.kind) == [
            .ignoredRootKey("light"), .unknownProperty("fill-color"),
            .unknownProperty("line-colour"), .unsupportedProperty("line-gradient"), .ignoredProperty("line-blur"),
        ], "\(descriptions)")
        #expect(style.warnings.first { $0.kind == .unsupportedProperty("line-gradient") }?.occurrences == 2)
        #expect(descriptions.contains { $0.contains("layers[0].paint.line-gradient") && $0.contains("2 places") })
        // For people, one line per kind: the two unknown properties share a line.
        #expect(StyleWarning.lines(style.warnings) == [
            "light: \"light\" is ignored",
            "layers[0].paint.fill-color and elsewhere: properties \"fill-color\" and \"line-colour\" are unknown for their layer types",
            "layers[0].paint.line-gradient: property \"line-gradient\" is not supported and has no effect (2 places)",
            "layers[1].paint.line-blur: property \"line-blur\" is read but not rendered",
        ])
    }

    /// Long styles compile their layers on every core; what comes out must be what one pass
    /// in layer order gives: warnings in order of first occurrence with their first key path
    /// and counts, the lowest-numbered layer's error, a duplicate id before a later error.
    @Test func longStylesParseAsOnePassWould() throws {
        let count = StyleParser.parallelLayerThreshold + 8
        func layers(_ special: [Int: String]) -> String {
            (0..<count).map { i in
                special[i] ?? #"{"id": "l\#(i)", "type": "line", "source": "s"}"#
            }.joined(separator: ",\n")
        }
        let warned = try Style.parse(data: styleJSON(layers: layers([
            3: #"{"id": "l3", "type": "line", "source": "s", "paint": {"line-gradient": "x"}}"#,
            9: #"{"id": "l9", "type": "line", "source": "s", "paint": {"line-blur": 1}}"#,
            20: #"{"id": "l20", "type": "line", "source": "s", "paint": {"line-gradient": "y", "line-blur": 2}}"#,
        ])), origin: "long")
        #expect(warned.layers.map(\.id) == (0..<count).map { "l\($0)" })
        #expect(warned.warnings.map { "\($0.kind) \($0.keyPath) \($0.occurrences)" } == [
            "\(StyleWarning.Kind.unsupportedProperty("line-gradient")) layers[3].paint.line-gradient 2",
            "\(StyleWarning.Kind.ignoredProperty("line-blur")) layers[9].paint.line-blur 2",
        ])
        let badType = #"{"id": "x", "type": "line", "source": "s", "layout": {"line-cap": "pointy"}}"#
        let unknownSource = #"{"id": "y", "type": "line", "source": "nope"}"#
        for (special, expected) in [
            ([5: badType, 17: unknownSource], "layers[5].layout.line-cap"),
            ([5: unknownSource, 17: badType], "layers[5].source"),
            ([6: #"{"id": "l2", "type": "line", "source": "s"}"#, 11: badType], "layers[6].id"),
        ] {
            do {
                _ = try Style.parse(data: styleJSON(layers: layers(special)), origin: "long")
                Issue.record("parsed with errors at \(special.keys.sorted())")
            } catch {
                switch error {
                case .invalidValue(_, let path, _), .unknownSource(_, let path, _), .duplicateLayerID(_, let path, _):
                    #expect(path == expected, "\(error)")
                default:
                    Issue.record("unexpected \(error)")
                }
            }
        }
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let data = Data(count: Style.maximumInputBytes + 1)
        #expect(throws: StyleError.tooLarge(origin: "big.json", byteCount: Style.maximumInputBytes + 1, limit: Style.maximumInputBytes)) {
            try Style.parse(data: data, origin: "big.json")
        }
    }

    @Test func deepButAllowedExpressionsCompileAndEvaluate() throws {
        // 40 nested negations of a property test: well inside the nesting limit.
        var text = #"["has", "a"]"#
        for _ in 0..<40 { text = #"["!", "# + text + "]" }
        let e = try compileExpression(text)
        #expect(e.evaluate(zoom: 0, feature: FakeFeature(.point, ["a": .number(1)])) == .bool(true))
    }
}
