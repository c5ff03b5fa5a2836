import Foundation

/// MapKit's vocabulary for how far away the camera is: `MKMapCamera.centerCoordinateDistance`,
/// the distance in meters from the eye to the centre coordinate, and zoom levels from it.
///
/// The eye sits where MapLibre GL puts it: with a vertical field of view of 0.6435 rad
/// (2·atan(1/3), about 36.9°), 0.5 / tan(fov/2) = 1.5 image heights above the centre, so
/// the image's height covers two thirds of that distance on the ground. MapKit does not
/// publish its own constant; this one makes a distance mean the same view in mapsnap and
/// in MapLibre.
extension Camera {
    /// MapLibre GL's vertical field of view in radians: 2·atan(1/3).
    public static let verticalFieldOfView = 0.6435011087932844

    /// Eye distances per image height: 0.5 / tan(fov / 2) = 1.5.
    static var distancePerHeight: Double { 0.5 / tan(verticalFieldOfView / 2) }

    /// Meters from the eye to `center` along the view ray (`MKMapCamera.centerCoordinateDistance`):
    /// 1.5 times the ground height a flat image shows at its centre, whatever the pitch.
    public var centerCoordinateDistance: Double {
        Camera.distancePerHeight * Double(height) * WebMercator.metersPerPoint(latitude: center.latitude, zoom: zoom)
    }

    /// The fractional zoom at which an image `height` points tall, seen from `distance`
    /// meters above `latitude`, shows what `centerCoordinateDistance` describes (not clamped
    /// to 0…22: callers check the range). nil for a distance that is not a positive number.
    public static func zoom(centerCoordinateDistance distance: Double, latitude: Double, height: Int) -> Double? {
        guard distance.isFinite, distance > 0, height > 0 else { return nil }
        // metersPerPoint(z) = m0 / 2^z, so 2^z = 1.5 · height · m0 / distance.
        let atZoomZero = WebMercator.metersPerPoint(latitude: latitude, zoom: 0)
        return log2(distancePerHeight * Double(height) * atZoomZero / distance)
    }

    /// The eye's height above the ground in meters (`MKMapCamera.altitude`):
    /// `centerCoordinateDistance` × cos(pitch). The distance is measured along the view ray,
    /// as MapKit's is, so tilting the camera keeps the distance and the centre's scale and
    /// lowers the eye.
    public var altitude: Double {
        centerCoordinateDistance * cos(pitch * .pi / 180)
    }

    /// A view of `center` from `centerCoordinateDistance` meters along the view ray, like
    /// `MKMapCamera(lookingAtCenter:fromDistance:pitch:heading:)`; nil for a distance that
    /// is not a positive number.
    public init?(center: LatLng, centerCoordinateDistance distance: Double, width: Int, height: Int,
                 scale: Double = 1, heading: Double = 0, pitch: Double = 0) {
        guard let zoom = Camera.zoom(centerCoordinateDistance: distance, latitude: center.latitude, height: height) else { return nil }
        self.init(center: center, zoom: zoom, width: width, height: height, scale: scale, heading: heading, pitch: pitch)
    }
}
