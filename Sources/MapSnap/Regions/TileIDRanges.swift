/// A set of PMTiles tile ids as sorted, disjoint, non-touching half-open ranges: an area's
/// tiles at every zoom of an extract. Along the Hilbert curve the tiles of a compact area
/// form few long ranges, so this stays small where a list of tiles would not (a country at
/// z15 is millions of tiles but thousands of ranges).
struct TileIDRanges: Sendable, Equatable {
    /// The ranges, sorted by start; none empty, none overlapping or touching another.
    private(set) var ranges: [Range<UInt64>]

    /// The union of `ranges` (in any order, possibly overlapping or empty).
    init(_ ranges: [Range<UInt64>]) {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt64>] = []
        merged.reserveCapacity(sorted.count)
        for r in sorted {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        self.ranges = merged
    }

    /// Number of ids in the set.
    var count: UInt64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// Whether `id` is in the set.
    func contains(_ id: UInt64) -> Bool {
        let i = firstIndex(endingAfter: id)
        return i < ranges.count && ranges[i].contains(id)
    }

    /// Whether any id of `span` is in the set.
    func overlaps(_ span: Range<UInt64>) -> Bool {
        guard !span.isEmpty else { return false }
        let i = firstIndex(endingAfter: span.lowerBound)
        return i < ranges.count && ranges[i].lowerBound < span.upperBound
    }

    /// Calls `body` with each non-empty intersection of `span` with the set, in order.
    func forEachIntersection(with span: Range<UInt64>, _ body: (Range<UInt64>) throws -> Void) rethrows {
        guard !span.isEmpty else { return }
        var i = firstIndex(endingAfter: span.lowerBound)
        while i < ranges.count, ranges[i].lowerBound < span.upperBound {
            try body(max(ranges[i].lowerBound, span.lowerBound)..<min(ranges[i].upperBound, span.upperBound))
            i += 1
        }
    }

    /// Index of the first range whose end lies after `id` (binary search).
    private func firstIndex(endingAfter id: UInt64) -> Int {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound <= id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
