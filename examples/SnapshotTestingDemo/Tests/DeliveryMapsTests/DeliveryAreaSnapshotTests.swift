import DeliveryMaps
import Foundation
import MapSnap
import MapSnapTesting
import Testing

/// Swift Testing: the delivery map against its golden,
/// `__Snapshots__/DeliveryAreaSnapshotTests/delivery-area.png`.
@Suite struct DeliveryAreaSnapshotTests {
    /// This package's root, from this file's location (tests must not rely on the working directory).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/DeliveryAreaSnapshotTests").path

    @Test func deliveryAreaMatchesGolden() throws {
        let map = try deliveryAreaMap()
        #expect(map.warnings.isEmpty, "\(map.warnings)")
        expectSnapshot(of: map.image, named: "delivery-area")
    }

    /// Shows the helper catching a regression: customer 2's pin moved about 180 m. The check
    /// must fail and leave expected/actual/diff images behind for a human to look at.
    @Test func movedCustomerIsCaught() throws {
        let golden = Self.goldens + "/delivery-area.png"
        // Without the golden, `verifySnapshot` would record *this* map as the golden.
        try #require(FileManager.default.fileExists(atPath: golden),
                     "record the golden first: swift test --filter deliveryAreaMatchesGolden")
        var area = DeliveryArea.helsinki
        area.customers[1] = LatLng(60.1715, 24.9470)
        let map = try deliveryAreaMap(area)

        let failures = Self.packageRoot + "/.build/snapshot-failures/deliberate-change"
        try? FileManager.default.removeItem(atPath: failures)
        // `record: .missing` explicitly, so a MAPSNAP_RECORD=1 run never overwrites the golden
        // with the changed map.
        let message = try #require(verifySnapshot(of: map.image, named: "delivery-area",
                                                  goldenDirectory: Self.goldens, failureDirectory: failures,
                                                  record: .missing, filePath: #filePath))
        #expect(message.hasPrefix("snapshot 'delivery-area' does not match \(golden)"), "\(message)")
        for file in ["expected.png", "actual.png", "diff.png"] {
            #expect(FileManager.default.fileExists(atPath: "\(failures)/delivery-area/\(file)"), "\(file) not written")
        }
        // A moved pin is a local change: a generous tolerance lets it through, which is
        // exactly why the demo keeps the default exact `maxDiff`.
        // (A passing check deletes its failure directory, so it gets its own.)
        #expect(verifySnapshot(of: map.image, named: "delivery-area", maxDiff: .percent(5),
                               goldenDirectory: Self.goldens, failureDirectory: failures + "-tolerant",
                               record: .missing, filePath: #filePath) == nil)
    }
}
