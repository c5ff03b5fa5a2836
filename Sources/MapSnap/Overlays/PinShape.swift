import Foundation

/// The geometry of a Google-like teardrop pin, in points, tip at the origin, y down.
///
/// ```
///        .-""-.        ← head: circle of `headRadius`, centre `height − headRadius` above the tip
///       /      \
///       \      /
///        \    /        ← two tangents from the tip to the head circle
///         \  /
///          \/          ← tip (0, 0) sits on the coordinate
/// ```
struct PinShape: Sendable, Hashable {
    var headRadius: Double
    var height: Double
    /// Font size in points for the label inside the head; 0 = this size shows no label.
    var labelSize: Double

    init(size: MarkerOverlay.PinSize) {
        switch size {
        case .normal: self = PinShape(headRadius: 11, height: 38, labelSize: 13)
        case .mid: self = PinShape(headRadius: 8.5, height: 29, labelSize: 10)
        case .small: self = PinShape(headRadius: 6, height: 20, labelSize: 0)
        case .tiny: self = PinShape(headRadius: 4, height: 13, labelSize: 0)
        }
    }

    init(headRadius: Double, height: Double, labelSize: Double) {
        self.headRadius = headRadius
        self.height = height
        self.labelSize = labelSize
    }

    /// Centre of the head relative to the tip, in points.
    var headCenterOffset: Double { height - headRadius }

    /// The outline as a closed path in pixels, for a tip at `tip` and a pixel ratio `scale`.
    func path(tip: PixelPoint, scale: Double) -> Path {
        let r = headRadius * scale
        let d = headCenterOffset * scale
        let c = PixelPoint(x: tip.x, y: tip.y - d)
        // Tangent from the tip touches the circle where the radius is perpendicular to it:
        // the angle between the axis and the tangent point, seen from the centre, is acos(r/d).
        let phi = acos(min(1, r / d))
        // Angles measured in image space (y down); the axis from centre to tip points down (+π/2).
        let a0 = Double.pi / 2 + phi   // left tangent point
        let a1 = Double.pi / 2 - phi + 2 * .pi  // right tangent point, going round over the top
        var p = Path()
        p.move(to: tip)
        let steps = max(16, Int((a1 - a0) * r / 1.5))
        for i in 0...steps {
            let a = a0 + (a1 - a0) * Double(i) / Double(steps)
            p.line(to: PixelPoint(x: c.x + r * cos(a), y: c.y + r * sin(a)))
        }
        p.close()
        return p
    }

    /// Pixel overhang around the coordinate for camera fitting (left, top, right, bottom).
    func margins(scale: Double) -> (left: Double, top: Double, right: Double, bottom: Double) {
        let w = (headRadius + 1) * scale
        return (w, (height + 1) * scale, w, 1 * scale)
    }
}
