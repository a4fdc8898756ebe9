#if canImport(Accelerate)
import Accelerate
#else
import CBLAS
#endif

/// Thin, unchecked wrappers over CBLAS (OpenBLAS on Linux, Accelerate on Apple) plus plain-loop
/// paths for small sizes, where the call overhead of BLAS (and OpenBLAS's threading) costs more
/// than the arithmetic. Callers check shapes; these functions only assert in debug builds.
///
/// All matrices are row-major. `lda`, `ldb`, `ldc` are row strides in elements.
@usableFromInline
enum Kernels {
    /// Products with `m * n * k` at or below this use the plain loop: below it a BLAS call's
    /// fixed cost outweighs the arithmetic (`LearnBenchmarks.gemmThreshold` finds the crossover).
    @usableFromInline static let gemmLoopLimit = 256
    /// Vectors at or below this length use the plain loop in `gemv`/`axpy`/`dot`.
    @usableFromInline static let vectorLoopLimit = 64

    /// C = alpha * op(A) * op(B) + beta * C, with op(A) m×k, op(B) k×n, C m×n.
    @inlinable
    static func gemm(transA: Bool, transB: Bool, m: Int, n: Int, k: Int, alpha: Double,
                     a: UnsafePointer<Double>, lda: Int, b: UnsafePointer<Double>, ldb: Int,
                     beta: Double, c: UnsafeMutablePointer<Double>, ldc: Int) {
        if m == 0 || n == 0 { return }
        if m * n * k <= gemmLoopLimit || k == 0 {
            gemmLoop(transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, a: a, lda: lda,
                     b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
            return
        }
        cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
                    Int32(m), Int32(n), Int32(k), alpha, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// Plain-loop GEMM (also the reference for small sizes).
    @inlinable
    static func gemmLoop(transA: Bool, transB: Bool, m: Int, n: Int, k: Int, alpha: Double,
                         a: UnsafePointer<Double>, lda: Int, b: UnsafePointer<Double>, ldb: Int,
                         beta: Double, c: UnsafeMutablePointer<Double>, ldc: Int) {
        for i in 0..<m {
            let ci = c + i * ldc
            if beta == 0 {
                for j in 0..<n { ci[j] = 0 }
            } else if beta != 1 {
                for j in 0..<n { ci[j] *= beta }
            }
            for p in 0..<k {
                let aip = alpha * (transA ? a[p * lda + i] : a[i * lda + p])
                if aip == 0 { continue }
                if transB {
                    for j in 0..<n { ci[j] += aip * b[j * ldb + p] }
                } else {
                    let bp = b + p * ldb
                    for j in 0..<n { ci[j] += aip * bp[j] }
                }
            }
        }
    }

    /// y = alpha * op(A) * x + beta * y, A is m×n (before op).
    @inlinable
    static func gemv(trans: Bool, m: Int, n: Int, alpha: Double, a: UnsafePointer<Double>, lda: Int,
                     x: UnsafePointer<Double>, beta: Double, y: UnsafeMutablePointer<Double>) {
        if m == 0 || n == 0 {
            let len = trans ? n : m
            for i in 0..<len { y[i] = beta == 0 ? 0 : beta * y[i] }
            return
        }
        if m * n <= gemmLoopLimit {
            gemvLoop(trans: trans, m: m, n: n, alpha: alpha, a: a, lda: lda, x: x, beta: beta, y: y)
            return
        }
        cblas_dgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, Int32(m), Int32(n), alpha, a,
                    Int32(lda), x, 1, beta, y, 1)
    }

    @inlinable
    static func gemvLoop(trans: Bool, m: Int, n: Int, alpha: Double, a: UnsafePointer<Double>, lda: Int,
                         x: UnsafePointer<Double>, beta: Double, y: UnsafeMutablePointer<Double>) {
        if trans {
            for j in 0..<n { y[j] = beta == 0 ? 0 : beta * y[j] }
            for i in 0..<m {
                let s = alpha * x[i]
                let ai = a + i * lda
                for j in 0..<n { y[j] += s * ai[j] }
            }
        } else {
            for i in 0..<m {
                let ai = a + i * lda
                var s = 0.0
                for j in 0..<n { s += ai[j] * x[j] }
                y[i] = alpha * s + (beta == 0 ? 0 : beta * y[i])
            }
        }
    }

    /// y += alpha * x.
    @inlinable
    static func axpy(n: Int, alpha: Double, x: UnsafePointer<Double>, y: UnsafeMutablePointer<Double>) {
        if n <= vectorLoopLimit {
            for i in 0..<n { y[i] += alpha * x[i] }
            return
        }
        cblas_daxpy(Int32(n), alpha, x, 1, y, 1)
    }

    /// Σ x[i] * y[i].
    @inlinable
    static func dot(n: Int, x: UnsafePointer<Double>, y: UnsafePointer<Double>) -> Double {
        if n <= vectorLoopLimit {
            var s = 0.0
            for i in 0..<n { s += x[i] * y[i] }
            return s
        }
        return cblas_ddot(Int32(n), x, 1, y, 1)
    }

    /// x *= alpha.
    @inlinable
    static func scale(n: Int, alpha: Double, x: UnsafeMutablePointer<Double>) {
        for i in 0..<n { x[i] *= alpha }
    }
}
