/// Decimal → `Double` conversion for the digits a JSON number holds, correctly rounded (round
/// to nearest, ties to even) and therefore bit-identical to `Double(String)` on the same text,
/// without its cost (~200 ns a number here, which was most of a 1M-point GeoJSON's read time).
///
/// Two exact methods cover what real documents contain; anything else returns nil and the
/// caller asks the standard library:
///
/// 1. Clinger's fast path: a significand ≤ 2⁵³ and a power of ten ≤ 10²² are both exact
///    doubles, so one IEEE multiply or divide rounds the exact product or quotient once.
/// 2. Up to 19 digits with |exponent| ≤ 19 (coordinates printed with 17 digits): the exact
///    value is formed in 128-bit integer arithmetic, scaled so that its top 64 bits hold at
///    least 63 significant bits, and the bits below become a sticky bit. Converting that
///    64-bit integer to `Double` is the one rounding; the scale is a power of two (exact).
///
/// ```
///   exact value  = 1011…0110 1 0000…0001…   (bits)
///   kept 64 bits = 1011…0110 1 0000…000|1   ← sticky: something below was not zero
///                  └ 53 bits ┘ └ round bit
/// ```
/// The sticky bit sits far below the round bit, so it only decides exact-half cases, which
/// is what it must decide.
enum JSONNumber {
    /// significand × 10^exponent for a non-zero significand of at most 19 digits, or nil.
    static func value(significand: UInt64, exponent: Int) -> Double? {
        if significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            let m = Double(significand)
            if exponent == 0 { return m }
            return exponent > 0 ? m * exactPowersOfTen[exponent] : m / exactPowersOfTen[-exponent]
        }
        guard exponent >= -19, exponent <= 19 else { return nil }
        if exponent >= 0 {
            return product(significand, integerPowersOfTen[exponent])
        }
        return quotient(significand, integerPowersOfTen[-exponent])
    }

    /// m × p, both below 2⁶⁴, correctly rounded.
    private static func product(_ m: UInt64, _ p: UInt64) -> Double {
        let (high, low) = m.multipliedFullWidth(by: p)
        if high == 0 { return Double(low) }
        // Keep the top 64 bits of the 128-bit product; fold the rest into a sticky bit.
        let zeros = high.leadingZeroBitCount
        let dropped = 64 - zeros
        var top = high << zeros | low >> dropped
        let droppedMask: UInt64 = dropped == 64 ? ~0 : (1 << dropped) - 1
        if low & droppedMask != 0 { top |= 1 }
        return Double(sign: .plus, exponent: dropped, significand: Double(top))
    }

    /// m / d for d = 10^k ≤ 10¹⁹, correctly rounded.
    private static func quotient(_ m: UInt64, _ d: UInt64) -> Double {
        let mBits = 64 - m.leadingZeroBitCount
        let dBits = 64 - d.leadingZeroBitCount
        // Shift m left by s so the quotient lands in [2⁶², 2⁶⁴): 63 or 64 significant bits,
        // and (m << s) < 2^(63 + dBits) ≤ 2¹²⁷ still fits in two words.
        let s = 63 + dBits - mBits
        let high: UInt64 = s >= 64 ? m << (s - 64) : (s == 0 ? 0 : m >> (64 - s))
        let low: UInt64 = s >= 64 ? 0 : m << s
        let (q, r) = d.dividingFullWidth((high: high, low: low))
        return Double(sign: .plus, exponent: -s, significand: Double(r == 0 ? q : q | 1))
    }

    /// 10⁰ … 10²², every one exactly representable as a `Double`.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10⁰ … 10¹⁹, the powers of ten that fit in 64 bits.
    private static let integerPowersOfTen: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 1...19 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
}
