import Foundation
import Testing
@testable import MapSnap

/// A broken tile costs that tile and one warning — never the map.
@Suite struct BrokenTileTests {
    static let corruptions: [(String, [UInt8])] = [
        ("truncated protobuf", [0x1A, 0x40, 0x0A, 0x04, 0x61]),                      // layer length 64, 3 bytes present
        ("bad gzip", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xFF, 0xFF, 0x00]),
        ("absurd extent", MVTTestTiles.tile([MVTTestTiles.layer(name: "area", extent: 1 << 40, features: [])])),
        ("bad geometry commands", MVTTestTiles.tile([MVTTestTiles.layer(name: "area", features: [
            .init(type: 3, geometry: [MVTTestTiles.command(2, 3), 2, 2, 4, 4, 6, 6])])])),  // LineTo before MoveTo
    ]

    @Test(arguments: corruptions)
    func brokenTileIsSkippedWithOneWarning(name: String, bytes: [UInt8]) throws {
        let (style, dir) = try TileSeamTests.makeFixture()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/tiles/1/1/1.pbf"))
        let o = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: LatLng(4, -7), zoom: 1.37,
                                   style: style, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.count == 1, "\(name): \(snap.warnings)")
        #expect(snap.warnings.first?.contains("1/1/1") == true)
        if name == "truncated protobuf" {
            // The decoder's typed error reaches the warning with its byte offset.
            #expect(snap.warnings.first?.contains("at byte 1 needs 64 bytes") == true, "\(snap.warnings)")
        }
        // The other three tiles still drew: the north-west quadrant has the fill colour.
        let corner = snap.point(for: LatLng(0, 0))
        let nw = snap.image.color(atX: Int(corner.x) - 40, y: Int(corner.y) - 10)
        #expect(nw != .white)
        // The broken tile's quadrant (south-east) shows the background.
        let se = snap.image.color(atX: Int(corner.x) + 60, y: Int(corner.y) + 10)
        #expect(se == .white, "\(name): \(se)")
    }
}
