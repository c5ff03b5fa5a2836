import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// The area of an extract and the tile ids it selects: the quadtree walk and its Hilbert
/// runs against brute force over every tile, boxes across the antimeridian, polygons with
/// holes, and the messages for unusable areas.
@Suite struct ExtractAreaTests {
    /// The ids of `ranges`, one by one.
    static func ids(_ ranges: TileIDRanges) -> Set<UInt64> {
        Set(ranges.ranges.flatMap { Array($0) })
    }

    @Test func aTilesDescendantsAtAnyZoomAreOneRunOfIDs() {
        let seed: UInt64 = 2027
        var g = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let k = Int(g.next() % 9), depth = 1 + Int(g.next() % 3)
            let x = Int(g.next() % UInt64(1 << k)), y = Int(g.next() % UInt64(1 << k))
            let z = k + depth
            var descendants: [UInt64] = []
            for dx in 0..<(1 << depth) {
                for dy in 0..<(1 << depth) {
                    descendants.append(PMTilesTileID.id(for: TileID(z: z, x: (x << depth) + dx, y: (y << depth) + dy)!))
                }
            }
            descendants.sort()
            let position = PMTilesTileID.id(for: TileID(z: k, x: x, y: y)!) - ExtractArea.firstID(atZoom: k)
            let start = ExtractArea.firstID(atZoom: z) + position << UInt64(2 * depth)
            #expect(descendants == Array(start..<(start + UInt64(descendants.count))), "seed \(seed): z\(k)/\(x)/\(y) at z\(z)")
        }
    }

    @Test(arguments: [
        (24.93, 60.16, 24.96, 60.175),      // a city centre, smaller than a z10 tile
        (-0.5, 51.2, 0.3, 51.7),            // across the prime meridian
        (-74.3, -10.0, -60.0, 5.0),         // across the equator
        (-180.0, -85.0, 180.0, 85.0),       // the world
        (0.0, 0.0, 11.25, 10.0),            // west, south and east on tile boundaries
    ])
    func aBoxSelectsExactlyTheTilesItOverlaps(box: (Double, Double, Double, Double)) throws {
        let (w, s, e, n) = box
        let area = try ExtractArea.box(west: w, south: s, east: e, north: n)
        let selected = Self.ids(area.tileRanges(zooms: 0...8))
        var expected = Set<UInt64>()
        for z in 0...8 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let tile = TileID(z: z, x: x, y: y)!
                    if ExtractFixtures.tile(tile, overlapsWest: w, south: s, east: e, north: n) { expected.insert(PMTilesTileID.id(for: tile)) }
                }
            }
        }
        #expect(selected == expected, "\(box): \(selected.subtracting(expected).count) extra, \(expected.subtracting(selected).count) missing")
        #expect(!selected.isEmpty)
    }

    @Test func zoomsBelowTheRangeAreLeftOut() throws {
        let area = try ExtractArea.box(west: 24.93, south: 60.16, east: 24.96, north: 60.175)
        let ranges = area.tileRanges(zooms: 5...7)
        let zooms = Set(Self.ids(ranges).compactMap { PMTilesTileID.tile(for: $0)?.z })
        #expect(zooms == [5, 6, 7])
    }

    @Test func aBoxAcrossTheAntimeridianTakesBothEnds() throws {
        let area = try ExtractArea.box(west: 170, south: -20, east: -170, north: -10)
        let tiles = Self.ids(area.tileRanges(zooms: 5...5)).compactMap(PMTilesTileID.tile(for:))
        let columns = Set(tiles.map(\.x))
        // At z5, 170°E…180° is x = 31.1…32: column 31; −180…−170° is x = 0…0.9: column 0.
        #expect(columns == [31, 0])
        let east = try ExtractArea.box(west: 170, south: -20, east: 180, north: -10).tileRanges(zooms: 5...5)
        let west = try ExtractArea.box(west: -180, south: -20, east: -170, north: -10).tileRanges(zooms: 5...5)
        #expect(Set(tiles.map(PMTilesTileID.id(for:))) == Self.ids(east).union(Self.ids(west)))
        #expect(area.bounds.southWest.longitude == 170 && area.bounds.northEast.longitude == -170)
    }

    @Test func aPolygonWithAHoleSkipsTheTilesInsideTheHole() throws {
        // Boxes as polygons, corners off every tile boundary: outer 2.1…2.9°E × 48.6…49.1°N,
        // hole 2.3…2.7°E × 48.7…49.0°N.
        let ring = { (w: Double, s: Double, e: Double, n: Double) in
            [LatLng(latitude: s, longitude: w), LatLng(latitude: s, longitude: e), LatLng(latitude: n, longitude: e),
             LatLng(latitude: n, longitude: w), LatLng(latitude: s, longitude: w)]
        }
        let area = try ExtractArea.polygons([[ring(2.1, 48.6, 2.9, 49.1), ring(2.3, 48.7, 2.7, 49.0)]], flag: "hole.geojson")
        let selected = Self.ids(area.tileRanges(zooms: 8...12))
        var expected = Set<UInt64>()
        var inHole = 0
        for z in 8...12 {
            let n = 1 << z
            let rows = Int(ExtractFixtures.row(ofLatitude: 49.2) * Double(n))...Int(ExtractFixtures.row(ofLatitude: 48.5) * Double(n))
            for x in 0..<n where Double(x + 1) / Double(n) * 360 - 180 > 2.0 && Double(x) / Double(n) * 360 - 180 < 3.0 {
                for y in rows {
                    let tile = TileID(z: z, x: x, y: y)!
                    guard ExtractFixtures.tile(tile, overlapsWest: 2.1, south: 48.6, east: 2.9, north: 49.1) else { continue }
                    let lonW = Double(x) / Double(n) * 360 - 180, lonE = Double(x + 1) / Double(n) * 360 - 180
                    let latN = ExtractFixtures.latitude(ofRow: Double(y), zoom: z), latS = ExtractFixtures.latitude(ofRow: Double(y + 1), zoom: z)
                    if lonW > 2.3 && lonE < 2.7 && latS > 48.7 && latN < 49.0 { inHole += 1; continue }
                    expected.insert(PMTilesTileID.id(for: tile))
                }
            }
        }
        #expect(inHole > 10)
        #expect(selected == expected, "\(selected.subtracting(expected).count) extra, \(expected.subtracting(selected).count) missing")
    }

    @Test func aTriangleSelectsTheTilesItTouchesNotItsBox() throws {
        // Separating axes (the square's two and the triangle's three edge normals) decide
        // exactly whether a convex polygon meets a square; vertices projected here.
        let corners = [LatLng(latitude: 59.8, longitude: 24.1), LatLng(latitude: 60.6, longitude: 25.0), LatLng(latitude: 59.9, longitude: 25.9)]
        let area = try ExtractArea.polygons([[corners]], flag: "triangle.geojson")
        let box = try ExtractArea.box(west: 24.1, south: 59.8, east: 25.9, north: 60.6)
        let p = corners.map { (x: ($0.longitude + 180) / 360, y: ExtractFixtures.row(ofLatitude: $0.latitude)) }
        func meets(_ t: TileID) -> Bool {
            let n = Double(1 << t.z)
            let square = [(Double(t.x) / n, Double(t.y) / n), (Double(t.x + 1) / n, Double(t.y) / n),
                          (Double(t.x + 1) / n, Double(t.y + 1) / n), (Double(t.x) / n, Double(t.y + 1) / n)]
            var axes = [(1.0, 0.0), (0.0, 1.0)]
            for i in 0..<3 { let a = p[i], b = p[(i + 1) % 3]; axes.append((b.y - a.y, a.x - b.x)) }
            for (ax, ay) in axes {
                let s = square.map { $0.0 * ax + $0.1 * ay }, q = p.map { $0.x * ax + $0.y * ay }
                if s.max()! < q.min()! || q.max()! < s.min()! { return false }
            }
            return true
        }
        let selected = Self.ids(area.tileRanges(zooms: 6...11))
        let boxed = Self.ids(box.tileRanges(zooms: 6...11))
        let expected = Set(boxed.filter { meets(PMTilesTileID.tile(for: $0)!) })
        #expect(selected == expected, "\(selected.subtracting(expected).count) extra, \(expected.subtracting(selected).count) missing")
        #expect(selected.count < boxed.count * 3 / 4, "\(selected.count) of \(boxed.count)")
    }

    @Test(arguments: [
        ([200.0, 10, 210, 20], "--bbox: west 200 is not a longitude (-180 to 180)"),
        ([10.0, 95, 20, 96], "--bbox: south 95 is not a latitude (-90 to 90)"),
        ([10.0, 50, 20, 40], "--bbox: south 50 must be below north 40 (the order is W,S,E,N)"),
        ([10.0, 40, 10, 50], "--bbox: west equals east: the box has no width"),
        ([10.0, 86, 20, 89], "--bbox: the box lies beyond the ±85.0511° latitude where Web Mercator tiles end"),
        ([Double.nan, 1, 2, 3], "--bbox: every value must be a finite number of degrees"),
    ])
    func unusableBoxesAreRefusedWithTheReason(values: [Double], message: String) {
        #expect(throws: RegionExtractError.invalidArea(flag: "--bbox", reason: String(message.dropFirst("--bbox: ".count)))) {
            try ExtractArea.box(west: values[0], south: values[1], east: values[2], north: values[3])
        }
        do {
            _ = try ExtractArea.box(west: values[0], south: values[1], east: values[2], north: values[3])
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func theSquareAroundAPlace() throws {
        let paris = try ExtractArea.around(LatLng(latitude: 48.8566, longitude: 2.3522), radiusKilometers: 10)
        // 10 km is 0.0899° of latitude, and 0.0899° / cos 48.86° = 0.1367° of longitude.
        #expect(abs(paris.bounds.northEast.latitude - 48.9465) < 0.001)
        #expect(abs(paris.bounds.southWest.latitude - 48.7667) < 0.001)
        #expect(abs(paris.bounds.northEast.longitude - 2.4889) < 0.001)
        #expect(abs(paris.bounds.southWest.longitude - 2.2155) < 0.001)
        let fiji = try ExtractArea.around(LatLng(latitude: -17.8, longitude: 179.95), radiusKilometers: 20)
        #expect(fiji.bounds.southWest.longitude > fiji.bounds.northEast.longitude, "crosses the antimeridian: \(fiji)")
        let pole = try ExtractArea.around(LatLng(latitude: 85, longitude: 0), radiusKilometers: 2000)
        #expect(pole.bounds.southWest.longitude == -180 && pole.bounds.northEast.longitude == 180)
        #expect(throws: RegionExtractError.self) { try ExtractArea.around(LatLng(latitude: 0, longitude: 0), radiusKilometers: 0) }
    }

    @Test func polygonsWithTooFewPositionsOrOutsideTheGlobeAreRefused() {
        let flat = [[[LatLng(latitude: 1, longitude: 1), LatLng(latitude: 2, longitude: 2), LatLng(latitude: 1, longitude: 1)]]]
        #expect(throws: RegionExtractError.invalidArea(flag: "a.geojson", reason: "polygon 1, ring 1 has 2 distinct positions; a ring needs 3")) {
            try ExtractArea.polygons(flat, flag: "a.geojson")
        }
        let wide = [[[LatLng(latitude: 1, longitude: 170), LatLng(latitude: 2, longitude: 190), LatLng(latitude: 3, longitude: 175)]]]
        #expect(throws: RegionExtractError.self) { try ExtractArea.polygons(wide, flag: "a.geojson") }
    }
}

/// Sets of tile ids as ranges.
@Suite struct TileIDRangesTests {
    @Test func overlappingAndTouchingRangesAreJoined() {
        let set = TileIDRanges([10..<20, 5..<8, 20..<25, 7..<9, 40..<40, 30..<31])
        #expect(set.ranges == [5..<9, 10..<25, 30..<31])
        #expect(set.count == 4 + 15 + 1)
        #expect(set.contains(5) && set.contains(24) && set.contains(30))
        #expect(!set.contains(9) && !set.contains(25) && !set.contains(31) && !set.contains(0))
        #expect(set.overlaps(8..<10) && !set.overlaps(25..<30) && !set.overlaps(9..<10))
        var parts: [Range<UInt64>] = []
        set.forEachIntersection(with: 7..<30) { parts.append($0) }
        #expect(parts == [7..<9, 10..<25])
    }
}
