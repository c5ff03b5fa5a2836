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
        ("rgb-420.jpg", 12), ("cmyk.jpg", 6), ("cmyk-plain.jpg", 6),
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

    /// FNV-1a of the decoded RGBA bytes as the libjpeg shim that preceded TurboJPEG produced
    /// them (libjpeg-turbo 2.1.5): moving to the TurboJPEG API changed no pixel.
    @Test(arguments: [
        ("rgb-baseline.jpg", 0xB980_1891_BFCC_B325 as UInt64), ("rgb-progressive.jpg", 0xB980_1891_BFCC_B325),
        ("rgb-restart.jpg", 0xB980_1891_BFCC_B325), ("rgb-420.jpg", 0x90AB_90DB_1C0B_F791),
        ("grey.jpg", 0x90FB_5B0B_BB48_0B25), ("cmyk.jpg", 0x34FD_9EAA_1506_0B25), ("cmyk-plain.jpg", 0x34FD_9EAA_1506_0B25),
    ])
    func decodedPixelsMatchThePreviousDecoder(file: String, fnv1a: UInt64) throws {
        let pixels = try JPEGCodec.decode(try jpegFixture(file), origin: file).pixels
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in pixels { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        #expect(hash == fnv1a, "\(file)")
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
        #expect(throws: JPEGError.truncated(origin: "truncated.jpg", size: bytes.count)) {
            try JPEGCodec.decode(bytes, origin: "truncated.jpg")
        }
    }

    @Test func corruptSegmentLengthIsReportedWithLibjpegsReason() throws {
        #expect(throws: JPEGError.corrupt(origin: "c.jpg", reason: "Bogus marker length")) {
            try JPEGCodec.decode(try jpegFixture("corrupt-sof-length.jpg"), origin: "c.jpg")
        }
    }

    /// A valid file (Pillow decodes it) whose 568 scans would make decoding slow at scale.
    @Test func progressiveFileWithTooManyScansIsRefused() throws {
        #expect(throws: JPEGError.tooManyScans(origin: "m", limit: 500)) {
            try JPEGCodec.decode(try jpegFixture("many-scans.jpg"), origin: "m")
        }
        let size = try JPEGCodec.dimensions(of: try jpegFixture("many-scans.jpg"), origin: "m")
        #expect(size.width == 8 && size.height == 8)
    }

    /// Only tables (DQT, DHT) and no frame: TurboJPEG's header call succeeds without an image.
    @Test func tablesWithoutAnImageAreCorrupt() throws {
        let rgb = try jpegFixture("rgb-baseline.jpg")
        let sof = try #require(sofOffset(rgb))
        #expect(throws: JPEGError.corrupt(origin: "t", reason: "the data holds no image (no frame header before the end)")) {
            try JPEGCodec.decode(Array(rgb[..<sof]) + [0xFF, 0xD9], origin: "t")
        }
    }

    /// Luma 1×1 with Cb 2×2: legal JPEG, but not a layout TurboJPEG 2.1 decodes.
    @Test func unusualChromaSubsamplingIsUnsupportedNotCorrupt() throws {
        var bytes = try jpegFixture("rgb-baseline.jpg")
        let sof = try #require(sofOffset(bytes))
        bytes[sof + 14] = 0x22  // the second component's sampling factors
        #expect(throws: JPEGError.unsupported(origin: "s", reason: "Could not determine subsampling type for JPEG image")) {
            try JPEGCodec.decode(bytes, origin: "s")
        }
    }

    @Test func adobeMarkerIsFoundOnlyBeforeTheFirstScan() throws {
        #expect(JPEGCodec.hasAdobeMarker(try jpegFixture("cmyk.jpg")))
        #expect(!JPEGCodec.hasAdobeMarker(try jpegFixture("cmyk-plain.jpg")))
        #expect(!JPEGCodec.hasAdobeMarker(try jpegFixture("rgb-baseline.jpg")))
        // Too short to be Adobe's (fewer than 12 data bytes), and a length running off the end.
        #expect(!JPEGCodec.hasAdobeMarker([0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x07] + Array("Adobe".utf8)))
        #expect(!JPEGCodec.hasAdobeMarker([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00]))
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

    @Test func errorMessagesNameTheInputAndSize() {
        let e = JPEGError.truncated(origin: "tiles/3/4/5.jpg", size: 350)
        #expect(e.description == "tiles/3/4/5.jpg: JPEG data ends early (after 350 bytes, before the end-of-image marker); file truncated")
    }
}

/// Offset of the SOF0 marker in a baseline file from `make_fixtures.py`.
private func sofOffset(_ bytes: [UInt8]) -> Int? {
    (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }
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
