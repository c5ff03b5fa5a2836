import Foundation
import Testing
@testable import MapSnap

/// Protomaps-schema tiles (`Fixtures/helsinki-protomaps.pmtiles`, the v4 schema, built from
/// the same OpenStreetMap extract as the bundled OpenMapTiles tiles) with the bundled
/// styles, which pick their Protomaps variant by the source's layers; and the corpus's
/// hand-written Protomaps styles over the schema they were written for (version 2).
@Suite struct ProtomapsSchemaTests {
    static let v4 = TestPaths.fixture("helsinki-protomaps.pmtiles")
    static let v2 = TestPaths.fixture("helsinki-protomaps-v2.pmtiles")
    static let openMapTiles = TestPaths.repositoryRoot + "/Data/helsinki.mbtiles"

    /// Points of the z15 view below (Kaisaniemenlahti, Kaisaniemi park, Siltasaari), each
    /// deep inside its feature in every tile set: the bay, Siltasaarenkatu (secondary), a
    /// street east of the park (minor).
    static let water = LatLng(60.17806, 24.9423)
    static let secondary = LatLng(60.17825, 24.95179)
    static let minor = LatLng(60.17309, 24.94844)

    func view(style: String, source: String, rules: [MapStyleRule] = []) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 400, height: 400, scale: 1, center: LatLng(60.1760, 24.9470), zoom: 15,
                                   style: style, source: source)
        o.mapStyles = rules
        return o
    }

    func color(_ snap: MapSnapshot, at point: LatLng) -> Color {
        let p = snap.point(for: point)
        return snap.image.color(atX: Int(p.x), y: Int(p.y))
    }

    /// Channels within `tolerance` levels: hybrid's translucent water shows what is under
    /// it, which the two schemas classify a little differently (park or grass).
    func close(_ a: Color, _ b: Color, tolerance: Int = 3) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance && a.alpha == b.alpha
    }

    func sameFraction(_ a: MapImage, _ b: MapImage) -> Double {
        var same = 0
        for y in 0..<a.height { for x in 0..<a.width where a.color(atX: x, y: y) == b.color(atX: x, y: y) { same += 1 } }
        return Double(same) / Double(a.width * a.height)
    }

    @Test(arguments: ["normal", "terrain", "hybrid", "satellite"])
    func bundledStylesPickTheVariantOfTheSourcesSchema(style: String) throws {
        let renderer = MapRenderer()
        let pm = try renderer.preparedStyle(for: MapSnapshotOptions(style: style, source: Self.v4))
        #expect(pm.style.layers.contains { $0.sourceLayer == "roads" || $0.sourceLayer == "landuse" })
        #expect(!pm.style.layers.contains { $0.sourceLayer == "transportation" })
        #expect(pm.warnings.isEmpty, "\(pm.warnings)")
        let omt = try renderer.preparedStyle(for: MapSnapshotOptions(style: style, source: Self.openMapTiles))
        #expect(!omt.style.layers.contains { $0.sourceLayer == "roads" })
        let embedded = try renderer.preparedStyle(for: MapSnapshotOptions(style: style))
        #expect(!embedded.style.layers.contains { $0.sourceLayer == "roads" })
    }

    /// The same style draws the same map from either schema: water, roads and land use in
    /// the same colours at the same places, most pixels identical.
    @Test(arguments: ["normal", "terrain", "hybrid", "satellite"])
    func protomapsTilesLookLikeOpenMapTiles(style: String) throws {
        let pm = try MapSnapshotter(options: view(style: style, source: Self.v4)).render()
        #expect(pm.warnings.isEmpty, "\(pm.warnings)")
        let omt = try MapSnapshotter(options: view(style: style, source: Self.openMapTiles)).render()
        for point in [Self.water, Self.secondary, Self.minor] {
            #expect(close(color(pm, at: point), color(omt, at: point)), "\(point): \(color(pm, at: point)) \(color(omt, at: point))")
        }
        #expect(sameFraction(pm.image, omt.image) > 0.5)
        #expect(pm.attribution == "© OpenStreetMap contributors")
    }

    @Test func normalDrawsWaterRoadsAndLabels() throws {
        let pm = try MapSnapshotter(options: view(style: "normal", source: Self.v4)).render()
        #expect(color(pm, at: Self.water) == Color(rgb: 0xAAD3DF))
        #expect(color(pm, at: Self.secondary) == Color(rgb: 0xF7FABF))
        #expect(color(pm, at: Self.minor) == Color(rgb: 0xFFFFFF))
        // Labels: hiding them (a Google styling rule) changes a good many pixels.
        let unlabelled = try MapSnapshotter(options: view(style: "normal", source: Self.v4, rules: [
            MapStyleRule(element: "labels", stylers: [.visibility(false)]),
        ])).render()
        #expect(sameFraction(pm.image, unlabelled.image) < 0.985)
        // And a rule recolours Protomaps water like OpenMapTiles water.
        let red = try MapSnapshotter(options: view(style: "normal", source: Self.v4, rules: [
            MapStyleRule(feature: "water", element: "geometry.fill", stylers: [.color(Color(rgb: 0xFF0000))]),
        ])).render()
        #expect(color(red, at: Self.water) == Color(rgb: 0xFF0000))
    }

    @Test(arguments: ["normal", "terrain", "hybrid"])
    func protomapsGolden(style: String) throws {
        let snap = try MapSnapshotter(options: BaseMapTests().options(style: style, source: Self.v4)).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        Golden.expect(snap.image, named: "helsinki-protomaps-\(style)-z16", in: "BaseMap")
    }

    /// Tiles of an older Protomaps schema share v4's layer names but not its fields: the
    /// variant is used and a warning says what will be missing.
    @Test func olderProtomapsTilesWarn() throws {
        let snap = try MapSnapshotter(options: view(style: "normal", source: Self.v2)).render()
        #expect(snap.warnings.contains { $0.contains("before version 4") && $0.contains("helsinki-protomaps-v2.pmtiles") },
                "\(snap.warnings)")
        // Water needs no fields and is drawn.
        #expect(color(snap, at: Self.water) == Color(rgb: 0xAAD3DF))
    }

    /// The last hand-written Protomaps styles (2020, 2021) over the version-2 tiles they were
    /// written for: their own palette, roads and labels, at most three warning lines.
    @Test(arguments: [("protomaps-base-2021", 0xE7F1EE), ("protomaps-light-2020", 0xE7F1EE)])
    func corpusProtomapsStylesLookLikeThemselves(name: String, land: Int) throws {
        let style = TestPaths.fixture("Style/\(name)/style.json")
        let snap = try MapSnapshotter(options: view(style: style, source: Self.v2)).render()
        #expect(snap.warnings.count <= 3, "\(snap.warnings)")
        #expect(color(snap, at: Self.water) == Color(rgb: 0xA4CAE1))
        #expect(color(snap, at: Self.secondary) == Color(rgb: 0xFFFFFF))
        #expect(color(snap, at: Self.minor) == Color(rgb: 0xFFFFFF))
        var landPixels = 0
        for y in 0..<400 { for x in 0..<400 where snap.image.color(atX: x, y: y) == Color(rgb: UInt32(land)) { landPixels += 1 } }
        #expect(landPixels > 400 * 400 / 10)
        let unlabelled = try MapSnapshotter(options: view(style: style, source: Self.v2, rules: [
            MapStyleRule(element: "labels", stylers: [.visibility(false)]),
        ])).render()
        #expect(sameFraction(snap.image, unlabelled.image) < 0.99)
        var golden = BaseMapTests().options(style: style, source: Self.v2)
        golden.overlays = []
        let g = try MapSnapshotter(options: golden).render()
        Golden.expect(g.image, named: "helsinki-\(name)-z16", in: "BaseMap")
    }
}
