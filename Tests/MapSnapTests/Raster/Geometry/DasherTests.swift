import Testing
@testable import MapSnap

@Suite struct DasherTests {
    private func lengths(_ p: Path) -> [Double] {
        p.contours.map { c in
            let pts = p.points(of: c)
            return zip(pts, pts.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
        }
    }

    private let line = polygon([(0, 0), (100, 0)], closed: false)

    @Test func dashesAlternateOnAndOff() {
        let d = Dasher.dash(line, pattern: [10, 5], phase: 0)
        #expect(d.contours.count == 7)
        #expect(lengths(d).allSatisfy { abs($0 - 10) < 1e-9 })
        #expect(d.points(of: d.contours[1]).first == PixelPoint(x: 15, y: 0))
        #expect(d.points(of: d.contours[6]).last == PixelPoint(x: 100, y: 0))
    }

    @Test(arguments: [(12.0, 3.0), (-3.0, 3.0), (27.0, 3.0), (0.0, 0.0), (10.0, 10.0)])
    func phaseShiftsThePattern(_ phase: Double, _ firstStart: Double) {
        let d = Dasher.dash(line, pattern: [10, 5], phase: phase)
        let first = d.points(of: d.contours[0]).first
        #expect(first.map { abs($0.x - (phase == 10 ? 5 : firstStart)) < 1e-9 } == true, "phase \(phase)")
    }

    @Test func startDistancesContinueThePattern() {
        let a = Dasher.dash(line, pattern: [10, 5], phase: 12)
        let b = Dasher.dash(line, pattern: [10, 5], phase: 0, startDistances: [12])
        #expect(a.points == b.points)
    }

    @Test func oddPatternRepeats() {
        let d = Dasher.dash(line, pattern: [5], phase: 0)
        #expect(d.contours.count == 10)
        #expect(lengths(d).allSatisfy { abs($0 - 5) < 1e-9 })
    }

    @Test(arguments: [[Double](), [0, 0], [5, -1], [.nan, 3], [.infinity, 1]])
    func invalidPatternsMeanSolid(_ pattern: [Double]) {
        let d = Dasher.dash(line, pattern: pattern, phase: 0)
        #expect(d.points == line.points && d.contours == line.contours)
    }

    @Test func dashesFollowCorners() {
        let l = polygon([(0, 0), (10, 0), (10, 10)], closed: false)
        let d = Dasher.dash(l, pattern: [14, 2], phase: 0)
        #expect(d.points(of: d.contours[0]).map { $0 } == [PixelPoint(x: 0, y: 0), PixelPoint(x: 10, y: 0), PixelPoint(x: 10, y: 4)])
        #expect(abs(lengths(d).reduce(0, +) - 18) < 1e-9)
    }

    @Test func zeroLengthDashesAreDots() {
        let d = Dasher.dash(line, pattern: [0, 10], phase: 0)
        // Dots at 0, 10, …, 90; a dash that would start exactly at the end is not emitted.
        #expect(d.contours.count == 10)
        #expect(d.contours.allSatisfy { $0.count == 1 })
        let dots = Stroker.stroke(line, style: StrokeStyle(width: 4, cap: .square, dash: [0, 10]))
        // Only the lower half of each 4 × 4 square is on the canvas, and only x ≥ 0 of the first.
        #expect(abs(coveredArea(dots, width: 128, height: 16) - (9 * 8 + 4)) < 1e-6)
    }

    @Test func tooManyDashesFallBackToSolid() {
        let long = polygon([(0, 0), (1e7, 0)], closed: false)
        let d = Dasher.dash(long, pattern: [0.01, 0.01], phase: 0)
        #expect(d.contours.count == 1 && d.points.count == 2)
    }

    /// Issue #10: a 1e-6 px pattern on a short line made ~10⁸ dashes' worth of work per
    /// call site. Below one device pixel per period the line is solid.
    @Test(arguments: [[1e-6, 1e-6], [0.3, 0.6], [0.45]])
    func subpixelPatternsAreSolid(_ pattern: [Double]) {
        let d = Dasher.dash(line, pattern: pattern, phase: 0)
        #expect(d.points == line.points && d.contours == line.contours)
    }

    @Test func onePixelPeriodStillDashes() {
        #expect(Dasher.dash(line, pattern: [0.5, 0.5], phase: 0).contours.count == 100)
        #expect(Dasher.subpixelCoverage([0.5, 0.5], capLength: 0) == nil)
    }

    /// The faded solid line keeps the ink the dashes would have had: on / period, caps
    /// counted, never more than 1.
    @Test(arguments: [([0.2, 0.6], 0.0, 0.25), ([1e-6, 1e-6], 0.0, 0.5), ([0.1, 0.4], 0.2, 0.6),
                      ([0.3], 0.0, 0.5), ([0.3, 0.15], 0.6, 1.0), ([0, 0.5], 0.0, 0.0)])
    func subpixelCoverage(_ pattern: [Double], _ cap: Double, _ expected: Double) throws {
        let c = try #require(Dasher.subpixelCoverage(pattern, capLength: cap))
        #expect(abs(c - expected) < 1e-9)
    }

    /// A shared budget: dashing stops (the line is solid) once a render has spent it, and a
    /// call that fits takes its dashes from it.
    @Test func budgetIsShared() {
        var budget = 15
        let first = Dasher.dash(line, pattern: [10, 5], phase: 0, budget: &budget)
        #expect(first.contours.count == 7 && budget == 8)
        let second = Dasher.dash(line, pattern: [10, 5], phase: 0, budget: &budget)
        #expect(second.contours.count == 1 && budget == 8)
    }

    /// Round-capped dashes of a wide line weigh what their caps cost: 20,000 dots of a
    /// 10,000-px line (each a disc of hundreds of points) are drawn solid, not dotted.
    @Test func wideRoundCapsWeighOnTheBudget() throws {
        let style = StrokeStyle(width: 10_000, cap: .round, dash: [0, 2])
        let line = polygon([(-20_000, 32), (20_000, 32)], closed: false)
        let outline = try #require(Canvas.strokeOutline(line, style: style, width: 64, height: 64))
        #expect(outline.points.count < 10_000)
        let canvas = Canvas(width: 64, height: 64)
        canvas.stroke(line, style: style, color: .black)
        #expect(canvas.remainingDashes == Dasher.maxDashesPerCanvas)
        // A thin round-capped dotted line dots as before: its small caps weigh one dash.
        let thin = Canvas(width: 110, height: 10)
        thin.stroke(polygon([(5, 5), (105, 5)], closed: false), style: StrokeStyle(width: 2, cap: .round, dash: [0, 4]),
                    color: .black)
        #expect(thin.remainingDashes == Dasher.maxDashesPerCanvas - 25)
    }

    /// The weight itself: round caps of a dashed line cost a quarter of a half-circle's
    /// segments each, anything else one; the raw building blocks drawing from a budget of
    /// that weight stay small (180,000 round-capped dashes of a 9,000-px line once made
    /// 1.6 GB of cap points in the fuzz harness).
    @Test func dashCostIsTheRoundCapsWeight() {
        let wide = StrokeStyle(width: 9_000, cap: .round, dash: [0.00025, 0.00025])
        #expect(wide.dashCost == Path.segmentCount(radius: 4_500, sweep: .pi) / 4)
        #expect(wide.dashCost > 10)
        #expect(StrokeStyle(width: 9_000, cap: .butt, dash: [1, 1]).dashCost == 1)
        #expect(StrokeStyle(width: 9_000, cap: .round).dashCost == 1)
        #expect(StrokeStyle(width: 1, cap: .round, dash: [1, 1]).dashCost == 1)
        var budget = Dasher.maxDashCount / wide.dashCost
        let triangle = polygon([(2, 2), (40, 8), (12, 30)])
        let dashed = Dasher.dash(triangle, pattern: wide.dash, phase: 0, budget: &budget)
        let outline = Stroker.outline(Simplifier.simplify(dashed), style: wide)
        #expect(outline.points.count < 100_000)
    }

    /// The canvas draws a dashed stroke solid once its budget is spent.
    @Test func canvasBudgetFallsBackToSolid() {
        let style = StrokeStyle(width: 2, dash: [4, 4])
        let dashed = Canvas(width: 110, height: 10, fill: .white)
        dashed.stroke(polygon([(5, 5), (105, 5)], closed: false), style: style, color: .black)
        #expect(dashed.remainingDashes == Dasher.maxDashesPerCanvas - 13)
        let spent = Canvas(width: 110, height: 10, fill: .white)
        spent.remainingDashes = 3
        spent.stroke(polygon([(5, 5), (105, 5)], closed: false), style: style, color: .black)
        let solid = Canvas(width: 110, height: 10, fill: .white)
        solid.stroke(polygon([(5, 5), (105, 5)], closed: false), style: StrokeStyle(width: 2), color: .black)
        #expect(spent.pixels == solid.pixels && spent.pixels != dashed.pixels)
        #expect(spent.remainingDashes == 3)
    }

    @Test func closedContours() {
        let square = polygon([(0, 0), (10, 0), (10, 10), (0, 10)])
        // A pattern that never switches off over the perimeter keeps the contour closed.
        let solid = Dasher.dash(square, pattern: [100, 1], phase: 0)
        #expect(solid.contours.count == 1 && solid.contours[0].isClosed)
        // On at both ends: the last dash continues into the first through the start vertex.
        let d = Dasher.dash(square, pattern: [7, 6], phase: 0)
        // Perimeter 40: on 0–7, 13–20, 26–33, 39–40 (+ 0–7 merged).
        #expect(d.contours.count == 3)
        #expect(abs(lengths(d).reduce(0, +) - 22) < 1e-9)
        #expect(d.contours.allSatisfy { !$0.isClosed })
    }
}
