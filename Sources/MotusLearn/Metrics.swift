#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Counts of (true class, predicted class) pairs: `counts[t * classCount + p]`.
public struct ConfusionMatrix: Codable, Equatable, Hashable, Sendable {
    /// Number of classes.
    public let classCount: Int
    /// Row-major `classCount × classCount`, rows are true classes, columns predicted classes.
    public private(set) var counts: [Int]

    /// Counts of the pairs; throws on different lengths or a class outside `0..<classCount`.
    public init(yTrue: [Int], yPred: [Int], classCount: Int) throws {
        try checkLabels(yTrue: yTrue, yPred: yPred, classCount: classCount)
        self.classCount = classCount
        var c = [Int](repeating: 0, count: classCount * classCount)
        for i in 0..<yTrue.count { c[yTrue[i] * classCount + yPred[i]] += 1 }
        counts = c
    }

    /// How many rows of `trueClass` were predicted `predicted`.
    public subscript(trueClass: Int, predicted: Int) -> Int { counts[trueClass * classCount + predicted] }

    /// Number of rows counted.
    public var total: Int { counts.reduce(0, +) }
    /// Number of samples whose true class is `c`.
    public func support(_ c: Int) -> Int { (0..<classCount).reduce(0) { $0 + self[c, $1] } }
    /// Number of samples predicted as `c`.
    public func predictedCount(_ c: Int) -> Int { (0..<classCount).reduce(0) { $0 + self[$1, c] } }

    /// tp / (tp + fp); 0 when nothing was predicted as `c` (scikit-learn's zero_division=0).
    public func precision(_ c: Int) -> Double {
        let p = predictedCount(c)
        return p == 0 ? 0 : Double(self[c, c]) / Double(p)
    }
    /// tp / (tp + fn); 0 when `c` never occurs.
    public func recall(_ c: Int) -> Double {
        let s = support(c)
        return s == 0 ? 0 : Double(self[c, c]) / Double(s)
    }
    /// Harmonic mean of precision and recall; 0 when both are 0.
    public func f1(_ c: Int) -> Double {
        let tp = Double(self[c, c])
        let denom = Double(support(c) + predictedCount(c))
        return denom == 0 ? 0 : 2 * tp / denom
    }
    /// Share of rows predicted right (0 when empty).
    public var accuracy: Double {
        let t = total
        return t == 0 ? 0 : Double((0..<classCount).reduce(0) { $0 + self[$1, $1] }) / Double(t)
    }
    /// Mean recall over the classes that occur in the true labels.
    public var balancedAccuracy: Double {
        let present = (0..<classCount).filter { support($0) > 0 }
        return present.isEmpty ? 0 : present.reduce(0.0) { $0 + recall($1) } / Double(present.count)
    }
    /// Mean F1 over the classes that occur in the true or the predicted labels (scikit-learn's default labels).
    public var macroF1: Double {
        let present = (0..<classCount).filter { support($0) > 0 || predictedCount($0) > 0 }
        return present.isEmpty ? 0 : present.reduce(0.0) { $0 + f1($1) } / Double(present.count)
    }

    /// One class's scores.
    public struct ClassScores: Codable, Equatable, Hashable, Sendable {
        /// Right among those predicted as the class.
        public var precision: Double
        /// Right among those of the class.
        public var recall: Double
        /// Harmonic mean of precision and recall.
        public var f1: Double
        /// Rows of the class.
        public var support: Int
    }
    /// Precision, recall, F1 and support for every class index.
    public var perClass: [ClassScores] {
        (0..<classCount).map { ClassScores(precision: precision($0), recall: recall($0), f1: f1($0), support: support($0)) }
    }
}

/// Classification metrics. Labels are class indices `0..<classCount`; inputs of different lengths throw.
public enum Metrics {
    /// Share of rows predicted right; throws on different lengths or no rows.
    public static func accuracy(yTrue: [Int], yPred: [Int]) throws -> Double {
        guard yTrue.count == yPred.count else { throw lengthMismatch("accuracy", yTrue.count, yPred.count) }
        guard !yTrue.isEmpty else { throw LearnError.notEnoughData(what: "accuracy", expected: "at least 1 label", found: "0") }
        var hit = 0
        for i in 0..<yTrue.count where yTrue[i] == yPred[i] { hit += 1 }
        return Double(hit) / Double(yTrue.count)
    }

    /// Mean recall over the classes present (see `ConfusionMatrix.balancedAccuracy`).
    public static func balancedAccuracy(yTrue: [Int], yPred: [Int], classCount: Int) throws -> Double {
        try ConfusionMatrix(yTrue: yTrue, yPred: yPred, classCount: classCount).balancedAccuracy
    }

    /// Mean F1 over the classes present (see `ConfusionMatrix.macroF1`).
    public static func macroF1(yTrue: [Int], yPred: [Int], classCount: Int) throws -> Double {
        try ConfusionMatrix(yTrue: yTrue, yPred: yPred, classCount: classCount).macroF1
    }

    /// Binary ROC AUC: the probability that a random positive scores above a random negative
    /// (ties count one half), via average ranks. `positive[i]` says whether sample i is positive.
    public static func rocAUC(positive: [Bool], scores: [Double]) throws -> Double {
        guard positive.count == scores.count else { throw lengthMismatch("rocAUC", positive.count, scores.count) }
        if let i = scores.firstIndex(where: { !$0.isFinite }) { throw LearnError.nonFinite(what: "rocAUC scores", row: i, column: 0) }
        let nPos = positive.filter { $0 }.count
        let nNeg = positive.count - nPos
        guard nPos > 0, nNeg > 0 else {
            throw LearnError.notEnoughData(what: "rocAUC", expected: "at least one positive and one negative sample",
                                           found: "\(nPos) positive, \(nNeg) negative")
        }
        let order = scores.indices.sorted { scores[$0] < scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
        var rankSumPos = 0.0
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && scores[order[j + 1]] == scores[order[i]] { j += 1 }
            let avgRank = Double(i + j + 2) / 2   // 1-based ranks i+1 ... j+1
            for t in i...j where positive[order[t]] { rankSumPos += avgRank }
            i = j + 1
        }
        return (rankSumPos - Double(nPos) * Double(nPos + 1) / 2) / (Double(nPos) * Double(nNeg))
    }

    /// ROC AUC from class probabilities: binary (column 1 scores class 1) for 2 columns; for more,
    /// the unweighted mean of one-vs-rest AUCs over the classes that have both positives and negatives.
    public static func rocAUC(yTrue: [Int], probabilities p: Matrix) throws -> Double {
        guard yTrue.count == p.rows else { throw lengthMismatch("rocAUC", yTrue.count, p.rows) }
        try checkLabels(yTrue: yTrue, yPred: nil, classCount: p.cols)
        if p.cols == 2 {
            return try rocAUC(positive: yTrue.map { $0 == 1 }, scores: p.column(1))
        }
        var sum = 0.0, used = 0
        for c in 0..<p.cols {
            let pos = yTrue.map { $0 == c }
            let nPos = pos.filter { $0 }.count
            if nPos == 0 || nPos == pos.count { continue }
            sum += try rocAUC(positive: pos, scores: p.column(c))
            used += 1
        }
        guard used > 0 else {
            throw LearnError.notEnoughData(what: "rocAUC one-vs-rest", expected: "at least two classes present", found: "one")
        }
        return sum / Double(used)
    }

    /// Mean negative log-likelihood of the true class, `-(1/Σw) Σ wᵢ log pᵢ,yᵢ`, probabilities clipped
    /// to `[ε, 1]` with ε = 2.2e-16 (Double's machine epsilon, as scikit-learn does for float64).
    public static func logLoss(yTrue: [Int], probabilities p: Matrix, sampleWeights: [Double]? = nil) throws -> Double {
        guard yTrue.count == p.rows else { throw lengthMismatch("logLoss", yTrue.count, p.rows) }
        guard !yTrue.isEmpty else { throw LearnError.notEnoughData(what: "logLoss", expected: "at least 1 label", found: "0") }
        try checkLabels(yTrue: yTrue, yPred: nil, classCount: p.cols)
        if let w = sampleWeights, w.count != yTrue.count { throw lengthMismatch("logLoss sampleWeights", yTrue.count, w.count) }
        var s = 0.0, ws = 0.0
        for i in 0..<yTrue.count {
            let w = sampleWeights?[i] ?? 1
            let pi = min(max(p[i, yTrue[i]], Double.ulpOfOne), 1)
            s -= w * log(pi)
            ws += w
        }
        return s / ws
    }

    static func lengthMismatch(_ what: String, _ a: Int, _ b: Int) -> LearnError {
        .shapeMismatch(what: what, expected: "\(a) values (as many as the true labels)", found: "\(b)")
    }
}

func checkLabels(yTrue: [Int], yPred: [Int]?, classCount: Int) throws {
    guard classCount >= 1 else { throw LearnError.invalidParameter(name: "classCount", expected: "≥ 1", found: "\(classCount)") }
    if let yp = yPred, yp.count != yTrue.count { throw Metrics.lengthMismatch("predicted labels", yTrue.count, yp.count) }
    for (i, c) in yTrue.enumerated() where c < 0 || c >= classCount { throw LearnError.invalidLabel(index: i, found: c, classCount: classCount) }
    if let yp = yPred {
        for (i, c) in yp.enumerated() where c < 0 || c >= classCount { throw LearnError.invalidLabel(index: i, found: c, classCount: classCount) }
    }
}
