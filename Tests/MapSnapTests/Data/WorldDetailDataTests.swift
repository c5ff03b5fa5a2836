import Foundation
import Testing
@testable import MapSnap

/// The committed mid-zoom world tiles (`Data/world-detail.mbtiles`), decoded: what they
/// declare, that z8 is complete, and that rivers, places, airports and the shoreline are
/// where independent references (landmarks' published coordinates) put them.
@Suite struct WorldDetailDataTests {
    static let path: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/world-detail.mbtiles").path

    static func source() throws -> MBTilesSource { try MBTilesSource(path: path) }

    /// The stored tile drawn at `zoom` over `point`, decoded, with the point in its units.
    static func tile(at point: LatLng, zoom: Int, in source: MBTilesSource) throws -> (VectorTile, x: Double, y: Double, TileID) {
        let w = WebMercator.project(point)
        let n = Double(1 << zoom)
        let wanted = try #require(TileID(z: zoom, x: Int(w.x * n), y: Int(w.y * n)))
        let stored = source.storedTile(for: wanted)
        let bytes = try #require(try source.tileData(for: stored))
        let tile = try VectorTile(bytes: bytes)
        let m = Double(1 << stored.z)
        return (tile, (w.x * m - Double(stored.x)) * 4096, (w.y * m - Double(stored.y)) * 4096, stored)
    }

    /// Every decoded part of every feature of `layer` whose `class` is `cls` (or any).
    static func parts(_ tile: VectorTile, layer: String, cls: String? = nil) throws -> [[TilePoint]] {
        guard let l = try tile.layer(named: layer) else { return [] }
        var out: [[TilePoint]] = []
        var g = TileGeometry()
        for f in l.features {
            if let cls, f.value(forKey: "class") != .string(cls) { continue }
            try f.decodeGeometry(into: &g)
            for i in 0..<g.partCount { out.append(Array(g.part(i))) }
        }
        return out
    }

    /// Even-odd containment over all rings (exteriors and holes alike).
    static func inside(_ x: Double, _ y: Double, rings: [[TilePoint]]) -> Bool {
        var inside = false
        for ring in rings where ring.count > 2 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                let ay = Double(a.y), by = Double(b.y)
                if (ay > y) != (by > y) {
                    let cx = Double(a.x) + (y - ay) / (by - ay) * Double(b.x - a.x)
                    if x < cx { inside.toggle() }
                }
                j = i
            }
        }
        return inside
    }

    /// Shortest distance from (x, y) to any segment of `lines`, in tile units.
    static func distance(_ x: Double, _ y: Double, to lines: [[TilePoint]]) -> Double {
        var best = Double.infinity
        for line in lines where line.count > 1 {
            for i in 1..<line.count {
                let ax = Double(line[i - 1].x), ay = Double(line[i - 1].y)
                let dx = Double(line[i].x) - ax, dy = Double(line[i].y) - ay
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0
                best = min(best, hypot(x - ax - t * dx, y - ay - t * dy))
            }
        }
        return best
    }

    /// Metres per tile unit at `latitude` for a tile of zoom `z`.
    static func metresPerUnit(_ latitude: Double, z: Int) -> Double {
        40_075_016.686 * cos(latitude * .pi / 180) / Double(1 << z) / 4096
    }

    @Test func metadataDeclaresZoomsLayersAndSparseness() throws {
        let meta = try Self.source().metadata
        #expect(meta.format == .mvt)
        #expect(meta.minZoom == 8)
        #expect((9...12).contains(meta.maxZoom))
        #expect(meta.absentTilesAreAncestors)
        let b = try #require(meta.bounds)
        #expect(b.southWest.longitude == -180 && b.northEast.longitude == 180)
        #expect(b.southWest.latitude < -85 && b.northEast.latitude > 85)
        #expect(Set(meta.vectorLayers.map(\.id)) == ["water", "landcover", "waterway", "aeroway", "boundary",
                                                     "water_name", "aerodrome_label", "place"])
        for layer in meta.vectorLayers {
            #expect(layer.minZoom == meta.minZoom && layer.maxZoom == meta.maxZoom, "\(layer.id)")
        }
        let credit = try #require(meta.attribution)
        #expect(credit.contains("GSHHG") && credit.contains("GeoNames") && credit.contains("OurAirports"))
    }

    /// The walk for absent tiles ends at z8, so every z8 tile must be there (sampled: a
    /// prime stride through all 65,536).
    @Test func firstZoomIsComplete() throws {
        let source = try Self.source()
        var i = 0
        while i < 1 << 16 {
            let tile = try #require(TileID(z: 8, x: i % 256, y: i / 256))
            #expect(try source.hasTile(tile), "\(tile)")
            i += 251
        }
    }

    /// The Seine through Paris follows its bends: it passes near the bridges all along the
    /// loop (WDBII is accurate to a few hundred metres here; the z7 tiles' river was 540 m
    /// off on average, 1.5 km at Sèvres), drawn with many vertices rather than the z7 tiles'
    /// few straight segments.
    @Test func parisHasTheSeineInItsBends() throws {
        let source = try Self.source()
        let z = source.metadata.maxZoom
        // Pont de Bercy, d'Austerlitz, Neuf, de l'Alma, de Grenelle, de Sèvres, de Saint-Cloud,
        // de Suresnes, de Neuilly, de Clichy.
        let bridges = [LatLng(48.8383, 2.3757), LatLng(48.8430, 2.3660), LatLng(48.8575, 2.3412),
                       LatLng(48.8637, 2.3017), LatLng(48.8501, 2.2780), LatLng(48.8253, 2.2283),
                       LatLng(48.8436, 2.2206), LatLng(48.8716, 2.2294), LatLng(48.8853, 2.2585),
                       LatLng(48.9097, 2.2968)]
        var total = 0.0
        for bridge in bridges {
            let (tile, x, y, _) = try Self.tile(at: bridge, zoom: z, in: source)
            let rivers = try Self.parts(tile, layer: "waterway", cls: "river")
            let metres = Self.distance(x, y, to: rivers) * Self.metresPerUnit(bridge.latitude, z: z)
            #expect(metres < 1000, "\(bridge): the nearest river is \(Int(metres)) m away")
            total += metres
        }
        #expect(total / Double(bridges.count) < 350, "mean distance \(Int(total / Double(bridges.count))) m")
        let pontNeuf = bridges[2]
        let (seine, sx, sy, _) = try Self.tile(at: pontNeuf, zoom: z, in: source)
        let radius = 6000 / Self.metresPerUnit(pontNeuf.latitude, z: z)
        let near = try Self.parts(seine, layer: "waterway", cls: "river").joined()
            .filter { hypot(Double($0.x) - sx, Double($0.y) - sy) < radius }.count
        #expect(near >= 15, "\(near) river vertices within 6 km of Pont Neuf")
        // Paris is labelled (a capital), and so is Charles de Gaulle airport.
        let (tile, _, _, _) = try Self.tile(at: LatLng(48.8534, 2.3488), zoom: z, in: source)
        let places = try #require(try tile.layer(named: "place"))
        #expect(places.features.contains { $0.value(forKey: "name") == .string("Paris") && $0.value(forKey: "capital") == .number(2) })
        let (cdg, _, _, _) = try Self.tile(at: LatLng(49.0097, 2.5479), zoom: z, in: source)
        let airports = try #require(try cdg.layer(named: "aerodrome_label"))
        #expect(airports.features.contains { $0.value(forKey: "iata") == .string("CDG") && $0.value(forKey: "class") == .string("international") })
        #expect(try !Self.parts(cdg, layer: "aeroway", cls: "runway").isEmpty)
    }

    /// Tokyo Bay's shoreline at the tiles drawn from z9 up: landmarks just inland are land,
    /// points of the bay just off them are water.
    @Test(arguments: [
        // (name, point, water?)
        ("Tokyo Station", LatLng(35.6812, 139.7671), false),
        ("Yokohama Landmark Tower", LatLng(35.4547, 139.6317), false),
        ("Kisarazu Station", LatLng(35.3811, 139.9253), false),
        ("Chiba Station", LatLng(35.6131, 140.1134), false),
        ("the middle of the bay", LatLng(35.50, 139.85), true),
        ("off Kawasaki's shore", LatLng(35.47, 139.78), true),
        ("off Chiba port", LatLng(35.57, 140.03), true),
    ])
    func tokyoBayShore(name: String, point: LatLng, water: Bool) throws {
        let source = try Self.source()
        let (tile, x, y, _) = try Self.tile(at: point, zoom: source.metadata.maxZoom, in: source)
        let ocean = try Self.parts(tile, layer: "water", cls: "ocean")
        #expect(Self.inside(x, y, rings: ocean) == water, "\(name)")
    }

    /// Open ocean is left out past z8 and reads back as its z8 ancestor, which is water.
    @Test func openOceanIsAnAncestorsWater() throws {
        let source = try Self.source()
        let point = LatLng(30.0, -40.0)  // mid-Atlantic
        let (tile, x, y, stored) = try Self.tile(at: point, zoom: source.metadata.maxZoom, in: source)
        #expect(stored.z == 8)
        #expect(Self.inside(x, y, rings: try Self.parts(tile, layer: "water", cls: "ocean")))
    }
}
