import Foundation
import Testing
@testable import MapSnap

@Suite struct CompiledFilterTests {
    /// Every style we ship or test against.
    static let stylePaths: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return ["normal", "terrain", "hybrid"].map { root.appendingPathComponent("Styles/\($0).json").path }
            + [StyleFixtures.path("osm-bright/style.json"), StyleFixtures.path("positron/style.json")]
    }()

    /// Bound filters and feature-dependent properties give exactly the unbound results, for
    /// every layer of every style over every feature of a real Helsinki tile.
    @Test(arguments: stylePaths)
    func boundEvaluationAgreesWithUnboundOnARealTile(path: String) throws {
        let style = try Style.load(path: path)
        let tile = try VectorTile(bytes: try TileFixtures.centralTileBytes())
        var filterChecks = 0, propertyChecks = 0
        var mismatches: [String] = []
        for layer in style.layers {
            guard let name = layer.sourceLayer, let tileLayer = try tile.layer(named: name) else { continue }
            let index = TileLayerIndex(tileLayer)
            for zoom in [12.0, 14.5, 16, 17] {
                let filter = CompiledFilter(layer, tileLayer: index, zoom: zoom)
                let properties = (Array(layer.paint.values) + Array(layer.layout.values)).filter(\.dependsOnFeature)
                let bound = properties.map { $0.bound(to: index, zoom: zoom) }
                for feature in tileLayer.features {
                    filterChecks += 1
                    if filter.matches(feature) != layer.matches(feature, zoom: zoom) {
                        mismatches.append("\(layer.id) z\(zoom) feature \(feature.index): filter")
                    }
                    for (p, b) in zip(properties, bound) {
                        propertyChecks += 1
                        if p.value(atZoom: zoom, feature: feature) != b.value(atZoom: zoom, feature: feature) {
                            mismatches.append("\(layer.id) z\(zoom) feature \(feature.index): \(p.property.rawValue)")
                        }
                    }
                }
            }
        }
        #expect(mismatches.prefix(10) == [], "\(mismatches.count) mismatches")
        #expect(filterChecks > 1000)
        if path.contains("positron") || path.contains("osm-bright") { #expect(propertyChecks > 100) }
    }

    /// A hand-built layer: keys class, rank, name; values mixing strings, numbers and a
    /// boolean (the string "5" and the number 5 must stay apart).
    private static func layer() throws -> VectorTileLayer {
        func number(_ n: UInt64) -> [UInt8] {
            var w = ProtobufWriter()
            w.writeVarintField(5, n)
            return w.bytes
        }
        var yes = ProtobufWriter()
        yes.writeVarintField(7, 1)
        let values: [[UInt8]] = [MVTTestTiles.stringValue("park"), MVTTestTiles.stringValue("wood"), number(5),
                                 MVTTestTiles.stringValue("5"), yes.bytes]
        let point: [UInt64] = [9, 50, 34]
        let line: [UInt64] = [9, 0, 0, 10, 20, 20]
        let square: [UInt64] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15]
        let features: [MVTTestTiles.Feature] = [
            .init(id: 1, type: 3, tags: [0, 0, 1, 2], geometry: square),        // park, rank 5
            .init(id: 2, type: 3, tags: [0, 1, 1, 3], geometry: square),        // wood, rank "5"
            .init(id: 3, type: 2, tags: [0, 0], geometry: line),                // park line, no rank
            .init(id: 4, type: 1, tags: [2, 0, 3, 4], geometry: point),         // name park, flag true
            .init(id: 5, type: 1, tags: [], geometry: point),                   // nothing
        ]
        let bytes = MVTTestTiles.tile([MVTTestTiles.layer(keys: ["class", "rank", "name", "flag"], values: values, features: features)])
        return try #require(try VectorTile(bytes: bytes).layer(named: "l"))
    }

    /// Filters exercising every bound form; each is checked against the unbound filter for
    /// every feature, and against the expected ids.
    @Test(arguments: [
        (#"["==", "class", "park"]"#, [1, 3]),
        (#"["!=", "class", "park"]"#, [2, 4, 5]),
        (#"["==", "rank", 5]"#, [1]),
        (#"["==", "rank", "5"]"#, [2]),
        (#"["<", "rank", 6]"#, [1]),
        (#"["in", "class", "wood", "x"]"#, [2]),
        (#"["!in", "class", "wood"]"#, [1, 3, 4, 5]),
        (#"["has", "rank"]"#, [1, 2]),
        (#"["!has", "rank"]"#, [3, 4, 5]),
        (#"["==", "$type", "Polygon"]"#, [1, 2]),
        (#"["all", ["==", "$type", "Point"], ["has", "flag"]]"#, [4]),
        (#"["==", "$id", 3]"#, [3]),
        (#"["==", "missing", "x"]"#, []),
        (#"["!=", "missing", "x"]"#, [1, 2, 3, 4, 5]),
        (#"["==", ["get", "class"], "park"]"#, [1, 3]),
        (#"["<", ["get", "rank"], 6]"#, [1]),
        (#"[">=", ["get", "rank"], "0"]"#, [2]),
        (#"["<", ["get", "missing"], 1]"#, []),
        (#"["in", ["get", "class"], ["literal", ["wood", "park"]]]"#, [1, 2, 3]),
        (#"["match", ["get", "class"], "park", true, false]"#, [1, 3]),
        (#"["match", ["get", "rank"], 5, ["==", ["geometry-type"], "Polygon"], false]"#, [1]),
        (#"["match", ["get", "missing"], "x", false, true]"#, [1, 2, 3, 4, 5]),
        (#"["any", ["==", ["get", "name"], "park"], ["==", ["id"], 5]]"#, [4, 5]),
        (#"["all", ["has", "class"], ["!", ["has", "rank"]]]"#, [3]),
        (#"["!", ["any", ["==", ["get", "class"], "park"], ["has", "flag"]]]"#, [2, 5]),
        (#"["any", ["all", ["has", "class"], ["!", ["any", ["has", "rank"], ["==", ["get", "class"], "park"]]]], ["==", ["id"], 4]]"#, [4]),
        (#"["case", ["has", "rank"], ["==", ["get", "rank"], 5], ["has", "flag"]]"#, [1, 4]),
        (#"[">", ["zoom"], 10]"#, [1, 2, 3, 4, 5]),
        (#"["get", "flag"]"#, [4]),
        (#"["let", "c", ["get", "class"], ["==", ["var", "c"], "wood"]]"#, [2]),
        (#"["==", ["get", ["concat", "cla", "ss"]], "wood"]"#, [2]),
    ])
    func boundFormsMatchTheUnboundFilter(text: String, ids: [Int]) throws {
        let layer = try Self.layer()
        let expression = try compileExpression(text, filter: true)
        let filter = CompiledFilter(expression, tileLayer: TileLayerIndex(layer), zoom: 12)
        var matched: [Int] = []
        for f in layer.features {
            #expect(filter.matches(f) == expression.matches(f, zoom: 12), "feature \(f.index)")
            if filter.matches(f) { matched.append(Int(f.featureID ?? 0)) }
        }
        #expect(matched == ids)
    }

    @Test func geometryTypeMaskRejectsWithoutEvaluating() throws {
        let layer = try Self.layer()
        let index = TileLayerIndex(layer)
        let polygons = CompiledFilter(try compileExpression(#"["==", "$type", "Polygon"]"#, filter: true), tileLayer: index, zoom: 12)
        #expect(polygons.acceptedGeometryTypes == [.polygon])
        let either = CompiledFilter(try compileExpression(#"["any", ["==", ["geometry-type"], "Point"], ["==", ["geometry-type"], "LineString"]]"#, filter: true),
                                    tileLayer: index, zoom: 12)
        #expect(either.acceptedGeometryTypes == [.point, .lineString])
        // The painter's own wanted types narrow it further.
        let wanted = CompiledFilter(nil, tileLayer: index, zoom: 12, geometryTypes: [.lineString, .polygon])
        #expect(wanted.acceptedGeometryTypes == [.lineString, .polygon])
        #expect(layer.features.filter(wanted.matches).map(\.index) == [0, 1, 2])
        // A key the tile layer lacks can decide the whole filter.
        let none = CompiledFilter(try compileExpression(#"["==", "subclass", "x"]"#, filter: true), tileLayer: index, zoom: 12)
        #expect(none.acceptedGeometryTypes.isEmpty)
        let zoomed = CompiledFilter(try compileExpression(#"["all", [">", ["zoom"], 14], ["has", "class"]]"#, filter: true), tileLayer: index, zoom: 12)
        #expect(zoomed.acceptedGeometryTypes.isEmpty)
    }

    @Test func featuresOfAnotherLayerFallBackToTheUnboundFilter() throws {
        let layer = try Self.layer()
        let other = try Self.layer()
        let expression = try compileExpression(#"["==", ["get", "class"], "wood"]"#, filter: true)
        let filter = CompiledFilter(expression, tileLayer: TileLayerIndex(layer), zoom: 12)
        #expect(other.features.map(filter.matches) == [false, true, false, false, false])
    }

    @Test func boundPropertiesKeepTheirValuesAndDefaults() throws {
        let layer = try Self.layer()
        let index = TileLayerIndex(layer)
        let style = try Style.parse(data: styleJSON(layers: #"""
            {"id": "l", "type": "line", "source": "s", "source-layer": "l", "paint": {
              "line-width": ["match", ["get", "class"], "park", 4, "wood", ["get", "rank"], 1],
              "line-color": ["case", ["has", "flag"], "red", "blue"]}}
            """#), origin: "t")
        let styleLayer = try #require(style.layers.first)
        let width = styleLayer.property(.lineWidth)
        let bound = width.bound(to: index, zoom: 12)
        #expect(layer.features.map { bound.number(atZoom: 12, feature: $0) } == [4, 1, 4, 1, 1])
        #expect(layer.features.map { width.number(atZoom: 12, feature: $0) } == [4, 1, 4, 1, 1])
        // Another zoom or a feature of another layer is evaluated unbound.
        #expect(bound.number(atZoom: 13, feature: layer.features[0]) == 4)
        #expect(bound.number(atZoom: 12, feature: FakeFeature(.lineString, ["class": .string("wood"), "rank": .number(7)])) == 7)
        let color = styleLayer.property(.lineColor).bound(to: index, zoom: 12)
        #expect(color.color(atZoom: 12, feature: layer.features[3]) == Color(red: 255, green: 0, blue: 0))
        #expect(color.color(atZoom: 12, feature: layer.features[0]) == Color(red: 0, green: 0, blue: 255))
    }
}
