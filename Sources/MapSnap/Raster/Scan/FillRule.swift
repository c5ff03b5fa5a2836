/// How the winding number of a point decides whether it is inside a filled path.
enum FillRule: Sendable, Hashable {
    /// Inside when the winding number is not zero (strokes, most map polygons).
    case nonZero
    /// Inside when the winding number is odd (GeoJSON-style rings that overlap).
    case evenOdd

    /// Maps an accumulated, winding-weighted pixel area to a coverage in 0…1.
    ///
    /// `acc` is the integral of the winding number over the pixel (see `Rasterizer`). For
    /// even-odd the value is folded with period 2 (…, 1 → 1, 1.5 → 0.5, 2 → 0, 2.5 → 0.5, …),
    /// which is exact whenever the winding inside the pixel only takes two adjacent values.
    @inlinable @inline(__always)
    func coverage(_ acc: Double) -> Double {
        let a = abs(acc)
        switch self {
        case .nonZero:
            return a < 1 ? a : 1
        case .evenOdd:
            let m = a - 2 * (a * 0.5).rounded(.down)
            return m <= 1 ? m : 2 - m
        }
    }
}
