/// Encoded images by `ETag`, least recently used first out, within a byte budget.
///
/// Embedded static maps are requested again and again with the same URL (every visitor of a
/// page, every browser without the image in its cache); the `ETag` already names everything
/// an image depends on (request, style, configuration, data files, version), so an image
/// found here is the image a render would produce, byte for byte. Only complete renders are
/// stored (see `StaticMapServer`): a map with a failed tile could look different next time.
final class ResponseCache: Sendable {
    /// A stored image and what it was answered with.
    struct Entry: Sendable {
        var contentType: String
        /// Shared with every response that sends it (never copied per request).
        var body: HTTPBody
        var note: String
        /// Headers the image was answered with besides its type and caching (`X-Mapsnap-Detail`).
        var headers: [(name: String, value: String)] = []
    }

    private struct State {
        var entries: [String: (entry: Entry, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// Most bytes of images held; 0 turns the cache off.
    let budget: Int
    private let state = Locked(State())

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The image stored under `tag`, counting a hit or a miss.
    func entry(for tag: String) -> Entry? {
        guard budget > 0 else { return nil }
        return state.withLock { s in
            guard let found = s.entries[tag] else {
                s.misses += 1
                return nil
            }
            s.clock += 1
            s.entries[tag]?.lastUse = s.clock
            s.hits += 1
            return found.entry
        }
    }

    /// Stores `entry` under `tag`, dropping the least recently used images beyond the budget.
    /// An image larger than an eighth of the budget is not kept (one huge map must not
    /// empty the cache).
    func store(_ entry: Entry, for tag: String) {
        guard budget > 0, entry.body.count <= budget / 8 else { return }
        state.withLock { s in
            if let old = s.entries[tag] { s.bytes -= old.entry.body.count }
            s.clock += 1
            s.entries[tag] = (entry, s.clock)
            s.bytes += entry.body.count
            while s.bytes > budget, let oldest = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= oldest.value.entry.body.count
                s.entries[oldest.key] = nil
            }
        }
    }

    /// Hits, misses, images and bytes held, for the metrics.
    var statistics: (hits: Int, misses: Int, count: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
    }
}
