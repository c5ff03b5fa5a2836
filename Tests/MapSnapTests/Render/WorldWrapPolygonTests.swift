import Foundation
import Testing
@testable import MapSnap

/// Polygons from real files that cross the antimeridian, go round a pole or use longitudes
/// past ±180°, checked by reading pixels back: inside must be filled, outside must not,
/// and a split polygon's cut must not be stroked.
@Suite struct WorldWrapPolygonTests {
    static let fill = Color(rgb: 0xC02020)
    static let stroke = Color(rgb: 0x20A040)

    /// The polygons of a fixture, opaque so that a filled pixel is exactly `fill`.
    func polygons(_ fixture: String) throws -> [Overlay] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("corpus/" + fixture)))
        return try GeoJSON(data: data, source: fixture).overlays.map { overlay in
            guard case .polygon(var p) = overlay else { return overlay }
            p.fillColor = Self.fill
            p.strokeColor = Self.stroke
            p.strokeWidth = 2
            return .polygon(p)
        }
    }

    func render(_ fixture: String, center: LatLng? = nil, zoom: Double? = nil,
                width: Int = 600, height: Int = 400) throws -> MapSnapshot {
        let o = MapSnapshotOptions(width: width, height: height, center: center, zoom: zoom, overlays: try polygons(fixture),
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        return try MapSnapshotter(options: o).render()
    }

    func color(_ snap: MapSnapshot, _ lat: Double, _ lon: Double) -> Color? {
        let p = snap.point(for: LatLng(lat, lon))
        let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
        guard x >= 0, y >= 0, x < snap.image.width, y < snap.image.height else { return nil }
        return snap.image.color(atX: x, y: y)
    }

    func expectFilled(_ snap: MapSnapshot, _ points: [(Double, Double)], _ filled: Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        for (lat, lon) in points {
            let c = color(snap, lat, lon)
            #expect(c != nil, "\(lat),\(lon) is outside the image", sourceLocation: sourceLocation)
            #expect((c == Self.fill) == filled, "\(lat),\(lon): \(String(describing: c))", sourceLocation: sourceLocation)
        }
    }

    @Test func splitLatitudeBandCoversItsLatitudesAllRoundTheWorld() throws {
        // Seen across the antimeridian, where the band's two world copies meet.
        let snap = try render("antimeridian-fixed-latitude-band.geojson", center: LatLng(45, 180), zoom: 1)
        expectFilled(snap, [(45, 180), (45, -179.5), (45, 179.5), (45, 120), (45, -120), (42, -60), (48, 60)], true)
        expectFilled(snap, [(30, 180), (60, 180), (30, -90), (55, 90)], false)
    }

    @Test func fittingALatitudeBandShowsTheWholeBand() throws {
        let snap = try render("antimeridian-fixed-latitude-band.geojson")
        #expect(snap.camera.zoom <= 1)
        expectFilled(snap, [(45, 0), (45, 170), (45, -170)], true)
    }

    @Test(arguments: ["antimeridian-north-pole.geojson", "antimeridian-fixed-north-pole.geojson"])
    func capNorthOfFortyDegreesIsFilled(fixture: String) throws {
        let snap = try render(fixture, center: LatLng(50, 180), zoom: 1)
        expectFilled(snap, [(45, 180), (60, 0), (70, 170), (70, -100), (80, 45)], true)
        expectFilled(snap, [(35, 180), (20, 0), (0, -100)], false)
    }

    @Test func capSouthOfEightyDegreesIsFilled() throws {
        let snap = try render("antimeridian-south-pole.geojson", center: LatLng(-75, 0), zoom: 2)
        expectFilled(snap, [(-82, 0), (-84, 60), (-81, -60), (-83, 20)], true)
        expectFilled(snap, [(-78, 0), (-70, 30), (-60, -60)], false)
    }

    @Test func antarcticaFillsTheContinentNotTheOcean() throws {
        // Natural Earth's ring runs east round the pole with no vertex on it.
        let snap = try render("worldgeo-ATA.geojson", center: LatLng(-75, 0), zoom: 2, width: 800)
        expectFilled(snap, [(-80, 0), (-82, 60), (-84, -60), (-80, 120), (-83, -120)], true)
        expectFilled(snap, [(-55, 0), (-60, 60), (-60, -60), (-50, 100)], false)
        // Across the antimeridian too (the coast crosses it at 84.7°S, south of the Ross Ice
        // Shelf), and in every world copy of a zoom-0 view.
        let wide = try render("worldgeo-ATA.geojson", center: LatLng(-60, 180), zoom: 0, width: 800, height: 300)
        expectFilled(wide, [(-84.9, 179.5), (-84.9, -179.5), (-82, 0), (-80, 150)], true)
        expectFilled(wide, [(-83, 179), (-70, 179), (-80, -150)], false)
        #expect(wide.image.color(atX: 5, y: Int(wide.point(for: LatLng(-84, 0)).y)) == Self.fill)
        #expect(wide.image.color(atX: 795, y: Int(wide.point(for: LatLng(-84, 0)).y)) == Self.fill)
    }

    @Test func splitFijiHasNoSeamAlongTheAntimeridian() throws {
        let snap = try render("worldgeo-FJI.geojson", center: LatLng(-16.3, 180), zoom: 9)
        // The cut runs along 180° from 16.07°S to 16.56°S: filled, not stroked.
        expectFilled(snap, [(-16.2, 180), (-16.3, 180), (-16.45, 180), (-16.3, 179.99), (-16.3, -179.99)], true)
        // The coast is still outlined.
        let p = snap.point(for: LatLng(-16.3, 180))
        var strokeRow: [Int] = []
        for x in 0..<snap.image.width where snap.image.color(atX: x, y: Int(p.y)) == Self.stroke { strokeRow.append(x) }
        #expect(!strokeRow.isEmpty)
        #expect(!strokeRow.contains { abs(Double($0) - p.x) < 3 })
    }

    @Test(arguments: ["antimeridian-over-180.geojson", "antimeridian-cw-split.geojson"])
    func boxAcrossTheAntimeridianIsDrawnTheShortWay(fixture: String) throws {
        // 170°…190° written with a continuous longitude, and the same box unsplit (170…−170).
        let snap = try render(fixture, center: LatLng(45, 180), zoom: 3)
        expectFilled(snap, [(45, 175), (45, 180), (45, -175), (45, 185 - 360)], true)
        expectFilled(snap, [(45, 165), (45, -165), (35, 180), (55, 180)], false)
        // Fitting frames the box, not the world.
        let fitted = try render(fixture)
        #expect(fitted.camera.zoom >= 3)
        expectFilled(fitted, [(45, 180)], true)
    }
}
