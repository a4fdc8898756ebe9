import Testing
import MotusCore

/// The binary search every sorted lookup shares, against a linear scan.
@Suite struct SortedSearchTests {
    @Test func firstIndexAtOrAfterMatchesALinearScan() {
        for n in [0, 1, 2, 7, 64] {
            // Sorted, with repeats, so "at or after" differs from "after".
            let values = (0..<n).map { Double(($0 * 7 + 3) % 10) }.sorted()
            for x in [-1.0, 0, 2.5, 3, 9, 10, .infinity] {
                let linear = values.firstIndex { $0 >= x } ?? values.count
                #expect(values.sortedFirstIndex(atOrAfter: x) == linear, "\(values) at \(x)")
                let pairs = values.map { (time: $0, tag: 1) }
                #expect(pairs.sortedFirstIndex(atOrAfter: x) { $0.time } == linear)
            }
        }
        // A slice keeps its own indices.
        let a: [Double] = [0, 1, 2, 3, 4, 5]
        #expect(a[2...].sortedFirstIndex(atOrAfter: 0) == 2 && a[2..<4].sortedFirstIndex(atOrAfter: 9) == 4)
    }
}
