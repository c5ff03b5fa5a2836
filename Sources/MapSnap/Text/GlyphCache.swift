import Foundation

/// A bounded cache of rasterised glyphs, keyed by everything that changes their pixels
/// (face, glyph, size in 1/64 px, sub-pixel offset, rotation bucket, halo radius).
///
/// The key is the complete input of `FreeTypeFace.rasterize`, so a hit returns exactly the
/// bitmap a miss would compute: output never depends on what happens to be cached.
/// Eviction is "second chance" (the CLOCK approximation of least-recently-used): entries hit
/// since the last sweep survive one more round. Both limits are enforced after every insert.
/// Rasterisation happens outside the lock; two threads missing on the same key both compute
/// the same bitmap and one insert wins.
final class GlyphCache: Sendable {
    /// Identifies one rasterisation.
    struct Key: Hashable, Sendable {
        /// `FreeTypeFace.id` — process-unique, unlike an object address.
        var faceID: Int
        var spec: GlyphRasterSpec
    }

    private struct Entry {
        var bitmap: GlyphBitmap
        var referenced: Bool
    }

    /// What the lock guards.
    private struct State {
        var entries: [Key: Entry] = [:]
        /// Insertion order for the clock sweep; `queue[head...]` are live positions.
        var queue: [Key] = []
        var head = 0
        var bytes = 0
    }

    /// Most entries kept.
    let maxEntries: Int
    /// Most coverage bytes kept.
    let maxBytes: Int

    private let state = Locked(State())

    /// A cache holding at most `maxEntries` glyphs and `maxBytes` bytes of coverage.
    init(maxEntries: Int = 8192, maxBytes: Int = 32 << 20) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }

    /// The glyph's bitmap, from the cache or freshly rasterised.
    func bitmap(_ face: FreeTypeFace, _ spec: GlyphRasterSpec) -> GlyphBitmap {
        let key = Key(faceID: face.id, spec: spec)
        let hit = state.withLock { s -> GlyphBitmap? in
            guard let hit = s.entries[key] else { return nil }
            if !hit.referenced { s.entries[key]?.referenced = true }
            return hit.bitmap
        }
        if let hit { return hit }
        let bitmap = face.rasterize(spec)
        insert(key, bitmap)
        return bitmap
    }

    /// Number of cached glyphs.
    var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Coverage bytes held.
    var byteCount: Int {
        state.withLock { $0.bytes }
    }

    /// Drops every entry.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    private func insert(_ key: Key, _ bitmap: GlyphBitmap) {
        // A single glyph bigger than the whole budget is returned but not kept.
        guard bitmap.byteCount <= maxBytes else { return }
        state.withLock { s in
            guard s.entries[key] == nil else { return }
            s.entries[key] = Entry(bitmap: bitmap, referenced: false)
            s.queue.append(key)
            s.bytes += bitmap.byteCount
            while s.entries.count > maxEntries || s.bytes > maxBytes, s.head < s.queue.count {
                let victim = s.queue[s.head]
                s.head += 1
                guard let entry = s.entries[victim] else { continue }
                if entry.referenced {
                    // Second chance: clear the bit and send it to the back of the line.
                    s.entries[victim]?.referenced = false
                    s.queue.append(victim)
                } else {
                    s.entries[victim] = nil
                    s.bytes -= entry.bitmap.byteCount
                }
            }
            // Keep the queue's dead prefix from growing without bound.
            if s.head > 1024 && s.head * 2 > s.queue.count {
                s.queue.removeFirst(s.head)
                s.head = 0
            }
        }
    }
}
