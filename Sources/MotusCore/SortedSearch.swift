/// Binary search in sorted values: where a value would go.
extension RandomAccessCollection where Index == Int {
    /// The index of the first element whose `key` is at or after `value`, in a collection
    /// sorted by `key` in ascending order; `endIndex` when none is. O(log n).
    @inlinable
    public func sortedFirstIndex(atOrAfter value: Double, by key: (Element) -> Double) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if key(self[mid]) < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// Binary search in sorted numbers.
extension RandomAccessCollection where Index == Int, Element == Double {
    /// The index of the first value at or after `value` in ascending values; `endIndex` when
    /// none is. O(log n).
    @inlinable
    public func sortedFirstIndex(atOrAfter value: Double) -> Int { sortedFirstIndex(atOrAfter: value) { $0 } }
}
