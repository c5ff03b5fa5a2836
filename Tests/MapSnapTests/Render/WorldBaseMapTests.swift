import Foundation
import Testing
@testable import MapSnap

/// The embedded world base map in every style, at world and regional zooms, offline.
@Suite struct WorldBaseMapTests {
    static let views: [(String, LatLng, Double)] = [
        ("world", LatLng(20, 10), 0.6),
        ("europe", LatLng(50, 12), 3.3),
    ]

    @Test(arguments: ["normal", "terrain", "hybrid"])
    func worldAndRegionalGoldens(style: String) throws {
        for (name, center, zoom) in Self.views {
            let o = MapSnapshotOptions(width: 360, height: 240, scale: 1, center: center, zoom: zoom, style: style)
            let snap = try MapSnapshotter(options: o).render()
            #expect(snap.warnings.isEmpty, "\(snap.warnings)")
            #expect(snap.attribution.contains("GSHHG") && snap.attribution.contains("GeoNames"))
            if style == "terrain" { #expect(snap.attribution.contains("Relief")) }
            if style == "hybrid" { #expect(snap.attribution.contains("Blue Marble")) }
            Golden.expect(snap.image, named: "\(name)-\(style)", in: "World")
        }
    }

    /// Mid zooms come from the sparse detail tiles (Data/world-detail.mbtiles): the Seine in
    /// its bends around Paris, Tokyo Bay's shore.
    static let midZoomViews: [(String, LatLng, Double)] = [
        ("paris-z10", LatLng(48.8566, 2.3522), 10),
        ("tokyo-bay-z11", LatLng(35.60, 139.82), 11),
    ]

    @Test(arguments: ["normal", "terrain", "hybrid"])
    func midZoomGoldens(style: String) throws {
        for (name, center, zoom) in Self.midZoomViews {
            let o = MapSnapshotOptions(width: 360, height: 240, scale: 1, center: center, zoom: zoom, style: style)
            let snap = try MapSnapshotter(options: o).render()
            #expect(snap.warnings.isEmpty, "\(snap.warnings)")
            #expect(snap.attribution.contains("OurAirports"), "\(snap.attribution)")
            Golden.expect(snap.image, named: "\(name)-\(style)", in: "World")
        }
    }

    /// Past z8 the open ocean has no tiles of its own: it is drawn from the z8 tile, so it
    /// is water, not the land-coloured background.
    @Test(arguments: [9.0, 10.0, 12.0])
    func openOceanIsWaterAtMidZooms(zoom: Double) throws {
        var o = MapSnapshotOptions(width: 64, height: 64, scale: 1, center: LatLng(30, -40), zoom: zoom, style: "normal")
        o.showsScaleBar = false
        o.attribution = ""
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        let water = Color(rgb: 0xAAD3DF)
        #expect(snap.image.color(atX: 32, y: 32) == water)
        #expect(snap.image.color(atX: 4, y: 4) == water && snap.image.color(atX: 59, y: 4) == water)
    }

    @Test func geodesicFlightParisNewYork() throws {
        let paris = LatLng(48.8566, 2.3522), newYork = LatLng(40.7128, -74.0060)
        var o = MapSnapshotOptions(width: 480, height: 280, scale: 1, style: "normal")
        o.overlays = [.path(PathOverlay(coordinates: [paris, newYork], color: Color(rgb: 0xD93025), width: 3, geodesic: true)),
                      .marker(MarkerOverlay(coordinate: paris, style: .pin(.small))),
                      .marker(MarkerOverlay(coordinate: newYork, style: .pin(.small)))]
        let snap = try MapSnapshotter(options: o).render()
        // The great circle bulges north of both ends: sample the path's colour at the
        // pixel column halfway, above both endpoints.
        let a = snap.point(for: paris), b = snap.point(for: newYork)
        let midX = Int((a.x + b.x) / 2)
        var topmost = Int.max
        for y in 0..<snap.image.height where snap.image.color(atX: midX, y: y) == Color(rgb: 0xD93025) {
            topmost = min(topmost, y)
        }
        #expect(topmost < Int(min(a.y, b.y)) - 10)
        Golden.expect(snap.image, named: "flight-paris-new-york", in: "World")
    }
}
