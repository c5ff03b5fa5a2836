import Testing
@testable import MapSnap

@Suite struct StrokerTests {
    private func strokedArea(_ path: Path, _ style: StrokeStyle, size: Int = 256) -> Double {
        coveredArea(Stroker.stroke(path, style: style), width: size, height: size)
    }

    @Test(arguments: [((10.0, 50.0), (190.0, 50.0)), ((10.3, 10.7), (150.1, 120.9)), ((100, 5), (100.5, 240))])
    func straightButtLineCoversLengthTimesWidth(_ a: (Double, Double), _ b: (Double, Double)) {
        let p = polygon([a, b], closed: false)
        let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
        #expect(abs(strokedArea(p, StrokeStyle(width: 6)) - length * 6) < 1e-6)
        #expect(abs(strokedArea(p, StrokeStyle(width: 6, cap: .square)) - (length + 6) * 6) < 1e-6)
    }

    @Test func roundCapsAddADisc() {
        let p = polygon([(40, 100), (200, 100)], closed: false)
        let r = 10.0
        let butt = strokedArea(p, StrokeStyle(width: 2 * r))
        let round = strokedArea(p, StrokeStyle(width: 2 * r, cap: .round))
        // Arcs are inscribed polygons within 0.1 px (Path.flatteningTolerance) of the circle.
        #expect(abs((round - butt) - Double.pi * r * r) < 2 * Double.pi * r * Path.flatteningTolerance)
        #expect(round - butt < Double.pi * r * r)
    }

    @Test func miterAndBevelOnARightAngleDifferByTheCornerTriangle() {
        let p = polygon([(20, 100), (100, 100), (100, 20)], closed: false)
        let r = 5.0
        let bevel = strokedArea(p, StrokeStyle(width: 2 * r, join: .bevel))
        let miter = strokedArea(p, StrokeStyle(width: 2 * r, join: .miter))
        let round = strokedArea(p, StrokeStyle(width: 2 * r, join: .round))
        #expect(abs((miter - bevel) - r * r / 2) < 1e-6)
        // Two 80 × 10 bodies overlapping in an r × r square, plus the bevel triangle.
        #expect(abs(bevel - (80 * 10 * 2 - r * r + r * r / 2)) < 1e-6)
        #expect(round > bevel && round < miter)
        let quarterArc = Double.pi / 2 * r
        #expect(abs((round - bevel) - (Double.pi * r * r / 4 - r * r / 2)) < quarterArc * Path.flatteningTolerance)
    }

    @Test func miterLimitFallsBackToBevel() {
        // A 20° corner has miter ratio 1/sin(10°) ≈ 5.76: over the default limit of 4.
        let p = polygon([(20, 200), (200, 200), (20, 200 - 180 * 0.36397)], closed: false)
        let bevel = strokedArea(p, StrokeStyle(width: 8, join: .bevel))
        #expect(abs(strokedArea(p, StrokeStyle(width: 8, join: .miter)) - bevel) < 1e-9)
        #expect(strokedArea(p, StrokeStyle(width: 8, join: .miter, miterLimit: 10)) > bevel + 1)
    }

    @Test(arguments: [LineJoin.miter, .round, .bevel])
    func hairpinStaysBounded(_ join: LineJoin) {
        for back in [0.0, 0.01, 0.5] {
            let p = polygon([(20, 50), (150, 50), (20, 50 + back)], closed: false)
            let outline = Stroker.stroke(p, style: StrokeStyle(width: 10, join: join))
            let b = outline.bounds
            #expect(b != nil)
            if let b {
                #expect(b.maxX <= 155 + 1e-9 && b.minX >= 15 - 1e-9, "join \(join) back \(back): \(b)")
                #expect(b.minY >= 45 - 1e-9 && b.maxY <= 55.5 + 1e-9)
            }
            // Nothing is lost either: the pixel at the tip is fully covered.
            let grid = exactCoverage(outline, width: 256, height: 128)
            #expect(grid[50 * 256 + 148] == 1)
        }
    }

    @Test(arguments: [LineJoin.miter, .round, .bevel])
    func closedSquareStrokeHasNoGapAtTheStart(_ join: LineJoin) {
        let p = polygon([(20, 20), (80, 20), (80, 80), (20, 80)])
        let outline = Stroker.stroke(p, style: StrokeStyle(width: 4, join: join))
        let grid = exactCoverage(outline, width: 100, height: 100)
        // Every pixel along the ring's centre line is fully covered, including the corners.
        // Round and bevel joins leave the outer corner pixels partly empty, by design.
        let span = join == .miter ? 18..<82 : 20..<80
        for t in span {
            let cells: [(Int, Int)] = [(t, 19), (t, 20), (19, t), (20, t), (t, 79), (79, t)]
            for (x, y) in cells {
                #expect(grid[y * 100 + x] == 1, "join \(join) pixel \(x),\(y)")
            }
        }
        // The hole stays empty.
        #expect(grid[50 * 100 + 50] == 0)
        if join == .miter {
            let ring: Double = 64 * 64 - 56 * 56
            #expect(abs(grid.reduce(0, +) - ring) < 1e-6)
        }
    }

    @Test func singlePointContourDrawsADotForRoundAndSquareCaps() {
        var p = Path()
        p.move(to: PixelPoint(x: 50.5, y: 50.5))
        #expect(Stroker.stroke(p, style: StrokeStyle(width: 10, cap: .butt)).isEmpty)
        #expect(abs(strokedArea(p, StrokeStyle(width: 10, cap: .square)) - 100) < 1e-9)
        let disc = strokedArea(p, StrokeStyle(width: 10, cap: .round))
        #expect(abs(disc - Double.pi * 25) < 2 * Double.pi * 5 * Path.flatteningTolerance)
        // A contour whose points all coincide is a dot too.
        let same = polygon([(10, 10), (10, 10 + 1e-9), (10, 10)], closed: false)
        #expect(abs(strokedArea(same, StrokeStyle(width: 4, cap: .square)) - 16) < 1e-9)
    }

    @Test func nearDuplicatePointsAreSkipped() {
        let p = polygon([(10, 40), (60, 40), (60 + 1e-9, 40), (60, 40 + 1e-10), (110, 40)], closed: false)
        let outline = Stroker.stroke(p, style: StrokeStyle(width: 4, join: .miter))
        #expect(outline.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        #expect(abs(coveredArea(outline, width: 128, height: 64) - 400) < 1e-6)
    }

    @Test func translucentStrokeDoesNotDoubleBlendWhereItCrossesItself() {
        let c = Canvas(width: 100, height: 100)
        let p = polygon([(10, 10), (90, 90), (90, 10), (10, 90)], closed: false)
        c.stroke(p, style: StrokeStyle(width: 8, join: .round), color: Color(rgba: 0xFF000080))
        let crossing = c.color(atX: 50, y: 50)
        let body = c.color(atX: 30, y: 30)
        #expect(crossing.alpha == 128)
        #expect(crossing == body)
        // The tight corner at (90, 90) overlaps itself too.
        #expect(c.color(atX: 88, y: 86).alpha == 128)
    }

    @Test func widthZeroOrInvalidStrokesNothing() {
        let p = polygon([(1, 1), (50, 50)], closed: false)
        for w in [0.0, -3, .nan, .infinity] {
            #expect(Stroker.stroke(p, style: StrokeStyle(width: w)).isEmpty)
        }
    }
}

@Suite struct PathCurveTests {
    /// Fuzzing found these: a curve whose control points are finite but so far away that the
    /// segment estimate overflows Int (or becomes ∞ − ∞ = NaN) trapped instead of flattening.
    @Test(arguments: [1e300, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude])
    func farControlPointsFlattenWithoutTrapping(_ far: Double) {
        var path = Path()
        path.move(to: PixelPoint(x: 0, y: 0))
        path.quad(to: PixelPoint(x: 10, y: 10), control: PixelPoint(x: far, y: 5))
        path.cubic(to: PixelPoint(x: 20, y: 0), control1: PixelPoint(x: far, y: -far), control2: PixelPoint(x: 5, y: far))
        #expect(path.contours.count == 1)
        #expect(path.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        #expect(path.points.count <= 1 + 100 + 100)
        let canvas = Canvas(width: 16, height: 16)
        canvas.fill(path, color: .black)
        canvas.stroke(path, style: StrokeStyle(width: 2), color: .black)
    }

    /// Non-finite points never enter a path (the rasterizer's clamp would let NaN through):
    /// the contour keeps its finite points and the fill stays on the canvas.
    @Test func nonFinitePointsAreDropped() {
        var path = Path()
        path.move(to: PixelPoint(x: 1, y: 1))
        path.line(to: PixelPoint(x: .nan, y: 3))
        path.line(to: PixelPoint(x: 6, y: .infinity))
        path.close()
        path.addRect(PixelRect(minX: 8, minY: 8, maxX: 12, maxY: 12))
        let canvas = Canvas(width: 16, height: 16)
        canvas.fill(path, color: .black)
        #expect(path.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        #expect(canvas.color(atX: 10, y: 10) == .black)
        #expect(canvas.color(atX: 3, y: 3).alpha == 0)
        canvas.stroke(path, style: StrokeStyle(width: 2), color: .black)
    }

    /// Fuzzing found this: a segment rising a denormal height across a long run has an infinite
    /// slope, which made NaN positions. It adds no coverage.
    @Test func nearlyHorizontalSegmentWithInfiniteSlopeIsIgnored() {
        var path = Path()
        path.move(to: PixelPoint(x: -1e15, y: 0))
        path.line(to: PixelPoint(x: 1e15, y: .leastNonzeroMagnitude))
        path.line(to: PixelPoint(x: 8, y: 12))
        path.close()
        let canvas = Canvas(width: 16, height: 16)
        canvas.fill(path, color: .black)
        canvas.stroke(path, style: StrokeStyle(width: 2), color: .black)
        #expect(canvas.color(atX: 8, y: 8).alpha > 0)
    }
}
