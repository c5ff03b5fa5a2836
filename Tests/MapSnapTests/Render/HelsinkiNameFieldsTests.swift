import Foundation
import Testing
@testable import MapSnap

/// The bundled Helsinki tiles carry the name fields real OpenMapTiles tiles have, so
/// third-party styles that label with `{name}` or `name_en` label them.
@Suite struct HelsinkiNameFieldsTests {
    static let bundled = TestPaths.repositoryRoot + "/Data/helsinki.mbtiles"

    @Test(arguments: ["place", "poi", "transportation_name", "water_name"])
    func layersListTheNameFields(_ layer: String) throws {
        let metadata = try TileSources.open(Self.bundled).metadata
        let fields = Set(try #require(metadata.vectorLayers.first { $0.id == layer }).fields.map(\.name))
        for name in ["name", "name_en", "name_de", "name:latin", "name_int"] {
            #expect(fields.contains(name), "\(layer) lacks \(name)")
        }
    }

    @Test func helsinkiIsTheCapital() throws {
        let metadata = try TileSources.open(Self.bundled).metadata
        let fields = Set(try #require(metadata.vectorLayers.first { $0.id == "place" }).fields.map(\.name))
        #expect(fields.isSuperset(of: ["capital", "rank"]))
    }

    /// OpenFreeMap's label expression, on the bundled tiles and on the old tiles (which
    /// had only `name:latin`).
    @Test func coalesceNameENNameLabelsTheStreets() throws {
        let style = TestPaths.temporaryDirectory() + "/names.json"
        let json = ##"""
        {"version": 8, "sources": {"s": {"type": "vector", "url": "x.mbtiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "streets", "type": "symbol", "source": "s", "source-layer": "transportation_name",
                     "layout": {"text-field": ["coalesce", ["get", "name_en"], ["get", "name"]], "symbol-placement": "line"},
                     "paint": {"text-color": "#0000ff"}}]}
        """##
        try Data(json.utf8).write(to: URL(fileURLWithPath: style))
        func bluePixels(_ source: String) throws -> Int {
            let o = MapSnapshotOptions(width: 600, height: 400, center: LatLng(60.1699, 24.9450), zoom: 16, style: style,
                                       source: source, attribution: "", showsScaleBar: false)
            let c = try MapSnapshotter(options: o, renderer: MapRenderer()).render().image
            var n = 0
            for y in 0..<c.height {
                for x in 0..<c.width where c.color(atX: x, y: y).blue > 200 && c.color(atX: x, y: y).red < 60 { n += 1 }
            }
            return n
        }
        #expect(try bluePixels(TestPaths.fixture("helsinki-openmaptiles.mbtiles")) == 0)
        #expect(try bluePixels(Self.bundled) > 300)
    }
}
