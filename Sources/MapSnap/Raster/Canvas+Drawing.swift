import Dispatch
import Foundation

extension Canvas {
    /// Fills `path` (every contour implicitly closed) with anti-aliased exact-area coverage.
    ///
    /// Big fills are split into bands of rows rasterised on separate threads from one edge
    /// table. Each row's coverage does not depend on the banding (see `Rasterizer`), and
    /// bands write disjoint rows, so the result is byte-identical whatever the number of threads.
    func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        guard color.alpha > 0, !path.isEmpty else { return }
        let bands = Canvas.bands(for: path, width: width, height: height, threads: maximumThreads)
        let src = Canvas.premultiply(color)
        let w = width, h = height
        pixels.withUnsafeMutableBufferPointer { px in
            let target = PixelRows(base: px.baseAddress, width: w)
            Rasterizer.withPooled { builder in
                // The edges are built once; every band sweeps the same table.
                let table = builder.prepare(path, width: w, height: h)
                let sweep = { @Sendable (rasterizer: Rasterizer, rows: Range<Int>) in
                    rasterizer.rasterizeRuns(table, width: w, height: h, rows: rows, rule: rule, span: { y, x0, coverage in
                        target.blend(y: y, x0: x0, coverage: coverage, src: src)
                    }, run: { y, x0, x1, coverage in
                        target.blendRun(y: y, x0: x0, x1: x1, coverage: coverage, src: src)
                    })
                }
                if bands.count == 1 {
                    sweep(builder, bands[0])
                } else {
                    DispatchQueue.concurrentPerform(iterations: bands.count) { b in
                        Rasterizer.withPooled { sweep($0, bands[b]) }
                    }
                }
            }
        }
    }

    /// Row ranges to rasterise `path` in: one for small fills (a thread costs more than it
    /// saves), else the rows the path spans cut into equal bands, one per thread.
    static func bands(for path: Path, width: Int, height: Int, threads: Int) -> [Range<Int>] {
        var minY = Double.infinity, maxY = -Double.infinity
        for p in path.points {
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let top = Int(max(0, min(Double(height), minY.rounded(.down))))
        let bottom = Int(max(0, min(Double(height), maxY.rounded(.up) + 1)))
        let rows = bottom - top
        // Work grows with the rows swept and the edges met; below this a fill takes tens of
        // microseconds, about what handing work to another thread costs.
        let work = rows * min(width, 256) + path.points.count * 16
        let count = max(1, min(threads, rows / 32, work / 65_536))
        guard count > 1 else { return [0..<height] }
        return (0..<count).map { i in (top + rows * i / count)..<(top + rows * (i + 1) / count) }
    }

    /// Strokes `path`: clip to the canvas (plus the stroke's reach), dash, simplify to the
    /// pixel grid, outline, and fill the outline non-zero in one pass so that a translucent
    /// stroke never blends twice where it overlaps itself.
    ///
    /// Dashes come from the canvas's budget (`Dasher.maxDashesPerCanvas`): once it is spent,
    /// dashed strokes are drawn solid.
    /// A pattern finer than a pixel (`Dasher.minimumPeriod`) is drawn as a solid line faded
    /// to the share of the line its dashes would have covered.
    func stroke(_ path: Path, style: StrokeStyle, color: Color) {
        guard color.alpha > 0, style.width.isFinite, style.width > 0 else { return }
        var style = style, color = color
        if let coverage = Dasher.subpixelCoverage(style.dash, capLength: style.cap == .butt ? 0 : style.width) {
            style.dash = []
            color = color.withOpacity(coverage)
            guard color.alpha > 0 else { return }
        }
        Canvas.strokeOutline(path, style: style, width: width, height: height, dashBudget: &remainingDashes)
            .map { fill($0, color: color, rule: .nonZero) }
    }

    /// The fill polygon `stroke` draws on a `width`×`height` canvas, or nil if nothing shows.
    static func strokeOutline(_ path: Path, style: StrokeStyle, width: Int, height: Int) -> Path? {
        var budget = Dasher.maxDashCount
        return strokeOutline(path, style: style, width: width, height: height, dashBudget: &budget)
    }

    /// `strokeOutline`, taking its dashes from `dashBudget`.
    static func strokeOutline(_ path: Path, style: StrokeStyle, width: Int, height: Int, dashBudget: inout Int) -> Path? {
        let radius = style.width / 2
        // Farthest an outline point can be from its vertex: a miter tip (r · limit), a square
        // cap corner (r · √2), or a round join/cap (r). One extra pixel keeps anti-aliasing.
        let limit = style.miterLimit.isFinite ? max(style.miterLimit, 1) : 4
        let reach = radius * max(limit, 1.5) + 2
        let rect = PixelRect(minX: -reach, minY: -reach,
                             maxX: Double(width) + reach, maxY: Double(height) + reach)
        let clipped = LineClipper.clip(path, to: rect)
        guard !clipped.path.isEmpty else { return nil }
        // A dash costs what its caps cost (`StrokeStyle.dashCost`).
        let cost = style.dashCost
        let available = max(0, dashBudget) / cost
        var left = available
        let dashed = Dasher.dash(clipped.path, pattern: style.dash, phase: style.dashPhase,
                                 startDistances: clipped.startDistances, budget: &left)
        dashBudget -= (available - left) * cost
        let simple = Simplifier.simplify(dashed)
        let outline = Stroker.outline(simple, style: style)
        return outline.isEmpty ? nil : outline
    }
}
