/// Conversions between seconds (as options give them) and instants of the monotonic clock
/// that deadlines use.
enum FetchClock {
    static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let d = start.duration(to: end).components
        return Double(d.seconds) + Double(d.attoseconds) * 1e-18
    }

    /// Seconds from now until `deadline` (negative once it passed).
    static func secondsLeft(until deadline: ContinuousClock.Instant) -> Double { seconds(from: .now, to: deadline) }

    /// `seconds` after `start` (clamped to 0…1 day, so absurd option values cannot overflow).
    static func instant(after seconds: Double, from start: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
        let clamped = seconds.isFinite ? min(max(seconds, 0), 86_400) : (seconds > 0 ? 86_400 : 0)
        return start + .milliseconds(Int64((clamped * 1000).rounded(.up)))
    }
}
