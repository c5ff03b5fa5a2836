import Foundation

/// The sea inside a bounding box, from OpenStreetMap's `natural=coastline` ways (drawn with
/// the land on their left, the water on their right), as polygons for tilemaker's `ocean`
/// layer: without them a coastal city's sea comes out as land.
///
/// How: coastline ways are joined end to end into chains; a chain is cut where the extract
/// lacks its nodes, and an end that stops inside the box is carried straight to the nearest
/// point of the box's edge (a clipped extract cuts coastlines short). Chains are clipped to
/// the box. Each piece crosses the box from an entry to an exit point; the sea is traced by
/// following a piece to its exit, then the box's edge clockwise (the box's inside on the
/// right, as the water is) to the next entry, and so on until the ring closes:
///
/// ```
///   NW ──────────────→ NE         a piece enters at ▲ and leaves at ▼;
///   │   land                │         water lies on its right: the ring goes
///   ▲━━━━━━━━━━━━━━━━━━━━━━▼         piece → edge clockwise → next piece…
///   │   sea ≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈ │
///   SW ←────────────────── SE
/// ```
/// Closed chains inside the box are islands (counter-clockwise) and become holes of the
/// sea polygon around them. With no coastline crossing the box, the box is sea when it holds
/// islands and land otherwise (an inland extract).
package enum CoastlineWater {
    package struct Box: Sendable, Equatable {
        package var south: Double, west: Double, north: Double, east: Double
        package init(south: Double, west: Double, north: Double, east: Double) {
            self.south = south; self.west = west; self.north = north; self.east = east
        }
    }

    /// Reads the coastlines of `pbf` (two passes: ways, then their nodes).
    package static func polygons(pbf: OSMPBFReader, box: Box) throws(OSMPBFError) -> [ShapefileWriter.Polygon] {
        var ways: [[Int64]] = []
        try pbf.scan(ways: { w in if w.tags["natural"] == "coastline", w.refs.count >= 2 { ways.append(w.refs) } })
        guard !ways.isEmpty else { return [] }
        let wanted = Set(ways.flatMap { $0 })
        var positions: [Int64: LatLng] = [:]
        try pbf.scan(nodes: { n in if wanted.contains(n.id), n.coordinate.isValid { positions[n.id] = n.coordinate } })
        return polygons(ways: ways, positions: positions, box: box)
    }

    /// The sea polygons for coastline ways given as node ids with their positions.
    package static func polygons(ways: [[Int64]], positions: [Int64: LatLng], box: Box) -> [ShapefileWriter.Polygon] {
        var islands: [[LatLng]] = []
        var pieces: [[LatLng]] = []
        for chain in chains(ways) {
            // Runs of nodes the extract holds.
            var runs: [[LatLng]] = [], run: [LatLng] = []
            for id in chain {
                if let p = positions[id] { run.append(p); continue }
                if run.count >= 2 { runs.append(run) }
                run = []
            }
            if run.count >= 2 { runs.append(run) }
            let closed = chain.count >= 4 && chain.first == chain.last && runs.count == 1 && runs[0].count == chain.count
            if closed, runs[0].allSatisfy({ inside($0, box) }) {
                if signedArea(runs[0]) > 0 { islands.append(runs[0]) }
                continue
            }
            for var r in runs {
                if let first = r.first, inside(first, box) { r.insert(nearestEdgePoint(first, box), at: 0) }
                if let last = r.last, inside(last, box) { r.append(nearestEdgePoint(last, box)) }
                pieces.append(contentsOf: clip(r, box))
            }
        }
        var seas = trace(pieces.filter { $0.count >= 2 }, box)
        if pieces.isEmpty && !islands.isEmpty { seas = [boxRing(box)] }
        var out = seas.map { ShapefileWriter.Polygon(rings: [$0]) }
        for island in islands {
            guard let p = island.first, let i = out.firstIndex(where: { contains($0.rings[0], p) }) else { continue }
            out[i].rings.append(island)
        }
        return out
    }

    // MARK: Chains

    /// Ways joined where one ends at the node another starts with (coastlines are drawn
    /// consistently, so no reversing is needed). Deterministic: ways are taken in order.
    static func chains(_ ways: [[Int64]]) -> [[Int64]] {
        var chains = ways
        var merged = true
        while merged {
            merged = false
            var byStart: [Int64: Int] = [:]
            for (i, c) in chains.enumerated() where c.first != c.last { if let s = c.first, byStart[s] == nil { byStart[s] = i } }
            var used = Set<Int>()
            var next: [[Int64]] = []
            for i in chains.indices where !used.contains(i) {
                var chain = chains[i]
                used.insert(i)
                while chain.first != chain.last, let end = chain.last, let j = byStart[end], !used.contains(j) {
                    chain.append(contentsOf: chains[j].dropFirst())
                    used.insert(j)
                    merged = true
                }
                next.append(chain)
            }
            chains = next
        }
        return chains
    }

    // MARK: Geometry (x = longitude, y = latitude)

    static func inside(_ p: LatLng, _ b: Box) -> Bool {
        p.latitude > b.south && p.latitude < b.north && p.longitude > b.west && p.longitude < b.east
    }

    static func nearestEdgePoint(_ p: LatLng, _ b: Box) -> LatLng {
        let d = [p.latitude - b.south, b.north - p.latitude, p.longitude - b.west, b.east - p.longitude]
        switch d.firstIndex(of: d.min() ?? 0) ?? 0 {
        case 0: return LatLng(latitude: b.south, longitude: p.longitude)
        case 1: return LatLng(latitude: b.north, longitude: p.longitude)
        case 2: return LatLng(latitude: p.latitude, longitude: b.west)
        default: return LatLng(latitude: p.latitude, longitude: b.east)
        }
    }

    /// The parts of a polyline inside the box (Liang–Barsky per segment).
    static func clip(_ line: [LatLng], _ b: Box) -> [[LatLng]] {
        var out: [[LatLng]] = [], current: [LatLng] = []
        for (a, c) in zip(line, line.dropFirst()) {
            let dx = c.longitude - a.longitude, dy = c.latitude - a.latitude
            var t0 = 0.0, t1 = 1.0
            var visible = true
            for (p, q) in [(-dx, a.longitude - b.west), (dx, b.east - a.longitude), (-dy, a.latitude - b.south), (dy, b.north - a.latitude)] {
                if p == 0 {
                    if q < 0 { visible = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
            if !visible || t0 > t1 {
                if current.count >= 2 { out.append(current) }
                current = []
                continue
            }
            let start = LatLng(latitude: a.latitude + t0 * dy, longitude: a.longitude + t0 * dx)
            let end = LatLng(latitude: a.latitude + t1 * dy, longitude: a.longitude + t1 * dx)
            if current.isEmpty { current = [start] } else if current.last != start {
                if current.count >= 2 { out.append(current) }
                current = [start]
            }
            current.append(end)
            if t1 < 1 {
                if current.count >= 2 { out.append(current) }
                current = []
            }
        }
        if current.count >= 2 { out.append(current) }
        return out
    }

    /// Where a point of the box's edge lies along it, clockwise from the north-west corner:
    /// 0…1 north edge, 1…2 east, 2…3 south, 3…4 west.
    static func perimeterPosition(_ p: LatLng, _ b: Box) -> Double {
        let w = b.east - b.west, h = b.north - b.south
        let d = [abs(p.latitude - b.north), abs(p.longitude - b.east), abs(p.latitude - b.south), abs(p.longitude - b.west)]
        switch d.firstIndex(of: d.min() ?? 0) ?? 0 {
        case 0: return (p.longitude - b.west) / w
        case 1: return 1 + (b.north - p.latitude) / h
        case 2: return 2 + (b.east - p.longitude) / w
        default: return (3 + (p.latitude - b.south) / h).truncatingRemainder(dividingBy: 4)
        }
    }

    /// Sea rings from pieces that cross the box (see the type's documentation).
    static func trace(_ pieces: [[LatLng]], _ b: Box) -> [[LatLng]] {
        let corners = [LatLng(latitude: b.north, longitude: b.east), LatLng(latitude: b.south, longitude: b.east),
                       LatLng(latitude: b.south, longitude: b.west), LatLng(latitude: b.north, longitude: b.west)]
        let entries = pieces.map { perimeterPosition($0[0], b) }
        let exits = pieces.map { perimeterPosition($0[$0.count - 1], b) }
        var used = [Bool](repeating: false, count: pieces.count)
        var rings: [[LatLng]] = []
        for start in pieces.indices where !used[start] {
            var ring: [LatLng] = []
            var current = start
            var steps = 0
            while steps <= pieces.count {
                steps += 1
                used[current] = true
                ring.append(contentsOf: pieces[current])
                let exit = exits[current]
                // The next entry clockwise from this exit (the start piece closes the ring).
                var best: (distance: Double, piece: Int)?
                for j in pieces.indices where !used[j] || j == start {
                    var d = entries[j] - exit
                    if d < 0 { d += 4 }
                    if best.map({ d < $0.distance }) ?? true { best = (d, j) }
                }
                guard let next = best else { break }
                // Corners passed on the way, clockwise: NE at 1, SE at 2, SW at 3, NW at 4 (0).
                var t = exit
                for _ in 0..<4 {
                    let corner = floor(t) + 1
                    guard corner <= exit + next.distance else { break }
                    ring.append(corners[Int(corner - 1) % 4])
                    t = corner
                }
                if next.piece == start { break }
                current = next.piece
            }
            if let first = ring.first { ring.append(first) }
            if ring.count >= 4 { rings.append(ring) }
        }
        return rings
    }

    static func boxRing(_ b: Box) -> [LatLng] {
        [LatLng(latitude: b.north, longitude: b.west), LatLng(latitude: b.north, longitude: b.east),
         LatLng(latitude: b.south, longitude: b.east), LatLng(latitude: b.south, longitude: b.west),
         LatLng(latitude: b.north, longitude: b.west)]
    }

    /// Twice the signed area (positive: counter-clockwise with latitude up).
    static func signedArea(_ ring: [LatLng]) -> Double {
        var s = 0.0
        for (a, c) in zip(ring, ring.dropFirst()) { s += a.longitude * c.latitude - c.longitude * a.latitude }
        return s
    }

    /// Even-odd point in ring.
    static func contains(_ ring: [LatLng], _ p: LatLng) -> Bool {
        var inside = false
        for (a, c) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (c.latitude > p.latitude) {
            let x = a.longitude + (p.latitude - a.latitude) / (c.latitude - a.latitude) * (c.longitude - a.longitude)
            if p.longitude < x { inside.toggle() }
        }
        return inside
    }
}
