import Foundation
import Testing
@testable import MapSnap

/// The gate in front of the HTTP cache: what counts as a tile of each format.
@Suite struct TileBodyValidatorTests {
    static func png() throws -> [UInt8] { try HTTPTileSourceTests.fixtureBytes(HTTPTileSourceTests.tile) }

    static func reason(_ body: [UInt8], _ format: TileFormat, maxBytes: Int = 32 << 20) -> String? {
        do {
            _ = try TileBodyValidator.validate(body, format: format, maxBytes: maxBytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func validTilesPassAndVectorTilesComeBackUncompressed() throws {
        let mvt = try TileFixtures.centralTileBytes()
        #expect(try TileBodyValidator.validate(Self.png(), format: .png, maxBytes: 32 << 20) == Self.png())
        #expect(try TileBodyValidator.validate(jpegFixture("rgb-baseline.jpg"), format: .jpg, maxBytes: 32 << 20).count > 0)
        #expect(try TileBodyValidator.validate(Gzip.compress(mvt), format: .mvt, maxBytes: 32 << 20) == mvt)
        #expect(try TileBodyValidator.validate(mvt, format: .mvt, maxBytes: 32 << 20) == mvt)
        // Without a file extension: a valid image or a valid vector tile.
        #expect(try TileBodyValidator.validate(Self.png(), format: .unknown, maxBytes: 32 << 20) == Self.png())
        #expect(try TileBodyValidator.validate(Gzip.compress(mvt), format: .unknown, maxBytes: 32 << 20) == mvt)
        // An empty vector tile is a tile with no layers.
        #expect(try TileBodyValidator.validate([], format: .mvt, maxBytes: 32 << 20) == [])
    }

    /// (body, format, expected part of the reason)
    @Test(arguments: [
        ("<html>Quota exceeded</html>", TileFormat.png, "expected a PNG image, got 27 bytes starting '<html>Quota exceeded</ht'"),
        ("<html>Quota exceeded</html>", .mvt, "expected a vector tile, got 27 bytes starting '<html>"),
        ("\n\n  {\"message\": \"Invalid token\"}", .mvt, "expected a vector tile, got"),
        ("<?xml version=\"1.0\"?><Error/>", .unknown, "expected a tile, got"),
        ("[1, 2]", .unknown, "expected a tile, got"),
        ("", .png, "expected a PNG image, got an empty body"),
        ("\u{8}\u{1}garbage", .mvt, "not a vector tile"),
    ])
    func errorPagesAndGarbageAreRejected(body: String, format: TileFormat, expected: String) {
        let reason = Self.reason(Array(body.utf8), format)
        #expect(reason?.contains(expected) == true, "\(reason ?? "accepted")")
    }

    @Test func truncatedImagesAreRejected() throws {
        let png = try Self.png()
        #expect(Self.reason(Array(png.prefix(png.count / 2)), .png) != nil)
        #expect(Self.reason(try jpegFixture("truncated.jpg"), .jpg) == "JPEG without its end-of-image marker (truncated)")
        var webp = Array("RIFF".utf8) + [100, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(Self.reason(webp, .webp) == "WebP cut short: RIFF declares 108 bytes, got 16")
        webp += [UInt8](repeating: 0, count: 92)
        #expect(Self.reason(webp, .webp) == nil)
    }

    @Test func imagesAreNotVectorTiles() throws {
        #expect(Self.reason(try Self.png(), .mvt) == "expected a vector tile, got a PNG image")
    }

    @Test func gzipIsInflatedWithinTheLimit() throws {
        let reason = Self.reason(HostileBodies.gzipBomb(decodedBytes: 1 << 20), .mvt, maxBytes: 1000)
        #expect(reason == GzipError.outputTooLarge(limit: 1000).description)
    }

    /// The bomb helper of the fault-injection server inflates to more than it claims to the
    /// limit: zlib stops it only at the cap.
    @Test func gzipBombInflatesPastAnyLimit() {
        let bomb = HostileBodies.gzipBomb(decodedBytes: 10 << 20)
        #expect(bomb.count < 100_000)
        #expect(throws: GzipError.outputTooLarge(limit: (10 << 20) - 1)) {
            try Gzip.decompress(bomb, maxOutputBytes: (10 << 20) - 1)
        }
    }
}
