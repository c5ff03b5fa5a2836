import Testing
@testable import MapSnap

@Suite struct PathTests {
    /// Building a polyline in place gives the path `move`/`line` build: non-finite points
    /// and exact repeats left out, one open contour.
    @Test func polylineInPlaceMatchesMoveAndLine() {
        let pts = [PixelPoint(x: .nan, y: 0), PixelPoint(x: 1, y: 2), PixelPoint(x: 1, y: 2),
                   PixelPoint(x: 3, y: .infinity), PixelPoint(x: 4, y: 5), PixelPoint(x: 1, y: 2),
                   PixelPoint(x: 1, y: 2)]
        var built = Path()
        for (i, p) in pts.enumerated() { if i == 0 { built.move(to: p) } else { built.line(to: p) } }
        let inPlace = Path(polyline: pts)
        #expect(inPlace.points == built.points)
        #expect(inPlace.contours == built.contours)
        #expect(inPlace.points.count == 3)
        #expect(Path(polyline: []).isEmpty && Path(polyline: []).contours.isEmpty)
        #expect(Path(polyline: [PixelPoint(x: .nan, y: .nan)]).contours.isEmpty)
    }
}
