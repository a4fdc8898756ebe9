#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// L2-regularised logistic regression: binary (one sigmoid output) for 2 classes, multinomial
/// (softmax over k outputs) for more. Fitted by L-BFGS from zero, so deterministic.
///
/// Objective: `(1/S) Σᵢ wᵢ ℓᵢ + (l2/2) ‖W‖²`, with wᵢ the sample × class weights, S = Σ wᵢ, ℓᵢ the
/// log loss, and the intercepts not penalised. scikit-learn's `C` corresponds to `l2 = 1 / (C · n)`
/// for unit weights (`C = 1` on 100 000 rows is `l2 = 1e-5`).
///
/// Each loss/gradient evaluation streams `X` once, in row blocks that fit in L2 cache, with two
/// BLAS products per block.
public struct LogisticRegression: Classifier {
    /// The hyperparameters.
    public struct Configuration: Codable, Equatable, Hashable, Sendable {
        /// L2 penalty on the weights (not the intercepts). Must be > 0 for multinomial problems to be well posed; ≥ 0.
        public var l2: Double
        /// How rows are weighted by class (uniform, or balanced against class frequency).
        public var classWeighting: ClassWeighting
        /// Learn an intercept per class.
        public var fitIntercept: Bool
        /// Stop when the largest gradient component is at most this (the loss is a mean, so this is scale-free).
        public var tolerance: Double
        /// Most L-BFGS iterations.
        public var maxIterations: Int
        /// L-BFGS memory.
        public var memory: Int

        /// Hyperparameters; defaults as in the signature.
        public init(l2: Double = 1e-4, classWeighting: ClassWeighting = .uniform, fitIntercept: Bool = true,
                    tolerance: Double = 1e-5, maxIterations: Int = 500, memory: Int = 10) {
            self.l2 = l2
            self.classWeighting = classWeighting
            self.fitIntercept = fitIntercept
            self.tolerance = tolerance
            self.maxIterations = maxIterations
            self.memory = memory
        }
    }

    /// Learned parameters. For 2 classes, `coefficients` is `1 × d` and scores class 1 against class 0;
    /// for k > 2 it is `k × d` (one row per class) with `k` intercepts.
    public struct State: Codable, Equatable, Hashable, Sendable {
        /// Number of classes.
        public var classCount: Int
        /// Weights: `1 × d` for two classes, `k × d` for k > 2.
        public var coefficients: Matrix
        /// Intercepts: one for two classes, k for k > 2.
        public var intercepts: [Double]
        /// Features per row (d).
        public var featureCount: Int { coefficients.cols }
        /// A state from its parts (as a model file holds them).
        public init(classCount: Int, coefficients: Matrix, intercepts: [Double]) {
            self.classCount = classCount
            self.coefficients = coefficients
            self.intercepts = intercepts
        }
    }

    /// What the last `fit` did (not part of the model).
    public struct FitSummary: Sendable, Equatable {
        /// L-BFGS iterations.
        public var iterations: Int
        /// Loss and gradient evaluations.
        public var evaluations: Int
        /// Final penalised mean loss.
        public var loss: Double
        /// Largest gradient component at the end.
        public var gradientInfinityNorm: Double
        /// Why the optimiser stopped.
        public var stop: LBFGS.Stop
    }

    public private(set) var configuration: Configuration
    public private(set) var state: State?
    /// What the last `fit` did; nil before one.
    public private(set) var lastFit: FitSummary?

    /// An unfitted model with these hyperparameters (see `Configuration`).
    public init(l2: Double = 1e-4, classWeighting: ClassWeighting = .uniform, fitIntercept: Bool = true,
                tolerance: Double = 1e-5, maxIterations: Int = 500, memory: Int = 10) {
        self.configuration = Configuration(l2: l2, classWeighting: classWeighting, fitIntercept: fitIntercept,
                                           tolerance: tolerance, maxIterations: maxIterations, memory: memory)
    }

    public init(configuration: Configuration, state: State?) throws {
        self.configuration = configuration
        if let s = state {
            let outputs = s.classCount == 2 ? 1 : s.classCount
            guard s.classCount >= 2, s.coefficients.rows == outputs, s.intercepts.count == outputs else {
                throw LearnError.shapeMismatch(what: "LogisticRegression.State", expected: "\(outputs) coefficient rows and intercepts for \(s.classCount) classes",
                                               found: "\(s.coefficients.rows) rows, \(s.intercepts.count) intercepts")
            }
        }
        self.state = state
    }

    public var classCount: Int? { state?.classCount }
    public var featureCount: Int? { state?.featureCount }

    public mutating func fit(_ x: Matrix, _ y: [Int], classCount: Int?, sampleWeights: [Double]?) throws {
        let c = configuration
        guard c.l2.isFinite, c.l2 >= 0 else { throw LearnError.invalidParameter(name: "l2", expected: "a finite number ≥ 0", found: "\(c.l2)") }
        guard c.tolerance.isFinite, c.tolerance > 0 else { throw LearnError.invalidParameter(name: "tolerance", expected: "a number > 0", found: "\(c.tolerance)") }
        guard c.maxIterations >= 1 else { throw LearnError.invalidParameter(name: "maxIterations", expected: "≥ 1", found: "\(c.maxIterations)") }
        guard c.memory >= 1 else { throw LearnError.invalidParameter(name: "memory", expected: "≥ 1", found: "\(c.memory)") }
        let input = try TrainingInput(estimator: "LogisticRegression", x: x, y: y, classCount: classCount,
                                      sampleWeights: sampleWeights, classWeighting: c.classWeighting)
        let k = input.classCount
        let d = x.cols
        let objective = LogisticObjective(x: x, y: y, weights: input.weights, classCount: k, l2: c.l2, fitIntercept: c.fitIntercept)
        var settings = LBFGS.Settings()
        settings.gradientTolerance = c.tolerance
        settings.maxIterations = c.maxIterations
        settings.memory = c.memory
        let theta0 = [Double](repeating: 0, count: objective.parameterCount)
        let result = LBFGS(settings: settings).minimize(from: theta0) { theta, grad in
            objective.evaluate(theta, gradient: &grad)
        }
        let outputs = objective.outputs
        let coef = Matrix(unchecked: outputs, cols: d, values: Array(result.x[0..<(outputs * d)]))
        let intercepts = Array(result.x[(outputs * d)..<(outputs * (d + 1))])
        state = State(classCount: k, coefficients: coef, intercepts: intercepts)
        lastFit = FitSummary(iterations: result.iterations, evaluations: result.evaluations, loss: result.value,
                             gradientInfinityNorm: result.gradientInfinityNorm, stop: result.stop)
    }

    public func predictProbabilities(_ x: Matrix) throws -> Matrix {
        guard let s = state else { throw LearnError.notFitted(estimator: "LogisticRegression") }
        try checkPredictInput(estimator: "LogisticRegression", x: x, featureCount: s.featureCount)
        return predictRows(x, classCount: s.classCount)
    }

    public var rowScratchCount: Int { 0 }

    /// One row: the scores `intercept + w · x` (one for 2 classes, scoring class 1), then the
    /// sigmoid or the softmax.
    public func predictProbabilities(row x: UnsafePointer<Double>, into p: UnsafeMutablePointer<Double>,
                                     scratch: UnsafeMutablePointer<Double>) {
        guard let s = state else { preconditionFailure("LogisticRegression: predict before fit") }
        let d = s.featureCount, k = s.classCount
        let outputs = k == 2 ? 1 : k
        s.coefficients.withUnsafeBufferPointer { wb in
            let w = wb.baseAddress!
            for o in 0..<outputs {
                var z = s.intercepts[o]
                let wo = w + o * d
                for j in 0..<d { z += wo[j] * x[j] }
                p[o] = z
            }
        }
        if k == 2 {
            let p1 = sigmoid(p[0])
            p[0] = 1 - p1; p[1] = p1
        } else {
            _ = softmaxRow(UnsafePointer(p), into: p, count: k)
        }
    }

    /// The objective at `state` on `x, y` (for checks and reports): weighted mean log loss + L2 term.
    public func objectiveValue(_ x: Matrix, _ y: [Int], sampleWeights: [Double]? = nil) throws -> Double {
        guard let s = state else { throw LearnError.notFitted(estimator: "LogisticRegression") }
        try checkPredictInput(estimator: "LogisticRegression", x: x, featureCount: s.featureCount)
        let input = try TrainingInput(estimator: "LogisticRegression", x: x, y: y, classCount: s.classCount,
                                      sampleWeights: sampleWeights, classWeighting: configuration.classWeighting)
        let obj = LogisticObjective(x: x, y: y, weights: input.weights, classCount: s.classCount, l2: configuration.l2,
                                    fitIntercept: configuration.fitIntercept)
        var g = [Double](repeating: 0, count: obj.parameterCount)
        return obj.evaluate(s.coefficients.values + s.intercepts, gradient: &g)
    }
}

@inline(__always)
func sigmoid(_ z: Double) -> Double {
    z >= 0 ? 1 / (1 + exp(-z)) : { let e = exp(z); return e / (1 + e) }()
}

/// log(1 + exp(z)) without overflow.
@inline(__always)
func log1pExp(_ z: Double) -> Double {
    z > 0 ? z + log1p(exp(-z)) : log1p(exp(z))
}

/// Softmax of `count` scores; returns log Σ exp(z) (for the loss).
@inline(__always) @discardableResult
func softmaxRow(_ z: UnsafePointer<Double>, into p: UnsafeMutablePointer<Double>, count k: Int) -> Double {
    var m = z[0]
    for c in 1..<k where z[c] > m { m = z[c] }
    var s = 0.0
    for c in 0..<k {
        let e = exp(z[c] - m)
        p[c] = e
        s += e
    }
    let inv = 1 / s
    for c in 0..<k { p[c] *= inv }
    return m + log(s)
}

/// Loss and gradient of L2-regularised logistic regression, parameters laid out as
/// `[W (outputs × d, row-major), b (outputs)]`.
struct LogisticObjective {
    let x: Matrix
    let y: [Int]
    let weights: [Double]   // mean 1
    let classCount: Int
    let l2: Double
    let fitIntercept: Bool
    var outputs: Int { classCount == 2 ? 1 : classCount }
    var parameterCount: Int { outputs * (x.cols + 1) }

    /// Up to this many outputs, the multinomial products use one gemv per class instead of
    /// dgemm, which for a few classes streams the data fewer times (LearnBenchmarks times both).
    static let gemvClassLimit = 16

    /// Rows per block: about 256 KiB of X, so a block stays in L2 between the two products.
    var blockRows: Int { max(16, min(x.rows, 32_768 / max(x.cols, 1))) }

    func evaluate(_ theta: [Double], gradient g: inout [Double]) -> Double {
        let n = x.rows, d = x.cols, o = outputs, k = classCount
        let invN = 1 / Double(n)
        for i in 0..<g.count { g[i] = 0 }
        var loss = 0.0
        let bRows = blockRows
        var z = [Double](repeating: 0, count: bRows * o)
        var zt = [Double](repeating: 0, count: bRows * o)
        var p = [Double](repeating: 0, count: k)
        x.withUnsafeBufferPointer { xb in
            theta.withUnsafeBufferPointer { tb in
                g.withUnsafeMutableBufferPointer { gb in
                    z.withUnsafeMutableBufferPointer { zb in
                        p.withUnsafeMutableBufferPointer { pb in
                          zt.withUnsafeMutableBufferPointer { ztb in
                            let X = xb.baseAddress!, W = tb.baseAddress!, G = gb.baseAddress!, Z = zb.baseAddress!, P = pb.baseAddress!
                            let ZT = ztb.baseAddress!
                            let bias = W + o * d
                            var start = 0
                            while start < n {
                                let nb = min(bRows, n - start)
                                let Xb = X + start * d
                                if o == 1 {
                                    Kernels.gemv(trans: false, m: nb, n: d, alpha: 1, a: Xb, lda: d, x: W, beta: 0, y: Z)
                                    for r in 0..<nb {
                                        let i = start + r
                                        let zi = Z[r] + bias[0]
                                        let yi = Double(y[i])
                                        let wi = weights[i]
                                        loss += wi * (log1pExp(zi) - yi * zi)
                                        Z[r] = wi * (sigmoid(zi) - yi) * invN
                                    }
                                    Kernels.gemv(trans: true, m: nb, n: d, alpha: 1, a: Xb, lda: d, x: Z, beta: 1, y: G)
                                    for r in 0..<nb { G[d] += Z[r] }
                                } else {
                                    if o <= LogisticObjective.gemvClassLimit {
                                        // Skinny products: one gemv per class re-reads the block from L2 and
                                        // beats dgemm, whose packing of the block costs as much as the arithmetic.
                                        for c in 0..<o {
                                            Kernels.gemv(trans: false, m: nb, n: d, alpha: 1, a: Xb, lda: d, x: W + c * d, beta: 0, y: ZT + c * nb)
                                        }
                                        for r in 0..<nb { for c in 0..<o { Z[r * o + c] = ZT[c * nb + r] } }
                                    } else {
                                        Kernels.gemm(transA: false, transB: true, m: nb, n: o, k: d, alpha: 1, a: Xb, lda: d,
                                                     b: W, ldb: d, beta: 0, c: Z, ldc: o)
                                    }
                                    for r in 0..<nb {
                                        let i = start + r
                                        let zr = Z + r * o
                                        for c in 0..<o { zr[c] += bias[c] }
                                        let lse = softmaxRow(zr, into: P, count: k)
                                        let yi = y[i]
                                        let wi = weights[i]
                                        loss += wi * (lse - zr[yi])
                                        let s = wi * invN
                                        for c in 0..<o { zr[c] = s * (P[c] - (c == yi ? 1 : 0)) }
                                    }
                                    // G_W (o × d) += Zᵀ (o × nb) · Xb (nb × d)
                                    if o <= LogisticObjective.gemvClassLimit {
                                        for r in 0..<nb { for c in 0..<o { ZT[c * nb + r] = Z[r * o + c] } }
                                        for c in 0..<o {
                                            Kernels.gemv(trans: true, m: nb, n: d, alpha: 1, a: Xb, lda: d, x: ZT + c * nb, beta: 1, y: G + c * d)
                                        }
                                    } else {
                                        Kernels.gemm(transA: true, transB: false, m: o, n: d, k: nb, alpha: 1, a: Z, lda: o,
                                                     b: Xb, ldb: d, beta: 1, c: G, ldc: d)
                                    }
                                    for r in 0..<nb {
                                        for c in 0..<o { G[o * d + c] += Z[r * o + c] }
                                    }
                                }
                                start += nb
                            }
                            var pen = 0.0
                            for j in 0..<(o * d) {
                                pen += W[j] * W[j]
                                G[j] += l2 * W[j]
                            }
                            loss = loss * invN + 0.5 * l2 * pen
                            if !fitIntercept { for c in 0..<o { G[o * d + c] = 0 } }
                          }
                        }
                    }
                }
            }
        }
        return loss
    }
}
