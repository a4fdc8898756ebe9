import Testing
import Foundation
@testable import MotusLearn

/// The shared estimator conformance suite (in the spirit of scikit-learn's `check_estimator`):
/// every check runs against every estimator.
enum EstimatorKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case logistic, mlpOneLayer, mlpTwoLayers
    var testDescription: String { rawValue }
}

enum ConformanceCheck: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case deterministic, probabilitiesSumToOne, learnsSeparableBinary, learnsSeparableMulticlass,
         classWeightsHelpImbalance, codableRoundTrip, rejectsBadInput, rowPredictionIsBatch
    var testDescription: String { rawValue }
}

struct ConformanceTests {
    @Test(arguments: EstimatorKind.allCases, ConformanceCheck.allCases)
    func conformance(kind: EstimatorKind, check: ConformanceCheck) throws {
        switch kind {
        case .logistic:
            try run(check) { seed, cw in LogisticRegression(l2: 1e-3, classWeighting: cw) }
        case .mlpOneLayer:
            try run(check) { seed, cw in MLPClassifier(hiddenLayerSizes: [16], classWeighting: cw, seed: seed) }
        case .mlpTwoLayers:
            try run(check) { seed, cw in MLPClassifier(hiddenLayerSizes: [16, 8], classWeighting: cw, seed: seed) }
        }
    }

    func run<C: Classifier>(_ check: ConformanceCheck, _ make: (UInt64, ClassWeighting) -> C) throws {
        switch check {
        case .deterministic:
            let (x, y) = blobs(n: 300, d: 6, k: 3, spread: 2, seed: 1, separation: 1.5)
            var a = make(7, .uniform), b = make(7, .uniform)
            try a.fit(x, y)
            try b.fit(x, y)
            let sa = try #require(a.state), sb = try #require(b.state)
            #expect(sa == sb, "two fits with the same seed must give bit-for-bit equal models")
            // Bit-for-bit also through the encoded form (catches -0.0 vs 0.0 and NaN payloads).
            #expect(try JSONEncoderLite.encode(sa) == JSONEncoderLite.encode(sb))
            #expect(try a.predictProbabilities(x) == b.predictProbabilities(x))

        case .rowPredictionIsBatch:
            // The one-row, allocation-free prediction (what a live classifier runs) gives the
            // batch probabilities bit for bit, with scratch of the size the estimator asks for.
            for k in [2, 3] {
                let (x, y) = blobs(n: 120, d: 7, k: k, spread: 2, seed: 4, separation: 1)
                var m = make(3, .uniform)
                try m.fit(x, y)
                let batch = try m.predictProbabilities(x)
                var probs = [Double](repeating: .nan, count: k)
                var scratch = [Double](repeating: .nan, count: m.rowScratchCount + 1)
                for i in 0..<x.rows {
                    let row = x.row(i)
                    row.withUnsafeBufferPointer { r in
                        probs.withUnsafeMutableBufferPointer { p in
                            scratch.withUnsafeMutableBufferPointer { sc in
                                m.predictProbabilities(row: r.baseAddress!, into: p.baseAddress!, scratch: sc.baseAddress!)
                            }
                        }
                    }
                    #expect(probs.map(\.bitPattern) == batch.row(i).map(\.bitPattern), "row \(i), \(k) classes")
                }
            }

        case .probabilitiesSumToOne:
            for k in [2, 4] {
                let (x, y) = blobs(n: 200, d: 5, k: k, spread: 3, seed: 2, separation: 1)
                var m = make(1, .uniform)
                try m.fit(x, y)
                let p = try m.predictProbabilities(x)
                #expect(p.rows == 200 && p.cols == k)
                #expect(m.classCount == k && m.featureCount == 5)
                for i in 0..<p.rows {
                    let r = p.row(i)
                    #expect(abs(r.reduce(0, +) - 1) < 1e-12)
                    #expect(r.allSatisfy { $0 >= 0 && $0 <= 1 })
                }
                #expect(try m.predict(x) == argmaxRows(p))
            }

        case .learnsSeparableBinary:
            let (x, y) = separable(n: 300, d: 4, k: 2, seed: 3)
            var m = make(2, .uniform)
            try m.fit(x, y)
            #expect(try Metrics.accuracy(yTrue: y, yPred: m.predict(x)) == 1)

        case .learnsSeparableMulticlass:
            let (x, y) = separable(n: 400, d: 5, k: 4, seed: 4)
            var m = make(3, .uniform)
            try m.fit(x, y)
            #expect(try Metrics.accuracy(yTrue: y, yPred: m.predict(x)) == 1)

        case .classWeightsHelpImbalance:
            // 92 % class 0, 8 % class 1, overlapping: unweighted models under-predict class 1.
            var g = SeededGenerator(seed: 11)
            var rows = [[Double]](), y = [Int]()
            for i in 0..<1000 {
                let c = i % 25 < 2 ? 1 : 0
                rows.append([g.nextNormal() + (c == 1 ? 1.5 : 0), g.nextNormal() + (c == 1 ? 1.5 : 0)])
                y.append(c)
            }
            let x = try Matrix(rows)
            var plain = make(5, .uniform), weighted = make(5, .balanced)
            try plain.fit(x, y)
            try weighted.fit(x, y)
            let cmPlain = try ConfusionMatrix(yTrue: y, yPred: plain.predict(x), classCount: 2)
            let cmWeighted = try ConfusionMatrix(yTrue: y, yPred: weighted.predict(x), classCount: 2)
            #expect(cmWeighted.recall(1) > cmPlain.recall(1) + 0.2, "minority recall \(cmPlain.recall(1)) → \(cmWeighted.recall(1))")
            #expect(cmWeighted.balancedAccuracy > cmPlain.balancedAccuracy)
            #expect(cmWeighted.balancedAccuracy > 0.75)
            // Explicit sample weights equal to the balanced weights give the same model.
            let bw = try ClassWeighting.balanced.weights(for: y, classCount: 2)
            var viaSamples = make(5, .uniform)
            try viaSamples.fit(x, y, classCount: 2, sampleWeights: y.map { bw[$0] })
            let a = try viaSamples.predictProbabilities(x), b = try weighted.predictProbabilities(x)
            #expect(maxAbsDiff(a.values, b.values) < 1e-9)

        case .codableRoundTrip:
            let (x, y) = blobs(n: 150, d: 4, k: 3, spread: 2, seed: 6, separation: 1)
            var m = make(4, .balanced)
            try m.fit(x, y)
            let conf = try JSONEncoderLite.encode(m.configuration)
            let state = try JSONEncoderLite.encode(try #require(m.state))
            let restored = try C(configuration: JSONEncoderLite.decode(C.Configuration.self, from: conf),
                                 state: JSONEncoderLite.decode(C.State.self, from: state))
            #expect(restored.state == m.state)
            #expect(restored.configuration == m.configuration)
            #expect(try restored.predictProbabilities(x) == m.predictProbabilities(x))
            #expect(try restored.predict(x) == m.predict(x))

        case .rejectsBadInput:
            let (x, y) = blobs(n: 40, d: 3, k: 2, spread: 1, seed: 8)
            var m = make(1, .uniform)
            #expect(throws: LearnError.self) { _ = try m.predictProbabilities(x) } // not fitted
            let name = String(describing: C.self)
            #expect(throws: LearnError.shapeMismatch(what: "\(name).fit y", expected: "40 labels (one per row of X)", found: "39 labels")) {
                try m.fit(x, Array(y.dropLast()))
            }
            #expect(throws: LearnError.shapeMismatch(what: "\(name).fit sampleWeights", expected: "40 weights (one per row of X)", found: "3 weights")) {
                try m.fit(x, y, classCount: nil, sampleWeights: [1, 2, 3])
            }
            var badY = y
            badY[5] = -1
            #expect(throws: LearnError.invalidLabel(index: 5, found: -1, classCount: 2)) { try m.fit(x, badY) }
            #expect(throws: LearnError.invalidParameter(name: "\(name) classCount", expected: "at least 2 classes", found: "1")) {
                try m.fit(x, y.map { _ in 0 })
            }
            var badX = x
            badX[3, 1] = .infinity
            #expect(throws: LearnError.nonFinite(what: "\(name).fit X", row: 3, column: 1)) { try m.fit(badX, y) }
            #expect(throws: LearnError.self) { try m.fit(x, y, classCount: nil, sampleWeights: [Double](repeating: -1, count: 40)) }
            #expect(throws: LearnError.self) { try m.fit(x, y, classCount: nil, sampleWeights: [Double](repeating: 0, count: 40)) }
            try m.fit(x, y)
            #expect(throws: LearnError.shapeMismatch(what: "\(name).predict X", expected: "3 columns (as in training)", found: "2 columns")) {
                _ = try m.predictProbabilities(randomMatrix(5, 2, seed: 1))
            }
            // The error reads as a sentence.
            do {
                _ = try m.predict(randomMatrix(5, 4, seed: 1))
                Issue.record("expected an error")
            } catch let e as LearnError {
                #expect(e.description == "shape mismatch in \(name).predict X: expected 3 columns (as in training), found 4 columns")
            }
        }
    }
}

/// The prediction against a plain reference written from the definitions (scores, sigmoid or
/// softmax; ReLU layers), so a wrong row kernel fails here even though batch and row agree.
@Suite struct PredictionReferenceTests {
    static func softmax(_ z: [Double]) -> [Double] {
        let m = z.max()!
        let e = z.map { Foundation.exp($0 - m) }
        let s = e.reduce(0, +)
        return e.map { $0 / s }
    }

    @Test func logisticMatchesItsDefinition() throws {
        for k in [2, 4] {
            let (x, y) = blobs(n: 80, d: 5, k: k, spread: 2, seed: 9, separation: 1)
            var m = LogisticRegression(l2: 1e-3)
            try m.fit(x, y)
            let s = try #require(m.state)
            let p = try m.predictProbabilities(x)
            for i in 0..<x.rows {
                let row = x.row(i)
                let z = (0..<s.coefficients.rows).map { o in s.intercepts[o] + (0..<5).reduce(0.0) { $0 + s.coefficients[o, $1] * row[$1] } }
                let ref = k == 2 ? [1 - 1 / (1 + Foundation.exp(-z[0])), 1 / (1 + Foundation.exp(-z[0]))] : Self.softmax(z)
                for c in 0..<k { #expect(abs(p[i, c] - ref[c]) < 1e-12) }
            }
        }
    }

    @Test func mlpMatchesItsDefinition() throws {
        let (x, y) = blobs(n: 80, d: 5, k: 3, spread: 2, seed: 10, separation: 1)
        var m = MLPClassifier(hiddenLayerSizes: [6, 4], seed: 2)
        try m.fit(x, y)
        let s = try #require(m.state)
        let p = try m.predictProbabilities(x)
        for i in 0..<x.rows {
            var a = x.row(i)
            for (l, layer) in s.layers.enumerated() {
                var out = layer.biases
                for c in 0..<layer.weights.cols { for r in 0..<layer.weights.rows { out[c] += a[r] * layer.weights[r, c] } }
                a = l == s.layers.count - 1 ? Self.softmax(out) : out.map { Swift.max($0, 0) }
            }
            for c in 0..<3 { #expect(abs(p[i, c] - a[c]) < 1e-12) }
        }
    }
}
