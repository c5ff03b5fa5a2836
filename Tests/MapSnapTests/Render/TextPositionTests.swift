import Foundation
import Testing
@testable import MapSnap

/// `text-radial-offset` and `text-variable-anchor` (the Protomaps styles' city labels sit up
/// and to the right of their point): the offset points away from the anchored side, and a
/// label whose first anchor collides tries the next.
@Suite struct TextPositionTests {
    @Test(arguments: [
        (TextAnchor.left, PixelPoint(x: 10, y: 0)), (.right, PixelPoint(x: -10, y: 0)),
        (.top, PixelPoint(x: 0, y: 10)), (.bottom, PixelPoint(x: 0, y: -10)), (.center, PixelPoint(x: 0, y: 0)),
        (.bottomLeft, PixelPoint(x: 10 / 2.0.squareRoot(), y: -10 / 2.0.squareRoot())),
        (.topRight, PixelPoint(x: -10 / 2.0.squareRoot(), y: 10 / 2.0.squareRoot())),
    ])
    func radialOffsetPointsAwayFromTheAnchoredSide(anchor: TextAnchor, expected: PixelPoint) {
        let o = SymbolPlacer.TextPosition.radial(anchor, 10)
        #expect(abs(o.x - expected.x) < 1e-9 && abs(o.y - expected.y) < 1e-9)
        // A negative offset is none, as in MapLibre.
        #expect(SymbolPlacer.TextPosition.radial(anchor, -3) == PixelPoint(x: 0, y: 0))
    }

    /// Dark pixels of the render right of / left of, above / below the point (the image
    /// centre), for labels at one point.
    func ink(names: [String], layout: String) throws -> (right: Int, left: Int, above: Int, below: Int, warnings: [String]) {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let zz = MVTTestTiles.zigzag
        var features: [MVTTestTiles.Feature] = []
        for i in names.indices {
            features.append(.init(type: 1, tags: [0, UInt64(i)], geometry: [MVTTestTiles.command(1, 1), zz(2048), zz(2048)]))
        }
        let tile = MVTTestTiles.tile([MVTTestTiles.layer(name: "places", keys: ["name"], values: names.map(MVTTestTiles.stringValue),
                                                         features: features)])
        let style = try MVTTestTiles.labelStyle(for: tile, in: dir, sourceLayer: "places", layout: layout)
        // z0 tile at zoom 0.5: one tile, the point (the tile's centre) at the image centre.
        let o = MapSnapshotOptions(width: 300, height: 300, scale: 1, center: LatLng(0, 0), zoom: 0.5,
                                   style: style, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        var r = (right: 0, left: 0, above: 0, below: 0, warnings: snap.warnings)
        for y in 0..<300 {
            for x in 0..<300 where snap.image.color(atX: x, y: y).red < 128 {
                if x >= 150 { r.right += 1 } else { r.left += 1 }
                if y < 150 { r.above += 1 } else { r.below += 1 }
            }
        }
        return r
    }

    @Test func variableAnchorWithRadialOffsetSetsTheTextUpAndRight() throws {
        let r = try ink(names: ["Helsinki"], layout: #""text-variable-anchor": ["bottom-left"], "text-radial-offset": 0.5"#)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        #expect(r.right > 100 && r.left == 0 && r.above > 100 && r.below == 0, "\(r)")
    }

    @Test func radialOffsetMovesAFixedAnchorToo() throws {
        let r = try ink(names: ["Helsinki"], layout: #""text-anchor": "top", "text-radial-offset": 1"#)
        #expect(r.above == 0 && r.below > 100, "\(r)")
        #expect(r.left > 20 && r.right > 20, "centred horizontally: \(r)")
    }

    /// Two labels at one point: the second finds the first anchor taken and takes the next.
    @Test func aCollidingLabelTriesTheNextAnchor() throws {
        let one = try ink(names: ["Helsinki"], layout: #""text-variable-anchor": ["bottom-left", "top-right"], "text-radial-offset": 0.3"#)
        #expect(one.left == 0 && one.below == 0)
        let two = try ink(names: ["Helsinki", "Espoo"], layout: #""text-variable-anchor": ["bottom-left", "top-right"], "text-radial-offset": 0.3"#)
        #expect(two.right > 100 && two.above > 100)
        #expect(two.left > 100 && two.below > 100, "the second label went down and left: \(two)")
        // With one fixed anchor the second label has nowhere to go.
        let fixed = try ink(names: ["Helsinki", "Espoo"], layout: #""text-anchor": "bottom-left", "text-radial-offset": 0.3"#)
        #expect(fixed.left == 0 && fixed.below == 0)
    }
}
