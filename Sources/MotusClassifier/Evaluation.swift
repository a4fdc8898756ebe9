import MotusLearn

/// Classification quality, as `motus evaluate` prints it and model cards record it.
public struct EvaluationReport: Codable, Equatable, Sendable {
    /// Class names, in model order.
    public var classes: [String]
    /// Windows scored.
    public var windows: Int
    /// Share of windows classified right (0–1).
    public var accuracy: Double
    /// Mean recall over the classes (0–1): accuracy that a large class cannot dominate.
    public var balancedAccuracy: Double
    /// Mean F1 over the classes (0–1).
    public var macroF1: Double
    /// ROC AUC: binary, or the mean one-vs-rest AUC; nil when a class is absent.
    public var rocAUC: Double?
    /// Mean negative log-probability of the true class (nats).
    public var logLoss: Double
    /// Per class: precision, recall, F1, support.
    public var perClass: [ConfusionMatrix.ClassScores]
    /// Counts, `confusion[true][predicted]`.
    public var confusion: [[Int]]
    /// How the figures were obtained, e.g. "leave-one-subject-out, 24 folds".
    public var scheme: String

    /// The report of `probabilities` (one row per window) against the true classes `yTrue`.
    public init(classes: [String], yTrue: [Int], probabilities: Matrix, scheme: String) throws {
        let k = classes.count
        let yPred = argmaxRows(probabilities)
        let cm = try ConfusionMatrix(yTrue: yTrue, yPred: yPred, classCount: k)
        self.classes = classes
        windows = yTrue.count
        accuracy = cm.accuracy
        balancedAccuracy = cm.balancedAccuracy
        macroF1 = cm.macroF1
        let present = Set(yTrue)
        rocAUC = present.count == k ? try? Metrics.rocAUC(yTrue: yTrue, probabilities: probabilities) : nil
        logLoss = try Metrics.logLoss(yTrue: yTrue, probabilities: probabilities)
        perClass = cm.perClass
        confusion = (0..<k).map { t in (0..<k).map { p in cm[t, p] } }
        self.scheme = scheme
    }
}
