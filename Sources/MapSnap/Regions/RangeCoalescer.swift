/// Plans the reads that fetch many byte ranges of a remote file (the tiles of an area, the
/// leaf directories they need) in few requests: neighbouring ranges are read together, and
/// the bytes between them — which nobody asked for — are read too when that saves a request
/// and the total of such bytes stays within a budget.
///
/// Greedy by gap: every range starts as its own read; the gaps between neighbours are taken
/// smallest first, and a gap is bridged while the wasted bytes stay within
/// `overfetch × (bytes asked for)` and the merged read within `maxReadBytes`. Touching or
/// overlapping ranges cost nothing to join and are always joined (up to the size cap).
/// Smallest-first spends the budget where it removes the most requests per wasted byte.
struct RangeCoalescer: Sendable {
    /// Wasted bytes allowed, as a fraction of the bytes asked for.
    var overfetch: Double
    /// Largest read, in bytes (a single range larger than this is read alone, whole).
    var maxReadBytes: UInt64

    /// One read: `length` bytes at `offset`, covering `pieces` (indices into the input).
    struct Read: Equatable, Sendable {
        var offset: UInt64
        var length: UInt64
        var pieces: Range<Int>
    }

    /// The reads covering `pieces` — (offset, length) pairs sorted by offset, lengths > 0 —
    /// in offset order.
    func plan(_ pieces: [(offset: UInt64, length: UInt64)]) -> [Read] {
        guard !pieces.isEmpty else { return [] }
        let n = pieces.count
        // Union–find over consecutive pieces (a group is always a run of neighbours); a root
        // knows the byte span its group reads.
        var parent = Array(0..<n)
        var start = pieces.map(\.offset)
        var end = pieces.map { $0.offset + $0.length }
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        let asked = pieces.reduce(UInt64(0)) { $0 + $1.length }
        var budget = overfetch > 0 ? UInt64(Double(asked) * overfetch) : 0
        // Gap after piece i, as first seen (joins only ever shrink the actual gap).
        let order = (0..<(n - 1)).sorted { a, b in
            let ga = Self.gap(end[a], pieces[a + 1].offset), gb = Self.gap(end[b], pieces[b + 1].offset)
            return ga != gb ? ga < gb : a < b
        }
        for i in order {
            let left = root(i), right = root(i + 1)
            guard left != right else { continue }
            let wasted = Self.gap(end[left], start[right])
            let lower = min(start[left], start[right]), upper = max(end[left], end[right])
            guard upper - lower <= maxReadBytes, wasted <= budget else { continue }
            budget -= wasted
            parent[right] = left
            start[left] = lower
            end[left] = upper
        }
        var reads: [Read] = []
        var i = 0
        while i < n {
            let r = root(i)
            var j = i + 1
            while j < n, root(j) == r { j += 1 }
            reads.append(Read(offset: start[r], length: end[r] - start[r], pieces: i..<j))
            i = j
        }
        return reads
    }

    private static func gap(_ end: UInt64, _ next: UInt64) -> UInt64 { next > end ? next - end : 0 }
}
