import Foundation

/// A value behind a lock, shared between threads (prefetch workers, concurrent test code).
///
/// Used instead of Synchronization's `Mutex`: on Linux `Mutex` waits on futexes inside the
/// uninstrumented runtime, so ThreadSanitizer cannot see it order anything and reports
/// every access it guards as a race; a pthread mutex it understands.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
