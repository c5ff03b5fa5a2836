/// Why an overlay could not be drawn.
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A marker icon file that could not be read or decoded.
    case unreadableIcon(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableIcon(let path, let reason): return "\(path): cannot use as marker icon: \(reason)"
        }
    }
}

/// What drawing overlays needs: the camera, the canvas, text and icons.
struct OverlayContext {
    let camera: Camera
    let canvas: Canvas
    let text: TextEngine
    let icons: IconStore
    /// Pixels per point: widths, sizes and margins given in points are multiplied by it.
    var scale: Double { camera.scale }
}

/// An overlay's geometry in world space: lines and rings unwrapped across the
/// antimeridian (and densified along great circles for geodesic paths), computed once per
/// render because projecting is the costly part of big inputs, and both camera fitting and
/// drawing need it.
struct ProjectedOverlay {
    let overlay: Overlay
    /// A path: its line. A polygon: its rings, holes shifted to the outer ring's world copy.
    /// A circle: its ring at fitting resolution. A marker: its point.
    let lines: [[WorldPoint]]
    /// Smallest and largest x of the first line (NaN when empty).
    let minX: Double, maxX: Double

    init(_ overlay: Overlay) {
        self.overlay = overlay
        switch overlay {
        case .path(let p): lines = [p.worldLine(maxStepDegrees: PathOverlay.fitStepDegrees)]
        case .polygon(let p): lines = p.worldRings()
        case .circle(let c): lines = [c.fitRing()]
        case .marker(let m): lines = [[WebMercator.project(m.coordinate)]]
        }
        var lo = Double.nan, hi = Double.nan
        for p in lines.first ?? [] {
            if !(p.x >= lo) { lo = p.x }
            if !(p.x <= hi) { hi = p.x }
        }
        (minX, maxX) = (lo, hi)
    }

    /// The whole-world shift that brings the first line nearest the camera's centre.
    func worldShift(for camera: Camera) -> Double {
        guard minX.isFinite, maxX.isFinite else { return 0 }
        return -((minX + maxX) / 2 - camera.centerWorld.x).rounded()
    }

    /// What camera fitting needs: the points and how far the drawing sticks out, in pixels.
    func fitItem(scale: Double, text: TextEngine, icons: IconStore) -> FitItem {
        let m: OverlayMargins
        switch overlay {
        case .path(let p): m = .uniform(p.reach * scale)
        case .polygon(let p): m = .uniform(p.strokeWidth / 2 * scale)
        case .circle(let c): m = .uniform(c.strokeWidth / 2 * scale)
        case .marker(let mk): m = mk.fitMargins(scale: scale, text: text, icons: icons)
        }
        return FitItem(points: lines.first ?? [], marginLeft: m.left, marginTop: m.top,
                       marginRight: m.right, marginBottom: m.bottom)
    }
}

/// How far a drawing sticks out beyond its geometry, in pixels.
struct OverlayMargins: Equatable {
    var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0

    static func uniform(_ m: Double) -> OverlayMargins { OverlayMargins(left: m, top: m, right: m, bottom: m) }
}

extension Camera {
    /// World → image pixels with the camera's centre and scale computed once, for loops
    /// over many points. Gives exactly `pixel(forWorld:)`.
    var worldToPixel: WorldToPixel {
        WorldToPixel(center: centerWorld, worldSize: worldSize,
                     halfWidth: Double(pixelWidth) / 2, halfHeight: Double(pixelHeight) / 2)
    }
}

/// `Camera.pixel(forWorld:)` with its inputs precomputed.
struct WorldToPixel {
    let center: WorldPoint
    let worldSize: Double
    let halfWidth: Double, halfHeight: Double

    @inline(__always)
    func callAsFunction(_ p: WorldPoint, shiftX: Double = 0) -> PixelPoint {
        PixelPoint(x: (p.x + shiftX - center.x) * worldSize + halfWidth, y: (p.y - center.y) * worldSize + halfHeight)
    }
}
