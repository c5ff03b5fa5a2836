import MapSnapTesting
import Testing
@testable import MapSnap

/// Expected values computed independently with Python using the alternative form
/// y = ½ − ln((1 + sin φ)/(1 − sin φ)) / 4π (not the tan/sec form the code uses).
@Suite struct WebMercatorTests {
    static let cases: [(LatLng, Double, Double)] = [
        (LatLng(60.1699, 24.9384), 0.5692733333333333, 0.2894533183054422),
        (LatLng(0, 0), 0.5, 0.5),
        (LatLng(-33.8688, 151.2093), 0.9200258333333333, 0.6000922514587762),
        (LatLng(40.7128, -74.0060), 0.2944277777777778, 0.3759807982580087),
    ]

    @Test(arguments: cases)
    func projectsKnownPoints(c: LatLng, x: Double, y: Double) {
        let p = WebMercator.project(c)
        #expect(abs(p.x - x) < 1e-12)
        #expect(abs(p.y - y) < 1e-12)
    }

    @Test func clampsLatitudeAtMercatorLimit() {
        #expect(abs(WebMercator.project(LatLng(89.9, 0)).y) < 1e-12)
        #expect(abs(WebMercator.project(LatLng(-90, 0)).y - 1) < 1e-12)
        #expect(abs(WebMercator.project(LatLng(85.05112878, 0)).y) < 1e-9)
    }

    @Test func roundTripsWithSeededGenerator() {
        var rng = SeededGenerator(seed: 0x5EED_1234)
        print("WebMercatorTests.roundTrips seed 0x5EED1234")
        for _ in 0..<10_000 {
            let c = LatLng(Double.random(in: -85...85, using: &rng), Double.random(in: -180..<180, using: &rng))
            let back = WebMercator.unproject(WebMercator.project(c))
            #expect(abs(back.latitude - c.latitude) < 1e-9)
            #expect(abs(back.longitude - c.longitude) < 1e-9)
        }
    }

    @Test func groundResolutionAtEquatorZoom0() {
        // 2π · 6378137 / 256 = 156543.03392804097 m per pixel (the well-known z0 value).
        #expect(abs(WebMercator.metersPerPoint(latitude: 0, zoom: 0) - 156_543.033_928_040_97) < 1e-6)
    }
}

@Suite struct CameraTests {
    @Test func markerLandsWhereIndependentMathPutsIt() {
        // Python: centre (60.1699, 24.9384), z 15.5, 600×400 pt at scale 2 → (797.72, 135.00).
        let cam = Camera(center: LatLng(60.1699, 24.9384), zoom: 15.5, width: 600, height: 400, scale: 2)
        let p = cam.point(for: LatLng(60.1719, 24.9414))
        #expect(abs(p.x - 797.7213867184861) < 1e-6)
        #expect(abs(p.y - 135.00124302569367) < 1e-6)
    }

    @Test func pointAndCoordinateAreInverse() {
        let cam = Camera(center: LatLng(-33.8688, 151.2093), zoom: 11.3, width: 640, height: 480, scale: 1)
        for (x, y) in [(0.0, 0.0), (320, 240), (639.5, 12.25), (100, 479)] {
            let c = cam.coordinate(for: PixelPoint(x: x, y: y))
            let back = cam.point(for: c)
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
        }
        #expect(cam.point(for: cam.center) == PixelPoint(x: 320, y: 240))
    }

    @Test func coordinatesAreUnwrappedToTheNearestWorldCopy() {
        // Camera just west of the antimeridian; a point just east of it is drawn to the right.
        let cam = Camera(center: LatLng(-17, 179), zoom: 5, width: 512, height: 512)
        let p = cam.point(for: LatLng(-17, -179))
        #expect(p.x > 256 && p.x < 512)
        #expect(cam.coordinate(for: p).longitude < -178)
    }

    @Test func pixelSizeFollowsScale() {
        let cam = Camera(center: LatLng(0, 0), zoom: 3, width: 300, height: 200, scale: 2)
        #expect(cam.pixelWidth == 600 && cam.pixelHeight == 400)
    }
}

@Suite struct TileCoverTests {
    @Test func helsinkiZ14ContainsKnownTile() {
        // Python: floor(x·2^14), floor(y·2^14) = 9326, 4742 for (60.1699, 24.9384).
        let cam = Camera(center: LatLng(60.1699, 24.9384), zoom: 14, width: 256, height: 256)
        let tiles = TileCover.tiles(for: cam, dataZoom: 14)
        #expect(tiles.contains { $0.id == TileID(z: 14, x: 9326, y: 4742) })
        #expect(tiles.count == 4)  // a 256 px view not aligned to the grid touches 2×2 tiles
        for t in tiles {
            #expect(abs(t.rect.width - 256) < 1e-9)
        }
    }

    @Test func zoom0WideImageWrapsTheWorld() {
        let cam = Camera(center: LatLng(0, 0), zoom: 0, width: 1024, height: 256)
        // Four worlds wide, centred on x = 0.5: half a copy at each end, three whole ones.
        let tiles = TileCover.tiles(for: cam, dataZoom: 0)
        #expect(tiles.count == 5)
        #expect(Set(tiles.map(\.id)) == [TileID(z: 0, x: 0, y: 0)!])
        #expect(tiles.map(\.worldCopy) == [-2, -1, 0, 1, 2])
    }

    @Test func antimeridianCoverUsesBothEdgesOfTheGrid() {
        let cam = Camera(center: LatLng(0, 180), zoom: 3, width: 256, height: 256)
        let xs = Set(TileCover.tiles(for: cam, dataZoom: 3).map(\.id.x))
        #expect(xs == [0, 7])
    }

    @Test func polarRowsAreOmitted() {
        // TileCover.Antarctic: the camera sits at the bottom edge of the world.
        let cam = Camera(center: LatLng(-85.05, 0), zoom: 2, width: 512, height: 512)
        let tiles = TileCover.tiles(for: cam, dataZoom: 2)
        #expect(!tiles.isEmpty)
        #expect(tiles.allSatisfy { $0.id.y <= 3 && $0.id.y >= 0 })
    }

    @Test func tilesTouchWithoutGapsAtFractionalZoom() {
        let cam = Camera(center: LatLng(60.17, 24.94), zoom: 14.37, width: 700, height: 500)
        let tiles = TileCover.tiles(for: cam, dataZoom: TileCover.dataZoom(for: 14.37))
        for t in tiles {
            if let right = tiles.first(where: { $0.id.x == t.id.x + 1 && $0.id.y == t.id.y }) {
                #expect(abs(right.rect.minX - t.rect.maxX) < 1e-9)
            }
        }
        #expect(TileCover.dataZoom(for: 14.37) == 14)
        #expect(TileCover.dataZoom(for: 14.0) == 14)
    }
}
