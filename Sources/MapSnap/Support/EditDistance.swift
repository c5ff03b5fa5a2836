/// Levenshtein distance (insertions, deletions and substitutions of Unicode scalars), the one
/// measure behind every "did you mean" in mapsnap: command and option names, style and base
/// map names, expression operators, place names.
///
/// The two rows live in the value and are reused from call to call, so a caller that scores
/// many candidates (the gazetteer walks thousands of names for one typo) allocates them once.
/// Each call gives up — returning `limit + 1` — as soon as every path through the table
/// exceeds `limit`, so a hostile million-scalar name costs a few rows, not a million.
package struct EditDistance {
    private var previous: [Int] = []
    private var current: [Int] = []

    package init() {}

    /// The distance between `a` and `b`, or `limit + 1` as soon as it must exceed `limit`.
    package mutating func callAsFunction(_ a: [UInt32], _ b: [UInt32], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Every edit changes the length by at most one.
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...b.count)
        if current.count != b.count + 1 { current = [Int](repeating: 0, count: b.count + 1) }
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The distance between two strings' scalars, or `limit + 1` once it must exceed `limit`.
    package static func between(_ a: String, _ b: String, limit: Int = Int.max - 1) -> Int {
        var d = EditDistance()
        return d(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value), limit: limit)
    }
}
