/// An sRGB colour with straight (non-premultiplied) 8-bit alpha.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255 (sRGB, not premultiplied).
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) … 255 (opaque).
    public var alpha: UInt8

    /// A colour from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB` with full opacity.
    public init(rgb: UInt32) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
    }

    /// `0xRRGGBBAA`.
    public init(rgba: UInt32) {
        self.init(red: UInt8((rgba >> 24) & 0xFF), green: UInt8((rgba >> 16) & 0xFF),
                  blue: UInt8((rgba >> 8) & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// The same colour with its alpha multiplied by `opacity` (clamped to 0…1).
    public func withOpacity(_ opacity: Double) -> Color {
        let o = opacity.isFinite ? Swift.min(Swift.max(opacity, 0), 1) : 1
        var c = self
        c.alpha = UInt8((Double(alpha) * o).rounded())
        return c
    }

    /// Opaque black.
    public static let black = Color(rgb: 0x000000)
    /// Opaque white.
    public static let white = Color(rgb: 0xFFFFFF)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `rgba(r, g, b, a)` for style JSON.
    var cssString: String {
        "rgba(\(red), \(green), \(blue), \(Double(alpha) / 255))"
    }

    /// `#rrggbbaa` in lowercase hex.
    public var description: String {
        let hex = [red, green, blue, alpha].map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        return "#" + hex
    }
}
