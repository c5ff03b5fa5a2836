import Testing
@testable import MapSnap

@Suite struct ScaleBarTests {
    /// (meters per pixel, maximum bar pixels) → the 1-2-5 distance that fits, and its label.
    @Test(arguments: [
        (1.0, 100.0, 100.0, "100 m"),
        (2.5, 100.0, 200.0, "200 m"),
        (30.0, 120.0, 2000.0, "2 km"),
        (0.01, 100.0, 1.0, "1 m"),
        (0.003, 100.0, 0.2, "0.2 m"),
        (1000.0, 150.0, 100_000.0, "100 km"),
        (7.0, 100.0, 500.0, "500 m"),
    ])
    func picksNiceDistances(mpp: Double, maxPx: Double, meters: Double, label: String) throws {
        let bar = try #require(ScaleBar(metersPerPixel: mpp, maximumPixels: maxPx))
        #expect(abs(bar.meters - meters) < 1e-9)
        #expect(bar.label == label)
        #expect(abs(bar.pixels - meters / mpp) < 1e-9)
        #expect(bar.pixels <= maxPx + 1e-9)
    }

    @Test func rejectsNonsense() {
        #expect(ScaleBar(metersPerPixel: .nan, maximumPixels: 100) == nil)
        #expect(ScaleBar(metersPerPixel: 1, maximumPixels: 0) == nil)
    }
}
