import Foundation
import Testing
@testable import MapSnap

/// `MapSnapshotOptions.drawingTimeout` (issue 28, finding 1): a render that finishes in time
/// has the bytes it has without a limit; one that does not throws, never returns a part.
@Suite struct DrawingDeadlineTests {
    static func options() -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 700, height: 600)
        o.center = LatLng(60.17, 24.94)
        o.zoom = 11
        o.attribution = "none"
        // Fills taller than a slice of rows (`Canvas.deadlineSliceRows`), so slicing is used.
        o.overlays = [
            .polygon(PolygonOverlay(rings: [[LatLng(60.05, 24.6), LatLng(60.3, 24.7), LatLng(60.25, 25.3), LatLng(60.08, 25.2)]],
                                    strokeWidth: 9)),
            .path(PathOverlay(coordinates: [LatLng(60.06, 24.62), LatLng(60.28, 25.25)], width: 14)),
        ]
        return o
    }

    @Test func aFarDeadlineChangesNoByte() throws {
        let renderer = MapRenderer()
        let free = try MapSnapshotter(options: Self.options(), renderer: renderer).render().pngData()
        var limited = Self.options()
        limited.drawingTimeout = 3_600
        let timed = try MapSnapshotter(options: limited, renderer: renderer).render().pngData()
        #expect(free == timed)
    }

    @Test func aPassedDeadlineThrowsTimedOut() throws {
        var o = Self.options()
        o.drawingTimeout = 0
        #expect(throws: RenderError.timedOut(seconds: 0)) {
            _ = try MapSnapshotter(options: o, renderer: MapRenderer()).render()
        }
    }

    @Test func aSlicedFillHasTheBytesOfAWholeOne() {
        var path = Path()
        path.move(to: PixelPoint(x: 3.5, y: 2.25))
        for i in 1..<200 {
            let a = Double(i) * 0.7
            path.line(to: PixelPoint(x: 300 + 290 * cos(a) * Double(i % 7) / 7, y: 500 + 495 * sin(a)))
        }
        let whole = Canvas(width: 600, height: 1000, fill: .white)
        whole.fill(path, color: Color(rgba: 0x336699C0))
        let sliced = Canvas(width: 600, height: 1000, fill: .white)
        sliced.deadline = .after(seconds: 3_600)
        sliced.fill(path, color: Color(rgba: 0x336699C0))
        #expect(!sliced.drawingWasAbandoned)
        #expect(whole.pixels == sliced.pixels)
    }
}
