/// How many differing pixels a comparison may have and still pass.
public enum DiffTolerance: Sendable, Equatable, CustomStringConvertible {
    /// At most this many pixels.
    case pixels(Int)
    /// At most this share of all pixels, 0…100.
    case percent(Double)

    /// `3 pixels` or `0.5%`.
    public var description: String {
        switch self {
        case .pixels(let n): return "\(n) pixel\(n == 1 ? "" : "s")"
        case .percent(let p): return "\(p)%"
        }
    }
}
