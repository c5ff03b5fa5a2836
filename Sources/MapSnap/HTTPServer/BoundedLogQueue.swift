import Foundation
import Synchronization

/// Log entries handed from threads that must not wait (libmicrohttpd's event loop) to one
/// writer thread, which formats and writes them.
///
/// Bounded: when the writer falls behind — standard error piped to a reader that stopped
/// reading blocks every write — new entries are dropped and counted instead of queued without
/// limit or waited for, so a blocked log never delays a connection or grows memory.
final class BoundedLogQueue<Entry: Sendable>: Sendable {
    private struct State {
        var entries: [Entry] = []
        var head = 0
        var writing = false
        var stopped = false
    }

    /// Most entries waiting to be written.
    let capacity: Int
    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)
    private let dropped = Atomic<Int>(0)
    private let write: @Sendable (Entry) -> Void

    /// Starts the writer thread; `write` is called there, in order, once per kept entry.
    init(capacity: Int = 4_096, write: @escaping @Sendable (Entry) -> Void) {
        self.capacity = max(1, capacity)
        self.write = write
        // The thread holds the queue weakly: a queue nobody stops still goes away, and its
        // `deinit` wakes the thread to end.
        let ready = self.ready
        let thread = Thread { [weak self] in
            while true {
                ready.wait()
                guard let self, self.writeNext() else { return }
            }
        }
        thread.name = "mapsnap.log"
        thread.start()
    }

    deinit { ready.signal() }

    /// Entries dropped because the queue was full.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Queues `entry` without waiting; false (and counted) when the queue is full.
    @discardableResult
    func enqueue(_ entry: Entry) -> Bool {
        let kept = state.withLock { s -> Bool in
            guard !s.stopped, s.entries.count - s.head < capacity else { return false }
            s.entries.append(entry)
            return true
        }
        if kept {
            ready.signal()
        } else {
            dropped.wrappingAdd(1, ordering: .relaxed)
        }
        return kept
    }

    /// Waits up to `timeout` for the entries queued so far to be written; true when they were.
    @discardableResult
    func flush(timeout: Duration = .seconds(2)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ $0.entries.count == $0.head && !$0.writing }) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }

    /// Writes what is queued (up to `timeout`), then ends the writer thread; later entries are dropped.
    func stop(timeout: Duration = .seconds(2)) {
        flush(timeout: timeout)
        state.withLock { $0.stopped = true }
        ready.signal()
    }

    /// Writes the next entry, if any; false when the queue is stopped and empty.
    private func writeNext() -> Bool {
        let next = state.withLock { s -> (entry: Entry?, stop: Bool) in
            guard s.head < s.entries.count else { return (nil, s.stopped) }
            let entry = s.entries[s.head]
            s.head += 1
            if s.head == s.entries.count {
                s.entries.removeAll(keepingCapacity: true)
                s.head = 0
            }
            s.writing = true
            return (entry, false)
        }
        if next.stop { return false }
        guard let entry = next.entry else { return true }
        write(entry)
        state.withLock { $0.writing = false }
        return true
    }
}
