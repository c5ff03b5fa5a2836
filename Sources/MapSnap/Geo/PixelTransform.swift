import Foundation

/// An affine map between two pixel planes (y down): `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// A turned camera draws its base map in a north-up *map frame* (the image's bounding box
/// turned back, see `Camera.mapFrame`) and maps that frame onto the image with one of
/// these: a rotation is an isometry, so a path stroked and then turned is the path turned
/// and then stroked — widths, dashes and anti-aliasing stay exactly as in a north-up map.
struct PixelTransform: Sendable, Hashable {
    var a: Double, b: Double, c: Double, d: Double
    var tx: Double, ty: Double

    /// The rotation by `radians` clockwise on screen (y down) about `pivot`, then the pivot
    /// moved to `to`.
    static func rotation(_ radians: Double, about pivot: PixelPoint, to target: PixelPoint) -> PixelTransform {
        let cs = cos(radians), sn = sin(radians)
        // x' = cs·(x − px) − sn·(y − py) + qx ;  y' = sn·(x − px) + cs·(y − py) + qy
        return PixelTransform(a: cs, b: sn, c: -sn, d: cs,
                              tx: target.x - cs * pivot.x + sn * pivot.y,
                              ty: target.y - sn * pivot.x - cs * pivot.y)
    }

    @inline(__always)
    func apply(_ p: PixelPoint) -> PixelPoint {
        PixelPoint(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// The inverse map (nil when singular).
    var inverted: PixelTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return PixelTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
}
