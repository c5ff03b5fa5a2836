import Foundation
import Testing
@testable import MapSnap

/// Turned maps (`MapSnapshotOptions.heading`, `--bearing`): the north-up bytes unchanged,
/// goldens at 45°, 90°, 180° and −30°, no tile seams in turned vector and raster tiles, the
/// north arrow, the scale bar, track-up, and bad headings.
@Suite struct CameraHeadingRenderTests {
    /// The scene of `BaseMapTests`' golden (a route and a titled marker over central Helsinki).
    func options(heading: Double) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 360, height: 260, scale: 1, center: BaseMapTests.helsinki, zoom: 16, style: "normal")
        o.overlays = [
            .path(PathOverlay(coordinates: [LatLng(60.17095, 24.9414), LatLng(60.16985, 24.94385), LatLng(60.16955, 24.94780)],
                              color: Color(rgb: 0x1A73E8), width: 5, casingColor: .white, casingWidth: 1.5)),
            .marker(MarkerOverlay(coordinate: LatLng(60.16955, 24.94780), label: "B", title: "Senate Sq")),
        ]
        o.heading = heading
        return o
    }

    @Test(arguments: [0.0, 360.0, -360.0])
    func aWholeTurnIsTheNorthUpImageByteForByte(heading: Double) throws {
        let snap = try MapSnapshotter(options: options(heading: heading)).render()
        // The golden of the north-up render, recorded before headings existed.
        Golden.expect(snap.image, named: "helsinki-normal-z16", in: "BaseMap")
    }

    @Test(arguments: [45.0, 90.0, 180.0, -30.0])
    func turnedGolden(heading: Double) throws {
        let snap = try MapSnapshotter(options: options(heading: heading)).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        #expect(snap.camera.heading == heading)
        Golden.expect(snap.image, named: "helsinki-normal-bearing\(Int(heading))", in: "Camera")
    }

    @Test func minus270IsNinety() throws {
        let a = try MapSnapshotter(options: options(heading: 90)).render().pngData()
        let b = try MapSnapshotter(options: options(heading: -270)).render().pngData()
        let same = a == b
        #expect(same)
    }

    @Test func turnedVectorTilesHaveNoSeams() throws {
        let (style, _) = try TileSeamTests.makeFixture()
        var o = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: LatLng(4, -7), zoom: 1.37,
                                   style: style, attribution: "", showsScaleBar: false)
        o.heading = 30
        o.showsNorthArrow = false
        let snap = try MapSnapshotter(options: o).render()
        let canvas = snap.image
        let corner = snap.point(for: LatLng(0, 0))
        #expect(corner.x > 50 && corner.x < 250 && corner.y > 50 && corner.y < 150)
        // Away from the roads (the tiles' diagonals) every pixel, tile borders and the
        // image's own edges included, has exactly the fill colour.
        let w = snap.camera.worldSize, tile = w / 2
        var fill: Color?
        var off = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let world = WebMercator.project(snap.coordinate(for: PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)))
                var d = (world.x * w - world.y * w).truncatingRemainder(dividingBy: tile)
                if d < 0 { d += tile }
                if min(d, tile - d) / 2.0.squareRoot() < 9 { continue }
                let c = canvas.color(atX: x, y: y)
                if fill == nil { fill = c }
                if c != fill { off += 1 }
            }
        }
        #expect(off == 0, "\(off) pixels differ from the fill colour \(String(describing: fill))")
    }

    @Test func turnedRasterTilesHaveNoSeamsAndFillTheImage() throws {
        // Four z1 tiles of one colour: every image pixel, seams and corners included, must be
        // exactly that colour (a pixel owned by no tile shows the background, one owned by two
        // is still the colour only if neither blends an edge).
        let dir = TestPaths.temporaryDirectory()
        let pixel: [UInt8] = [30, 120, 200, 255]
        let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in pixel })
        for tx in 0..<2 {
            for ty in 0..<2 {
                try FileManager.default.createDirectory(atPath: "\(dir)/1/\(tx)", withIntermediateDirectories: true)
                let tile = Canvas(width: 256, height: 256, premultipliedPixels: pixels)
                try Data(try PNGEncoder.encode(tile)).write(to: URL(fileURLWithPath: "\(dir)/1/\(tx)/\(ty).png"))
            }
        }
        for heading in [30.0, -75.0, 180.0] {
            var o = MapSnapshotOptions(width: 160, height: 110, scale: 1, center: LatLng(3.1, -4.7), zoom: 1.37,
                                       style: TestPaths.plainStyle, source: dir, attribution: "", showsScaleBar: false)
            o.heading = heading
            o.showsNorthArrow = false
            let canvas = try MapSnapshotter(options: o).render().image
            var off = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width where canvas.color(atX: x, y: y) != Color(red: 30, green: 120, blue: 200) { off += 1 }
            }
            #expect(off == 0, "heading \(heading): \(off) pixels are not the tiles' colour")
        }
    }

    @Test(arguments: [0.0, 45.0, 90.0, 200.0, -30.0])
    func theNorthArrowPointsNorth(heading: Double) throws {
        let camera = Camera(center: BaseMapTests.helsinki, zoom: 15, width: 200, height: 150, scale: 2, heading: heading)
        let canvas = Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: .white)
        let d = Decorations(camera: camera, canvas: canvas, text: MapRenderer.shared.text.forRender())
        d.drawNorthArrow()
        let disc = try #require(d.northArrowRect)
        let c = PixelPoint(x: (disc.minX + disc.maxX) / 2, y: (disc.minY + disc.maxY) / 2)
        // The centroid of the red half lies from the disc's centre towards north on the image.
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in Int(disc.minY)..<Int(disc.maxY) {
            for x in Int(disc.minX)..<Int(disc.maxX) {
                let p = canvas.color(atX: x, y: y)
                if p.red > 180 && p.green < 90 && p.blue < 90 { sx += Double(x) + 0.5 - c.x; sy += Double(y) + 0.5 - c.y; n += 1 }
            }
        }
        #expect(n > 20)
        let b = heading * .pi / 180
        let angle = atan2(sy / n, sx / n), expected = atan2(-cos(b), -sin(b))
        var miss = abs(angle - expected)
        if miss > .pi { miss = 2 * .pi - miss }
        #expect(miss < 0.05, "red half at \(angle * 180 / .pi)°, north at \(expected * 180 / .pi)°")
    }

    @Test func theNorthArrowIsDrawnWhenTurnedUnlessAskedOtherwise() throws {
        func arrowPixels(_ o: MapSnapshotOptions) throws -> Int {
            let img = try MapSnapshotter(options: o).render().image
            var red = 0
            for y in 6..<36 {
                for x in (img.width - 36)..<(img.width - 6) {
                    let p = img.color(atX: x, y: y)
                    if p.red > 180 && p.green < 90 && p.blue < 90 { red += 1 }
                }
            }
            return red
        }
        var o = MapSnapshotOptions(width: 200, height: 150, center: LatLng(10, 10), zoom: 3, style: TestPaths.plainStyle,
                                   attribution: "", showsScaleBar: false)
        #expect(try arrowPixels(o) == 0)
        o.showsNorthArrow = true
        #expect(try arrowPixels(o) > 10)
        o.heading = 20
        o.showsNorthArrow = nil
        #expect(try arrowPixels(o) > 10)
        o.showsNorthArrow = false
        #expect(try arrowPixels(o) == 0)
    }

    @Test func theScaleBarIsLevelAndMeasuresTheSameTurned() throws {
        let text = MapRenderer.shared.text.forRender()
        func layout(_ heading: Double) -> Decorations.ScaleBarLayout? {
            let camera = Camera(center: BaseMapTests.helsinki, zoom: 15.4, width: 400, height: 300, heading: heading)
            return Decorations(camera: camera, canvas: Canvas(width: 400, height: 300), text: text).scaleBarLayout(beside: nil)
        }
        let north = try #require(layout(0))
        for h in [30.0, 90.0, -135.0] {
            let turned = try #require(layout(h))
            #expect(turned.bar == north.bar && turned.box == north.box)
        }
    }

    @Test func trackUpRunsTheWalkFromBottomToTop() throws {
        var spec = try RenderSpec.load(path: TestPaths.repositoryRoot + "/examples/helsinki-walk.json")
        spec.options.center = nil
        spec.options.zoom = nil
        spec.options.isTrackUp = true
        spec.options.width = 420
        spec.options.height = 560
        let snap = try MapSnapshotter(options: spec.options).render()
        guard case .path(let walk)? = spec.options.overlays.first(where: { if case .path = $0 { true } else { false } }) else {
            Issue.record("the example has no path")
            return
        }
        let start = snap.point(for: walk.coordinates[0])
        // The walk's farthest point from its start lies above the start.
        let far = walk.coordinates.map(snap.point(for:)).max { ($0 - start).length < ($1 - start).length }!
        #expect(far.y < start.y - 200, "start \(start), farthest \(far)")
        #expect(abs(far.x - start.x) < (start.y - far.y) / 2)
        #expect(snap.camera.heading != 0)
        Golden.expect(snap.image, named: "helsinki-walk-track-up", in: "Camera")
    }

    @Test func headingsOutsideAWholeTurnAreRejected() {
        for bad in [361.0, -400, .nan, .infinity] {
            var o = options(heading: 0)
            o.heading = bad
            #expect(throws: RenderError.self) { try MapSnapshotter(options: o).render() }
        }
        #expect(RenderError.invalidHeading(400).description == "bearing 400.0: must be degrees between -360 and 360")
    }
}
