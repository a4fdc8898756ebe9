/// A dense row-major matrix of `Double`, `rows × cols`. Element (r, c) is `values[r * cols + c]`.
///
/// Products go through BLAS (OpenBLAS on Linux, Accelerate on Apple) except for small sizes, where a
/// plain loop is faster. Shape errors throw `LearnError.shapeMismatch`.
public struct Matrix: Equatable, Hashable, Sendable {
    /// Number of rows.
    public internal(set) var rows: Int
    /// Number of columns.
    public internal(set) var cols: Int
    /// Row-major storage, `rows * cols` elements.
    public internal(set) var values: [Double]

    /// A `rows × cols` matrix filled with `value`.
    public init(rows: Int, cols: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && cols >= 0, "Matrix dimensions must be non-negative")
        self.rows = rows
        self.cols = cols
        self.values = [Double](repeating: value, count: rows * cols)
    }

    /// Wraps row-major `values`; throws if `values.count != rows * cols`.
    public init(rows: Int, cols: Int, values: [Double]) throws {
        guard rows >= 0, cols >= 0 else {
            throw LearnError.invalidParameter(name: "Matrix dimensions", expected: "non-negative rows and cols",
                                              found: "\(rows) × \(cols)")
        }
        guard values.count == rows * cols else {
            throw LearnError.shapeMismatch(what: "Matrix values", expected: "\(rows * cols) values for \(rows) × \(cols)",
                                           found: "\(values.count) values")
        }
        self.rows = rows
        self.cols = cols
        self.values = values
    }

    /// Builds a matrix from rows of equal length; throws on ragged input.
    public init(_ rowArrays: [[Double]]) throws {
        let c = rowArrays.first?.count ?? 0
        var v = [Double]()
        v.reserveCapacity(rowArrays.count * c)
        for (i, r) in rowArrays.enumerated() {
            guard r.count == c else {
                throw LearnError.shapeMismatch(what: "Matrix row \(i)", expected: "\(c) columns", found: "\(r.count) columns")
            }
            v.append(contentsOf: r)
        }
        self.rows = rowArrays.count
        self.cols = c
        self.values = v
    }

    /// Fills a matrix by calling `body(row, col)` in row-major order.
    public init(rows: Int, cols: Int, _ body: (Int, Int) throws -> Double) rethrows {
        self.init(rows: rows, cols: cols)
        for r in 0..<rows {
            for c in 0..<cols { values[r * cols + c] = try body(r, c) }
        }
    }

    /// Wraps storage whose count the caller guarantees is `rows * cols`.
    @usableFromInline
    init(unchecked rows: Int, cols: Int, values: [Double]) {
        assert(values.count == rows * cols)
        self.rows = rows
        self.cols = cols
        self.values = values
    }

    /// The `n × n` identity.
    public static func identity(_ n: Int) -> Matrix {
        var m = Matrix(rows: n, cols: n)
        for i in 0..<n { m.values[i * n + i] = 1 }
        return m
    }

    /// Number of elements.
    @inlinable public var count: Int { rows * cols }
    /// (rows, cols).
    @inlinable public var shape: (rows: Int, cols: Int) { (rows, cols) }

    /// Element (row, col); traps out of range (a programming error).
    public subscript(row: Int, col: Int) -> Double {
        get {
            precondition(row >= 0 && row < rows && col >= 0 && col < cols, "Matrix index out of range")
            return values[row * cols + col]
        }
        set {
            precondition(row >= 0 && row < rows && col >= 0 && col < cols, "Matrix index out of range")
            values[row * cols + col] = newValue
        }
    }

    /// A copy of row `r`.
    public func row(_ r: Int) -> [Double] {
        precondition(r >= 0 && r < rows, "Matrix row out of range")
        return Array(values[(r * cols)..<((r + 1) * cols)])
    }

    /// A copy of column `c`.
    public func column(_ c: Int) -> [Double] {
        precondition(c >= 0 && c < cols, "Matrix column out of range")
        return (0..<rows).map { values[$0 * cols + c] }
    }

    /// The rows at `indices`, in that order (indices may repeat).
    public func selectingRows<S: Sequence>(_ indices: S) -> Matrix where S.Element == Int {
        var out = [Double]()
        out.reserveCapacity(indices.underestimatedCount * cols)
        var n = 0
        for r in indices {
            precondition(r >= 0 && r < rows, "Matrix row out of range")
            out.append(contentsOf: values[(r * cols)..<((r + 1) * cols)])
            n += 1
        }
        return Matrix(unchecked: n, cols: cols, values: out)
    }

    /// The transpose, `cols × rows`.
    public func transposed() -> Matrix {
        var t = Matrix(rows: cols, cols: rows)
        values.withUnsafeBufferPointer { src in
            t.values.withUnsafeMutableBufferPointer { dst in
                for r in 0..<rows {
                    for c in 0..<cols { dst[c * rows + r] = src[r * cols + c] }
                }
            }
        }
        return t
    }

    /// Calls `body` with the row-major storage.
    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try values.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with mutable row-major storage (the shape cannot change).
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        try values.withUnsafeMutableBufferPointer(body)
    }

    /// Index of the first non-finite element as (row, col), or nil.
    public func firstNonFinite() -> (row: Int, col: Int)? {
        for i in 0..<values.count where !values[i].isFinite { return (i / max(cols, 1), i % max(cols, 1)) }
        return nil
    }
}

// MARK: - Products

extension Matrix {
    /// `alpha * op(a) * op(b) + beta * c`, written into `c` (BLAS dgemm; a loop for small sizes).
    public static func gemm(alpha: Double = 1, _ a: Matrix, transposeA: Bool = false, _ b: Matrix, transposeB: Bool = false,
                            beta: Double = 0, into c: inout Matrix) throws {
        let m = transposeA ? a.cols : a.rows
        let k = transposeA ? a.rows : a.cols
        let kb = transposeB ? b.cols : b.rows
        let n = transposeB ? b.rows : b.cols
        guard k == kb else {
            throw LearnError.shapeMismatch(what: "matrix product", expected: "inner dimensions equal",
                                           found: "op(A) \(m) × \(k), op(B) \(kb) × \(n)")
        }
        guard c.rows == m, c.cols == n else {
            throw LearnError.shapeMismatch(what: "matrix product output", expected: "\(m) × \(n)", found: "\(c.rows) × \(c.cols)")
        }
        let cc = c.cols
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                c.values.withUnsafeMutableBufferPointer { pc in
                    guard let pa = pa.baseAddress, let pb = pb.baseAddress, let pc = pc.baseAddress else {
                        // An empty operand: C = beta * C (k == 0 and m, n > 0 is the only case with output).
                        if let base = pc.baseAddress { for i in 0..<(m * n) { base[i] = beta == 0 ? 0 : beta * base[i] } }
                        return
                    }
                    Kernels.gemm(transA: transposeA, transB: transposeB, m: m, n: n, k: k, alpha: alpha,
                                 a: pa, lda: max(a.cols, 1), b: pb, ldb: max(b.cols, 1), beta: beta, c: pc, ldc: max(cc, 1))
                }
            }
        }
    }

    /// `op(a) * op(b)`.
    public static func multiply(_ a: Matrix, transposeA: Bool = false, _ b: Matrix, transposeB: Bool = false) throws -> Matrix {
        var c = Matrix(rows: transposeA ? a.cols : a.rows, cols: transposeB ? b.rows : b.cols)
        try gemm(a, transposeA: transposeA, b, transposeB: transposeB, into: &c)
        return c
    }

    /// `op(self) * x` (BLAS dgemv).
    public func multiply(_ x: [Double], transpose: Bool = false) throws -> [Double] {
        let n = transpose ? rows : cols
        let m = transpose ? cols : rows
        guard x.count == n else {
            throw LearnError.shapeMismatch(what: "matrix-vector product", expected: "vector of \(n)", found: "vector of \(x.count)")
        }
        var y = [Double](repeating: 0, count: m)
        if m == 0 || n == 0 { return y }
        values.withUnsafeBufferPointer { pa in
            x.withUnsafeBufferPointer { px in
                y.withUnsafeMutableBufferPointer { py in
                    Kernels.gemv(trans: transpose, m: rows, n: cols, alpha: 1, a: pa.baseAddress!, lda: cols,
                                 x: px.baseAddress!, beta: 0, y: py.baseAddress!)
                }
            }
        }
        return y
    }

    /// `self += alpha * other` (BLAS daxpy).
    public mutating func add(_ other: Matrix, scaledBy alpha: Double = 1) throws {
        guard other.rows == rows, other.cols == cols else {
            throw LearnError.shapeMismatch(what: "matrix sum", expected: "\(rows) × \(cols)", found: "\(other.rows) × \(other.cols)")
        }
        let n = count
        if n == 0 { return }
        other.values.withUnsafeBufferPointer { px in
            values.withUnsafeMutableBufferPointer { py in
                Kernels.axpy(n: n, alpha: alpha, x: px.baseAddress!, y: py.baseAddress!)
            }
        }
    }
}

/// Vector helpers on `[Double]` used across MotusLearn.
public enum Vector {
    /// Σ x[i] * y[i] (BLAS ddot for long vectors).
    public static func dot(_ x: [Double], _ y: [Double]) -> Double {
        precondition(x.count == y.count, "dot: vectors of different length")
        if x.isEmpty { return 0 }
        return x.withUnsafeBufferPointer { px in
            y.withUnsafeBufferPointer { py in Kernels.dot(n: x.count, x: px.baseAddress!, y: py.baseAddress!) }
        }
    }

    /// y += alpha * x (BLAS daxpy for long vectors).
    public static func axpy(_ alpha: Double, _ x: [Double], _ y: inout [Double]) {
        precondition(x.count == y.count, "axpy: vectors of different length")
        if x.isEmpty { return }
        x.withUnsafeBufferPointer { px in
            y.withUnsafeMutableBufferPointer { py in Kernels.axpy(n: x.count, alpha: alpha, x: px.baseAddress!, y: py.baseAddress!) }
        }
    }
}

// MARK: - Codable

extension Matrix: Codable {
    private enum CodingKeys: String, CodingKey { case rows, cols, values }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let r = try c.decode(Int.self, forKey: .rows)
        let k = try c.decode(Int.self, forKey: .cols)
        let v = try c.decode([Double].self, forKey: .values)
        guard r >= 0, k >= 0, v.count == r * k else {
            throw DecodingError.dataCorruptedError(forKey: .values, in: c,
                debugDescription: "Matrix \(r) × \(k) needs \(max(r, 0) * max(k, 0)) values, found \(v.count)")
        }
        self.rows = r
        self.cols = k
        self.values = v
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rows, forKey: .rows)
        try c.encode(cols, forKey: .cols)
        try c.encode(values, forKey: .values)
    }
}
