/// OpenStreetMap ids kept sorted, looked up by binary search (the builders collect the ids
/// they need in one pass and look them up in the next).
extension Array where Element == Int64 {
    /// The position of `id` in this array, which must be sorted ascending, or nil.
    func sortedIndex(of id: Int64) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && self[lo] == id ? lo : nil
    }
}
