import Foundation
import Testing
@testable import MapSnap

/// `fill-translate`, `line-translate` and `fill-extrusion-translate` move a layer's geometry
/// by CSS pixels, in the map's frame (`map`, the default) or the page's (`viewport`). OSM
/// Bright draws its buildings' tops 2 px up and left of their bases this way; they used to be
/// listed as supported and were ignored.
@Suite struct LayerTranslateTests {
    static let helsinki = LatLng(60.1699, 24.9450)
    static let width = 300, height = 200

    func render(_ layer: String, heading: Double = 0, dir: String) throws -> MapImage {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector", "url": "mbtiles://\(TestPaths.repositoryRoot)/Data/helsinki.mbtiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layer)]}
        """
        let path = dir + "/style-\(abs(layer.hashValue)).json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        var o = MapSnapshotOptions(width: Self.width, height: Self.height, scale: 1, center: Self.helsinki, zoom: 16,
                                   style: path, attribution: "", showsScaleBar: false)
        o.heading = heading
        o.showsNorthArrow = false
        let snapshot = try MapSnapshotter(options: o).render()
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        return snapshot.image
    }

    /// The whole-pixel shift (within ±10) that best carries `plain` onto `moved`, and how
    /// many of the compared pixels still differ there.
    func bestShift(from plain: MapImage, to moved: MapImage) -> (dx: Int, dy: Int, misses: Int, compared: Int) {
        var best = (dx: 0, dy: 0, misses: Int.max, compared: 0)
        let margin = 24
        for dy in -10...10 {
            for dx in -10...10 {
                var misses = 0, compared = 0
                for y in stride(from: margin, to: Self.height - margin, by: 2) {
                    for x in stride(from: margin, to: Self.width - margin, by: 2) {
                        compared += 1
                        if plain.color(atX: x, y: y) != moved.color(atX: x + dx, y: y + dy) { misses += 1 }
                    }
                }
                if misses < best.misses { best = (dx, dy, misses, compared) }
            }
        }
        return best
    }

    static let buildings = #""type": "fill", "source": "omt", "source-layer": "building""#
    static let roads = #""type": "line", "source": "omt", "source-layer": "transportation""#

    @Test(arguments: [
        // layer type, paint, heading, the shift on the page
        (buildings, #""fill-color": "rgb(138, 75, 44)", "fill-translate": [6, 4]"#, 0.0, 6, 4),
        (buildings, #""fill-color": "rgb(138, 75, 44)", "fill-translate": [-2, -2]"#, 0.0, -2, -2),
        (roads, #""line-color": "rgb(32, 64, 128)", "line-width": 3, "line-translate": [5, -3]"#, 0.0, 5, -3),
        // On a map turned 90° (east at the top), a map-anchored offset turns with the map:
        // 6 px east and 4 px south of the ground are 6 px up and 4 px right on the page.
        (buildings, #""fill-color": "rgb(138, 75, 44)", "fill-translate": [6, 4]"#, 90.0, 4, -6),
        (buildings, #""fill-color": "rgb(138, 75, 44)", "fill-translate": [6, 4], "fill-translate-anchor": "map""#, 90.0, 4, -6),
        // A viewport-anchored one stays on the page.
        (buildings, #""fill-color": "rgb(138, 75, 44)", "fill-translate": [6, 4], "fill-translate-anchor": "viewport""#, 90.0, 6, 4),
        (roads, #""line-color": "rgb(32, 64, 128)", "line-width": 3, "line-translate": [5, -3], "line-translate-anchor": "viewport""#, 90.0, 5, -3),
    ])
    func theLayerMovesByItsOffset(layer: String, paint: String, heading: Double, dx: Int, dy: Int) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plainPaint = paint.replacingOccurrences(of: #", "(fill|line)-translate[^"]*": (\[[^\]]*\]|"[a-z]+")"#,
                                                    with: "", options: .regularExpression)
        #expect(!plainPaint.contains("translate"), "\(plainPaint)")
        let plain = try render(#"{"id": "x", \#(layer), "paint": {\#(plainPaint)}}"#, heading: heading, dir: dir)
        let moved = try render(#"{"id": "x", \#(layer), "paint": {\#(paint)}}"#, heading: heading, dir: dir)
        #expect(plain.pixels != moved.pixels)
        let found = bestShift(from: plain, to: moved)
        #expect(found.dx == dx && found.dy == dy, "best shift \(found)")
        // Whole-pixel offsets move the drawing exactly, but where a tile's square cuts the
        // moved geometry (lines are stroked per tile piece) and for a turned map's resampling.
        #expect(found.misses * 100 <= found.compared * (heading == 0 ? 1 : 3), "\(found)")
    }

    /// A pattern moves with its layer: the striped water, moved, is the plain render moved
    /// (with the pattern left in place the stripes would be out of step with the shapes).
    @Test func aPatternMovesWithItsLayer() throws {
        let water = #"{"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-pattern": "stripes"PAINT}}"#
        let plain = try SpriteRenderTests.render(SpriteRenderTests.style(water.replacingOccurrences(of: "PAINT", with: "")),
                                                 center: SpriteRenderTests.bay, zoom: 15).image
        let moved = try SpriteRenderTests.render(SpriteRenderTests.style(water.replacingOccurrences(of: "PAINT", with: #", "fill-translate": [3, 2]"#)),
                                                 center: SpriteRenderTests.bay, zoom: 15).image
        #expect(SpriteRenderTests.count(plain, SpriteRenderTests.blue) > 2_000)
        let found = bestShift(from: plain, to: moved)
        #expect(found.dx == 3 && found.dy == 2, "best shift \(found)")
        #expect(found.misses * 100 <= found.compared, "\(found)")
    }

    /// The extrusion's own translate moves its roofs like a fill's.
    @Test func extrusionsMoveLikeFills() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fill = try render(#"{"id": "x", \#(Self.buildings), "paint": {"fill-color": "rgb(138, 75, 44)", "fill-translate": [3, 7]}}"#, dir: dir)
        let extrusion = try render(#"""
            {"id": "x", "type": "fill-extrusion", "source": "omt", "source-layer": "building",
             "paint": {"fill-extrusion-color": "rgb(138, 75, 44)", "fill-extrusion-translate": [3, 7]}}
            """#, dir: dir)
        #expect(fill.pixels == extrusion.pixels)
    }
}
