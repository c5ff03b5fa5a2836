import Foundation
import Testing
@testable import MapSnap

/// `text-max-angle` as MapLibre applies it to text along a line: the turns within any
/// stretch of 3/5 of the text size are summed, so a corner cut into two 45° turns (as OSM
/// draws many street corners) is the 90° corner it is — "Elielinaukio" was bent round one.
@Suite struct LineLabelAngleTests {
    static let straight = [PixelPoint(x: 0, y: 0), PixelPoint(x: 100, y: 0)]
    /// 50 px east, then a 45° chamfer 7 px long, then south.
    static let chamfered = [PixelPoint(x: 0, y: 0), PixelPoint(x: 50, y: 0), PixelPoint(x: 55, y: 5), PixelPoint(x: 55, y: 60)]
    /// The same two 45° turns, 40 px apart: a gentle S-bend at this window.
    static let spreadOut = [PixelPoint(x: 0, y: 0), PixelPoint(x: 30, y: 0), PixelPoint(x: 58, y: 28), PixelPoint(x: 58, y: 80)]

    static let maxAngle = 45 * Double.pi / 180

    @Test(arguments: [
        (straight, 0.0, 100.0, false),
        // The chamfer lies on the label: 90° within 8.4 px.
        (chamfered, 20.0, 90.0, true),
        // The label ends before the first turn, or starts after the second.
        (chamfered, 0.0, 49.0, false),
        (chamfered, 58.0, 110.0, false),
        // Only one 45° turn is on the label: allowed, as MapLibre allows it.
        (chamfered, 0.0, 52.0, false),
        // 40 px apart, the two turns never share a window.
        (spreadOut, 0.0, 110.0, false),
    ] as [([PixelPoint], Double, Double, Bool)])
    func turnsAreSummedWithinTheWindow(line: [PixelPoint], start: Double, end: Double, tooSharp: Bool) {
        #expect(LineGeometry.bendsTooSharply(line, from: start, to: end, window: 14 * 0.6, maxAngle: Self.maxAngle) == tooSharp)
    }

    @Test func aWiderWindowJoinsTurnsFartherApart() {
        #expect(!LineGeometry.bendsTooSharply(Self.spreadOut, from: 0, to: 110, window: 8.4, maxAngle: Self.maxAngle))
        #expect(LineGeometry.bendsTooSharply(Self.spreadOut, from: 0, to: 110, window: 45, maxAngle: Self.maxAngle))
    }

    @Test func repeatedPointsAreNotTurns() {
        let line = [PixelPoint(x: 0, y: 0), PixelPoint(x: 20, y: 0), PixelPoint(x: 20, y: 0), PixelPoint(x: 60, y: 0)]
        #expect(!LineGeometry.bendsTooSharply(line, from: 0, to: 60, window: 8.4, maxAngle: 0.01))
    }

    /// End to end: the one anchor of a short street with a chamfered corner in its middle
    /// gets no label; the same street bent once by 40° does.
    @Test(arguments: [(true, false), (false, true)])
    func aLabelIsNotSetRoundAChamferedCorner(chamfer: Bool, labelled: Bool) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let zz = MVTTestTiles.zigzag
        // Tile units: 8 per pixel at zoom 1 (a 512-px world) for the one z0 tile; the line
        // stays inside one of the four z1 tiles the image is drawn from (labels are placed
        // per tile piece). East 150 px, then the chamfer: 6 px east and 6 px south (8.5 px,
        // within 3/5 of the 16-px text), then 150 px south; or one 40° bend and on.
        let path: [(Int64, Int64)] = chamfer
            ? [(2100, 2100), (1200, 0), (48, 48), (0, 1200)]
            : [(2100, 2100), (1200, 0), (600, 500)]
        var geometry: [UInt64] = [MVTTestTiles.command(1, 1), zz(path[0].0), zz(path[0].1), MVTTestTiles.command(2, UInt64(path.count - 1))]
        for (dx, dy) in path.dropFirst() { geometry += [zz(dx), zz(dy)] }
        let tile = MVTTestTiles.tile([MVTTestTiles.layer(
            name: "roads", keys: ["name"], values: [MVTTestTiles.stringValue("Elielinaukio")],
            features: [.init(type: 2, tags: [0, 0], geometry: geometry)])])
        let style = try MVTTestTiles.labelStyle(for: tile, in: dir, sourceLayer: "roads", layout: #""symbol-placement": "line""#)
        let o = MapSnapshotOptions(width: 512, height: 512, scale: 1, center: LatLng(0, 0), zoom: 1,
                                   style: style, attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        var ink = 0
        for y in 0..<512 { for x in 0..<512 where snap.image.color(atX: x, y: y).red < 128 { ink += 1 } }
        #expect((ink > 100) == labelled, "\(ink) dark pixels")
    }
}
