import Foundation
import Testing
@testable import MapSnap
import MapSnapTesting

/// A pitched camera's projection against MapLibre GL's transform, written out here as an
/// independent 4×4 implementation of its published matrix formula
/// (perspective × scale(1, −1, 1) × translate(0, 0, −cameraToCenterDistance) × rotateX(pitch)
/// × rotateZ(−bearing) × translate(−centre), then the viewport), not from mapsnap's code;
/// the inverse below the horizon; the bands; the homography and the depth clip.
@Suite struct CameraPitchTests {
    static let center = LatLng(60.1699, 24.9450)

    /// A 4×4 matrix, column-major like gl-matrix.
    struct Mat4 {
        var m: [Double]
        static var identity: Mat4 { Mat4(m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) }
        static func * (a: Mat4, b: Mat4) -> Mat4 {
            var r = [Double](repeating: 0, count: 16)
            for col in 0..<4 {
                for row in 0..<4 {
                    var s = 0.0
                    for k in 0..<4 { s += a.m[k * 4 + row] * b.m[col * 4 + k] }
                    r[col * 4 + row] = s
                }
            }
            return Mat4(m: r)
        }
        static func translate(_ x: Double, _ y: Double, _ z: Double) -> Mat4 {
            var t = identity
            t.m[12] = x; t.m[13] = y; t.m[14] = z
            return t
        }
        static func scale(_ x: Double, _ y: Double, _ z: Double) -> Mat4 {
            Mat4(m: [x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1])
        }
        /// gl-matrix's rotateX: y' = c·y − s·z, z' = s·y + c·z.
        static func rotateX(_ a: Double) -> Mat4 {
            let c = cos(a), s = sin(a)
            return Mat4(m: [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1])
        }
        /// gl-matrix's rotateZ: x' = c·x − s·y, y' = s·x + c·y.
        static func rotateZ(_ a: Double) -> Mat4 {
            let c = cos(a), s = sin(a)
            return Mat4(m: [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        }
        /// gl-matrix's perspective(fovy, aspect, near, far).
        static func perspective(fovy: Double, aspect: Double, near: Double, far: Double) -> Mat4 {
            let f = 1 / tan(fovy / 2), nf = 1 / (near - far)
            return Mat4(m: [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0])
        }
        func apply(_ v: [Double]) -> [Double] {
            (0..<4).map { row in (0..<4).reduce(0.0) { $0 + m[$1 * 4 + row] * v[$1] } }
        }
    }

    /// Where MapLibre GL draws `coordinate` for a camera of `width` × `height` pixels at
    /// `zoom` (512-px tiles there: zoom + 1 here for 256-px tiles is not needed, the world
    /// size is given in pixels), `bearing` and `pitch` in degrees.
    func mapLibrePixel(_ coordinate: LatLng, center: LatLng, worldSize: Double, width: Double, height: Double,
                       bearing: Double, pitch: Double) -> (x: Double, y: Double, w: Double) {
        func world(_ c: LatLng) -> (Double, Double) {
            let x = (c.longitude + 180) / 360 * worldSize
            let phi = c.latitude * .pi / 180
            let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * worldSize
            return (x, y)
        }
        let fov = 0.6435011087932844
        let distance = 0.5 / tan(fov / 2) * height
        let (cx, cy) = world(center)
        let m = Mat4.perspective(fovy: fov, aspect: width / height, near: height / 50, far: distance * 100)
            * Mat4.scale(1, -1, 1) * Mat4.translate(0, 0, -distance) * Mat4.rotateX(pitch * .pi / 180)
            * Mat4.rotateZ(-bearing * .pi / 180) * Mat4.translate(-cx, -cy, 0)
        let (px, py) = world(coordinate)
        let clip = m.apply([px, py, 0, 1])
        // Viewport: NDC −1…1 onto 0…width, and y flipped back down.
        return ((clip[0] / clip[3] + 1) / 2 * width, (1 - clip[1] / clip[3]) / 2 * height, clip[3])
    }

    static let cameras: [(bearing: Double, pitch: Double)] = [(0, 30), (0, 60), (45, 50), (-120, 20), (200, 85), (90, 30)]

    @Test(arguments: 0..<6)
    func pointsMatchMapLibresTransform(_ index: Int) {
        let (bearing, pitch) = Self.cameras[index]
        let cam = Camera(center: Self.center, zoom: 15.3, width: 640, height: 480, scale: 2, heading: bearing, pitch: pitch)
        for dLat in stride(from: -0.004, through: 0.004, by: 0.002) {
            for dLon in stride(from: -0.008, through: 0.008, by: 0.004) {
                let q = LatLng(Self.center.latitude + dLat, Self.center.longitude + dLon)
                let expected = mapLibrePixel(q, center: Self.center, worldSize: cam.worldSize, width: 1280, height: 960,
                                             bearing: bearing, pitch: pitch)
                guard expected.w > 0 else { continue }
                let got = cam.point(for: q)
                #expect(abs(got.x - expected.x) < 1e-6 && abs(got.y - expected.y) < 1e-6,
                        "bearing \(bearing) pitch \(pitch) \(q): \(got) vs MapLibre (\(expected.x), \(expected.y))")
            }
        }
    }

    @Test func theCentreStaysAndPitchZeroIsFlat() {
        let flat = Camera(center: Self.center, zoom: 14, width: 300, height: 200, heading: 30)
        var tilted = flat
        tilted.pitch = 45
        let c = tilted.point(for: Self.center)
        #expect(abs(c.x - 150) < 1e-9 && abs(c.y - 100) < 1e-9)
        let q = LatLng(60.171, 24.95)
        #expect(flat.point(for: q) == tilted.flat.point(for: q))
        #expect(!flat.isPitched && tilted.isPitched)
        // The far side is smaller: equal steps north shrink upwards.
        let n1 = tilted.point(for: LatLng(60.1719, 24.945)), n2 = tilted.point(for: LatLng(60.1739, 24.945))
        let s1 = tilted.point(for: LatLng(60.1679, 24.945))
        #expect((n2 - n1).length < (n1 - c).length && (n1 - c).length < (c - s1).length)
    }

    @Test func coordinateForPointInvertsPointForCoordinateBelowTheFarLimit() {
        var rng = SeededGenerator(seed: 3131)
        print("CameraPitchTests seed 3131")
        for _ in 0..<300 {
            let cam = Camera(center: LatLng(Double.random(in: -70...70, using: &rng), Double.random(in: -179...179, using: &rng)),
                             zoom: Double.random(in: 3...18, using: &rng), width: 500, height: 300, scale: 1,
                             heading: Double.random(in: -360...360, using: &rng), pitch: Double.random(in: 0.5...85, using: &rng))
            let top = Double(cam.skyRows) + 1
            let p = PixelPoint(x: Double.random(in: 0...500, using: &rng), y: Double.random(in: top...300, using: &rng))
            let back = cam.point(for: cam.coordinate(for: p))
            #expect(abs(back.x - p.x) < 1e-5 && abs(back.y - p.y) < 1e-5, "pitch \(cam.pitch): \(p) → \(back)")
        }
    }

    @Test func groundScaleIsLinearInTheRowAndTheSkyAppearsPastSixty() {
        for pitch in [10.0, 30.0, 60.0, 70.0, 80.0, 85.0] {
            let cam = Camera(center: Self.center, zoom: 15, width: 400, height: 300, pitch: pitch)
            #expect(abs(cam.groundScale(atRow: 150) - 1) < 1e-12)
            // Horizontal scale on a row, measured: two points a pixel apart on the flat map.
            let y = 220.0
            let flatRow = cam.flatPixel(forImagePixel: PixelPoint(x: 200, y: y)).y
            let a = cam.pitchTransform.apply(PixelPoint(x: 200, y: flatRow)), b = cam.pitchTransform.apply(PixelPoint(x: 201, y: flatRow))
            #expect(abs((b.x - a.x) - cam.groundScale(atRow: y)) < 1e-9)
            // MapLibre's horizon: H/2 − D·cot(pitch); it shows only past 90° − fov/2 ≈ 71.6°.
            let horizon = 150 - 450 / tan(pitch * .pi / 180)
            #expect(abs(cam.row(forGroundScale: 0) - horizon) < 1e-9)
            #expect((cam.skyRows > 0) == (pitch >= 70), "pitch \(pitch): \(cam.skyRows) sky rows")
        }
    }

    @Test(arguments: [(0.0, 30.0), (45.0, 50.0), (0.0, 60.0), (-75.0, 85.0), (10.0, 70.0)])
    func bandsCoverTheGroundFromFramesThatLandExactly(bearing: Double, pitch: Double) {
        let cam = Camera(center: Self.center, zoom: 15.4, width: 400, height: 300, scale: 2, heading: bearing, pitch: pitch)
        let bands = cam.pitchBands
        #expect(!bands.isEmpty)
        // Contiguous, bottom first, from the image's bottom to the sky.
        #expect(bands.first?.rows.upperBound == cam.pixelHeight)
        #expect(bands.last?.rows.lowerBound == cam.skyRows)
        for (a, b) in zip(bands, bands.dropFirst()) {
            #expect(a.rows.lowerBound == b.rows.upperBound)
            #expect(abs(b.camera.zoom - (a.camera.zoom - 1)) < 1e-9, "frame zooms step down one level per band")
            #expect(!b.camera.isRotated && !b.camera.isPitched)
        }
        for band in bands {
            // Within a band the ground's scale against the frame's stays within 2^±0.5 (one
            // pixel of rounding aside).
            let frameScale = pow(2, band.camera.zoom - cam.zoom)
            for y in [Double(band.rows.lowerBound) + 1, Double(band.rows.upperBound) - 1] where y > Double(cam.skyRows) {
                let r = cam.groundScale(atRow: y) / frameScale
                #expect(r > 0.69 && r < 1.45, "band \(band.rows) zoom \(band.camera.zoom): scale ratio \(r) at row \(y)")
            }
            // A frame pixel lands where the camera puts its world point.
            for fx in [0.0, Double(band.camera.pixelWidth) / 2, Double(band.camera.pixelWidth)] {
                let fy = Double(band.camera.pixelHeight) / 2
                let coordinate = band.camera.coordinate(for: PixelPoint(x: fx, y: fy))
                guard cam.depth(forWorld: WebMercator.project(coordinate)) > 0.05 else { continue }
                let expected = cam.point(for: coordinate), got = band.toImage.apply(PixelPoint(x: fx, y: fy))
                #expect((expected - got).length < 1e-5, "band \(band.rows): \(got) vs \(expected)")
            }
        }
    }

    @Test func altitudeIsTheViewRaysDistanceTimesCosPitch() throws {
        let cam = try #require(Camera(center: Self.center, centerCoordinateDistance: 1200, width: 400, height: 300, pitch: 60))
        #expect(abs(cam.centerCoordinateDistance - 1200) < 1e-6)
        #expect(abs(cam.altitude - 600) < 1e-6)
        #expect(cam.pitch == 60)
        // Tilting keeps the distance (and the zoom): the eye moves along a circle about the centre.
        var flat = cam
        flat.pitch = 0
        #expect(flat.centerCoordinateDistance == cam.centerCoordinateDistance && abs(flat.altitude - 1200) < 1e-6)
    }

    @Test func projectiveTransformsInvertAndCompose() throws {
        let cam = Camera(center: Self.center, zoom: 12, width: 300, height: 200, heading: 20, pitch: 55)
        let t = cam.pitchTransform
        let inv = try #require(t.inverted)
        for p in [PixelPoint(x: 10, y: 190), PixelPoint(x: 150, y: 100), PixelPoint(x: 290, y: 40)] {
            let back = inv.apply(t.apply(p))
            #expect((back - p).length < 1e-9)
            let shifted = PixelTransform.translation(3, -7).after(t).apply(p), direct = t.apply(p)
            #expect(abs(shifted.x - direct.x - 3) < 1e-9 && abs(shifted.y - direct.y + 7) < 1e-9)
        }
        // An affine transform is untouched by the generalisation: exactly the old arithmetic.
        let r = PixelTransform.rotation(0.3, about: PixelPoint(x: 5, y: 6), to: PixelPoint(x: 1, y: 2))
        #expect(r.isAffine)
        let p = PixelPoint(x: 12.5, y: -3.25)
        #expect(r.apply(p) == PixelPoint(x: r.a * p.x + r.c * p.y + r.tx, y: r.b * p.x + r.d * p.y + r.ty))
    }

    @Test func theDepthClipCutsLinesAndAreasAtTheLimit() {
        // depth = 1 − y/100: the limit 0.5 is the line y = 50; the map is (x, y) / depth.
        let t = PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, g: 0, h: -0.01, i: 1)
        var line = Path()
        line.move(to: PixelPoint(x: 0, y: 0))
        line.line(to: PixelPoint(x: 0, y: 100))
        line.line(to: PixelPoint(x: 40, y: 0))
        let lines = DepthClipper.transform(line, by: t, minimumDepth: 0.5, asAreas: false)
        #expect(lines.contours.count == 2)
        for p in lines.points { #expect(p.y <= 100 + 1e-9, "\(p)") }
        #expect(lines.points.contains { abs($0.x) < 1e-9 && abs($0.y - 100) < 1e-9 }, "cut at y = 50 → 50 / 0.5")
        var square = Path()
        square.addRect(PixelRect(x: -10, y: 20, width: 20, height: 60))
        let area = DepthClipper.transform(square, by: t, minimumDepth: 0.5, asAreas: true)
        #expect(area.contours.count == 1 && area.contours[0].isClosed)
        #expect((area.bounds?.maxY ?? .infinity) <= 100 + 1e-9)
        // In front of the limit everything is carried as is.
        var near = Path()
        near.move(to: PixelPoint(x: 1, y: 10))
        near.line(to: PixelPoint(x: 2, y: 20))
        let kept = DepthClipper.transform(near, by: t, minimumDepth: 0.5, asAreas: false)
        #expect(kept.points == [t.apply(PixelPoint(x: 1, y: 10)), t.apply(PixelPoint(x: 2, y: 20))])
    }
}
