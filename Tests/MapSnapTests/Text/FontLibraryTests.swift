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
        #expect(fonts.face(for: "東", preferring: fonts.regular) === fonts.fallback)
        #expect(fonts.face(for: "A", preferring: fonts.bold) === fonts.bold)
        #expect(fonts.face(for: "\u{10FFFD}", preferring: fonts.regular) == nil)
    }

    /// Every script the issue lists has its Noto face, bold where one is bundled; each file
    /// the table names exists and has the block's letters.
    @Test(arguments: [("ب", "Noto Sans Arabic"), ("پ", "Noto Sans Arabic"), ("ڑ", "Noto Sans Arabic"),
                      ("א", "Noto Sans Hebrew"), ("क", "Noto Sans Devanagari"), ("ক", "Noto Sans Bengali"),
                      ("ਕ", "Noto Sans Gurmukhi"), ("ક", "Noto Sans Gujarati"), ("କ", "Noto Sans Oriya"),
                      ("க", "Noto Sans Tamil"), ("క", "Noto Sans Telugu"), ("ಕ", "Noto Sans Kannada"),
                      ("ക", "Noto Sans Malayalam"), ("ක", "Noto Sans Sinhala"), ("ก", "Noto Sans Thai"),
                      ("ກ", "Noto Sans Lao"), ("ཀ", "Noto Serif Tibetan"), ("က", "Noto Sans Myanmar"),
                      ("ა", "Noto Sans Georgian"), ("Ա", "Noto Sans Armenian"), ("ሀ", "Noto Sans Ethiopic"),
                      ("ក", "Noto Sans Khmer")] as [(Unicode.Scalar, String)])
    func scriptsHaveTheirNotoFace(scalar: Unicode.Scalar, family: String) throws {
        let fonts = try #require(TextFixtures.fonts)
        let regular = try #require(fonts.face(for: scalar, preferring: fonts.regular))
        // Noto Sans itself may carry a script (Georgian, Armenian): then it is used as is.
        if regular !== fonts.regular { #expect(regular.familyName == family) }
        let bold = try #require(fonts.face(for: scalar, preferring: fonts.bold))
        if bold !== fonts.bold && family != "Noto Serif Tibetan" { #expect(bold.styleName == "Bold") }
        for entry in FontLibrary.scriptFonts {
            for file in [entry.regular] + (entry.bold.map { [$0] } ?? []) {
                #expect(FileManager.default.fileExists(atPath: TextFixtures.repositoryRoot + "/Fonts/" + file), "\(file)")
            }
        }
    }
}
