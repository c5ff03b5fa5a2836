import Foundation
import Testing
@testable import MapSnap

/// Fixture bytes from `Tests/MapSnapTests/Fixtures/jpeg/` (see its README).
/// Resolved from this file's location, so callers in any folder find the same files.
func jpegFixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/jpeg/\(name)")
    return [UInt8](try Data(contentsOf: url))
}

/// True when every channel of `actual` is within `tolerance` of `expected` and alpha is 255.
private func near(_ actual: Color, _ expected: UInt32, tolerance: Int) -> Bool {
    let r = Int((expected >> 16) & 0xFF), g = Int((expected >> 8) & 0xFF), b = Int(expected & 0xFF)
    return abs(Int(actual.red) - r) <= tolerance && abs(Int(actual.green) - g) <= tolerance
        && abs(Int(actual.blue) - b) <= tolerance && actual.alpha == 255
}

@Suite struct JPEGCodecTests {
    /// (file, tolerance): every variant of the quadrant image decodes to its four colours.
    @Test(arguments: [
        ("rgb-baseline.jpg", 6), ("rgb-progressive.jpg", 6), ("rgb-restart.jpg", 6),
        ("rgb-420.jpg", 12), ("cmyk.jpg", 6),
    ])
    func quadrantImagesDecodeToTheirColours(file: String, tolerance: Int) throws {
        let canvas = try JPEGCodec.decode(try jpegFixture(file), origin: file)
        #expect(canvas.width == 32 && canvas.height == 32)
        let samples: [(Int, Int, UInt32)] = [(4, 4, 0xFF0000), (28, 4, 0x00FF00), (4, 28, 0x0000FF), (28, 28, 0xFFFFFF)]
        for (x, y, rgb) in samples {
            let c = canvas.color(atX: x, y: y)
            #expect(near(c, rgb, tolerance: tolerance), "\(file) at \(x),\(y): \(c)")
        }
        #expect(canvas.isOpaque)
    }

    @Test func greyBecomesEqualChannels() throws {
        let canvas = try JPEGCodec.decode(try jpegFixture("grey.jpg"), origin: "grey.jpg")
        #expect(canvas.width == 16 && canvas.height == 8)
        let dark = canvas.color(atX: 2, y: 3), light = canvas.color(atX: 13, y: 3)
        #expect(dark.red == dark.green && dark.green == dark.blue && dark.red <= 4)
        #expect(light.red == light.green && light.green == light.blue && abs(Int(light.red) - 200) <= 4)
    }

    @Test func decodingIsDeterministic() throws {
        let bytes = try jpegFixture("rgb-progressive.jpg")
        let a = try JPEGCodec.decode(bytes, origin: "a"), b = try JPEGCodec.decode(bytes, origin: "b")
        #expect(a.pixels == b.pixels)
    }

    @Test func dimensionsComeFromTheHeaderAlone() throws {
        let size = try JPEGCodec.dimensions(of: try jpegFixture("huge-header.jpg"), origin: "huge")
        #expect(size.width == 60000 && size.height == 60000)
    }

    @Test func truncatedFileIsAnErrorNotAGreyImage() throws {
        let bytes = try jpegFixture("truncated.jpg")
        #expect {
            try JPEGCodec.decode(bytes, origin: "truncated.jpg")
        } throws: { error in
            guard case .truncated(let origin, let offset, let size)? = error as? JPEGError else { return false }
            return origin == "truncated.jpg" && size == bytes.count && offset <= size
        }
    }

    @Test func corruptSegmentLengthIsReportedWithLibjpegsReason() throws {
        #expect {
            try JPEGCodec.decode(try jpegFixture("corrupt-sof-length.jpg"), origin: "c.jpg")
        } throws: { error in
            guard case .corrupt(let origin, _, let reason)? = error as? JPEGError else { return false }
            return origin == "c.jpg" && !reason.isEmpty
        }
    }

    @Test func hugeDeclaredSizeIsRejectedBeforeAllocating() throws {
        #expect(throws: JPEGError.imageTooLarge(origin: "huge.jpg", width: 60000, height: 60000,
                                                maxPixelCount: JPEGCodec.defaultMaxPixelCount)) {
            try JPEGCodec.decode(try jpegFixture("huge-header.jpg"), origin: "huge.jpg")
        }
    }

    @Test func callerLimitApplies() throws {
        #expect(throws: JPEGError.imageTooLarge(origin: "x", width: 32, height: 32, maxPixelCount: 1023)) {
            try JPEGCodec.decode(try jpegFixture("rgb-baseline.jpg"), origin: "x", maxPixelCount: 1023)
        }
        #expect(try JPEGCodec.decode(try jpegFixture("rgb-baseline.jpg"), origin: "x", maxPixelCount: 1024).width == 32)
    }

    /// Short and hostile inputs: each must throw its typed error, never trap.
    @Test(arguments: [
        ([UInt8](), "not"),
        ([0xFF, 0xD8], "not"),
        ([0x89, 0x50, 0x4E, 0x47], "not"),
        ([0xFF, 0xD8, 0xFF], "trunc"),
        ([0xFF, 0xD8, 0xFF, 0xD9], "corrupt"),
        ([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x02], "trunc"),
        // SOF0 declaring a width of 0: libjpeg's "Empty JPEG image".
        ([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x00, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9], "corrupt"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00], "trunc"),
    ] as [([UInt8], String)])
    func hostileInputs(bytes: [UInt8], expected: String) {
        do {
            _ = try JPEGCodec.decode(bytes, origin: "h")
            Issue.record("decoded \(bytes)")
        } catch {
            switch (error, expected) {
            case (.notJPEG, "not"), (.truncated, "trunc"), (.corrupt, "corrupt"): break
            default: Issue.record("\(bytes): unexpected \(error)")
            }
        }
    }

    /// Every prefix of a valid file either decodes or throws; none traps or hangs.
    @Test func everyPrefixFailsCleanly() throws {
        let bytes = try jpegFixture("rgb-progressive.jpg")
        for n in stride(from: 0, to: bytes.count - 2, by: 7) {
            #expect(throws: JPEGError.self) { try JPEGCodec.decode(Array(bytes.prefix(n)), origin: "p") }
        }
    }

    @Test func errorMessagesNameTheInputAndOffset() {
        let e = JPEGError.truncated(origin: "tiles/3/4/5.jpg", offset: 350, size: 350)
        #expect(e.description.contains("tiles/3/4/5.jpg") && e.description.contains("350"))
    }
}

@Suite struct RasterImageDecoderTests {
    @Test func sniffsByMagicBytesNotExtension() throws {
        let jpeg = try jpegFixture("rgb-baseline.jpg")
        #expect(RasterImageDecoder.sniff(jpeg) == .jpg)
        #expect(try RasterImageDecoder.decode(jpeg, origin: "tile.png").width == 32)
        let png = try Canvas(width: 3, height: 2, fill: Color(rgb: 0x336699)).pngData()
        #expect(RasterImageDecoder.sniff(png) == .png)
        #expect(try RasterImageDecoder.decode(png, origin: "tile.jpg").height == 2)
    }

    @Test func webPIsClearlyUnsupported() {
        let webp = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(RasterImageDecoder.sniff(webp) == .webp)
        #expect(throws: RasterImageError.unsupportedFormat(origin: "t", format: "WebP")) {
            try RasterImageDecoder.decode(webp, origin: "t")
        }
    }

    @Test func unknownBytesShowTheirSignature() {
        #expect(throws: RasterImageError.unrecognized(origin: "t", signature: Array("<html>".utf8))) {
            try RasterImageDecoder.decode(Array("<html>".utf8), origin: "t")
        }
    }

    @Test func codecErrorsAreWrapped() throws {
        let truncated = try jpegFixture("truncated.jpg")
        #expect {
            try RasterImageDecoder.decode(truncated, origin: "t")
        } throws: { error in
            if case .jpeg(.truncated)? = error as? RasterImageError { return true }
            return false
        }
    }
}
