import Foundation
import Testing
@testable import MapSnap

@Suite struct FontLibraryTests {
    @Test func locatesFontsFromTheTestWorkingDirectory() throws {
        let result = FontLibrary.locateFontsDirectory()
        let dir = try result.get()
        #expect(FileManager.default.fileExists(atPath: dir + "/NotoSans-Regular.ttf"))
    }

    @Test func environmentVariableWinsOverEverythingElse() throws {
        let dir = try FontLibrary.locateFontsDirectory(
            environment: ["MAPSNAP_RESOURCES": TextFixtures.repositoryRoot],
            executablePaths: [], sourceFile: "/nonexistent/a/b/c/File.swift").get()
        #expect(dir == TextFixtures.repositoryRoot + "/Fonts")
    }

    @Test func walksUpFromTheExecutable() throws {
        let exe = TextFixtures.repositoryRoot + "/.build/debug/mapsnap"
        let dir = try FontLibrary.locateFontsDirectory(environment: [:], executablePaths: [exe],
                                                       sourceFile: "/nonexistent/a/b/c/File.swift").get()
        #expect(dir == TextFixtures.repositoryRoot + "/Fonts")
    }

    @Test func failureListsEveryPlaceSearched() {
        let result = FontLibrary.locateFontsDirectory(environment: ["MAPSNAP_RESOURCES": "/nonexistent-resources"],
                                                      executablePaths: ["/nonexistent-bin/tool"],
                                                      sourceFile: "/nonexistent/a/b/c/File.swift")
        guard case .failure(.fontsDirectoryNotFound(let searched)) = result else {
            Issue.record("expected fontsDirectoryNotFound, got \(result)")
            return
        }
        #expect(searched.first == "/nonexistent-resources/Fonts")
        #expect(searched.contains("/nonexistent-bin/Fonts"))
        #expect(searched.contains("/Fonts"))
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
