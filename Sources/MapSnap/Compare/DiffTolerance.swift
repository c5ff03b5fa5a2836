/// How many differing pixels a comparison may have and still pass.
public enum DiffTolerance: Sendable, Equatable {
    /// At most this many pixels.
    case pixels(Int)
    /// At most this share of all pixels, 0…100.
    case percent(Double)
}
