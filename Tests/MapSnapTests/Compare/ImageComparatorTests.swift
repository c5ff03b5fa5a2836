import Foundation
import Testing
@testable import MapSnap

/// A decoded fixture from `Tests/MapSnapTests/Fixtures/compare/` (made by `make_pairs.py`).
func compareFixture(_ name: String, filePath: String = #filePath) throws -> MapImage {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/compare/\(name)")
    return try MapImage(pngData: [UInt8](try Data(contentsOf: url)), origin: name)
}

func solid(_ w: Int, _ h: Int, _ c: Color) -> MapImage { Canvas(width: w, height: h, fill: c).image }

@Suite struct ImageComparatorTests {
    @Test func identicalImagesHaveNoDifference() throws {
        let a = solid(8, 8, Color(rgb: 0x336699))
        let d = try ImageComparator().compare(actual: a, expected: solid(8, 8, Color(rgb: 0x336699)))
        #expect(d.differingPixelCount == 0 && d.antiAliasedPixelCount == 0 && d.maxDelta == 0 && d.isMatch)
    }

    @Test func onePixelChangedIsOneDifference() throws {
        let e = solid(8, 8, .white), a = Canvas(width: 8, height: 8, fill: .white)
        a.pixels[(3 * 8 + 4) * 4] = 0  // cyan instead of white at (4, 3)
        let d = try ImageComparator().compare(actual: a.image, expected: e)
        #expect(d.differingPixelCount == 1)
        #expect(abs(d.differingPercentage - 100.0 / 64) < 1e-12)
    }

    /// Black against white: Y alone differs by 255, so delta = 0.5053·255² = 32857, i.e.
    /// sqrt(32857 / 35215) ≈ 0.9659 on the threshold scale — counted below it, not above.
    @Test func blackAgainstWhiteSitsJustBelowTheScaleMaximum() throws {
        let comparator = ImageComparator(threshold: 0.96)
        let d = try comparator.compare(actual: solid(2, 2, .black), expected: solid(2, 2, .white))
        #expect(abs(d.maxDelta - 0.96594) < 1e-4)
        #expect(d.differingPixelCount == 4)
        let lenient = try ImageComparator(threshold: 0.97).compare(actual: solid(2, 2, .black), expected: solid(2, 2, .white))
        #expect(lenient.differingPixelCount == 0)
    }

    /// A small, uniform colour shift (3 levels): forgiven at the default threshold and at
    /// pixelmatch's 0.1, counted at 0.
    @Test(arguments: [(ImageComparator.defaultThreshold, 0), (0.1, 0), (0.0, 64), (0.01, 64)] as [(Double, Int)])
    func colourShiftAgainstThreshold(threshold: Double, expected: Int) throws {
        let d = try ImageComparator(threshold: threshold)
            .compare(actual: solid(8, 8, Color(rgb: 0x2040C0)), expected: solid(8, 8, Color(rgb: 0x2343C3)))
        #expect(d.differingPixelCount == expected)
        #expect(d.maxDelta > 0.01 && d.maxDelta < 0.1)
    }

    /// Transparent pixels are compared blended over white: transparent black equals white
    /// at any threshold above 0, and its colour distance is 0.
    @Test func alphaIsBlendedOverWhite() throws {
        let d = try ImageComparator(threshold: 0.001).compare(actual: solid(4, 4, .clear), expected: solid(4, 4, .white))
        #expect(d.differingPixelCount == 0 && d.maxDelta == 0)
    }

    /// Threshold 0 is byte-exact: pixels that only look alike over white still differ, and a
    /// one-level change of one channel counts (with anti-aliasing not forgiven).
    @Test func thresholdZeroComparesBytes() throws {
        let d = try ImageComparator(threshold: 0).compare(actual: solid(4, 4, .clear), expected: solid(4, 4, .white))
        #expect(d.differingPixelCount == 16 && d.maxDelta == 0)
        let e = solid(8, 8, Color(rgb: 0x808080)), a = Canvas(width: 8, height: 8, fill: Color(rgb: 0x808080))
        a.pixels[(2 * 8 + 5) * 4 + 2] = 0x81
        let exact = ImageComparator(threshold: 0, includeAntiAliasing: true)
        #expect(try exact.compare(actual: a.image, expected: e).differingPixelCount == 1)
        #expect(try exact.compare(actual: e, expected: e).differingPixelCount == 0)
    }

    @Test func sizeMismatchIsAnError() {
        #expect(throws: ImageComparisonError.sizeMismatch(actualWidth: 4, actualHeight: 5, expectedWidth: 4, expectedHeight: 4)) {
            try ImageComparator().compare(actual: solid(4, 5, .white), expected: solid(4, 4, .white))
        }
    }

    /// A vertical edge whose anti-aliased column changes value: not counted by default,
    /// counted with `includeAntiAliasing`.
    @Test func antiAliasedEdgeShiftIsForgivenByDefault() throws {
        func edge(_ aaValue: UInt8) -> MapImage {
            let c = Canvas(width: 9, height: 9, fill: .white)
            for y in 0..<9 {
                for x in 0..<9 {
                    let v: UInt8 = x < 4 ? 0 : (x == 4 ? aaValue : 255)
                    let i = (y * 9 + x) * 4
                    c.pixels[i] = v; c.pixels[i + 1] = v; c.pixels[i + 2] = v
                }
            }
            return c.image
        }
        let d = try ImageComparator().compare(actual: edge(40), expected: edge(200))
        #expect(d.differingPixelCount == 0)
        #expect(d.antiAliasedPixelCount == 9)
        let strict = try ImageComparator(includeAntiAliasing: true).compare(actual: edge(40), expected: edge(200))
        #expect(strict.differingPixelCount == 9 && strict.antiAliasedPixelCount == 0)
    }

    @Test func toleranceInPixelsAndPercent() {
        let d = ImageDifference(width: 10, height: 10, differingPixelCount: 3, antiAliasedPixelCount: 0, maxDelta: 0.5, diffImage: nil)
        #expect(d.isWithin(.pixels(3)) && !d.isWithin(.pixels(2)))
        #expect(d.isWithin(.percent(3)) && !d.isWithin(.percent(2.99)))
        #expect(d.summary == "3 differing pixels (3.0000%), max delta 0.5000")
    }

    @Test func diffImageMarksDifferencesAndFadesTheRest() throws {
        let e = solid(4, 4, Color(rgb: 0x000000)), a = Canvas(width: 4, height: 4, fill: Color(rgb: 0x000000))
        a.pixels[0] = 255; a.pixels[1] = 255; a.pixels[2] = 255
        let d = try ImageComparator().compare(actual: a.image, expected: e, producingDiffImage: true)
        let diff = try #require(d.diffImage)
        #expect(diff.color(atX: 0, y: 0) == Color(rgb: 0xFF0000))
        // Black faded to 10 %: 255 − 0.1·255 = 229.5 → 230.
        #expect(diff.color(atX: 2, y: 2) == Color(red: 230, green: 230, blue: 230))
        #expect(Canvas(diff).isOpaque)
    }

    @Test func thresholdIsClamped() {
        #expect(ImageComparator(threshold: 7).threshold == 1)
        #expect(ImageComparator(threshold: -1).threshold == 0)
        #expect(ImageComparator(threshold: .nan).threshold == ImageComparator.defaultThreshold)
    }
}

/// Agreement with pixelmatch on the same image pairs.
///
/// Reference numbers: pixelmatch-py 0.4.0 (port of Mapbox pixelmatch v5.x, alpha over white),
/// run by `Fixtures/compare/make_pairs.py` with `pixelmatch(base, other)` on 2026-11-29.
/// Our counts must agree within 1 % of the image (≤ 30 pixels of 3072). When written they
/// matched exactly in all twelve cases, translucent ones included (those go through
/// premultiplied bytes, so a rounding-level disagreement would be acceptable).
@Suite struct PixelmatchAgreementTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let expected: String, actual: String
        let threshold: Double, includeAA: Bool
        let pixelmatchCount: Int
        var testDescription: String { "\(actual) vs \(expected) t=\(threshold) aa=\(includeAA)" }
    }

    static let cases: [Case] = [
        Case(expected: "base.png", actual: "base.png", threshold: 0.1, includeAA: false, pixelmatchCount: 0),
        Case(expected: "base.png", actual: "one_pixel.png", threshold: 0.1, includeAA: false, pixelmatchCount: 1),
        Case(expected: "base.png", actual: "shift_1px.png", threshold: 0.1, includeAA: false, pixelmatchCount: 4),
        Case(expected: "base.png", actual: "shift_1px.png", threshold: 0.1, includeAA: true, pixelmatchCount: 112),
        Case(expected: "base.png", actual: "aa_shift.png", threshold: 0.1, includeAA: false, pixelmatchCount: 0),
        Case(expected: "base.png", actual: "aa_shift.png", threshold: 0.1, includeAA: true, pixelmatchCount: 46),
        Case(expected: "base.png", actual: "color_small.png", threshold: 0.1, includeAA: false, pixelmatchCount: 0),
        Case(expected: "base.png", actual: "color_small.png", threshold: 0.0, includeAA: false, pixelmatchCount: 568),
        Case(expected: "base.png", actual: "color_big.png", threshold: 0.1, includeAA: false, pixelmatchCount: 568),
        Case(expected: "base.png", actual: "color_big.png", threshold: 0.1, includeAA: true, pixelmatchCount: 616),
        Case(expected: "translucent.png", actual: "translucent_fainter.png", threshold: 0.1, includeAA: false, pixelmatchCount: 568),
        Case(expected: "translucent.png", actual: "translucent_fainter.png", threshold: 0.1, includeAA: true, pixelmatchCount: 608),
    ]

    @Test(arguments: cases)
    func countsAgreeWithPixelmatch(_ c: Case) throws {
        let d = try ImageComparator(threshold: c.threshold, includeAntiAliasing: c.includeAA)
            .compare(actual: try compareFixture(c.actual), expected: try compareFixture(c.expected))
        let allowed = d.width * d.height / 100
        #expect(abs(d.differingPixelCount - c.pixelmatchCount) <= allowed,
                "ours \(d.differingPixelCount), pixelmatch \(c.pixelmatchCount)")
    }

    @Test func differentSizesAreRejectedLikePixelmatch() throws {
        // pixelmatch raises "Image sizes do not match."; we throw a typed error.
        #expect(throws: ImageComparisonError.self) {
            try ImageComparator().compare(actual: try compareFixture("taller.png"), expected: try compareFixture("base.png"))
        }
    }
}
