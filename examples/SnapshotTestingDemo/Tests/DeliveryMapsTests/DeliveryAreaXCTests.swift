import DeliveryMaps
import MapSnapTesting
import XCTest

/// XCTest: the same map against its own golden,
/// `__Snapshots__/DeliveryAreaXCTests/delivery-area.png`.
final class DeliveryAreaXCTests: XCTestCase {
    func testDeliveryAreaMatchesGolden() throws {
        let map = try deliveryAreaMap()
        XCTAssertEqual(map.warnings, [])
        // Allows a sliver of difference (0.05% ≈ 60 pixels) for a different FreeType build;
        // `threshold` (per-pixel colour tolerance) stays at its default, 0.05, under which
        // any visible change of colour counts.
        assertSnapshot(of: map.image, named: "delivery-area", maxDiff: .percent(0.05))
    }
}
