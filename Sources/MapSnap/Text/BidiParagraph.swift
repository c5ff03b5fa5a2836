internal import CFriBiDi

/// The Unicode bidirectional algorithm (UAX #9) for one paragraph, by FriBiDi: an embedding
/// level per scalar (even = left to right, odd = right to left) and the paragraph's base
/// direction, from its first strong character (rules P2–P3) unless the caller fixes it.
///
/// This file is the only importer of `CFriBiDi`. Visual reordering of a line (rule L2) is
/// `visualOrder(levels:)`, done on runs by the layout, which also has to keep each run's
/// shaped glyphs together.
struct BidiParagraph: Sendable, Hashable {
    /// Embedding level of each scalar of the paragraph.
    let levels: [UInt8]
    /// Whether the paragraph's base direction is right to left.
    let isRightToLeft: Bool

    /// Resolves `scalars`. `rightToLeft` fixes the base direction; `nil` takes it from the
    /// first strong character (left to right when there is none). Should FriBiDi fail (it
    /// only does when out of memory), every level is the base level: text stays drawable.
    init(_ scalars: [UInt32], rightToLeft: Bool? = nil) {
        var base: Int32 = rightToLeft.map { $0 ? 1 : 0 } ?? -1
        var raw = [Int8](repeating: 0, count: scalars.count)
        let ok = scalars.count <= Int(Int32.max) && scalars.withUnsafeBufferPointer { text in
            raw.withUnsafeMutableBufferPointer { out in
                mapsnap_fribidi_levels(text.baseAddress, Int32(text.count), &base, out.baseAddress) == 1
            }
        }
        let rtl = ok ? base == 1 : (rightToLeft ?? false)
        isRightToLeft = rtl
        levels = ok ? raw.map { UInt8(clamping: $0) } : Array(repeating: rtl ? 1 : 0, count: scalars.count)
    }

    /// Rule L2: the visual order of items (runs) with the given levels — from the highest
    /// level down to the lowest odd one, every maximal sequence at that level or above is
    /// reversed. Returns indices into `levels`, leftmost first.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count, levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }

    /// The version of the FriBiDi this process was built against, for `--version`.
    static var libraryVersion: String {
        String(cString: mapsnap_fribidi_version())
    }
}
