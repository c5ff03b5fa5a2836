import Synchronization

/// Decoded tiles shared by the renders of one `MapRenderer`, bounded by an estimate of the
/// memory they hold.
///
/// A tile is decoded by exactly the same code whether it comes from here or not, so a
/// render's output never depends on what happens to be cached. Failures are not cached
/// (the next render tries again and reports again); tiles a source does not have are.
/// Eviction drops the least recently used quarter of the budget at a time.
final class DecodedTileCache: Sendable {
    /// What a payload was decoded as: the same bytes can be vector data, an image or
    /// elevations depending on the style source that asks.
    enum Kind: Hashable, Sendable {
        case vector
        case raster
        case dem(DEMEncoding)
    }

    struct Key: Hashable, Sendable {
        /// `TileSourceRegistry` id of the source: process-unique, never reused.
        let sourceID: Int
        let tile: TileID
        let kind: Kind
    }

    private struct Entry {
        let payload: LoadedSource.Payload
        let bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// Most bytes (estimated) kept; 0 disables the cache.
    let capacityBytes: Int
    private let state = Locked(State())
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)
    var hits: Int { hitCount.load(ordering: .relaxed) }
    var misses: Int { missCount.load(ordering: .relaxed) }

    init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    func payload(for key: Key) -> LoadedSource.Payload? {
        let found: LoadedSource.Payload? = capacityBytes == 0 ? nil : state.withLock { s in
            guard var e = s.entries[key] else { return nil }
            s.clock &+= 1
            e.lastUse = s.clock
            s.entries[key] = e
            return e.payload
        }
        if found == nil { missCount.add(1, ordering: .relaxed) } else { hitCount.add(1, ordering: .relaxed) }
        return found
    }

    func store(_ payload: LoadedSource.Payload, for key: Key) {
        let size = Self.estimatedBytes(payload)
        guard capacityBytes > 0, size <= capacityBytes / 4 else { return }
        state.withLock { s in
            s.clock &+= 1
            if let old = s.entries.updateValue(Entry(payload: payload, bytes: size, lastUse: s.clock), forKey: key) {
                s.bytes -= old.bytes
            }
            s.bytes += size
            guard s.bytes > capacityBytes else { return }
            // Drop the least recently used entries down to three quarters of the budget.
            let oldestFirst = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (k, e) in oldestFirst where s.bytes > capacityBytes * 3 / 4 {
                s.entries[k] = nil
                s.bytes -= e.bytes
            }
        }
    }

    /// Bytes held by the cache (estimated).
    var currentBytes: Int { state.withLock { $0.bytes } }

    /// Decoded tiles hold their bytes plus decoded layers (vector), or their pixels.
    static func estimatedBytes(_ payload: LoadedSource.Payload) -> Int {
        switch payload {
        case .vector(let tile): return 64 + tile.bytes.count * 3
        case .raster(let image): return 64 + image.width * image.height * 4
        case .dem(let dem): return 64 + dem.side * dem.side * 4
        case .missing: return 64
        }
    }
}
