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
    /// The same figures per data set (when the windows came from more than one) and per group
    /// of recordings inside a data set (when it has more than one: WeAllWalk's walkers by
    /// mobility aid, sp-sw-har's phone and watch); nil when there is only one of each. In
    /// leave-one-dataset-out cross-validation each data set's row is its held-out score.
    public var groups: [GroupScores]?

    /// The figures of one data set, or of one group of recordings inside it.
    public struct GroupScores: Codable, Equatable, Sendable {
        /// `ipol`, or `weallwalk/long-cane` for a group inside a data set.
        public var name: String
        /// Windows scored.
        public var windows: Int
        /// Windows per true class, in model order.
        public var windowsPerClass: [Int]
        /// Share of each class's windows predicted as that class (0–1); nil for a class with no
        /// window here.
        public var recall: [Double?]
        /// Mean recall over the classes present here (0–1).
        public var balancedAccuracy: Double
        /// Share of windows right (0–1).
        public var accuracy: Double

        /// The figures of `rows` (indices into `yTrue` and `yPred`), named `name`.
        public init(name: String, rows: [Int], yTrue: [Int], yPred: [Int], classCount: Int) throws {
            let cm = try ConfusionMatrix(yTrue: rows.map { yTrue[$0] }, yPred: rows.map { yPred[$0] }, classCount: classCount)
            self.name = name
            windows = rows.count
            windowsPerClass = (0..<classCount).map { cm.support($0) }
            recall = (0..<classCount).map { cm.support($0) > 0 ? cm.recall($0) : nil }
            balancedAccuracy = cm.balancedAccuracy
            accuracy = cm.accuracy
        }
    }

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

    /// The report with `groups` filled in from each window's data set and group (as
    /// `LabelledWindows.datasets` and `.groups` hold them, one per row of the report): a row per
    /// data set when there are several, and a row per group inside a data set that has several,
    /// in order of first appearance.
    public func withGroups(datasets: [String], groups: [String], yTrue: [Int], probabilities: Matrix) throws -> EvaluationReport {
        let yPred = argmaxRows(probabilities)
        var order: [String] = [], rows: [String: [Int]] = [:]
        var inner: [String: [String]] = [:]
        for (r, (d, g)) in zip(datasets, groups).enumerated() {
            if rows[d] == nil { order.append(d); inner[d] = [] }
            rows[d, default: []].append(r)
            let key = "\(d)/\(g)"
            if !g.isEmpty {
                if rows[key] == nil { inner[d, default: []].append(g) }
                rows[key, default: []].append(r)
            }
        }
        var out: [GroupScores] = []
        for d in order {
            let subgroups = inner[d] ?? []
            if order.count > 1 || subgroups.count < 2 {
                out.append(try GroupScores(name: d.isEmpty ? "(no data set)" : d, rows: rows[d] ?? [], yTrue: yTrue, yPred: yPred, classCount: classes.count))
            }
            if subgroups.count > 1 {
                for g in subgroups {
                    let key = "\(d)/\(g)"
                    out.append(try GroupScores(name: d.isEmpty ? g : key, rows: rows[key] ?? [], yTrue: yTrue, yPred: yPred, classCount: classes.count))
                }
            }
        }
        var copy = self
        copy.groups = out.count > 1 ? out : nil
        return copy
    }
}
