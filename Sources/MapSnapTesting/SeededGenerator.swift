/// A small deterministic random number generator (SplitMix64, after Steele, Lea and Flood's
/// "Fast splittable pseudorandom number generators") for property tests and fuzz-style
/// loops: the same seed gives the same sequence on every machine. Print the seed in the
/// test so a failure can be replayed.
///
/// The one seeded generator of the project's tests; use it with the standard library's
/// `random(in:using:)` and `shuffle(using:)`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed` (any value, zero included).
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
