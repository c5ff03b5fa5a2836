import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// Big fills are rasterised in bands of rows on several threads; the pixels must be the
/// bytes a single sweep gives, for any banding.
@Suite struct BandedFillTests {
    /// A random star-like polygon with many edges, some outside the canvas, plus a stroke.
    static func randomPath(_ rng: inout SeededGenerator, width: Double, height: Double, points: Int) -> Path {
        var path = Path()
        for c in 0..<3 {
            let cx = Double.random(in: -20...(width + 20), using: &rng)
            let cy = Double.random(in: -20...(height + 20), using: &rng)
            for i in 0..<points {
                let a = Double(i) / Double(points) * 2 * .pi
                let r = Double.random(in: 5...(max(width, height) * 0.7), using: &rng)
                let p = PixelPoint(x: cx + r * cos(a), y: cy + r * sin(a))
                if i == 0 { path.move(to: p) } else { path.line(to: p) }
            }
            if c != 2 { path.close() }
        }
        return path
    }

    @Test func bandsGiveTheBytesOfOneSweep() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("BandedFillTests seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        let w = 301, h = 257
        for rule in [FillRule.nonZero, .evenOdd] {
            let path = Self.randomPath(&rng, width: Double(w), height: Double(h), points: 400)
            var whole = [UInt8](repeating: 0, count: w * h)
            Rasterizer().rasterize(path, width: w, height: h, rule: rule) { y, x0, cov in
                for (i, c) in cov.enumerated() { whole[y * w + x0 + i] = c }
            }
            for cuts in [[0, h], [0, 1, h], [0, 100, 101, 256, h], [0, 37, 80, 200, h]] {
                var banded = [UInt8](repeating: 0, count: w * h)
                let r = Rasterizer()  // one rasterizer reused across bands, as a thread would
                for k in 0..<(cuts.count - 1) {
                    r.rasterize(path, width: w, height: h, rows: cuts[k]..<cuts[k + 1], rule: rule) { y, x0, cov in
                        #expect(y >= cuts[k] && y < cuts[k + 1])
                        for (i, c) in cov.enumerated() { banded[y * w + x0 + i] = c }
                    }
                }
                #expect(banded == whole, "seed \(seed), \(rule), bands \(cuts)")
            }
        }
    }

    @Test func threadedFillsAndStrokesGiveTheSameCanvas() {
        var rng = SeededGenerator(seed: 20261201)
        let w = 900, h = 700
        func draw(threads: Int) -> [UInt8] {
            var local = SeededGenerator(seed: 7)
            let canvas = Canvas(width: w, height: h, fill: .white)
            canvas.maximumThreads = threads
            for i in 0..<6 {
                let path = Self.randomPath(&local, width: Double(w), height: Double(h), points: 300)
                canvas.fill(path, color: Color(rgba: 0x1A73E880 &+ UInt32(i) << 20), rule: i % 2 == 0 ? .nonZero : .evenOdd)
                canvas.stroke(path, style: StrokeStyle(width: 3.5, cap: .round, join: .round, dash: i == 3 ? [9, 4] : []),
                              color: Color(rgba: 0x202124C0))
            }
            return canvas.pixels
        }
        _ = rng.next()
        let one = draw(threads: 1)
        #expect(Canvas.bands(for: Self.randomPath(&rng, width: Double(w), height: Double(h), points: 300),
                             width: w, height: h, threads: 4).count > 1, "the scene must really be banded")
        for threads in [2, 3, 8] {
            let many = draw(threads: threads)
            #expect(many == one, "\(threads) threads changed the pixels")
        }
    }

    @Test func smallFillsStayOnOneThread() {
        var path = Path()
        path.addRect(PixelRect(x: 10, y: 10, width: 20, height: 20))
        #expect(Canvas.bands(for: path, width: 1000, height: 1000, threads: 8) == [0..<1000])
    }
}
