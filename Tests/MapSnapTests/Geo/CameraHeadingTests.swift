import Foundation
import Testing
@testable import MapSnap
import MapSnapTesting

/// A turned camera's projection against formulas written independently of mapsnap's code:
/// with bearing b, a point d pixels east of the centre (on the north-up map) appears at
/// (d·cos b, −d·sin b) from the centre, and a point d pixels north at (−d·sin b, −d·cos b).
@Suite struct CameraHeadingTests {
    static let center = LatLng(60.1699, 24.9450)

    /// The coordinate `east` and `north` pixels from the centre on the north-up map of
    /// `camera` (zoom, scale): longitudes are linear in pixels, latitudes through the
    /// Mercator y — written out here rather than taken from `Camera`.
    func offset(_ camera: Camera, east: Double, north: Double) -> LatLng {
        let worldSize = 256 * camera.scale * pow(2, camera.zoom)
        let lon = camera.center.longitude + east / worldSize * 360
        let phi = camera.center.latitude * .pi / 180
        let y0 = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2
        let y = y0 - north / worldSize
        let lat = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
        return LatLng(lat, lon)
    }

    @Test(arguments: [0.0, 30.0, 45.0, 90.0, 135.0, 180.0, -30.0, 270.0, -359.0])
    func eastAndNorthPointsTurnByTheBearing(bearing: Double) {
        let cam = Camera(center: Self.center, zoom: 15.3, width: 640, height: 480, scale: 2, heading: bearing)
        let c = PixelPoint(x: 640, y: 480)
        let b = bearing * .pi / 180
        for d in [1.0, 57.5, 300.0] {
            let east = cam.point(for: offset(cam, east: d, north: 0))
            #expect(abs(east.x - (c.x + d * cos(b))) < 1e-6 && abs(east.y - (c.y - d * sin(b))) < 1e-6,
                    "east \(d) px at bearing \(bearing): \(east)")
            let north = cam.point(for: offset(cam, east: 0, north: d))
            #expect(abs(north.x - (c.x - d * sin(b))) < 1e-6 && abs(north.y - (c.y - d * cos(b))) < 1e-6,
                    "north \(d) px at bearing \(bearing): \(north)")
        }
    }

    @Test func coordinateForPointInvertsPointForCoordinate() {
        var rng = SeededGenerator(seed: 31)
        print("CameraHeadingTests seed 31")
        for _ in 0..<200 {
            let heading = Double.random(in: -360...360, using: &rng)
            let cam = Camera(center: LatLng(Double.random(in: -70...70, using: &rng), Double.random(in: -179...179, using: &rng)),
                             zoom: Double.random(in: 2...18, using: &rng), width: 500, height: 300, scale: 1, heading: heading)
            let p = PixelPoint(x: Double.random(in: 0...500, using: &rng), y: Double.random(in: 0...300, using: &rng))
            let back = cam.point(for: cam.coordinate(for: p))
            #expect(abs(back.x - p.x) < 1e-6 && abs(back.y - p.y) < 1e-6, "heading \(heading): \(p) → \(back)")
        }
    }

    @Test func wholeTurnsAreNorthUp() {
        let north = Camera(center: Self.center, zoom: 14, width: 300, height: 200)
        for h in [0.0, 360.0, -360.0] {
            var cam = north
            cam.heading = h
            #expect(!cam.isRotated)
            #expect(cam.mapFrame == nil)
            let q = LatLng(60.171, 24.95)
            #expect(cam.point(for: q) == north.point(for: q))
        }
    }

    @Test(arguments: [30.0, 90.0, -45.0, 180.0])
    func mapFrameHoldsTheTurnedImageAndAgreesWithTheCamera(heading: Double) throws {
        let cam = Camera(center: Self.center, zoom: 15.7, width: 401, height: 233, scale: 1.5, heading: heading)
        let (frame, toImage) = try #require(cam.mapFrame)
        #expect(!frame.isRotated && frame.zoom == cam.zoom && frame.center == cam.center && frame.scale == cam.scale)
        let back = try #require(toImage.inverted)
        // Every image corner lies inside the frame, at least a pixel from its edge.
        for corner in [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(cam.pixelWidth), y: 0),
                       PixelPoint(x: 0, y: Double(cam.pixelHeight)), PixelPoint(x: Double(cam.pixelWidth), y: Double(cam.pixelHeight))] {
            let f = back.apply(corner)
            #expect(f.x >= 1 && f.y >= 1 && f.x <= Double(frame.pixelWidth) - 1 && f.y <= Double(frame.pixelHeight) - 1)
        }
        // A coordinate drawn in the frame and carried across lands where the camera puts it.
        for q in [LatLng(60.171, 24.95), LatLng(60.168, 24.939), Self.center] {
            let viaFrame = toImage.apply(frame.point(for: q)), direct = cam.point(for: q)
            #expect(abs(viaFrame.x - direct.x) < 1e-6 && abs(viaFrame.y - direct.y) < 1e-6)
        }
    }

    @Test func worldToPixelMatchesPointForCoordinate() {
        let cam = Camera(center: Self.center, zoom: 13, width: 300, height: 300, heading: 72)
        let f = cam.worldToPixel
        let q = LatLng(60.2, 24.99)
        let a = f(WebMercator.project(q)), b = cam.point(for: q)
        #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9)
    }

    // MARK: Fitting a turned camera

    func inside(_ cam: Camera, _ pts: [LatLng], padding: Double) -> Bool {
        pts.allSatisfy { p in
            let q = cam.point(for: p)
            return q.x >= padding - 1e-6 && q.x <= Double(cam.pixelWidth) - padding + 1e-6
                && q.y >= padding - 1e-6 && q.y <= Double(cam.pixelHeight) - padding + 1e-6
        }
    }

    @Test(arguments: [30.0, 45.0, 90.0, -60.0, 180.0])
    func turnedFitKeepsEveryPointInsideAtTheLargestZoom(heading: Double) {
        let pts = [LatLng(60.1641, 24.9352), LatLng(60.1791, 24.9534), LatLng(60.17, 24.94), LatLng(60.166, 24.96)]
        let cam = CameraFit.camera(fitting: [FitItem(points: CameraFit.unwrappedWorldPoints(pts))], width: 600, height: 400,
                                   scale: 1, padding: 20, heading: heading)
        #expect(cam.heading == heading)
        #expect(inside(cam, pts, padding: 20))
        var closer = cam
        closer.zoom += 1
        #expect(!inside(closer, pts, padding: 20))
    }

    @Test func aDiagonalLineFitsTighterTurnedAlongIt() {
        // South-west to north-east: at heading 45 the line runs up the image and fills its height.
        let line = [LatLng(60.10, 24.80), LatLng(60.20, 25.00)]
        let items = [FitItem(points: CameraFit.unwrappedWorldPoints(line))]
        let north = CameraFit.camera(fitting: items, width: 300, height: 600, scale: 1, padding: 10, fractional: true)
        let heading = CameraFit.trackUpHeading(items.map(\.points))
        let turned = CameraFit.camera(fitting: items, width: 300, height: 600, scale: 1, padding: 10, fractional: true,
                                      heading: heading)
        #expect(turned.zoom > north.zoom + 0.5)
        #expect(inside(turned, line, padding: 10))
        // The start at the bottom, the end at the top, on the vertical through the centre.
        let a = turned.point(for: line[0]), b = turned.point(for: line[1])
        #expect(a.y > b.y)
        #expect(abs(a.x - b.x) < 1e-6)
        #expect(abs(b.y - 10) < 1e-6 || abs(a.y - 590) < 1e-6)
    }

    @Test func trackUpHeadingPointsFromTheStartTowardsTheEnd() {
        // World y grows southward: (dx, dy) = (1, −1) is north-east.
        func line(_ dx: Double, _ dy: Double) -> [[WorldPoint]] {
            [(0...10).map { WorldPoint(x: 0.5 + Double($0) * dx * 1e-4, y: 0.3 + Double($0) * dy * 1e-4) }]
        }
        #expect(abs(CameraFit.trackUpHeading(line(0, -1)) - 0) < 1e-9)
        #expect(abs(CameraFit.trackUpHeading(line(1, -1)) - 45) < 1e-9)
        #expect(abs(CameraFit.trackUpHeading(line(1, 0)) - 90) < 1e-9)
        #expect(abs(CameraFit.trackUpHeading(line(0, 1)) - 180) < 1e-9)
        #expect(abs(CameraFit.trackUpHeading(line(-1, 0)) - 270) < 1e-9)
        #expect(CameraFit.trackUpHeading([[WorldPoint(x: 0.5, y: 0.5)]]) == 0)
        // An out-and-back walk (a loop in spirit) heads away from its start.
        let outAndBack = [[0.0, 1, 2, 3, 4, 3.1, 2.1, 1.1, 0.05].map { WorldPoint(x: 0.5 + $0 * 1e-4, y: 0.3 + ($0 == 0 ? 0 : 2e-6)) }]
        #expect(abs(CameraFit.trackUpHeading(outAndBack) - 90) < 1)
    }
}

/// `centerCoordinateDistance` against MapLibre's published constants: field of view
/// 2·atan(1/3), eye 0.5 / tan(fov/2) = 1.5 viewport heights from the centre.
@Suite struct CameraDistanceTests {
    @Test func theEyeIsOneAndAHalfImageHeightsAway() {
        // At the equator, zoom 0, a 256-point-tall image shows the whole equator's length
        // (2π · 6 378 137 m) from top to bottom.
        let cam = Camera(center: LatLng(0, 0), zoom: 0, width: 256, height: 256)
        let equator = 2 * Double.pi * 6_378_137
        #expect(abs(cam.centerCoordinateDistance - 1.5 * equator) < 1e-3)
        #expect(abs(Camera.verticalFieldOfView - 2 * atan(1.0 / 3)) < 1e-15)
        // Each zoom level halves it; latitude shrinks it by cos φ.
        let z3 = Camera(center: LatLng(60, 0), zoom: 3, width: 256, height: 256)
        #expect(abs(z3.centerCoordinateDistance - 1.5 * equator * 0.5 / 8) < 1e-3)
    }

    @Test func distanceAndZoomRoundTrip() throws {
        for (lat, zoom, height) in [(60.17, 15.3, 400), (-33.9, 4.0, 1024), (0.0, 21.5, 50)] {
            let cam = Camera(center: LatLng(lat, 24.9), zoom: zoom, width: 300, height: height)
            let back = try #require(Camera(center: cam.center, centerCoordinateDistance: cam.centerCoordinateDistance,
                                           width: 300, height: height))
            #expect(abs(back.zoom - zoom) < 1e-9)
        }
        #expect(Camera.zoom(centerCoordinateDistance: 0, latitude: 0, height: 100) == nil)
        #expect(Camera.zoom(centerCoordinateDistance: -5, latitude: 0, height: 100) == nil)
        #expect(Camera.zoom(centerCoordinateDistance: .nan, latitude: 0, height: 100) == nil)
    }
}
