import Foundation
import Testing
@testable import MapSnap

/// Where things land on the image, checked against independent Web Mercator math and by
/// reading pixels back.
@Suite struct PlacementTests {
    static let markerColor = Color(rgb: 0xD0104C)

    /// Centroid of the pixels of one colour.
    func centroid(of color: Color, in c: MapImage) -> PixelPoint? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<c.height {
            for x in 0..<c.width where c.color(atX: x, y: y) == color {
                sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1
            }
        }
        return n > 0 ? PixelPoint(x: sx / n, y: sy / n) : nil
    }

    /// Pixel of a coordinate computed here from first principles (the tan/sec form) — not
    /// through the library's projection.
    func expectedPixel(_ c: LatLng, center: LatLng, zoom: Double, size: (Int, Int), scale: Double) -> PixelPoint {
        func merc(_ l: LatLng) -> (Double, Double) {
            let phi = l.latitude * .pi / 180
            return ((l.longitude + 180) / 360, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2)
        }
        let (x, y) = merc(c), (cx, cy) = merc(center)
        let world = 256 * scale * pow(2, zoom)
        return PixelPoint(x: (x - cx) * world + Double(size.0) * scale / 2, y: (y - cy) * world + Double(size.1) * scale / 2)
    }

    @Test(arguments: [(1.0, 14.0), (1.0, 15.37), (2.0, 12.5), (2.0, 16.81), (3.0, 9.2)])
    func dotMarkerLandsOnItsCoordinate(scale: Double, zoom: Double) throws {
        let center = LatLng(60.1699, 24.9450)
        let target = LatLng(60.1703, 24.9438)
        let o = MapSnapshotOptions(width: 300, height: 240, scale: scale, center: center, zoom: zoom,
                                   overlays: [.marker(MarkerOverlay(coordinate: target, style: .dot(diameter: 8), color: Self.markerColor))],
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        let expected = expectedPixel(target, center: center, zoom: zoom, size: (300, 240), scale: scale)
        let found = try #require(centroid(of: Self.markerColor, in: snap.image))
        let tolerance = scale <= 1 ? 1.0 : 2.0
        #expect(abs(found.x - expected.x) <= tolerance && abs(found.y - expected.y) <= tolerance,
                "marker at \(found), expected \(expected)")
        let api = snap.point(for: target)
        #expect(abs(api.x - expected.x) < 1e-6 && abs(api.y - expected.y) < 1e-6)
    }

    @Test func pathPassesThroughItsProjectedVertices() throws {
        let center = LatLng(48.8566, 2.3522)
        let route = [LatLng(48.8606, 2.3376), LatLng(48.8530, 2.3499), LatLng(48.8584, 2.3700), LatLng(48.8620, 2.3540)]
        let color = Color(rgb: 0x1060E0)
        let o = MapSnapshotOptions(width: 400, height: 300, scale: 1, center: center, zoom: 13.8,
                                   overlays: [.path(PathOverlay(coordinates: route, color: color, width: 6))],
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        for v in route {
            let p = expectedPixel(v, center: center, zoom: 13.8, size: (400, 300), scale: 1)
            #expect(snap.image.color(atX: Int(p.x), y: Int(p.y)) == color, "vertex \(v) at \(p)")
        }
    }

    @Test func fitShowsEveryOverlayInsideThePadding() throws {
        let markers = [LatLng(51.5074, -0.1278), LatLng(48.8566, 2.3522), LatLng(52.5200, 13.4050), LatLng(41.9028, 12.4964)]
        let o = MapSnapshotOptions(width: 500, height: 400, scale: 2, padding: 20,
                                   overlays: markers.map { .marker(MarkerOverlay(coordinate: $0, style: .pin(.small))) },
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        let shape = PinShape(size: .small)
        for m in markers {
            let tip = snap.point(for: m)
            // The whole pin, not only its tip, is inside the padded frame.
            #expect(tip.x - shape.headRadius * 2 >= 40 - 1 && tip.x + shape.headRadius * 2 <= 1000 - 40 + 1)
            #expect(tip.y - shape.height * 2 >= 40 - 1 && tip.y <= 800 - 40 + 1)
        }
        #expect(snap.camera.zoom == snap.camera.zoom.rounded())
    }

    @Test func antimeridianRouteShowsBothEnds() throws {
        let fiji = LatLng(-18.1416, 178.4419), samoa = LatLng(-13.8333, -171.7500)
        let color = Color(rgb: 0x1060E0)
        let o = MapSnapshotOptions(width: 500, height: 300, scale: 1, padding: 30,
                                   overlays: [.path(PathOverlay(coordinates: [fiji, samoa], color: color, width: 4, geodesic: true)),
                                              .marker(MarkerOverlay(coordinate: fiji, style: .dot(diameter: 8), color: Self.markerColor)),
                                              .marker(MarkerOverlay(coordinate: samoa, style: .dot(diameter: 8), color: Self.markerColor))],
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.camera.zoom >= 4)
        for p in [fiji, samoa] {
            let q = snap.point(for: p)
            #expect(q.x > 20 && q.x < 480 && q.y > 20 && q.y < 280)
            #expect(snap.image.color(atX: Int(q.x), y: Int(q.y)) == Self.markerColor)
        }
        // The line between them is drawn continuously across 180°: sample its midpoint.
        let a = snap.point(for: fiji), b = snap.point(for: samoa)
        let mid = snap.image.color(atX: Int((a.x + b.x) / 2), y: Int((a.y + b.y) / 2))
        #expect(mid != Color(rgb: 0xF4F1EA))
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        var o = MapSnapshotOptions(width: 400, height: 300, scale: 2, style: "normal")
        o.overlays = [.path(PathOverlay(coordinates: [LatLng(60.1713, 24.9414), LatLng(60.1686, 24.9522)], width: 5)),
                      .marker(MarkerOverlay(coordinate: LatLng(60.1713, 24.9414), label: "A", title: "Station"))]
        let a = try MapSnapshotter(options: o).render().pngData()
        let b = try MapSnapshotter(options: o).render().pngData()
        let same = a == b  // a Bool: on failure Swift Testing would diff the whole arrays
        #expect(same)
    }
}
