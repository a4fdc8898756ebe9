/// Order statistics by quickselect with a branch-free partition (no allocation, O(n) expected;
/// on noisy sensor values a branch on each compare is unpredictable).
enum Selection {
    /// Rearranges `p[lo..<hi]` so that `p[k]` holds the value a sort would put there, smaller
    /// or equal values before it and greater or equal ones after. `t` is scratch of the same
    /// size as `p`. Precondition: lo ≤ k < hi.
    static func select(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int, _ k: Int) {
        var lo = lo, hi = hi - 1          // inclusive bounds
        while hi - lo >= 16 {
            let a = p[lo], b = p[lo + (hi - lo) >> 1], c = p[hi]
            let pivot = max(min(a, b), min(max(a, b), c))     // median of three
            let l = partition(p, t, lo, hi, pivot, inclusive: false)   // [lo, l) < pivot
            if k < l { hi = l - 1; continue }
            if l > lo { lo = l; continue }
            // The pivot is the range's minimum: split off the values equal to it (ties are
            // common in quantised sensor data), which guarantees progress.
            let e = partition(p, t, l, hi, pivot, inclusive: true)     // [l, e) == pivot (e > l)
            if k < e { return }
            lo = e
        }
        if hi > lo { rankSort(p, t, lo, hi) }
    }

    /// Sorts the few values `p[lo...hi]` without branches on the data: each value's rank is
    /// the count of values before it (ties broken by position), O(m²) compares for m values.
    @inline(__always)
    static func rankSort(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int) {
        for a in lo...hi {
            let v = p[a]
            var rank = 0
            for b in lo..<a { rank &+= Int(unsafeBitCast(p[b] <= v, to: UInt8.self)) }
            for b in (a + 1)..<(hi + 1) { rank &+= Int(unsafeBitCast(p[b] < v, to: UInt8.self)) }
            t[lo + rank] = v
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
    }

    /// Branch-free partition of `p[lo...hi]` through `t`: values `< pivot` (or `≤` when
    /// `inclusive`) first, the others after (in reverse order). Returns the end of the first
    /// group. Every value is written at both ends; the later writes leave each slot right.
    @inline(__always)
    static func partition(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int,
                          _ pivot: Double, inclusive: Bool) -> Int {
        var l = lo, top = hi
        for j in lo...hi {
            let v = p[j]
            t[l] = v; t[top] = v
            let isLeft = inclusive ? v <= pivot : v < pivot
            let step = Int(unsafeBitCast(isLeft, to: UInt8.self))
            l &+= step; top &-= 1 &- step
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
        return l
    }

    /// Smallest of `p[lo..<hi]` (hi > lo).
    @inline(__always)
    static func minimum(_ p: UnsafePointer<Double>, _ lo: Int, _ hi: Int) -> Double {
        var m = p[lo]
        for i in (lo + 1)..<max(lo + 1, hi) { let v = p[i]; m = v < m ? v : m }
        return m
    }

    /// numpy-style linear 25th, 50th and 75th percentiles of `p[0..<n]` (reordered). n ≥ 4.
    static func quartiles(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ n: Int) -> (q25: Double, median: Double, q75: Double) {
        let a = Double(n - 1)
        let h50 = a * 0.5, h25 = a * 0.25, h75 = a * 0.75
        let k50 = Int(h50), k25 = Int(h25), k75 = Int(h75)
        select(p, t, 0, n, k50)
        let v50 = p[k50]
        let median = k50 + 1 < n ? interpolate(v50, minimum(p, k50 + 1, n), h50 - Double(k50)) : v50
        select(p, t, 0, k50, k25)
        let v25 = p[k25]
        let next25 = k25 + 1 == k50 ? v50 : minimum(p, k25 + 1, k50)
        let q25 = interpolate(v25, next25, h25 - Double(k25))
        select(p, t, k50 + 1, n, k75)
        let v75 = p[k75]
        let q75 = k75 + 1 < n ? interpolate(v75, minimum(p, k75 + 1, n), h75 - Double(k75)) : v75
        return (q25, median, q75)
    }

    /// First pass of the bucketed sorts: the bucket of every value into `ids[0..<n]` and four
    /// interleaved histograms (value i counts in set i mod 4) into `counts[0..<4·buckets]`.
    /// In smooth signals neighbours share a bucket, and one counter per bucket would make
    /// every increment wait for the previous one through memory. The bucket of a value is
    /// (x − lo) × scale in [0, buckets], rounded to nearest by the 1.5 × 2⁵² trick (no trapping
    /// conversion, no branch) and clamped to the last bucket: a monotone map, which is all the
    /// sorts need. NaN input lands in some bucket.
    @inline(__always)
    static func histogram(_ x: UnsafePointer<Double>, _ n: Int, lo: Double, scale: Double, buckets: Int,
                          ids: UnsafeMutablePointer<Int>, counts cnt: UnsafeMutablePointer<Int>) {
        for j in 0..<(4 * buckets) { cnt[j] = 0 }
        let top = buckets - 1
        @inline(__always) func bucket(_ v: Double) -> Int {
            let t = ((v - lo) * scale + 6755399441055744.0).bitPattern
            return min(Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: t)), top)
        }
        let c0 = cnt, c1 = cnt + buckets, c2 = cnt + 2 * buckets, c3 = cnt + 3 * buckets
        var i = 0
        while i + 4 <= n {
            let b0 = bucket(x[i]), b1 = bucket(x[i &+ 1]), b2 = bucket(x[i &+ 2]), b3 = bucket(x[i &+ 3])
            ids[i] = b0; ids[i &+ 1] = b1; ids[i &+ 2] = b2; ids[i &+ 3] = b3
            c0[b0] &+= 1; c1[b1] &+= 1; c2[b2] &+= 1; c3[b3] &+= 1
            i += 4
        }
        while i < n {
            let b = bucket(x[i])
            ids[i] = b
            cnt[(i & 3) &* buckets &+ b] &+= 1
            i += 1
        }
    }

    /// Last pass of the bucketed sorts: every value to its set's write cursor in `out`
    /// (`cursors`, laid out as `histogram`'s counts, advanced as values are placed).
    @inline(__always)
    static func scatter(_ x: UnsafePointer<Double>, _ n: Int, buckets: Int, ids: UnsafeMutablePointer<Int>,
                        cursors cnt: UnsafeMutablePointer<Int>, into out: UnsafeMutablePointer<Double>) {
        let c0 = cnt, c1 = cnt + buckets, c2 = cnt + 2 * buckets, c3 = cnt + 3 * buckets
        var i = 0
        while i + 4 <= n {
            let j0 = ids[i], j1 = ids[i &+ 1], j2 = ids[i &+ 2], j3 = ids[i &+ 3]
            out[c0[j0]] = x[i]; c0[j0] &+= 1
            out[c1[j1]] = x[i &+ 1]; c1[j1] &+= 1
            out[c2[j2]] = x[i &+ 2]; c2[j2] &+= 1
            out[c3[j3]] = x[i &+ 3]; c3[j3] &+= 1
            i += 4
        }
        while i < n {
            let j = (i & 3) &* buckets &+ ids[i]
            out[cnt[j]] = x[i]
            cnt[j] &+= 1
            i += 1
        }
    }

    /// Buckets used by `quartilesBucketed` for n values.
    static func bucketCount(_ n: Int) -> Int { max(8, n / 2) }
    /// Int scratch needed by `quartilesBucketed` for n values.
    static func bucketIntCount(_ n: Int) -> Int { n + 6 * bucketCount(n) + 1 }

    /// The same quartiles as `quartiles`, from `x[0..<n]` (not modified) whose minimum and
    /// maximum are `lo` and `hi`: the values are spread into n/2 equal-width buckets by value
    /// (a counting sort by bucket, branch-free), and only the buckets holding the six order
    /// statistics needed are sorted (branch-free rank sort). When one of those buckets holds
    /// more than 32 values (a concentrated window, e.g. flat with one spike) it falls back to
    /// `quartiles`. Scratch: `t` and `work` n values each, `ints` `bucketIntCount(n)`.
    static func quartilesBucketed(_ x: UnsafePointer<Double>, _ n: Int, lo: Double, hi: Double,
                                  t: UnsafeMutablePointer<Double>, work: UnsafeMutablePointer<Double>,
                                  ints: UnsafeMutablePointer<Int>) -> (q25: Double, median: Double, q75: Double) {
        if !(hi > lo) { return (lo, lo, lo) }
        let buckets = bucketCount(n)
        let scale = Double(buckets) / (hi - lo)
        func fallback() -> (q25: Double, median: Double, q75: Double) {
            work.update(from: x, count: n)
            return quartiles(work, t, n)
        }
        guard scale.isFinite else { return fallback() }
        // Four interleaved histograms and cursor sets (value i uses set i mod 4): in smooth
        // signals neighbours share a bucket, and one counter per bucket would make every
        // increment wait for the previous one through memory.
        let ids = ints, cnt = ints + n, start = cnt + 4 * buckets, flag = start + (buckets + 1)
        histogram(x, n, lo: lo, scale: scale, buckets: buckets, ids: ids, counts: cnt)
        start[0] = 0
        for b in 0..<buckets {
            var offset = start[b]
            for lane in 0..<4 {
                let j = lane &* buckets &+ b
                let c = cnt[j]
                cnt[j] = offset                          // now the lane's write cursor
                offset &+= c
            }
            start[b + 1] = offset
            flag[b] = 0
        }
        scatter(x, n, buckets: buckets, ids: ids, cursors: cnt, into: t)
        // Sort the bucket holding rank r (once); false when it is too big.
        @inline(__always) func ensure(_ r: Int) -> Bool {
            var a = 0, z = buckets            // largest b with start[b] ≤ r
            while z - a > 1 { let m = (a + z) >> 1; if start[m] <= r { a = m } else { z = m } }
            if flag[a] < 0 { return true }
            let s = start[a], e = start[a + 1]
            if e - s > 32 { return false }
            if e - s > 1 { rankSort(t, work, s, e - 1) }
            flag[a] = -1
            return true
        }
        let h = Double(n - 1)
        let h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75
        let k25 = Int(h25), k50 = Int(h50), k75 = Int(h75)
        @inline(__always) func ensurePair(_ k: Int) -> Bool { ensure(k) && (k + 1 >= n || ensure(k + 1)) }
        if !(ensurePair(k25) && ensurePair(k50) && ensurePair(k75)) { return fallback() }
        @inline(__always) func at(_ k: Int, _ f: Double) -> Double { k + 1 < n ? interpolate(t[k], t[k + 1], f) : t[k] }
        return (at(k25, h25 - Double(k25)), at(k50, h50 - Double(k50)), at(k75, h75 - Double(k75)))
    }

    @inline(__always)
    static func interpolate(_ a: Double, _ b: Double, _ f: Double) -> Double { f == 0 ? a : a + f * (b - a) }

    /// Longest blocks `sortPair` is used for.
    static let maximumNetworkLength = 256
    /// Two-lane scratch needed by `sortPair` for n values: n rounded up to a power of two.
    static func networkSize(_ n: Int) -> Int { var m = 1; while m < n { m <<= 1 }; return m }

    /// Sorts `x0[0..<n]` into `out0` and `x1[0..<n]` into `out1` (ascending) with one bitonic
    /// sorting network whose two lanes are the two inputs: a fixed sequence of compare-exchanges
    /// (no branch on the data), padded with +∞ to a power of two. Scratch: `work`,
    /// `networkSize(n)` values. Compare-exchanges leave NaN where they are (no trap; the
    /// order is then unspecified).
    static func sortPair(_ x0: UnsafePointer<Double>, _ x1: UnsafePointer<Double>, _ n: Int,
                         into out0: UnsafeMutablePointer<Double>, _ out1: UnsafeMutablePointer<Double>,
                         work w: UnsafeMutablePointer<SIMD2<Double>>) {
        typealias V = SIMD2<Double>
        let size = networkSize(n)
        for i in 0..<n { w[i] = V(x0[i], x1[i]) }
        for i in n..<size { w[i] = V(repeating: .infinity) }
        @inline(__always) func exchange(_ p: Int, _ q: Int) {
            let a = w[p], b = w[q]
            let swap = b .< a
            w[p] = a.replacing(with: b, where: swap); w[q] = b.replacing(with: a, where: swap)
        }
        @inline(__always) func cx(_ a: inout V, _ b: inout V) {
            let swap = b .< a
            let lo = a.replacing(with: b, where: swap), hi = b.replacing(with: a, where: swap)
            a = lo; b = hi
        }
        // The steps whose distances are below 8 run on eight values held in registers (the
        // same compare-exchanges; those of one step are disjoint, so their order is free).
        let grouped = size >= 8
        if grouped {
            var g = 0
            while g < size {
                var v0 = w[g], v1 = w[g &+ 1], v2 = w[g &+ 2], v3 = w[g &+ 3]
                var v4 = w[g &+ 4], v5 = w[g &+ 5], v6 = w[g &+ 6], v7 = w[g &+ 7]
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)                    // k = 2
                cx(&v0, &v3); cx(&v1, &v2); cx(&v4, &v7); cx(&v5, &v6)                    // k = 4
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)
                cx(&v0, &v7); cx(&v1, &v6); cx(&v2, &v5); cx(&v3, &v4)                    // k = 8
                cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7)
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)
                w[g] = v0; w[g &+ 1] = v1; w[g &+ 2] = v2; w[g &+ 3] = v3
                w[g &+ 4] = v4; w[g &+ 5] = v5; w[g &+ 6] = v6; w[g &+ 7] = v7
                g &+= 8
            }
        }
        var k = grouped ? 16 : 2
        while k <= size {
            // Merge sorted runs of k/2 into runs of k: the first step compares mirrored
            // positions (so both runs count as ascending), the others halve the distance.
            var block = 0
            while block < size {
                for t in 0..<(k / 2) { exchange(block &+ t, block &+ k &- 1 &- t) }
                block &+= k
            }
            var j = k / 4
            while j >= (grouped ? 8 : 1) {
                block = 0
                while block < size {
                    for t in 0..<j { exchange(block &+ t, block &+ t &+ j) }
                    block &+= 2 &* j
                }
                j >>= 1
            }
            if grouped {
                var g = 0
                while g < size {
                    var v0 = w[g], v1 = w[g &+ 1], v2 = w[g &+ 2], v3 = w[g &+ 3]
                    var v4 = w[g &+ 4], v5 = w[g &+ 5], v6 = w[g &+ 6], v7 = w[g &+ 7]
                    cx(&v0, &v4); cx(&v1, &v5); cx(&v2, &v6); cx(&v3, &v7)               // j = 4
                    cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7)               // j = 2
                    cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)               // j = 1
                    w[g] = v0; w[g &+ 1] = v1; w[g &+ 2] = v2; w[g &+ 3] = v3
                    w[g &+ 4] = v4; w[g &+ 5] = v5; w[g &+ 6] = v6; w[g &+ 7] = v7
                    g &+= 8
                }
            }
            k <<= 1
        }
        for i in 0..<n { let v = w[i]; out0[i] = v[0]; out1[i] = v[1] }
    }

    /// Int scratch needed by `sortBucketed` for n values.
    static func sortIntCount(_ n: Int) -> Int { n + 5 * max(1, n) + 1 }

    /// Sorts `x[0..<n]` (not modified) into `out[0..<n]`, ascending: a branch-free counting sort
    /// into n equal-width value buckets (four interleaved histograms, as in `quartilesBucketed`),
    /// then an insertion sort, which only moves values within their bucket (O(n) for spread
    /// values; O(n²) at worst, for values crowded into one bucket). Every value is kept; NaN
    /// values stay where the buckets put them (the order around them is then unspecified, no
    /// trap). Scratch: `ints`, `sortIntCount(n)` values.
    static func sortBucketed(_ x: UnsafePointer<Double>, _ n: Int, into out: UnsafeMutablePointer<Double>,
                             ints: UnsafeMutablePointer<Int>) {
        guard n > 0 else { return }
        var lo = x[0], hi = x[0]
        for i in 1..<max(1, n) { let v = x[i]; lo = v < lo ? v : lo; hi = v > hi ? v : hi }
        let buckets = n
        let scale = Double(buckets) / (hi - lo)
        if hi > lo && scale.isFinite {
            let ids = ints, cnt = ints + n
            histogram(x, n, lo: lo, scale: scale, buckets: buckets, ids: ids, counts: cnt)
            var offset = 0
            for b in 0..<buckets {
                for lane in 0..<4 {
                    let j = lane &* buckets &+ b
                    let c = cnt[j]
                    cnt[j] = offset
                    offset &+= c
                }
            }
            scatter(x, n, buckets: buckets, ids: ids, cursors: cnt, into: out)
        } else {
            out.update(from: x, count: n)
        }
        // Insertion sort (values are already in bucket order).
        var i = 1
        while i < n {
            let v = out[i]
            var j = i
            while j > 0 && out[j &- 1] > v { out[j] = out[j &- 1]; j &-= 1 }
            out[j] = v
            i += 1
        }
    }

    /// The value of rank k (0-based) among the sorted `a[0..<p]` and `b[0..<q]` together, and
    /// the one of rank k + 1 (the same value when k + 1 = p + q), given i: how many of the
    /// k + 1 smallest come from a (`split`). Precondition: k < p + q.
    @inline(__always)
    static func mergedRank(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int, _ k: Int,
                           split i: Int) -> (Double, Double) {
        let j = k + 1 - i
        let fromA = i > 0 ? a[i - 1] : -Double.infinity, fromB = j > 0 ? b[j - 1] : -Double.infinity
        let v = i == 0 ? fromB : (j == 0 ? fromA : max(fromA, fromB))
        if k + 1 >= p + q { return (v, v) }
        let nextA = i < p ? a[i] : Double.infinity, nextB = j < q ? b[j] : Double.infinity
        let w = i >= p ? nextB : (j >= q ? nextA : min(nextA, nextB))
        return (v, w)
    }

    /// numpy-style linear quartiles of the union of the sorted `a[0..<p]` and `b[0..<q]`
    /// (p + q ≥ 1): the same values as `quartiles` of the concatenation. O(p + q) compares,
    /// all independent (no chain of dependent loads, no data-dependent branch).
    static func quartilesOfSorted(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int)
        -> (q25: Double, median: Double, q75: Double) {
        let n = p + q
        let h = Double(n - 1)
        let h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75
        let k25 = Int(h25), k50 = Int(h50), k75 = Int(h75)
        let (v25, w25) = mergedRank(a, p, b, q, k25, split: split(a, p, b, q, k25))
        let (v50, w50) = mergedRank(a, p, b, q, k50, split: split(a, p, b, q, k50))
        let (v75, w75) = mergedRank(a, p, b, q, k75, split: split(a, p, b, q, k75))
        return (interpolate(v25, w25, h25 - Double(k25)), interpolate(v50, w50, h50 - Double(k50)),
                interpolate(v75, w75, h75 - Double(k75)))
    }

    /// For rank k (k < p + q) of the sorted `a[0..<p]` and `b[0..<q]` together: i, how many of
    /// the k + 1 smallest come from a. For i in [max(0, k + 1 − q), min(k + 1, p)), b[k − i] >
    /// a[i] holds below the split and fails from it on (a rises with i, b[k − i] falls), so
    /// the split is the range's start plus the count of the i where it holds: independent
    /// compares, two lanes, two accumulators (`motus_quartiles_sorted` counts the same
    /// compares four lanes at a time, so both paths give the same split for any input).
    @inline(__always)
    static func split(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int, _ k: Int) -> Int {
        let lo = max(0, k + 1 - q), hi = min(k + 1, p)
        var acc0 = SIMD2<Int64>(), acc1 = SIMD2<Int64>()
        var i = lo
        while i &+ 4 <= hi {                      // b[k − i − 3 ... k − i] are in bounds (i + 4 ≤ k + 1)
            let a0 = Kernels.load2(a, i), a1 = Kernels.load2(a, i &+ 2)
            let b0 = Kernels.load2(b, k &- i &- 1), b1 = Kernels.load2(b, k &- i &- 3)
            // A true lane of a mask is −1: subtracting the masks counts them.
            acc0 &-= unsafeBitCast(SIMD2(b0[1], b0[0]) .> a0, to: SIMD2<Int64>.self)
            acc1 &-= unsafeBitCast(SIMD2(b1[1], b1[0]) .> a1, to: SIMD2<Int64>.self)
            i &+= 4
        }
        let acc = acc0 &+ acc1
        var count = Int(acc[0] &+ acc[1])
        while i < hi { count &+= b[k &- i] > a[i] ? 1 : 0; i &+= 1 }
        return lo + count
    }
}

extension UnsafeMutablePointer where Pointee == Double {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}
