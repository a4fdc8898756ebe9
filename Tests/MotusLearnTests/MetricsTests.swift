import Testing
import Foundation
@testable import MotusLearn

struct MetricsTests {
    // Hand-computed: rows true, columns predicted
    //        p0 p1 p2
    //   t0 [  1  1  0 ]
    //   t1 [  1  2  0 ]
    //   t2 [  0  1  3 ]
    let yTrue = [0, 0, 1, 1, 1, 2, 2, 2, 2]
    let yPred = [0, 1, 1, 1, 0, 2, 2, 1, 2]

    @Test func confusionMatrixAndScores() throws {
        let cm = try ConfusionMatrix(yTrue: yTrue, yPred: yPred, classCount: 3)
        #expect(cm.counts == [1, 1, 0, 1, 2, 0, 0, 1, 3])
        #expect(cm[2, 1] == 1)
        #expect(cm.accuracy == 6.0 / 9)
        #expect(try Metrics.accuracy(yTrue: yTrue, yPred: yPred) == 6.0 / 9)
        #expect(cm.precision(0) == 0.5 && cm.recall(0) == 0.5 && cm.f1(0) == 0.5)
        #expect(cm.precision(1) == 0.5 && cm.recall(1) == 2.0 / 3 && abs(cm.f1(1) - 4.0 / 7) < 1e-15)
        #expect(cm.precision(2) == 1 && cm.recall(2) == 0.75 && abs(cm.f1(2) - 6.0 / 7) < 1e-15)
        #expect(abs(cm.macroF1 - 9.0 / 14) < 1e-15)
        #expect(abs(cm.balancedAccuracy - 23.0 / 36) < 1e-15)
        #expect(cm.perClass.map(\.support) == [2, 3, 4])
        #expect(abs(try Metrics.macroF1(yTrue: yTrue, yPred: yPred, classCount: 3) - 9.0 / 14) < 1e-15)
        #expect(abs(try Metrics.balancedAccuracy(yTrue: yTrue, yPred: yPred, classCount: 3) - 23.0 / 36) < 1e-15)
    }

    @Test func absentClassesFollowScikitLearn() throws {
        // Class 3 never occurs nor is predicted: left out of macro-F1 and balanced accuracy.
        let cm = try ConfusionMatrix(yTrue: yTrue, yPred: yPred, classCount: 4)
        #expect(abs(cm.macroF1 - 9.0 / 14) < 1e-15)
        #expect(abs(cm.balancedAccuracy - 23.0 / 36) < 1e-15)
        #expect(cm.precision(3) == 0 && cm.recall(3) == 0 && cm.f1(3) == 0)
        // A class predicted but never true counts in macro-F1 with F1 0.
        let cm2 = try ConfusionMatrix(yTrue: [0, 0, 1], yPred: [0, 2, 1], classCount: 3)
        #expect(abs(cm2.macroF1 - (2.0 / 3 + 1 + 0) / 3) < 1e-15)
    }

    @Test func binaryAUCWithTies() throws {
        // Positives {0.9, 0.7, 0.1}, negatives {0.8, 0.7}: wins 1 + 1 + 0 + 0.5 + 0 + 0 = 2.5 of 6.
        let auc = try Metrics.rocAUC(positive: [true, false, true, false, true], scores: [0.9, 0.8, 0.7, 0.7, 0.1])
        #expect(abs(auc - 5.0 / 12) < 1e-15)
        #expect(try Metrics.rocAUC(positive: [false, true], scores: [0.1, 0.2]) == 1)
        #expect(try Metrics.rocAUC(positive: [false, true], scores: [0.3, 0.3]) == 0.5)
        #expect(throws: LearnError.self) { _ = try Metrics.rocAUC(positive: [true, true], scores: [0.1, 0.2]) }
        // Binary from probabilities uses column 1.
        let p = try Matrix([[0.1, 0.9], [0.2, 0.8], [0.3, 0.7], [0.3, 0.7], [0.9, 0.1]])
        #expect(abs(try Metrics.rocAUC(yTrue: [1, 0, 1, 0, 1], probabilities: p) - 5.0 / 12) < 1e-15)
    }

    @Test func oneVsRestMacroAUC() throws {
        // Class 0: pos {0.7, 0.3} vs neg {0.2, 0.1} → 1. Class 1: pos {0.5} vs {0.2, 0.3, 0.55} → 2/3.
        // Class 2: pos {0.6} vs {0.1, 0.3, 0.15} → 1. Mean 8/9.
        let p = try Matrix([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.55, 0.15]])
        #expect(abs(try Metrics.rocAUC(yTrue: [0, 1, 2, 0], probabilities: p) - 8.0 / 9) < 1e-15)
    }

    @Test func logLoss() throws {
        let p = try Matrix([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.55, 0.15]])
        let expected = -(log(0.7) + log(0.5) + log(0.6) + log(0.3)) / 4
        #expect(abs(try Metrics.logLoss(yTrue: [0, 1, 2, 0], probabilities: p) - expected) < 1e-15)
        let weighted = -(2 * log(0.7) + log(0.5)) / 3
        #expect(abs(try Metrics.logLoss(yTrue: [0, 1], probabilities: Matrix([[0.7, 0.3, 0], [0.2, 0.5, 0.3]]), sampleWeights: [2, 1]) - weighted) < 1e-15)
        // A zero probability on the true class is clipped to machine epsilon.
        let clipped = try Metrics.logLoss(yTrue: [1], probabilities: Matrix([[1, 0]]))
        #expect(abs(clipped - -log(Double.ulpOfOne)) < 1e-12)
    }

    @Test func badInputThrows() throws {
        #expect(throws: LearnError.shapeMismatch(what: "accuracy", expected: "3 values (as many as the true labels)", found: "2")) {
            _ = try Metrics.accuracy(yTrue: [0, 1, 1], yPred: [0, 1])
        }
        #expect(throws: LearnError.invalidLabel(index: 1, found: 5, classCount: 3)) {
            _ = try ConfusionMatrix(yTrue: [0, 5], yPred: [0, 1], classCount: 3)
        }
        #expect(throws: LearnError.self) { _ = try Metrics.logLoss(yTrue: [0, 1], probabilities: Matrix(rows: 3, cols: 2)) }
    }
}
