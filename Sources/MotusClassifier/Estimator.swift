import MotusLearn

/// The estimators a model file can hold.
public enum EstimatorKind: String, Codable, Sendable, CaseIterable {
    /// Multinomial logistic regression (MotusLearn's `LogisticRegression`).
    case logistic
    /// A multilayer perceptron (MotusLearn's `MLPClassifier`).
    case mlp
}

/// One fitted (or unfitted) estimator of either kind, Codable for the model file.
public enum Estimator: Sendable, Equatable {
    /// A logistic regression.
    case logistic(LogisticRegression)
    /// A multilayer perceptron.
    case mlp(MLPClassifier)

    /// An unfitted estimator of `kind` with Motus' hyperparameters (balanced class weights;
    /// the MLP has one hidden layer of 32 and draws its initial weights from `seed`).
    public static func make(_ kind: EstimatorKind, seed: UInt64 = 0) -> Estimator {
        switch kind {
        case .logistic: .logistic(LogisticRegression(l2: 1e-3, classWeighting: .balanced))
        case .mlp: .mlp(MLPClassifier(hiddenLayerSizes: [32], alpha: 1e-3, classWeighting: .balanced, seed: seed))
        }
    }

    /// Which kind it is.
    public var kind: EstimatorKind {
        switch self { case .logistic: .logistic; case .mlp: .mlp }
    }

    /// Fits on the rows of `x` (scaled features) with classes `y` in `0..<classCount`.
    public mutating func fit(_ x: Matrix, _ y: [Int], classCount: Int) throws {
        switch self {
        case .logistic(var m): try m.fit(x, y, classCount: classCount, sampleWeights: nil); self = .logistic(m)
        case .mlp(var m): try m.fit(x, y, classCount: classCount, sampleWeights: nil); self = .mlp(m)
        }
    }

    /// Class probabilities, one row per row of `x`, each summing to 1.
    public func predictProbabilities(_ x: Matrix) throws -> Matrix {
        switch self {
        case .logistic(let m): try m.predictProbabilities(x)
        case .mlp(let m): try m.predictProbabilities(x)
        }
    }

    /// See `Classifier.rowScratchCount`.
    public var rowScratchCount: Int {
        switch self { case .logistic(let m): m.rowScratchCount; case .mlp(let m): m.rowScratchCount }
    }

    /// One row's probabilities, allocation-free (see `Classifier.predictProbabilities(row:into:scratch:)`).
    @inline(__always)
    public func predictProbabilities(row x: UnsafePointer<Double>, into p: UnsafeMutablePointer<Double>, scratch: UnsafeMutablePointer<Double>) {
        switch self {
        case .logistic(let m): m.predictProbabilities(row: x, into: p, scratch: scratch)
        case .mlp(let m): m.predictProbabilities(row: x, into: p, scratch: scratch)
        }
    }

    /// Number of classes, nil before fitting.
    public var classCount: Int? {
        switch self { case .logistic(let m): m.classCount; case .mlp(let m): m.classCount }
    }

    /// Number of features per row, nil before fitting.
    public var featureCount: Int? {
        switch self { case .logistic(let m): m.featureCount; case .mlp(let m): m.featureCount }
    }

    public static func == (a: Estimator, b: Estimator) -> Bool {
        switch (a, b) {
        case (.logistic(let x), .logistic(let y)): x.configuration == y.configuration && x.state == y.state
        case (.mlp(let x), .mlp(let y)): x.configuration == y.configuration && x.state == y.state
        default: false
        }
    }
}

extension Estimator: Codable {
    enum Keys: String, CodingKey { case type, configuration, state }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(EstimatorKind.self, forKey: .type) {
        case .logistic:
            self = .logistic(try LogisticRegression(configuration: try c.decode(LogisticRegression.Configuration.self, forKey: .configuration),
                                                    state: try c.decodeIfPresent(LogisticRegression.State.self, forKey: .state)))
        case .mlp:
            self = .mlp(try MLPClassifier(configuration: try c.decode(MLPClassifier.Configuration.self, forKey: .configuration),
                                          state: try c.decodeIfPresent(MLPClassifier.State.self, forKey: .state)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind, forKey: .type)
        switch self {
        case .logistic(let m): try c.encode(m.configuration, forKey: .configuration); try c.encodeIfPresent(m.state, forKey: .state)
        case .mlp(let m): try c.encode(m.configuration, forKey: .configuration); try c.encodeIfPresent(m.state, forKey: .state)
        }
    }
}
