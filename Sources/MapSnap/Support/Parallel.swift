import Dispatch
import Foundation

/// Runs `body(i)` for every `i` in `0..<count` on at most `maxThreads` threads (nil: one
/// per core). Work is handed out in `order` (default 0, 1, 2, …); callers write results
/// into slot `i`, so the outcome never depends on thread count or finishing order.
enum Parallel {
    static func forEach(_ count: Int, maxThreads: Int?, order: [Int]? = nil, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(count, maxThreads ?? ProcessInfo.processInfo.activeProcessorCount))
        let sequence = order ?? Array(0..<count)
        if threads == 1 {
            for i in sequence { body(i) }
            return
        }
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let k = next.take(below: sequence.count) { body(sequence[k]) }
        }
    }

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func take(below limit: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}
