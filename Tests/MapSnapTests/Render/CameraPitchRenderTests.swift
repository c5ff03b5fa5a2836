import Foundation
import Testing
@testable import MapSnap

/// Pitched maps (`MapSnapshotOptions.pitch`, `--pitch`): pitch 0 is the flat bytes, goldens
/// at 30° and 60° (and the README's acceptance view, bearing 45 with pitch 50), raster tiles
/// resampled through the projection with no seam, the sky and the style's sky colours,
/// labels and pins only on the ground, the same bytes on any number of threads, bad pitches.
@Suite struct CameraPitchRenderTests {
    /// The scene of `CameraHeadingRenderTests` (a route and a titled marker over central
    /// Helsinki), with a second marker nearer the top.
    func options(heading: Double = 0, pitch: Double) -> MapSnapshotOptions {
        var o = CameraHeadingRenderTests().options(heading: heading)
        o.overlays.append(.marker(MarkerOverlay(coordinate: LatLng(60.1712, 24.9452), label: "C", title: "Kluuvi")))
        o.pitch = pitch
        return o
    }

    /// Base-map symbols on a pitched map are scaled by MapLibre's perspective ratio,
    /// 0.5 + 0.5 × the ground's scale at their row (in steps of 1/16): 1 at the centre row,
    /// smaller towards the far limit (about half there), larger near the bottom; 1 when flat.
    @Test func symbolsAreScaledByThePerspectiveAtTheirRow() {
        let camera = Camera(center: LatLng(60.17, 24.94), zoom: 15, width: 400, height: 300, pitch: 60)
        var ctx = PaintContext(camera: camera, canvas: Canvas(width: 1, height: 1), zoom: 15)
        #expect(ctx.symbolScale(atRow: 0) == 1)  // no pitched camera: a flat image
        ctx.pitchedCamera = camera
        #expect(ctx.symbolScale(atRow: 150) == 1)
        let top = ctx.symbolScale(atRow: 0), bottom = ctx.symbolScale(atRow: 300)
        #expect(abs(top - (0.5 + 0.5 * camera.groundScale(atRow: 0))) <= 1.0 / 32, "\(top)")
        #expect(abs(bottom - (0.5 + 0.5 * camera.groundScale(atRow: 300))) <= 1.0 / 32, "\(bottom)")
        #expect(top < 1 && bottom > 1 && (top * 16).rounded() == top * 16, "\(top) \(bottom)")
        let farLimit = ctx.symbolScale(atRow: camera.row(forGroundScale: Camera.farGroundScale))
        #expect(farLimit > 0.5 && farLimit < 0.6, "\(farLimit)")
    }

    /// A marker the tilted map cannot show (beyond its far limit, where the sky is) is said,
    /// not silently dropped; one off to the side is only out of view, as on a flat map.
    @Test func markersBeyondTheFarLimitAreSaid() throws {
        func render(pitch: Double) throws -> MapSnapshot {
            var o = MapSnapshotOptions(width: 300, height: 200, scale: 1, center: LatLng(60.1699, 24.9450), zoom: 15,
                                       style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
            o.pitch = pitch
            o.overlays = [.marker(MarkerOverlay(coordinate: LatLng(60.1699, 24.9450), label: "A")),
                          // 90 km north, straight ahead: beyond the far limit at 60°.
                          .marker(MarkerOverlay(coordinate: LatLng(60.98, 24.9450), label: "B")),
                          // Far to the north-east and out of the image's width.
                          .marker(MarkerOverlay(coordinate: LatLng(60.98, 29.0), label: "C"))]
            return try MapSnapshotter(options: o).render()
        }
        // At 80° the sky fills the image's top, and B, near the horizon, would be in it.
        let tilted = try render(pitch: 80)
        let b = tilted.camera.point(for: LatLng(60.98, 24.9450))
        #expect(b.y > 0 && b.y < 200 && !tilted.camera.showsOnGround(LatLng(60.98, 24.9450)), "\(b)")
        let said = tilted.warnings.filter { $0.contains("far limit") }
        #expect(said == ["1 of 3 markers is beyond the far limit of the map tilted 80° (in its sky) and is not drawn: "
                         + "lower the pitch, or leave out the zoom so the camera fits them"], "\(tilted.warnings)")
        // At 60° and flat, B is above the image's top: out of view, as on any map, and not said.
        for pitch in [0.0, 60] {
            let view = try render(pitch: pitch)
            #expect(view.camera.point(for: LatLng(60.98, 24.9450)).y < 0)
            #expect(view.warnings.allSatisfy { !$0.contains("far limit") }, "\(pitch): \(view.warnings)")
        }
    }

    @Test func pitchZeroIsTheFlatImageByteForByte() throws {
        var o = CameraHeadingRenderTests().options(heading: 0)
        o.pitch = 0
        let snap = try MapSnapshotter(options: o).render()
        Golden.expect(snap.image, named: "helsinki-normal-z16", in: "BaseMap")
    }

    @Test(arguments: [30.0, 60.0])
    func pitchedGolden(pitch: Double) throws {
        let snap = try MapSnapshotter(options: options(pitch: pitch)).render()
        #expect(snap.camera.pitch == pitch)
        Golden.expect(snap.image, named: "helsinki-normal-pitch\(Int(pitch))", in: "Camera")
    }

    @Test func theAcceptanceViewTurnedAndTilted() throws {
        var spec = try RenderSpec.load(path: TestPaths.repositoryRoot + "/examples/helsinki-walk.json")
        spec.options.heading = 45
        spec.options.pitch = 50
        let snap = try MapSnapshotter(options: spec.options).render()
        // Pins upright at their projected points: the walk's start is drawn where the camera puts it.
        guard case .path(let walk)? = spec.options.overlays.first(where: { if case .path = $0 { true } else { false } }) else {
            Issue.record("the example has no path")
            return
        }
        let start = snap.point(for: walk.coordinates[0])
        #expect(start.x > 0 && start.x < 800 && start.y > 0 && start.y < 600)
        Golden.expect(snap.image, named: "helsinki-walk-bearing45-pitch50", in: "Camera")
    }

    @Test(arguments: [1, 3])
    func theSameBytesOnAnyNumberOfThreads(threads: Int) throws {
        var o = options(heading: 20, pitch: 60)
        o.maximumThreads = threads
        var reference = options(heading: 20, pitch: 60)
        reference.maximumThreads = 2
        let a = try MapSnapshotter(options: o, renderer: MapRenderer()).render().pngData()
        let b = try MapSnapshotter(options: reference, renderer: MapRenderer()).render().pngData()
        let same = a == b
        #expect(same)
    }

    /// One-colour z1 raster tiles: below the far limit every pixel is exactly the tiles'
    /// colour (no pixel owned by no tile, none blended twice, no band seam); above it, sky.
    @Test func pitchedRasterTilesFillTheGroundWithNoSeam() throws {
        let dir = TestPaths.temporaryDirectory()
        let pixel: [UInt8] = [30, 120, 200, 255]
        let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in pixel })
        for z in 0...2 {
            for tx in 0..<(1 << z) {
                for ty in 0..<(1 << z) {
                    try FileManager.default.createDirectory(atPath: "\(dir)/\(z)/\(tx)", withIntermediateDirectories: true)
                    let tile = Canvas(width: 256, height: 256, premultipliedPixels: pixels)
                    try Data(try PNGEncoder.encode(tile)).write(to: URL(fileURLWithPath: "\(dir)/\(z)/\(tx)/\(ty).png"))
                }
            }
        }
        for (heading, pitch) in [(0.0, 45.0), (30.0, 60.0), (-75.0, 80.0)] {
            var o = MapSnapshotOptions(width: 160, height: 110, scale: 1, center: LatLng(3.1, -4.7), zoom: 2.37,
                                       style: TestPaths.plainStyle, source: dir, attribution: "", showsScaleBar: false)
            o.heading = heading
            o.pitch = pitch
            o.showsNorthArrow = false
            let snap = try MapSnapshotter(options: o).render()
            let canvas = snap.image
            let sky = snap.camera.skyRows
            // Below the fog (pitch 80 fades the farthest ground): the tiles' colour only.
            let fogEnd = sky == 0 ? 0 : Int(snap.camera.row(forGroundScale: 4 * Camera.farGroundScale).rounded(.up))
            var off = 0
            for y in fogEnd..<canvas.height {
                for x in 0..<canvas.width where canvas.color(atX: x, y: y) != Color(red: 30, green: 120, blue: 200) { off += 1 }
            }
            #expect(off == 0, "heading \(heading) pitch \(pitch): \(off) pixels are not the tiles' colour")
            #expect((sky > 0) == (pitch > 70))
            if sky > 0 {
                // MapLibre's default sky colour at the top.
                let top = canvas.color(atX: 80, y: 0)
                #expect(top.blue > top.red && top.blue > 200, "\(top)")
            }
        }
    }

    @Test func theStylesSkyColoursPaintTheSky() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = dir + "/sky.json"
        try Data("""
        {"version": 8, "sources": {}, "sky": {"sky-color": "#ff0000", "horizon-color": "#00ff00", "fog-color": "#0000ff"},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}]}
        """.utf8).write(to: URL(fileURLWithPath: path))
        var o = MapSnapshotOptions(width: 200, height: 200, scale: 1, center: LatLng(10, 10), zoom: 5, style: path,
                                   attribution: "", showsScaleBar: false)
        o.pitch = 85
        o.showsNorthArrow = false
        let snap = try MapSnapshotter(options: o).render()
        let sky = snap.camera.skyRows
        #expect(sky > 20)
        let top = snap.image.color(atX: 100, y: 0), limit = snap.image.color(atX: 100, y: sky - 1)
        #expect(top.red > 240 && top.green < 15, "\(top)")
        #expect(limit.green > 240 && limit.red < 15, "\(limit)")
        // Just below the limit the ground is (nearly) the fog colour.
        let fog = snap.image.color(atX: 100, y: sky)
        #expect(fog.blue > 200 && fog.red < 60, "\(fog)")
        #expect(snap.image.color(atX: 100, y: 199) == Color(red: 255, green: 255, blue: 255))
    }

    @Test func markersBeyondTheFarLimitAreNotDrawn() throws {
        var o = MapSnapshotOptions(width: 200, height: 300, scale: 1, center: LatLng(10, 10), zoom: 8,
                                   style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        o.pitch = 85
        o.showsNorthArrow = false
        // The far pin would stand on the far limit (row ~111); the near one stands on row ~176.
        let far = LatLng(40, 10), near = LatLng(9, 10)
        o.overlays = [.marker(MarkerOverlay(coordinate: far, color: Color(rgb: 0xFF0000))),
                      .marker(MarkerOverlay(coordinate: near, color: Color(rgb: 0xFF0000)))]
        let snap = try MapSnapshotter(options: o).render()
        #expect(!snap.camera.showsOnGround(far) && snap.camera.showsOnGround(near))
        let nearTip = snap.point(for: near)
        #expect(nearTip.y > 160 && nearTip.y < 200, "\(nearTip)")
        var redAbove = 0, redBelow = 0
        for y in 0..<snap.image.height {
            for x in 0..<snap.image.width {
                let c = snap.image.color(atX: x, y: y)
                if c.red > 200 && c.green < 60 && c.blue < 60 { if y < 120 { redAbove += 1 } else { redBelow += 1 } }
            }
        }
        #expect(redAbove == 0 && redBelow > 20, "red pixels: \(redAbove) above row 120, \(redBelow) below")
    }

    @Test func pitchesOutsideTheRangeAreRejected() {
        for bad in [-1.0, 85.5, 90, .nan, .infinity] {
            var o = options(pitch: 0)
            o.pitch = bad
            #expect(throws: RenderError.self) { try MapSnapshotter(options: o).render() }
        }
        #expect(RenderError.invalidPitch(90).description == "pitch 90.0: must be degrees between 0 and 85")
    }
}

/// Fitting with a pitch: the flat fit, zoomed out so that the tilt's magnification of the
/// near half keeps every fitted point inside the image.
@Suite struct CameraPitchFitTests {
    @Test(arguments: [(0.0, 30.0), (0.0, 60.0), (40.0, 60.0), (-20.0, 85.0)])
    func everyPointOfAFittedRouteStaysInside(heading: Double, pitch: Double) throws {
        let route = [LatLng(60.160, 24.920), LatLng(60.175, 24.930), LatLng(60.168, 24.960), LatLng(60.180, 24.975)]
        var o = MapSnapshotOptions(width: 300, height: 200, scale: 1, style: TestPaths.plainStyle, attribution: "",
                                   showsScaleBar: false)
        o.overlays = [.path(PathOverlay(coordinates: route))]
        o.heading = heading
        o.padding = 0
        o.allowsFractionalZoom = true
        let flat = try MapSnapshotter(options: o).render().camera
        o.pitch = pitch
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.camera.zoom < flat.zoom && snap.camera.center == flat.center)
        for c in route {
            let p = snap.point(for: c)
            #expect(p.x >= 0 && p.x <= 300 && p.y >= 0 && p.y <= 200, "pitch \(pitch): \(c) at \(p)")
        }
    }
}
