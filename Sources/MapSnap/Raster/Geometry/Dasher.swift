/// Splits paths into dashes.
///
/// The pattern alternates "on" and "off" lengths in pixels, starting with "on"; an odd-length
/// pattern is repeated once to make it even (as in SVG and Canvas 2D). A pattern that is
/// empty, contains a negative or non-finite length, or sums to zero means a solid line.
///
/// Zero-length "on" entries produce single-point contours, which the stroker draws as dots
/// for round and square caps (the usual way to draw dotted lines).
///
/// **Bounds:** a pattern whose period is shorter than `minimumPeriod` (one device pixel) is
/// drawn solid: dashes that fine are not visible, only expensive (`Canvas.stroke` fades such
/// a line by `subpixelCoverage`, the share of it the dashes would have covered). And a path that would
/// produce more dashes than its budget — `maxDashCount` per call, and what is left of a
/// canvas's `maxDashesPerCanvas` (see `dash(_:pattern:phase:startDistances:budget:)`) — is
/// returned undashed, so a hostile pattern costs time and memory in proportion to the input.
enum Dasher {
    /// The most dashes one call may produce before falling back to a solid line.
    static let maxDashCount = 200_000
    /// The most dashes one canvas draws in all its strokes; later dashed strokes are solid.
    /// A dash costs a few microseconds (caps, outline, coverage), so this bounds a render's
    /// dashing to about a second; a large city map at street zoom draws tens of thousands.
    static let maxDashesPerCanvas = 250_000
    /// Patterns with a shorter period (on + off, in device pixels) are drawn solid.
    static let minimumPeriod = 1.0

    /// For a pattern drawn solid because its period is below `minimumPeriod`: the share of
    /// the line its dashes would cover on average, caps included (`capLength`: the width for
    /// round and square caps, 0 for butt), in 0…1. nil when the pattern dashes normally or
    /// is not a valid pattern (then the line is solid at full strength).
    static func subpixelCoverage(_ pattern: [Double], capLength: Double) -> Double? {
        guard !pattern.isEmpty, pattern.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let entries = pattern.count % 2 == 0 ? pattern : pattern + pattern
        let period = entries.reduce(0, +)
        guard period > 0, period < minimumPeriod else { return nil }
        var on = 0.0
        for i in stride(from: 0, to: entries.count, by: 2) { on += entries[i] + max(capLength, 0) }
        return min(1, on / period)
    }

    /// The dashes of `path` as open contours.
    ///
    /// - Parameters:
    ///   - pattern: on/off lengths in pixels.
    ///   - phase: distance into the pattern at which every contour starts.
    ///   - startDistances: optional per-contour distance already travelled before the contour
    ///     starts (e.g. from `LineClipper`, so that clipping does not shift the pattern).
    static func dash(_ path: Path, pattern: [Double], phase: Double,
                            startDistances: [Double]? = nil) -> Path {
        var budget = maxDashCount
        return dash(path, pattern: pattern, phase: phase, startDistances: startDistances, budget: &budget)
    }

    /// The dashes of `path`, drawing from a shared budget: a path that needs more than
    /// `min(budget, maxDashCount)` dashes is returned undashed; otherwise `budget` goes down
    /// by the dashes made. Deterministic as long as strokes draw in a fixed order.
    static func dash(_ path: Path, pattern: [Double], phase: Double,
                            startDistances: [Double]? = nil, budget: inout Int) -> Path {
        guard !pattern.isEmpty,
              pattern.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return path }
        let entries = pattern.count % 2 == 0 ? pattern : pattern + pattern
        let period = entries.reduce(0, +)
        guard period >= minimumPeriod, period.isFinite else { return path }

        // Estimate the dash count from the total length before allocating anything.
        var total = 0.0
        for contour in path.contours {
            let pts = path.points(of: contour)
            var prev: PixelPoint? = contour.isClosed ? pts.last : nil
            for p in pts {
                if let q = prev { total += (p - q).length }
                prev = p
            }
        }
        let estimate = (total / period + 1) * Double(entries.count / 2) + Double(path.contours.count)
        guard estimate.isFinite, estimate <= Double(min(budget, maxDashCount)) else { return path }

        var out = Path()
        var state = DashState(entries: entries, period: period)
        for (ci, contour) in path.contours.enumerated() {
            var start = phase.isFinite ? phase : 0
            if let sd = startDistances, ci < sd.count, sd[ci].isFinite { start += sd[ci] }
            state.dashContour(path.points(of: contour), closed: contour.isClosed, offset: start, into: &out)
        }
        budget -= out.contours.count
        return out
    }
}

private struct DashState {
    let entries: [Double]
    let period: Double
    /// Points of the dashes of the current contour, and where each dash starts in it.
    var buffer: [PixelPoint] = []
    var pieceStarts: [Int] = []

    init(entries: [Double], period: Double) {
        self.entries = entries
        self.period = period
    }

    mutating func dashContour(_ pts: ArraySlice<PixelPoint>, closed: Bool, offset: Double, into out: inout Path) {
        guard let first = pts.first else { return }
        buffer.removeAll(keepingCapacity: true)
        pieceStarts.removeAll(keepingCapacity: true)
        // Find the entry and the distance left in it at the contour start.
        var into = offset.truncatingRemainder(dividingBy: period)
        if into < 0 { into += period }
        var index = 0
        // Skip whole entries; an "on" entry of length 0 exactly at the start is a dot and kept.
        while index < entries.count - 1
                && (into > entries[index] || (into == entries[index] && entries[index] > 0)) {
            into -= entries[index]
            index += 1
        }
        var remaining = entries[index] - into
        var on = index % 2 == 0
        let startsOn = on
        if on { startPiece(first) }

        var prev = first
        var rest = pts.dropFirst()
        var closing = closed && pts.count > 1
        var toggledOff = false
        while true {
            let p: PixelPoint
            if let next = rest.first {
                p = next
                rest = rest.dropFirst()
            } else if closing {
                p = first
                closing = false
            } else {
                break
            }
            let seg = p - prev
            let length = seg.length
            var done = 0.0
            while length - done > remaining {
                done += remaining
                let q = prev + seg * (done / length)
                if on { buffer.append(q) } else { startPiece(q) }
                if on { toggledOff = true }
                on.toggle()
                index = (index + 1) % entries.count
                remaining = entries[index]
                // A zero-length "on" entry is a dot: start it and end it here.
                if on && remaining == 0 {
                    on = false
                    index = (index + 1) % entries.count
                    remaining = entries[index]
                    toggledOff = true
                }
            }
            remaining -= length - done
            if on { buffer.append(p) }
            prev = p
        }
        pieceStarts.append(buffer.count)
        guard pieceStarts.count > 1 else { return }
        let pieces = pieceStarts.count - 1
        if closed && !toggledOff && startsOn {
            // Never switched off: the closed contour stays closed (joins, no caps).
            out.move(to: buffer[0])
            for i in 1..<buffer.count { out.line(to: buffer[i]) }
            out.close()
            return
        }
        // A closed contour that is "on" at both its start and its end: join the last dash to
        // the first so the start vertex gets a join rather than two caps.
        let merge = closed && startsOn && on && pieces > 1
        for k in (merge ? 1 : 0)..<pieces {
            let a = pieceStarts[k], b = pieceStarts[k + 1]
            out.move(to: buffer[a])
            if b - a > 1 { for i in (a + 1)..<b { out.line(to: buffer[i]) } }
            if merge && k == pieces - 1 {
                for i in 1..<pieceStarts[1] { out.line(to: buffer[i]) }
            }
        }
    }

    mutating func startPiece(_ p: PixelPoint) {
        pieceStarts.append(buffer.count)
        buffer.append(p)
    }
}
