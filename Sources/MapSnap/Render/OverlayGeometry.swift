/// Converts overlay coordinates to image pixels for one camera.
///
/// Lines are unwrapped (each step takes the short way across the antimeridian), densified
/// along great circles when geodesic, then shifted by whole worlds so the copy drawn is the
/// one nearest the image centre.
struct OverlayGeometry {
    let camera: Camera

    /// World points of a polyline, unwrapped and (optionally) geodesic.
    func worldLine(_ coordinates: [LatLng], geodesic: Bool) -> [WorldPoint] {
        var coords = coordinates
        if geodesic, coordinates.count > 1 {
            var dense: [LatLng] = [coordinates[0]]
            for i in 1..<coordinates.count {
                dense.append(contentsOf: Geodesy.greatCircle(from: coordinates[i - 1], to: coordinates[i],
                                                             maxStepDegrees: 0.5).dropFirst())
            }
            coords = dense
        }
        var pts = CameraFit.unwrappedWorldPoints(coords)
        guard let lo = pts.map(\.x).min(), let hi = pts.map(\.x).max() else { return pts }
        let mid = (lo + hi) / 2
        let shift = -(mid - camera.centerWorld.x).rounded()
        if shift != 0 { for i in pts.indices { pts[i].x += shift } }
        return pts
    }

    /// Pixel points of a polyline.
    func pixelLine(_ coordinates: [LatLng], geodesic: Bool) -> [PixelPoint] {
        worldLine(coordinates, geodesic: geodesic).map(camera.pixel(forWorld:))
    }

    /// Pixel rings of a polygon; all rings share the outer ring's world copy.
    func pixelRings(_ rings: [[LatLng]]) -> [[PixelPoint]] {
        guard let outer = rings.first else { return [] }
        let outerWorld = worldLine(outer, geodesic: false)
        guard let ref = outerWorld.first else { return [] }
        var out = [outerWorld.map(camera.pixel(forWorld:))]
        for hole in rings.dropFirst() {
            var w = CameraFit.unwrappedWorldPoints(hole)
            if let f = w.first {
                let shift = -(f.x - ref.x).rounded()
                for i in w.indices { w[i].x += shift }
            }
            out.append(w.map(camera.pixel(forWorld:)))
        }
        return out
    }
}
