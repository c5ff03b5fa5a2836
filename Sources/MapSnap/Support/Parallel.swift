import Dispatch
import Foundation

/// Runs `body(i)` for every `i` in `0..<count` on at most `maxThreads` threads (nil: one
/// per core). Work is handed out in `order` (default 0, 1, 2, …); callers write results
/// into slot `i`, so the outcome never depends on thread count or finishing order.
package enum Parallel {
    package static func forEach(_ count: Int, maxThreads: Int?, order: [Int]? = nil, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(count, maxThreads ?? ProcessInfo.processInfo.activeProcessorCount))
        let sequence = order ?? Array(0..<count)
        if threads == 1 {
            for i in sequence { body(i) }
            return
        }
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let k = next.withLock({ n -> Int? in
                guard n < sequence.count else { return nil }
                n += 1
                return n - 1
            }) {
                body(sequence[k])
            }
        }
    }

    /// `forEach` for work that mostly waits (network transfers): on `threads` threads of its
    /// own, however many cores there are — Dispatch's `concurrentPerform` runs at most one
    /// iteration per core, so nine tiles from a slow server would take nine delays on two
    /// cores. Returns when every `body(i)` has.
    package static func forEachWaiting(_ count: Int, threads: Int, order: [Int]? = nil,
                                       _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let width = max(1, min(count, threads))
        guard width > 1 else { return forEach(count, maxThreads: 1, order: order, body) }
        let sequence = order ?? Array(0..<count)
        let next = Locked(0)
        // `body` is escaping because each `Thread` keeps its block until the thread object
        // goes, after the wait below; it is never called after this function returns.
        let done = DispatchGroup()
        for _ in 0..<width {
            done.enter()
            let thread = Thread {
                while let k = next.withLock({ n -> Int? in
                    guard n < sequence.count else { return nil }
                    n += 1
                    return n - 1
                }) {
                    body(sequence[k])
                }
                done.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        done.wait()
    }

    /// `body(i)` for every `i` in `0..<count`, run as `forEach` runs it; the results in
    /// index order, whatever the thread count or finishing order.
    package static func map<T: Sendable>(_ count: Int, maxThreads: Int?, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each slot is written once, by the one iteration that owns it.
            let slots = UnsafeMutableSendableBuffer(buffer)
            forEach(count, maxThreads: maxThreads) { i in
                (slots.base.baseAddress! + i).initialize(to: body(i))
            }
            initialized = count
        }
    }
}

/// Work started on another thread now and waited for when its result is needed: a render
/// makes a long route's fills while it draws the base map.
///
/// The work runs on a queue of its own (one that gets a thread even when every worker of the
/// shared pool is busy or waiting), so waiting for it from a pool thread cannot deadlock.
package final class Pending<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Value?>(nil)

    package init(_ work: @escaping @Sendable () -> Value) {
        let done = self.done, result = self.result
        DispatchQueue(label: "mapsnap.pending").async {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    /// The result, waiting for the work to finish. Call from one thread.
    package var value: Value {
        if let ready = result.withLock({ $0 }) { return ready }
        done.wait()
        done.signal()  // a later read finds the result without waiting
        return result.withLock { $0 }!
    }
}
