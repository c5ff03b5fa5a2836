/// Pair kerning read from an OpenType `GPOS` table (lookup type 2, "pair adjustment").
///
/// FreeType's `FT_Get_Kerning` only reads the legacy `kern` table, and modern fonts — the
/// bundled Noto Sans among them — ship their kerning in `GPOS` only. Without a shaping
/// engine we take the simple, widely useful part: the horizontal advance adjustment of the
/// first glyph (`valueRecord1.xAdvance`) from every pair-positioning lookup the font lists
/// under a `kern` feature, in any script. Contextual kerning (types 7/8) is ignored.
///
/// The table bytes are untrusted: every read is bounds-checked and a malformed subtable
/// simply contributes no kerning. Construction walks the lookup list once (bounded by the
/// table's own 16-bit counts and `maxSubtables`); each query is a few binary searches.
struct OpenTypeKerning: Sendable {
    /// One pair-positioning subtable, as a byte offset into `table`.
    private struct PairSubtable: Sendable {
        var offset: Int
        var format: UInt16
    }

    /// Lookups in list order, each a list of subtables tried in order (first match wins).
    private let lookups: [[PairSubtable]]
    private let table: [UInt8]

    /// Caps the work done on a hostile table; real fonts have a few dozen subtables.
    static let maxSubtables = 4096

    /// True when the font had at least one usable pair-kerning subtable.
    var isEmpty: Bool { lookups.isEmpty }

    /// Parses `gpos` (the raw table bytes). Never fails: an absent or malformed table gives
    /// an empty kerning that returns 0 for every pair.
    init(gpos: [UInt8]) {
        table = gpos
        let r = ByteReader(gpos)
        guard let major = r.u16(0), major == 1,
              let featureListOffset = r.u16(6), let lookupListOffset = r.u16(8) else {
            lookups = []
            return
        }
        // Lookup indices referenced by any 'kern' feature, sorted so the order is the
        // lookup-list order the spec applies them in.
        var kernLookupIndices = Set<Int>()
        let fl = Int(featureListOffset)
        let featureCount = Int(r.u16(fl) ?? 0)
        for i in 0..<featureCount {
            let rec = fl + 2 + i * 6
            guard let tag = r.u32(rec), tag == 0x6B65_726E /* 'kern' */,
                  let featureOffset = r.u16(rec + 4) else { continue }
            let feature = fl + Int(featureOffset)
            let count = Int(r.u16(feature + 2) ?? 0)
            for j in 0..<count {
                if let index = r.u16(feature + 4 + j * 2) { kernLookupIndices.insert(Int(index)) }
            }
        }
        let ll = Int(lookupListOffset)
        let lookupCount = Int(r.u16(ll) ?? 0)
        var result: [[PairSubtable]] = []
        var budget = OpenTypeKerning.maxSubtables
        for index in kernLookupIndices.sorted() where index < lookupCount {
            guard let lookupOffset = r.u16(ll + 2 + index * 2) else { continue }
            let lookup = ll + Int(lookupOffset)
            guard let type = r.u16(lookup), let subCount = r.u16(lookup + 4) else { continue }
            var subtables: [PairSubtable] = []
            for s in 0..<Int(subCount) {
                guard budget > 0, let so = r.u16(lookup + 6 + s * 2) else { break }
                budget -= 1
                var sub = lookup + Int(so)
                var subType = type
                if type == 9 {
                    // Extension: format u16, extensionLookupType u16, offset32 from here.
                    guard let extType = r.u16(sub + 2), let extOffset = r.u32(sub + 4) else { continue }
                    subType = extType
                    sub += Int(extOffset)
                }
                guard subType == 2, let format = r.u16(sub), format == 1 || format == 2 else { continue }
                subtables.append(PairSubtable(offset: sub, format: format))
            }
            if !subtables.isEmpty { result.append(subtables) }
        }
        lookups = result
    }

    /// The advance adjustment between `left` and `right`, in font units (negative pulls the
    /// pair together). Sums over lookups; within a lookup the first matching subtable wins.
    func adjustment(_ left: UInt32, _ right: UInt32) -> Int {
        guard !lookups.isEmpty, left <= 0xFFFF, right <= 0xFFFF else { return 0 }
        let r = ByteReader(table)
        let g1 = UInt16(left), g2 = UInt16(right)
        var total = 0
        for lookup in lookups {
            for sub in lookup {
                if let value = pairValue(r, sub, g1, g2) {
                    total += value
                    break
                }
            }
        }
        return total
    }

    /// `nil` when the subtable does not cover the pair, else its xAdvance (0 when absent).
    private func pairValue(_ r: ByteReader, _ sub: PairSubtable, _ g1: UInt16, _ g2: UInt16) -> Int? {
        let s = sub.offset
        guard let coverageOffset = r.u16(s + 2), let vf1 = r.u16(s + 4), let vf2 = r.u16(s + 6),
              let coverageIndex = r.coverageIndex(s + Int(coverageOffset), glyph: g1) else { return nil }
        let size1 = ValueFormat.size(vf1), size2 = ValueFormat.size(vf2)
        // xAdvance sits after xPlacement/yPlacement when those are present.
        let xAdvanceOffset: Int? = vf1 & 0x0004 != 0 ? 2 * (vf1 & 0x0003).nonzeroBitCount : nil
        if sub.format == 1 {
            guard let pairSetCount = r.u16(s + 8), coverageIndex < Int(pairSetCount),
                  let pairSetOffset = r.u16(s + 10 + coverageIndex * 2) else { return nil }
            let set = s + Int(pairSetOffset)
            guard let count = r.u16(set) else { return nil }
            let recordSize = 2 + size1 + size2
            // PairValueRecords are sorted by secondGlyph.
            var lo = 0, hi = Int(count) - 1
            while lo <= hi {
                let mid = (lo + hi) / 2
                let rec = set + 2 + mid * recordSize
                guard let second = r.u16(rec) else { return nil }
                if second == g2 {
                    guard let xo = xAdvanceOffset else { return 0 }
                    return r.i16(rec + 2 + xo).map(Int.init)
                }
                if second < g2 { lo = mid + 1 } else { hi = mid - 1 }
            }
            return nil
        }
        guard let cd1 = r.u16(s + 8), let cd2 = r.u16(s + 10),
              let class1Count = r.u16(s + 12), let class2Count = r.u16(s + 14) else { return nil }
        let c1 = r.classOf(s + Int(cd1), glyph: g1)
        let c2 = r.classOf(s + Int(cd2), glyph: g2)
        guard c1 < Int(class1Count), c2 < Int(class2Count) else { return nil }
        guard let xo = xAdvanceOffset else { return 0 }
        let rec = s + 16 + (c1 * Int(class2Count) + c2) * (size1 + size2)
        return r.i16(rec + xo).map(Int.init)
    }

    private enum ValueFormat {
        /// Bytes of a ValueRecord: two per flag among the eight defined bits.
        static func size(_ format: UInt16) -> Int { 2 * (format & 0x00FF).nonzeroBitCount }
    }
}

/// Big-endian, bounds-checked reads from an OpenType table. Every accessor returns `nil`
/// past the end instead of trapping.
struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u16(_ at: Int) -> UInt16? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    func i16(_ at: Int) -> Int16? { u16(at).map { Int16(bitPattern: $0) } }

    func u32(_ at: Int) -> UInt32? {
        guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
        return UInt32(hi) << 16 | UInt32(lo)
    }

    /// Coverage table lookup (formats 1 and 2): the glyph's coverage index, or `nil`.
    func coverageIndex(_ table: Int, glyph: UInt16) -> Int? {
        guard let format = u16(table), let count = u16(table + 2) else { return nil }
        var lo = 0, hi = Int(count) - 1
        switch format {
        case 1:
            while lo <= hi {
                let mid = (lo + hi) / 2
                guard let g = u16(table + 4 + mid * 2) else { return nil }
                if g == glyph { return mid }
                if g < glyph { lo = mid + 1 } else { hi = mid - 1 }
            }
        case 2:
            while lo <= hi {
                let mid = (lo + hi) / 2
                let rec = table + 4 + mid * 6
                guard let start = u16(rec), let end = u16(rec + 2), let startIndex = u16(rec + 4) else { return nil }
                if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else {
                    return Int(startIndex) + Int(glyph - start)
                }
            }
        default:
            return nil
        }
        return nil
    }

    /// Class definition lookup (formats 1 and 2); glyphs not listed are class 0.
    func classOf(_ table: Int, glyph: UInt16) -> Int {
        guard let format = u16(table) else { return 0 }
        switch format {
        case 1:
            guard let start = u16(table + 2), let count = u16(table + 4),
                  glyph >= start, Int(glyph - start) < Int(count) else { return 0 }
            return Int(u16(table + 6 + Int(glyph - start) * 2) ?? 0)
        case 2:
            guard let count = u16(table + 2) else { return 0 }
            var lo = 0, hi = Int(count) - 1
            while lo <= hi {
                let mid = (lo + hi) / 2
                let rec = table + 4 + mid * 6
                guard let start = u16(rec), let end = u16(rec + 2) else { return 0 }
                if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else {
                    return Int(u16(rec + 4) ?? 0)
                }
            }
            return 0
        default:
            return 0
        }
    }
}
