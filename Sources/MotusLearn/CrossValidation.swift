/// One train/test split: row indices, each list ascending.
public struct TrainTestSplit: Equatable, Hashable, Sendable, Codable {
    /// Rows to train on.
    public var train: [Int]
    /// Rows to test on.
    public var test: [Int]
    /// A split of these rows.
    public init(train: [Int], test: [Int]) {
        self.train = train
        self.test = test
    }
}

/// Group-aware cross-validation splits: all rows of a group (e.g. one subject) land on the same side,
/// so no group is ever in both train and test. Deterministic (no randomness; groups are sorted).
public enum CrossValidation {
    /// k folds of whole groups, balanced by row count: groups sorted by size (largest first, ties by
    /// group order) go one by one to the fold with the fewest rows so far (ties to the lower fold),
    /// as scikit-learn's `GroupKFold`. Split i tests fold i.
    public static func groupKFold<G: Hashable & Comparable>(groups: [G], folds: Int) throws -> [TrainTestSplit] {
        let unique = Array(Set(groups)).sorted()
        guard folds >= 2 else { throw LearnError.invalidParameter(name: "folds", expected: "≥ 2", found: "\(folds)") }
        guard unique.count >= folds else {
            throw LearnError.notEnoughData(what: "groupKFold", expected: "at least \(folds) groups for \(folds) folds", found: "\(unique.count) groups")
        }
        var index = [G: Int]()
        for (i, g) in unique.enumerated() { index[g] = i }
        var size = [Int](repeating: 0, count: unique.count)
        let gi = groups.map { index[$0]! }
        for g in gi { size[g] += 1 }
        let order = unique.indices.sorted { size[$0] > size[$1] || (size[$0] == size[$1] && $0 < $1) }
        var foldOf = [Int](repeating: 0, count: unique.count)
        var foldRows = [Int](repeating: 0, count: folds)
        for g in order {
            var best = 0
            for f in 1..<folds where foldRows[f] < foldRows[best] { best = f }
            foldOf[g] = best
            foldRows[best] += size[g]
        }
        return (0..<folds).map { f in
            var s = TrainTestSplit(train: [], test: [])
            for (row, g) in gi.enumerated() {
                if foldOf[g] == f { s.test.append(row) } else { s.train.append(row) }
            }
            return s
        }
    }

    /// One split per group (in sorted group order), testing that group and training on the rest.
    public static func leaveOneGroupOut<G: Hashable & Comparable>(groups: [G]) throws -> [TrainTestSplit] {
        let unique = Array(Set(groups)).sorted()
        guard unique.count >= 2 else {
            throw LearnError.notEnoughData(what: "leaveOneGroupOut", expected: "at least 2 groups", found: "\(unique.count) groups")
        }
        return unique.map { g in
            var s = TrainTestSplit(train: [], test: [])
            for (row, h) in groups.enumerated() {
                if h == g { s.test.append(row) } else { s.train.append(row) }
            }
            return s
        }
    }

    /// Out-of-fold class probabilities: for each split, a fresh estimator from `make()` is fitted on the
    /// train rows and predicts the test rows. Rows in no test set stay all-zero.
    public static func outOfFoldProbabilities<C: Classifier>(_ make: () throws -> C, x: Matrix, y: [Int], classCount: Int,
                                                             splits: [TrainTestSplit], sampleWeights: [Double]? = nil) throws -> Matrix {
        guard y.count == x.rows else {
            throw LearnError.shapeMismatch(what: "outOfFoldProbabilities y", expected: "\(x.rows) labels", found: "\(y.count)")
        }
        var out = Matrix(rows: x.rows, cols: classCount)
        for split in splits {
            var est = try make()
            try est.fit(x.selectingRows(split.train), split.train.map { y[$0] }, classCount: classCount,
                        sampleWeights: sampleWeights.map { w in split.train.map { w[$0] } })
            let p = try est.predictProbabilities(x.selectingRows(split.test))
            for (r, row) in split.test.enumerated() {
                for c in 0..<classCount { out[row, c] = p[r, c] }
            }
        }
        return out
    }
}
