import Foundation
import Testing
@testable import MapSnap

/// Two renderers with different settings in one process share no hidden state: each draws
/// with its own fonts and keeps its own glyph cache, whatever the other did before.
@Suite struct RendererIsolationTests {
    /// A background and a caption: text is the only thing the fonts change.
    static func options(_ dir: String) throws -> MapSnapshotOptions {
        let path = dir + "/style.json"
        try Data(##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}}]}"##.utf8)
            .write(to: URL(fileURLWithPath: path))
        var options = MapSnapshotOptions(width: 240, height: 80, center: LatLng(60.17, 24.94), zoom: 12)
        options.style = path
        options.attribution = "none"
        options.showsScaleBar = false
        options.caption = "Senaatintori 1812"
        return options
    }

    /// A fonts folder like the bundled one whose regular face is the bundled bold face.
    static func boldAsRegularFonts(_ dir: String) throws -> String {
        let bundled = try FontLibrary.locateFontsDirectory().get()
        let swapped = dir + "/fonts"
        let files = FileManager.default
        try files.createDirectory(atPath: swapped, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: bundled) {
            let target = name == FontLibrary.bundledFonts[0].file ? FontLibrary.bundledFonts[1].file : name
            try files.createSymbolicLink(atPath: swapped + "/" + name, withDestinationPath: bundled + "/" + target)
        }
        return swapped
    }

    @Test func eachRendererDrawsWithItsOwnFonts() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = try Self.options(dir)
        let bold = try Self.boldAsRegularFonts(dir)
        // The renderer with other fonts renders first, so the standard one would see its fonts
        // if they were process-wide state, and then the other way round.
        let other = MapRenderer(configuration: .init(fontsDirectory: bold))
        let standard = MapRenderer()
        let otherFirst = try other.render(options).pngData()
        let standardBytes = try standard.render(options).pngData()
        let otherAgain = try other.render(options).pngData()
        let standardFresh = try MapRenderer().render(options).pngData()
        let otherFresh = try MapRenderer(configuration: .init(fontsDirectory: bold)).render(options).pngData()
        let differ = otherFirst != standardBytes
        #expect(differ, "a caption in bold must not look like one in regular")
        let otherStable = otherFirst == otherAgain && otherFirst == otherFresh
        #expect(otherStable, "the renderer with its own fonts changed its output after the standard one rendered")
        let standardStable = standardBytes == standardFresh
        #expect(standardStable, "the standard renderer drew with the other renderer's fonts")
        #expect(other.text.fonts?.fontsDirectory == bold)
        #expect(standard.text.fonts !== other.text.fonts)
    }

    @Test func aRendererWithoutFontsLeavesTheOthersFontsAlone() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = try Self.options(dir)
        let broken = MapRenderer(configuration: .init(fontsDirectory: dir + "/no-fonts-here"))
        let standard = MapRenderer()
        let brokenWarnings = try broken.render(options).warnings
        let standardWarnings = try standard.render(options).warnings
        #expect(brokenWarnings.contains { $0.contains("no text drawn") && $0.contains("no-fonts-here") }, "\(brokenWarnings)")
        #expect(!standardWarnings.contains { $0.contains("no text drawn") }, "\(standardWarnings)")
    }

    @Test func eachRendererKeepsItsOwnGlyphCache() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = try Self.options(dir)
        let small = MapRenderer(configuration: .init(glyphCacheEntries: 3))
        let large = MapRenderer()
        let largeBytes = try large.render(options).pngData()
        let largeCache = large.text.renderer.cache
        let kept = largeCache.count
        #expect(kept > 3, "the caption has more than three distinct glyphs")
        let smallBytes = try small.render(options).pngData()
        let smallCache = small.text.renderer.cache
        #expect(smallCache !== largeCache)
        #expect(smallCache.maxEntries == 3 && smallCache.count <= 3)
        #expect(largeCache.count == kept, "the small renderer's renders evicted the large one's glyphs")
        // What is cached never changes a byte.
        let same = smallBytes == largeBytes
        #expect(same)
    }
}
