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
}
