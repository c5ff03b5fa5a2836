import Foundation
import Testing
@testable import MapSnap

/// Proves that the check every golden test uses (`Golden`, exact) catches regressions too
/// small to see: each committed golden with 1 % of its pixels moved by 5 levels fails, and
/// so do the visible regressions issue #8 found passing the old loose comparison. The
/// goldens themselves, and a render through the same style-editing path with no edit, pass.
@Suite struct GoldenSensitivityTests {
    /// One golden of each kind: base map with road labels, paths, text (titles with halos).
    static let kinds: [(folder: String, name: String)] = [
        ("BaseMap", "helsinki-normal-z16"), ("Overlays", "paths@1x"), ("Overlays", "titles@1x"),
    ]

    /// Every committed golden of the render tests, as (folder, snapshot name).
    static let allGoldens: [(folder: String, name: String)] = ["BaseMap", "Overlays", "World"].flatMap { folder in
        let files = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.goldens(folder))) ?? []
        return files.filter { $0.hasSuffix(".png") }.sorted().map { (folder, String($0.dropLast(4))) }
    }

    /// Runs the golden check on `image` with failure artefacts in a throwaway directory;
    /// returns the message and whether expected/actual/diff were all written.
    func check(_ image: MapImage, named name: String, in folder: String) -> (message: String?, wroteArtefacts: Bool) {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let message = Golden.verify(image, named: name, in: folder, failureDirectory: dir)
        let base = dir + "/" + name.replacingOccurrences(of: "@", with: "_") + "/"
        let wrote = ["expected.png", "actual.png", "diff.png"].allSatisfy { FileManager.default.fileExists(atPath: base + $0) }
        return (message, wrote)
    }

    @Test func everyGoldenKindIsCovered() {
        #expect(Self.allGoldens.count >= 20, "\(Self.allGoldens)")
        for kind in Self.kinds {
            #expect(Self.allGoldens.contains { $0.folder == kind.folder && $0.name == kind.name.replacingOccurrences(of: "@", with: "_") })
        }
    }

    @Test(arguments: kinds)
    func unperturbedGoldenPasses(folder: String, name: String) throws {
        let golden = try Golden.load(name, in: folder)
        #expect(check(golden, named: name, in: folder).message == nil)
    }

    /// 5 levels on 1 % of the pixels of every golden: invisible, and caught.
    @Test(arguments: allGoldens)
    func fiveLevelsOnOnePercentOfPixelsFails(folder: String, name: String) throws {
        let golden = try Golden.load(name, in: folder)
        #expect(Canvas(golden).isOpaque, "the perturbation assumes an opaque golden")
        var seed: UInt64 = 0x5EED_601D
        for byte in (folder + "/" + name).utf8 { seed = seed &* 31 &+ UInt64(byte) }
        print("GoldenSensitivityTests \(folder)/\(name) seed: \(seed)")
        let (perturbed, changed) = GoldenRegressions.speckled(golden, fraction: 0.01, levels: 5, seed: seed)
        #expect(changed * 100 >= golden.width * golden.height)
        let (message, wrote) = check(perturbed, named: name, in: folder)
        let text = try #require(message, "seed \(seed): a 5-level change on \(changed) pixels passed")
        #expect(text.contains("does not match") && text.contains("\(changed) differing pixels"), "seed \(seed): \(text)")
        #expect(wrote, "expected/actual/diff not written: \(text)")
    }

    /// One 1-level change of one channel of one pixel fails too: the check is exact.
    @Test(arguments: kinds)
    func oneLevelOnOnePixelFails(folder: String, name: String) throws {
        let golden = Canvas(try Golden.load(name, in: folder))
        let o = (golden.height / 2 * golden.width + golden.width / 2) * 4 + 1
        golden.pixels[o] = golden.pixels[o] == 255 ? 254 : golden.pixels[o] + 1
        let message = try #require(check(golden.image, named: name, in: folder).message)
        #expect(message.contains("1 differing pixel "), "\(message)")
        // The C libraries the pixels depend on are named with their versions: a mismatch on
        // another machine is then told apart from a regression at a glance.
        for library in ["libpng", "FreeType", "zlib", "libjpeg-turbo", "libwebp"] {
            let version = MapSnapBuildInfo.libraryVersions().first { $0.name == library }?.version ?? "?"
            #expect(message.contains("\(library) \(version)"), "\(library): \(message)")
        }
    }

    /// Issue #8: all buildings 20 levels darker passed the old comparison.
    @Test func darkerBuildingsFail() throws {
        let (message, wrote) = check(try GoldenRegressions.darkerBuildings(), named: GoldenRegressions.streetMapGolden, in: "BaseMap")
        let text = try #require(message)
        #expect(text.contains("does not match") && wrote, "\(text)")
    }

    /// Issue #8: road names greyed from #444 to #777 passed the old comparison.
    @Test func greyerRoadNamesFail() throws {
        let message = check(try GoldenRegressions.greyerRoadNames(), named: GoldenRegressions.streetMapGolden, in: "BaseMap").message
        #expect(message?.contains("does not match") == true, "\(message ?? "passed")")
    }

    /// Issue #8: the path golden passed with every pixel 25 levels darker.
    @Test func pathGoldenShiftedByMinus25Fails() throws {
        let golden = try Golden.load("paths@1x", in: "Overlays")
        let message = check(GoldenRegressions.shifted(golden, by: -25), named: "paths@1x", in: "Overlays").message
        #expect(message?.contains("does not match") == true, "\(message ?? "passed")")
    }

    /// The style-editing path used above renders the golden exactly when nothing is edited,
    /// so the failures above come from the edits alone.
    @Test func uneditedStyleCopyRendersTheGolden() throws {
        let canvas = try GoldenRegressions.streetMap { _ in }
        #expect(check(canvas, named: GoldenRegressions.streetMapGolden, in: "BaseMap").message == nil)
    }
}
