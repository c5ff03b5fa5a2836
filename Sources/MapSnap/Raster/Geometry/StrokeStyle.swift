/// How a path is stroked: width in pixels, caps, joins and an optional dash pattern.
///
/// Widths and dash lengths are in device pixels (the caller has already applied the render
/// scale). Non-finite or negative widths stroke nothing.
struct StrokeStyle: Sendable, Hashable {
    /// Full line width in pixels.
    var width: Double
    var cap: LineCap = .butt
    var join: LineJoin = .miter
    /// Longest allowed miter as a multiple of `width`; sharper corners fall back to bevel.
    var miterLimit: Double = 4
    /// Alternating on/off lengths in pixels; empty (or all zero, or any negative) means solid.
    var dash: [Double] = []
    /// Distance into the dash pattern at which the path starts.
    var dashPhase: Double = 0

    /// Farthest the stroke's outline reaches from its path, plus two pixels of anti-aliasing:
    /// a miter tip (half width × limit), a square cap corner (× √2), or a round join or cap.
    /// Nothing of a path farther than this from the canvas can show on it.
    var reach: Double {
        let limit = miterLimit.isFinite ? max(miterLimit, 1) : 4
        return width / 2 * max(limit, 1.5) + 2
    }

    /// What one dash costs against a dash budget (`Dasher.maxDashCount`): a round cap of a
    /// wide line has hundreds of points, so such dashes count that many times over (fuzzing
    /// found a 156-byte input whose 20,000 round-capped dots on a 64-px canvas took seconds).
    var dashCost: Int {
        cap == .round && !dash.isEmpty ? max(1, Path.segmentCount(radius: width / 2, sweep: .pi) / 4) : 1
    }
}

/// Line join for strokes.
public enum LineJoin: String, Sendable, Hashable, Codable { case miter, round, bevel }
/// Line cap for strokes.
public enum LineCap: String, Sendable, Hashable, Codable { case butt, round, square }
