/// Shaped runs by text, face, direction and script, in design units — so independent of
/// size: a street name shaped once serves every size and every render of the renderer whose
/// text engine owns the cache.
/// Shaping is a pure function of the key, so a hit is exactly what a miss would compute.
final class ShapingCache: Sendable {
    /// Holds its face, so the face's identity cannot be reused while its runs are kept.
    private struct Key: Hashable {
        let scalars: [UInt32]
        let face: FreeTypeFace
        let rightToLeft: Bool
        let script: UInt32

        static func == (a: Key, b: Key) -> Bool {
            a.face === b.face && a.rightToLeft == b.rightToLeft && a.script == b.script && a.scalars == b.scalars
        }

        func hash(into h: inout Hasher) {
            h.combine(scalars)
            h.combine(ObjectIdentifier(face))
            h.combine(rightToLeft)
            h.combine(script)
        }
    }

    /// At most this many runs are kept; a full cache starts again empty.
    static let capacity = 16_384
    private let entries = Locked<[Key: [ShapedGlyph]]>([:])

    /// The glyphs of `scalars` shaped as one run, clusters indexing `scalars`.
    func glyphs(_ scalars: [UInt32], face: FreeTypeFace, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        let key = Key(scalars: scalars, face: face, rightToLeft: rightToLeft, script: script)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let made = face.shape(scalars, range: 0..<scalars.count, rightToLeft: rightToLeft, script: script)
        entries.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
        }
        return made
    }

    /// How many runs are kept (tests).
    var count: Int { entries.withLock { $0.count } }
}
