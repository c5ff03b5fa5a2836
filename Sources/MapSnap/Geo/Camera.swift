import Foundation

/// A resolved view: centre, zoom, image size and pixel ratio, and the transform between
/// world and image pixels that every later stage uses.
///
/// Image pixels are device pixels (`pixelWidth = width × scale`). The centre of the image
/// (`pixelWidth / 2`, `pixelHeight / 2`) shows `center`.
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

    /// A view of `center` at `zoom` in an image of `width` × `height` points at `scale`.
    public init(center: LatLng, zoom: Double, width: Int, height: Int, scale: Double = 1) {
        self.center = center
        self.zoom = zoom
        self.width = width
        self.height = height
        self.scale = scale
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
    func pixel(forWorld p: WorldPoint) -> PixelPoint {
        let c = centerWorld
        let s = worldSize
        return PixelPoint(x: (p.x - c.x) * s + Double(pixelWidth) / 2,
                          y: (p.y - c.y) * s + Double(pixelHeight) / 2)
    }

    /// Image pixel of a coordinate, choosing the copy of the world nearest the centre
    /// (a marker at 179° E is drawn just left of a camera centred at 179° W).
    public func point(for coordinate: LatLng) -> PixelPoint {
        var w = WebMercator.project(coordinate)
        w.x = nearestCopy(w.x, to: centerWorld.x)
        return pixel(forWorld: w)
    }

    /// The coordinate shown at an image pixel (longitude normalised to −180…180).
    public func coordinate(for point: PixelPoint) -> LatLng {
        let c = centerWorld
        let s = worldSize
        let w = WorldPoint(x: c.x + (point.x - Double(pixelWidth) / 2) / s,
                           y: c.y + (point.y - Double(pixelHeight) / 2) / s)
        var ll = WebMercator.unproject(w)
        ll.longitude = Camera.normalizedLongitude(ll.longitude)
        return ll
    }

    /// The world rectangle the image shows (x may extend beyond 0…1).
    var visibleWorldRect: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let c = centerWorld, s = worldSize
        let hw = Double(pixelWidth) / 2 / s, hh = Double(pixelHeight) / 2 / s
        return (c.x - hw, c.y - hh, c.x + hw, c.y + hh)
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
