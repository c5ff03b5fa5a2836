import Foundation
import Testing
@testable import MapSnap

/// A long route's casing and line fills are made on another thread while the base map is
/// drawn (`PathOverlay.preparedStrokes`); drawing them must give exactly the pixels drawing
/// the route in place gives.
@Suite struct PreparedRouteTests {
    private let camera = Camera(center: LatLng(60.17, 24.94), zoom: 15, width: 300, height: 200, scale: 2)

    /// A wiggly line of `n` points across the view; `overshoot` runs it past the image's edges.
    private func route(points n: Int, overshoot: Double = 0) -> [LatLng] {
        (0..<n).map { i in
            let t = Double(i) / Double(n - 1)
            return LatLng(60.17 + 0.0012 * sin(t * 9) + 0.00003 * sin(t * 700),
                          24.936 - overshoot + (0.008 + 2 * overshoot) * t)
        }
    }

    /// The canvas after drawing `path` in place and after drawing its prepared fills.
    private func drawBothWays(_ path: PathOverlay) throws -> (inPlace: [UInt8], prepared: [UInt8], blank: [UInt8]) {
        let projected = ProjectedOverlay(.path(path))
        func canvas() -> Canvas {
            let c = Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: Color(rgb: 0xF2EFE9))
            c.maximumThreads = 2
            return c
        }
        let a = canvas(), b = canvas()
        path.draw(projected, in: OverlayContext(camera: camera, canvas: a, text: MapRenderer.shared.text, icons: IconStore()))
        let fills = try #require(path.preparedStrokes(projected, camera: camera, width: b.width, height: b.height, threads: 2))
        path.draw(projected, in: OverlayContext(camera: camera, canvas: b, text: MapRenderer.shared.text, icons: IconStore()), prepared: fills)
        return (a.pixels, b.pixels, canvas().pixels)
    }

    @Test(arguments: [
        PathOverlay(coordinates: [], width: 4),
        PathOverlay(coordinates: [LatLng(60.17, 24.94)], width: 4),
        PathOverlay(coordinates: [LatLng(60.1695, 24.935), LatLng(60.1705, 24.945)], width: 6, cap: .round),
        PathOverlay(coordinates: [LatLng(60.1695, 24.935), LatLng(60.1705, 24.945)], color: .clear, width: 6,
                    casingColor: Color(rgb: 0xFFFFFF), casingWidth: 2),
        PathOverlay(coordinates: [LatLng(60.1695, 24.935), LatLng(60.1705, 24.945)], color: Color(rgba: 0x1A73E8C0),
                    width: 7, casingColor: Color(rgba: 0x00000000), casingWidth: 2),
    ] + [LineCap.butt, .round, .square].flatMap { cap in
        [LineJoin.miter, .round, .bevel].map { join in
            PathOverlay(coordinates: [], color: Color(rgba: 0x1A73E8E0), width: 5, casingColor: Color(rgb: 0xFFFFFF),
                        casingWidth: 1.5, cap: cap, join: join)
        }
    })
    func preparedFillsDrawTheSamePixels(_ template: PathOverlay) throws {
        var path = template
        if path.coordinates.isEmpty && template.casingColor != nil { path.coordinates = route(points: 3_000) }
        let (a, b, blank) = try drawBothWays(path)
        // A plain Bool: `#expect(a == b)` on pixel arrays makes Swift Testing print and diff
        // them on failure (minutes for a 600×400 canvas).
        let same = a == b
        #expect(same)
        if path.coordinates.count > 1 && path.color.alpha > 0 {
            let drew = a != blank
            #expect(drew, "the route drew nothing")
        }
    }

    /// A line that leaves the image (clipped, not thinned) and a geodesic one.
    @Test func clippedAndGeodesicRoutesDrawTheSamePixels() throws {
        var leaving = PathOverlay(coordinates: route(points: 2_500, overshoot: 0.01), color: Color(rgb: 0xD93025), width: 4)
        leaving.join = .miter
        let clipped = try drawBothWays(leaving)
        let sameClipped = clipped.inPlace == clipped.prepared
        #expect(sameClipped)
        let geodesic = PathOverlay(coordinates: [LatLng(60.165, 24.93), LatLng(60.175, 24.95)], width: 3, geodesic: true)
        let (a, b, _) = try drawBothWays(geodesic)
        let sameGeodesic = a == b
        #expect(sameGeodesic)
    }

    /// Dashed and filled paths are drawn in place: a dash draws from the canvas's budget in
    /// drawing order, and a filled path's fill comes first.
    @Test func dashedAndFilledPathsAreNotPrepared() {
        let line = route(points: 2_000)
        let dashed = PathOverlay(coordinates: line, width: 3, dash: [6, 4])
        let filled = PathOverlay(coordinates: line, width: 3, fillColor: Color(rgba: 0xFF000040))
        for p in [dashed, filled] {
            #expect(p.preparedStrokes(ProjectedOverlay(.path(p)), camera: camera, width: 600, height: 400, threads: 2) == nil)
        }
        #expect(!OverlayPainter.routesWorthPreparing([ProjectedOverlay(.path(dashed)), ProjectedOverlay(.path(filled))]))
        #expect(OverlayPainter.routesWorthPreparing([ProjectedOverlay(.path(PathOverlay(coordinates: line)))]))
        #expect(!OverlayPainter.routesWorthPreparing([ProjectedOverlay(.path(PathOverlay(coordinates: Array(line.prefix(999)))))]))
    }
}
