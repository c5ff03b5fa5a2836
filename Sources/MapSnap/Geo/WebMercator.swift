import Foundation

/// Spherical Web Mercator (EPSG:3857) between `LatLng` and normalised `WorldPoint`.
///
/// x = (lon + 180) / 360, y = (1 − ln(tan φ + sec φ) / π) / 2, latitude clamped to
/// ±`maxLatitude` so that the world is a square; one tile at zoom z spans 1/2^z.
enum WebMercator {
    /// The latitude at which the Mercator square ends: atan(sinh(π)) in degrees.
    static let maxLatitude = 85.051128779806592
    /// Mean Earth radius (IUGG) in meters, used for distances.
    static let earthRadiusMeters = 6_371_008.8
    /// Equatorial radius (WGS 84) in meters: the sphere EPSG:3857 projects.
    static let mercatorRadiusMeters = 6_378_137.0
    /// Tile size in pixels at scale 1.
    static let tileSize = 256.0

    static func project(_ c: LatLng) -> WorldPoint {
        let lat = min(max(c.latitude, -maxLatitude), maxLatitude) * .pi / 180
        let x = (c.longitude + 180) / 360
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2
        return WorldPoint(x: x, y: y)
    }

    static func unproject(_ p: WorldPoint) -> LatLng {
        let lon = p.x * 360 - 180
        let n = Double.pi * (1 - 2 * p.y)
        let lat = atan(sinh(n)) * 180 / .pi
        return LatLng(latitude: lat, longitude: lon)
    }

    /// World size in pixels at a zoom and pixel ratio.
    static func worldSize(zoom: Double, scale: Double = 1) -> Double {
        tileSize * scale * exp2(zoom)
    }

    /// Ground resolution in meters per *point* (scale-1 pixel) at a latitude and zoom.
    static func metersPerPoint(latitude: Double, zoom: Double) -> Double {
        let lat = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return cos(lat) * 2 * .pi * mercatorRadiusMeters / worldSize(zoom: zoom)
    }
}
