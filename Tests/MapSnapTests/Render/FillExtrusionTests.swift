import Foundation
import Testing
@testable import MapSnap

/// `fill-extrusion` layers (OSM Liberty's and OpenFreeMap Liberty's buildings, the
/// Protomaps styles' buildings) are drawn as mapsnap's camera sees them, from straight
/// above: the roofs, a flat fill — not skipped, which left those styles without buildings.
@Suite struct FillExtrusionTests {
    static let helsinki = LatLng(60.1699, 24.9450)

    func render(layer: String, dir: String) throws -> MapSnapshot {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector", "url": "mbtiles://\(TestPaths.repositoryRoot)/Data/helsinki.mbtiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    \(layer)]}
        """
        let path = dir + "/style-\(abs(layer.hashValue)).json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let o = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: Self.helsinki, zoom: 16, style: path,
                                   attribution: "", showsScaleBar: false)
        return try MapSnapshotter(options: o).render()
    }

    @Test func roofsAreTheFillOfTheSameColourAndOpacity() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let extrusion = try render(layer: """
            {"id": "b", "type": "fill-extrusion", "source": "omt", "source-layer": "building",
             "paint": {"fill-extrusion-color": "#8a4b2c", "fill-extrusion-opacity": 0.8,
                       "fill-extrusion-height": ["get", "render_height"], "fill-extrusion-base": 0}}
            """, dir: dir)
        #expect(extrusion.warnings.isEmpty, "\(extrusion.warnings)")
        let fill = try render(layer: """
            {"id": "b", "type": "fill", "source": "omt", "source-layer": "building",
             "paint": {"fill-color": "#8a4b2c", "fill-opacity": 0.8}}
            """, dir: dir)
        let same = extrusion.image.pixels == fill.image.pixels
        #expect(same)
        // And there are roofs: a good share of central Helsinki is building.
        var roofs = 0
        for y in 0..<200 { for x in 0..<300 where extrusion.image.color(atX: x, y: y) != .white { roofs += 1 } }
        #expect(roofs > 300 * 200 / 5)
    }

    /// A Google styling rule's `geometry.fill` colour reaches an extrusion like a fill.
    @Test func stylingRulesRecolourRoofs() throws {
        let style = Array("""
        {"version": 8, "sources": {"omt": {"type": "vector", "url": "x.mbtiles"}},
         "layers": [{"id": "b", "type": "fill-extrusion", "source": "omt", "source-layer": "building",
                     "paint": {"fill-extrusion-color": "#8a4b2c"}}]}
        """.utf8)
        let rules = StyleCustomization(rules: [MapStyleRule(feature: "landscape.man_made", element: "geometry.fill",
                                                            stylers: [.color(Color(rgb: 0x0000FF))])])
        let parsed = try Style.parse(bytes: style, origin: "inline", customization: rules)
        #expect(parsed.layers.first?.property(.fillExtrusionColor).color(atZoom: 16) == Color(rgb: 0x0000FF))
    }
}
