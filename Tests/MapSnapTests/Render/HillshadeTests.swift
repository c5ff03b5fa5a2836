import Foundation
import Testing
@testable import MapSnap

/// `raster-dem` decoding, the hillshade painter, and `--dem` through the library, the spec
/// and the CLI, over the synthetic DEM fixture (`Fixtures/dem/README.md`).
@Suite struct HillshadeTests {
    /// The fixture's 2×2 z12 tiles meet at this point (tile corner x 2332, y 1184).
    static let corner = LatLng(60.239811169998916, 24.9609375)
    static let terrarium = TestPaths.fixture("dem/terrarium")
    static let mapbox = TestPaths.fixture("dem/mapbox")
    static let tile = TileID(z: 12, x: 2331, y: 1185)!

    // MARK: Decoding

    @Test(arguments: [
        // (encoding, R, G, B, metres)
        (DEMEncoding.terrarium, UInt8(128), UInt8(0), UInt8(0), Float(0)),
        (.terrarium, 129, 44, 128, 300.5),            // 33024 + 44 + 0.5 − 32768
        (.terrarium, 127, 255, 0, -1),
        (.terrarium, 162, 65, 0, 8769),               // 41472 + 65 − 32768
        (.terrarium, 0, 0, 0, -32768),
        (.mapbox, 1, 134, 160, 0),                    // 100000 × 0.1 − 10000
        (.mapbox, 1, 144, 32, 243.2),
        (.mapbox, 0, 0, 0, -10000),
        (.mapbox, 255, 255, 255, 1_667_721.5),
    ])
    func decodesKnownPixels(encoding: DEMEncoding, r: UInt8, g: UInt8, b: UInt8, metres: Float) {
        let e = encoding.elevation(red: r, green: g, blue: b)
        #expect(abs(e - metres) <= max(0.01, abs(metres) * 1e-6), "\(encoding) (\(r),\(g),\(b)) → \(e)")
    }

    @Test func decodesATileImageAndRefusesNonSquareOnes() throws {
        let image = Canvas(width: 2, height: 2, premultipliedPixels: [
            128, 0, 0, 255,  129, 44, 128, 255,
            0, 0, 0, 0,      127, 255, 0, 255,
        ])
        let dem = try DEMTile(decoding: image, encoding: .terrarium)
        #expect(dem.elevations == [0, 300.5, 0, -1])  // transparent = no data = 0 m
        #expect(throws: DEMTile.NotSquare.self) {
            _ = try DEMTile(decoding: Canvas(width: 3, height: 2), encoding: .mapbox)
        }
    }

    @Test func bothFixtureEncodingsDecodeToTheSameElevations() throws {
        let path = "12/2332/1184.png"
        let t = try DEMTile(decoding: decodePNG(Self.terrarium + "/" + path), encoding: .terrarium)
        let m = try DEMTile(decoding: decodePNG(Self.mapbox + "/" + path), encoding: .mapbox)
        #expect(t.side == 256)
        #expect(t.elevations == m.elevations)
        // The hill's peak (≈ 885 m) sits at this tile's top-left corner; its far corner is flat.
        #expect(t.elevation(x: 0, y: 0) > 850)
        #expect(t.elevation(x: 255, y: 255) == 0)
    }

    // MARK: Shading

    @Test func flatGroundIsFullyTransparent() {
        let dem = DEMTile(side: 16, elevations: [Float](repeating: 512, count: 256))
        let image = HillshadePainter.shade(dem, tile: Self.tile, parameters: .init()) { _, _ in dem }
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [335.0, 90, 200])
    func slopeFacingTheLightIsLighterThanOneFacingAway(direction: Double) {
        var p = HillshadePainter.Parameters()
        p.illuminationDirection = direction
        // Two planes of about 1:4 (a 16-px z12 tile pixel is ≈ 300 m here): one downhill
        // towards the light, one away from it.
        let a = direction * .pi / 180
        let towards = plane(side: 16, dx: -sin(a) * 80, dy: cos(a) * 80)
        let away = plane(side: 16, dx: sin(a) * 80, dy: -cos(a) * 80)
        let lit = composite(HillshadePainter.shade(towards, tile: Self.tile, parameters: p) { _, _ in nil })
        let dark = composite(HillshadePainter.shade(away, tile: Self.tile, parameters: p) { _, _ in nil })
        #expect(lit > 128 + 20, "lit slope \(lit)")
        #expect(dark < 128 - 20, "shadowed slope \(dark)")
    }

    @Test func steeperSlopesShadeMoreAndExaggerationStrengthens() {
        let gentle = plane(side: 8, dx: 0, dy: -20), steep = plane(side: 8, dx: 0, dy: -300)
        // Both planes rise to the north; the light comes from the south, onto their faces.
        var p = HillshadePainter.Parameters()
        p.illuminationDirection = 180
        let alpha = { (d: DEMTile, p: HillshadePainter.Parameters) in
            HillshadePainter.shade(d, tile: Self.tile, parameters: p) { _, _ in nil }.pixels[4 * 36 + 3]
        }
        #expect(alpha(steep, p) > alpha(gentle, p))
        var strong = p
        strong.exaggeration = 1
        var weak = p
        weak.exaggeration = 0.2
        #expect(alpha(gentle, strong) > alpha(gentle, p))
        #expect(alpha(gentle, weak) < alpha(gentle, p))
    }

    @Test func noSeamBetweenNeighbouringTiles() {
        // A smooth surface sampled into two side-by-side tiles.
        let side = 32
        func tile(_ originX: Int) -> DEMTile {
            var e = [Float](repeating: 0, count: side * side)
            for y in 0..<side {
                for x in 0..<side {
                    let gx = Double(originX + x), gy = Double(y)
                    e[y * side + x] = Float(400 + 250 * sin(gx / 9) * cos(gy / 7) + 3 * gx)
                }
            }
            return DEMTile(side: side, elevations: e)
        }
        let left = tile(0), right = tile(side)
        let leftID = TileID(z: 12, x: 100, y: 100)!, rightID = TileID(z: 12, x: 101, y: 100)!
        let l = HillshadePainter.shade(left, tile: leftID, parameters: .init()) { dx, dy in dx == 1 && dy == 0 ? right : nil }
        let r = HillshadePainter.shade(right, tile: rightID, parameters: .init()) { dx, dy in dx == -1 && dy == 0 ? left : nil }
        // Clamped edges instead of neighbours: the seam this avoids.
        let lc = HillshadePainter.shade(left, tile: leftID, parameters: .init()) { _, _ in nil }
        let rc = HillshadePainter.shade(right, tile: rightID, parameters: .init()) { _, _ in nil }
        var worst = 0, worstClamped = 0, inside = 0
        for y in 1..<(side - 1) {
            for c in 0..<4 {
                let a = Int(l.pixels[(y * side + side - 1) * 4 + c]), b = Int(r.pixels[(y * side) * 4 + c])
                worst = max(worst, abs(a - b))
                worstClamped = max(worstClamped, abs(Int(lc.pixels[(y * side + side - 1) * 4 + c]) - Int(rc.pixels[(y * side) * 4 + c])))
                // The same step one pixel inside the left tile, for scale.
                inside = max(inside, abs(Int(l.pixels[(y * side + side - 2) * 4 + c]) - a))
            }
        }
        #expect(worst <= max(inside, 4), "border step \(worst) vs interior step \(inside)")
        #expect(worstClamped > worst + 10, "clamping would leave a seam of \(worstClamped)")
    }

    @Test func neighboursWrapAroundTheAntimeridianAndStopAtThePoles() {
        let east = TileID(z: 2, x: 3, y: 0)!
        #expect(HillshadePainter.neighbour(of: east, dx: 1, dy: 0) == TileID(z: 2, x: 0, y: 0))
        #expect(HillshadePainter.neighbour(of: east, dx: 0, dy: -1) == nil)
        #expect(HillshadePainter.neighbour(of: TileID(z: 0, x: 0, y: 0)!, dx: -1, dy: 0) == TileID(z: 0, x: 0, y: 0))
    }

    // MARK: Rendering with --dem

    func options(dem: String?, encoding: DEMEncoding? = nil, style: String = "terrain") -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 240, height: 180, center: Self.corner, zoom: 12, style: style)
        o.demSource = dem
        o.demEncoding = encoding
        o.showsScaleBar = false
        o.attribution = ""
        return o
    }

    @Test func terrainStyleWithDEMGolden() throws {
        let snap = try MapSnapshotter(options: options(dem: Self.terrarium)).render()
        // Elevations are not map detail; the embedded world data has detail to z12 here.
        #expect(snap.warnings.isEmpty && !snap.coverage.lacksDetail, "\(snap.warnings)")
        Golden.expect(snap.image, named: "helsinki-terrain-dem-z12", in: "BaseMap")
        // Without --dem the DEM slot is skipped silently and the hill is gone.
        let plain = try MapSnapshotter(options: options(dem: nil)).render()
        #expect(plain.warnings == [plain.coverage.warning].compactMap { $0 }, "\(plain.warnings)")
        #expect(plain.image.pixels != snap.image.pixels)
    }

    @Test func mapboxEncodedCopyRendersTheSameBytes() throws {
        let a = try MapSnapshotter(options: options(dem: Self.terrarium)).render().pngData()
        let b = try MapSnapshotter(options: options(dem: Self.mapbox, encoding: .mapbox)).render().pngData()
        let same = a == b  // a Bool: on failure Swift Testing would diff the whole arrays
        #expect(same)
        // Read with the wrong encoding, the tiles decode to nonsense heights: a different image.
        let c = try MapSnapshotter(options: options(dem: Self.mapbox)).render().pngData()
        #expect(c != a)
    }

    @Test func demReplacesTheRasterDEMSourcesOfAUserStyle() throws {
        let dir = TestPaths.temporaryDirectory()
        let style = dir + "/relief.json"
        try Data("""
        {"version": 8, "sources": {"elevation": {"type": "raster-dem", "url": "no-such-dem-dir", "encoding": "terrarium"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#808080"}},
                    {"id": "shade", "type": "hillshade", "source": "elevation"}]}
        """.utf8).write(to: URL(fileURLWithPath: style))
        var o = options(dem: Self.terrarium, style: style)
        (o.width, o.height) = (500, 500)
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        // North-west of the peak (lit) is lighter than south-east (shadowed); the far
        // corners are flat: plain background.
        let c = snap.image
        #expect(c.color(atX: 230, y: 230).red > 140)
        #expect(c.color(atX: 270, y: 270).red < 116)
        #expect(c.color(atX: 3, y: 496) == Color(rgb: 0x808080))
        #expect(c.color(atX: 3, y: 3) == Color(rgb: 0x808080))
        // Without --dem the style's own (missing) directory is an error naming the source.
        #expect {
            _ = try MapSnapshotter(options: options(dem: nil, style: style)).render()
        } throws: { String(describing: $0).contains("elevation") }
    }

    @Test func demWithAStyleWithoutRasterDEMSourcesWarns() throws {
        var o = options(dem: Self.terrarium, style: "normal")
        o.zoom = 12
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.warnings.contains { $0.contains("--dem") && $0.contains("no raster-dem source") })
    }

    @Test func specKeysSetTheDEM() throws {
        let spec = try RenderSpec.parse(data: Data(#"{"center": "0,0", "zoom": 3, "dem": "tiles/dem", "demEncoding": "mapbox"}"#.utf8),
                                        source: "spec.json", baseDirectory: "/data")
        #expect(spec.options.demSource == "/data/tiles/dem")
        #expect(spec.options.demEncoding == .mapbox)
        #expect(throws: (any Error).self) {
            _ = try RenderSpec.parse(data: Data(#"{"center": "0,0", "zoom": 3, "demEncoding": "lerc"}"#.utf8), source: "spec.json")
        }
        let back = try RenderSpec.parse(data: spec.jsonData(), source: "round-trip.json")
        #expect(back.options.demSource == "/data/tiles/dem" && back.options.demEncoding == .mapbox)
    }

    @Test func cliDEMFlag() throws {
        let out = TestPaths.temporaryDirectory() + "/dem.png"
        let ok = try runCLI(["render", "--style", "terrain", "--dem", Self.terrarium, "--center", "60.239811169998916,24.9609375",
                             "--zoom", "12", "--size", "240x180", "--no-scale-bar", "--attribution", "none", "-o", out])
        #expect(ok.status == 0, "\(ok.stderr)")
        let cli = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        let library = try MapSnapshotter(options: options(dem: Self.terrarium)).render().pngData()
        #expect(cli == library)
        let bad = try runCLI(["render", "--style", "terrain", "--dem", Self.terrarium, "--dem-encoding", "lerc", "-o", out])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--dem-encoding"))
        let missing = try runCLI(["render", "--style", "terrain", "--dem", "/nonexistent-dem", "--zoom", "3",
                                  "--center", "0,0", "-o", out + ".2"])
        #expect(missing.status == 2)   // a missing input path is bad input, like every other
        #expect(missing.stderr.contains("--dem /nonexistent-dem"))
        let help = try runCLI(["render", "--help"])
        #expect(help.stdout.contains("--dem SOURCE"))
    }

    // MARK: Helpers

    /// A plane with the given rise per pixel east (`dx`) and south (`dy`).
    func plane(side: Int, dx: Double, dy: Double) -> DEMTile {
        var e = [Float](repeating: 0, count: side * side)
        for y in 0..<side { for x in 0..<side { e[y * side + x] = Float(1000 + dx * Double(x) + dy * Double(y)) } }
        return DEMTile(side: side, elevations: e)
    }

    /// The mean red value of a shade image over mid-grey, centre pixels only.
    func composite(_ shade: Canvas) -> Int {
        let grey = Canvas(width: shade.width, height: shade.height, fill: Color(rgb: 0x808080))
        grey.composite(shade, x: 0, y: 0)
        var sum = 0, n = 0
        for y in 2..<(shade.height - 2) { for x in 2..<(shade.width - 2) { sum += Int(grey.color(atX: x, y: y).red); n += 1 } }
        return sum / max(n, 1)
    }

    func decodePNG(_ path: String) throws -> Canvas {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try RasterTileDecoder.decode(bytes, origin: path)
    }

    /// `mapsnap` through the shared runner (which finds the binary of whatever build
    /// directory the tests run from, e.g. a sanitizer's); the run's scratch directory is
    /// removed (the tests pass absolute paths).
    func runCLI(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try CLIRunner.run(arguments)
        CLIRunner.cleanUp(r.directory)
        return (r.exitCode, r.stdoutText, r.stderr)
    }
}
