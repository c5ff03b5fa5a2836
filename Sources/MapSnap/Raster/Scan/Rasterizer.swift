/// Turns a `Path` into exact-area anti-aliased coverage, one scanline at a time.
///
/// ## Coverage model
///
/// After stb_truetype's v2 rasterizer and font-rs: every edge deposits, in the cells it
/// crosses, the *difference* between the coverage it gives to that pixel and to the pixel on
/// its left; a prefix sum along the row then yields, for every pixel, the integral of the
/// winding number over the pixel's unit square.
///
/// ```
///   cell:    c0        c0+1       c0+2
///          +---------+---------+---------+      An edge piece inside one row, from
///   row y  |    a   /|         |         |      (xa, y) to (xb, y+1), signed height d
///          |      /  |         |         |      (+ going down, - going up).
///          |    /    |         |         |      Pixel c0 receives d × (area right of the
///          |  /   b  |         |         |      edge inside c0) = d × b; every pixel to
///          +/--------+---------+---------+      the right receives the full d.
///   acc:     += d·b   += d − d·b  (nothing: the prefix sum carries d onwards)
/// ```
///
/// For an edge that spans several cells the per-cell share is the exact area of the trapezoid
/// under the edge (closed form `R(s)` below), so the model is exact for any number of
/// non-crossing edges in a pixel: no supersampling, no gamma, no approximation.
///
/// ## Limits, written down
///
/// The prefix sum gives `∫ winding dA` over a pixel, not the area where the fill rule holds.
/// `FillRule.coverage` maps that number back: non-zero clamps `|∫|` to 1, even-odd folds it
/// with period 2. Both are exact when the winding inside a pixel takes only two adjacent
/// values (k and k+1) — always true away from vertices, and true for strokes (whose pieces all
/// wind the same way). They are approximate only in a pixel that contains two edges whose
/// windings add up (coincident edges, or a pixel holding a vertex where windings 0, 1 and 2
/// meet): there a 50 % pixel between windings 0 and 2 reads as 100 % non-zero / 0 % even-odd.
/// FreeType's gray rasterizer and Skia's analytic AA have the same limit.
///
/// ## Clipping and cost
///
/// Each segment is clipped to the canvas before any per-row work: parts above or below are
/// dropped, parts right of the canvas are dropped (they only affect pixels further right),
/// and parts left of it become a vertical edge on x = 0 (keeping the winding they give to the
/// canvas). Work is therefore O(rows × cells crossed inside the canvas) whatever the
/// coordinates; 1e9 costs the same as 10. Coordinates are clamped to ±2^50 first so that
/// differences of extreme values cannot overflow to infinity.
///
/// The object keeps its edge list and row buffers between calls; reuse one per thread.
final class Rasterizer {
    /// An edge piece clipped to the canvas, stored top to bottom.
    struct Edge {
        var xTop, yTop, yBottom: Double
        /// dx/dy; 0 for vertical edges.
        var slope: Double
        /// +1 when the original segment went down (y increasing), −1 when it went up.
        var direction: Double
    }

    /// A path's edges clipped to the canvas and sorted by first row: built once per fill
    /// and read (never changed) by every band that sweeps it, on any thread.
    struct EdgeTable: Sendable {
        fileprivate(set) var edges: [Edge] = []
        /// `order[rowStart[r]..<rowStart[r + 1]]` lists the edges starting in row r.
        fileprivate(set) var rowStart: [Int] = []
        fileprivate(set) var order: [Int] = []

        var isEmpty: Bool { edges.isEmpty }
    }

    /// The table of the last path prepared here (its buffers reused from fill to fill).
    private var table = EdgeTable()
    /// The buffer `bucketEdges` copies the edges into, kept from fill to fill.
    private var spareEdges: [Edge] = []
    private var active: [Int] = []
    private var accumulation: [Double] = []
    /// Cell runs written in the current row.
    private var touched: [ClosedRange<Int>] = []
    /// One bit per cell, for putting many runs in order (all zero between rows).
    private var runBits: [UInt64] = []
    private var bytes: [UInt8] = []

    /// Coordinates beyond this magnitude are clamped before clipping (see type docs).
    static let coordinateLimit = 1125899906842624.0 // 2^50

    init() {}

    /// Idle rasterizers: fills borrow one instead of growing new edge lists and row buffers
    /// (in a batch or server most fills would otherwise allocate and page in fresh memory).
    /// A rasterizer's state never reaches its output (`scan` clears what it uses), so
    /// which one a fill gets changes no byte.
    private static let idle = Locked<[Rasterizer]>([])
    /// At most this many idle rasterizers are kept (more threads than this rarely fill at once).
    private static let idleLimit = 16
    /// A rasterizer that grew more edges than this (2.5 MB) after a huge path is dropped
    /// rather than kept idle, so the pool holds little memory between renders.
    private static let idleEdgeCapacityLimit = 65_536
    /// Largest edge table `bucketEdges` puts in row order (a 10,000-point route has ~50,000
    /// edges); at most this many edges are kept in a pooled rasterizer's spare buffer.
    static let reorderLimit = 65_536

    /// Runs `body` with an idle rasterizer (or a new one), then keeps it for the next fill.
    static func withPooled<R>(_ body: (Rasterizer) throws -> R) rethrows -> R {
        let rasterizer = idle.withLock { $0.popLast() } ?? Rasterizer()
        defer {
            if max(rasterizer.table.edges.capacity, rasterizer.spareEdges.capacity) <= idleEdgeCapacityLimit {
                idle.withLock { if $0.count < idleLimit { $0.append(rasterizer) } }
            }
        }
        return try body(rasterizer)
    }

    /// Fills `path` onto `canvas` with `color` (all contours implicitly closed).
    func fill(_ path: Path, color: Color, rule: FillRule = .nonZero, on canvas: Canvas) {
        guard color.alpha > 0 else { return }
        rasterize(path, width: canvas.width, height: canvas.height, rule: rule) { y, x0, coverage in
            canvas.blendCoverage(y: y, x0: x0, coverage: coverage, color: color)
        }
    }

    /// Calls `span` once per non-empty row with 8-bit coverage starting at column `x0`.
    ///
    /// Rows arrive top to bottom; the buffer is only valid during the call.
    func rasterize(_ path: Path, width: Int, height: Int, rule: FillRule,
                          span: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<UInt8>) -> Void) {
        rasterize(path, width: width, height: height, rows: 0..<height, rule: rule, span: span)
    }

    /// Like `rasterize(_:width:height:rule:span:)` for the rows in `rows` only. Every row's
    /// coverage is exactly what the whole-canvas call gives it (edges are built and ordered
    /// the same way; only the rows swept differ), so bands of one path can be rasterised
    /// on different threads with byte-identical results.
    func rasterize(_ path: Path, width: Int, height: Int, rows: Range<Int>, rule: FillRule,
                   span: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<UInt8>) -> Void) {
        guard width > 0, height > 0 else { return }
        rasterizeRuns(path, width: width, height: height, rows: rows, rule: rule, span: span) { y, x0, x1, coverage in
            // A run of one coverage, handed on as a buffer like any other span.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: x1 - x0) { b in
                b.initialize(repeating: coverage)
                span(y, x0, UnsafeBufferPointer(b))
            }
        }
    }

    /// Rasterises the rows in `rows`, handing varying coverage to `span` and runs of one
    /// coverage (a shape's inside, typically) to `run(y, x0, x1, coverage)`, where painting
    /// can be quicker. Together the calls give each pixel exactly the bytes `rasterize` does.
    func rasterizeRuns(_ path: Path, width: Int, height: Int, rows: Range<Int>, rule: FillRule,
                       span: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<UInt8>) -> Void,
                       run: (_ y: Int, _ x0: Int, _ x1: Int, _ coverage: UInt8) -> Void) {
        guard width > 0, height > 0 else { return }
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let table = prepare(path, width: width, height: height)
        rasterizeRuns(table, width: width, height: height, rows: rows, rule: rule, span: span, run: run)
    }

    /// The edge table of `path` on a `width` × `height` canvas, for `rasterizeRuns(_:…)` on
    /// several threads at once: each band of rows then sweeps the same table instead of
    /// building its own (the same edges in the same order, so the same bytes).
    func prepare(_ path: Path, width: Int, height: Int) -> EdgeTable {
        guard width > 0, height > 0 else { return EdgeTable() }
        buildEdges(path, width: Double(width), height: Double(height))
        if !table.edges.isEmpty { bucketEdges(height: height) }
        return table
    }

    /// `rasterizeRuns` for the rows in `rows` of a table `prepare` made for this canvas size.
    func rasterizeRuns(_ table: EdgeTable, width: Int, height: Int, rows: Range<Int>, rule: FillRule,
                       span: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<UInt8>) -> Void,
                       run: (_ y: Int, _ x0: Int, _ x1: Int, _ coverage: UInt8) -> Void) {
        guard width > 0, height > 0, !table.isEmpty, table.rowStart.count == height + 2 else { return }
        if bytes.count < width + 2 { bytes = [UInt8](repeating: 0, count: width + 2) }
        var out = bytes
        bytes = []
        defer { bytes = out }
        out.withUnsafeMutableBufferPointer { b in
            sweep(table, width: width, height: height, rows: rows, rule: rule) { y, lo, end, constant, cov in
                if let constant {
                    let byte = UInt8(constant * 255 + 0.5)
                    if byte > 0 { run(y, lo, end, byte) }
                } else {
                    for c in lo..<end { b[c] = UInt8(cov[c] * 255 + 0.5) }
                    span(y, lo, UnsafeBufferPointer(rebasing: b[lo..<end]))
                }
            }
        }
    }

    /// Exact coverage (0…1) per pixel, for tests and callers that want more than 8 bits.
    func rasterizeExact(_ path: Path, width: Int, height: Int, rule: FillRule,
                        span: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Double>) -> Void) {
        guard width > 0, height > 0 else { return }
        let table = prepare(path, width: width, height: height)
        sweep(table, width: width, height: height, rows: 0..<height, rule: rule) { y, lo, end, constant, cov in
            if let constant {
                for c in lo..<end { cov[c] = constant }
                span(y, lo, UnsafeBufferPointer(rebasing: cov[lo..<end]))
                for c in lo..<end { cov[c] = 0 }
            } else {
                span(y, lo, UnsafeBufferPointer(rebasing: cov[lo..<end]))
            }
        }
    }

    // MARK: - Core

    /// Sweeps the rows of a prepared table. `row(y, lo, end, constant, cov)` sees either one
    /// coverage for all of `lo..<end` (`constant`, `cov` untouched), or coverage in
    /// `cov[lo..<end]`.
    private func sweep(_ table: EdgeTable, width: Int, height: Int, rows: Range<Int>, rule: FillRule,
                       row: (Int, Int, Int, Double?, UnsafeMutableBufferPointer<Double>) -> Void) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty, !table.isEmpty else { return }
        if accumulation.count < width + 2 {
            accumulation = [Double](repeating: 0, count: width + 2)
        }
        if runBits.count < (width + 2 + 63) / 64 {
            runBits = [UInt64](repeating: 0, count: (width + 2 + 63) / 64)
        }
        let w = Double(width)
        // The buffers are taken out of the object for the sweep: locals need no exclusivity
        // checks in the loops.
        var acc = accumulation, active = self.active, touched = self.touched, bits = runBits
        let rowStart = table.rowStart, order = table.order
        accumulation = []
        self.active = []
        self.touched = []
        runBits = []
        defer {
            accumulation = acc
            active.removeAll(keepingCapacity: true)
            self.active = active
            self.touched = touched
            runBits = bits
        }
        active.removeAll(keepingCapacity: true)
        table.edges.withUnsafeBufferPointer { edges in
            acc.withUnsafeMutableBufferPointer { acc in
                bits.withUnsafeMutableBufferPointer { allBits in
                    let bits = UnsafeMutableBufferPointer(rebasing: allBits[0..<((width + 2 + 63) / 64)])
                    // Edges that started above the first row and reach into it, in the order a
                    // sweep from row 0 would hold them (bucket order, removals keep order).
                    let first = rows.lowerBound
                    for k in 0..<rowStart[first] where edges[order[k]].yBottom > Double(first) {
                        active.append(order[k])
                    }
                    for y in rows {
                        for k in rowStart[y]..<rowStart[y + 1] { active.append(order[k]) }
                        if active.isEmpty { continue }
                        let top = Double(y), bottom = top + 1
                        touched.removeAll(keepingCapacity: true)
                        var keep = 0
                        for i in 0..<active.count {
                            let e = edges[active[i]]
                            let y0 = max(e.yTop, top), y1 = min(e.yBottom, bottom)
                            if y1 > y0 {
                                let xa = min(max(e.xTop + (y0 - e.yTop) * e.slope, 0), w)
                                let xb = min(max(e.xTop + (y1 - e.yTop) * e.slope, 0), w)
                                touched.append(Rasterizer.accumulate(acc, xa, xb, e.direction * (y1 - y0)))
                            }
                            if e.yBottom > bottom {
                                active[keep] = active[i]
                                keep += 1
                            }
                        }
                        active.removeLast(active.count - keep)
                        if touched.isEmpty { continue }
                        Rasterizer.sweep(acc, runs: &touched, bits: bits, width: width, rule: rule) { lo, end, constant in
                            row(y, lo, end, constant, acc)
                        }
                    }
                }
            }
        }
    }

    /// Turns one row's cell differences into coverage, visiting only what matters.
    ///
    /// The cells edges touched form a few runs (`runs`, merged here); between runs the
    /// winding is constant, so a gap is either empty (skipped) or a solid run of one
    /// coverage. `emit(lo, end, constant)` sees a run of one coverage (`constant`) or
    /// coverage in `acc[lo..<end]`, left to right. Every cell's value is exactly what a
    /// prefix sum over the whole row would give: untouched cells hold 0, and adding 0 leaves
    /// the sum unchanged. `acc` is zero again on return.
    ///
    /// Many runs are put in order through `bits` (one bit per cell of `acc`, all zero on
    /// entry and on return): set each run's bits, read the set stretches back left to right.
    /// That yields the merged runs the sort-and-merge gives (cells that overlap or abut form
    /// one stretch) in linear time; sorting them was a quarter of a long route's sweep.
    private static func sweep(_ acc: UnsafeMutableBufferPointer<Double>, runs touched: inout [ClosedRange<Int>],
                              bits: UnsafeMutableBufferPointer<UInt64>, width: Int, rule: FillRule,
                              emit: (_ lo: Int, _ end: Int, _ constant: Double?) -> Void) {
        if touched.count * 8 > width {
            // So many edges that sorting their runs costs more than walking the row.
            var lo = Int.max, hi = Int.min
            for r in touched { lo = min(lo, r.lowerBound); hi = max(hi, r.upperBound) }
            touched.removeAll(keepingCapacity: true)
            touched.append(lo...hi)
        } else if touched.count > 12 {
            orderRuns(&touched, bits: bits)
        } else {
            touched.withUnsafeMutableBufferPointer { runs in
                // Insertion sort: few runs, often in order already.
                for i in 1..<max(runs.count, 1) {
                    let r = runs[i]
                    var j = i
                    while j > 0, runs[j - 1].lowerBound > r.lowerBound {
                        runs[j] = runs[j - 1]
                        j -= 1
                    }
                    runs[j] = r
                }
            }
        }
        var sum = 0.0
        var next = 0          // first cell not yet accounted for
        var i = 0
        while i < touched.count {
            // Merge runs that overlap or abut.
            let lo = touched[i].lowerBound
            var hi = touched[i].upperBound
            i += 1
            while i < touched.count, touched[i].lowerBound <= hi + 1 {
                hi = max(hi, touched[i].upperBound)
                i += 1
            }
            // The gap before this run: constant coverage.
            let gap = rule.coverage(sum)
            if gap > 0, next < min(lo, width) { emit(next, min(lo, width), gap) }
            // The run itself: prefix sum; cells at or past `width` only carry the sum on.
            let last = min(hi, width - 1)
            if lo <= last {
                switch rule {
                case .nonZero:
                    for c in lo...last {
                        sum += acc[c]
                        acc[c] = FillRule.nonZero.coverage(sum)
                    }
                case .evenOdd:
                    for c in lo...last {
                        sum += acc[c]
                        acc[c] = FillRule.evenOdd.coverage(sum)
                    }
                }
                emit(lo, last + 1, nil)
                for c in lo...last { acc[c] = 0 }
            }
            if hi > last {
                for c in max(lo, last + 1)...hi { sum += acc[c]; acc[c] = 0 }
            }
            next = hi + 1
        }
        // Past the last touched cell the winding is constant; a shape that leaves the
        // canvas on the right keeps covering to the edge.
        let tail = rule.coverage(sum)
        if tail > 0, next < width { emit(next, width, tail) }
    }

    /// Replaces `runs` (cell ranges within `bits`' cells, in any order) by the stretches of
    /// cells they cover, left to right, overlapping and abutting runs merged. `bits` is all
    /// zero on entry and on return.
    static func orderRuns(_ runs: inout [ClosedRange<Int>], bits: UnsafeMutableBufferPointer<UInt64>) {
        for r in runs {
            var c = r.lowerBound
            while c <= r.upperBound {
                let word = c >> 6, first = c & 63
                let last = min(63, r.upperBound - (word << 6))
                let span = last - first + 1
                bits[word] |= (span == 64 ? ~0 : ((1 << UInt64(span)) - 1)) << UInt64(first)
                c = (word << 6) + last + 1
            }
        }
        runs.removeAll(keepingCapacity: true)
        var start = -1
        for w in 0..<bits.count {
            var word = bits[w]
            if word == 0 && start < 0 { continue }
            bits[w] = 0
            let base = w << 6
            while true {
                if start < 0 {
                    if word == 0 { break }
                    let zeros = word.trailingZeroBitCount
                    start = base + zeros
                    word |= (1 << UInt64(zeros)) - 1    // cells before the stretch count as set
                }
                let end = (~word).trailingZeroBitCount  // first clear cell (64: none here)
                if end == 64 { break }                  // the stretch goes on into the next word
                runs.append(start...(base + end - 1))
                start = -1
                word &= ~0 << UInt64(end)               // drop the stretch just read
            }
        }
        if start >= 0 { runs.append(start...(bits.count * 64 - 1)) }
    }

    /// `∫₀ˢ clamp(t, 0, 1) dt`: the area of a unit pixel column left of an edge at depth `s`.
    @inline(__always)
    private static func ramp(_ s: Double) -> Double {
        s <= 0 ? 0 : (s < 1 ? 0.5 * s * s : s - 0.5)
    }

    /// Deposits one edge piece that stays within a row (x in 0…width, signed height `d`);
    /// returns the cells it wrote.
    @inline(__always)
    private static func accumulate(_ acc: UnsafeMutableBufferPointer<Double>, _ xa: Double, _ xb: Double,
                                   _ d: Double) -> ClosedRange<Int> {
        let x0 = min(xa, xb), x1 = max(xa, xb)
        let c0 = Int(x0)
        if x1 <= Double(c0 + 1) || x1 - x0 < 1e-9 {
            // Inside one cell: the covered part of pixel c0 is right of the mean x.
            let share = d * (Double(c0 + 1) - 0.5 * (x0 + x1))
            acc[c0] += share
            acc[c0 + 1] += d - share
            return c0...(c0 + 1)
        }
        // Across cells: coverage of pixel c is the mean over the piece's x-extent of the
        // part of [c, c+1] right of the edge, i.e. (R(c+1−x0) − R(c+1−x1)) / (x1 − x0).
        let c1 = Int(x1.rounded(.up))
        let inv = 1 / (x1 - x0)
        var previous = 0.0
        for c in c0..<c1 {
            let u = Double(c + 1)
            let f = (ramp(u - x0) - ramp(u - x1)) * inv
            acc[c] += d * (f - previous)
            previous = f
        }
        acc[c1] += d * (1 - previous)
        return c0...c1
    }

    // MARK: - Edges

    private func buildEdges(_ path: Path, width: Double, height: Double) {
        // Built in a local array: appending to a stored property would check exclusivity
        // on every edge.
        var edges = table.edges
        table.edges = []
        defer { table.edges = edges }
        edges.removeAll(keepingCapacity: true)
        // About one edge per point: sized once instead of regrown (and re-faulted) for a
        // big outline.
        edges.reserveCapacity(path.points.count)
        let lim = Rasterizer.coordinateLimit
        path.points.withUnsafeBufferPointer { pts in
            for contour in path.contours where contour.count >= 2 {
                let s = contour.start
                var prev = pts[s + contour.count - 1]
                var px = min(max(prev.x, -lim), lim), py = min(max(prev.y, -lim), lim)
                for i in s..<(s + contour.count) {
                    prev = pts[i]
                    let x = min(max(prev.x, -lim), lim), y = min(max(prev.y, -lim), lim)
                    Rasterizer.addSegment(px, py, x, y, width, height, to: &edges)
                    px = x; py = y
                }
            }
        }
    }

    /// Clips one segment to the canvas (see type docs) and stores the pieces that matter.
    private static func addSegment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                   _ w: Double, _ h: Double, to edges: inout [Edge]) {
        if y0 == y1 { return }
        let direction: Double = y1 > y0 ? 1 : -1
        let (ax, ay, bx, by) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        if by <= 0 || ay >= h { return }
        if ax >= w && bx >= w { return }
        let slope = (bx - ax) / (by - ay)
        // A segment rising a denormal height across a long run has an infinite slope
        // (and 0 × ∞ = NaN positions); its coverage is below any representable pixel value.
        guard slope.isFinite else { return }
        @inline(__always) func xAt(_ y: Double) -> Double { ax + (y - ay) * slope }
        let top = max(ay, 0), bottom = min(by, h)
        guard bottom > top else { return }
        if ax <= 0 && bx <= 0 {
            edges.append(Edge(xTop: 0, yTop: top, yBottom: bottom, slope: 0, direction: direction))
            return
        }
        let xt = xAt(top), xb = xAt(bottom)
        if xt >= 0, xt <= w, xb >= 0, xb <= w {
            edges.append(Edge(xTop: xt, yTop: top, yBottom: bottom, slope: slope, direction: direction))
            return
        }
        // The piece crosses x = 0 and/or x = w: split there (at most three pieces).
        @inline(__always) func cut(_ cx: Double) -> Double? {
            (xt < cx) != (xb < cx) ? min(max(ay + (cx - ax) / slope, top), bottom) : nil
        }
        @inline(__always) func piece(_ ya: Double, _ yb: Double) {
            guard yb > ya else { return }
            let xm = xAt(0.5 * (ya + yb))
            if xm >= w { return }
            if xm <= 0 {
                edges.append(Edge(xTop: 0, yTop: ya, yBottom: yb, slope: 0, direction: direction))
            } else {
                edges.append(Edge(xTop: min(max(xAt(ya), 0), w), yTop: ya, yBottom: yb,
                                  slope: slope, direction: direction))
            }
        }
        switch (cut(0), cut(w)) {
        case let (c?, nil), let (nil, c?):
            piece(top, c); piece(c, bottom)
        case let (c0?, c1?):
            piece(top, min(c0, c1)); piece(min(c0, c1), max(c0, c1)); piece(max(c0, c1), bottom)
        case (nil, nil):
            piece(top, bottom)
        }
    }

    /// Counting sort of edges by their first row: O(edges + rows), deterministic.
    private func bucketEdges(height: Int) {
        var rowStart = table.rowStart, order = table.order, edges = table.edges
        table.rowStart = []
        table.order = []
        table.edges = []
        defer {
            table.rowStart = rowStart
            table.order = order
            table.edges = edges
        }
        rowStart.removeAll(keepingCapacity: true)
        rowStart.append(contentsOf: repeatElement(0, count: height + 2))
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: repeatElement(0, count: edges.count))
        // Through buffer pointers: indexing the arrays checked their uniqueness on every
        // write (380 k checks in one S6 job). Rows are clamped to 0..<height (edges are
        // clipped to it in `addSegment` anyway), so the row slots are in 1...height + 1, and
        // the counts place each edge index exactly once in `order`.
        edges.withUnsafeBufferPointer { edges in
            rowStart.withUnsafeMutableBufferPointer { rowStart in
                for e in edges {
                    rowStart[min(max(Int(e.yTop), 0), height - 1) + 2] += 1
                }
                for r in 1..<rowStart.count { rowStart[r] += rowStart[r - 1] }
                order.withUnsafeMutableBufferPointer { order in
                    for (i, e) in edges.enumerated() {
                        let r = min(max(Int(e.yTop), 0), height - 1) + 1
                        order[rowStart[r]] = i
                        rowStart[r] += 1
                    }
                }
            }
        }
        // rowStart[r]..<rowStart[r + 1] now lists the edges starting in row r. The edges are
        // copied into that order and `order` becomes the identity, so a sweep finds the edges
        // of neighbouring rows in neighbouring memory: read through `order` in path order,
        // every active edge of a long route missed the cache (a third of its sweep). The
        // edges meet the sweep in the same sequence as before, so no byte changes. Tables
        // past `reorderLimit` (a million-point track's) stay as they are: a second copy of
        // them would cost more memory than the sweep saves time.
        guard edges.count <= Self.reorderLimit else { return }
        var sorted = spareEdges
        spareEdges = []
        sorted.removeAll(keepingCapacity: true)
        sorted.reserveCapacity(edges.count)
        edges.withUnsafeBufferPointer { edges in
            order.withUnsafeMutableBufferPointer { order in
                for k in order.indices {
                    sorted.append(edges[order[k]])
                    order[k] = k
                }
            }
        }
        spareEdges = edges
        edges = sorted
    }
}
