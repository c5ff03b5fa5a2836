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

/// One glyph of a layout, with the face that has it and where its pen sits.
struct PositionedGlyph: Sendable {
    /// The face the glyph index belongs to (the requested face or a fallback).
    let face: FreeTypeFace
    /// Glyph index in `face`.
    let glyph: UInt32
    /// Pen position on the baseline, relative to the layout box's top-left (pixels, y down).
    var origin: PixelPoint
    /// Advance to the next glyph's pen, in pixels, before kerning and letter spacing.
    let advance: Double
    /// Line number, from 0.
    let line: Int
    /// Index of the `Character` of the (NFC-normalised) text this glyph draws.
    let characterIndex: Int
}

/// A Unicode string laid out in pixels: faces picked per character with fallback, pen
/// positions with kerning, wrapped and aligned lines.
///
/// The layout box has its top-left at (0, 0); it is as wide as the widest line and
/// `lineCount × lineHeight` tall, each line's ascender-to-descender band centred in its line
/// box. Scripts are laid out left to right, one glyph per scalar: no bidi reordering, no
/// ligatures or mark positioning (those need a shaping engine; map labels in Latin, Greek,
/// Cyrillic and CJK are served well without one).
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
    /// All glyphs, line by line, left to right. Spaces are included (they have advances
    /// but no pixels); glyphs of ignorable scalars (variation selectors, joiners) are not.
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
    init(_ text: String, face: FreeTypeFace, fonts: FontLibrary, options: TextLayoutOptions = TextLayoutOptions()) {
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

        var shaper = Shaper(fonts: fonts, face: face, size: size)
        var builtLines: [ArraySlice<Cluster>] = []
        var paragraph: [Cluster] = []
        var index = 0
        func flushParagraph() {
            let breaks = maxWidth.map { LineBreaker.breaks(paragraph, maxWidth: $0, spacing: spacing) } ?? []
            var start = 0
            for end in breaks + [paragraph.count] {
                var line = paragraph[start..<end]
                // Spaces at a wrap point are dropped, like every label renderer does.
                while let last = line.last, last.isSpace {
                    line = line.dropLast()
                }
                builtLines.append(line)
                start = end
            }
            paragraph.removeAll(keepingCapacity: true)
        }
        for character in normalised {
            defer { index += 1 }
            if character.isNewline {
                flushParagraph()
                continue
            }
            paragraph.append(shaper.cluster(character, index: index))
        }
        flushParagraph()

        // Pass 1: pen positions from x = 0 with kerning, which also gives each line's true
        // width. Pass 2 (below) shifts lines for alignment once the block width is known.
        var glyphs: [PositionedGlyph] = []
        var lines: [Line] = []
        let bandOffset = (lineHeight - (ascent + descent)) / 2 + ascent
        for (number, clusters) in builtLines.enumerated() {
            let baseline = Double(number) * lineHeight + bandOffset
            var x = 0.0
            var lineWidth = 0.0
            let first = glyphs.count
            var previous: (face: FreeTypeFace, glyph: UInt32)?
            for cluster in clusters {
                for g in cluster.glyphs {
                    if let p = previous, p.face === g.face {
                        x += Double(g.face.kerning(p.glyph, g.glyph)) * size / Double(g.face.unitsPerEm)
                    }
                    glyphs.append(PositionedGlyph(face: g.face, glyph: g.glyph, origin: PixelPoint(x: x, y: baseline),
                                                  advance: g.advance, line: number, characterIndex: cluster.index))
                    x += g.advance
                    previous = (g.face, g.glyph)
                }
                // Trailing spaces were trimmed, so the last cluster ends the line's width.
                lineWidth = x
                x += spacing
            }
            lines.append(Line(glyphRange: first..<glyphs.count, width: max(0, lineWidth), baseline: baseline))
        }
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
        height = Double(builtLines.count) * lineHeight
        missingCharacters = shaper.missing
    }

    /// The layout box in its own coordinates: (0, 0, width, height).
    var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width, maxY: height) }
}

/// A character resolved to glyphs: the unit of wrapping and letter spacing.
struct Cluster {
    struct Glyph {
        var face: FreeTypeFace
        var glyph: UInt32
        var advance: Double
    }

    var glyphs: [Glyph]
    /// Sum of advances plus kerning inside the cluster.
    var width: Double
    var isSpace: Bool
    /// A line may break after this cluster (it is a space, or an ideograph).
    var breakAfter: Bool
    var index: Int
}

/// Resolves characters to faces and glyphs, remembering those nothing could map.
struct Shaper {
    let fonts: FontLibrary
    let face: FreeTypeFace
    let size: Double
    /// The faces after `face`, in fallback order; looked up (which loads the big CJK face)
    /// only when `face` lacks a character.
    private var rest: [FreeTypeFace]?
    var missing: [Character] = []

    init(fonts: FontLibrary, face: FreeTypeFace, size: Double) {
        self.fonts = fonts
        self.face = face
        self.size = size
    }

    /// `face`, then the rest of the fallback chain: the first face that maps every scalar.
    private mutating func resolveInChain(_ scalars: [Unicode.Scalar]) -> [Cluster.Glyph]? {
        if let whole = resolveWhole(scalars, faces: [face]) { return whole }
        if rest == nil { rest = Array(fonts.fallbackChain(for: face).dropFirst()) }
        return resolveWhole(scalars, faces: rest ?? [])
    }

    mutating func cluster(_ character: Character, index: Int) -> Cluster {
        // Tabs become spaces; controls and default-ignorables (variation selectors, joiners,
        // BOM) draw nothing.
        var scalars: [Unicode.Scalar] = []
        for s in character.unicodeScalars {
            if s == "\t" { scalars.append(" "); continue }
            if s.properties.generalCategory == .control || s.properties.isDefaultIgnorableCodePoint { continue }
            scalars.append(s)
        }
        let isSpace = character.isWhitespace
        // No-break spaces (U+00A0, U+2007, U+202F) hold their neighbours on one line.
        let isBreakingSpace = isSpace && !character.unicodeScalars.contains { ["\u{A0}", "\u{2007}", "\u{202F}"].contains($0) }
        let breakAfter = isBreakingSpace || scalars.contains(where: Shaper.allowsBreakAfter)
        var glyphs: [Cluster.Glyph] = []
        // Prefer one face for the whole character so base and marks match in style.
        if let whole = resolveInChain(scalars) ?? resolveWhole(scalars, faces: fonts.systemFallbackFaces()) {
            glyphs = whole
        } else {
            for s in scalars {
                if let (f, g) = fonts.glyph(for: s, preferring: face) {
                    glyphs.append(glyph(f, g))
                } else {
                    glyphs.append(glyph(face, 0))
                    if missing.last != character { missing.append(character) }
                }
            }
        }
        var width = 0.0
        for (i, g) in glyphs.enumerated() {
            if i > 0, glyphs[i - 1].face === g.face {
                width += Double(g.face.kerning(glyphs[i - 1].glyph, g.glyph)) * size / Double(g.face.unitsPerEm)
            }
            width += g.advance
        }
        return Cluster(glyphs: glyphs, width: width, isSpace: isSpace, breakAfter: breakAfter, index: index)
    }

    private func resolveWhole(_ scalars: [Unicode.Scalar], faces: [FreeTypeFace]) -> [Cluster.Glyph]? {
        guard !scalars.isEmpty else { return [] }
        outer: for f in faces {
            var out: [Cluster.Glyph] = []
            for s in scalars {
                guard let g = f.glyphIndex(for: s) else { continue outer }
                out.append(glyph(f, g))
            }
            return out
        }
        return nil
    }

    private func glyph(_ f: FreeTypeFace, _ g: UInt32) -> Cluster.Glyph {
        Cluster.Glyph(face: f, glyph: g, advance: Double(f.advance(of: g)) * size / Double(f.unitsPerEm))
    }

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
/// Station". Inter-cluster kerning is ignored while choosing breaks (it is a fraction of a
/// pixel) and applied when the lines are positioned.
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
