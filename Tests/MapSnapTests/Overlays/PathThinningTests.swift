import Foundation
import Testing
@testable import MapSnap

/// A big line wholly inside the image is thinned while it is projected (so a million-point
/// track never exists as a million-point path); the stroker must then make exactly the
/// outline it makes from the full line, for the drawn stroke and for the label mask.
@Suite struct PathThinningTests {
    private let camera = Camera(center: LatLng(60.17, 24.94), zoom: 15, width: 400, height: 300, scale: 2)

    /// A dense wiggly line inside the view, with exact repeats and back-tracking.
    private func denseLine(points n: Int, spanDegrees: Double = 0.004) -> [LatLng] {
        var coords: [LatLng] = []
        for i in 0..<n {
            let t = Double(i) / Double(n)
            coords.append(LatLng(60.17 + 0.0005 * sin(t * 12) + 0.000002 * sin(t * 2000),
                                 24.94 - spanDegrees / 2 + spanDegrees * t))
            if i % 97 == 0 { coords.append(coords[coords.count - 1]) }
        }
        return coords
    }

    private func context() -> OverlayContext {
        OverlayContext(camera: camera, canvas: Canvas(width: camera.pixelWidth, height: camera.pixelHeight),
                       text: MapRenderer.shared.text, icons: IconStore())
    }

    @Test(arguments: [1.0, LabelCollisionIndex.obstacleScale])
    func thinnedLineStrokesExactlyLikeTheFullLine(scale: Double) throws {
        let overlay = PathOverlay(coordinates: denseLine(points: 20_000), width: 3)
        let projected = ProjectedOverlay(.path(overlay))
        let ctx = context()
        let full = try #require(overlay.pixelPath(projected, camera: ctx.camera, width: ctx.canvas.width, height: ctx.canvas.height, thinning: false, scale: scale))
        let thin = try #require(overlay.pixelPath(projected, camera: ctx.camera, width: ctx.canvas.width, height: ctx.canvas.height, thinning: true, scale: scale))
        #expect(thin.points.count < full.points.count / 2, "the line was not thinned")
        let w = Int((Double(ctx.canvas.width) * scale).rounded(.up))
        let h = Int((Double(ctx.canvas.height) * scale).rounded(.up))
        let style = StrokeStyle(width: 6 * scale, cap: .round, join: .round)
        let a = try #require(Canvas.strokeOutline(full, style: style, width: w, height: h))
        let b = try #require(Canvas.strokeOutline(thin, style: style, width: w, height: h))
        #expect(a.points == b.points)
        #expect(a.contours == b.contours)
    }

    /// A line that leaves the image is not thinned here (the clipper changes its points).
    @Test func lineLeavingTheImageIsConvertedInFull() throws {
        let overlay = PathOverlay(coordinates: denseLine(points: 5_000, spanDegrees: 0.2))
        let projected = ProjectedOverlay(.path(overlay))
        let ctx = context()
        let full = try #require(overlay.pixelPath(projected, camera: ctx.camera, width: ctx.canvas.width, height: ctx.canvas.height, thinning: false))
        let thin = try #require(overlay.pixelPath(projected, camera: ctx.camera, width: ctx.canvas.width, height: ctx.canvas.height, thinning: true))
        #expect(thin.points == full.points)
    }
}
