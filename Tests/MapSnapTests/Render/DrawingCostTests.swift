import Foundation
import MapSnapTesting
import Testing
@testable import MapSnap

/// `DrawingCost`: the estimate a server checks before rendering (issue 28, finding 1).
@Suite struct DrawingCostTests {
    /// The finding's attack: 1000 polygons of 100 points spanning the world, stroke width
    /// 200, 512×512 at scale 4 and zoom 0 (~40 CPU-seconds to draw).
    static func attack(polygons: Int = 1_000, points: Int = 100) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 512, height: 512)
        o.scale = 4
        o.center = LatLng(0, 0)
        o.zoom = 0
        var rng = SeededGenerator(seed: 28)
        func next() -> Double { Double.random(in: 0..<1, using: &rng) }
        for _ in 0..<polygons {
            let ring = (0..<points).map { _ in LatLng(next() * 160 - 80, next() * 358 - 179) }
            o.overlays.append(.polygon(PolygonOverlay(rings: [ring], fillColor: Color(rgba: 0xFF000028),
                                                      strokeColor: Color(rgba: 0x0000FFC8), strokeWidth: 200)))
        }
        return o
    }

    /// A real map made of a Static Maps query, as the server parses one.
    static func staticMap(_ query: String) throws -> MapSnapshotOptions {
        var builder = RenderSpecBuilder(options: MapSnapshotOptions())
        try builder.applyStaticMapsURL(query, origin: "url")
        return try builder.build().options
    }

    @Test func theAttackIsFarOverTheDefaultLimit() {
        let cost = DrawingCost.estimate(Self.attack())
        let limit = ServerConfiguration.Limits().maximumDrawingCost
        #expect(cost > 4 * limit, "attack estimate \(cost) vs limit \(limit)")
    }

    @Test func costGrowsWithStrokeWidthAndCount() {
        let few = DrawingCost.estimate(Self.attack(polygons: 10))
        let many = DrawingCost.estimate(Self.attack(polygons: 100))
        #expect(many > 9 * few && many < 11 * few, "\(few) → \(many)")
        var thin = Self.attack(polygons: 10)
        thin.overlays = thin.overlays.map { o in
            guard case .polygon(var p) = o else { return o }
            p.strokeWidth = 2
            return .polygon(p)
        }
        #expect(DrawingCost.estimate(thin) < few / 2)
    }

    /// Real maps stay far below the default: a route across a city, markers, a filled area,
    /// a long GPX-like track with thousands of points, a big image at scale 2.
    @Test(arguments: [
        "size=600x400&markers=color:red|label:A|60.17,24.94&markers=color:blue|label:B|60.19,24.96",
        "size=640x640&scale=2&path=color:0x0000ffcc|weight:5|60.168,24.938|60.17,24.95|60.175,24.945|60.2,24.9|60.21,25.0",
        "size=640x640&scale=2&path=fillcolor:0xAA000033|color:0xFFFFFF00|60.1,24.8|60.3,24.8|60.3,25.1|60.1,25.1",
        "size=512x512&zoom=1&center=0,0&path=weight:10|color:red|-60,-170|60,170|-60,170|60,-170",
    ])
    func realMapsAreFarBelowTheDefault(_ query: String) throws {
        let cost = DrawingCost.estimate(try Self.staticMap(query))
        #expect(cost > 0 && cost < ServerConfiguration.Limits().maximumDrawingCost / 20, "\(query): \(cost)")
    }

    @Test func aLongTrackAtTheLargestSizeIsBelowTheDefault() {
        var o = MapSnapshotOptions(width: 1024, height: 1024)
        o.scale = 2
        // 50,000 points wandering over ~100 km, 8 px wide with a casing: a long GPX track.
        var rng = SeededGenerator(seed: 1)
        var p = LatLng(60.0, 24.5)
        var line: [LatLng] = []
        for _ in 0..<50_000 {
            let a = Double.random(in: 0..<(2 * .pi), using: &rng)
            p = LatLng(min(61, max(59, p.latitude + 0.0004 * sin(a) + 0.00001)), p.longitude + 0.0004 * cos(a) + 0.00002)
            line.append(p)
        }
        var path = PathOverlay(coordinates: line, color: Color(rgb: 0xFF0000), width: 8)
        path.casingColor = .white
        path.casingWidth = 2
        o.overlays = [.path(path)]
        let cost = DrawingCost.estimate(o)
        #expect(cost < ServerConfiguration.Limits().maximumDrawingCost / 5, "\(cost)")
    }
}
