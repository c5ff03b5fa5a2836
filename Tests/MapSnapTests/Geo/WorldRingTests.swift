import Testing
@testable import MapSnap

/// Polygon rings across the antimeridian and round the poles, in world space.
@Suite struct WorldRingTests {
    func ring(_ lonLat: [(Double, Double)]) -> WorldRing {
        WorldRing(polygon: lonLat.map { LatLng(latitude: $0.1, longitude: $0.0) })
    }

    func xRange(_ r: WorldRing) -> ClosedRange<Double> {
        let xs = r.points.map(\.x)
        return (xs.min() ?? 0)...(xs.max() ?? 0)
    }

    @Test func splitBandRunsRoundTheWorldAndItsCutIsNotOutline() {
        // RFC 7946 form of the band 40…50°N: 360° edges along both parallels.
        let r = ring([(-180, 40), (180, 40), (180, 50), (-180, 50), (-180, 40)])
        #expect(xRange(r) == 0...1)
        #expect(!r.goesRoundTheWorld)
        // The edges on ±180° are the cut (with the zero-length closing edge on −180°); the
        // parallels are the band's real edges.
        #expect(r.hiddenEdges.sorted() == [1, 3, 4])
    }

    @Test func ringRoundTheNorthPoleIsClosedAlongTheTopOfTheWorld() {
        let r = ring([(45, 40), (135, 40), (-135, 40), (-45, 40), (45, 40)])
        #expect(r.goesRoundTheWorld)
        #expect(r.points.contains { $0.y == 0 })
        #expect(!r.points.contains { $0.y == 1 })
        #expect(abs((xRange(r).upperBound - xRange(r).lowerBound) - 1) < 1e-12)
        // Only the ring's own edges are outline: the four along 40°N.
        #expect(r.points.count - r.hiddenEdges.count == 4)
    }

    @Test(arguments: [false, true])
    func ringRoundTheSouthPoleIsClosedAlongTheBottomWhicheverWayItWinds(reversed: Bool) {
        // Natural Earth's Antarctica runs east (clockwise); RFC 7946 would run west.
        var lonLat: [(Double, Double)] = stride(from: -180.0, to: 180, by: 30).map { ($0, -70 + ($0 / 60).rounded()) }
        lonLat.append(lonLat[0])
        if reversed { lonLat.reverse() }
        let r = ring(lonLat)
        #expect(r.goesRoundTheWorld)
        #expect(r.points.contains { $0.y == 1 })
        #expect(!r.points.contains { $0.y == 0 })
    }

    @Test func unclosedRingRoundAPoleGetsItsClosingEdge() {
        // Without the repeated first vertex the edge back to it is still outline.
        let r = ring([(45, 40), (135, 40), (-135, 40), (-45, 40)])
        #expect(r.goesRoundTheWorld)
        #expect(r.points.count - r.hiddenEdges.count == 4)
    }

    @Test func unsplitRingCrossingTheAntimeridianTakesTheShortWay() {
        let r = ring([(170, 40), (170, 50), (-170, 50), (-170, 40), (170, 40)])
        #expect(!r.goesRoundTheWorld)
        #expect(r.hiddenEdges.isEmpty)
        let width = xRange(r).upperBound - xRange(r).lowerBound
        #expect(abs(width - 20.0 / 360) < 1e-12)
    }

    @Test func antimeridianNamedBothWaysBetweenTwoLatitudesIsACrossing() {
        // antimeridian's issues-81: [180, 78] → [−180, 81] crosses, it does not go round.
        let r = ring([(166, 77), (180, 78), (-180, 81), (162, 81), (166, 77)])
        #expect(!r.goesRoundTheWorld)
        let width = xRange(r).upperBound - xRange(r).lowerBound
        #expect(abs(width - 18.0 / 360) < 1e-12)
        // Its edge up the antimeridian is the polygon's real east side, so it is outline
        // (a split polygon's cut names one side of the antimeridian at both ends).
        #expect(r.hiddenEdges.isEmpty)
    }

    @Test func continuousLongitudesGiveTheSameRingAsTheShortWay() {
        let continuous = ring([(170, 40), (190, 40), (190, 50), (170, 50), (170, 40)])
        let wrapped = ring([(170, 40), (-170, 40), (-170, 50), (170, 50), (170, 40)])
        #expect(continuous.points.count == wrapped.points.count)
        for (a, b) in zip(continuous.points, wrapped.points) {
            #expect(abs(a.x - b.x) < 1e-12 && abs(a.y - b.y) < 1e-12)
        }
    }

    @Test func splitCapIsLiteralAndItsPoleEdgeIsNotOutline() {
        let r = ring([(45, 40), (135, 40), (180, 40), (180, 90), (-180, 90), (-180, 40), (-135, 40), (-45, 40), (45, 40)])
        #expect(!r.goesRoundTheWorld)
        #expect(xRange(r) == 0...1)
        // (180,40)→(180,90), (180,90)→(−180,90) and (−180,90)→(−180,40).
        #expect(r.hiddenEdges.sorted() == [2, 3, 4])
    }

    @Test func ordinaryRingIsUnchanged() {
        let lonLat: [(Double, Double)] = [(24.9, 60.1), (25.0, 60.1), (25.0, 60.2), (24.9, 60.1)]
        let r = ring(lonLat)
        #expect(r.points == lonLat.map { WebMercator.project(LatLng(latitude: $0.1, longitude: $0.0)) })
        #expect(r.hiddenEdges.isEmpty && !r.goesRoundTheWorld)
    }
}
