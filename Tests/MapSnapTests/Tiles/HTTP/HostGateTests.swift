import Foundation
import Testing
@testable import MapSnap

/// The per-host cap, breaker and Retry-After hold on a private gate (the shared one is
/// process-wide).
@Suite struct HostGateTests {
    static let policy = HostGate.Policy(cap: 2, breakerThreshold: 3, breakerCooldown: 0.3, maxRetryAfter: 5)
    static func soon(_ seconds: Double) -> ContinuousClock.Instant { FetchClock.instant(after: seconds) }

    @Test func capHoldsUntilASlotIsFreed() throws {
        let gate = HostGate()
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
        #expect(throws: HostGate.Refusal.deadline) { try gate.admit("h:1", policy: Self.policy, deadline: Self.soon(0.1)) }
        // Another host is not affected.
        try gate.admit("h:2", policy: Self.policy, deadline: Self.soon(0.1))
        // A waiter gets the slot as soon as it is released.
        let admitted = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let ok = (try? gate.admit("h:1", policy: Self.policy, deadline: Self.soon(20))) != nil
            admitted.withLock { $0 = ok }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        gate.release("h:1", report: .answered, policy: Self.policy)
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(admitted.withLock { $0 } == true)
    }

    /// A clock the test moves: the breaker's pause passes when the test says, not after a
    /// sleep that a busy machine may stretch past the next step.
    final class ManualClock: Sendable {
        private let instant = Locked(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ seconds: Double) { instant.withLock { $0 = FetchClock.instant(after: seconds, from: $0) } }
    }

    @Test func breakerOpensAfterThreeFailuresAndClosesOnAnAnswer() throws {
        let clock = ManualClock()
        let gate = HostGate(now: { clock.now })
        for _ in 0..<3 {
            try gate.admit("h:1", policy: Self.policy, deadline: nil)
            gate.release("h:1", report: .unreachable, policy: Self.policy)
        }
        #expect {
            try gate.admit("h:1", policy: Self.policy, deadline: nil)
        } throws: { error in
            guard case .breakerOpen(3, let remaining)? = error as? HostGate.Refusal else { return false }
            return abs(remaining - 0.3) < 1e-9
        }
        clock.advance(0.29)
        #expect(throws: HostGate.Refusal.self) { try gate.admit("h:1", policy: Self.policy, deadline: nil) }
        clock.advance(0.01)
        // After the pause one request goes through; one more failure reopens at once.
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
        gate.release("h:1", report: .unreachable, policy: Self.policy)
        #expect(throws: HostGate.Refusal.self) { try gate.admit("h:1", policy: Self.policy, deadline: nil) }
        clock.advance(0.3)
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
        gate.release("h:1", report: .answered, policy: Self.policy)
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
        gate.release("h:1", report: .unreachable, policy: Self.policy)
        try gate.admit("h:1", policy: Self.policy, deadline: nil)  // one failure after an answer: still closed
    }

    /// A `Retry-After` hold beyond the caller's patience is refused with what remains of it,
    /// on the test's clock.
    @Test func retryAfterRemainingFollowsTheClock() throws {
        let clock = ManualClock()
        let gate = HostGate(now: { clock.now })
        gate.postpone("h:1", seconds: 10)
        clock.advance(3)
        #expect {
            try gate.admit("h:1", policy: Self.policy, deadline: nil)
        } throws: { error in
            guard case .postponed(let remaining)? = error as? HostGate.Refusal else { return false }
            return abs(remaining - 7) < 1e-9
        }
        clock.advance(7)
        try gate.admit("h:1", policy: Self.policy, deadline: nil)
    }

    @Test func retryAfterHoldsTheHost() throws {
        let gate = HostGate()
        gate.postpone("h:1", seconds: 10)
        #expect {
            try gate.admit("h:1", policy: Self.policy, deadline: nil)  // waits at most 5 s
        } throws: { error in
            guard case .postponed(let remaining)? = error as? HostGate.Refusal else { return false }
            return remaining > 5 && remaining <= 10
        }
        var patient = Self.policy
        patient.maxRetryAfter = 60
        #expect(throws: HostGate.Refusal.self) { try gate.admit("h:1", policy: patient, deadline: Self.soon(1)) }
        gate.postpone("h:2", seconds: 0.2)
        let start = ContinuousClock.now
        try gate.admit("h:2", policy: Self.policy, deadline: Self.soon(20))
        #expect(FetchClock.seconds(from: start, to: .now) >= 0.15)
    }
}
