import Foundation
import Testing
@testable import MapSnap
import MapSnapTesting

/// `MapSnapTesting`'s defaults for users (perceptual threshold `ImageComparator.defaultThreshold`,
/// anti-aliasing forgiven, no differing pixel allowed) against the committed goldens: every
/// visible regression of issue #8 fails, while differences nobody can see pass — that is
/// what the perceptual mode is for (goldens recorded on another platform). The project's
/// own goldens are compared exactly instead (`GoldenSensitivityTests`).
@Suite struct SnapshotDefaultsTests {
    /// `verifySnapshot` with every tolerance at its default, never recording.
    func verifyWithDefaults(_ image: MapImage, named name: String, in folder: String) -> String? {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return verifySnapshot(of: image, named: name, goldenDirectory: TestPaths.goldens(folder),
                              failureDirectory: dir, record: .missing, filePath: #filePath)
    }

    @Test func renderOfTheGoldenPasses() throws {
        let canvas = try GoldenRegressions.streetMap { _ in }
        #expect(verifyWithDefaults(canvas, named: GoldenRegressions.streetMapGolden, in: "BaseMap") == nil)
    }

    @Test func darkerBuildingsFail() throws {
        let message = verifyWithDefaults(try GoldenRegressions.darkerBuildings(), named: GoldenRegressions.streetMapGolden, in: "BaseMap")
        #expect(message?.contains("does not match") == true, "\(message ?? "passed")")
    }

    @Test func greyerRoadNamesFail() throws {
        let message = verifyWithDefaults(try GoldenRegressions.greyerRoadNames(), named: GoldenRegressions.streetMapGolden, in: "BaseMap")
        #expect(message?.contains("does not match") == true, "\(message ?? "passed")")
    }

    @Test(arguments: [("Overlays", "paths@1x"), ("BaseMap", "helsinki-normal-z16"), ("Overlays", "titles@1x")])
    func everyPixel25LevelsDarkerFails(folder: String, name: String) throws {
        let golden = try Golden.load(name, in: folder)
        let message = verifyWithDefaults(GoldenRegressions.shifted(golden, by: -25), named: name, in: folder)
        #expect(message?.contains("does not match") == true, "\(message ?? "passed")")
    }

    /// Where the default threshold draws the line, on 1 % of the pixels: 5 and 10 levels are
    /// forgiven as invisible, 15 levels are not.
    @Test(arguments: [(5, true), (10, true), (15, false)])
    func speckleOnOnePercentOfPixels(levels: Int, passes: Bool) throws {
        let seed: UInt64 = 0x5EED_DEF0
        print("SnapshotDefaultsTests speckle seed: \(seed)")
        let golden = try Golden.load(GoldenRegressions.streetMapGolden, in: "BaseMap")
        let (speckled, _) = GoldenRegressions.speckled(golden, fraction: 0.01, levels: levels, seed: seed)
        let message = verifyWithDefaults(speckled, named: GoldenRegressions.streetMapGolden, in: "BaseMap")
        #expect((message == nil) == passes, "\(levels) levels, seed \(seed): \(message ?? "passed")")
    }
}
