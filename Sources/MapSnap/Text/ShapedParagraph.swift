/// One run of a paragraph: consecutive scalars of one bidi level, one script and one face,
/// shaped by HarfBuzz.
struct ShapedRun: Sendable {
    /// The face the glyph indices belong to.
    let face: FreeTypeFace
    /// The run's scalars, as indices into the paragraph's scalars.
    let range: Range<Int>
    /// The bidi embedding level (odd: right to left).
    let level: UInt8
    /// ISO 15924 tag of the run's script (`Zyyy` when it has only common characters).
    let script: UInt32
    /// The glyphs in visual order (left to right), in design units of `face`; `cluster`
    /// indexes the paragraph's scalars.
    let glyphs: [ShapedGlyph]

    var isRightToLeft: Bool { level & 1 == 1 }

    /// A length in the run face's design units, in pixels at `size` pixels per em.
    func pixels(_ units: Int32, size: Double) -> Double {
        Double(units) * size / Double(face.unitsPerEm)
    }
}

/// A paragraph split into runs and shaped: the step between Unicode text and positioned
/// glyphs, shared by every text mapsnap draws.
///
/// Itemisation, in logical order:
/// 1. **Direction**: FriBiDi's embedding level per scalar (`BidiParagraph`), base direction
///    from the first strong character.
/// 2. **Script**: HarfBuzz's script per scalar; common characters (spaces, digits,
///    punctuation) and inherited ones (combining marks, joiners) take the script of the text
///    before them, or after them at the start.
/// 3. **Face**: a character of the same (resolved) script as the one before it stays in that
///    character's face when the face has it (so a space or a digit inside Arabic stays in the
///    Arabic face, and marks stay with their base); otherwise, and at every change of script,
///    `FontLibrary.face(for:preferring:)` picks the first face of the fallback chain that has
///    it — Greek after Korean comes from the requested face, not from the Korean font that
///    happens to have some Greek letters. Default-ignorable characters (joiners, variation
///    selectors) always stay: HarfBuzz hides them and ZWJ/ZWNJ steer joining.
///
/// A run ends wherever level, script or face changes; each run is shaped alone (no context
/// across runs: a change of script or direction breaks joining anyway).
struct ShapedParagraph: Sendable {
    /// The paragraph's scalars (tabs already spaces, controls removed by the caller).
    let scalars: [UInt32]
    /// The runs, in logical order.
    let runs: [ShapedRun]
    /// Whether the paragraph's base direction is right to left.
    let isRightToLeft: Bool
    /// Indices of scalars no face maps: drawn as the missing-glyph box of the requested face.
    let missing: [Int]

    /// ISO 15924 tags HarfBuzz gives characters shared by scripts.
    static let commonScript: UInt32 = 0x5A79_7979   // 'Zyyy'
    static let inheritedScript: UInt32 = 0x5A69_6E68  // 'Zinh'
    static let unknownScript: UInt32 = 0x5A7A_7A7A    // 'Zzzz'

    /// Itemises and shapes `scalars` for text requested in `face`.
    init(_ scalars: [UInt32], face preferred: FreeTypeFace, fonts: FontLibrary, cache: ShapingCache = ShapingCache()) {
        self.scalars = scalars
        let bidi = BidiParagraph(scalars)
        isRightToLeft = bidi.isRightToLeft
        let scripts = ShapedParagraph.resolveScripts(scalars)

        var faces: [FreeTypeFace] = []
        faces.reserveCapacity(scalars.count)
        var missing: [Int] = []
        for (i, value) in scalars.enumerated() {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if let current = faces.last, scalar.properties.isDefaultIgnorableCodePoint
                || (scripts[i] == scripts[i - 1] && current.glyphIndex(for: scalar) != nil) {
                faces.append(current)
                continue
            }
            if scalar.properties.isDefaultIgnorableCodePoint {
                faces.append(preferred)
            } else if let found = fonts.face(for: scalar, preferring: preferred) {
                faces.append(found)
            } else {
                faces.append(preferred)
                missing.append(i)
            }
        }
        self.missing = missing

        var runs: [ShapedRun] = []
        var start = 0
        for i in 1..<(scalars.count + 1) where i == scalars.count || bidi.levels[i] != bidi.levels[start]
            || scripts[i] != scripts[start] || faces[i] !== faces[start] {
            guard i > start else { continue }
            let range = start..<i
            let rtl = bidi.levels[start] & 1 == 1
            let glyphs = cache.glyphs(Array(scalars[range]), face: faces[start], rightToLeft: rtl, script: scripts[start])
                .map { g -> ShapedGlyph in
                    var g = g
                    g.cluster += start
                    return g
                }
            runs.append(ShapedRun(face: faces[start], range: range, level: bidi.levels[start], script: scripts[start],
                                  glyphs: glyphs))
            start = i
        }
        self.runs = runs
    }

    /// The script of every scalar, common and inherited ones resolved from their neighbours.
    static func resolveScripts(_ scalars: [UInt32]) -> [UInt32] {
        var scripts = scalars.map(HarfBuzzFont.script(of:))
        var last: UInt32?
        for i in scripts.indices {
            let s = scripts[i]
            if s == commonScript || s == inheritedScript || s == unknownScript {
                if let last { scripts[i] = last }
            } else {
                last = s
            }
        }
        // Leading shared characters take the first real script after them.
        if let first = scripts.firstIndex(where: { $0 != commonScript && $0 != inheritedScript && $0 != unknownScript }),
           first > 0 {
            for i in 0..<first { scripts[i] = scripts[first] }
        }
        return scripts
    }

    /// Scripts written without spaces between letters' joined forms, where letter spacing
    /// would tear the joins apart (MapLibre also leaves them unspaced): Arabic, Syriac,
    /// Thaana, N'Ko, Mongolian, Mandaic.
    static let joinedScripts: Set<UInt32> = [0x4172_6162, 0x5379_7263, 0x5468_6161, 0x4E6B_6F6F, 0x4D6F_6E67, 0x4D61_6E64]
}
