import Testing
@testable import MotusLearn

struct CrossValidationTests {
    func checkPartition(_ splits: [TrainTestSplit], groups: [String]) {
        let n = groups.count
        var tested = [Int](repeating: 0, count: n)
        for s in splits {
            #expect(Set(s.train).isDisjoint(with: s.test))
            #expect(s.train.count + s.test.count == n)
            #expect(s.train == s.train.sorted() && s.test == s.test.sorted())
            let trainGroups = Set(s.train.map { groups[$0] }), testGroups = Set(s.test.map { groups[$0] })
            #expect(trainGroups.isDisjoint(with: testGroups), "a group is on both sides")
            for i in s.test { tested[i] += 1 }
        }
        #expect(tested.allSatisfy { $0 == 1 }, "every row is tested exactly once")
    }

    @Test func groupKFoldBalancesByRows() throws {
        // Sizes a:5, b:3, c:3, d:1 → a→0, b→1, c→1, d→0: folds of 6 and 6 rows.
        let groups = ["a", "b", "c", "a", "a", "d", "b", "c", "a", "b", "c", "a"]
        let splits = try CrossValidation.groupKFold(groups: groups, folds: 2)
        #expect(splits.count == 2)
        #expect(Set(splits[0].test.map { groups[$0] }) == ["a", "d"])
        #expect(Set(splits[1].test.map { groups[$0] }) == ["b", "c"])
        checkPartition(splits, groups: groups)
        #expect(try CrossValidation.groupKFold(groups: groups, folds: 2) == splits)
    }

    @Test(arguments: [2, 3, 5, 10])
    func groupKFoldNeverLeaksGroups(folds: Int) throws {
        var g = SeededGenerator(seed: UInt64(folds))
        let groups = (0..<500).map { _ in "subject\(g.nextInt(below: 24))" }
        let splits = try CrossValidation.groupKFold(groups: groups, folds: folds)
        #expect(splits.count == folds)
        checkPartition(splits, groups: groups)
        // Same input in a different process order (shuffled group names) still yields deterministic output.
        #expect(try CrossValidation.groupKFold(groups: groups, folds: folds) == splits)
    }

    @Test func leaveOneGroupOut() throws {
        let groups = ["s2", "s1", "s2", "s3", "s1"]
        let splits = try CrossValidation.leaveOneGroupOut(groups: groups)
        #expect(splits.map(\.test) == [[1, 4], [0, 2], [3]])
        checkPartition(splits, groups: groups)
    }

    @Test func errors() {
        #expect(throws: LearnError.notEnoughData(what: "groupKFold", expected: "at least 3 groups for 3 folds", found: "2 groups")) {
            _ = try CrossValidation.groupKFold(groups: [1, 2, 1], folds: 3)
        }
        #expect(throws: LearnError.self) { _ = try CrossValidation.groupKFold(groups: [1, 2, 3], folds: 1) }
        #expect(throws: LearnError.self) { _ = try CrossValidation.leaveOneGroupOut(groups: [1, 1]) }
    }

    @Test func outOfFoldProbabilitiesUseOnlyOtherGroups() throws {
        let (x, y) = blobs(n: 120, d: 3, k: 3, spread: 1, seed: 3)
        let groups = (0..<120).map { $0 / 20 }
        let splits = try CrossValidation.leaveOneGroupOut(groups: groups)
        let p = try CrossValidation.outOfFoldProbabilities({ LogisticRegression(l2: 1e-2) }, x: x, y: y, classCount: 3, splits: splits)
        // Row 0's probabilities equal a model trained without group 0.
        var m = LogisticRegression(l2: 1e-2)
        try m.fit(x.selectingRows(splits[0].train), splits[0].train.map { y[$0] }, classCount: 3, sampleWeights: nil)
        #expect(try m.predictProbabilities(x.selectingRows([0])).row(0) == p.row(0))
        #expect(try Metrics.accuracy(yTrue: y, yPred: argmaxRows(p)) > 0.9)
    }
}
