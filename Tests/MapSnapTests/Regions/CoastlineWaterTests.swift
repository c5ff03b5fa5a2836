import Testing
@testable import MapSnap

/// The sea from coastlines: land on the left of a coastline, water on its right.
@Suite struct CoastlineWaterTests {
    static let box = CoastlineWater.Box(south: 0, west: 0, north: 1, east: 1)

    static func area(_ ring: [LatLng]) -> Double { abs(CoastlineWater.signedArea(ring)) / 2 }

    /// A coastline running west → east across the box at latitude 0.6: land north (left),
    /// sea south. Its ends lie outside the box and are clipped.
    @Test func coastlineAcrossTheBoxLeavesTheSeaOnItsRight() {
        let positions: [Int64: LatLng] = [1: LatLng(latitude: 0.6, longitude: -0.5), 2: LatLng(latitude: 0.6, longitude: 0.5),
                                          3: LatLng(latitude: 0.6, longitude: 1.5)]
        // Two ways that join at node 2.
        let sea = CoastlineWater.polygons(ways: [[2, 3], [1, 2]], positions: positions, box: Self.box)
        #expect(sea.count == 1)
        let ring = sea[0].rings[0]
        #expect(abs(Self.area(ring) - 0.6) < 1e-9)
        #expect(CoastlineWater.signedArea(ring) < 0)  // outer rings clockwise, as shapefiles want
        #expect(CoastlineWater.contains(ring, LatLng(latitude: 0.3, longitude: 0.5)))
        #expect(!CoastlineWater.contains(ring, LatLng(latitude: 0.8, longitude: 0.5)))
    }

    /// The same line drawn east → west puts the sea north.
    @Test func reversedCoastlineSwapsTheSides() {
        let positions: [Int64: LatLng] = [1: LatLng(latitude: 0.6, longitude: 1.5), 2: LatLng(latitude: 0.6, longitude: -0.5)]
        let sea = CoastlineWater.polygons(ways: [[1, 2]], positions: positions, box: Self.box)
        #expect(sea.count == 1 && abs(Self.area(sea[0].rings[0]) - 0.4) < 1e-9)
    }

    /// A coastline that stops inside the box (a clipped extract) is carried to the nearest edge.
    @Test func clippedCoastlineIsExtendedToTheEdge() {
        let positions: [Int64: LatLng] = [1: LatLng(latitude: 0.5, longitude: 0.1), 2: LatLng(latitude: 0.5, longitude: 0.9)]
        let sea = CoastlineWater.polygons(ways: [[1, 2]], positions: positions, box: Self.box)
        #expect(sea.count == 1 && abs(Self.area(sea[0].rings[0]) - 0.5) < 1e-9)
    }

    /// An island (a closed counter-clockwise coastline) in a box no coastline crosses: the
    /// box is sea with the island as a hole. With no coastline at all there is no sea.
    @Test func islandIsAHoleInTheSea() {
        let positions: [Int64: LatLng] = [1: LatLng(latitude: 0.4, longitude: 0.4), 2: LatLng(latitude: 0.4, longitude: 0.6),
                                          3: LatLng(latitude: 0.6, longitude: 0.6), 4: LatLng(latitude: 0.6, longitude: 0.4)]
        let sea = CoastlineWater.polygons(ways: [[1, 2, 3, 4, 1]], positions: positions, box: Self.box)
        #expect(sea.count == 1 && sea[0].rings.count == 2)
        #expect(abs(Self.area(sea[0].rings[0]) - 1) < 1e-9 && abs(Self.area(sea[0].rings[1]) - 0.04) < 1e-9)
        #expect(CoastlineWater.polygons(ways: [], positions: [:], box: Self.box).isEmpty)
    }

    /// Shapefile bytes: header code 9994, version 1000, polygon type, lengths in 16-bit words.
    @Test func shapefileHeaders() {
        let polygon = ShapefileWriter.Polygon(rings: [CoastlineWater.boxRing(Self.box)])
        let (shp, shx, dbf) = ShapefileWriter.encode([polygon])
        func be(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        #expect(be(shp, 0) == 9994 && be(shp, 24) * 2 == shp.count && shp[28] == 0xE8 && shp[29] == 0x03 && shp[32] == 5)
        #expect(shp.count == 100 + 8 + 44 + 4 + 5 * 16)
        #expect(be(shx, 24) * 2 == shx.count && shx.count == 108 && be(shx, 100) == 50)
        #expect(dbf[0] == 3 && dbf[4] == 1 && dbf.last == 0x1A && dbf.count == 32 + 32 + 1 + 11 + 1)
    }
}
