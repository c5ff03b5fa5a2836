import Foundation

/// The fonts text is drawn with: the bundled Noto Sans Regular and Bold, the Noto faces of
/// the scripts Noto Sans lacks (`scriptFonts`: Arabic, Hebrew, the Indic and South-East Asian
/// scripts, Ethiopic, Georgian, Armenian; each loaded on first use), the bundled Droid
/// Sans Fallback for Chinese, Japanese and other scripts Noto Sans lacks (4 MB, loaded on
/// first use), the bundled Nanum Gothic for Korean (Hangul, which Droid Sans Fallback lacks)
/// and Noto Sans Symbols 2 for symbols (✓ ★ ☎ ⚠ ✈), both loaded on first use, and — only
/// when a caller asks for them — system fonts. The
/// renderer never asks: a render draws with the files in `Fonts/` only, so it looks the
/// same on every machine.
///
/// Faces are immutable after loading and serialise their own FreeType calls, so a library is
/// safe to share between threads; the only mutable state (faces loaded on first use) sits
/// behind a lock.
final class FontLibrary: Sendable {
    /// The bundled font files, by the names `face(named:)` accepts.
    static let bundledFonts: [(name: String, file: String)] = [
        ("Noto Sans Regular", "NotoSans-Regular.ttf"),
        ("Noto Sans Bold", "NotoSans-Bold.ttf"),
        ("Droid Sans Fallback", "DroidSansFallbackFull.ttf"),
    ]

    /// Bundled faces loaded only when a glyph needs them (large files, rarely used).
    static let lazyBundledFonts = ["NanumGothic.ttf", "NotoSansSymbols2-Regular.ttf"]

    /// Noto faces for the scripts Noto Sans lacks, by the Unicode blocks they serve, each loaded
    /// on first use of a character in its blocks (Regular and Bold; bold text in a script
    /// without a Bold file is drawn in Regular). Arabic is Noto Sans Arabic, which has the
    /// Persian and Urdu letters too; Tibetan is Noto Serif Tibetan, Noto's only Tibetan face.
    static let scriptFonts: [(regular: String, bold: String?, blocks: [ClosedRange<UInt32>])] = [
        ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf",
         [0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF]),
        ("NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf", [0x0590...0x05FF, 0xFB1D...0xFB4F]),
        ("NotoSansArmenian-Regular.ttf", "NotoSansArmenian-Bold.ttf", [0x0530...0x058F, 0xFB13...0xFB17]),
        ("NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf", [0x0900...0x097F, 0x1CD0...0x1CFF, 0xA8E0...0xA8FF]),
        ("NotoSansBengali-Regular.ttf", "NotoSansBengali-Bold.ttf", [0x0980...0x09FF]),
        ("NotoSansGurmukhi-Regular.ttf", "NotoSansGurmukhi-Bold.ttf", [0x0A00...0x0A7F]),
        ("NotoSansGujarati-Regular.ttf", "NotoSansGujarati-Bold.ttf", [0x0A80...0x0AFF]),
        ("NotoSansOriya-Regular.ttf", "NotoSansOriya-Bold.ttf", [0x0B00...0x0B7F]),
        ("NotoSansTamil-Regular.ttf", "NotoSansTamil-Bold.ttf", [0x0B80...0x0BFF]),
        ("NotoSansTelugu-Regular.ttf", "NotoSansTelugu-Bold.ttf", [0x0C00...0x0C7F]),
        ("NotoSansKannada-Regular.ttf", "NotoSansKannada-Bold.ttf", [0x0C80...0x0CFF]),
        ("NotoSansMalayalam-Regular.ttf", "NotoSansMalayalam-Bold.ttf", [0x0D00...0x0D7F]),
        ("NotoSansSinhala-Regular.ttf", "NotoSansSinhala-Bold.ttf", [0x0D80...0x0DFF]),
        ("NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf", [0x0E00...0x0E7F]),
        ("NotoSansLao-Regular.ttf", "NotoSansLao-Bold.ttf", [0x0E80...0x0EFF]),
        ("NotoSerifTibetan-Regular.ttf", nil, [0x0F00...0x0FFF]),
        ("NotoSansMyanmar-Regular.ttf", "NotoSansMyanmar-Bold.ttf", [0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F]),
        ("NotoSansGeorgian-Regular.ttf", "NotoSansGeorgian-Bold.ttf", [0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F]),
        ("NotoSansEthiopic-Regular.ttf", "NotoSansEthiopic-Bold.ttf", [0x1200...0x139F, 0x2D80...0x2DDF, 0xAB00...0xAB2F]),
        ("NotoSansKhmer-Regular.ttf", "NotoSansKhmer-Bold.ttf", [0x1780...0x17FF, 0x19E0...0x19FF]),
    ]

    /// Words in a MapLibre `text-font` name that select the bold face.
    static let boldKeywords = ["bold", "semibold", "demibold", "medium", "black", "heavy"]

    /// The face for regular text.
    let regular: FreeTypeFace
    /// The face for bold text.
    let bold: FreeTypeFace
    /// The directory the faces came from (`nil` when built from faces directly).
    let fontsDirectory: String?

    /// Faces loaded on first use, behind a lock.
    private struct LazyFaces {
        /// The CJK-capable face, once loaded.
        var loadedFallback: FreeTypeFace?
        /// Where to load it from on first use (nil: no file, or already loaded).
        var fallbackPath: String?
        /// On-demand faces not loaded yet.
        var systemFallbackPaths: [String]
        var systemFallbacks: [FreeTypeFace] = []
    }

    private let onDemand: Locked<LazyFaces>
    /// Script faces loaded so far, by file name (nil: the file failed to load).
    private let scriptFaces = Locked<[String: FreeTypeFace?]>([:])

    /// Builds a library from already loaded faces; `systemFallbackPaths` are font files tried
    /// (loaded on first use) for characters none of the faces has.
    init(regular: FreeTypeFace, bold: FreeTypeFace, fallback: FreeTypeFace,
                systemFallbackPaths: [String] = []) {
        self.regular = regular
        self.bold = bold
        self.fontsDirectory = nil
        onDemand = Locked(LazyFaces(loadedFallback: fallback, systemFallbackPaths: systemFallbackPaths))
    }

    /// Loads the bundled fonts from `fontsDirectory` (the `Fonts/` folder itself): the
    /// regular and bold faces now, the fallback faces when a character needs them.
    /// `systemFallbackPaths` are font files tried after every bundled face (none by default).
    init(fontsDirectory: String, systemFallbackPaths: [String] = []) throws(FontError) {
        let dir = URL(fileURLWithPath: fontsDirectory)
        func load(_ file: String) throws(FontError) -> FreeTypeFace {
            try FreeTypeFace(path: dir.appendingPathComponent(file).path)
        }
        regular = try load(FontLibrary.bundledFonts[0].file)
        bold = try load(FontLibrary.bundledFonts[1].file)
        self.fontsDirectory = fontsDirectory
        // The lazily loaded bundled faces go first in the on-demand list.
        onDemand = Locked(LazyFaces(
            fallbackPath: dir.appendingPathComponent(FontLibrary.bundledFonts[2].file).path,
            systemFallbackPaths: FontLibrary.lazyBundledFonts.map { dir.appendingPathComponent($0).path } + systemFallbackPaths))
    }

    /// Whether the CJK fallback face has been loaded (for tests: ordinary text never needs it).
    var hasLoadedFallback: Bool {
        onDemand.withLock { $0.loadedFallback != nil }
    }

    /// The CJK-capable face tried when the requested face lacks a glyph (Droid Sans
    /// Fallback; `regular` if its file cannot be loaded).
    var fallback: FreeTypeFace {
        onDemand.withLock { l in
            if let face = l.loadedFallback { return face }
            let face = l.fallbackPath.flatMap { try? FreeTypeFace(path: $0) } ?? regular
            l.loadedFallback = face
            l.fallbackPath = nil
            return face
        }
    }

    // MARK: - Finding the bundled fonts

    /// Finds the `Fonts/` directory by `ResourceLocator`'s one search (installed `share/`,
    /// `$MAPSNAP_RESOURCES`, then the checkout for a binary built in it), probing for the
    /// first bundled font. Returns the directory, or the error listing every place searched.
    static func locateFontsDirectory(
        environment: EnvironmentVariables = .process,
        executablePaths: [String] = ResourceLocator.executablePaths(),
        sourceFile: String = #filePath
    ) -> Result<String, FontError> {
        ResourceLocator.directory(named: "Fonts", probe: FontLibrary.bundledFonts[0].file,
                                  environment: environment, executablePaths: executablePaths, sourceFile: sourceFile)
            .mapError { FontError.fontsDirectoryNotFound(searched: $0.searched) }
    }

    /// The library `standard()` loaded, once it has.
    private static let standardLibrary = Locked<FontLibrary?>(nil)

    /// The process-wide library of bundled fonts, loaded once. Throws when the bundled
    /// fonts cannot be found or loaded: system fonts are never used instead, since text would
    /// then look different on every machine.
    static func standard() throws(FontError) -> FontLibrary {
        try standardLibrary.withLock { cached -> Result<FontLibrary, FontError> in
            if let library = cached { return .success(library) }
            let loaded = Result { () throws(FontError) -> FontLibrary in
                try FontLibrary(fontsDirectory: try locateFontsDirectory().get())
            }
            if case .success(let library) = loaded { cached = library }
            return loaded
        }.get()
    }

    // MARK: - Choosing faces

    /// A face by name: "Noto Sans Regular", "Noto Sans Bold" or "Droid Sans Fallback"
    /// (case-insensitive).
    func face(named name: String) throws(FontError) -> FreeTypeFace {
        switch name.lowercased() {
        case "noto sans regular", "noto sans": return regular
        case "noto sans bold": return bold
        case "droid sans fallback": return fallback
        default: throw FontError.unknownFontName(name, known: FontLibrary.bundledFonts.map(\.name))
        }
    }

    /// Maps a MapLibre `text-font` stack (e.g. `["Open Sans Bold", "Arial Unicode MS Bold"]`)
    /// to a bundled face: an exact bundled name wins, otherwise the first name's weight
    /// keyword (Bold, Semibold, Medium, Black, Heavy) picks bold and anything else regular.
    /// Italic is not bundled and maps to upright.
    func face(forStyleFontStack stack: [String]) -> FreeTypeFace {
        for name in stack {
            if let exact = try? face(named: name) { return exact }
        }
        guard let first = stack.first?.lowercased() else { return regular }
        let words = first.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
        for word in words {
            // "ExtraBold", "SemiBold" and friends end in a keyword.
            if FontLibrary.boldKeywords.contains(where: { word.hasSuffix($0) }) { return bold }
        }
        return regular
    }

    /// The faces to try, in order, for text requested in `preferred`: the preferred face,
    /// the bundled fallback, the other bundled faces, then system fallbacks (loaded on first
    /// use; a system font that fails to load is skipped).
    func fallbackChain(for preferred: FreeTypeFace) -> [FreeTypeFace] {
        var chain = [preferred]
        for face in [fallback, regular, bold] where !chain.contains(where: { $0 === face }) {
            chain.append(face)
        }
        return chain
    }

    /// On-demand fallback faces (the lazily loaded bundled ones, then system fonts), loading
    /// any not yet loaded. Called only when no eagerly loaded face has a glyph, so ordinary
    /// text never pays for them.
    func systemFallbackFaces() -> [FreeTypeFace] {
        onDemand.withLock { l in
            if !l.systemFallbackPaths.isEmpty {
                for path in l.systemFallbackPaths {
                    if let face = try? FreeTypeFace(path: path) { l.systemFallbacks.append(face) }
                }
                l.systemFallbackPaths = []
            }
            return l.systemFallbacks
        }
    }

    /// The Noto faces for the script of `scalar`'s block (bold first when `bold`), loading
    /// them on first use; empty outside those blocks or without a fonts directory.
    func scriptFaces(for scalar: Unicode.Scalar, bold: Bool) -> [FreeTypeFace] {
        guard let fontsDirectory,
              let entry = FontLibrary.scriptFonts.first(where: { $0.blocks.contains { $0.contains(scalar.value) } })
        else { return [] }
        let files = (bold ? [entry.bold].compactMap { $0 } : []) + [entry.regular]
        return scriptFaces.withLock { loaded in
            files.compactMap { file -> FreeTypeFace? in
                if let known = loaded[file] { return known }
                let face = try? FreeTypeFace(path: URL(fileURLWithPath: fontsDirectory).appendingPathComponent(file).path)
                loaded[file] = face
                return face
            }
        }
    }

    /// The face that draws one scalar when the text asks for `preferred`: the preferred face,
    /// then the Noto face of the scalar's script, then the CJK fallback, the other bundled
    /// faces and the on-demand ones (loaded only when everything before lacks it); `nil`
    /// when no face maps it.
    func face(for scalar: Unicode.Scalar, preferring preferred: FreeTypeFace) -> FreeTypeFace? {
        if preferred.glyphIndex(for: scalar) != nil { return preferred }
        for face in scriptFaces(for: scalar, bold: preferred === bold) where face.glyphIndex(for: scalar) != nil {
            return face
        }
        for face in fallbackChain(for: preferred).dropFirst() where face.glyphIndex(for: scalar) != nil {
            return face
        }
        for face in systemFallbackFaces() where face.glyphIndex(for: scalar) != nil {
            return face
        }
        return nil
    }
}
