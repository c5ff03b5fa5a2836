import Foundation

/// Great-circle computations on a sphere of `WebMercator.earthRadiusMeters`.
enum Geodesy {
    /// Haversine distance in meters.
    static func distanceMeters(_ a: LatLng, _ b: LatLng) -> Double {
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * WebMercator.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }

    /// Total length of a polyline in meters.
    static func lengthMeters(_ coordinates: [LatLng]) -> Double {
        guard coordinates.count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<coordinates.count { total += distanceMeters(coordinates[i - 1], coordinates[i]) }
        return total
    }

    /// The point at `bearingDegrees` (clockwise from north) and `distanceMeters` from `origin`.
    static func destination(from origin: LatLng, bearingDegrees: Double, distanceMeters: Double) -> LatLng {
        let d = distanceMeters / WebMercator.earthRadiusMeters
        let b = bearingDegrees * .pi / 180
        let p1 = origin.latitude * .pi / 180, l1 = origin.longitude * .pi / 180
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(b))
        let l2 = l1 + atan2(sin(b) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        var lon = l2 * 180 / .pi
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return LatLng(latitude: p2 * 180 / .pi, longitude: lon)
    }

    /// Points along the great circle from `a` to `b` (inclusive of both ends), spaced at most
    /// `maxStepDegrees` of arc apart (spherical linear interpolation of unit vectors).
    static func greatCircle(from a: LatLng, to b: LatLng, maxStepDegrees: Double = 1) -> [LatLng] {
        func vec(_ c: LatLng) -> (Double, Double, Double) {
            let p = c.latitude * .pi / 180, l = c.longitude * .pi / 180
            return (cos(p) * cos(l), cos(p) * sin(l), sin(p))
        }
        let va = vec(a), vb = vec(b)
        let dot = max(-1, min(1, va.0 * vb.0 + va.1 * vb.1 + va.2 * vb.2))
        let omega = acos(dot)
        let steps = Int(min(10_000, (omega * 180 / .pi / max(maxStepDegrees, 0.01)).rounded(.up)))
        // Antipodal or identical points: no unique great circle; fall back to the straight segment.
        guard steps > 1, sin(omega) > 1e-9 else { return [a, b] }
        var out = [a]
        out.reserveCapacity(steps + 1)
        for i in 1..<steps {
            let t = Double(i) / Double(steps)
            let s1 = sin((1 - t) * omega) / sin(omega), s2 = sin(t * omega) / sin(omega)
            let x = s1 * va.0 + s2 * vb.0, y = s1 * va.1 + s2 * vb.1, z = s1 * va.2 + s2 * vb.2
            out.append(LatLng(latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi,
                              longitude: atan2(y, x) * 180 / .pi))
        }
        out.append(b)
        return out
    }

    /// A closed ring approximating a circle of `radiusMeters` around `center`.
    static func circle(center: LatLng, radiusMeters: Double, segments: Int = 128) -> [LatLng] {
        let n = max(8, min(4096, segments))
        return (0..<n).map { i in
            destination(from: center, bearingDegrees: 360 * Double(i) / Double(n), distanceMeters: radiusMeters)
        }
    }
}
