/// Limited-memory BFGS with a strong-Wolfe line search (Nocedal & Wright, Numerical Optimization,
/// 2nd ed., Alg. 7.4 two-loop recursion, Alg. 3.5/3.6 bracketing and zoom with cubic interpolation).
/// Deterministic: no randomness, fixed operation order.
public struct LBFGS: Sendable {
    /// Stopping rules and line-search constants; defaults on each property.
    public struct Settings: Codable, Equatable, Hashable, Sendable {
        /// Stop when `max |∇f| ≤ gradientTolerance`.
        public var gradientTolerance: Double = 1e-5
        /// Stop when the relative decrease `(f_k − f_{k+1}) / max(|f_k|, |f_{k+1}|, 1)` is at most this.
        public var relativeFunctionTolerance: Double = 64 * Double.ulpOfOne
        /// Maximum number of iterations (line searches).
        public var maxIterations: Int = 500
        /// Number of correction pairs kept.
        public var memory: Int = 10
        /// Sufficient-decrease (Armijo) constant.
        public var c1: Double = 1e-4
        /// Curvature constant.
        public var c2: Double = 0.9
        /// Maximum function evaluations per line search.
        public var maxLineSearchEvaluations: Int = 25
        /// The defaults, as given on each property.
        public init() {}
    }

    /// Why the minimisation stopped.
    public enum Stop: String, Codable, Sendable {
        /// The gradient fell below `gradientTolerance`.
        case gradientTolerance
        /// The relative decrease fell below `relativeFunctionTolerance`.
        case functionTolerance
        /// `maxIterations` were run.
        case maxIterations
        /// No step met the Wolfe conditions.
        case lineSearchFailed
    }

    /// Where the minimisation ended and why.
    public struct Result: Sendable {
        /// The minimiser found.
        public var x: [Double]
        /// f at `x`.
        public var value: Double
        /// Largest |∂f/∂xᵢ| at `x`.
        public var gradientInfinityNorm: Double
        /// Iterations (line searches) run.
        public var iterations: Int
        /// Evaluations of f and its gradient.
        public var evaluations: Int
        /// Why it stopped.
        public var stop: Stop
        /// True when it stopped on a tolerance, not a limit or a failure.
        public var converged: Bool { stop == .gradientTolerance || stop == .functionTolerance }
    }

    /// The stopping rules and constants.
    public var settings: Settings
    /// A minimiser with these settings.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Minimises `f` from `x0`. `evaluate(x, &gradient)` returns f(x) and writes ∇f(x) into `gradient`.
    public func minimize(from x0: [Double], _ evaluate: ([Double], inout [Double]) -> Double) -> Result {
        let n = x0.count
        let m = max(1, settings.memory)
        var x = x0
        var g = [Double](repeating: 0, count: n)
        var f = evaluate(x, &g)
        var evaluations = 1
        var sHist = [[Double]](), yHist = [[Double]](), rhoHist = [Double]()
        var d = [Double](repeating: 0, count: n)
        var alphaBuf = [Double](repeating: 0, count: m)
        var xNew = x, gNew = g
        var iterations = 0

        func infNorm(_ v: [Double]) -> Double { v.reduce(0) { max($0, abs($1)) } }

        if infNorm(g) <= settings.gradientTolerance {
            return Result(x: x, value: f, gradientInfinityNorm: infNorm(g), iterations: 0, evaluations: 1, stop: .gradientTolerance)
        }
        while true {
            if iterations >= settings.maxIterations {
                return Result(x: x, value: f, gradientInfinityNorm: infNorm(g), iterations: iterations, evaluations: evaluations, stop: .maxIterations)
            }
            // Two-loop recursion: d = -H g.
            for i in 0..<n { d[i] = -g[i] }
            let h = sHist.count
            if h > 0 {
                for j in stride(from: h - 1, through: 0, by: -1) {
                    let a = rhoHist[j] * Vector.dot(sHist[j], d)
                    alphaBuf[j] = a
                    Vector.axpy(-a, yHist[j], &d)
                }
                let gamma = Vector.dot(sHist[h - 1], yHist[h - 1]) / Vector.dot(yHist[h - 1], yHist[h - 1])
                for i in 0..<n { d[i] *= gamma }
                for j in 0..<h {
                    let b = rhoHist[j] * Vector.dot(yHist[j], d)
                    Vector.axpy(alphaBuf[j] - b, sHist[j], &d)
                }
            }
            var dg = Vector.dot(d, g)
            if !(dg < 0) {
                // Not a descent direction (should not happen with positive curvature pairs): restart.
                sHist.removeAll(); yHist.removeAll(); rhoHist.removeAll()
                for i in 0..<n { d[i] = -g[i] }
                dg = Vector.dot(d, g)
            }
            let initialStep = h == 0 ? min(1, 1 / max(infNorm(g), 1e-300)) : 1
            let ls = lineSearch(x: x, f: f, g: g, d: d, dg: dg, step: initialStep, xNew: &xNew, gNew: &gNew, evaluate)
            evaluations += ls.evaluations
            guard let (step, fNew) = ls.accepted else {
                return Result(x: x, value: f, gradientInfinityNorm: infNorm(g), iterations: iterations, evaluations: evaluations, stop: .lineSearchFailed)
            }
            iterations += 1
            // Update memory.
            var s = [Double](repeating: 0, count: n), y = [Double](repeating: 0, count: n)
            for i in 0..<n {
                s[i] = step * d[i]
                y[i] = gNew[i] - g[i]
            }
            let sy = Vector.dot(s, y)
            if sy > 1e-10 * Vector.dot(y, y) && sy > 0 {
                if sHist.count == m { sHist.removeFirst(); yHist.removeFirst(); rhoHist.removeFirst() }
                sHist.append(s); yHist.append(y); rhoHist.append(1 / sy)
            }
            let fOld = f
            swap(&x, &xNew)
            swap(&g, &gNew)
            f = fNew
            let gn = infNorm(g)
            if gn <= settings.gradientTolerance {
                return Result(x: x, value: f, gradientInfinityNorm: gn, iterations: iterations, evaluations: evaluations, stop: .gradientTolerance)
            }
            if (fOld - f) / max(abs(fOld), abs(f), 1) <= settings.relativeFunctionTolerance {
                return Result(x: x, value: f, gradientInfinityNorm: gn, iterations: iterations, evaluations: evaluations, stop: .functionTolerance)
            }
        }
    }

    /// Strong-Wolfe line search along `d`. On success, `xNew`/`gNew` hold the accepted point.
    private func lineSearch(x: [Double], f: Double, g: [Double], d: [Double], dg: Double, step: Double,
                            xNew: inout [Double], gNew: inout [Double],
                            _ evaluate: ([Double], inout [Double]) -> Double) -> (accepted: (Double, Double)?, evaluations: Int) {
        let n = x.count
        let c1 = settings.c1, c2 = settings.c2
        var evals = 0
        func phi(_ a: Double) -> (Double, Double) {
            for i in 0..<n { xNew[i] = x[i] + a * d[i] }
            let v = evaluate(xNew, &gNew)
            evals += 1
            return (v, Vector.dot(gNew, d))
        }
        var aPrev = 0.0, fPrev = f, dPrev = dg
        var a = step
        var lo = 0.0, hi = 0.0, fLo = f, fHi = f, dLo = dg, dHi = dg
        var bracketed = false
        while evals < settings.maxLineSearchEvaluations {
            let (fa, da) = phi(a)
            if !fa.isFinite || fa > f + c1 * a * dg || (evals > 1 && fa >= fPrev) {
                lo = aPrev; fLo = fPrev; dLo = dPrev
                hi = a; fHi = fa.isFinite ? fa : .greatestFiniteMagnitude; dHi = da.isFinite ? da : 0
                bracketed = true
                break
            }
            if abs(da) <= -c2 * dg { return ((a, fa), evals) }
            if da >= 0 {
                lo = a; fLo = fa; dLo = da
                hi = aPrev; fHi = fPrev; dHi = dPrev
                bracketed = true
                break
            }
            aPrev = a; fPrev = fa; dPrev = da
            a *= 2.5
        }
        guard bracketed else { return (nil, evals) }
        // Zoom.
        while evals < settings.maxLineSearchEvaluations {
            var aj = LBFGS.cubicMinimizer(lo, fLo, dLo, hi, fHi, dHi)
            let left = min(lo, hi), right = max(lo, hi), width = right - left
            if !(aj.isFinite) || aj < left + 0.1 * width || aj > right - 0.1 * width { aj = 0.5 * (lo + hi) }
            if width <= 1e-16 * max(1, right) { break }
            let (fj, dj) = phi(aj)
            if !fj.isFinite || fj > f + c1 * aj * dg || fj >= fLo {
                hi = aj; fHi = fj.isFinite ? fj : .greatestFiniteMagnitude; dHi = dj.isFinite ? dj : 0
            } else {
                if abs(dj) <= -c2 * dg { return ((aj, fj), evals) }
                if dj * (hi - lo) >= 0 { hi = lo; fHi = fLo; dHi = dLo }
                lo = aj; fLo = fj; dLo = dj
            }
        }
        // Accept the best sufficient-decrease point found, if any.
        if lo > 0 && fLo < f {
            _ = phi(lo)
            return ((lo, fLo), evals)
        }
        return (nil, evals)
    }

    /// Minimiser of the cubic interpolating (a, fa, da) and (b, fb, db); NaN if none.
    static func cubicMinimizer(_ a: Double, _ fa: Double, _ da: Double, _ b: Double, _ fb: Double, _ db: Double) -> Double {
        let d1 = da + db - 3 * (fa - fb) / (a - b)
        let disc = d1 * d1 - da * db
        if disc < 0 || a == b { return .nan }
        let d2 = (b > a ? 1.0 : -1.0) * disc.squareRoot()
        return b - (b - a) * (db + d2 - d1) / (db - da + 2 * d2)
    }
}
