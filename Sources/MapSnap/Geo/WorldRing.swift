import Foundation

/// A polygon ring in world space, unwrapped across the antimeridian and closed over a pole
/// when it goes around one, with the edges that are not part of its outline marked.
///
/// How a ring given in degrees becomes a planar ring (after RFC 7946 §3.1.9, which says
/// geometries crossing the antimeridian should be split there and that split edges are
/// meant literally):
///
/// - A step of more than 180° of longitude between two vertices is taken the short way
///   (170° → −170° is 20° east), as for paths: an unsplit ring that crosses the antimeridian
///   keeps its shape.
/// - A step of exactly 360° along a parallel (−180° → 180° at one latitude) is literal: it
///   runs all the way round the world. That is how a split band (40…50°N round the globe) or
///   a polar cap (…, [180, 40], [180, 90], [−180, 90], [−180, 40], …) is written. Between two
///   latitudes ([180, 78] → [−180, 81]) it is a crossing written with both names of the
///   antimeridian, and takes the short way (no longitude at all).
/// - A ring whose steps add up to a whole turn round the world (Natural Earth's
///   Antarctica, a polar cap written without the pole) is closed along the top or bottom
///   edge of the world (y = 0 or 1), over the pole whose side is the smaller area on the
///   sphere: which side is inside never depends on the ring's winding, since real data
///   comes in both (Natural Earth's rings are clockwise, RFC 7946's counter-clockwise).
///
/// Edges that lie on the antimeridian itself (the cut of a split polygon), on the edge of
/// the Mercator square (beyond ±85.05°), or that close the ring over a pole, are not part of
/// the outline: a stroke there would show a seam that is not in the data.
///
/// ```
///   ring round the north pole          closed over the pole (y = 0)
///   x0 ─────────────── x0 + 1          ┌───────────────────┐  ← not outlined
///     \__/‾‾\___/‾‾\__/                │\__/‾‾\___/‾‾\__/  │  ← sides not outlined
/// ```
struct WorldRing: Equatable {
    /// The vertices in world space; x may leave 0…1. The ring closes from the last point back
    /// to the first.
    var points: [WorldPoint]
    /// Indices of edges (edge i runs from `points[i]` to the next point, the last one back
    /// to `points[0]`) that are not part of the outline; usually empty.
    var hiddenEdges: [Int] = []
    /// Whether the ring goes round the world (and was closed over a pole). Copies of such a
    /// ring side by side, one world apart, fill the band round the pole seamlessly even
    /// where each reaches a little past the next (a coast that doubles back).
    var goesRoundTheWorld = false

    /// The ring of a polygon: see the type's documentation for the rules.
    init(polygon coordinates: [LatLng]) {
        guard let first = coordinates.first else {
            points = []
            return
        }
        var out: [WorldPoint] = []
        out.reserveCapacity(coordinates.count + 2)
        var hidden: [Int] = []
        var previous = first
        var previousX = WebMercator.project(first).x
        out.append(WebMercator.project(first))
        for (i, c) in coordinates.enumerated().dropFirst() {
            let x = Self.step(from: previous, previousX: previousX, to: c)
            var p = WebMercator.project(c)
            p.x = x
            if !Self.isOutline(previous, c) { hidden.append(i - 1) }
            out.append(p)
            previous = c
            previousX = x
        }
        // Where the closing edge arrives at the first vertex: a whole number of worlds from it
        // when the ring goes round a pole.
        let arrival = Self.step(from: previous, previousX: previousX, to: first)
        let turns = (arrival - out[0].x).rounded()
        let closingIsOutline = Self.isOutline(previous, first)
        if turns == 0 {
            if !closingIsOutline { hidden.append(out.count - 1) }
        } else {
            // Close over a pole: the closing edge to the first vertex's copy a world away (none
            // when the ring repeats its first vertex), along the meridian to the world's edge,
            // along the edge back to the first vertex's meridian, and down (or up) to it. Only
            // the closing edge is outline.
            let end = WorldPoint(x: out[0].x + turns, y: out[0].y)
            if end != out[out.count - 1] {
                if !closingIsOutline { hidden.append(out.count - 1) }
                out.append(end)
            }
            let pole = Self.northIsSmaller(coordinates, Array(out.prefix(coordinates.count)), turns: turns) ? 0.0 : 1.0
            hidden.append(out.count - 1)
            out.append(WorldPoint(x: end.x, y: pole))
            hidden.append(out.count - 1)
            out.append(WorldPoint(x: out[0].x, y: pole))
            hidden.append(out.count - 1)
            goesRoundTheWorld = true
        }
        points = out
        hiddenEdges = hidden
    }

    /// World x of `c` reached from `previous` (at `previousX`): literal for an exact 360°
    /// step along a parallel, otherwise the short way.
    private static func step(from previous: LatLng, previousX: Double, to c: LatLng) -> Double {
        let x = WebMercator.project(c).x
        if abs(c.longitude - previous.longitude) == 360, c.latitude == previous.latitude {
            return previousX + (x - WebMercator.project(previous).x)
        }
        return x - (x - previousX).rounded()
    }

    /// Whether the edge a → b is part of the outline: not on the antimeridian (a split
    /// polygon's cut) and not along the edge of the Mercator square.
    private static func isOutline(_ a: LatLng, _ b: LatLng) -> Bool {
        if a.longitude == b.longitude, abs(a.longitude).truncatingRemainder(dividingBy: 360) == 180 { return false }
        let edge = WebMercator.maxLatitude
        if a.latitude >= edge && b.latitude >= edge { return false }
        if a.latitude <= -edge && b.latitude <= -edge { return false }
        return true
    }

    /// Whether the region between a ring that goes round the world and the north pole is
    /// smaller on the sphere than the region between it and the south pole.
    ///
    /// The area between a curve and the north pole is ∫(1 − sin φ) dλ along it, and to the
    /// south pole ∫(1 + sin φ) dλ; with ∫dλ = `turns` worlds, the north side is the smaller
    /// one when ∫ sin φ dλ has the sign of `turns` (the ring lies north of the equator on
    /// average, weighted by how far east each edge goes).
    private static func northIsSmaller(_ coordinates: [LatLng], _ points: [WorldPoint], turns: Double) -> Bool {
        var sum = 0.0
        func add(_ a: LatLng, _ dx: Double, _ b: LatLng) {
            sum += dx * (sin(a.latitude * .pi / 180) + sin(b.latitude * .pi / 180)) / 2
        }
        for i in 1..<min(coordinates.count, points.count) {
            add(coordinates[i - 1], points[i].x - points[i - 1].x, coordinates[i])
        }
        if let last = coordinates.last, let first = coordinates.first, let lastX = points.last?.x, let firstX = points.first?.x {
            add(last, firstX + turns - lastX, first)
        }
        return sum * turns >= 0
    }
}
