import MapSnapTesting
import Testing
@testable import MapSnap

/// `Canvas.compositeOver`, the one source-over of the renderer, and the drawing entry points
/// that end in it: they must give the same bytes for the same colour and coverage.
struct CompositeOverTests {
    /// Source-over written out: `d′ = s + round(d · (255 − sα) / 255)` per channel, where
    /// `round(x / 255) = ⌊(2x + 255) / 510⌋` (x / 255 is never exactly half-way).
    static func reference(source s: [UInt32], destination d: [UInt8]) -> [UInt8] {
        (0..<4).map { c in UInt8(min(255, s[c] + (2 * UInt32(d[c]) * (255 - s[3]) + 255) / 510)) }
    }

    /// A random premultiplied pixel: colour channels at most alpha.
    static func premultipliedPixel(_ rng: inout SeededGenerator) -> [UInt32] {
        let a = UInt32.random(in: 0...255, using: &rng)
        return [UInt32.random(in: 0...a, using: &rng), UInt32.random(in: 0...a, using: &rng),
                UInt32.random(in: 0...a, using: &rng), a]
    }

    @Test func compositeOverIsSourceOver() {
        let seed: UInt64 = 0xB1E4D
        print("CompositeOverTests seed: \(seed)")
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            let s = Self.premultipliedPixel(&rng)
            let d = Self.premultipliedPixel(&rng).map { UInt8($0) }
            var bytes = d
            bytes.withUnsafeMutableBufferPointer { Canvas.compositeOver($0, 0, (s[0], s[1], s[2], s[3])) }
            #expect(bytes == Self.reference(source: s, destination: d), "source \(s) over \(d)")
        }
    }

    @Test func aMalformedSourceClipsInsteadOfTrapping() {
        // Colour above alpha is not premultiplied; the sum would pass 255.
        var bytes: [UInt8] = [200, 200, 200, 255]
        bytes.withUnsafeMutableBufferPointer { Canvas.compositeOver($0, 0, (255, 100, 0, 0)) }
        #expect(bytes == [255, 255, 200, 255])
    }

    /// One colour through coverage 0…255 along a row, four ways: the rasterizer's row
    /// (`blendCoverage`), a band of a banded fill (`PixelRows.blend`), a glyph mask
    /// (`blendMask`) and a canvas composited with opacity = coverage (`composite`).
    @Test(arguments: [Color(red: 200, green: 40, blue: 90, alpha: 255), Color(red: 10, green: 220, blue: 140, alpha: 97)])
    func everyEntryPointBlendsAlike(color: Color) {
        let seed: UInt64 = 0xC0DE
        var rng = SeededGenerator(seed: seed)
        let background = (0..<256 * 4).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // Premultiplied: colour at most alpha.
        var pixels = background
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 { pixels[i + c] = min(pixels[i + c], pixels[i + 3]) }
        }
        let coverage = (0..<256).map { UInt8($0) }
        func canvas() -> Canvas { Canvas(width: 256, height: 1, premultipliedPixels: pixels) }

        let row = canvas()
        coverage.withUnsafeBufferPointer { row.blendCoverage(y: 0, x0: 0, coverage: $0, color: color) }

        let band = canvas()
        band.pixels.withUnsafeMutableBufferPointer { px in
            coverage.withUnsafeBufferPointer {
                PixelRows(base: px.baseAddress, width: 256).blend(y: 0, x0: 0, coverage: $0, src: Canvas.premultiply(color))
            }
        }

        let mask = canvas()
        coverage.withUnsafeBufferPointer { mask.blendMask($0, maskWidth: 256, maskHeight: 1, x: 0, y: 0, color: color) }

        let composited = canvas()
        let solid = Canvas(width: 1, height: 1, fill: color)
        for x in 0..<256 { composited.composite(solid, x: x, y: 0, opacity: UInt8(x)) }

        #expect(band.pixels == row.pixels)
        #expect(mask.pixels == row.pixels)
        #expect(composited.pixels == row.pixels)
        // And each pixel is the formula's.
        let p = Canvas.premultiply(color)
        for x in 0..<256 {
            let k = UInt32(x)
            let s = [p.0, p.1, p.2, p.3].map { (UInt32($0) * k * 2 + 255) / 510 }
            #expect(Array(row.pixels[x * 4..<x * 4 + 4]) == Self.reference(source: s, destination: Array(pixels[x * 4..<x * 4 + 4])),
                    "coverage \(x)")
        }
    }
}
