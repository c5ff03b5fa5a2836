import Dispatch
import Foundation

/// A fixed pool of render threads fed from a bounded FIFO: at most `capacity` jobs are
/// admitted at once (running or waiting), and at most `perClientLimit` from one client.
/// Refusing at admission, instead of queueing without bound, keeps latency and memory
/// bounded under overload; the server answers the refused with `503`/`429`.
final class RenderQueue: Sendable {
    /// Why a job was not admitted.
    enum Refusal: Error, Equatable {
        /// `capacity` jobs are already admitted.
        case full
        /// The client already has `perClientLimit` jobs admitted.
        case clientLimit
        /// The queue is shutting down.
        case stopped
    }

    private struct Job {
        var client: String
        var work: @Sendable () -> Void
        /// Called instead of `work` when the job is dropped at shutdown.
        var cancel: @Sendable () -> Void = {}
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var running = 0
        var perClient: [String: Int] = [:]
        var stopping = false
        var waiting: Int { jobs.count - head }
    }

    let capacity: Int
    let perClientLimit: Int
    let threadCount: Int
    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// Starts `threads` workers. Each gets an 8 MiB stack, as the main thread has.
    init(threads: Int, capacity: Int, perClientLimit: Int = 0) {
        self.capacity = max(1, capacity)
        self.perClientLimit = max(0, perClientLimit)
        threadCount = max(1, threads)
        for i in 0..<threadCount {
            finished.enter()
            let thread = Thread { [self] in
                work()
                finished.leave()
            }
            thread.name = "mapsnap-render-\(i)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Admits `work` to run on a render thread, or says why not. `cancel` runs instead of
    /// `work` when the job is still waiting when `shutdown(until:)` gives up on it.
    func submit(client: String, cancel: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () -> Void) throws(Refusal) {
        let refusal = state.withLock { s -> Refusal? in
            if s.stopping { return .stopped }
            if s.waiting + s.running >= capacity { return .full }
            if perClientLimit > 0, s.perClient[client, default: 0] >= perClientLimit { return .clientLimit }
            s.perClient[client, default: 0] += 1
            // Drop the consumed prefix now and then, so the array does not grow forever.
            if s.head > 1_024 && s.head * 2 > s.jobs.count {
                s.jobs.removeFirst(s.head)
                s.head = 0
            }
            s.jobs.append(Job(client: client, work: work, cancel: cancel))
            return nil
        }
        if let refusal { throw refusal }
        available.signal()
    }

    /// Jobs waiting for a thread.
    var waiting: Int { state.withLock { $0.waiting } }
    /// Jobs running now.
    var running: Int { state.withLock { $0.running } }

    /// Runs what is admitted, then stops the threads (waits for them).
    func shutdown() {
        _ = shutdown(until: nil)
    }

    /// Admits nothing more; jobs still waiting at `deadline` are dropped (their `cancel`
    /// runs), and the threads are waited for until then. Returns false when renders were
    /// still running at the deadline: they finish on their own, unwaited (the process is
    /// exiting). nil: wait for everything.
    func shutdown(until deadline: ContinuousClock.Instant?) -> Bool {
        state.withLock { $0.stopping = true }
        for _ in 0..<threadCount { available.signal() }
        guard let deadline else {
            finished.wait()
            return true
        }
        // Waiting jobs run while there is time; at the deadline the rest are cancelled.
        let left = max(0, FetchClock.seconds(from: .now, to: deadline))
        if finished.wait(timeout: .now() + left) == .success { return true }
        let dropped = state.withLock { s -> [Job] in
            let rest = Array(s.jobs[s.head...])
            s.jobs = []
            s.head = 0
            return rest
        }
        for job in dropped { job.cancel() }
        return finished.wait(timeout: .now() + 0.05) == .success
    }

    private func work() {
        while true {
            available.wait()
            let next = state.withLock { s -> Job? in
                guard s.head < s.jobs.count else { return nil }
                let job = s.jobs[s.head]
                s.jobs[s.head] = Job(client: "", work: {})
                s.head += 1
                s.running += 1
                return job
            }
            // A signal without a job is shutdown's: the queue is empty and stopping.
            guard let job = next else { return }
            job.work()
            state.withLock { s in
                s.running -= 1
                let left = s.perClient[job.client, default: 1] - 1
                s.perClient[job.client] = left > 0 ? left : nil
            }
        }
    }
}
