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
public final class GlyphCache: @unchecked Sendable {
    /// Identifies one rasterisation.
    public struct Key: Hashable, Sendable {
        /// `FreeTypeFace.id` — process-unique, unlike an object address.
        var faceID: Int
        var spec: GlyphRasterSpec
    }

    private struct Entry {
        var bitmap: GlyphBitmap
        var referenced: Bool
    }

    /// Most entries kept.
    public let maxEntries: Int
    /// Most coverage bytes kept.
    public let maxBytes: Int

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    /// Insertion order for the clock sweep; `queue[head...]` are live positions.
    private var queue: [Key] = []
    private var head = 0
    private var bytes = 0

    /// A cache shared by renderers that are not given their own.
    public static let shared = GlyphCache()

    /// A cache holding at most `maxEntries` glyphs and `maxBytes` bytes of coverage.
    public init(maxEntries: Int = 8192, maxBytes: Int = 32 << 20) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }

    /// The glyph's bitmap, from the cache or freshly rasterised.
    public func bitmap(_ face: FreeTypeFace, _ spec: GlyphRasterSpec) -> GlyphBitmap {
        let key = Key(faceID: face.id, spec: spec)
        lock.lock()
        if let hit = entries[key] {
            if !hit.referenced { entries[key]?.referenced = true }
            lock.unlock()
            return hit.bitmap
        }
        lock.unlock()
        let bitmap = face.rasterize(spec)
        insert(key, bitmap)
        return bitmap
    }

    /// Number of cached glyphs.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Coverage bytes held.
    public var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    /// Drops every entry.
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll()
        queue.removeAll()
        head = 0
        bytes = 0
    }

    private func insert(_ key: Key, _ bitmap: GlyphBitmap) {
        // A single glyph bigger than the whole budget is returned but not kept.
        guard bitmap.byteCount <= maxBytes else { return }
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil else { return }
        entries[key] = Entry(bitmap: bitmap, referenced: false)
        queue.append(key)
        bytes += bitmap.byteCount
        while entries.count > maxEntries || bytes > maxBytes, head < queue.count {
            let victim = queue[head]
            head += 1
            guard let entry = entries[victim] else { continue }
            if entry.referenced {
                // Second chance: clear the bit and send it to the back of the line.
                entries[victim]?.referenced = false
                queue.append(victim)
            } else {
                entries[victim] = nil
                bytes -= entry.bitmap.byteCount
            }
        }
        // Keep the queue's dead prefix from growing without bound.
        if head > 1024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }
}
