import Foundation
import Testing
@testable import MapSnap

/// Output formats: names, palette PNG exactness and quantization, JPEG and WebP structure.
@Suite struct ImageFormatTests {
    /// A canvas of `width`×`height` where pixel i has colour `colour(i)` (premultiplied RGBA).
    static func canvas(_ width: Int, _ height: Int, _ colour: (Int) -> (UInt8, UInt8, UInt8, UInt8)) -> Canvas {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let (r, g, b, a) = colour(i)
            bytes[i * 4] = r; bytes[i * 4 + 1] = g; bytes[i * 4 + 2] = b; bytes[i * 4 + 3] = a
        }
        return Canvas(width: width, height: height, premultipliedPixels: bytes)
    }

    /// A smooth gradient with many thousands of colours, a few of them translucent.
    static let gradient = canvas(96, 64) { i in
        let x = i % 96, y = i / 96
        let a: UInt8 = y < 4 ? 128 : 255
        func p(_ v: Int) -> UInt8 { UInt8(v * Int(a) / 255) }
        return (p(x * 255 / 95), p(y * 255 / 63), p((x + y) * 255 / 158), a)
    }

    @Test(arguments: [("png", ImageFormat.png8), ("PNG8", .png8), ("png32", .png32), ("jpg", .jpg), ("jpeg", .jpg),
                      ("jpg-baseline", .jpgBaseline), ("webp", .webp)])
    func namesParse(name: String, format: ImageFormat) throws {
        #expect(try ImageFormat(name: name) == format)
    }

    @Test func gifAndUnknownNamesAreRefused() {
        #expect(throws: ImageFormatError.self) { try ImageFormat(name: "gif") }
        #expect { try ImageFormat(name: "tiff") } throws: { "\($0)".contains("expected png, png8, png32, jpg, jpg-baseline or webp") }
    }

    @Test func extensionsAndContentTypes() {
        #expect(ImageFormat(fileName: "a/b.PNG") == .png32)
        #expect(ImageFormat(fileName: "map.jpeg") == .jpg)
        #expect(ImageFormat(fileName: "map.webp") == .webp)
        #expect(ImageFormat(fileName: "map") == nil)
        #expect(ImageFormat(fileName: "dir.png/map") == nil)
        #expect(ImageFormat.allCases.map(\.contentType) == ["image/png", "image/png", "image/jpeg", "image/jpeg", "image/webp"])
    }

    @Test func png8KeepsEveryColourOfAnImageWithAtMost256() throws {
        // 256 colours, some translucent, some fully transparent.
        let c = Self.canvas(64, 32) { i in
            let k = i % 256
            let a: UInt8 = k < 16 ? 0 : (k < 64 ? UInt8(k) : 255)
            let v = UInt8(k) & a
            return (v, UInt8(255 - k) & a, 7 & a, a)
        }
        let png8 = try ImageFormat.png8.encode(c)
        #expect(png8[25] == 3, "a palette image")
        let back = try PNGCodec.decode(png8, origin: "png8")
        let exact = try PNGCodec.decode(ImageFormat.png32.encode(c), origin: "png32")
        #expect(back.pixels == exact.pixels)
    }

    @Test func png8QuantizesRicherImagesDeterministically() throws {
        let c = Self.gradient
        let first = try ImageFormat.png8.encode(c)
        #expect(try ImageFormat.png8.encode(c) == first)
        let (palette, indices) = PNG8Encoder.quantize(c)
        #expect(palette.count == 256)
        #expect(indices.count == c.width * c.height)
        let back = try PNGCodec.decode(first, origin: "png8")
        #expect(Set(stride(from: 0, to: back.pixels.count, by: 4).map { back.pixels[$0..<($0 + 4)].map { $0 } }).count <= 256)
        // Close to the original: median cut on a smooth gradient stays within a few levels.
        var total = 0
        for i in 0..<c.pixels.count { total += abs(Int(c.pixels[i]) - Int(back.pixels[i])) }
        let mean = Double(total) / Double(c.pixels.count)
        #expect(mean < 4, "mean error \(mean) per channel")
        #expect(back.pixels != c.pixels, "an image of \(c.width * c.height) colours cannot be exact")
    }

    @Test func jpegIsProgressiveOrBaselineAndDecodes() throws {
        let c = Self.gradient
        let progressive = try ImageFormat.jpg.encode(c)
        let baseline = try ImageFormat.jpgBaseline.encode(c)
        #expect(JPEGCodec.isJPEG(progressive) && JPEGCodec.isJPEG(baseline))
        #expect(Self.contains(progressive, [0xFF, 0xC2]), "SOF2: progressive")
        #expect(!Self.contains(baseline, [0xFF, 0xC2]) && Self.contains(baseline, [0xFF, 0xC0]), "SOF0: baseline")
        let back = try JPEGCodec.decode(progressive, origin: "jpg")
        #expect(back.width == 96 && back.height == 64)
        // The translucent rows are composited over white: their red stays high.
        #expect(back.pixels[0] > 120 && back.pixels[1] > 120)
        #expect(try ImageFormat.jpg.encode(c, quality: 30).count < ImageFormat.jpg.encode(c, quality: 95).count)
        #expect(try ImageFormat.jpg.encode(c) == progressive, "deterministic")
        #expect(throws: ImageFormatError.badQuality(0)) { try ImageFormat.jpg.encode(c, quality: 0) }
    }

    @Test func webpIsLosslessUnlessGivenAQuality() throws {
        let c = Self.gradient
        let lossless = try ImageFormat.webp.encode(c)
        let lossy = try ImageFormat.webp.encode(c, quality: 60)
        for bytes in [lossless, lossy] {
            #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        }
        #expect(Self.contains(lossless, Array("VP8L".utf8)), "lossless bitstream")
        #expect(!Self.contains(lossy, Array("VP8L".utf8)), "lossy bitstream")
        #expect(try ImageFormat.webp.encode(c) == lossless, "deterministic")
        #expect(throws: ImageFormatError.badQuality(101)) { try ImageFormat.webp.encode(c, quality: 101) }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
