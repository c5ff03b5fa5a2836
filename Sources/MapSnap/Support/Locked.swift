import Foundation

/// A value behind a lock, shared between threads: the project's one lock primitive.
///
/// Every access goes through `withLock`, so the value is only ever touched by one thread at a
/// time; that is what makes the unchecked `Sendable` conformance sound, and why types holding
/// their mutable state in a `Locked` need no unchecked conformance of their own.
///
/// Used instead of Synchronization's `Mutex`: on Linux `Mutex` waits on futexes inside the
/// uninstrumented runtime, so ThreadSanitizer cannot see it order anything and reports
/// every access it guards as a race; a pthread mutex (`NSLock`) it understands.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
