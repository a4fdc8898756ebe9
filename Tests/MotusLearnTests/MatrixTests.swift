import Testing
@testable import MotusLearn

/// Obviously-right triple loop: op(A) · op(B).
func naiveProduct(_ a: Matrix, transposeA: Bool, _ b: Matrix, transposeB: Bool) -> Matrix {
    let m = transposeA ? a.cols : a.rows, k = transposeA ? a.rows : a.cols, n = transposeB ? b.rows : b.cols
    var c = Matrix(rows: m, cols: n)
    for i in 0..<m {
        for j in 0..<n {
            var s = 0.0
            for p in 0..<k { s += (transposeA ? a[p, i] : a[i, p]) * (transposeB ? b[j, p] : b[p, j]) }
            c[i, j] = s
        }
    }
    return c
}

func randomMatrix(_ r: Int, _ c: Int, seed: UInt64) -> Matrix {
    var g = SeededGenerator(seed: seed)
    return Matrix(rows: r, cols: c) { _, _ in g.nextUniform() * 2 - 1 }
}

struct MatrixTests {
    // Sizes on both sides of the loop/BLAS threshold.
    @Test(arguments: [(1, 1, 1), (3, 4, 5), (7, 2, 9), (16, 16, 16), (17, 33, 9), (64, 31, 70), (200, 154, 32)])
    func gemmMatchesNaive(m: Int, n: Int, k: Int) throws {
        for ta in [false, true] {
            for tb in [false, true] {
                let a = ta ? randomMatrix(k, m, seed: 1) : randomMatrix(m, k, seed: 1)
                let b = tb ? randomMatrix(n, k, seed: 2) : randomMatrix(k, n, seed: 2)
                let c = try Matrix.multiply(a, transposeA: ta, b, transposeB: tb)
                let ref = naiveProduct(a, transposeA: ta, b, transposeB: tb)
                #expect(c.rows == m && c.cols == n)
                #expect(maxAbsDiff(c.values, ref.values) < 1e-9, "m \(m) n \(n) k \(k) ta \(ta) tb \(tb)")
            }
        }
    }

    @Test func gemmAlphaBetaAccumulate() throws {
        for (m, n, k) in [(3, 3, 3), (40, 30, 20)] {
            let a = randomMatrix(m, k, seed: 3), b = randomMatrix(k, n, seed: 4)
            var c = randomMatrix(m, n, seed: 5)
            let c0 = c
            try Matrix.gemm(alpha: 0.5, a, b, beta: -2, into: &c)
            let ab = naiveProduct(a, transposeA: false, b, transposeB: false)
            let ref = (0..<(m * n)).map { 0.5 * ab.values[$0] - 2 * c0.values[$0] }
            #expect(maxAbsDiff(c.values, ref) < 1e-9)
        }
    }

    @Test(arguments: [(2, 3), (10, 10), (100, 150), (1000, 7)])
    func gemvMatchesNaive(m: Int, n: Int) throws {
        let a = randomMatrix(m, n, seed: 6)
        var g = SeededGenerator(seed: 7)
        let x = (0..<n).map { _ in g.nextUniform() }
        let xt = (0..<m).map { _ in g.nextUniform() }
        let y = try a.multiply(x)
        let yt = try a.multiply(xt, transpose: true)
        let ref = (0..<m).map { i in (0..<n).reduce(0.0) { $0 + a[i, $1] * x[$1] } }
        let reft = (0..<n).map { j in (0..<m).reduce(0.0) { $0 + a[$1, j] * xt[$1] } }
        #expect(maxAbsDiff(y, ref) < 1e-9)
        #expect(maxAbsDiff(yt, reft) < 1e-9)
    }

    @Test(arguments: [3, 64, 65, 1000])
    func axpyAndDot(n: Int) {
        var g = SeededGenerator(seed: 8)
        let x = (0..<n).map { _ in g.nextUniform() }
        var y = (0..<n).map { _ in g.nextUniform() }
        let y0 = y
        Vector.axpy(1.5, x, &y)
        #expect(maxAbsDiff(y, (0..<n).map { y0[$0] + 1.5 * x[$0] }) < 1e-12)
        let naiveDot = (0..<n).reduce(0.0) { $0 + x[$1] * y0[$1] }
        #expect(abs(Vector.dot(x, y0) - naiveDot) < 1e-9)
    }

    @Test func addScaled() throws {
        var a = randomMatrix(20, 10, seed: 9)
        let b = randomMatrix(20, 10, seed: 10)
        let a0 = a
        try a.add(b, scaledBy: -0.25)
        #expect(maxAbsDiff(a.values, (0..<200).map { a0.values[$0] - 0.25 * b.values[$0] }) < 1e-12)
        #expect(throws: LearnError.self) { try a.add(randomMatrix(10, 20, seed: 1)) }
    }

    @Test func shapesAreChecked() throws {
        let a = randomMatrix(3, 4, seed: 1)
        #expect(throws: LearnError.shapeMismatch(what: "matrix product", expected: "inner dimensions equal", found: "op(A) 3 × 4, op(B) 3 × 4")) {
            _ = try Matrix.multiply(a, a)
        }
        #expect(throws: LearnError.self) { _ = try a.multiply([1, 2]) }
        #expect(throws: LearnError.self) { _ = try Matrix(rows: 2, cols: 2, values: [1, 2, 3]) }
        #expect(throws: LearnError.self) { _ = try Matrix([[1, 2], [3]]) }
    }

    @Test func accessorsAndTranspose() throws {
        let m = try Matrix([[1, 2, 3], [4, 5, 6]])
        #expect(m.row(1) == [4, 5, 6])
        #expect(m.column(2) == [3, 6])
        #expect(m.transposed() == (try Matrix([[1, 4], [2, 5], [3, 6]])))
        #expect(m.selectingRows([1, 1, 0]) == (try Matrix([[4, 5, 6], [4, 5, 6], [1, 2, 3]])))
        #expect(Matrix.identity(2) == (try Matrix([[1, 0], [0, 1]])))
    }

    @Test func codableRoundTrip() throws {
        let m = randomMatrix(4, 3, seed: 11)
        let data = try JSONEncoderLite.encode(m)
        let back = try JSONEncoderLite.decode(Matrix.self, from: data)
        #expect(back == m)
    }

    @Test func seededGeneratorIsReproducible() {
        var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42), c = SeededGenerator(seed: 43)
        let sa = (0..<5).map { _ in a.next() }
        #expect(sa == (0..<5).map { _ in b.next() })
        #expect(sa != (0..<5).map { _ in c.next() })
        var g = SeededGenerator(seed: 1)
        let u = (0..<10_000).map { _ in g.nextUniform() }
        #expect(u.allSatisfy { $0 >= 0 && $0 < 1 })
        let mean = u.reduce(0, +) / 10_000
        #expect(abs(mean - 0.5) < 0.02)
        var p = g.permutation(50)
        p.sort()
        #expect(p == Array(0..<50))
    }
}
