import Synchronization

/// Bytes held by all HTTP transfers of the process at once, so that many hostile responses
/// together (each under the per-tile limit) cannot exhaust memory either.
///
/// A transfer reserves the capacity of its body buffer before growing it and returns the
/// reservation when its caller is done with the body. A reservation that would pass the
/// limit is refused rather than waited for: waiting transfers that each hold part of the
/// budget could otherwise wait on one another until their deadlines. The refused attempt
/// fails and is retried later like a connection error.
final class TransferBudget: Sendable {
    /// The budget shared by every HTTP source of the process.
    static let shared = TransferBudget()

    private let held = Atomic<Int>(0)

    /// Bytes reserved right now.
    var bytesHeld: Int { held.load(ordering: .relaxed) }

    /// Reserves `bytes` when the total stays within `limit`; false (nothing reserved) otherwise.
    func reserve(_ bytes: Int, limit: Int) -> Bool {
        guard bytes > 0 else { return true }
        var current = held.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + bytes,
                                                             ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Returns `bytes` reserved earlier.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        held.subtract(bytes, ordering: .relaxed)
    }
}
