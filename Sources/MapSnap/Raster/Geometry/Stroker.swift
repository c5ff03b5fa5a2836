import Foundation

/// Turns a path into the polygon its stroke covers, to be filled with the non-zero rule.
///
/// After the offsetting scheme of Skia's stroker: each contour walks its vertices keeping a
/// left and a right offset polyline at ±width/2. At a corner the *outer* side gets the join
/// (miter, round or bevel) and the *inner* side is routed through the vertex itself:
///
/// ```
///        outer side:  join geometry (here a miter)
///            ____________*
///    A ==================\\          The inner offsets of A and B overlap; instead of
///            inner  \     \\         intersecting them we go  A_end → vertex → B_start.
///    - - - - - - - - +--.  \\        The small loops this creates wind the same way as the
///                    |   \  \\       body, so a non-zero fill covers them exactly once.
///                    |    B  \\
/// ```
///
/// Every piece (segment quads, outer join wedges, caps) winds the same way, so the outline's
/// winding number is ≥ 1 wherever the stroke should be and 0 elsewhere: no cracks at joins,
/// and because the vertex bounds the inner route a hairpin cannot throw a spike. Open
/// contours become one closed outline (left side, end cap, right side reversed, start cap);
/// closed contours become two rings of opposite orientation with joins at the start vertex.
/// The whole stroke is filled in one pass, so translucent strokes never double-blend.
enum Stroker {
    /// Points closer than this (pixels) to the previous kept point are dropped: a segment that
    /// short has no reliable direction.
    static let degenerateLength = 1e-6

    /// The fill polygon of `path` stroked with `style`, dashes included.
    static func stroke(_ path: Path, style: StrokeStyle) -> Path {
        let dashed = Dasher.dash(path, pattern: style.dash, phase: style.dashPhase)
        return outline(dashed, style: style)
    }

    /// The fill polygon of `path` stroked with `style`, ignoring `style.dash`.
    static func outline(_ path: Path, style: StrokeStyle) -> Path {
        var out = Path()
        guard style.width.isFinite, style.width > 0 else { return out }
        out.reserveCapacity(path.points.count * 2 + 16)
        var builder = ContourStroker(style: style)
        for contour in path.contours {
            builder.stroke(path.points(of: contour), closed: contour.isClosed, into: &out)
        }
        return out
    }
}

/// Per-contour state, kept between contours so its buffers are reused.
private struct ContourStroker {
    let radius: Double
    let style: StrokeStyle
    var points: [PixelPoint] = []
    var left: [PixelPoint] = []
    var right: [PixelPoint] = []

    init(style: StrokeStyle) {
        self.style = style
        self.radius = style.width / 2
    }

    mutating func stroke(_ source: ArraySlice<PixelPoint>, closed: Bool, into out: inout Path) {
        points.removeAll(keepingCapacity: true)
        for p in source {
            if let last = points.last, (p - last).length <= Stroker.degenerateLength { continue }
            points.append(p)
        }
        if closed, points.count > 1, let first = points.first, let last = points.last,
           (last - first).length <= Stroker.degenerateLength {
            points.removeLast()
        }
        guard let first = points.first else { return }
        if points.count == 1 {
            dot(at: first, into: &out)
            return
        }
        left.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        let n = points.count
        if closed {
            for i in 0..<n {
                join(at: points[i], from: direction(points[(i + n - 1) % n], points[i]),
                     to: direction(points[i], points[(i + 1) % n]))
            }
            Self.emit(left, reversed: false, into: &out)
            out.close()
            Self.emit(right, reversed: true, into: &out)
            out.close()
            return
        }
        let d0 = direction(points[0], points[1])
        left.append(points[0] + normal(d0) * radius)
        right.append(points[0] - normal(d0) * radius)
        if n > 2 {
            for i in 1..<(n - 1) {
                join(at: points[i], from: direction(points[i - 1], points[i]),
                     to: direction(points[i], points[i + 1]))
            }
        }
        let dn = direction(points[n - 2], points[n - 1])
        left.append(points[n - 1] + normal(dn) * radius)
        right.append(points[n - 1] - normal(dn) * radius)
        Self.emit(left, reversed: false, into: &out)
        Self.cap(style.cap, radius: radius, at: points[n - 1], outward: dn, into: &out)
        Self.emit(right, reversed: true, into: &out)
        Self.cap(style.cap, radius: radius, at: points[0], outward: PixelPoint(x: -d0.x, y: -d0.y), into: &out)
        out.close()
    }

    @inline(__always) func direction(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
        let d = b - a
        let len = d.length
        return PixelPoint(x: d.x / len, y: d.y / len)
    }

    /// The unit normal to the left of `d` (rotated +90° in y-down screen space).
    @inline(__always) func normal(_ d: PixelPoint) -> PixelPoint { PixelPoint(x: -d.y, y: d.x) }

    /// Appends both offset sides around vertex `p` between directions `a` and `b`.
    mutating func join(at p: PixelPoint, from a: PixelPoint, to b: PixelPoint) {
        let na = normal(a), nb = normal(b)
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        if abs(cross) < 1e-12 && dot > 0 {
            // Straight on: both sides continue without a corner.
            left.append(p + na * radius)
            right.append(p - na * radius)
            return
        }
        // The path bends towards the left normal when cross > 0: the left side is inner.
        if cross > 0 {
            left.append(p + na * radius); left.append(p); left.append(p + nb * radius)
            outerJoin(at: p, na * -1, nb * -1, onLeft: false)
        } else {
            right.append(p - na * radius); right.append(p); right.append(p - nb * radius)
            outerJoin(at: p, na, nb, onLeft: true)
        }
    }

    /// Join geometry from `p + u·r` to `p + v·r` (unit offset directions on the outer side).
    ///
    /// Mutating and appending to the stored side directly: passing `&left` into a method of
    /// `self` would copy `self` and make every append copy the whole array (quadratic).
    mutating func outerJoin(at p: PixelPoint, _ u: PixelPoint, _ v: PixelPoint, onLeft: Bool) {
        @inline(__always) func add(_ q: PixelPoint) {
            if onLeft { left.append(q) } else { right.append(q) }
        }
        add(p + u * radius)
        switch style.join {
        case .bevel:
            break
        case .miter:
            let m = u + v
            let ml = m.length
            // cos of half the angle between the offsets; the miter reaches r / cosHalf.
            let cosHalf = ml / 2
            let limit = style.miterLimit.isFinite ? max(style.miterLimit, 1) : 4
            if ml > 1e-12, 1 / cosHalf <= limit {
                add(p + m * (radius / (ml * cosHalf)))
            }
        case .round:
            let a0 = atan2(u.y, u.x)
            var sweep = atan2(v.y, v.x) - a0
            if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
            let steps = Path.segmentCount(radius: radius, sweep: sweep)
            if steps > 1 {
                for k in 1..<steps {
                    let a = a0 + sweep * Double(k) / Double(steps)
                    add(PixelPoint(x: p.x + radius * cos(a), y: p.y + radius * sin(a)))
                }
            }
        }
        add(p + v * radius)
    }

    /// Cap at an open end: from `p + rot(e)·r` round to `p − rot(e)·r` (`e` points outwards).
    static func cap(_ cap: LineCap, radius: Double, at p: PixelPoint, outward e: PixelPoint, into out: inout Path) {
        let s = PixelPoint(x: -e.y, y: e.x)
        switch cap {
        case .butt:
            break
        case .square:
            out.line(to: p + (s + e) * radius)
            out.line(to: p + (e - s) * radius)
        case .round:
            let a0 = atan2(s.y, s.x)
            let steps = Path.segmentCount(radius: radius, sweep: .pi)
            for k in 1..<steps {
                let a = a0 - Double.pi * Double(k) / Double(steps)
                out.line(to: PixelPoint(x: p.x + radius * cos(a), y: p.y + radius * sin(a)))
            }
        }
    }

    /// A single-point contour: round caps draw a disc, square caps a square, butt nothing.
    func dot(at p: PixelPoint, into out: inout Path) {
        switch style.cap {
        case .butt: break
        case .round: out.addCircle(center: p, radius: radius)
        case .square: out.addRect(PixelRect(minX: p.x - radius, minY: p.y - radius,
                                            maxX: p.x + radius, maxY: p.y + radius))
        }
    }

    /// Static, and `cap` takes what it reads: a method of `self` called from `stroke`
    /// (mutating) was handed a copy of `self`, retaining and releasing every buffer per call.
    static func emit(_ side: [PixelPoint], reversed: Bool, into out: inout Path) {
        guard !side.isEmpty else { return }
        if reversed {
            for i in stride(from: side.count - 1, through: 0, by: -1) { out.line(to: side[i]) }
        } else {
            out.move(to: side[0])
            for i in 1..<side.count { out.line(to: side[i]) }
        }
    }
}
