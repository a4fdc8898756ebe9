import Testing
import Foundation
@testable import MotusLearn

struct MLPTests {
    @Test(arguments: [[4, 5, 3], [4, 6, 5, 3], [3, 4, 2]])
    func gradientMatchesFiniteDifferences(sizes: [Int]) {
        let net = MLPNetwork(sizes: sizes)
        var g = SeededGenerator(seed: 99)
        let params = net.initialParameters(&g)
        let nb = 7, d = sizes[0], k = sizes.last!
        let x = (0..<(nb * d)).map { _ in g.nextNormal() }
        let y = (0..<nb).map { $0 % k }
        let w = (0..<nb).map { _ in 0.5 + g.nextUniform() }
        let work = MLPNetwork.Workspace(net: net, batchRows: nb)
        var grad = [Double](repeating: 0, count: net.parameterCount)
        let alpha = 0.3
        _ = net.lossAndGradient(params: params, x: x, rows: nb, y: y, weights: w, alpha: alpha, gradient: &grad, work: work)
        var scratch = grad
        var worst = 0.0
        for j in 0..<params.count {
            var p = params, m = params
            p[j] += 1e-6; m[j] -= 1e-6
            let fp = net.lossAndGradient(params: p, x: x, rows: nb, y: y, weights: w, alpha: alpha, gradient: &scratch, work: work)
            let fm = net.lossAndGradient(params: m, x: x, rows: nb, y: y, weights: w, alpha: alpha, gradient: &scratch, work: work)
            let fd = (fp - fm) / 2e-6
            worst = max(worst, abs(fd - grad[j]) / max(1e-3, abs(fd) + abs(grad[j])))
        }
        #expect(worst < 1e-6, "worst relative gradient error \(worst)")
    }

    @Test func lossMatchesNaiveForward() throws {
        // One hidden layer, checked against an explicit loop forward pass.
        let net = MLPNetwork(sizes: [3, 4, 3])
        var g = SeededGenerator(seed: 5)
        let p = net.initialParameters(&g)
        let x = (0..<6).map { _ in g.nextNormal() }  // 2 rows
        let y = [2, 0]
        var loss = 0.0
        for r in 0..<2 {
            var h = [Double](repeating: 0, count: 4)
            for o in 0..<4 {
                var s = p[net.biasOffset[0] + o]
                for i in 0..<3 { s += x[r * 3 + i] * p[net.weightOffset[0] + i * 4 + o] }
                h[o] = max(0, s)
            }
            var z = [Double](repeating: 0, count: 3)
            for o in 0..<3 {
                var s = p[net.biasOffset[1] + o]
                for i in 0..<4 { s += h[i] * p[net.weightOffset[1] + i * 3 + o] }
                z[o] = s
            }
            let m = z.max()!
            let lse = m + log(z.reduce(0) { $0 + exp($1 - m) })
            loss += lse - z[y[r]]
        }
        var sq = 0.0
        for l in 0..<2 { for j in net.weightOffset[l]..<net.biasOffset[l] { sq += p[j] * p[j] } }
        let expected = loss / 2 + 0.5 * 0.1 / 2 * sq
        var grad = [Double](repeating: 0, count: net.parameterCount)
        let got = net.lossAndGradient(params: p, x: x, rows: 2, y: y, weights: [1, 1], alpha: 0.1, gradient: &grad,
                                      work: MLPNetwork.Workspace(net: net, batchRows: 2))
        #expect(abs(got - expected) < 1e-12)
    }

    @Test func earlyStoppingKeepsBestEpochAndStops() throws {
        let (x, y) = blobs(n: 400, d: 5, k: 3, spread: 2.5, seed: 4, separation: 1)
        var mlp = MLPClassifier(hiddenLayerSizes: [16], maxEpochs: 300, patience: 5, seed: 1)
        try mlp.fit(x, y)
        let s = try #require(mlp.lastFit)
        #expect(s.stop == .noImprovement)
        #expect(s.epochs < 300)
        #expect(s.validationLoss.count == s.epochs)
        #expect(s.validationLoss[s.bestEpoch - 1] == s.validationLoss.min())
    }

    @Test func differentSeedsGiveDifferentModels() throws {
        let (x, y) = blobs(n: 100, d: 4, k: 2, spread: 1, seed: 2)
        var a = MLPClassifier(maxEpochs: 5, seed: 1), b = MLPClassifier(maxEpochs: 5, seed: 2)
        try a.fit(x, y)
        try b.fit(x, y)
        #expect(a.state != b.state)
    }

    @Test func invalidConfigurationIsRejected() {
        let (x, y) = blobs(n: 20, d: 2, k: 2, spread: 1, seed: 2)
        var m = MLPClassifier(hiddenLayerSizes: [])
        #expect(throws: LearnError.invalidParameter(name: "hiddenLayerSizes", expected: "at least one layer, each ≥ 1 unit", found: "[]")) {
            try m.fit(x, y)
        }
        var m2 = MLPClassifier(validationFraction: 1)
        #expect(throws: LearnError.self) { try m2.fit(x, y) }
    }
}
