import Testing
@testable import MapSnap

@Suite struct LineClipperTests {
    private let rect = PixelRect(minX: 0, minY: 0, maxX: 100, maxY: 100)

    @Test func segmentIsCutAtTheBoundary() {
        let c = LineClipper.clip(polygon([(-50, 50), (150, 50)], closed: false), to: rect)
        #expect(c.path.points == [PixelPoint(x: 0, y: 50), PixelPoint(x: 100, y: 50)])
        #expect(c.startDistances == [50])
    }

    @Test func leavingAndReenteringStartsANewPieceWithItsDistance() {
        let p = polygon([(10, 10), (50, 10), (50, -40), (70, -40), (70, 10), (90, 10)], closed: false)
        let c = LineClipper.clip(p, to: rect)
        #expect(c.path.contours.count == 2)
        #expect(c.path.points(of: c.path.contours[0]).map { $0 } == [PixelPoint(x: 10, y: 10), PixelPoint(x: 50, y: 10), PixelPoint(x: 50, y: 0)])
        #expect(c.startDistances == [0, 40 + 50 + 20 + 40])
    }

    @Test func closedContoursStayClosedInsideAndRejoinWhenCut() {
        let inside = LineClipper.clip(polygon([(10, 10), (90, 10), (90, 90), (10, 90)]), to: rect)
        #expect(inside.path.contours.count == 1 && inside.path.contours[0].isClosed)
        // Start vertex inside, one corner outside: one open piece through the start vertex.
        let cut = LineClipper.clip(polygon([(10, 10), (150, 10), (150, 90), (10, 90)]), to: rect)
        #expect(cut.path.contours.count == 1)
        #expect(cut.path.points(of: cut.path.contours[0]).map { $0 } ==
                [PixelPoint(x: 100, y: 90), PixelPoint(x: 10, y: 90), PixelPoint(x: 10, y: 10), PixelPoint(x: 100, y: 10)])
        #expect(cut.startDistances == [140 + 80 + 50])
    }

    /// Open lines wholly inside (boundary included) come back as they are, each piece at
    /// distance 0 — the same answer as clipping segment by segment.
    @Test func linesWhollyInsideComeBackUnchanged() {
        var p = polygon([(0, 0), (50, 20), (100, 100)], closed: false)
        p.move(to: PixelPoint(x: 30, y: 30))                    // a single point
        p.move(to: PixelPoint(x: 30, y: 30))                    // repeats it: a new contour
        p.line(to: PixelPoint(x: 40, y: 0))
        let c = LineClipper.clip(p, to: rect)
        #expect(c.path.points == p.points)
        #expect(c.path.contours == p.contours)
        #expect(c.startDistances == [0, 0, 0])
        // One point outside: cut as before.
        p.line(to: PixelPoint(x: 40, y: -10))
        let cut = LineClipper.clip(p, to: rect)
        #expect(cut.path.points.last == PixelPoint(x: 40, y: 0))
    }

    @Test func offscreenPointsCostNothingDownstream() {
        var p = Path()
        for i in 0..<200_000 { p.line(to: PixelPoint(x: -1000 - Double(i % 7), y: Double(i))) }
        p.line(to: PixelPoint(x: 50, y: 50))
        p.line(to: PixelPoint(x: 60, y: 60))
        let c = LineClipper.clip(p, to: rect)
        #expect(c.path.points.count <= 3)
        #expect(c.path.points.last == PixelPoint(x: 60, y: 60))
    }

    @Test func strokeDashPhaseSurvivesClipping() {
        // Dashing after clipping must equal dashing the whole line.
        let long = polygon([(-1000, 50), (1100, 50)], closed: false)
        let style = StrokeStyle(width: 4, dash: [7, 3], dashPhase: 2)
        let viaCanvas = Canvas.strokeOutline(long, style: style, width: 100, height: 100)
        let direct = Stroker.stroke(long, style: style)
        let a = viaCanvas.map { exactCoverage($0, width: 100, height: 100) }
        let b = exactCoverage(direct, width: 100, height: 100)
        #expect(a.map { zip($0, b).allSatisfy { abs($0 - $1) < 1e-6 } } == true)
    }
}
