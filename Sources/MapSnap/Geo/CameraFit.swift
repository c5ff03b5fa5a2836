import Foundation

/// What fitting needs to know about one thing on the map: its geographic extent as world
/// points and how far its drawing sticks out beyond those points, in device pixels.
///
/// After go-staticmaps' `ExtraMarginPixels`: a pin rises `top` pixels above its coordinate,
/// a title runs `right` pixels to its right.
struct FitItem: Sendable {
    /// World points, unwrapped so that consecutive points take the short way across the
    /// antimeridian (x may leave 0…1).
    var points: [WorldPoint]
    var marginLeft = 0.0
    var marginTop = 0.0
    var marginRight = 0.0
    var marginBottom = 0.0
}

/// Finds the centre and zoom that show every `FitItem` inside an image minus padding.
enum CameraFit {
    /// Unwraps a coordinate sequence to world points, shifting each point by whole worlds so
    /// that every step is shorter than half a world (Fiji → Samoa goes east across 180°).
    static func unwrappedWorldPoints(_ coordinates: [LatLng]) -> [WorldPoint] {
        var out: [WorldPoint] = []
        out.reserveCapacity(coordinates.count)
        var previousX: Double?
        for c in coordinates {
            var p = WebMercator.project(c)
            if let px = previousX { p.x -= (p.x - px).rounded() }
            previousX = p.x
            out.append(p)
        }
        return out
    }

    /// The smallest world-x interval that contains every item, each item shifted by whole
    /// worlds as a block: the complement of the largest longitude gap no item covers.
    /// Returns the interval and the shift (in worlds) to apply to each item.
    static func horizontalExtent(_ intervals: [(min: Double, max: Double)]) -> (min: Double, max: Double, shifts: [Double]) {
        guard !intervals.isEmpty else { return (0, 0, []) }
        if intervals.contains(where: { $0.max - $0.min >= 1 }) {
            let lo = intervals.map(\.min).min() ?? 0, hi = intervals.map(\.max).max() ?? 0
            return (lo, hi, intervals.map { _ in 0 })
        }
        // Arcs on the circle [0, 1): split any that wrap, then merge and find the largest gap.
        var arcs: [(Double, Double)] = []
        arcs.reserveCapacity(intervals.count * 2)
        for iv in intervals {
            let s = iv.min - floor(iv.min)
            let e = s + (iv.max - iv.min)
            if e > 1 { arcs.append((s, 1)); arcs.append((0, e - 1)) } else { arcs.append((s, e)) }
        }
        arcs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        var gapStart = 0.0, gapLength = -1.0
        var coveredTo = arcs[0].1
        for a in arcs.dropFirst() {
            if a.0 > coveredTo, a.0 - coveredTo > gapLength { gapLength = a.0 - coveredTo; gapStart = coveredTo }
            coveredTo = max(coveredTo, a.1)
        }
        // The wrap-around gap from the last covered point to the first arc start (+1).
        let wrapGap = arcs[0].0 + 1 - coveredTo
        if wrapGap > gapLength { gapLength = wrapGap; gapStart = coveredTo }
        let lo = gapStart + gapLength  // where the content begins (may be ≥ 1)
        var shifts: [Double] = []
        shifts.reserveCapacity(intervals.count)
        var hi = -Double.infinity, minX = Double.infinity
        for iv in intervals {
            // Shift so the interval starts within [lo − ε, lo + 1 − ε).
            let k = floor(iv.min - lo + 1e-12)
            let shift = -k
            shifts.append(shift)
            minX = min(minX, iv.min + shift)
            hi = max(hi, iv.max + shift)
        }
        return (minX, hi, shifts)
    }

    /// The camera that fits `items` into `width × height` points at `scale`.
    ///
    /// - `center`: when given, kept fixed and the zoom solved around it.
    /// - `zoom`: when given, kept and only the centre solved.
    /// - Zoom is floored to an integer unless `fractional`, and clamped to `0…maximumZoom`.
    /// Items with no points are ignored. With nothing to fit: the given centre at the given
    /// zoom (else `maximumZoom`), or the whole world at zoom 0.
    /// - `heading`: the camera's heading; a turned camera fits the items' extent along the
    ///   turned image's axes (the tightest view of the turned bounds), margins staying in
    ///   image pixels (pins and titles stay upright).
    static func camera(fitting items: [FitItem], width: Int, height: Int, scale: Double,
                              padding: Double, center fixedCenter: LatLng? = nil, zoom fixedZoom: Double? = nil,
                              fractional: Bool = false, maximumZoom: Double = 17, heading: Double = 0) -> Camera {
        let items = items.filter { !$0.points.isEmpty }
        let pw = Double(width) * scale, ph = Double(height) * scale
        let pad = padding * scale
        guard !items.isEmpty else {
            return Camera(center: fixedCenter ?? LatLng(0, 0), zoom: fixedZoom ?? (fixedCenter == nil ? 0 : maximumZoom),
                          width: width, height: height, scale: scale, heading: heading)
        }
        if heading.remainder(dividingBy: 360) != 0 {
            return turnedCamera(fitting: items, width: width, height: height, scale: scale, padding: padding,
                                center: fixedCenter, zoom: fixedZoom, fractional: fractional, maximumZoom: maximumZoom,
                                heading: heading)
        }
        var intervals: [(min: Double, max: Double)] = []
        intervals.reserveCapacity(items.count)
        var minY = Double.infinity, maxY = -Double.infinity
        for it in items {
            var lo = Double.infinity, hi = -Double.infinity
            for p in it.points {
                lo = min(lo, p.x); hi = max(hi, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            intervals.append((lo, hi))
        }
        let ext = horizontalExtent(intervals)
        // Pixel margins: the largest overhang of any item on each side (conservative).
        var (mL, mT, mR, mB) = largestMargins(items)
        let base = WebMercator.tileSize * scale
        func clampZoom(_ z: Double) -> Double { clampedZoom(z, fractional: fractional, maximumZoom: maximumZoom) }

        if let c = fixedCenter {
            let cw = WebMercator.project(c)
            let zoom: Double
            if let z = fixedZoom {
                zoom = z
            } else {
                // Largest S with |x − cx|·S + margin ≤ half width − padding for every extreme.
                var s = Double.infinity
                // When padding and overhangs leave no room, fit the bare content instead.
                var halfW = pw / 2 - pad - max(mL, mR), halfH = ph / 2 - pad - max(mT, mB)
                if halfW <= 0 || halfH <= 0 { halfW = pw / 2; halfH = ph / 2 }
                for (i, it) in items.enumerated() {
                    for p in it.points {
                        let x = p.x + ext.shifts[i]
                        let dx = abs(x - cw.x - (x - cw.x).rounded())  // to the nearest world copy
                        let dy = abs(p.y - cw.y)
                        if dx > 0 { s = min(s, halfW / dx) }
                        if dy > 0 { s = min(s, halfH / dy) }
                    }
                }
                zoom = clampZoom(s.isFinite ? log2(s / base) : maximumZoom)
            }
            return Camera(center: c, zoom: zoom, width: width, height: height, scale: scale)
        }

        let dx = ext.max - ext.min, dy = maxY - minY
        let zoom: Double
        if let z = fixedZoom {
            zoom = z
        } else {
            var s = Double.infinity
            var availW = pw - 2 * pad - mL - mR, availH = ph - 2 * pad - mT - mB
            // When padding and overhangs leave no room, fit the bare content instead (a
            // smaller map that shows everything beats a blank one at the maximum zoom).
            if availW <= 0 || availH <= 0 {
                availW = pw
                availH = ph
                (mL, mT, mR, mB) = (0, 0, 0, 0)
            }
            if dx > 0 { s = min(s, availW / dx) }
            if dy > 0 { s = min(s, availH / dy) }
            zoom = clampZoom(s.isFinite ? log2(s / base) : maximumZoom)
        }
        // Centre the content *including* its pixel overhangs.
        let s = WebMercator.worldSize(zoom: zoom, scale: scale)
        let cx = ((ext.min * s - mL) + (ext.max * s + mR)) / 2 / s
        let cy = ((minY * s - mT) + (maxY * s + mB)) / 2 / s
        var center = WebMercator.unproject(WorldPoint(x: cx, y: min(1, max(0, cy))))
        center.longitude = Camera.normalizedLongitude(center.longitude)
        return Camera(center: center, zoom: zoom, width: width, height: height, scale: scale)
    }

    /// The largest overhang of any item on each side, in pixels (conservative margins).
    private static func largestMargins(_ items: [FitItem]) -> (left: Double, top: Double, right: Double, bottom: Double) {
        var m = (left: 0.0, top: 0.0, right: 0.0, bottom: 0.0)
        for it in items {
            m.left = max(m.left, it.marginLeft); m.top = max(m.top, it.marginTop)
            m.right = max(m.right, it.marginRight); m.bottom = max(m.bottom, it.marginBottom)
        }
        return m
    }

    /// A fitted zoom within 0…`maximumZoom`, whole unless `fractional` (∞ or NaN: the maximum).
    private static func clampedZoom(_ z: Double, fractional: Bool, maximumZoom: Double) -> Double {
        var zz = z.isFinite ? z : maximumZoom
        if !fractional { zz = floor(zz + 1e-9) }
        return max(0, min(maximumZoom, zz))
    }

    /// `camera(fitting:…)` for a turned camera: the same rules in the turned image's axes.
    /// World offsets (x east, y south) become image offsets `u = cos b·x + sin b·y`,
    /// `v = −sin b·x + cos b·y` (as `Camera.pixel(forWorld:)` turns them); the extent, the
    /// zoom and the centre are found in (u, v) and the centre turned back.
    private static func turnedCamera(fitting items: [FitItem], width: Int, height: Int, scale: Double,
                                     padding: Double, center fixedCenter: LatLng?, zoom fixedZoom: Double?,
                                     fractional: Bool, maximumZoom: Double, heading: Double) -> Camera {
        let pw = Double(width) * scale, ph = Double(height) * scale
        let pad = padding * scale
        let r = heading * .pi / 180
        let cs = cos(r), sn = sin(r)
        // World copies chosen as for a north-up fit (the short way across the antimeridian).
        var intervals: [(min: Double, max: Double)] = []
        for it in items {
            intervals.append((it.points.map(\.x).min() ?? 0, it.points.map(\.x).max() ?? 0))
        }
        let ext = horizontalExtent(intervals)
        var (mL, mT, mR, mB) = largestMargins(items)
        let base = WebMercator.tileSize * scale
        func clampZoom(_ z: Double) -> Double { clampedZoom(z, fractional: fractional, maximumZoom: maximumZoom) }
        if let c = fixedCenter {
            let cw = WebMercator.project(c)
            var zoom = fixedZoom ?? maximumZoom
            if fixedZoom == nil {
                var s = Double.infinity
                var halfW = pw / 2 - pad - max(mL, mR), halfH = ph / 2 - pad - max(mT, mB)
                if halfW <= 0 || halfH <= 0 { halfW = pw / 2; halfH = ph / 2 }
                for (i, it) in items.enumerated() {
                    for p in it.points {
                        let x = p.x + ext.shifts[i]
                        let dx = x - cw.x - (x - cw.x).rounded(), dy = p.y - cw.y
                        let du = abs(cs * dx + sn * dy), dv = abs(-sn * dx + cs * dy)
                        if du > 0 { s = min(s, halfW / du) }
                        if dv > 0 { s = min(s, halfH / dv) }
                    }
                }
                zoom = clampZoom(s.isFinite ? log2(s / base) : maximumZoom)
            }
            return Camera(center: c, zoom: zoom, width: width, height: height, scale: scale, heading: heading)
        }
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for (i, it) in items.enumerated() {
            for p in it.points {
                let x = p.x + ext.shifts[i]
                let u = cs * x + sn * p.y, v = -sn * x + cs * p.y
                minU = min(minU, u); maxU = max(maxU, u)
                minV = min(minV, v); maxV = max(maxV, v)
            }
        }
        var zoom = fixedZoom ?? maximumZoom
        if fixedZoom == nil {
            var s = Double.infinity
            var availW = pw - 2 * pad - mL - mR, availH = ph - 2 * pad - mT - mB
            if availW <= 0 || availH <= 0 {
                availW = pw
                availH = ph
                (mL, mT, mR, mB) = (0, 0, 0, 0)
            }
            if maxU > minU { s = min(s, availW / (maxU - minU)) }
            if maxV > minV { s = min(s, availH / (maxV - minV)) }
            zoom = clampZoom(s.isFinite ? log2(s / base) : maximumZoom)
        }
        let s = WebMercator.worldSize(zoom: zoom, scale: scale)
        let cu = ((minU * s - mL) + (maxU * s + mR)) / 2 / s
        let cv = ((minV * s - mT) + (maxV * s + mB)) / 2 / s
        // Back from image axes to world axes: the transpose of the turn.
        let cx = cs * cu - sn * cv, cy = sn * cu + cs * cv
        var center = WebMercator.unproject(WorldPoint(x: cx, y: min(1, max(0, cy))))
        center.longitude = Camera.normalizedLongitude(center.longitude)
        return Camera(center: center, zoom: zoom, width: width, height: height, scale: scale, heading: heading)
    }

    /// The heading that makes the items' main direction run from the bottom of the image to
    /// the top ("track-up"): from the first point to the last when they lie far apart (1.5
    /// times the points' RMS distance from their mean or more; a straight route has 2 to 3.5):
    /// a route from A to B puts A straight below B; otherwise — a loop, an out-and-back walk — the principal axis of the points (the
    /// direction in which they spread most, from the second moments in Mercator space, which
    /// keeps angles), pointing away from the first point. Degrees clockwise from north in
    /// 0..<360; 0 when the points do not spread.
    static func trackUpHeading(_ lines: [[WorldPoint]]) -> Double {
        let points = lines.flatMap { $0 }
        guard let first = points.first, let last = points.last, points.count >= 2 else { return 0 }
        let n = Double(points.count)
        var mx = 0.0, my = 0.0
        for p in points { mx += p.x; my += p.y }
        mx /= n; my /= n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points {
            let dx = p.x - mx, dy = p.y - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        guard sxx + syy > 0 else { return 0 }
        var ex: Double, ey: Double
        let spread = ((sxx + syy) / n).squareRoot()
        let gx = last.x - first.x, gy = last.y - first.y, gap = (gx * gx + gy * gy).squareRoot()
        if gap >= 1.5 * spread {
            (ex, ey) = (gx / gap, gy / gap)
        } else {
            let phi = 0.5 * atan2(2 * sxy, sxx - syy)
            (ex, ey) = (cos(phi), sin(phi))
            // Away from the start: the start lies behind the points' middle.
            if (first.x - mx) * ex + (first.y - my) * ey > 0 { ex = -ex; ey = -ey }
        }
        // Compass bearing of the direction (x east, y south).
        var degrees = atan2(ex, -ey) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        // −1e-15° comes back as 360.
        return degrees >= 360 ? degrees - 360 : degrees
    }
}
