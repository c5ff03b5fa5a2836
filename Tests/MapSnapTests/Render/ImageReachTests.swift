import Foundation
import Testing
@testable import MapSnap

/// Line layers walk only the features that can leave marks on the image (the canvas grown
/// by the stroke's reach), not the whole of every covering tile. These lines lie wholly
/// outside a 64 × 64 image and still reach into it — by a miter tip, or by the far edge
/// of a `line-gap-width` pair — so a reach too small would drop them.
@Suite struct ImageReachTests {
    /// One z0 tile (extent 4096; at zoom 2 one pixel is 4 units) with a V whose sharp miter
    /// points down into the image, and a straight line above it, in their own layers.
    static func render() throws -> MapImage {
        let dir = TestPaths.temporaryDirectory()
        func zz(_ v: Int64) -> UInt64 { MVTTestTiles.zigzag(v) }
        // The image spans tile units 1920…2176 each way. The V's vertex is 20 px above it,
        // 8 px left of the middle (where the covering tiles meet and the line is cut).
        let vee: [UInt64] = [MVTTestTiles.command(1, 1), zz(2016 - 100), zz(1840 - 800),
                             MVTTestTiles.command(2, 2), zz(100), zz(800), zz(100), zz(-800)]
        // A line 15 px above the image: with a 40-px gap its lower edge is 7 px inside.
        let above: [UInt64] = [MVTTestTiles.command(1, 1), zz(1000), zz(1860), MVTTestTiles.command(2, 1), zz(2000), zz(0)]
        let tile = MVTTestTiles.tile([
            MVTTestTiles.layer(name: "vee", features: [.init(type: 2, geometry: vee)]),
            MVTTestTiles.layer(name: "above", features: [.init(type: 2, geometry: above)]),
        ])
        try FileManager.default.createDirectory(atPath: "\(dir)/tiles/0/0", withIntermediateDirectories: true)
        try Data(tile).write(to: URL(fileURLWithPath: "\(dir)/tiles/0/0/0.pbf"))
        let style = """
        {"version": 8, "sources": {"t": {"type": "vector", "url": "tiles"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "vee", "type": "line", "source": "t", "source-layer": "vee",
           "layout": {"line-join": "miter", "line-miter-limit": 10}, "paint": {"line-color": "#ff0000", "line-width": 30}},
          {"id": "above", "type": "line", "source": "t", "source-layer": "above",
           "paint": {"line-color": "#0000ff", "line-width": 4, "line-gap-width": 40}}]}
        """
        try Data(style.utf8).write(to: URL(fileURLWithPath: "\(dir)/style.json"))
        let o = MapSnapshotOptions(width: 64, height: 64, scale: 1, center: LatLng(0, 0), zoom: 2,
                                   style: dir + "/style.json", attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        // A z0 tile drawn at z2 is over-zoomed: the coverage warning says so, and nothing else.
        #expect(snap.warnings == [snap.coverage.warning].compactMap { $0 } && snap.coverage.lacksDetail, "\(snap.warnings)")
        return snap.image
    }

    @Test func linesOutsideTheImageStillDrawWhatReachesIt() throws {
        let image = try Self.render()
        // The miter tip (8 half-widths below the vertex) runs down column 24.
        let tip = image.color(atX: 24, y: 3)
        #expect(tip.red > 200 && tip.green < 60 && tip.blue < 60, "miter tip: \(tip)")
        // The gap line's lower edge: rows 5…9, across the image.
        let edge = image.color(atX: 4, y: 7)
        #expect(edge.blue > 200 && edge.red < 60 && edge.green < 60, "gap line's edge: \(edge)")
        // Below both, the background.
        #expect(image.color(atX: 4, y: 40) == Color(red: 255, green: 255, blue: 255))
    }
}
