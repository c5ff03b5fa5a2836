import Dispatch
import Foundation

/// What every HTTP source of the process knows about each host (`host:port`), so that all
/// renders together — a batch's jobs, a server's requests — behave as one polite client:
///
/// - **Connection cap.** At most `cap` transfers to a host at once; more callers wait (in
///   arrival order, until their deadline) for a free slot.
/// - **Circuit breaker.** After `breakerThreshold` connection failures or timeouts in a row,
///   the host is left alone for `breakerCooldown` seconds: callers fail at once instead of
///   each waiting for its own timeouts. After the pause, requests go through again; one
///   more failure reopens the breaker, one response closes it.
/// - **Retry-After.** A 429 or 503 with `Retry-After` holds every request to that host until
///   the time given (at most an hour). A caller waits for it when the wait is within its
///   `maxRetryAfter` and its deadline, and fails at once otherwise.
///
/// Hosts are counted per `Purpose`: marker icons come from URLs a client chose, so an icon
/// that hangs (or a path that answers `Retry-After`) on the tile host must not stop that
/// host's tiles, nor the other way round. Callers key their calls with `key(_:_:)`.
final class HostGate: Sendable {
    /// What transfers are for; each purpose has its own caps, breakers and holds per host.
    enum Purpose: String, Sendable, Hashable {
        /// What a map is made of: tiles, styles, TileJSON, sprites, archive ranges, routes.
        case maps
        /// Marker icons (URLs from the request).
        case icons
    }

    /// The key `admit`, `release` and `postpone` take for `host` (`host:port`) used for `purpose`.
    static func key(_ host: String, _ purpose: Purpose) -> String {
        purpose == .maps ? host : "\(purpose.rawValue) \(host)"
    }

    /// The gate shared by the whole process.
    static let shared = HostGate()

    /// The time the gate's breaker pauses and holds are measured in: `ContinuousClock.now`,
    /// or a test's own clock, which it advances instead of sleeping (so that a test of a
    /// 0.3 s pause does not depend on how fast the machine runs it). Waits for a slot or a
    /// `Retry-After` hold still sleep in real time: give them the real clock.
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// The caller's limits (from its source's options).
    struct Policy: Sendable {
        var cap: Int
        var breakerThreshold: Int
        var breakerCooldown: Double
        var maxRetryAfter: Double
    }

    /// Why a request may not go out.
    enum Refusal: Error, Equatable {
        /// The breaker is open after `failures` failures; it closes in `remaining` seconds.
        case breakerOpen(failures: Int, remaining: Double)
        /// The host asked to wait `remaining` more seconds, longer than the caller may.
        case postponed(remaining: Double)
        /// The caller's deadline passed while it waited.
        case deadline
    }

    /// What a finished transfer says about its host.
    enum Report: Sendable {
        /// The host answered (any status): the breaker closes.
        case answered
        /// Connection failure or timeout: counts towards the breaker.
        case unreachable
        /// Says nothing about the host (the caller's own deadline, memory limit, …).
        case neutral
    }

    private struct Waiter {
        var id: Int
        var cap: Int
        var wake: DispatchSemaphore
    }

    private struct Host {
        var inFlight = 0
        var waiters: [Waiter] = []
        var failures = 0
        var openUntil: ContinuousClock.Instant?
        var notBefore: ContinuousClock.Instant?

        var isIdle: Bool { inFlight == 0 && waiters.isEmpty && failures == 0 && openUntil == nil && notBefore == nil }
    }

    private enum Decision {
        case admitted
        case refused(Refusal)
        case sleep(until: ContinuousClock.Instant)
        case wait(Waiter)
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextWaiter = 0
    }

    /// `Locked` (a pthread mutex) rather than `Mutex`: on Linux `Mutex` waits on futexes inside
    /// the uninstrumented runtime, and ThreadSanitizer then reports every contended access.
    private let state = Locked(State())

    /// Takes a connection slot for `host`, waiting as the policy says; every successful
    /// `admit` is paired with one `release`.
    func admit(_ host: String, policy: Policy, deadline: ContinuousClock.Instant?) throws(Refusal) {
        while true {
            let now = self.now()
            if let deadline, now >= deadline { throw .deadline }
            let decision = state.withLock { s -> Decision in
                var h = s.hosts[host] ?? Host()
                defer { s.hosts[host] = h }
                if let open = h.openUntil {
                    if open > now {
                        // This caller may have been woken for a free slot: pass the wake on.
                        Self.wakeNext(&h)
                        return .refused(.breakerOpen(failures: h.failures, remaining: FetchClock.seconds(from: now, to: open)))
                    }
                    h.openUntil = nil
                }
                if let notBefore = h.notBefore {
                    if notBefore > now {
                        let wait = FetchClock.seconds(from: now, to: notBefore)
                        if wait > policy.maxRetryAfter || deadline.map({ notBefore >= $0 }) == true {
                            Self.wakeNext(&h)
                            return .refused(.postponed(remaining: wait))
                        }
                        return .sleep(until: notBefore)
                    }
                    h.notBefore = nil
                }
                if h.inFlight < max(1, policy.cap) {
                    h.inFlight += 1
                    return .admitted
                }
                let waiter = Waiter(id: s.nextWaiter, cap: max(1, policy.cap), wake: DispatchSemaphore(value: 0))
                s.nextWaiter += 1
                h.waiters.append(waiter)
                return .wait(waiter)
            }
            switch decision {
            case .admitted:
                return
            case .refused(let refusal):
                throw refusal
            case .sleep(let until):
                let seconds = FetchClock.seconds(from: now, to: deadline.map { min($0, until) } ?? until)
                if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            case .wait(let waiter):
                let timeout: DispatchTime = deadline.map { .now() + FetchClock.seconds(from: .now, to: $0) } ?? .distantFuture
                if waiter.wake.wait(timeout: timeout) == .timedOut {
                    // Withdraw; if a wake-up raced with the timeout, pass it on so no slot is lost.
                    state.withLock { s in
                        guard var h = s.hosts[host] else { return }
                        if let i = h.waiters.firstIndex(where: { $0.id == waiter.id }) {
                            h.waiters.remove(at: i)
                        } else {
                            Self.wakeNext(&h)
                        }
                        s.hosts[host] = h
                    }
                    throw .deadline
                }
                // Woken: a slot was freed (or the breaker opened); decide again.
            }
        }
    }

    /// Returns the slot taken by `admit` and records what the transfer said about the host.
    func release(_ host: String, report: Report, policy: Policy) {
        state.withLock { s in
            guard var h = s.hosts[host] else { return }
            h.inFlight = max(0, h.inFlight - 1)
            switch report {
            case .answered:
                h.failures = 0
                h.openUntil = nil
            case .unreachable:
                h.failures += 1
                if h.failures >= max(1, policy.breakerThreshold) {
                    h.openUntil = FetchClock.instant(after: policy.breakerCooldown, from: now())
                    // Everyone waiting for this host can fail now rather than at their deadline.
                    for waiter in h.waiters { waiter.wake.signal() }
                    h.waiters = []
                }
            case .neutral:
                break
            }
            Self.wakeNext(&h)
            s.hosts[host] = h.isIdle ? nil : h
        }
    }

    /// Longest hold a `Retry-After` puts on a host.
    static let longestHold: Double = 3600

    /// Holds requests to `host` for `seconds` (a `Retry-After`), at most `longestHold`.
    func postpone(_ host: String, seconds: Double) {
        let until = FetchClock.instant(after: min(max(seconds, 0), Self.longestHold), from: now())
        state.withLock { s in
            var h = s.hosts[host] ?? Host()
            h.notBefore = max(h.notBefore ?? until, until)
            s.hosts[host] = h
        }
    }

    /// Wakes the longest-waiting caller whose cap admits one more transfer.
    private static func wakeNext(_ h: inout Host) {
        guard let i = h.waiters.firstIndex(where: { h.inFlight < $0.cap }) else { return }
        h.waiters.remove(at: i).wake.signal()
    }
}
