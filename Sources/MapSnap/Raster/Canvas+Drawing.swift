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
        fill(Canvas.prepareFill(transformed(path, asAreas: true), rule: rule, width: width, height: height, threads: maximumThreads), color: color)
    }

    /// `path` carried by `mapTransform` (as it is without one); a projective transform
    /// clips first (`DepthClipper`), `asAreas` for fills, else as lines.
    func transformed(_ path: Path, asAreas: Bool = false) -> Path {
        guard let t = mapTransform else { return path }
        guard t.isAffine else { return DepthClipper.transform(path, by: t, minimumDepth: mapMinimumDepth, asAreas: asAreas) }
        return path.mapPoints(t.apply)
    }

    /// The edge table and bands `fill(_:color:rule:)` sweeps for `path` on a `width` ×
    /// `height` canvas drawn with `threads` threads: a pure function of its arguments, so it
    /// can be made on another thread, ahead of drawing (see `PreparedFill`).
    static func prepareFill(_ path: Path, rule: FillRule, width: Int, height: Int, threads: Int) -> PreparedFill {
        let table = Rasterizer.withPooled { $0.prepare(path, width: width, height: height) }
        return PreparedFill(table: table, bands: bands(for: path, width: width, height: height, threads: threads),
                            rule: rule, width: width, height: height)
    }

    /// Fills what `prepareFill` made for this canvas's size with `color`: exactly the bytes
    /// `fill(_:color:rule:)` gives the path.
    func fill(_ prepared: PreparedFill, color: Color) {
        guard color.alpha > 0, !prepared.table.isEmpty else { return }
        precondition(prepared.width == width && prepared.height == height, "fill prepared for another canvas size")
        let src = Canvas.premultiply(color)
        let w = width, h = height
        pixels.withUnsafeMutableBufferPointer { px in
            let target = PixelRows(base: px.baseAddress, width: w)
            // Every band sweeps the same table.
            let sweep = { @Sendable (rows: Range<Int>) in
                Rasterizer.withPooled { rasterizer in
                    rasterizer.rasterizeRuns(prepared.table, width: w, height: h, rows: rows, rule: prepared.rule,
                                             span: { y, x0, coverage in
                        target.blend(y: y, x0: x0, coverage: coverage, src: src)
                    }, run: { y, x0, x1, coverage in
                        target.blendRun(y: y, x0: x0, x1: x1, coverage: coverage, src: src)
                    })
                }
            }
            let bands = prepared.bands
            if deadline.instant != nil {
                // With a deadline, each band is swept in slices of rows with a check before
                // each, so one huge fill cannot outlast it. A row's coverage does not depend
                // on the slicing (see `Rasterizer`): a fill that finishes has the same bytes.
                let check = { @Sendable [self] in self.drawingDeadlinePassed() }
                let sliced = { @Sendable (rows: Range<Int>) in
                    for start in stride(from: rows.lowerBound, to: rows.upperBound, by: Canvas.deadlineSliceRows) {
                        if check() { return }
                        sweep(start..<min(start + Canvas.deadlineSliceRows, rows.upperBound))
                    }
                }
                if bands.count == 1 {
                    sliced(bands[0])
                } else {
                    DispatchQueue.concurrentPerform(iterations: bands.count) { sliced(bands[$0]) }
                }
            } else if bands.count == 1 {
                sweep(bands[0])
            } else {
                DispatchQueue.concurrentPerform(iterations: bands.count) { sweep(bands[$0]) }
            }
        }
    }

    /// Rows a fill sweeps between two looks at the canvas's deadline: a few milliseconds
    /// of the costliest fill (a many-edged outline across the canvas), and few enough slices
    /// that re-finding the edges at each slice's top costs nothing measurable.
    static let deadlineSliceRows = 256

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
        // Turned before stroking: a rotation keeps widths and dash lengths.
        guard let outline = Canvas.strokeOutline(transformed(path), style: style, width: width, height: height,
                                                 dashBudget: &remainingDashes) else { return }
        fill(Canvas.prepareFill(outline, rule: .nonZero, width: width, height: height, threads: maximumThreads), color: color)
    }

    /// The fill polygon `stroke` draws on a `width`×`height` canvas, or nil if nothing shows.
    static func strokeOutline(_ path: Path, style: StrokeStyle, width: Int, height: Int) -> Path? {
        var budget = Dasher.maxDashCount
        return strokeOutline(path, style: style, width: width, height: height, dashBudget: &budget)
    }

    /// The fill `stroke` makes of an undashed `style` on a `width` × `height` canvas drawn
    /// with `threads` threads, for `fill(_:color:)`; nil when nothing shows. Undashed only:
    /// dashes draw from the canvas's budget, so a dashed stroke is made when it is drawn.
    static func prepareStroke(_ path: Path, style: StrokeStyle, width: Int, height: Int, threads: Int) -> PreparedFill? {
        precondition(style.dash.isEmpty, "dashed strokes take dashes from the canvas's budget when drawn")
        guard style.width.isFinite, style.width > 0,
              let outline = strokeOutline(path, style: style, width: width, height: height) else { return nil }
        return prepareFill(outline, rule: .nonZero, width: width, height: height, threads: threads)
    }

    /// `strokeOutline`, taking its dashes from `dashBudget`.
    static func strokeOutline(_ path: Path, style: StrokeStyle, width: Int, height: Int, dashBudget: inout Int) -> Path? {
        let reach = style.reach
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

/// A fill made ahead of drawing: the path's edge table for one canvas size and the bands of
/// rows its sweep is split into. Making it is the costly half of a big fill (a long route's
/// outline and edges), and it needs no pixels, so a render makes it on another thread while
/// the base map is drawn; `Canvas.fill(_:color:)` then sweeps it — the bytes are those of
/// `Canvas.fill(_:color:rule:)`.
struct PreparedFill: Sendable {
    fileprivate let table: Rasterizer.EdgeTable
    fileprivate let bands: [Range<Int>]
    fileprivate let rule: FillRule
    fileprivate let width: Int
    fileprivate let height: Int
}
