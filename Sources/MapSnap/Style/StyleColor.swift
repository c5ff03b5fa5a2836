/// A style colour: straight-alpha sRGB components as `Double`s in 0…1.
///
/// Kept as floating point (not `Color`) so `interpolate` between stops does not
/// accumulate 8-bit rounding; convert with `color` at the end of evaluation.
/// All components are finite and clamped to 0…1 by every initialiser.
struct StyleColor: Hashable, Sendable, CustomStringConvertible {
    let red: Double
    let green: Double
    let blue: Double
    let alpha: Double

    /// Components in 0…1; non-finite values become 0 and others are clamped.
    init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Converts an 8-bit colour.
    init(_ color: Color) {
        self.init(red: Double(color.red) / 255, green: Double(color.green) / 255,
                  blue: Double(color.blue) / 255, alpha: Double(color.alpha) / 255)
    }

    private static func clamp(_ v: Double) -> Double {
        v.isFinite ? Swift.min(Swift.max(v, 0), 1) : 0
    }

    /// The 8-bit straight-alpha colour (components rounded to nearest).
    var color: Color {
        Color(red: UInt8((red * 255).rounded()), green: UInt8((green * 255).rounded()),
              blue: UInt8((blue * 255).rounded()), alpha: UInt8((alpha * 255).rounded()))
    }

    /// Interpolates like MapLibre: component-wise on *premultiplied* RGBA, so fading to a
    /// transparent colour does not drift through its (invisible) RGB.
    func interpolated(to other: StyleColor, fraction t: Double) -> StyleColor {
        let a = alpha + (other.alpha - alpha) * t
        func mix(_ x: Double, _ y: Double) -> Double {
            let pre = x * alpha + (y * other.alpha - x * alpha) * t
            return a > 0 ? pre / a : 0
        }
        return StyleColor(red: mix(red, other.red), green: mix(green, other.green),
                          blue: mix(blue, other.blue), alpha: a)
    }

    /// `rgba(r,g,b,a)` with 0…255 channels, the form `to-string` produces in MapLibre.
    var description: String {
        func channel(_ v: Double) -> String { String(Int((v * 255).rounded())) }
        return "rgba(\(channel(red)),\(channel(green)),\(channel(blue)),\(StyleValue.formatNumber(alpha)))"
    }

    static let black = StyleColor(red: 0, green: 0, blue: 0)
    static let white = StyleColor(red: 1, green: 1, blue: 1)
    static let transparent = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)
}
