import Testing
@testable import MapSnap

@Suite struct CameraFitTests {
    func item(_ cs: [LatLng], top: Double = 0) -> FitItem {
        FitItem(points: CameraFit.unwrappedWorldPoints(cs), marginTop: top)
    }

    @Test func fitsEveryPointInsideThePaddingAtTheLargestIntegerZoom() {
        let pts = [LatLng(60.1641, 24.9352), LatLng(60.1791, 24.9534), LatLng(60.17, 24.94)]
        let cam = CameraFit.camera(fitting: [item(pts)], width: 600, height: 400, scale: 1, padding: 20)
        func inside(_ c: Camera) -> Bool {
            pts.allSatisfy { p in
                let q = c.point(for: p)
                return q.x >= 20 - 1e-6 && q.x <= 580 + 1e-6 && q.y >= 20 - 1e-6 && q.y <= 380 + 1e-6
            }
        }
        #expect(cam.zoom == cam.zoom.rounded())
        #expect(inside(cam))
        var bigger = cam
        bigger.zoom += 1
        #expect(!inside(bigger))
    }

    @Test func fractionalFitTouchesThePadding() {
        let pts = [LatLng(48.8566, 2.3522), LatLng(52.52, 13.405)]
        let cam = CameraFit.camera(fitting: [item(pts)], width: 800, height: 600, scale: 2, padding: 10, fractional: true)
        let a = cam.point(for: pts[0]), b = cam.point(for: pts[1])
        let spanX = abs(a.x - b.x), spanY = abs(a.y - b.y)
        // One of the two dimensions is exactly filled: 1600 − 2·20 px or 1200 − 2·20 px.
        #expect(abs(spanX - 1560) < 1e-6 || abs(spanY - 1160) < 1e-6)
        #expect(cam.zoom != cam.zoom.rounded())
    }

    @Test func pinMarginsKeepThePinHeadInside() {
        let p = [LatLng(0, 0), LatLng(1, 1)]
        let cam = CameraFit.camera(fitting: [item(p, top: 40)], width: 400, height: 400, scale: 1, padding: 0, fractional: true)
        let top = cam.point(for: LatLng(1, 1)).y
        #expect(top >= 40 - 1e-6)
    }

    @Test func fijiToSamoaIsShortAcrossTheAntimeridian() {
        let route = [LatLng(-18.1416, 178.4419), LatLng(-13.8333, -171.7500)]
        let cam = CameraFit.camera(fitting: [item(route)], width: 600, height: 400, scale: 1, padding: 20)
        #expect(cam.zoom >= 4)  // about 10° of longitude, not 350°
        let a = cam.point(for: route[0]), b = cam.point(for: route[1])
        for q in [a, b] {
            #expect(q.x >= 20 - 1e-6 && q.x <= 580 + 1e-6)
        }
        #expect(b.x > a.x)  // Samoa east of Fiji on the image
    }

    @Test func separateMarkersAcrossTheAntimeridianAreFittedTogether() {
        let a = item([LatLng(-17, 179)]), b = item([LatLng(-14, -172)])
        let cam = CameraFit.camera(fitting: [a, b], width: 400, height: 300, scale: 1, padding: 10)
        #expect(cam.zoom >= 4)
        #expect(abs(abs(cam.center.longitude) - 180) < 10)
    }

    @Test func singlePointUsesTheMaximumZoom() {
        let cam = CameraFit.camera(fitting: [item([LatLng(60, 25)])], width: 300, height: 300, scale: 1,
                                   padding: 10, maximumZoom: 16)
        #expect(cam.zoom == 16)
        #expect(abs(cam.center.latitude - 60) < 1e-9)
    }

    @Test func fixedCenterSolvesZoomAroundIt() {
        let pts = [LatLng(10, 10), LatLng(-10, -10)]
        let cam = CameraFit.camera(fitting: [item(pts)], width: 512, height: 512, scale: 1, padding: 0,
                                   center: LatLng(0, 0))
        #expect(cam.center == LatLng(0, 0))
        for p in pts {
            let q = cam.point(for: p)
            #expect(q.x >= 0 && q.x <= 512 && q.y >= 0 && q.y <= 512)
        }
    }

    @Test func horizontalExtentPicksTheLargestGap() {
        let e = CameraFit.horizontalExtent([(0.98, 0.99), (0.01, 0.02)])
        #expect(abs((e.max - e.min) - 0.04) < 1e-12)
    }
}

@Suite struct GeodesyTests {
    @Test func haversineParisNewYork() {
        // Paris (48.8566, 2.3522) → New York (40.7128, −74.0060): 5837 km on a
        // 6371.0088 km sphere (movable-type.co.uk calculator gives 5837 km).
        let d = Geodesy.distanceMeters(LatLng(48.8566, 2.3522), LatLng(40.7128, -74.0060))
        #expect(abs(d - 5_837_000) < 2_000)
    }

    @Test func greatCircleGoesNorthOfTheRhumbLine() {
        let arc = Geodesy.greatCircle(from: LatLng(48.8566, 2.3522), to: LatLng(40.7128, -74.0060))
        #expect(arc.count > 10)
        #expect(arc.map(\.latitude).max()! > 51)  // the great circle bulges north
        #expect(arc.first == LatLng(48.8566, 2.3522) && arc.last == LatLng(40.7128, -74.0060))
    }

    @Test func circleRadius() {
        let ring = Geodesy.circle(center: LatLng(60, 25), radiusMeters: 1000)
        for p in ring { #expect(abs(Geodesy.distanceMeters(LatLng(60, 25), p) - 1000) < 0.01) }
    }
}

@Suite struct CameraFitNoRoomTests {
    @Test func marginsLargerThanTheImageFallBackToTheBareContent() {
        // A 120×80 image cannot hold 200 px of title overhang: fit the points themselves.
        let pts = CameraFit.unwrappedWorldPoints([LatLng(60.17, 24.93), LatLng(60.18, 24.96)])
        let cam = CameraFit.camera(fitting: [FitItem(points: pts, marginRight: 200)], width: 120, height: 80, scale: 1, padding: 24)
        let a = cam.point(for: LatLng(60.17, 24.93)), b = cam.point(for: LatLng(60.18, 24.96))
        for p in [a, b] { #expect(p.x >= 0 && p.x <= 120 && p.y >= 0 && p.y <= 80) }
        #expect(cam.zoom < 17)
    }
}
