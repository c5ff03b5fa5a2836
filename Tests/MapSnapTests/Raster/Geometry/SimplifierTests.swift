import MapSnapTesting
import Testing
@testable import MapSnap

@Suite struct SimplifierTests {
    private func maxDeviation(_ original: [PixelPoint], _ simple: [PixelPoint]) -> Double {
        var worst = 0.0
        for p in original {
            var best = Double.infinity
            for (a, b) in zip(simple, simple.dropFirst()) {
                best = min(best, Simplifier.distanceSquared(p, a, b).squareRoot())
            }
            if simple.count == 1 { best = (p - simple[0]).length }
            worst = max(worst, best)
        }
        return worst
    }

    @Test(arguments: [0.25, 1.0, 3.0])
    func randomWalkStaysWithinToleranceAndKeepsEndpoints(_ tolerance: Double) {
        let seed: UInt64 = 0x5EED_0001
        print("SimplifierTests random walk seed: \(seed)")
        var rng = SeededGenerator(seed: seed)
        var p = Path()
        var pt = PixelPoint(x: 100, y: 100)
        var pts: [PixelPoint] = []
        for _ in 0..<700 {
            pts.append(pt)
            pt = pt + PixelPoint(x: Double.random(in: -0.6...1.0, using: &rng), y: Double.random(in: -0.8...0.8, using: &rng))
        }
        for (i, q) in pts.enumerated() { if i == 0 { p.move(to: q) } else { p.line(to: q) } }
        let s = Simplifier.simplify(p, tolerance: tolerance)
        #expect(s.contours.count == 1)
        #expect(s.points.first == pts.first && s.points.last == pts.last)
        #expect(s.points.count < (tolerance >= 1 ? pts.count / 2 : pts.count))
        #expect(maxDeviation(pts, s.points) <= tolerance + 1e-9)
    }

    /// The streaming radial pass keeps exactly the points of the whole-array definition:
    /// the first, every middle point farther than the tolerance from the last kept one, and
    /// the last (dropping the kept point before it when that is within the tolerance).
    @Test func radialThinnerMatchesTheWholeArrayDefinition() {
        func reference(_ pts: [PixelPoint], _ tolerance: Double) -> [PixelPoint] {
            guard let first = pts.first, let last = pts.last else { return [] }
            var out = [first]
            for p in pts.dropFirst().dropLast() where (p - out[out.count - 1]).length > tolerance { out.append(p) }
            if pts.count > 1 {
                if out.count > 1, (last - out[out.count - 1]).length <= tolerance { out.removeLast() }
                out.append(last)
            }
            return out
        }
        var rng = SeededGenerator(seed: 0x5EED_0002)
        for n in [0, 1, 2, 3, 4, 10, 500] {
            var pts: [PixelPoint] = []
            var pt = PixelPoint(x: 0, y: 0)
            for i in 0..<n {
                pts.append(pt)
                if i % 5 == 4 { continue }   // exact repeats
                pt = pt + PixelPoint(x: Double.random(in: -0.2...0.3, using: &rng), y: Double.random(in: -0.2...0.2, using: &rng))
            }
            var thinner = Simplifier.RadialThinner(tolerance: 0.125)
            var streamed: [PixelPoint] = []
            for p in pts { thinner.add(p, to: &streamed) }
            thinner.finish(&streamed)
            #expect(streamed == reference(pts, 0.125), "n = \(n)")
            var whole: [PixelPoint] = [PixelPoint(x: 9, y: 9)]   // replaced, not appended to
            Simplifier.radialPass(pts[...], tolerance: 0.125, into: &whole)
            #expect(whole == streamed, "n = \(n)")
        }
    }

    @Test func collinearPointsCollapse() {
        let pts = (0...1000).map { (Double($0) * 0.1, Double($0) * 0.05) }
        let s = Simplifier.simplify(polygon(pts, closed: false))
        #expect(s.points == [PixelPoint(x: 0, y: 0), PixelPoint(x: 100, y: 50)])
    }

    @Test func backtrackingSpikeIsKept() {
        // Distance to the segment, not the line: overshooting and coming back survives.
        let s = Simplifier.simplify(polygon([(0, 0), (100, 0), (50, 0)], closed: false))
        #expect(s.points.count == 3)
    }

    @Test func closedAndTinyContoursSurvive() {
        let sq = Simplifier.simplify(polygon([(0, 0), (10, 0), (10, 10), (0, 10)]))
        #expect(sq.contours.count == 1 && sq.contours[0].isClosed && sq.points.count == 4)
        var dot = Path()
        dot.move(to: PixelPoint(x: 3, y: 4))
        #expect(Simplifier.simplify(dot).points == [PixelPoint(x: 3, y: 4)])
    }

    @Test func millionPointRouteStrokes() {
        // Not a timing assertion: it must complete and produce a sane outline.
        var p = Path()
        p.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let t = Double(i) / 1_000_000
            p.line(to: PixelPoint(x: 10 + 480 * t, y: 250 + 200 * sin(t * 40)))
        }
        let c = Canvas(width: 500, height: 500)
        c.stroke(p, style: StrokeStyle(width: 3, cap: .round, join: .round), color: .black)
        #expect(c.color(atX: 10, y: 250).alpha > 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
