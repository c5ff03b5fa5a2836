import Foundation
import Testing
@testable import MapSnap

@Suite struct FontLibraryTests {
    @Test func locatesFontsFromTheTestWorkingDirectory() throws {
        let result = FontLibrary.locateFontsDirectory()
        let dir = try result.get()
        #expect(FileManager.default.fileExists(atPath: dir + "/NotoSans-Regular.ttf"))
    }

    @Test func environmentVariableFindsTheFontsOfAnUninstalledBinary() throws {
        let dir = try FontLibrary.locateFontsDirectory(
            environment: ["MAPSNAP_RESOURCES": TextFixtures.repositoryRoot],
            executablePaths: ["/nonexistent-bin/mapsnap"], sourceFile: "/nonexistent/a/b/c/File.swift").get()
        #expect(dir == TextFixtures.repositoryRoot + "/Fonts")
    }

    @Test func aBinaryBuiltInTheCheckoutReadsTheCheckoutsFonts() throws {
        let exe = TextFixtures.repositoryRoot + "/.build/debug/mapsnap"
        let dir = try FontLibrary.locateFontsDirectory(environment: [:], executablePaths: [exe]).get()
        #expect(dir == TextFixtures.repositoryRoot + "/Fonts")
    }

    @Test func failureListsEveryPlaceSearchedAndHowToInstall() {
        let result = FontLibrary.locateFontsDirectory(environment: ["MAPSNAP_RESOURCES": "/nonexistent-resources"],
                                                      executablePaths: ["/nonexistent-bin/tool"],
                                                      sourceFile: "/nonexistent/a/b/c/File.swift")
        guard case .failure(let error) = result, case .fontsDirectoryNotFound(let searched) = error else {
            Issue.record("expected fontsDirectoryNotFound, got \(result)")
            return
        }
        #expect(searched == ["/share/mapsnap/Fonts", "/nonexistent-resources/Fonts"])
        #expect(error.description.contains("scripts/install.sh"))
        #expect(error.description.contains("MAPSNAP_RESOURCES"))
    }

    @Test(arguments: [
        ("Noto Sans Regular", "Regular"),
        ("noto sans bold", "Bold"),
        ("Droid Sans Fallback", "Regular"),
    ])
    func facesByName(name: String, style: String) throws {
        let fonts = try #require(TextFixtures.fonts)
        let face = try fonts.face(named: name)
        #expect(face.styleName == style)
    }

    @Test func unknownNameThrowsWithTheKnownNames() throws {
        let fonts = try #require(TextFixtures.fonts)
        #expect(throws: FontError.unknownFontName("Comic Sans", known: FontLibrary.bundledFonts.map(\.name))) {
            try fonts.face(named: "Comic Sans")
        }
    }

    @Test(arguments: [
        (["Open Sans Bold", "Arial Unicode MS Bold"], true),
        (["Open Sans Semibold"], true),
        (["Metropolis Medium"], true),
        (["Roboto Black"], true),
        (["Klokantech Noto Sans ExtraBold"], true),
        (["Noto Sans Italic"], false),
        (["Open Sans Regular", "Arial Unicode MS Regular"], false),
        (["Metropolis Light"], false),
        ([], false),
        (["Some Unknown", "Noto Sans Bold"], true),
    ])
    func styleFontStacksMapToRegularOrBold(stack: [String], isBold: Bool) throws {
        let fonts = try #require(TextFixtures.fonts)
        let face = fonts.face(forStyleFontStack: stack)
        #expect(face === (isBold ? fonts.bold : fonts.regular))
    }

    @Test func fallbackChainFindsCJKInDroidSans() throws {
        let fonts = try #require(TextFixtures.fonts)
        let resolved = try #require(fonts.glyph(for: "東", preferring: fonts.regular))
        #expect(resolved.face === fonts.fallback)
        let latin = try #require(fonts.glyph(for: "A", preferring: fonts.bold))
        #expect(latin.face === fonts.bold)
        #expect(fonts.glyph(for: "\u{10FFFD}", preferring: fonts.regular) == nil)
    }
}
