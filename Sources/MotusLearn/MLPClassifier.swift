#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A multilayer perceptron: ReLU hidden layers, softmax output, trained by mini-batch Adam with an
/// L2 penalty and (optionally) early stopping on a seeded, stratified validation split.
///
/// Mirrors scikit-learn's `MLPClassifier(solver="adam")`: Glorot-uniform initialisation of weights
/// and biases, per-batch loss `(1/B) Σ wᵢ ℓᵢ + (alpha / 2B) ‖W‖²`, the same Adam step. Two
/// differences: the output is always a k-way softmax (also for 2 classes), and early stopping
/// watches the validation log loss (not accuracy) and restores the best weights.
///
/// Deterministic: one `SeededGenerator(seed)` draws, in order, the initial weights, the validation
/// split and each epoch's shuffle.
public struct MLPClassifier: Classifier {
    /// The hyperparameters, with scikit-learn's meanings.
    public struct Configuration: Codable, Equatable, Hashable, Sendable {
        /// Widths of the hidden layers (1 or 2 layers are typical; each ≥ 1).
        public var hiddenLayerSizes: [Int]
        /// L2 strength, scikit-learn semantics (penalty `alpha / (2 · batchSize) · ‖W‖²` per batch).
        public var alpha: Double
        /// Rows per mini-batch.
        public var batchSize: Int
        /// Adam's step size.
        public var learningRate: Double
        /// Adam's decay of the first moment.
        public var beta1: Double
        /// Adam's decay of the second moment.
        public var beta2: Double
        /// Adam's guard against division by zero.
        public var epsilon: Double
        /// Most passes over the data.
        public var maxEpochs: Int
        /// Hold out `validationFraction` of the rows (stratified by class) and stop when the
        /// validation loss has not improved by `tolerance` for `patience` epochs; keep the best weights.
        /// When false, the same rule is applied to the training loss and the last weights are kept.
        public var earlyStopping: Bool
        /// Share of rows held out for validation.
        public var validationFraction: Double
        /// Epochs without improvement before stopping.
        public var patience: Int
        /// Smallest improvement of the loss that counts.
        public var tolerance: Double
        /// How rows are weighted by class.
        public var classWeighting: ClassWeighting
        /// Seed of the initial weights, the validation split and the shuffles.
        public var seed: UInt64

        /// Hyperparameters; defaults as in the signature.
        public init(hiddenLayerSizes: [Int] = [32], alpha: Double = 1e-4, batchSize: Int = 200, learningRate: Double = 1e-3,
                    beta1: Double = 0.9, beta2: Double = 0.999, epsilon: Double = 1e-8, maxEpochs: Int = 200,
                    earlyStopping: Bool = true, validationFraction: Double = 0.1, patience: Int = 10, tolerance: Double = 1e-4,
                    classWeighting: ClassWeighting = .uniform, seed: UInt64 = 0) {
            self.hiddenLayerSizes = hiddenLayerSizes
            self.alpha = alpha
            self.batchSize = batchSize
            self.learningRate = learningRate
            self.beta1 = beta1
            self.beta2 = beta2
            self.epsilon = epsilon
            self.maxEpochs = maxEpochs
            self.earlyStopping = earlyStopping
            self.validationFraction = validationFraction
            self.patience = patience
            self.tolerance = tolerance
            self.classWeighting = classWeighting
            self.seed = seed
        }
    }

    /// One dense layer: `out = in · weights + biases`, weights `fanIn × fanOut`.
    public struct Layer: Codable, Equatable, Hashable, Sendable {
        /// `fanIn × fanOut` weights.
        public var weights: Matrix
        /// `fanOut` biases.
        public var biases: [Double]
        /// A layer from its parts.
        public init(weights: Matrix, biases: [Double]) {
            self.weights = weights
            self.biases = biases
        }
    }

    /// Learned parameters: hidden layers (ReLU) then the output layer (softmax over `classCount`).
    public struct State: Codable, Equatable, Hashable, Sendable {
        /// Number of classes.
        public var classCount: Int
        /// Hidden layers, then the output layer.
        public var layers: [Layer]
        /// Features per row (the first layer's fan-in).
        public var featureCount: Int { layers.first?.weights.rows ?? 0 }
        /// A state from its parts (as a model file holds them).
        public init(classCount: Int, layers: [Layer]) {
            self.classCount = classCount
            self.layers = layers
        }
    }

    /// Why training stopped.
    public enum Stop: String, Sendable, Codable {
        /// The (validation) loss stopped improving for `patience` epochs.
        case noImprovement
        /// `maxEpochs` were run.
        case maxEpochs
    }

    /// What the last `fit` did (not part of the model).
    public struct FitSummary: Sendable, Equatable {
        /// Epochs run.
        public var epochs: Int
        /// 1-based epoch whose weights were kept.
        public var bestEpoch: Int
        /// Training loss per epoch.
        public var trainingLoss: [Double]
        /// Per epoch, when early stopping is on (and the split is non-empty).
        public var validationLoss: [Double]
        /// Why training stopped.
        public var stop: Stop
    }

    public private(set) var configuration: Configuration
    public private(set) var state: State?
    /// What the last `fit` did; nil before one.
    public private(set) var lastFit: FitSummary?

    /// An unfitted network with these hyperparameters (see `Configuration`).
    public init(hiddenLayerSizes: [Int] = [32], alpha: Double = 1e-4, batchSize: Int = 200, learningRate: Double = 1e-3,
                maxEpochs: Int = 200, earlyStopping: Bool = true, validationFraction: Double = 0.1, patience: Int = 10,
                tolerance: Double = 1e-4, classWeighting: ClassWeighting = .uniform, seed: UInt64 = 0) {
        self.configuration = Configuration(hiddenLayerSizes: hiddenLayerSizes, alpha: alpha, batchSize: batchSize,
                                           learningRate: learningRate, maxEpochs: maxEpochs, earlyStopping: earlyStopping,
                                           validationFraction: validationFraction, patience: patience, tolerance: tolerance,
                                           classWeighting: classWeighting, seed: seed)
    }

    public init(configuration: Configuration, state: State?) throws {
        self.configuration = configuration
        if let s = state {
            guard !s.layers.isEmpty, s.classCount >= 2, s.layers.last!.weights.cols == s.classCount else {
                throw LearnError.shapeMismatch(what: "MLPClassifier.State", expected: "≥ 1 layer ending in \(s.classCount) outputs",
                                               found: "\(s.layers.count) layers, \(s.layers.last?.weights.cols ?? 0) outputs")
            }
            for l in 0..<s.layers.count {
                let layer = s.layers[l]
                guard layer.biases.count == layer.weights.cols, l == 0 || layer.weights.rows == s.layers[l - 1].weights.cols else {
                    throw LearnError.shapeMismatch(what: "MLPClassifier.State layer \(l)", expected: "consistent fan-in/fan-out and bias count",
                                                   found: "weights \(layer.weights.rows) × \(layer.weights.cols), \(layer.biases.count) biases")
                }
            }
        }
        self.state = state
    }

    public var classCount: Int? { state?.classCount }
    public var featureCount: Int? { state?.featureCount }

    private func validateConfiguration() throws {
        let c = configuration
        guard !c.hiddenLayerSizes.isEmpty, c.hiddenLayerSizes.allSatisfy({ $0 >= 1 }) else {
            throw LearnError.invalidParameter(name: "hiddenLayerSizes", expected: "at least one layer, each ≥ 1 unit", found: "\(c.hiddenLayerSizes)")
        }
        guard c.alpha.isFinite, c.alpha >= 0 else { throw LearnError.invalidParameter(name: "alpha", expected: "a finite number ≥ 0", found: "\(c.alpha)") }
        guard c.batchSize >= 1 else { throw LearnError.invalidParameter(name: "batchSize", expected: "≥ 1", found: "\(c.batchSize)") }
        guard c.learningRate.isFinite, c.learningRate > 0 else { throw LearnError.invalidParameter(name: "learningRate", expected: "> 0", found: "\(c.learningRate)") }
        guard c.maxEpochs >= 1 else { throw LearnError.invalidParameter(name: "maxEpochs", expected: "≥ 1", found: "\(c.maxEpochs)") }
        guard c.validationFraction >= 0, c.validationFraction < 1 else {
            throw LearnError.invalidParameter(name: "validationFraction", expected: "in [0, 1)", found: "\(c.validationFraction)")
        }
        guard c.patience >= 1 else { throw LearnError.invalidParameter(name: "patience", expected: "≥ 1", found: "\(c.patience)") }
        guard (0..<1).contains(c.beta1), (0..<1).contains(c.beta2), c.epsilon > 0 else {
            throw LearnError.invalidParameter(name: "Adam beta1/beta2/epsilon", expected: "beta in [0, 1), epsilon > 0", found: "\(c.beta1), \(c.beta2), \(c.epsilon)")
        }
    }

    public mutating func fit(_ x: Matrix, _ y: [Int], classCount: Int?, sampleWeights: [Double]?) throws {
        try validateConfiguration()
        let c = configuration
        let input = try TrainingInput(estimator: "MLPClassifier", x: x, y: y, classCount: classCount,
                                      sampleWeights: sampleWeights, classWeighting: c.classWeighting)
        let k = input.classCount
        let net = MLPNetwork(sizes: [x.cols] + c.hiddenLayerSizes + [k])
        var rng = SeededGenerator(seed: c.seed)
        var params = net.initialParameters(&rng)

        // Seeded stratified validation split.
        var trainIdx = [Int](), valIdx = [Int]()
        if c.earlyStopping && c.validationFraction > 0 {
            var byClass = [[Int]](repeating: [], count: k)
            for (i, label) in y.enumerated() { byClass[label].append(i) }
            for var idx in byClass {
                rng.shuffle(&idx)
                let nv = min(idx.count - 1, Int((Double(idx.count) * c.validationFraction).rounded()))
                if nv > 0 {
                    valIdx.append(contentsOf: idx[0..<nv])
                    trainIdx.append(contentsOf: idx[nv...])
                } else {
                    trainIdx.append(contentsOf: idx)
                }
            }
            trainIdx.sort()
            valIdx.sort()
        } else {
            trainIdx = Array(0..<x.rows)
        }
        let useValidation = !valIdx.isEmpty
        let xVal = useValidation ? x.selectingRows(valIdx) : Matrix(rows: 0, cols: x.cols)
        let yVal = valIdx.map { y[$0] }
        let wVal = valIdx.map { input.weights[$0] }

        let nTrain = trainIdx.count
        let bs = min(c.batchSize, nTrain)
        let work = MLPNetwork.Workspace(net: net, batchRows: bs)
        var grad = [Double](repeating: 0, count: net.parameterCount)
        var adamM = [Double](repeating: 0, count: net.parameterCount)
        var adamV = [Double](repeating: 0, count: net.parameterCount)
        var beta1t = 1.0, beta2t = 1.0
        var batchX = [Double](repeating: 0, count: bs * x.cols)
        var batchY = [Int](repeating: 0, count: bs)
        var batchW = [Double](repeating: 0, count: bs)
        var order = trainIdx
        var best = Double.infinity
        var bestParams = params
        var bestEpoch = 0
        var sinceBest = 0
        var trainLosses = [Double](), valLosses = [Double]()
        var stop = Stop.maxEpochs
        let d = x.cols

        for epoch in 1...c.maxEpochs {
            rng.shuffle(&order)
            var epochLoss = 0.0
            var start = 0
            while start < nTrain {
                let nb = min(bs, nTrain - start)
                x.withUnsafeBufferPointer { xb in
                    batchX.withUnsafeMutableBufferPointer { bx in
                        for r in 0..<nb {
                            let i = order[start + r]
                            (bx.baseAddress! + r * d).update(from: xb.baseAddress! + i * d, count: d)
                            batchY[r] = y[i]
                            batchW[r] = input.weights[i]
                        }
                    }
                }
                let loss = net.lossAndGradient(params: params, x: batchX, rows: nb, y: batchY, weights: batchW,
                                               alpha: c.alpha, gradient: &grad, work: work)
                epochLoss += loss * Double(nb)
                // Adam (scikit-learn's form: bias correction folded into the step size).
                beta1t *= c.beta1
                beta2t *= c.beta2
                let step = c.learningRate * (1 - beta2t).squareRoot() / (1 - beta1t)
                let b1 = c.beta1, b2 = c.beta2, eps = c.epsilon
                params.withUnsafeMutableBufferPointer { p in
                    grad.withUnsafeBufferPointer { g in
                        adamM.withUnsafeMutableBufferPointer { m in
                            adamV.withUnsafeMutableBufferPointer { v in
                                adamStep(p.baseAddress!, g.baseAddress!, m.baseAddress!, v.baseAddress!, count: p.count,
                                         step: step, b1: b1, b2: b2, eps: eps)
                            }
                        }
                    }
                }
                start += nb
            }
            epochLoss /= Double(nTrain)
            trainLosses.append(epochLoss)
            let monitored: Double
            if useValidation {
                let vl = net.meanLogLoss(params: params, x: xVal, y: yVal, weights: wVal)
                valLosses.append(vl)
                monitored = vl
            } else {
                monitored = epochLoss
            }
            guard monitored.isFinite else {
                throw LearnError.nonFinite(what: "MLPClassifier training loss (epoch \(epoch); lower learningRate?)", row: 0, column: 0)
            }
            if monitored < best - c.tolerance {
                sinceBest = 0
            } else {
                sinceBest += 1
            }
            if monitored < best {
                best = monitored
                if useValidation { bestParams = params; bestEpoch = epoch }
            }
            if sinceBest >= c.patience {
                stop = .noImprovement
                break
            }
        }
        if useValidation {
            params = bestParams
        } else {
            bestEpoch = trainLosses.count
        }
        state = State(classCount: k, layers: net.layers(from: params))
        lastFit = FitSummary(epochs: trainLosses.count, bestEpoch: bestEpoch, trainingLoss: trainLosses,
                             validationLoss: valLosses, stop: stop)
    }

    public func predictProbabilities(_ x: Matrix) throws -> Matrix {
        guard let s = state else { throw LearnError.notFitted(estimator: "MLPClassifier") }
        try checkPredictInput(estimator: "MLPClassifier", x: x, featureCount: s.featureCount)
        return predictRows(x, classCount: s.classCount)
    }

    /// The hidden layers' activations.
    public var rowScratchCount: Int { state.map { $0.layers.dropLast().reduce(0) { $0 + $1.weights.cols } } ?? 0 }

    /// One row, layer by layer: `bias + input · W`, ReLU on hidden layers, softmax on the last.
    public func predictProbabilities(row x: UnsafePointer<Double>, into p: UnsafeMutablePointer<Double>,
                                     scratch: UnsafeMutablePointer<Double>) {
        guard let s = state else { preconditionFailure("MLPClassifier: predict before fit") }
        var input = x
        var free = scratch
        for (l, layer) in s.layers.enumerated() {
            let fi = layer.weights.rows, fo = layer.weights.cols
            let last = l == s.layers.count - 1
            let out = last ? p : free
            layer.weights.withUnsafeBufferPointer { wb in
                let w = wb.baseAddress!
                for c in 0..<fo { out[c] = layer.biases[c] }
                for i in 0..<fi {
                    let v = input[i]
                    let wi = w + i * fo
                    for c in 0..<fo { out[c] += v * wi[c] }
                }
            }
            if last {
                _ = softmaxRow(UnsafePointer(out), into: out, count: fo)
            } else {
                for c in 0..<fo where !(out[c] > 0) { out[c] = 0 }
                input = UnsafePointer(out)
                free += fo
            }
        }
    }
}

/// Flat-parameter network used for training and prediction. Layer l maps `sizes[l]` → `sizes[l+1]`;
/// its weights (row-major `sizes[l] × sizes[l+1]`) start at `weightOffset[l]`, its biases at `biasOffset[l]`.
struct MLPNetwork {
    let sizes: [Int]
    let weightOffset: [Int]
    let biasOffset: [Int]
    let parameterCount: Int
    var layerCount: Int { sizes.count - 1 }

    init(sizes: [Int]) {
        self.sizes = sizes
        var wo = [Int](), bo = [Int]()
        var off = 0
        for l in 0..<(sizes.count - 1) {
            wo.append(off)
            off += sizes[l] * sizes[l + 1]
            bo.append(off)
            off += sizes[l + 1]
        }
        weightOffset = wo
        biasOffset = bo
        parameterCount = off
    }

    /// Glorot uniform, weights then biases per layer, bound `sqrt(6 / (fanIn + fanOut))`.
    func initialParameters(_ rng: inout SeededGenerator) -> [Double] {
        var p = [Double](repeating: 0, count: parameterCount)
        for l in 0..<layerCount {
            let bound = (6 / Double(sizes[l] + sizes[l + 1])).squareRoot()
            for j in weightOffset[l]..<(biasOffset[l] + sizes[l + 1]) {
                p[j] = (2 * rng.nextUniform() - 1) * bound
            }
        }
        return p
    }

    func layers(from p: [Double]) -> [MLPClassifier.Layer] {
        (0..<layerCount).map { l in
            let fi = sizes[l], fo = sizes[l + 1]
            return MLPClassifier.Layer(weights: Matrix(unchecked: fi, cols: fo, values: Array(p[weightOffset[l]..<(weightOffset[l] + fi * fo)])),
                                       biases: Array(p[biasOffset[l]..<(biasOffset[l] + fo)]))
        }
    }

    func parameters(from layers: [MLPClassifier.Layer]) -> [Double] {
        var p = [Double]()
        p.reserveCapacity(parameterCount)
        for layer in layers {
            p.append(contentsOf: layer.weights.values)
            p.append(contentsOf: layer.biases)
        }
        return p
    }

    /// Buffers for one batch, allocated once: activations (post-ReLU for hidden layers, probabilities
    /// for the last) and deltas, `batchRows × sizes[l+1]` each.
    final class Workspace {
        let batchRows: Int
        private let storage: UnsafeMutablePointer<Double>
        private let total: Int
        private var activationStart = [Int](), deltaStart = [Int]()
        init(net: MLPNetwork, batchRows: Int) {
            self.batchRows = batchRows
            var off = 0
            for l in 1..<net.sizes.count {
                activationStart.append(off); off += batchRows * net.sizes[l]
                deltaStart.append(off); off += batchRows * net.sizes[l]
            }
            total = max(off, 1)
            storage = .allocate(capacity: total)
            storage.initialize(repeating: 0, count: total)
        }
        deinit { storage.deallocate() }
        @inline(__always) func activation(_ l: Int) -> UnsafeMutablePointer<Double> { storage + activationStart[l] }
        @inline(__always) func delta(_ l: Int) -> UnsafeMutablePointer<Double> { storage + deltaStart[l] }
    }

    /// Forward pass of `rows` rows at `x` into `work.activations`. Returns nothing; the last activation holds probabilities.
    func forward(params: UnsafePointer<Double>, x: UnsafePointer<Double>, rows nb: Int, work: Workspace) {
        for l in 0..<layerCount {
            let fi = sizes[l], fo = sizes[l + 1]
            let last = l == layerCount - 1
            let input: UnsafePointer<Double> = l == 0 ? x : UnsafePointer(work.activation(l - 1))
            let out = work.activation(l)
            Kernels.gemm(transA: false, transB: false, m: nb, n: fo, k: fi, alpha: 1, a: input, lda: fi,
                         b: params + weightOffset[l], ldb: fo, beta: 0, c: out, ldc: fo)
            let bias = params + biasOffset[l]
            if last {
                for r in 0..<nb {
                    let row = out + r * fo
                    for c in 0..<fo { row[c] += bias[c] }
                    softmaxRow(row, into: row, count: fo)
                }
            } else {
                for r in 0..<nb {
                    let row = out + r * fo
                    for c in 0..<fo {
                        let v = row[c] + bias[c]
                        row[c] = v > 0 ? v : 0
                    }
                }
            }
        }
    }

    /// Batch loss `(1/nb) Σ wᵢ ℓᵢ + (alpha / 2nb) ‖W‖²` and its gradient (written to `gradient`).
    func lossAndGradient(params: [Double], x: [Double], rows nb: Int, y: [Int], weights: [Double], alpha: Double,
                         gradient: inout [Double], work: Workspace) -> Double {
        precondition(nb <= work.batchRows)
        let k = sizes[layerCount]
        let invN = 1 / Double(nb)
        var loss = 0.0
        params.withUnsafeBufferPointer { pb in
            x.withUnsafeBufferPointer { xb in
                gradient.withUnsafeMutableBufferPointer { gb in
                    let P = pb.baseAddress!, X = xb.baseAddress!, G = gb.baseAddress!
                    forward(params: P, x: X, rows: nb, work: work)
                    // Output delta: w (p - onehot) / nb.
                    let L = layerCount - 1
                    let probs = work.activation(L), db = work.delta(L)
                    for r in 0..<nb {
                        let yi = y[r], wi = weights[r]
                        loss += wi * -log(max(probs[r * k + yi], Double.leastNormalMagnitude))
                        let s = wi * invN
                        for c in 0..<k { db[r * k + c] = s * (probs[r * k + c] - (c == yi ? 1 : 0)) }
                    }
                    loss *= invN
                    let reg = alpha * invN
                    var penalty = 0.0
                    for l in stride(from: L, through: 0, by: -1) {
                        let fi = sizes[l], fo = sizes[l + 1]
                        let input: UnsafePointer<Double> = l == 0 ? X : UnsafePointer(work.activation(l - 1))
                        let delta = UnsafePointer(work.delta(l))
                        let W = P + weightOffset[l], GW = G + weightOffset[l], GB = G + biasOffset[l]
                        // GW = inputᵀ · delta + reg · W
                        Kernels.gemm(transA: true, transB: false, m: fi, n: fo, k: nb, alpha: 1, a: input, lda: fi,
                                     b: delta, ldb: fo, beta: 0, c: GW, ldc: fo)
                        for j in 0..<(fi * fo) {
                            penalty += W[j] * W[j]
                            GW[j] += reg * W[j]
                        }
                        for c in 0..<fo { GB[c] = 0 }
                        for r in 0..<nb {
                            for c in 0..<fo { GB[c] += delta[r * fo + c] }
                        }
                        if l > 0 {
                            // deltaPrev = delta · Wᵀ ⊙ (activation > 0)
                            let prev = work.delta(l - 1)
                            Kernels.gemm(transA: false, transB: true, m: nb, n: fi, k: fo, alpha: 1, a: delta, lda: fo,
                                         b: W, ldb: fo, beta: 0, c: prev, ldc: fi)
                            reluMask(prev, by: input, count: nb * fi)
                        }
                    }
                    loss += 0.5 * reg * penalty
                }
            }
        }
        return loss
    }

    /// Probabilities for all rows of `x`, in blocks of 256 rows.
    func probabilities(params: [Double], x: Matrix) -> Matrix {
        let k = sizes[layerCount], d = sizes[0]
        var out = Matrix(rows: x.rows, cols: k)
        let block = min(256, max(x.rows, 1))
        let work = Workspace(net: self, batchRows: block)
        params.withUnsafeBufferPointer { pb in
            x.withUnsafeBufferPointer { xb in
                out.withUnsafeMutableBufferPointer { ob in
                    var start = 0
                    while start < x.rows {
                        let nb = min(block, x.rows - start)
                        forward(params: pb.baseAddress!, x: xb.baseAddress! + start * d, rows: nb, work: work)
                        (ob.baseAddress! + start * k).update(from: work.activation(layerCount - 1), count: nb * k)
                        start += nb
                    }
                }
            }
        }
        return out
    }

    /// Weighted mean log loss `Σ wᵢ ℓᵢ / Σ wᵢ` (no penalty).
    func meanLogLoss(params: [Double], x: Matrix, y: [Int], weights: [Double]) -> Double {
        let p = probabilities(params: params, x: x)
        let k = p.cols
        var s = 0.0, ws = 0.0
        for i in 0..<x.rows {
            s += weights[i] * -log(max(p.values[i * k + y[i]], Double.leastNormalMagnitude))
            ws += weights[i]
        }
        return ws > 0 ? s / ws : 0
    }
}

/// One Adam update, four lanes at a time (elementwise IEEE operations, so the result is the same as
/// the scalar loop, bit for bit).
@inline(__always)
func adamStep(_ p: UnsafeMutablePointer<Double>, _ g: UnsafePointer<Double>, _ m: UnsafeMutablePointer<Double>,
              _ v: UnsafeMutablePointer<Double>, count n: Int, step: Double, b1: Double, b2: Double, eps: Double) {
    typealias V4 = SIMD4<Double>
    let vb1 = V4(repeating: b1), vb2 = V4(repeating: b2), c1 = V4(repeating: 1 - b1), c2 = V4(repeating: 1 - b2)
    let vstep = V4(repeating: step), veps = V4(repeating: eps)
    var j = 0
    while j + 4 <= n {
        let gj = UnsafeRawPointer(g + j).loadUnaligned(as: V4.self)
        let mj = vb1 * UnsafeRawPointer(m + j).loadUnaligned(as: V4.self) + c1 * gj
        let vj = vb2 * UnsafeRawPointer(v + j).loadUnaligned(as: V4.self) + c2 * (gj * gj)
        let pj = UnsafeRawPointer(p + j).loadUnaligned(as: V4.self) - vstep * mj / (vj.squareRoot() + veps)
        UnsafeMutableRawPointer(m + j).storeBytes(of: mj, as: V4.self)
        UnsafeMutableRawPointer(v + j).storeBytes(of: vj, as: V4.self)
        UnsafeMutableRawPointer(p + j).storeBytes(of: pj, as: V4.self)
        j += 4
    }
    while j < n {
        let gj = g[j]
        m[j] = b1 * m[j] + (1 - b1) * gj
        v[j] = b2 * v[j] + (1 - b2) * (gj * gj)
        p[j] -= step * m[j] / (v[j].squareRoot() + eps)
        j += 1
    }
}

/// `delta[j] = 0` where `activation[j] <= 0`, four lanes at a time (no branches: the mask is random).
@inline(__always)
func reluMask(_ delta: UnsafeMutablePointer<Double>, by activation: UnsafePointer<Double>, count n: Int) {
    typealias V4 = SIMD4<Double>
    var j = 0
    while j + 4 <= n {
        let a = UnsafeRawPointer(activation + j).loadUnaligned(as: V4.self)
        var d = UnsafeRawPointer(delta + j).loadUnaligned(as: V4.self)
        d.replace(with: 0, where: a .<= 0)
        UnsafeMutableRawPointer(delta + j).storeBytes(of: d, as: V4.self)
        j += 4
    }
    while j < n {
        if activation[j] <= 0 { delta[j] = 0 }
        j += 1
    }
}
