import Foundation
import Testing
@testable import MapSnap

/// Right-to-left and mixed-direction text: FriBiDi's levels, rule L2's reordering, the
/// visual order of laid-out glyphs, line breaking by shaped width, and runs by script.
@Suite struct BidiLayoutTests {
    func layout(_ text: String, _ options: TextLayoutOptions = TextLayoutOptions(sizePixels: 20)) throws -> TextLayout {
        let fonts = try #require(TextFixtures.fonts)
        return TextLayout(text, face: fonts.regular, fonts: fonts, options: options)
    }

    /// Characters of the layout's glyphs, left to right, one per cluster.
    func visualCharacters(_ l: TextLayout) -> [Int] {
        var out: [Int] = []
        for g in l.glyphs where out.last != g.characterIndex { out.append(g.characterIndex) }
        return out
    }

    @Test func levelsFollowTheFirstStrongCharacter() {
        let arabic = BidiParagraph("شارع 26".unicodeScalars.map(\.value))
        #expect(arabic.isRightToLeft)
        // Letters and the space at 1; European digits in right-to-left text at 2.
        #expect(arabic.levels == [1, 1, 1, 1, 1, 2, 2])
        let latin = BidiParagraph("Cairo القاهرة".unicodeScalars.map(\.value))
        #expect(!latin.isRightToLeft)
        #expect(latin.levels == [0, 0, 0, 0, 0, 0] + Array(repeating: 1, count: 7))
        #expect(!BidiParagraph("123 -".unicodeScalars.map(\.value)).isRightToLeft)
        #expect(BidiParagraph("abc".unicodeScalars.map(\.value), rightToLeft: true).levels == [2, 2, 2])
    }

    @Test(arguments: [
        ([0, 0, 0], [0, 1, 2]),
        ([1, 1, 1], [2, 1, 0]),
        ([0, 1, 1, 0], [0, 2, 1, 3]),
        // Digits (2) inside right-to-left text (1) keep their own order.
        ([1, 2, 2, 1], [3, 1, 2, 0]),
        ([1, 1, 2, 2], [2, 3, 1, 0]),
    ] as [([UInt8], [Int])])
    func ruleL2ReversesRunsFromTheHighestLevel(levels: [UInt8], order: [Int]) {
        #expect(BidiParagraph.visualOrder(levels: levels) == order)
    }

    @Test func arabicIsDrawnRightToLeftAndJoined() throws {
        let l = try layout("القاهرة")
        // Seven letters, the first at the right end.
        #expect(visualCharacters(l) == [6, 5, 4, 3, 2, 1, 0])
        #expect(l.glyphs.allSatisfy { $0.face.familyName == "Noto Sans Arabic" })
        // Joined: the qaf between lam and alef takes its medial form, not the lone letter's glyph.
        let isolated = try layout("ق")
        let qaf = l.glyphs.filter { $0.characterIndex == 2 }
        #expect(qaf.count == 1 && isolated.glyphs.count == 1)
        #expect(qaf.first?.glyph != isolated.glyphs.first?.glyph)
        #expect(l.missingCharacters.isEmpty)
    }

    @Test func hebrewIsReversed() throws {
        let l = try layout("ירושלים")
        #expect(visualCharacters(l) == [6, 5, 4, 3, 2, 1, 0])
    }

    @Test func digitsInsideArabicKeepTheirOrder() throws {
        // "Street 26": the number reads 2-6 left to right, at the left of the word.
        let l = try layout("شارع 26")
        #expect(visualCharacters(l) == [5, 6, 4, 3, 2, 1, 0])
    }

    @Test func mixedDirectionLabelKeepsEachWordsOrder() throws {
        let l = try layout("Cairo القاهرة")
        #expect(visualCharacters(l) == [0, 1, 2, 3, 4, 5, 12, 11, 10, 9, 8, 7, 6])
        // Latin in Noto Sans, Arabic in Noto Sans Arabic: two faces, one line.
        #expect(Set(l.glyphs.map { ObjectIdentifier($0.face) }).count == 2)
        // Pens advance left to right without gaps or overlaps.
        for (a, b) in zip(l.glyphs, l.glyphs.dropFirst()) where a.offset == PixelPoint(x: 0, y: 0) && b.offset == PixelPoint(x: 0, y: 0) {
            #expect(abs(a.origin.x + a.advance - b.origin.x) < 1e-9)
        }
    }

    @Test func rightToLeftParagraphPutsItsFirstWordRight() throws {
        let l = try layout("القاهرة Cairo")
        // Base direction from the first strong letter: Arabic at the right, "Cairo" at the left.
        #expect(visualCharacters(l) == [8, 9, 10, 11, 12, 7, 6, 5, 4, 3, 2, 1, 0])
    }

    @Test func wrappingUsesShapedWidthsAndKeepsLogicalLineOrder() throws {
        let text = "شارع الملك فيصل بن عبد العزيز"
        let one = try layout(text)
        let wrapped = try layout(text, TextLayoutOptions(sizePixels: 20, maxWidth: one.width * 0.6))
        #expect(wrapped.lines.count == 2)
        for line in wrapped.lines { #expect(line.width <= one.width * 0.6 + 1e-9) }
        // The first line holds the first words (logical order), drawn right to left.
        let first = wrapped.glyphs[wrapped.lines[0].glyphRange].map(\.characterIndex)
        #expect(first.contains(0) && !first.contains(text.count - 1))
        #expect(first.first ?? 0 > first.last ?? 0)
        // The line widths are the shaped advances of their glyphs.
        for line in wrapped.lines {
            let sum = wrapped.glyphs[line.glyphRange].reduce(0) { $0 + $1.advance }
            #expect(abs(sum - line.width) < 1e-9)
        }
    }

    @Test func devanagariFormsConjunctsAndReordersTheIMatra() throws {
        // दि: the i-matra (U+093F) is drawn before (left of) its consonant; क्ष is one conjunct.
        let l = try layout("दिल्ली क्षेत्र")
        #expect(l.missingCharacters.isEmpty)
        #expect(l.glyphs.allSatisfy { $0.face.familyName == "Noto Sans Devanagari" })
        let scalars = "दिल्ली क्षेत्र".unicodeScalars.count
        #expect(l.glyphs.count < scalars)
    }

    @Test func marksOnThaiVowelsAreOffsetNotAdvanced() throws {
        let l = try layout("เชียงใหม่")
        let marks = l.glyphs.filter { $0.advance == 0 }
        #expect(!marks.isEmpty)
        #expect(l.glyphs.allSatisfy { $0.face.familyName == "Noto Sans Thai" })
    }

    @Test func letterSpacingLeavesArabicJoined() throws {
        let plain = try layout("القاهرة")
        let spaced = try layout("القاهرة", TextLayoutOptions(sizePixels: 20, letterSpacing: 0.2))
        #expect(spaced.width == plain.width)
        let latin = try layout("Cairo", TextLayoutOptions(sizePixels: 20, letterSpacing: 0.2))
        #expect(abs(latin.width - (try layout("Cairo")).width - 4 * 4) < 1e-9)
    }

    @Test(arguments: [("straße", "STRASSE"), ("tbilisi თბილისი", "TBILISI თბილისი"), ("القاهرة", "القاهرة"),
                      ("Ελλάδα", "ΕΛΛΆΔΑ"), ("नई दिल्ली", "नई दिल्ली")])
    func uppercaseOnlyChangesCasedScripts(text: String, upper: String) {
        #expect(TextTransform.uppercase.apply(text) == upper)
    }

    @Test func shapedRunsAreCachedAcrossSizes() throws {
        let fonts = try #require(TextFixtures.fonts)
        let cache = ShapingCache()
        _ = TextLayout("مكة المكرمة", face: fonts.regular, fonts: fonts, options: TextLayoutOptions(sizePixels: 12), cache: cache)
        let count = cache.count
        #expect(count >= 1)
        let big = TextLayout("مكة المكرمة", face: fonts.regular, fonts: fonts, options: TextLayoutOptions(sizePixels: 40), cache: cache)
        #expect(cache.count == count)
        let fresh = TextLayout("مكة المكرمة", face: fonts.regular, fonts: fonts, options: TextLayoutOptions(sizePixels: 40), cache: ShapingCache())
        #expect(big.glyphs.map(\.glyph) == fresh.glyphs.map(\.glyph))
        #expect(big.glyphs.map(\.origin) == fresh.glyphs.map(\.origin))
    }
}
