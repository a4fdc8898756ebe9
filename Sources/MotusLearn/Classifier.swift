/// How classes are weighted in the training loss.
public enum ClassWeighting: Codable, Equatable, Hashable, Sendable {
    /// Every class weighs 1.
    case uniform
    /// Class c weighs `n / (k · n_c)` (scikit-learn's `"balanced"`), so each class contributes equally.
    case balanced
    /// Explicit weight per class index (length must equal the class count).
    case custom([Double])

    /// The weight of each class index for labels `y` over `classCount` classes.
    public func weights(for y: [Int], classCount: Int) throws -> [Double] {
        switch self {
        case .uniform:
            return [Double](repeating: 1, count: classCount)
        case .balanced:
            var counts = [Int](repeating: 0, count: classCount)
            for c in y { counts[c] += 1 }
            let present = counts.filter { $0 > 0 }.count
            // Divide by the number of classes present so the weights still sum to n over the samples.
            return counts.map { $0 == 0 ? 0 : Double(y.count) / (Double(max(present, 1)) * Double($0)) }
        case .custom(let w):
            guard w.count == classCount else {
                throw LearnError.shapeMismatch(what: "ClassWeighting.custom", expected: "\(classCount) class weights",
                                               found: "\(w.count)")
            }
            for (i, v) in w.enumerated() where !(v.isFinite && v >= 0) {
                throw LearnError.invalidParameter(name: "class weight \(i)", expected: "a finite number ≥ 0", found: "\(v)")
            }
            return w
        }
    }
}

/// A probabilistic classifier in the scikit-learn shape: hyperparameters in the initialiser
/// (and in `configuration`), `fit` learns a `State` that is separate, plain and Codable (a model
/// file stores `configuration` and `state`), classes are the integers `0..<classCount`.
///
/// Every estimator is deterministic: the same configuration (including its seed) and the same data
/// give a bit-for-bit identical `state`.
public protocol Classifier: Sendable {
    /// The hyperparameters, set before fitting (seed included).
    associatedtype Configuration: Codable & Equatable & Sendable
    /// The learnt parameters.
    associatedtype State: Codable & Equatable & Sendable

    /// The hyperparameters.
    var configuration: Configuration { get }
    /// The learned parameters, nil before `fit`.
    var state: State? { get }

    /// An estimator from hyperparameters and (optionally) a learned state, e.g. read from a model file.
    /// Throws if the state is inconsistent.
    init(configuration: Configuration, state: State?) throws

    /// Learns from `x` (`n × d`) and labels `y` (n integers in `0..<classCount`).
    /// - Parameters:
    ///   - x: the features, one row per example (`n × d`).
    ///   - y: the class of each row, n integers in `0..<classCount`.
    ///   - classCount: number of classes; nil means `max(y) + 1`. Must be ≥ 2.
    ///   - sampleWeights: n finite weights ≥ 0 (multiplied with the class weights), nil for all 1.
    mutating func fit(_ x: Matrix, _ y: [Int], classCount: Int?, sampleWeights: [Double]?) throws

    /// Class probabilities, `n × classCount`, each row summing to 1: `predictProbabilities(row:…)`
    /// for every row, so batch and one-row predictions are the same bit for bit.
    func predictProbabilities(_ x: Matrix) throws -> Matrix

    /// Scratch values (`Double`s) that `predictProbabilities(row:into:scratch:)` needs; 0 before `fit`.
    var rowScratchCount: Int { get }

    /// Class probabilities of one row, for live use: reads `featureCount` values at `row`, writes
    /// `classCount` values to `probabilities`, and uses `rowScratchCount` values at `scratch`.
    /// Allocates nothing. Precondition: fitted, and the buffers that large.
    func predictProbabilities(row: UnsafePointer<Double>, into probabilities: UnsafeMutablePointer<Double>,
                              scratch: UnsafeMutablePointer<Double>)

    /// Number of classes the fitted model predicts, nil before `fit`.
    var classCount: Int? { get }
    /// Number of input columns the fitted model expects, nil before `fit`.
    var featureCount: Int? { get }
}

extension Classifier {
    /// Fits with `classCount = max(y) + 1` and unit sample weights.
    public mutating func fit(_ x: Matrix, _ y: [Int]) throws {
        try fit(x, y, classCount: nil, sampleWeights: nil)
    }

    /// The most probable class of each row (ties go to the lower index).
    public func predict(_ x: Matrix) throws -> [Int] {
        let p = try predictProbabilities(x)
        return argmaxRows(p)
    }

    /// True once `fit` has run (or a state was given).
    public var isFitted: Bool { state != nil }

    /// The batch prediction as a loop of one-row predictions (what every estimator's
    /// `predictProbabilities(_:)` runs, after checking `x`'s shape).
    func predictRows(_ x: Matrix, classCount k: Int) -> Matrix {
        var p = Matrix(rows: x.rows, cols: k)
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: max(rowScratchCount, 1))
        defer { scratch.deallocate() }
        x.withUnsafeBufferPointer { xb in
            p.withUnsafeMutableBufferPointer { pb in
                for i in 0..<x.rows {
                    predictProbabilities(row: xb.baseAddress! + i * x.cols, into: pb.baseAddress! + i * k, scratch: scratch)
                }
            }
        }
        return p
    }
}

/// Index of the largest element of each row (first on ties).
public func argmaxRows(_ m: Matrix) -> [Int] {
    var out = [Int](repeating: 0, count: m.rows)
    let k = m.cols
    m.withUnsafeBufferPointer { v in
        for i in 0..<m.rows {
            var best = 0
            var bv = v[i * k]
            for c in 1..<max(k, 1) where v[i * k + c] > bv { bv = v[i * k + c]; best = c }
            out[i] = best
        }
    }
    return out
}

/// Checked training input shared by the estimators: per-sample effective weights
/// (sample weight × class weight) normalised to mean 1.
struct TrainingInput {
    let classCount: Int
    let weights: [Double]
    let weightSum: Double

    init(estimator: String, x: Matrix, y: [Int], classCount: Int?, sampleWeights: [Double]?, classWeighting: ClassWeighting) throws {
        guard x.rows > 0 else {
            throw LearnError.notEnoughData(what: "\(estimator).fit X", expected: "at least 1 row", found: "0 rows")
        }
        guard x.cols > 0 else {
            throw LearnError.notEnoughData(what: "\(estimator).fit X", expected: "at least 1 column", found: "0 columns")
        }
        guard y.count == x.rows else {
            throw LearnError.shapeMismatch(what: "\(estimator).fit y", expected: "\(x.rows) labels (one per row of X)", found: "\(y.count) labels")
        }
        if let bad = x.firstNonFinite() { throw LearnError.nonFinite(what: "\(estimator).fit X", row: bad.row, column: bad.col) }
        let k = classCount ?? ((y.max() ?? 0) + 1)
        guard k >= 2 else {
            throw LearnError.invalidParameter(name: "\(estimator) classCount", expected: "at least 2 classes", found: "\(k)")
        }
        for (i, c) in y.enumerated() where c < 0 || c >= k {
            throw LearnError.invalidLabel(index: i, found: c, classCount: k)
        }
        let cw = try classWeighting.weights(for: y, classCount: k)
        var w = [Double](repeating: 1, count: y.count)
        if let sw = sampleWeights {
            guard sw.count == y.count else {
                throw LearnError.shapeMismatch(what: "\(estimator).fit sampleWeights", expected: "\(y.count) weights (one per row of X)", found: "\(sw.count) weights")
            }
            for (i, v) in sw.enumerated() where !(v.isFinite && v >= 0) {
                throw LearnError.invalidParameter(name: "sampleWeights[\(i)]", expected: "a finite number ≥ 0", found: "\(v)")
            }
            w = sw
        }
        var sum = 0.0
        for i in 0..<w.count {
            w[i] *= cw[y[i]]
            sum += w[i]
        }
        guard sum > 0 else {
            throw LearnError.invalidParameter(name: "\(estimator) sample weights", expected: "a positive total weight", found: "\(sum)")
        }
        let scale = Double(w.count) / sum
        for i in 0..<w.count { w[i] *= scale }
        self.classCount = k
        self.weights = w
        self.weightSum = Double(w.count)
    }
}

func checkPredictInput(estimator: String, x: Matrix, featureCount: Int) throws {
    guard x.cols == featureCount else {
        throw LearnError.shapeMismatch(what: "\(estimator).predict X", expected: "\(featureCount) columns (as in training)", found: "\(x.cols) columns")
    }
}
