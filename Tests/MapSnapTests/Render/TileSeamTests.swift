import Foundation
import Testing
@testable import MapSnap

/// Tile borders must not show: a translucent polygon that covers four tiles (each with the
/// usual 64-unit buffer) is one uniform colour, and a translucent line crossing the tile
/// corner is no darker there — at a fractional zoom with the corner inside the image.
@Suite struct TileSeamTests {
    /// Writes z1 tiles (all four) holding a buffered square polygon ("area") and a diagonal
    /// line through each tile ("road"), plus a style drawing them translucently.
    static func makeFixture() throws -> (style: String, dir: String) {
        let dir = TestPaths.temporaryDirectory()
        func zz(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        let b: Int64 = 64, e: Int64 = 4096
        // Square ring -b…e+b, clockwise in y-down tile space (MVT exterior).
        let square: [UInt64] = [MVTTestTiles.command(1, 1), zz(-b), zz(-b),
                                MVTTestTiles.command(2, 3), zz(e + 2 * b), zz(0), zz(0), zz(e + 2 * b), zz(-(e + 2 * b)), zz(0),
                                MVTTestTiles.command(7, 1)]
        let diagonal: [UInt64] = [MVTTestTiles.command(1, 1), zz(-b), zz(-b), MVTTestTiles.command(2, 1), zz(e + 2 * b), zz(e + 2 * b)]
        let tile = MVTTestTiles.tile([
            MVTTestTiles.layer(name: "area", features: [.init(type: 3, geometry: square)]),
            MVTTestTiles.layer(name: "road", features: [.init(type: 2, geometry: diagonal)]),
        ])
        for x in 0..<2 {
            for y in 0..<2 {
                try FileManager.default.createDirectory(atPath: "\(dir)/tiles/1/\(x)", withIntermediateDirectories: true)
                try Data(tile).write(to: URL(fileURLWithPath: "\(dir)/tiles/1/\(x)/\(y).pbf"))
            }
        }
        let style = """
        {"version": 8, "sources": {"t": {"type": "vector", "url": "tiles"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "area", "type": "fill", "source": "t", "source-layer": "area", "paint": {"fill-color": "rgba(0, 64, 255, 0.5)"}},
          {"id": "road", "type": "line", "source": "t", "source-layer": "road",
           "layout": {"line-cap": "butt"}, "paint": {"line-color": "rgba(255, 0, 0, 0.5)", "line-width": 10}}]}
        """
        try Data(style.utf8).write(to: URL(fileURLWithPath: "\(dir)/style.json"))
        return (dir + "/style.json", dir)
    }

    @Test func noSeamsAtATileCornerAtFractionalZoom() throws {
        let (style, _) = try Self.makeFixture()
        // The four z1 tiles meet at (0°, 0°); put that corner off-centre inside the image.
        let o = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: LatLng(4, -7), zoom: 1.37,
                                   style: style, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        let canvas = snap.image
        let corner = snap.point(for: LatLng(0, 0))
        #expect(corner.x > 50 && corner.x < 250 && corner.y > 50 && corner.y < 150)
        // Every pixel away from the road lines has exactly the fill colour: no seam, no
        // darker buffer strip along the tile edges through the corner.
        let fill = canvas.color(atX: Int(corner.x) - 40, y: Int(corner.y) + 5)
        var off = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let p = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                if distanceToRoads(p, snap) < 9 { continue }
                if canvas.color(atX: x, y: y) != fill { off += 1 }
            }
        }
        #expect(off == 0, "\(off) pixels differ from the fill colour \(fill)")
        // The road through the corner is no darker at the corner than away from it.
        let atCorner = canvas.color(atX: Int(corner.x), y: Int(corner.y))
        let away = snap.point(for: snap.coordinate(for: PixelPoint(x: corner.x - 30, y: corner.y - 30)))
        let elsewhere = canvas.color(atX: Int(away.x), y: Int(away.y))
        #expect(abs(Int(atCorner.red) - Int(elsewhere.red)) <= 2 && abs(Int(atCorner.blue) - Int(elsewhere.blue)) <= 2,
                "corner \(atCorner) vs elsewhere \(elsewhere)")
        Golden.expect(canvas, named: "seams", in: "BaseMap")
    }

    /// Distance from a pixel to the tiles' diagonals (lines x − y = k in world pixels).
    func distanceToRoads(_ p: PixelPoint, _ snap: MapSnapshot) -> Double {
        let w = snap.camera.worldSize
        let c = snap.camera.centerWorld
        // World pixel coordinates of p.
        let wx = c.x * w + (p.x - Double(snap.image.width) / 2)
        let wy = c.y * w + (p.y - Double(snap.image.height) / 2)
        let tile = w / 2
        // Diagonals pass through tile origins: x − y ≡ 0 (mod tile).
        var d = (wx - wy).truncatingRemainder(dividingBy: tile)
        if d < 0 { d += tile }
        return min(d, tile - d) / 2.0.squareRoot()
    }
}
