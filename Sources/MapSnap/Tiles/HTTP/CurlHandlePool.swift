/// Idle curl handles by host, so the next transfer to a host reuses a kept-alive connection
/// (tile servers ask for that) instead of opening a new one.
///
/// A handle is only ever handed back to transfers of the host it was used for and keeps at
/// most one idle connection, so the idle connections to a host never outnumber that host's
/// connection cap. At most `totalLimit` handles are kept in all; the least recently used
/// go first.
final class CurlHandlePool: Sendable {
    /// The pool of the process.
    static let shared = CurlHandlePool()

    /// Idle handles kept across all hosts.
    static let totalLimit = 32

    private struct Idle {
        var key: String
        var easy: CurlEasy
    }

    /// Least recently used first.
    private let idle = Locked<[Idle]>([])  // not `Mutex`: see `HostGate.state`

    /// An idle handle last used for `key`, or nil.
    func take(_ key: String) -> CurlEasy? {
        idle.withLock { list -> CurlEasy? in
            guard let i = list.lastIndex(where: { $0.key == key }) else { return nil }
            return list.remove(at: i).easy
        }
    }

    /// Keeps `easy` for the next transfer to `key`, unless `key` already has `limit` idle
    /// handles. Handles dropped here are cleaned up (their connections closed) outside the lock.
    func put(_ easy: CurlEasy, key: String, limit: Int) {
        // The handles dropped come back out of the lock and are freed after it.
        _ = idle.withLock { list -> [CurlEasy] in
            var out: [CurlEasy] = []
            if list.count(where: { $0.key == key }) >= max(limit, 0) {
                out.append(easy)
            } else {
                list.append(Idle(key: key, easy: easy))
            }
            while list.count > Self.totalLimit { out.append(list.removeFirst().easy) }
            return out
        }
    }
}
