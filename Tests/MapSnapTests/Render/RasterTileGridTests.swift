import Foundation
import Testing
@testable import MapSnap

/// Raster tiles shown at their own resolution land on whole pixels: a 1-px checkerboard in
/// the tiles stays pure black and white (bilinear resampling at a sub-pixel offset would turn
/// it grey), and the pattern runs on across the tile seams without a gap or a repeated column.
@Suite struct RasterTileGridTests {
    /// Four z1 tiles whose checkerboard is global: pixel (X, Y) of the z1 world is black when
    /// X + Y is even, so the seams must not break the alternation.
    static func makeTiles() throws -> String {
        let dir = TestPaths.temporaryDirectory()
        for tx in 0..<2 {
            for ty in 0..<2 {
                var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
                for y in 0..<256 {
                    for x in 0..<256 where (tx * 256 + x + ty * 256 + y) % 2 == 0 {
                        let i = (y * 256 + x) * 4
                        pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0
                    }
                }
                let tile = Canvas(width: 256, height: 256, premultipliedPixels: pixels)
                try FileManager.default.createDirectory(atPath: "\(dir)/1/\(tx)", withIntermediateDirectories: true)
                try Data(try PNGEncoder.encode(tile)).write(to: URL(fileURLWithPath: "\(dir)/1/\(tx)/\(ty).png"))
            }
        }
        return dir
    }

    @Test func tilesAtTheirOwnResolutionStaySharpAcrossSeams() throws {
        let dir = try Self.makeTiles()
        // The tiles meet at (0°, 0°); a centre off the pixel grid puts that corner inside the
        // image at a fractional device position.
        let o = MapSnapshotOptions(width: 120, height: 90, scale: 1, center: LatLng(0.37, -0.53), zoom: 1,
                                   style: TestPaths.plainStyle, source: dir,
                                   attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        let canvas = snap.image
        var grey = 0, broken = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let c = canvas.color(atX: x, y: y)
                if c != .black && c != .white { grey += 1; continue }
                // Alternation with the right-hand and lower neighbours, seams included.
                if x + 1 < canvas.width, canvas.color(atX: x + 1, y: y) == c { broken += 1 }
                if y + 1 < canvas.height, canvas.color(atX: x, y: y + 1) == c { broken += 1 }
            }
        }
        #expect(grey == 0, "\(grey) resampled (grey) pixels")
        #expect(broken == 0, "\(broken) pixels repeat their neighbour: a seam gap or overlap")
    }

    @Test func tilesAtAFractionalZoomAreStillResampled() throws {
        let dir = try Self.makeTiles()
        let o = MapSnapshotOptions(width: 120, height: 90, scale: 1, center: LatLng(0.37, -0.53), zoom: 1.3,
                                   style: TestPaths.plainStyle, source: dir,
                                   attribution: "", showsScaleBar: false)
        let canvas = try MapSnapshotter(options: o).render().image
        var grey = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where ![Color.black, .white].contains(canvas.color(atX: x, y: y)) { grey += 1 }
        }
        #expect(grey > canvas.width * canvas.height / 2, "a scaled checkerboard is filtered: only \(grey) grey pixels")
    }
}
