@testable import MotusLearn

/// Synthetic data: k Gaussian blobs in d dimensions, centres drawn from the seed.
func blobs(n: Int, d: Int, k: Int, spread: Double, seed: UInt64, separation: Double = 3) -> (Matrix, [Int]) {
    var rng = SeededGenerator(seed: seed)
    let centres = (0..<k).map { _ in (0..<d).map { _ in separation * rng.nextNormal() } }
    var x = Matrix(rows: n, cols: d)
    var y = [Int](repeating: 0, count: n)
    for i in 0..<n {
        let c = i % k
        y[i] = c
        for j in 0..<d { x[i, j] = centres[c][j] + spread * rng.nextNormal() }
    }
    return (x, y)
}

/// Linearly separable binary/multiclass data with a margin: label by the sign of fixed directions.
func separable(n: Int, d: Int, k: Int, seed: UInt64) -> (Matrix, [Int]) {
    var rng = SeededGenerator(seed: seed)
    var x = Matrix(rows: n, cols: d)
    var y = [Int](repeating: 0, count: n)
    for i in 0..<n {
        let c = i % k
        y[i] = c
        for j in 0..<d { x[i, j] = rng.nextNormal() * 0.5 }
        // Class c sits at +4 on axis c (k ≤ d), well away from the others.
        x[i, c % d] += 4
        if k == 2 && c == 0 { x[i, 0] -= 8 }
    }
    return (x, y)
}

func maxAbsDiff(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count)
    var m = 0.0
    for i in 0..<a.count { m = max(m, abs(a[i] - b[i])) }
    return m
}
