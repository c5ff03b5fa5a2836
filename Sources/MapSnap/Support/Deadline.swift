/// A moment after which work should give up: a render's time limit, handed to whatever may
/// wait on something outside the process (a tile query, a network transfer).
///
/// Measured on the monotonic `ContinuousClock`, so changing the wall clock neither extends
/// nor cuts short a deadline. `Deadline.none` never passes.
package struct Deadline: Sendable, Hashable, Comparable {
    /// The instant at which the deadline passes; nil = never.
    package let instant: ContinuousClock.Instant?

    /// A deadline at `instant` (nil: never).
    package init(_ instant: ContinuousClock.Instant?) {
        self.instant = instant
    }

    /// A deadline that never passes.
    package static let none = Deadline(nil)

    /// The deadline `seconds` from now; nil, infinite or absurdly large means never. A value
    /// ≤ 0 has already passed.
    package static func after(seconds: Double?) -> Deadline {
        // Durations beyond ~3 centuries overflow `Duration`; they mean "never" anyway.
        guard let seconds, seconds.isFinite, seconds < 1e10 else { return .none }
        return Deadline(ContinuousClock.now.advanced(by: .nanoseconds(Int64((max(seconds, 0) * 1e9).rounded()))))
    }

    /// True once the deadline has passed.
    package var hasPassed: Bool {
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }

    /// Seconds left (0 once passed); nil for a deadline that never passes.
    package var remainingSeconds: Double? {
        guard let instant else { return nil }
        let left = ContinuousClock.now.duration(to: instant)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
        return max(0, seconds)
    }

    /// The earlier of two deadlines.
    package static func earliest(_ a: Deadline, _ b: Deadline) -> Deadline { min(a, b) }

    /// Earlier deadlines sort first; `none` sorts last.
    package static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        switch (lhs.instant, rhs.instant) {
        case let (l?, r?): return l < r
        case (_?, nil): return true
        default: return false
        }
    }
}
