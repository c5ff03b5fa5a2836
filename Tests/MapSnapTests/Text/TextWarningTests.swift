import Foundation
import Testing
@testable import MapSnap

/// Text that cannot be drawn is reported on the snapshot, never dropped silently, and only
/// the bundled fonts are used.
@Suite struct TextWarningTests {
    static func options(title: String) -> MapSnapshotOptions {
        MapSnapshotOptions(width: 240, height: 160, center: LatLng(60.17, 24.94), zoom: 14,
                           overlays: [.marker(MarkerOverlay(coordinate: LatLng(60.17, 24.94), title: title))],
                           style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
    }

    @Test func charactersNoBundledFontHasAreReported() throws {
        // Egyptian hieroglyphs and Linear B: in no bundled font (nor, on purpose, looked up
        // in system fonts).
        let snapshot = try MapRenderer().render(Self.options(title: "Ankh 𓋹 and 𐀀"))
        let warning = snapshot.warnings.first { $0.contains("no bundled font has") }
        #expect(warning?.contains("'𓋹' (U+132F9)") == true, "\(snapshot.warnings)")
        #expect(warning?.contains("'𐀀' (U+10000)") == true, "\(snapshot.warnings)")
        #expect(snapshot.warnings.filter { $0.contains("no bundled font has") }.count == 1)
    }

    @Test func drawableTextGivesNoWarning() throws {
        let snapshot = try MapRenderer().render(Self.options(title: "Kauppatori – ヘルシンキ 헬싱키"))
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
    }

    @Test func aRenderWithoutFontsSaysSo() throws {
        let noFonts = TextEngine(fonts: nil, fontError: .fontsDirectoryNotFound(searched: ["/nowhere/Fonts"]))
        let snapshot = try MapRenderer(text: noFonts).render(Self.options(title: "Station"))
        #expect(snapshot.warnings.contains { $0.hasPrefix("no text drawn: the bundled fonts could not be loaded") && $0.contains("/nowhere/Fonts") },
                "\(snapshot.warnings)")
    }

    @Test func warningsBelongToTheirRender() throws {
        let renderer = MapRenderer()
        _ = try renderer.render(Self.options(title: "𓋹"))
        let clean = try renderer.render(Self.options(title: "Station"))
        #expect(clean.warnings.isEmpty, "a missing glyph of an earlier render leaked: \(clean.warnings)")
    }

    /// Layouts are cached across renders; a render whose layout comes from the cache still
    /// reports its missing characters.
    @Test func aCachedLayoutStillReportsItsMissingCharacters() throws {
        let renderer = MapRenderer()
        for _ in 0..<2 {
            let snapshot = try renderer.render(Self.options(title: "Ankh 𓋹"))
            #expect(snapshot.warnings.contains { $0.contains("'𓋹' (U+132F9)") }, "\(snapshot.warnings)")
        }
    }

    @Test func theCJKFaceLoadsOnlyWhenNeeded() throws {
        let dir = try FontLibrary.locateFontsDirectory().get()
        let library = try FontLibrary(fontsDirectory: dir)
        _ = TextLayout("Helsinki – Kauppatori", face: library.regular, fonts: library, options: TextLayoutOptions(sizePixels: 14))
        #expect(!library.hasLoadedFallback)
        let cjk = TextLayout("東京", face: library.regular, fonts: library, options: TextLayoutOptions(sizePixels: 14))
        #expect(library.hasLoadedFallback && cjk.missingCharacters.isEmpty)
    }
}
