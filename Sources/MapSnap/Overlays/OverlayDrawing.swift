/// Why an overlay could not be drawn.
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A marker icon file that could not be read.
    case unreadableIcon(path: String, reason: String)
    /// A marker icon file that is not a usable PNG; the decoder's error says why and where.
    case invalidIcon(path: String, PNGError)
    /// A marker icon URL that could not be fetched; `url` has credentials redacted.
    case iconUnavailable(url: String, ResourceError)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .unreadableIcon(let path, let reason): return "\(path): cannot use as marker icon: \(reason)"
        case .invalidIcon(let path, let error): return "\(path): cannot use as marker icon: \(error)"
        case .iconUnavailable(let url, let error): return "\(url): cannot use as marker icon: \(error.reason)"
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
struct ProjectedOverlay: Sendable {
    let overlay: Overlay
    /// A path: its line. A polygon: its rings, holes shifted to the outer ring's world copy.
    /// A circle: its ring at fitting resolution. A marker: its point.
    let lines: [[WorldPoint]]
    /// A polygon's edges, per ring, that are not part of its outline (see `WorldRing`);
    /// empty lists for everything else.
    let hiddenEdges: [[Int]]
    /// A polygon whose outer ring goes round the world (see `WorldRing.goesRoundTheWorld`).
    let goesRoundTheWorld: Bool
    /// Smallest and largest x of the first line (NaN when empty).
    let minX: Double, maxX: Double

    init(_ overlay: Overlay) {
        self.overlay = overlay
        var hiddenEdges: [[Int]] = []
        var goesRound = false
        switch overlay {
        case .path(let p): lines = [p.worldLine(maxStepDegrees: PathOverlay.fitStepDegrees)]
        case .polygon(let p):
            let rings = p.worldRings()
            lines = rings.map(\.points)
            hiddenEdges = rings.map(\.hiddenEdges)
            goesRound = rings.first?.goesRoundTheWorld ?? false
        case .circle(let c): lines = [c.fitRing()]
        case .marker(let m): lines = [[WebMercator.project(m.coordinate)]]
        }
        self.hiddenEdges = hiddenEdges
        goesRoundTheWorld = goesRound
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

    /// The whole-world shifts of every copy of the first line that reaches into the image,
    /// `marginPixels` included: a polygon as wide as the world (a band round the globe, a polar
    /// cap) must cover the image wherever the camera looks. Copies of an ordinary polygon
    /// wider than the world would overlap, so then (and when no copy reaches in) only the
    /// nearest. Copies of a ring that goes round the world add up to the band round the
    /// pole however far each reaches past the next (their closing sides cancel), so one more
    /// on either side keeps the copies' own ends out of the image.
    func worldShifts(for camera: Camera, marginPixels: Double) -> [Double] {
        let nearest = worldShift(for: camera)
        guard minX.isFinite, maxX.isFinite, maxX - minX <= 1 || goesRoundTheWorld else { return [nearest] }
        // A turned image reaches as far east and west as its north-up frame does.
        let halfWidth = camera.isRotated || camera.isPitched ? (camera.visibleWorldRect.maxX - camera.centerWorld.x) * camera.worldSize
            : Double(camera.pixelWidth) / 2
        let half = (halfWidth + marginPixels) / camera.worldSize
        let lo = camera.centerWorld.x - half, hi = camera.centerWorld.x + half
        var first = (lo - maxX).rounded(.up), last = (hi - minX).rounded(.down)
        if goesRoundTheWorld {
            first -= 1
            last += 1
        }
        guard first <= last else { return [nearest] }
        return stride(from: first, through: last, by: 1).map { $0 }
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
    /// A path in the flat image's pixels (`flat`, drawn with its `worldToPixel`) carried
    /// onto a pitched image, cut where it passes under the image's bottom edge towards the
    /// eye (`DepthClipper`): `asAreas` for rings and fills. As given when not pitched.
    func tilted(_ path: Path, asAreas: Bool) -> Path {
        guard isPitched else { return path }
        return DepthClipper.transform(path, by: pitchTransform, minimumDepth: minimumDrawnDepth, asAreas: asAreas)
    }

    /// Whether a pitched image shows the ground at `coordinate`: in front of the eye and
    /// nearer than the far limit (markers beyond it are not drawn). Always true when flat.
    func showsOnGround(_ coordinate: LatLng) -> Bool {
        guard isPitched else { return true }
        let depth = depth(of: coordinate)
        return depth > 0 && 1 / depth >= Camera.farGroundScale
    }

    /// Whether a pitched camera sees `coordinate` ahead of it but beyond the ground it draws
    /// (where the sky is): not behind the eye, not within the far limit.
    func liesBeyondFarLimit(_ coordinate: LatLng) -> Bool {
        guard isPitched else { return false }
        let depth = depth(of: coordinate)
        return depth > 0 && 1 / depth < Camera.farGroundScale
    }

    /// `depth(forWorld:)` of the copy of `coordinate` nearest the centre.
    private func depth(of coordinate: LatLng) -> Double {
        var w = WebMercator.project(coordinate)
        w.x = nearestCopy(w.x, to: centerWorld.x)
        return depth(forWorld: w)
    }

    /// World → image pixels with the camera's centre, scale and heading computed once, for
    /// loops over many points. Gives exactly `pixel(forWorld:)`.
    var worldToPixel: WorldToPixel {
        let turn = isRotated ? headingCosSin : nil
        return WorldToPixel(center: centerWorld, worldSize: worldSize,
                            halfWidth: Double(pixelWidth) / 2, halfHeight: Double(pixelHeight) / 2,
                            rotates: turn != nil, cos: turn?.cos ?? 1, sin: turn?.sin ?? 0)
    }
}

/// `Camera.pixel(forWorld:)` with its inputs precomputed.
struct WorldToPixel {
    let center: WorldPoint
    let worldSize: Double
    let halfWidth: Double, halfHeight: Double
    /// A turned camera: offsets from the centre are turned by the heading (cos, sin).
    var rotates = false
    var cos = 1.0, sin = 0.0

    @inline(__always)
    func callAsFunction(_ p: WorldPoint, shiftX: Double = 0) -> PixelPoint {
        guard rotates else {
            return PixelPoint(x: (p.x + shiftX - center.x) * worldSize + halfWidth, y: (p.y - center.y) * worldSize + halfHeight)
        }
        let dx = (p.x + shiftX - center.x) * worldSize, dy = (p.y - center.y) * worldSize
        return PixelPoint(x: cos * dx + sin * dy + halfWidth, y: -sin * dx + cos * dy + halfHeight)
    }
}
