import Foundation

/// The area of `mapsnap data extract`: a longitude/latitude box (which may cross the
/// antimeridian) or polygons with holes, and the tiles it selects at each zoom.
///
/// A tile is selected when its square touches the area. Geometry is tested in Web Mercator
/// (the tiles' own projection), where tiles are squares and polygon edges are taken as
/// straight lines, as mapsnap draws them. Polygons are filled even-odd over all their rings
/// (an outer ring and its holes; polygons of a multipolygon must not overlap), and must not
/// cross the antimeridian (split them there, as RFC 7946 asks).
package struct ExtractArea: Sendable, Equatable, CustomStringConvertible {
    /// What the area is.
    package enum Shape: Sendable, Equatable {
        /// West may exceed east: the box then crosses the antimeridian.
        case box(west: Double, south: Double, east: Double, north: Double)
        /// Polygons, each an outer ring followed by its holes.
        case polygons([[[LatLng]]])
    }

    package let shape: Shape
    /// The box around the area (west > east across the antimeridian), clamped to Web
    /// Mercator's latitudes.
    package let bounds: TileSourceMetadata.Bounds

    /// The box `west,south,east,north` in degrees. `flag` names the option in messages.
    package static func box(west: Double, south: Double, east: Double, north: Double,
                            flag: String = "--bbox") throws(RegionExtractError) -> ExtractArea {
        guard [west, south, east, north].allSatisfy(\.isFinite) else {
            throw .invalidArea(flag: flag, reason: "every value must be a finite number of degrees")
        }
        for (name, value) in [("west", west), ("east", east)] where !LatLng.isValidLongitude(value) {
            throw .invalidArea(flag: flag, reason: "\(name) \(Self.text(value)) is not a longitude (-180 to 180)")
        }
        for (name, value) in [("south", south), ("north", north)] where !LatLng.isValidLatitude(value) {
            throw .invalidArea(flag: flag, reason: "\(name) \(Self.text(value)) is not a latitude (-90 to 90)")
        }
        guard south < north else {
            throw .invalidArea(flag: flag, reason: "south \(Self.text(south)) must be below north \(Self.text(north)) (the order is W,S,E,N)")
        }
        guard west != east else { throw .invalidArea(flag: flag, reason: "west equals east: the box has no width") }
        let limit = WebMercator.maxLatitude
        guard north > -limit, south < limit else {
            throw .invalidArea(flag: flag, reason: "the box lies beyond the ±85.0511° latitude where Web Mercator tiles end")
        }
        let bounds = TileSourceMetadata.Bounds(southWest: LatLng(latitude: max(south, -limit), longitude: west),
                                               northEast: LatLng(latitude: min(north, limit), longitude: east))
        return ExtractArea(shape: .box(west: west, south: south, east: east, north: north), bounds: bounds)
    }

    /// The square box reaching `radiusKilometers` north, south, east and west of `center`
    /// (all longitudes near the poles; across the antimeridian when it gets there).
    package static func around(_ center: LatLng, radiusKilometers: Double, flag: String = "--radius") throws(RegionExtractError) -> ExtractArea {
        guard radiusKilometers.isFinite, radiusKilometers > 0, radiusKilometers <= 2000 else {
            throw .invalidArea(flag: flag, reason: "\(Self.text(radiusKilometers)) km: expected a radius above 0 and at most 2000 km")
        }
        let degrees = radiusKilometers * 1000 / WebMercator.earthRadiusMeters * 180 / .pi
        let limit = WebMercator.maxLatitude
        let south = max(-limit, center.latitude - degrees), north = min(limit, center.latitude + degrees)
        let cosine = cos(center.latitude * .pi / 180)
        let span = cosine > 1e-9 ? degrees / cosine : 360
        var west = -180.0, east = 180.0
        if span < 180 {
            west = center.longitude - span
            east = center.longitude + span
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
        }
        return try box(west: west, south: south, east: east, north: north, flag: flag)
    }

    /// Polygons (each an outer ring and its holes, rings closed or not) read from `flag`
    /// (a file name in messages).
    package static func polygons(_ polygons: [[[LatLng]]], flag: String) throws(RegionExtractError) -> ExtractArea {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        var kept: [[[LatLng]]] = []
        for (p, polygon) in polygons.enumerated() {
            guard let outer = polygon.first else { continue }
            for (r, ring) in polygon.enumerated() {
                let distinct = Set(ring.map { "\($0.latitude),\($0.longitude)" }).count
                guard distinct >= 3 else {
                    throw .invalidArea(flag: flag, reason: "polygon \(p + 1), ring \(r + 1) has \(distinct) distinct positions; a ring needs 3")
                }
                for c in ring {
                    guard c.isValid else {
                        throw .invalidArea(flag: flag, reason: "polygon \(p + 1) has the position \(c.longitude),\(c.latitude) outside -180…180, -90…90 (split polygons at the antimeridian)")
                    }
                }
            }
            for c in outer {
                west = min(west, c.longitude); east = max(east, c.longitude)
                south = min(south, c.latitude); north = max(north, c.latitude)
            }
            kept.append(polygon)
        }
        guard !kept.isEmpty else { throw .invalidArea(flag: flag, reason: "no polygon in it") }
        let limit = WebMercator.maxLatitude
        guard north > -limit, south < limit, west < east else {
            throw .invalidArea(flag: flag, reason: "the polygons have no area inside the ±85.0511° latitudes of Web Mercator tiles")
        }
        let bounds = TileSourceMetadata.Bounds(southWest: LatLng(latitude: max(south, -limit), longitude: west),
                                               northEast: LatLng(latitude: min(north, limit), longitude: east))
        return ExtractArea(shape: .polygons(kept), bounds: bounds)
    }

    /// `bbox W,S,E,N`, or `N polygons within bbox W,S,E,N`.
    package var description: String {
        switch shape {
        case .box: return "bbox \(boundsText)"
        case .polygons(let p): return "\(p.count == 1 ? "a polygon" : "\(p.count) polygons") within bbox \(boundsText)"
        }
    }

    /// The bounds as `W,S,E,N`, four decimals.
    package var boundsText: String {
        [bounds.southWest.longitude, bounds.southWest.latitude, bounds.northEast.longitude, bounds.northEast.latitude]
            .map(Self.text).joined(separator: ",")
    }

    /// Up to four decimals, without trailing zeros.
    static func text(_ value: Double) -> String {
        var s = String(format: "%.4f", value)
        while s.contains("."), s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    // MARK: - Tiles

    /// The ids of the tiles at `zooms` whose squares touch the area.
    ///
    /// Walks the tile quadtree from z0: a square outside the area is dropped with all its
    /// descendants, a square inside it adds every descendant at once — on the Hilbert curve
    /// a tile's descendants at zoom z are one run of 4^(z−k) ids — and only squares on the
    /// area's edge are split. The work grows with the area's outline, not its tile count.
    func tileRanges(zooms: ClosedRange<Int>) -> TileIDRanges {
        let geometry = Geometry(self)
        var out: [Range<UInt64>] = []
        func visit(_ k: Int, _ x: Int, _ y: Int, _ edges: [Int32]) {
            let scale = 1 / Double(1 << k)
            let square = Square(x0: Double(x) * scale, y0: Double(y) * scale, x1: Double(x + 1) * scale, y1: Double(y + 1) * scale)
            let (coverage, inner) = geometry.classify(square, edges: edges)
            switch coverage {
            case .outside:
                return
            case .inside:
                let position = PMTilesTileID.id(for: TileID(unchecked: k, x, y)) - Self.firstID(atZoom: k)
                for z in max(k, zooms.lowerBound)...zooms.upperBound {
                    let shift = UInt64(2 * (z - k))
                    let start = Self.firstID(atZoom: z) + (position << shift)
                    out.append(start..<(start + (UInt64(1) << shift)))
                }
            case .partial:
                if k >= zooms.lowerBound {
                    let id = PMTilesTileID.id(for: TileID(unchecked: k, x, y))
                    out.append(id..<(id + 1))
                }
                guard k < zooms.upperBound else { return }
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { visit(k + 1, 2 * x + dx, 2 * y + dy, inner) }
            }
        }
        visit(0, 0, 0, geometry.allEdges)
        return TileIDRanges(out)
    }

    /// The id of tile (z, 0, 0): the number of tiles at all lower zooms.
    static func firstID(atZoom z: Int) -> UInt64 { ((UInt64(1) << (2 * UInt64(z))) - 1) / 3 }

    /// An axis-aligned square of `WorldPoint` space (x east, y south, 0…1).
    struct Square {
        var x0, y0, x1, y1: Double
    }

    enum Coverage { case outside, partial, inside }

    /// The area in world space, ready for square tests.
    struct Geometry {
        /// Boxes: one, or two across the antimeridian.
        var boxes: [Square] = []
        /// Polygon edges: (ax, ay, bx, by).
        var edges: [(Double, Double, Double, Double)] = []
        /// Edges by horizontal band of y, for point-in-polygon tests.
        var bands: [[Int32]] = []
        var bandTop = 0.0, bandHeight = 1.0

        var allEdges: [Int32] { (0..<Int32(edges.count)).map { $0 } }

        init(_ area: ExtractArea) {
            switch area.shape {
            case .box(let west, let south, let east, let north):
                let nw = WebMercator.project(LatLng(latitude: north, longitude: west))
                let se = WebMercator.project(LatLng(latitude: south, longitude: east))
                if west < east {
                    boxes = [Square(x0: nw.x, y0: nw.y, x1: se.x, y1: se.y)]
                } else {
                    boxes = [Square(x0: nw.x, y0: nw.y, x1: 1, y1: se.y), Square(x0: 0, y0: nw.y, x1: se.x, y1: se.y)]
                }
            case .polygons(let polygons):
                for ring in polygons.joined() {
                    let points = ring.map(WebMercator.project)
                    for i in points.indices {
                        let a = points[i], b = points[(i + 1) % points.count]
                        if a != b { edges.append((a.x, a.y, b.x, b.y)) }
                    }
                }
                let top = edges.map { min($0.1, $0.3) }.min() ?? 0
                let bottom = edges.map { max($0.1, $0.3) }.max() ?? 1
                let count = max(1, min(4096, edges.count / 8))
                bandTop = top
                bandHeight = max((bottom - top) / Double(count), 1e-12)
                bands = Array(repeating: [], count: count)
                for (i, e) in edges.enumerated() {
                    let first = band(min(e.1, e.3)), last = band(max(e.1, e.3))
                    for b in first...last { bands[b].append(Int32(i)) }
                }
            }
        }

        private func band(_ y: Double) -> Int {
            max(0, min(bands.count - 1, Int((y - bandTop) / bandHeight)))
        }

        /// How `square` lies to the area, and (for polygons) the edges that cross it, which
        /// are the only ones its sub-squares need to test.
        func classify(_ square: Square, edges subset: [Int32]) -> (coverage: Coverage, edges: [Int32]) {
            if !boxes.isEmpty {
                for box in boxes {
                    // Open intervals: a tile that only shares an edge with the box is not in it.
                    guard square.x0 < box.x1, square.x1 > box.x0, square.y0 < box.y1, square.y1 > box.y0 else { continue }
                    let inside = square.x0 >= box.x0 && square.x1 <= box.x1 && square.y0 >= box.y0 && square.y1 <= box.y1
                    return (inside ? .inside : .partial, [])
                }
                return (.outside, [])
            }
            let crossing = subset.filter { Self.segment(edges[Int($0)], touches: square) }
            if !crossing.isEmpty { return (.partial, crossing) }
            // No edge in the square: all of it is on one side; its centre tells which.
            return (contains((square.x0 + square.x1) / 2, (square.y0 + square.y1) / 2) ? .inside : .outside, [])
        }

        /// Even-odd point in polygon: crossings of a ray towards +x.
        func contains(_ px: Double, _ py: Double) -> Bool {
            guard !bands.isEmpty else { return false }
            var inside = false
            for i in bands[band(py)] {
                let (ax, ay, bx, by) = edges[Int(i)]
                if (ay > py) != (by > py), ax + (py - ay) * (bx - ax) / (by - ay) > px { inside.toggle() }
            }
            return inside
        }

        /// Whether the segment meets the closed square (Liang–Barsky clipping).
        static func segment(_ e: (Double, Double, Double, Double), touches s: Square) -> Bool {
            let (ax, ay, bx, by) = e
            if max(ax, bx) < s.x0 || min(ax, bx) > s.x1 || max(ay, by) < s.y0 || min(ay, by) > s.y1 { return false }
            var t0 = 0.0, t1 = 1.0
            let dx = bx - ax, dy = by - ay
            for (p, q) in [(-dx, ax - s.x0), (dx, s.x1 - ax), (-dy, ay - s.y0), (dy, s.y1 - ay)] {
                if p == 0 {
                    if q < 0 { return false }
                } else {
                    let t = q / p
                    if p < 0 {
                        if t > t1 { return false }
                        t0 = max(t0, t)
                    } else {
                        if t < t0 { return false }
                        t1 = min(t1, t)
                    }
                }
            }
            return t0 <= t1
        }
    }
}
