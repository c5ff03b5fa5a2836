import Foundation

/// A map between two pixel planes (y down): affine, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`,
/// or projective, the same numerators divided by the depth `w = g·x + h·y + i`.
///
/// A turned camera draws its base map in a north-up *map frame* (the image's bounding box
/// turned back, see `Camera.mapFrame`) and maps that frame onto the image with an affine
/// one: a rotation is an isometry, so a path stroked and then turned is the path turned
/// and then stroked — widths, dashes and anti-aliasing stay exactly as in a north-up map.
///
/// A pitched camera maps the ground plane onto the image by a homography (straight lines
/// stay straight; see `Camera.pitchTransform`): paths are carried vertex by vertex, after
/// clipping away what lies behind the eye (`depth` ≤ 0), and stroked in image pixels.
struct PixelTransform: Sendable, Hashable {
    var a: Double, b: Double, c: Double, d: Double
    var tx: Double, ty: Double
    /// The depth row (0, 0, 1 for an affine map).
    var g = 0.0, h = 0.0, i = 1.0

    /// The identity map.
    static let identity = PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// The rotation by `radians` clockwise on screen (y down) about `pivot`, then the pivot
    /// moved to `to`.
    static func rotation(_ radians: Double, about pivot: PixelPoint, to target: PixelPoint) -> PixelTransform {
        let cs = cos(radians), sn = sin(radians)
        // x' = cs·(x − px) − sn·(y − py) + qx ;  y' = sn·(x − px) + cs·(y − py) + qy
        return PixelTransform(a: cs, b: sn, c: -sn, d: cs,
                              tx: target.x - cs * pivot.x + sn * pivot.y,
                              ty: target.y - sn * pivot.x - cs * pivot.y)
    }

    /// The translation by (`dx`, `dy`).
    static func translation(_ dx: Double, _ dy: Double) -> PixelTransform {
        PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// True when the map is affine (no division by depth).
    var isAffine: Bool { g == 0 && h == 0 && i == 1 }

    @inline(__always)
    func apply(_ p: PixelPoint) -> PixelPoint {
        let x = a * p.x + c * p.y + tx, y = b * p.x + d * p.y + ty
        guard !isAffine else { return PixelPoint(x: x, y: y) }
        let w = g * p.x + h * p.y + i
        return PixelPoint(x: x / w, y: y / w)
    }

    /// The homogeneous depth of `p` (1 for an affine map): positive in front of a pitched
    /// camera's eye, and proportional to the distance from it along the view axis.
    @inline(__always)
    func depth(_ p: PixelPoint) -> Double { g * p.x + h * p.y + i }

    /// This map after `first`: `self.apply(first.apply(p))`.
    func after(_ first: PixelTransform) -> PixelTransform {
        let m = matrix, n = first.matrix
        var r = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                r[row * 3 + col] = m[row * 3] * n[col] + m[row * 3 + 1] * n[3 + col] + m[row * 3 + 2] * n[6 + col]
            }
        }
        return PixelTransform(matrix: r)
    }

    /// The inverse map (nil when singular).
    var inverted: PixelTransform? {
        if isAffine {
            let det = a * d - b * c
            guard det != 0, det.isFinite else { return nil }
            let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
            return PixelTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
        }
        let m = matrix
        // Adjugate over the determinant.
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard det != 0, det.isFinite else { return nil }
        let inv = [c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]].map { $0 / det }
        return PixelTransform(matrix: inv)
    }

    /// Row-major 3×3: (a c tx / b d ty / g h i).
    private var matrix: [Double] { [a, c, tx, b, d, ty, g, h, i] }
}

extension PixelTransform {
    /// From a row-major 3×3 (in an extension, so the memberwise initialiser stays).
    fileprivate init(matrix m: [Double]) {
        self.init(a: m[0], b: m[3], c: m[1], d: m[4], tx: m[2], ty: m[5], g: m[6], h: m[7], i: m[8])
    }
}
