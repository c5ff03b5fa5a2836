import Testing
@testable import MapSnap

@Suite struct TextLayoutTests {
    func layout(_ text: String, bold: Bool = false, _ options: TextLayoutOptions = TextLayoutOptions()) throws -> TextLayout {
        let fonts = try #require(TextFixtures.fonts)
        return TextLayout(text, face: bold ? fonts.bold : fonts.regular, fonts: fonts, options: options)
    }

    @Test func helloIsWiderThanHi() throws {
        #expect(try layout("Hello").width > layout("Hi").width)
    }

    @Test func advancesAreScaledDesignUnits() throws {
        // "H" is 741 units and "i" 258 units wide in Noto Sans Regular (fontTools hmtx);
        // the pair is not kerned.
        let l = try layout("Hi", TextLayoutOptions(sizePixels: 20))
        #expect(abs(l.width - (741 + 258) * 20.0 / 1000) < 1e-9)
        #expect(l.glyphs.map(\.origin.x) == [0, 741 * 20.0 / 1000])
    }

    @Test func kerningPullsAVTogether() throws {
        let fonts = try #require(TextFixtures.fonts)
        let l = try layout("AV", TextLayoutOptions(sizePixels: 100))
        let a = try #require(fonts.regular.glyphIndex(for: "A"))
        // 639 (advance of A) - 40 (GPOS AV pair) units, at 100 px per 1000 units.
        #expect(l.glyphs[1].origin.x == Double(fonts.regular.advance(of: a) - 40) / 10)
        #expect(abs(l.width - (639 - 40 + 600) / 10.0) < 1e-9)
    }

    @Test func letterSpacingAddsBetweenCharactersOnly() throws {
        let plain = try layout("Oslo", TextLayoutOptions(sizePixels: 10))
        let spaced = try layout("Oslo", TextLayoutOptions(sizePixels: 10, letterSpacing: 0.2))
        #expect(abs(spaced.width - plain.width - 3 * 2.0) < 1e-9)
    }

    @Test func wrapsLongLabelsIntoBalancedLines() throws {
        let options = TextLayoutOptions(sizePixels: 14, maxWidth: 140)
        let l = try layout("Helsinki Central Railway Station", options)
        #expect(l.lines.count == 2)
        for line in l.lines { #expect(line.width <= 140) }
        let words = l.lines.map { line in
            String(l.glyphs[line.glyphRange].map { l.text[l.text.index(l.text.startIndex, offsetBy: $0.characterIndex)] })
        }
        #expect(words == ["Helsinki Central", "Railway Station"])
        #expect(abs(l.height - 2 * 1.2 * 14) < 1e-9)
        #expect(l.lines[1].baseline - l.lines[0].baseline == 1.2 * 14)
    }

    @Test(arguments: [
        ("Helsinki", 1),          // a single word never breaks, even when too wide
        ("Helsinki Central Railway Station", 4),   // every word is 46–52 px at 14 px
        ("a b c d e f g h", 1),
        ("Helsinki\u{A0}Central", 1),            // a no-break space never wraps
    ])
    func wrapLineCounts(text: String, lines: Int) throws {
        let maxWidth = text.hasPrefix("a ") ? 1000 : 60.0
        #expect(try layout(text, TextLayoutOptions(sizePixels: 14, maxWidth: maxWidth)).lines.count == lines)
    }

    @Test func newlinesSplitParagraphsAndAlignmentPlacesLines() throws {
        for alignment in TextAlignment.allCases {
            let l = try layout("Wide first line\nNarrow", TextLayoutOptions(sizePixels: 12, alignment: alignment))
            #expect(l.lines.count == 2)
            let narrow = l.lines[1]
            let x = l.glyphs[narrow.glyphRange.lowerBound].origin.x
            switch alignment {
            case .left: #expect(x == 0)
            case .center: #expect(abs(x - (l.width - narrow.width) / 2) < 1e-9)
            case .right: #expect(abs(x - (l.width - narrow.width)) < 1e-9)
            }
        }
    }

    @Test func cjkFallsBackToDroidSansAndWrapsBetweenIdeographs() throws {
        let fonts = try #require(TextFixtures.fonts)
        let l = try layout("東京駅", TextLayoutOptions(sizePixels: 20))
        #expect(l.glyphs.count == 3)
        #expect(l.glyphs.allSatisfy { $0.face === fonts.fallback })
        #expect(l.missingCharacters.isEmpty)
        let wrapped = try layout("東京都庁第一本庁舎", TextLayoutOptions(sizePixels: 20, maxWidth: 100))
        #expect(wrapped.lines.count >= 2)
    }

    /// A new script starts again from the requested face: the Korean font has Α and θ but
    /// not ή, so staying in it would draw "Αθ" in its regular weight and "ήνα" in the
    /// caption's bold (as a caption "東京 · 서울 · Αθήνα" once did).
    @Test func aNewScriptStartsAgainFromTheRequestedFace() throws {
        let fonts = try #require(TextFixtures.fonts)
        let scalars = "서울 · Αθήνα".unicodeScalars.map(\.value)
        let paragraph = ShapedParagraph(scalars, face: fonts.bold, fonts: fonts)
        let greek = scalars.indices.filter { (0x0370...0x03FF).contains(scalars[$0]) }
        #expect(greek.count == 5)
        for i in greek {
            let run = try #require(paragraph.runs.first { $0.range.contains(i) })
            #expect(run.face === fonts.bold, "scalar \(i)")
        }
        #expect(paragraph.runs.first { $0.range.contains(0) }?.face !== fonts.bold)
    }

    @Test func hangulComesFromTheBundledKoreanFont() throws {
        // Droid Sans Fallback has no Hangul syllables; Nanum Gothic (bundled, loaded on
        // demand) draws them.
        let l = try layout("Seoul 서울")
        #expect(l.missingCharacters.isEmpty)
        let hangul = l.glyphs.filter { $0.characterIndex >= 6 }
        #expect(hangul.count == 2 && hangul.allSatisfy { $0.face.path.hasSuffix("NanumGothic.ttf") && $0.glyph != 0 })
    }

    @Test func unmappableCharactersAreReportedAndDrawnAsNotdef() throws {
        let fonts = try #require(TextFixtures.fonts)
        // A private-use code point no bundled font maps.
        let l = try layout("Seoul \u{10FFFD}")
        #expect(l.missingCharacters == ["\u{10FFFD}"])
        #expect(l.glyphs.filter { $0.glyph == 0 }.allSatisfy { $0.face === fonts.regular })
    }

    @Test func combiningSequencesAreNormalisedAndIgnorablesSkipped() throws {
        let composed = try layout("Café")
        let decomposed = try layout("Cafe\u{301}")
        #expect(decomposed.glyphs.map(\.glyph) == composed.glyphs.map(\.glyph))
        // Ignorables are HarfBuzz's to hide: no ink, no advance.
        let withSelector = try layout("A\u{FE0F}\u{200D}B")
        #expect(withSelector.width == (try layout("AB")).width)
        let inked = withSelector.glyphs.filter { !$0.face.rasterize(GlyphRasterSpec(glyph: $0.glyph, sizePixels: 16)).isEmpty }
        #expect(inked.count == 2)
    }

    @Test(arguments: ["", "\n", "   "])
    func emptyishTextHasNoInk(text: String) throws {
        let l = try layout(text)
        #expect(l.glyphs.allSatisfy { $0.face.rasterize(GlyphRasterSpec(glyph: $0.glyph, sizePixels: 16)).isEmpty })
        #expect(l.width == 0)
    }

    @Test func hostileOptionsAreClamped() throws {
        let l = try layout("Hi", TextLayoutOptions(sizePixels: .infinity, maxWidth: -5, lineHeight: .nan, letterSpacing: .nan))
        #expect(l.options.sizePixels == 0)
        #expect(l.width == 0 && l.lines.count == 1)
        let big = try layout("Hi", TextLayoutOptions(sizePixels: 1e12))
        #expect(big.options.sizePixels == GlyphRasterSpec.maxSizePixels)
    }
}

/// The engine's layout cache hands back exactly what a fresh layout gives, per text, face
/// and options, and is shared by the engines of every render.
@Suite struct TextLayoutCacheTests {
    @Test func cachedLayoutsAreFreshLayouts() throws {
        let fonts = try #require(TextFixtures.fonts)
        let engine = TextEngine(fonts: fonts, fontError: nil)
        let perRender = engine.forRender()
        for (text, size, face) in [("Mannerheimintie", 14.0, fonts.regular), ("Mannerheimintie", 15.0, fonts.regular),
                                   ("Mannerheimintie", 14.0, fonts.bold), ("Kauppatori – 東京", 14.0, fonts.regular)] {
            let options = TextLayoutOptions(sizePixels: size, letterSpacing: 0.05)
            let fresh = TextLayout(text, face: face, fonts: fonts, options: options)
            let first = engine.layout(text, face: face, fonts: fonts, options: options)
            let again = perRender.layout(text, face: face, fonts: fonts, options: options)
            for l in [first, again] {
                #expect(l.width == fresh.width && l.height == fresh.height && l.text == fresh.text)
                #expect(l.glyphs.map(\.glyph) == fresh.glyphs.map(\.glyph))
                #expect(l.glyphs.map(\.origin) == fresh.glyphs.map(\.origin))
                #expect(zip(l.glyphs, fresh.glyphs).allSatisfy { $0.face === $1.face })
            }
        }
        // Four distinct keys (text, size, face), each laid out once for both engines.
        #expect(engine.layoutCacheCount == 4)
    }

    @Test func aFullCacheStartsAgain() {
        let cache = TextLayoutCache()
        guard let fonts = TextFixtures.fonts else { return }
        for i in 0..<(TextLayoutCache.capacity + 3) {
            _ = cache.layout("\(i)", face: fonts.regular, options: TextLayoutOptions()) {
                TextLayout("\(i)", face: fonts.regular, fonts: fonts)
            }
        }
        #expect(cache.count == 3)
    }
}
