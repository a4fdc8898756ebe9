import Testing
import Foundation
@testable import MotusLearn

/// Naive reference: the same objective written with plain loops, minimised by plain gradient descent
/// until the gradient vanishes. Parameters: W (outputs × d) then b (outputs).
struct NaiveLogistic {
    let x: [[Double]], y: [Int], w: [Double], k: Int, l2: Double
    var outputs: Int { k == 2 ? 1 : k }

    func lossAndGradient(_ W: [[Double]], _ b: [Double]) -> (Double, [[Double]], [Double]) {
        let d = x[0].count, n = x.count
        let wsum = w.reduce(0, +)
        var loss = 0.0
        var gW = [[Double]](repeating: [Double](repeating: 0, count: d), count: outputs)
        var gb = [Double](repeating: 0, count: outputs)
        for i in 0..<n {
            var z = [Double](repeating: 0, count: outputs)
            for c in 0..<outputs {
                z[c] = b[c]
                for j in 0..<d { z[c] += W[c][j] * x[i][j] }
            }
            var r = [Double](repeating: 0, count: outputs)
            if k == 2 {
                let p = 1 / (1 + Foundation.exp(-z[0]))
                let yi = Double(y[i])
                loss += w[i] * -(yi * Foundation.log(p) + (1 - yi) * Foundation.log(1 - p))
                r[0] = p - yi
            } else {
                let m = z.max()!
                let e = z.map { Foundation.exp($0 - m) }
                let s = e.reduce(0, +)
                loss += w[i] * -Foundation.log(e[y[i]] / s)
                for c in 0..<k { r[c] = e[c] / s - (c == y[i] ? 1 : 0) }
            }
            for c in 0..<outputs {
                gb[c] += w[i] * r[c] / wsum
                for j in 0..<d { gW[c][j] += w[i] * r[c] * x[i][j] / wsum }
            }
        }
        loss /= wsum
        for c in 0..<outputs {
            for j in 0..<d {
                loss += 0.5 * l2 * W[c][j] * W[c][j]
                gW[c][j] += l2 * W[c][j]
            }
        }
        return (loss, gW, gb)
    }

    func gradientDescent(step: Double = 0.5, iterations: Int = 200_000) -> ([[Double]], [Double], Double) {
        let d = x[0].count
        var W = [[Double]](repeating: [Double](repeating: 0, count: d), count: outputs)
        var b = [Double](repeating: 0, count: outputs)
        for _ in 0..<iterations {
            let (_, gW, gb) = lossAndGradient(W, b)
            var gmax = 0.0
            for c in 0..<outputs {
                for j in 0..<d { W[c][j] -= step * gW[c][j]; gmax = max(gmax, abs(gW[c][j])) }
                b[c] -= step * gb[c]
                gmax = max(gmax, abs(gb[c]))
            }
            if gmax < 1e-12 { break }
        }
        return (W, b, lossAndGradient(W, b).0)
    }
}

struct LogisticRegressionTests {
    func rows(_ m: Matrix) -> [[Double]] { (0..<m.rows).map { m.row($0) } }

    @Test(arguments: [2, 3, 4])
    func matchesGradientDescentReference(k: Int) throws {
        let (x, y) = blobs(n: 60, d: 3, k: k, spread: 1.5, seed: 10 + UInt64(k), separation: 1)
        let l2 = 0.05
        var lr = LogisticRegression(l2: l2, tolerance: 1e-11, maxIterations: 1000)
        try lr.fit(x, y)
        let s = try #require(lr.state)
        let ref = NaiveLogistic(x: rows(x), y: y, w: [Double](repeating: 1, count: 60), k: k, l2: l2).gradientDescent()
        #expect(maxAbsDiff(s.coefficients.values, ref.0.flatMap { $0 }) < 1e-6)
        #expect(maxAbsDiff(s.intercepts, ref.1) < 1e-6)
        let fit = try #require(lr.lastFit)
        #expect(abs(fit.loss - ref.2) < 1e-10)
        #expect(abs(try lr.objectiveValue(x, y) - ref.2) < 1e-10)
        #expect(fit.stop == .gradientTolerance || fit.stop == .functionTolerance)
    }

    @Test(arguments: [2, 3])
    func weightedMatchesReference(k: Int) throws {
        let (x, y) = blobs(n: 50, d: 2, k: k, spread: 1.2, seed: 20, separation: 1)
        var g = SeededGenerator(seed: 5)
        let sw = (0..<50).map { _ in 0.2 + 2 * g.nextUniform() }
        // Reference weights: sample weight × balanced class weight.
        let cw = try ClassWeighting.balanced.weights(for: y, classCount: k)
        let w = (0..<50).map { sw[$0] * cw[y[$0]] }
        var lr = LogisticRegression(l2: 0.02, classWeighting: .balanced, tolerance: 1e-11, maxIterations: 1000)
        try lr.fit(x, y, classCount: k, sampleWeights: sw)
        let ref = NaiveLogistic(x: rows(x), y: y, w: w, k: k, l2: 0.02).gradientDescent()
        let s = try #require(lr.state)
        #expect(maxAbsDiff(s.coefficients.values, ref.0.flatMap { $0 }) < 1e-6)
        #expect(maxAbsDiff(s.intercepts, ref.1) < 1e-6)
        #expect(abs(lr.lastFit!.loss - ref.2) < 1e-10)
    }

    @Test(arguments: [2, 4])
    func objectiveGradientMatchesFiniteDifferences(k: Int) throws {
        let (x, y) = blobs(n: 300, d: 150, k: k, spread: 2, seed: 3)  // two row blocks
        let w = (0..<300).map { 0.5 + Double($0 % 3) }
        let obj = LogisticObjective(x: x, y: y, weights: w, classCount: k, l2: 0.01, fitIntercept: true)
        #expect(obj.blockRows < 300)
        var g = SeededGenerator(seed: 1)
        let theta = (0..<obj.parameterCount).map { _ in 0.1 * g.nextNormal() }
        var grad = [Double](repeating: 0, count: theta.count)
        _ = obj.evaluate(theta, gradient: &grad)
        var scratch = grad
        for j in stride(from: 0, to: theta.count, by: 13) {
            var tp = theta, tm = theta
            tp[j] += 1e-6; tm[j] -= 1e-6
            let fd = (obj.evaluate(tp, gradient: &scratch) - obj.evaluate(tm, gradient: &scratch)) / 2e-6
            #expect(abs(fd - grad[j]) < 1e-7 * max(1, abs(fd)), "parameter \(j)")
        }
    }

    @Test func lbfgsMinimisesRosenbrock() {
        let r = LBFGS(settings: { var s = LBFGS.Settings(); s.gradientTolerance = 1e-10; s.maxIterations = 1000; return s }())
            .minimize(from: [-1.2, 1]) { v, g in
                let a = v[0], b = v[1]
                g[0] = -2 * (1 - a) - 400 * a * (b - a * a)
                g[1] = 200 * (b - a * a)
                return (1 - a) * (1 - a) + 100 * (b - a * a) * (b - a * a)
            }
        #expect(r.converged)
        #expect(abs(r.x[0] - 1) < 1e-7 && abs(r.x[1] - 1) < 1e-7)
    }

    @Test func restoredStateIsValidated() {
        let bad = LogisticRegression.State(classCount: 3, coefficients: Matrix(rows: 1, cols: 4), intercepts: [0])
        #expect(throws: LearnError.self) { _ = try LogisticRegression(configuration: .init(), state: bad) }
    }
}
