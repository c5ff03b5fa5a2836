import Foundation

/// How lines of a multi-line label line up (MapLibre's `text-justify`).
enum TextAlignment: String, Sendable, Hashable, CaseIterable {
    case left, center, right
}

/// Knobs of `TextLayout`. Lengths are in pixels unless they say ems (multiples of the size).
struct TextLayoutOptions: Sendable, Hashable {
    /// The em size in pixels (MapLibre `text-size` × render scale).
    var sizePixels: Double
    /// Wrap at spaces (and between CJK ideographs) so no line is wider than this many
    /// pixels when a break allows it; `nil` keeps each paragraph on one line. MapLibre's
    /// `text-max-width` is 10 ems: pass `10 * sizePixels`.
    var maxWidth: Double?
    /// Distance between baselines, in ems (MapLibre `text-line-height`, default 1.2).
    var lineHeight: Double
    /// Alignment of lines within the block.
    var alignment: TextAlignment
    /// Extra space after every character, in ems (MapLibre `text-letter-spacing`).
    var letterSpacing: Double

    init(sizePixels: Double = 16, maxWidth: Double? = nil, lineHeight: Double = 1.2,
                alignment: TextAlignment = .center, letterSpacing: Double = 0) {
        self.sizePixels = sizePixels
        self.maxWidth = maxWidth
        self.lineHeight = lineHeight
        self.alignment = alignment
        self.letterSpacing = letterSpacing
    }
}

/// One glyph of a layout, with the face that has it and where it sits.
struct PositionedGlyph: Sendable {
    /// The face the glyph index belongs to (the requested face or a fallback).
    let face: FreeTypeFace
    /// Glyph index in `face`.
    let glyph: UInt32
    /// Where the glyph is drawn: its pen position plus `offset`, on the baseline, relative
    /// to the layout box's top-left (pixels, y down).
    var origin: PixelPoint
    /// How far the shaper moved the glyph from its pen (marks over their base, kerning by
    /// placement), in pixels, y down; zero for most glyphs.
    let offset: PixelPoint
    /// Advance to the next glyph's pen, in pixels (kerning included), before letter spacing.
    let advance: Double
    /// Line number, from 0.
    let line: Int
    /// Index of the `Character` of the (NFC-normalised) text this glyph's cluster starts at.
    /// Glyphs of one cluster (a ligature, a base and its marks, an Indic syllable's parts)
    /// share it and sit next to each other.
    let characterIndex: Int
}

/// A Unicode string laid out in pixels: shaped by HarfBuzz in runs of one direction, script
/// and face (`ShapedParagraph`), wrapped by shaped width, runs reordered for display by the
/// bidi algorithm, lines aligned.
///
/// The layout box has its top-left at (0, 0); it is as wide as the widest line and
/// `lineCount × lineHeight` tall, each line's ascender-to-descender band centred in its line
/// box. Glyphs are in visual order, left to right, on every line.
struct TextLayout: Sendable {
    /// One laid-out line.
    struct Line: Sendable, Hashable {
        /// The line's glyphs in `glyphs`.
        var glyphRange: Range<Int>
        /// Advance width of the line (trailing spaces excluded).
        var width: Double
        /// Baseline y in the layout box.
        var baseline: Double
    }

    /// The laid-out text (NFC-normalised, as glyph `characterIndex`es count it).
    let text: String
    /// The options used.
    let options: TextLayoutOptions
    /// All glyphs, line by line, in visual order (left to right). Spaces are included (they
    /// have advances but no pixels).
    let glyphs: [PositionedGlyph]
    /// The lines, top to bottom.
    let lines: [Line]
    /// Width of the layout box (the widest line).
    let width: Double
    /// Height of the layout box.
    let height: Double
    /// Ascender of the requested face at this size, in pixels.
    let ascent: Double
    /// Descender of the requested face at this size, in pixels (positive).
    let descent: Double
    /// Characters no face could map; they are drawn as the requested face's missing-glyph box.
    let missingCharacters: [Character]

    /// Lays out `text` in `face`, falling back through `fonts` for characters it lacks.
    init(_ text: String, face: FreeTypeFace, fonts: FontLibrary, options: TextLayoutOptions = TextLayoutOptions(),
         cache: ShapingCache = ShapingCache()) {
        var options = options
        let size = options.sizePixels.isFinite ? min(max(options.sizePixels, 0), GlyphRasterSpec.maxSizePixels) : 0
        options.sizePixels = size
        self.options = options
        // NFC first, so "e + combining acute" becomes the single glyph fonts actually have.
        let normalised = text.precomposedStringWithCanonicalMapping
        self.text = normalised
        let scale = size / Double(face.unitsPerEm)
        ascent = Double(face.ascender) * scale
        descent = Double(face.descender) * scale
        let lineHeight = (options.lineHeight.isFinite ? max(options.lineHeight, 0) : 1.2) * size
        let spacing = (options.letterSpacing.isFinite ? options.letterSpacing : 0) * size
        let maxWidth = options.maxWidth.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let bandOffset = (lineHeight - (ascent + descent)) / 2 + ascent

        var glyphs: [PositionedGlyph] = []
        var lines: [Line] = []
        var missing: [Character] = []
        let characters = Array(normalised)
        var paragraphStart = 0
        while paragraphStart <= characters.count {
            let paragraphEnd = characters[paragraphStart...].firstIndex(where: \.isNewline) ?? characters.count
            let paragraph = TextLayout.Paragraph(characters, paragraphStart..<paragraphEnd, face: face, fonts: fonts,
                                                 size: size, cache: cache)
            for i in paragraph.shaped.missing {
                let c = characters[paragraph.characterOfScalar[i]]
                if missing.last != c { missing.append(c) }
            }
            let clusters = paragraph.clusters
            let breaks = maxWidth.map { LineBreaker.breaks(clusters, maxWidth: $0, spacing: spacing) } ?? []
            var start = 0
            for end in breaks + [clusters.count] {
                var last = end
                // Spaces at a wrap point (and at the end) are dropped, like every label renderer does.
                while last > start, clusters[last - 1].isSpace { last -= 1 }
                let number = lines.count
                let baseline = Double(number) * lineHeight + bandOffset
                let first = glyphs.count
                let lineWidth = paragraph.place(clusters: start..<last, line: number, baseline: baseline,
                                                spacing: spacing, into: &glyphs)
                lines.append(Line(glyphRange: first..<glyphs.count, width: max(0, lineWidth), baseline: baseline))
                start = end
            }
            paragraphStart = paragraphEnd + 1
        }

        // Lines were placed from x = 0; shift them for alignment now the block width is known.
        let blockWidth = lines.reduce(0) { max($0, $1.width) }
        for line in lines {
            let shift: Double
            switch options.alignment {
            case .left: shift = 0
            case .center: shift = (blockWidth - line.width) / 2
            case .right: shift = blockWidth - line.width
            }
            guard shift != 0 else { continue }
            for i in line.glyphRange { glyphs[i].origin.x += shift }
        }
        self.glyphs = glyphs
        self.lines = lines
        width = blockWidth
        height = Double(lines.count) * lineHeight
        missingCharacters = missing
    }

    /// The layout box in its own coordinates: (0, 0, width, height).
    var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width, maxY: height) }

    /// One paragraph (text between newlines) shaped, with what line breaking needs.
    private struct Paragraph {
        /// The paragraph's characters (indices into the whole text) and their scalars.
        let characterRange: Range<Int>
        /// For each shaped scalar, the index of its character in the whole text.
        let characterOfScalar: [Int]
        /// For each character of the paragraph, the index of its first scalar (or of the
        /// next character's, for a character with none).
        let firstScalar: [Int]
        let shaped: ShapedParagraph
        let clusters: [Cluster]
        /// The em size in pixels.
        let size: Double

        init(_ characters: [Character], _ range: Range<Int>, face: FreeTypeFace, fonts: FontLibrary, size: Double,
             cache: ShapingCache) {
            characterRange = range
            self.size = size
            var scalars: [UInt32] = []
            var characterOfScalar: [Int] = []
            var firstScalar: [Int] = []
            for index in range {
                firstScalar.append(scalars.count)
                for s in characters[index].unicodeScalars {
                    // Tabs become spaces; other controls draw nothing.
                    if s == "\t" {
                        scalars.append(0x20)
                    } else if s.properties.generalCategory == .control {
                        continue
                    } else {
                        scalars.append(s.value)
                    }
                    characterOfScalar.append(index)
                }
            }
            firstScalar.append(scalars.count)
            self.characterOfScalar = characterOfScalar
            self.firstScalar = firstScalar
            shaped = ShapedParagraph(scalars, face: face, fonts: fonts, cache: cache)

            // Each character's width is the advance of the glyphs whose cluster starts in it
            // (a ligature or conjunct counts at its first character, the rest are 0).
            var widths = [Double](repeating: 0, count: range.count)
            for run in shaped.runs {
                for g in run.glyphs {
                    widths[characterOfScalar[g.cluster] - range.lowerBound] += run.pixels(g.xAdvance, size: size)
                }
            }
            clusters = range.map { index in
                let character = characters[index]
                let isSpace = character.isWhitespace
                // No-break spaces (U+00A0, U+2007, U+202F) hold their neighbours on one line.
                let isBreakingSpace = isSpace && !character.unicodeScalars.contains { ["\u{A0}", "\u{2007}", "\u{202F}"].contains($0) }
                let breakAfter = isBreakingSpace || character.unicodeScalars.contains(where: Cluster.allowsBreakAfter)
                return Cluster(width: widths[index - range.lowerBound], isSpace: isSpace, breakAfter: breakAfter, index: index)
            }
        }

        /// Appends the glyphs of the characters `clusters` (paragraph-relative indices) as one
        /// line from x = 0: the runs cut to the line, put in visual order by rule L2, glyphs
        /// advanced with letter spacing between clusters. Returns the line's width.
        func place(clusters range: Range<Int>, line: Int, baseline: Double, spacing: Double,
                   into glyphs: inout [PositionedGlyph]) -> Double {
            let scalarRange = firstScalar[range.lowerBound]..<firstScalar[range.upperBound]
            guard !scalarRange.isEmpty else { return 0 }
            let pieces = shaped.runs.filter { $0.range.overlaps(scalarRange) }
            let order = BidiParagraph.visualOrder(levels: pieces.map(\.level))
            var x = 0.0
            var previousCluster: Int?
            for piece in order.map({ pieces[$0] }) {
                let spaced = spacing != 0 && !ShapedParagraph.joinedScripts.contains(piece.script)
                for g in piece.glyphs where scalarRange.contains(g.cluster) {
                    let character = characterOfScalar[g.cluster]
                    if let p = previousCluster, p != character, spaced { x += spacing }
                    previousCluster = character
                    let offset = PixelPoint(x: piece.pixels(g.xOffset, size: size), y: -piece.pixels(g.yOffset, size: size))
                    let advance = piece.pixels(g.xAdvance, size: size)
                    glyphs.append(PositionedGlyph(face: piece.face, glyph: g.glyph,
                                                  origin: PixelPoint(x: x + offset.x, y: baseline + offset.y),
                                                  offset: offset, advance: advance, line: line, characterIndex: character))
                    x += advance
                }
            }
            return x
        }
    }
}

/// A character as line breaking sees it: its shaped width and whether a line may end after it.
struct Cluster {
    /// Sum of the advances of the glyphs shaped for it (kerning included).
    var width: Double
    var isSpace: Bool
    /// A line may break after this cluster (it is a space, or an ideograph).
    var breakAfter: Bool
    var index: Int

    /// Ideographs, kana and Hangul syllables may break anywhere (no spaces between words).
    static func allowsBreakAfter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2E80...0x2FFF, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x3FFFF, 0x200B:
            return true
        default:
            return false
        }
    }
}

/// Chooses line breaks for a paragraph.
///
/// Greedy filling at `maxWidth` fixes the number of lines; then, like MapLibre's balanced
/// breaking, the narrowest width that still needs no more lines is searched for, so a label
/// wraps as "Helsinki Central / Railway Station" rather than "Helsinki Central Railway /
/// Station". Widths are shaped widths, kerning included.
enum LineBreaker {
    /// Indices in `clusters` where new lines start (ascending, never 0 or `count`).
    static func breaks(_ clusters: [Cluster], maxWidth: Double, spacing: Double) -> [Int] {
        let greedy = fill(clusters, target: maxWidth, spacing: spacing)
        guard !greedy.isEmpty else { return [] }
        var lo = 0.0, hi = maxWidth
        var best = greedy
        // Bisection over the target width: a fixed number of steps keeps it deterministic.
        for _ in 0..<24 {
            let mid = (lo + hi) / 2
            let candidate = fill(clusters, target: mid, spacing: spacing)
            if candidate.count <= greedy.count {
                best = candidate
                hi = mid
            } else {
                lo = mid
            }
        }
        return best
    }

    /// Greedy breaks: start a new line before a word that would overflow `target`.
    static func fill(_ clusters: [Cluster], target: Double, spacing: Double) -> [Int] {
        var breaks: [Int] = []
        var lineStart = 0
        var lastBreak: Int?      // index after the last break opportunity on this line
        var x = 0.0              // width of clusters[lineStart..<i], each with its spacing
        var i = 0
        while i < clusters.count {
            let c = clusters[i]
            // Trailing spaces never overflow: they are dropped at a wrap.
            let visible = x + c.width
            if !c.isSpace, visible > target, let b = lastBreak, b > lineStart {
                breaks.append(b)
                lineStart = b
                lastBreak = nil
                x = 0
                for carried in clusters[b..<i] { x += carried.width + spacing }
                continue
            }
            x += c.width + spacing
            if c.breakAfter { lastBreak = i + 1 }
            i += 1
        }
        return breaks
    }
}
