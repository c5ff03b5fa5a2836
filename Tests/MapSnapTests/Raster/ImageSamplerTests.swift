import MapSnapTesting
import Testing
@testable import MapSnap

@Suite struct ImageSamplerTests {
    private func randomCanvas(width: Int, height: Int, seed: UInt64) -> Canvas {
        print("ImageSamplerTests seed: \(seed)")
        var rng = SeededGenerator(seed: seed)
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: px.count, by: 4) {
            let a = UInt8.random(in: 0...255, using: &rng)
            px[i + 3] = a
            for k in 0..<3 { px[i + k] = UInt8.random(in: 0...a, using: &rng) } // premultiplied
        }
        return Canvas(width: width, height: height, premultipliedPixels: px)
    }

    @Test func identityBlitMatchesIntegerComposite() {
        let src = randomCanvas(width: 13, height: 9, seed: 7)
        let background = randomCanvas(width: 20, height: 16, seed: 8)
        let a = Canvas(width: 20, height: 16, premultipliedPixels: background.pixels)
        let b = Canvas(width: 20, height: 16, premultipliedPixels: background.pixels)
        a.draw(src, in: PixelRect(x: 4, y: 5, width: 13, height: 9))
        b.composite(src, x: 4, y: 5)
        #expect(a.pixels == b.pixels)
        // Onto transparent: an exact copy.
        let c = Canvas(width: 13, height: 9)
        c.draw(src, in: PixelRect(x: 0, y: 0, width: 13, height: 9))
        #expect(c.pixels == src.pixels)
    }

    /// Opaque runs of every length from 1 to 11 (the exact-tap copy checks alphas four
    /// pixels at a time) between translucent and transparent pixels, on odd widths and
    /// offsets: the same bytes as the reference composite.
    @Test func opaqueRunsOfEveryLengthMatchIntegerComposite() {
        var rng = SeededGenerator(seed: 11)
        let width = 61, height = 7
        var px = [UInt8]()
        var run = 1
        while px.count < width * height * 4 {
            for _ in 0..<run { px += [UInt8.random(in: 0...255, using: &rng), 9, 200, 255] }
            let a = UInt8.random(in: 0...254, using: &rng)
            px += [a / 2, a, 0, a]
            run = run % 11 + 1
        }
        let src = Canvas(width: width, height: height, premultipliedPixels: Array(px.prefix(width * height * 4)))
        let background = randomCanvas(width: 70, height: 12, seed: 12)
        for x in [0, 3, 6] {
            let a = Canvas(width: 70, height: 12, premultipliedPixels: background.pixels)
            let b = Canvas(width: 70, height: 12, premultipliedPixels: background.pixels)
            a.draw(src, in: PixelRect(x: Double(x), y: 2, width: Double(width), height: Double(height)))
            b.composite(src, x: x, y: 2)
            let same = a.pixels == b.pixels  // a Bool: no pixel-array diff on failure
            #expect(same, "offset \(x)")
        }
    }

    @Test func twoTimesUpscaleOfACheckerIsBilinear() {
        // Opaque black / white 2×2 checker: along each axis the 4 output samples sit at source
        // positions −¼ (clamped to 0), ¼, ¾, 1¼ (clamped to 1): weights 0, ¼, ¾, 1.
        let w: UInt8 = 255
        let src = Canvas(width: 2, height: 2, premultipliedPixels: [
            0, 0, 0, 255, w, w, w, 255,
            w, w, w, 255, 0, 0, 0, 255,
        ])
        let dst = Canvas(width: 4, height: 4)
        dst.draw(src, in: PixelRect(x: 0, y: 0, width: 4, height: 4))
        let t = [0.0, 0.25, 0.75, 1.0]
        for y in 0..<4 {
            for x in 0..<4 {
                // Checker value at (tx, ty) is tx + ty − 2·tx·ty (0 at black corners).
                let v = t[x] + t[y] - 2 * t[x] * t[y]
                let got = dst.color(atX: x, y: y)
                #expect(abs(Int(got.red) - Int((v * 255).rounded())) <= 1, "pixel \(x),\(y)")
                #expect(got.alpha == 255)
            }
        }
    }

    @Test(arguments: [0.0, 0.3, 0.5, 0.77, 0.999])
    func adjacentTilesAtFractionalOffsetsLeaveNoSeam(_ offset: Double) {
        // Two uniform tiles over a contrasting background; any gap or overlap would show.
        let tile = Canvas(width: 8, height: 8, fill: Color(rgb: 0x336699))
        let dst = Canvas(width: 40, height: 20, fill: Color(rgb: 0xFF0000))
        let size = 12.4
        for i in 0..<3 {
            dst.draw(tile, in: PixelRect(x: 1 + offset + Double(i) * size, y: 2 + offset, width: size, height: size))
        }
        let first = Int((1 + offset - 0.5).rounded(.up)), last = Int((1 + offset + 3 * size - 0.5).rounded(.up))
        let row = Int((2 + offset + 6))
        for x in first..<last {
            #expect(dst.color(atX: x, y: row) == Color(rgb: 0x336699), "x \(x) offset \(offset)")
        }
        #expect(dst.color(atX: first - 1, y: row) == Color(rgb: 0xFF0000))
    }

    @Test func adjacentTilesWithContentMatchAcrossTheSeam() {
        // A horizontal gradient split into two tiles must stay monotonic across the seam.
        var left = [UInt8](), right = [UInt8]()
        for _ in 0..<4 {
            for x in 0..<8 { left += [UInt8(x * 16), 0, 0, 255]; right += [UInt8(128 + x * 16), 0, 0, 255] }
        }
        let dst = Canvas(width: 40, height: 8)
        dst.draw(Canvas(width: 8, height: 4, premultipliedPixels: left), in: PixelRect(x: 2.3, y: 0, width: 16.2, height: 8))
        dst.draw(Canvas(width: 8, height: 4, premultipliedPixels: right), in: PixelRect(x: 18.5, y: 0, width: 16.2, height: 8))
        var previous = -1
        for x in 3..<35 {
            let c = dst.color(atX: x, y: 4)
            #expect(c.alpha == 255, "x \(x)")
            #expect(Int(c.red) >= previous, "x \(x)")
            previous = Int(c.red)
        }
    }

    @Test func strongDownscaleAveragesInsteadOfAliasing() {
        // 1-px stripes shrunk 8×: point sampling would give all black or all white.
        var px = [UInt8]()
        for _ in 0..<64 { for x in 0..<64 { let v: UInt8 = x % 2 == 0 ? 255 : 0; px += [v, v, v, 255] } }
        let src = Canvas(width: 64, height: 64, premultipliedPixels: px)
        let dst = Canvas(width: 8, height: 8)
        dst.draw(src, in: PixelRect(x: 0, y: 0, width: 8, height: 8))
        for y in 0..<8 { for x in 0..<8 { #expect(abs(Int(dst.color(atX: x, y: y).red) - 128) <= 1) } }
    }

    @Test func opacityScalesTheSource() {
        let src = Canvas(width: 2, height: 2, fill: .white)
        let dst = Canvas(width: 4, height: 4)
        dst.draw(src, in: PixelRect(x: 0, y: 0, width: 4, height: 4), opacity: 0.5)
        #expect(dst.pixels[3] == 128 && dst.pixels[0] == 128)
    }

    @Test(arguments: [
        PixelRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300),
        PixelRect(x: 5, y: 5, width: 0, height: 3),
        PixelRect(x: .nan, y: 0, width: 3, height: 3),
        PixelRect(x: 1e9, y: 1e9, width: 4, height: 4),
    ])
    func degenerateRectsAreHarmless(_ rect: PixelRect) {
        let src = Canvas(width: 3, height: 3, fill: .black)
        let dst = Canvas(width: 8, height: 8)
        dst.draw(src, in: rect)
        #expect(dst.pixels.count == 8 * 8 * 4)
    }
}
