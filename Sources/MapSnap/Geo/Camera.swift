import Foundation

/// A resolved view: centre, zoom, image size and pixel ratio, and the transform between
/// world and image pixels that every later stage uses.
///
/// Image pixels are device pixels (`pixelWidth = width × scale`). The centre of the image
/// (`pixelWidth / 2`, `pixelHeight / 2`) shows `center`.
///
/// `heading` turns the map about that centre, as `MKMapCamera.heading` and MapLibre's
/// `bearing` do: the compass direction the top of the image faces, degrees clockwise from
/// north. With heading *b*, a point *d* pixels east of the centre appears at
/// (*d*·cos *b*, −*d*·sin *b*) from it.
///
/// `pitch` tilts the view away from straight down, as `MKMapCamera.pitch` and MapLibre's
/// `pitch` do: the eye moves towards the bottom of the image and the ground recedes to the
/// top, in MapLibre GL's perspective (see `Camera+Pitch.swift`). The centre keeps its
/// scale; the flat, turned image (`flat`) is carried onto the tilted one by a homography.
public struct Camera: Sendable, Hashable {
    /// The coordinate at the centre of the image.
    public var center: LatLng
    /// Fractional zoom 0…22.
    public var zoom: Double
    /// Image size in points.
    public var width: Int
    /// See `width`.
    public var height: Int
    /// Pixel ratio 1…4.
    public var scale: Double
    /// The direction the top of the image faces, degrees clockwise from north (0: north up).
    public var heading: Double
    /// Degrees the view is tilted from straight down (0: a flat map), 0…`maximumPitch`.
    public var pitch: Double = 0

    /// A view of `center` at `zoom` in an image of `width` × `height` points at `scale`,
    /// turned so that the top of the image faces `heading` (degrees clockwise from north).
    public init(center: LatLng, zoom: Double, width: Int, height: Int, scale: Double = 1, heading: Double = 0,
                pitch: Double = 0) {
        self.center = center
        self.zoom = zoom
        self.width = width
        self.height = height
        self.scale = scale
        self.heading = heading
        self.pitch = pitch
    }

    /// Whether the map is turned (a heading that is not a whole turn).
    var isRotated: Bool { heading.remainder(dividingBy: 360) != 0 }

    /// The turn from north-up offsets to image offsets: (cos *b*, sin *b*) of the heading.
    var headingCosSin: (cos: Double, sin: Double) {
        let r = heading * .pi / 180
        return (cos(r), sin(r))
    }

    /// Image size in device pixels: the size in points times `scale`, rounded.
    public var pixelWidth: Int { Int((Double(width) * scale).rounded()) }
    /// See `pixelWidth`.
    public var pixelHeight: Int { Int((Double(height) * scale).rounded()) }

    /// World size in device pixels at this zoom and scale.
    var worldSize: Double { WebMercator.worldSize(zoom: zoom, scale: scale) }

    var centerWorld: WorldPoint { WebMercator.project(center) }

    /// Image pixel of a world point, taken as is (no wrapping): x may be any real number
    /// for unwrapped geometry.
    ///
    /// A pitched camera carries the flat image's pixel through `pitchTransform`; a point
    /// behind the eye (`depth(forWorld:)` ≤ 0) comes back meaningless: callers check.
    func pixel(forWorld p: WorldPoint) -> PixelPoint {
        if isPitched { return pitchTransform.apply(flat.pixel(forWorld: p)) }
        let c = centerWorld
        let s = worldSize
        guard isRotated else {
            return PixelPoint(x: (p.x - c.x) * s + Double(pixelWidth) / 2,
                              y: (p.y - c.y) * s + Double(pixelHeight) / 2)
        }
        let dx = (p.x - c.x) * s, dy = (p.y - c.y) * s
        let (cs, sn) = headingCosSin
        return PixelPoint(x: cs * dx + sn * dy + Double(pixelWidth) / 2,
                          y: -sn * dx + cs * dy + Double(pixelHeight) / 2)
    }

    /// Image pixel of a coordinate, choosing the copy of the world nearest the centre
    /// (a marker at 179° E is drawn just left of a camera centred at 179° W).
    public func point(for coordinate: LatLng) -> PixelPoint {
        var w = WebMercator.project(coordinate)
        w.x = nearestCopy(w.x, to: centerWorld.x)
        return pixel(forWorld: w)
    }

    /// The coordinate shown at an image pixel (longitude normalised to −180…180).
    ///
    /// A pitched camera's pixels above the far limit (the sky) give the coordinate at the
    /// far limit below them.
    public func coordinate(for point: PixelPoint) -> LatLng {
        if isPitched { return flat.coordinate(for: flatPixel(forImagePixel: point)) }
        let c = centerWorld
        let s = worldSize
        var dx = point.x - Double(pixelWidth) / 2, dy = point.y - Double(pixelHeight) / 2
        if isRotated {
            let (cs, sn) = headingCosSin
            (dx, dy) = (cs * dx - sn * dy, sn * dx + cs * dy)
        }
        let w = WorldPoint(x: c.x + dx / s, y: c.y + dy / s)
        var ll = WebMercator.unproject(w)
        ll.longitude = Camera.normalizedLongitude(ll.longitude)
        return ll
    }

    /// The world rectangle the image shows (x may extend beyond 0…1); for a turned camera,
    /// the north-up rectangle around the turned image.
    /// A pitched camera: the rectangle around the ground it shows, up to the far limit.
    var visibleWorldRect: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        if isPitched { return pitchedWorldRect }
        let c = centerWorld, s = worldSize
        var hw = Double(pixelWidth) / 2 / s, hh = Double(pixelHeight) / 2 / s
        if isRotated {
            let (cs, sn) = headingCosSin
            (hw, hh) = (abs(cs) * hw + abs(sn) * hh, abs(sn) * hw + abs(cs) * hh)
        }
        return (c.x - hw, c.y - hh, c.x + hw, c.y + hh)
    }

    /// For a turned camera: a north-up camera on the same centre, zoom and scale whose image
    /// holds the turned image with a pixel to spare on every side, and the map from its
    /// pixels to this camera's. The base map is drawn in that frame (tile squares stay
    /// squares, clips stay axis-aligned) and turned onto the image as it is drawn. nil for a
    /// north-up camera.
    /// A pitched camera has bands of frames instead (`pitchBands`): nil.
    var mapFrame: (camera: Camera, toImage: PixelTransform)? {
        guard isRotated, !isPitched else { return nil }
        let (cs, sn) = headingCosSin
        let pw = Double(pixelWidth), ph = Double(pixelHeight)
        let fw = abs(cs) * pw + abs(sn) * ph, fh = abs(sn) * pw + abs(cs) * ph
        // Whole points, two pixels wider than the turned image on each side.
        let width = Int(((fw + 4) / scale).rounded(.up)), height = Int(((fh + 4) / scale).rounded(.up))
        let frame = Camera(center: center, zoom: zoom, width: width, height: height, scale: scale)
        let toImage = PixelTransform.rotation(-heading * .pi / 180,
                                              about: PixelPoint(x: Double(frame.pixelWidth) / 2, y: Double(frame.pixelHeight) / 2),
                                              to: PixelPoint(x: pw / 2, y: ph / 2))
        return (frame, toImage)
    }

    /// Meters per device pixel at the centre.
    public var metersPerPixel: Double {
        WebMercator.metersPerPoint(latitude: center.latitude, zoom: zoom) / scale
    }

    /// `x` shifted by whole worlds so it is within half a world of `reference`.
    func nearestCopy(_ x: Double, to reference: Double) -> Double {
        x - (x - reference).rounded()
    }

    static func normalizedLongitude(_ lon: Double) -> Double {
        guard lon.isFinite else { return lon }
        var l = (lon + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return l - 180
    }
}
