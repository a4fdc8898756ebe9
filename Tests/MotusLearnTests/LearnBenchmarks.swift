import Testing
import Foundation
@testable import MotusLearn

/// Speed figures, not a timed unit test: runs only with `MOTUS_LEARN_BENCH=1`, meant for a release build:
///
///     MOTUS_LEARN_BENCH=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
///       MOTUS_LEARN_PYTHON=/tmp/venv-learn/bin/python \
///       swift test -c release --filter LearnBenchmarks
///
/// With `MOTUS_LEARN_PYTHON` pointing at a Python with numpy and scikit-learn, the same data (written
/// as raw float64 to `MOTUS_LEARN_BENCH_DIR`, default /tmp/motus-learn-bench) is timed in scikit-learn
/// and the figures are printed side by side.
struct LearnBenchmarks {
    static let enabled = ProcessInfo.processInfo.environment["MOTUS_LEARN_BENCH"] == "1"

    @Test(.enabled(if: enabled, "set MOTUS_LEARN_BENCH=1 (and use -c release) to measure"))
    func benchmarks() throws {
        let env = ProcessInfo.processInfo.environment
        let dir = env["MOTUS_LEARN_BENCH_DIR"] ?? "/tmp/motus-learn-bench"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        print("OPENBLAS_NUM_THREADS=\(env["OPENBLAS_NUM_THREADS"] ?? "(unset)")")
        gemmThreshold()

        var results = [String: Double]()
        // Logistic regression, 100 000 × 150 train + 20 000 test, binary and 6-class.
        for k in [2, 6] {
            let (xTrain, yTrain, xTest, yTest) = linearData(n: 100_000, nTest: 20_000, d: 150, k: k, seed: 42)
            try write(dir: dir, name: "lr\(k)", xTrain, yTrain, xTest, yTest)
            var best = Double.infinity
            var acc = 0.0, iters = 0, loss = 0.0
            for _ in 0..<3 {
                var m = LogisticRegression(l2: 1.0 / 100_000, tolerance: 1e-4, maxIterations: 1000)  // = sklearn C=1, tol=1e-4
                let t = try time { try m.fit(xTrain, yTrain) }
                best = min(best, t)
                acc = try Metrics.accuracy(yTrue: yTest, yPred: m.predict(xTest))
                iters = m.lastFit!.iterations
                loss = m.lastFit!.loss
            }
            results["lr\(k)_fit_s"] = best
            results["lr\(k)_acc"] = acc
            print("motus  logistic k=\(k): fit \(fmt(best)) s cpu (best of 3), \(iters) iterations, loss \(loss), test accuracy \(fmt(acc, 4))")
        }
        // MLP(32), 4 216 × 154, 6 classes: time per epoch from 20 epochs without early stopping.
        do {
            let (x, y, xTest, yTest) = blobData(n: 4216, nTest: 1000, d: 154, k: 6, seed: 7)
            try write(dir: dir, name: "mlp", x, y, xTest, yTest)
            var best = Double.infinity
            var acc = 0.0
            for _ in 0..<5 {
                var m = MLPClassifier(hiddenLayerSizes: [32], maxEpochs: 20, earlyStopping: false, patience: 1000, tolerance: 0, seed: 1)
                let t = try time { try m.fit(x, y) }
                best = min(best, t / 20)
                acc = try Metrics.accuracy(yTrue: yTest, yPred: m.predict(xTest))
            }
            results["mlp_epoch_s"] = best
            results["mlp_acc"] = acc
            print("motus  MLP(32) epoch on 4216 × 154: \(fmt(best * 1000, 2)) ms cpu (best of 5 runs of 20 epochs), test accuracy after 20 epochs \(fmt(acc, 4))")
        }
        if let py = env["MOTUS_LEARN_PYTHON"] {
            let script = dir + "/compare_sklearn.py"
            try Self.python.write(toFile: script, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: py)
            p.arguments = [script, dir]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            var sk = [String: Double]()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                print("sklearn " + line)
                for part in line.split(separator: " ") where part.contains("=") {
                    let kv = part.split(separator: "=")
                    if kv.count == 2, let v = Double(kv[1]) { sk[String(kv[0])] = v }
                }
            }
            print("\nside by side (thread CPU seconds, best of runs; ratio = sklearn / motus):")
            for key in ["lr2_fit_s", "lr2_acc", "lr6_fit_s", "lr6_acc", "mlp_epoch_s", "mlp_acc"] {
                let a = results[key] ?? .nan, b = sk[key] ?? .nan
                print("  \(key.padding(toLength: 12, withPad: " ", startingAt: 0)) motus \(fmt(a, 5))  sklearn \(fmt(b, 5))" + (key.hasSuffix("_s") ? "  ratio \(fmt(b / a, 2))" : ""))
            }
        }
        #expect(results["lr2_acc"]! > 0.8)
    }

    func gemmThreshold() {
        print("gemm n×n×n, plain loop vs BLAS (µs per call):")
        for n in [4, 8, 12, 16, 20, 24, 32, 48] {
            let a = randomMatrix(n, n, seed: 1), b = randomMatrix(n, n, seed: 2)
            var c = Matrix(rows: n, cols: n)
            let reps = max(10, 2_000_000 / (n * n * n))
            func run(_ loop: Bool) -> Double {
                let t0 = ContinuousClock.now
                a.values.withUnsafeBufferPointer { pa in
                    b.values.withUnsafeBufferPointer { pb in
                        c.withUnsafeMutableBufferPointer { pc in
                            for _ in 0..<reps {
                                if loop {
                                    Kernels.gemmLoop(transA: false, transB: false, m: n, n: n, k: n, alpha: 1, a: pa.baseAddress!, lda: n,
                                                     b: pb.baseAddress!, ldb: n, beta: 1, c: pc.baseAddress!, ldc: n)
                                } else {
                                    cblasGemm(n, pa.baseAddress!, pb.baseAddress!, pc.baseAddress!)
                                }
                            }
                        }
                    }
                }
                return seconds(ContinuousClock.now - t0) / Double(reps) * 1e6
            }
            _ = run(true); _ = run(false)
            print("  n=\(n): loop \(fmt(run(true), 3))  blas \(fmt(run(false), 3))")
        }
    }

    /// Thread CPU time of `body` (robust when other processes share the cores; the work here is
    /// single-threaded with OPENBLAS_NUM_THREADS=1). Wall time is printed beside it.
    func time(_ body: () throws -> Void) rethrows -> Double {
        let t0 = ContinuousClock.now, c0 = threadCPUTime()
        try body()
        let cpu = threadCPUTime() - c0
        print("    (wall \(fmt(seconds(ContinuousClock.now - t0), 4)) s, thread cpu \(fmt(cpu, 4)) s)")
        return cpu
    }

    func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    func fmt(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }

    /// Standard-normal features, labels drawn from a random linear (softmax) model.
    func linearData(n: Int, nTest: Int, d: Int, k: Int, seed: UInt64) -> (Matrix, [Int], Matrix, [Int]) {
        var g = SeededGenerator(seed: seed)
        let outputs = k
        let w = (0..<(outputs * d)).map { _ in g.nextNormal() * 3 / Double(d).squareRoot() }
        func draw(_ rows: Int) -> (Matrix, [Int]) {
            var x = Matrix(rows: rows, cols: d)
            var y = [Int](repeating: 0, count: rows)
            var z = [Double](repeating: 0, count: outputs)
            for i in 0..<rows {
                for j in 0..<d { x[i, j] = g.nextNormal() }
                for c in 0..<outputs {
                    z[c] = 0
                    for j in 0..<d { z[c] += w[c * d + j] * x[i, j] }
                }
                let m = z.max()!
                let e = z.map { Foundation.exp($0 - m) }
                var u = g.nextUniform() * e.reduce(0, +)
                var c = 0
                while c < outputs - 1 && u >= e[c] { u -= e[c]; c += 1 }
                y[i] = c
            }
            return (x, y)
        }
        let (a, b) = draw(n)
        let (c, e) = draw(nTest)
        return (a, b, c, e)
    }

    func blobData(n: Int, nTest: Int, d: Int, k: Int, seed: UInt64) -> (Matrix, [Int], Matrix, [Int]) {
        let (x, y) = blobs(n: n + nTest, d: d, k: k, spread: 6, seed: seed, separation: 1)
        return (x.selectingRows(0..<n), Array(y[0..<n]), x.selectingRows(n..<(n + nTest)), Array(y[n...]))
    }

    func write(dir: String, name: String, _ x: Matrix, _ y: [Int], _ xt: Matrix, _ yt: [Int]) throws {
        func raw<T>(_ a: [T]) -> Data { a.withUnsafeBytes { Data($0) } }
        try raw(x.values).write(to: URL(fileURLWithPath: "\(dir)/\(name)_xtrain.f64"))
        try raw(y.map { Int64($0) }).write(to: URL(fileURLWithPath: "\(dir)/\(name)_ytrain.i64"))
        try raw(xt.values).write(to: URL(fileURLWithPath: "\(dir)/\(name)_xtest.f64"))
        try raw(yt.map { Int64($0) }).write(to: URL(fileURLWithPath: "\(dir)/\(name)_ytest.i64"))
        try "\(x.cols)".write(toFile: "\(dir)/\(name)_cols.txt", atomically: true, encoding: .utf8)
    }

    static let python = #"""
import sys, time, warnings
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.exceptions import ConvergenceWarning
warnings.filterwarnings("ignore", category=ConvergenceWarning)
d = sys.argv[1]
def load(name):
    cols = int(open(f"{d}/{name}_cols.txt").read())
    x = np.fromfile(f"{d}/{name}_xtrain.f64").reshape(-1, cols)
    y = np.fromfile(f"{d}/{name}_ytrain.i64", dtype=np.int64)
    xt = np.fromfile(f"{d}/{name}_xtest.f64").reshape(-1, cols)
    yt = np.fromfile(f"{d}/{name}_ytest.i64", dtype=np.int64)
    return x, y, xt, yt
import sklearn
print(f"version sklearn {sklearn.__version__} numpy {np.__version__}")
for k in (2, 6):
    x, y, xt, yt = load(f"lr{k}")
    best = 1e9
    for _ in range(3):
        m = LogisticRegression(C=1.0, solver="lbfgs", tol=1e-4, max_iter=1000)
        t = time.thread_time(); w = time.perf_counter(); m.fit(x, y); best = min(best, time.thread_time() - t)
        print(f"    (wall {time.perf_counter() - w:.4f} s, thread cpu {time.thread_time() - t:.4f} s)")
    acc = (m.predict(xt) == yt).mean()
    print(f"logistic k={k}: lr{k}_fit_s={best:.4f} lr{k}_acc={acc:.4f} iterations={int(np.max(m.n_iter_))}")
x, y, xt, yt = load("mlp")
best = 1e9
for _ in range(5):
    m = MLPClassifier(hidden_layer_sizes=(32,), max_iter=20, early_stopping=False, n_iter_no_change=1000, tol=0, random_state=1)
    t = time.thread_time(); w = time.perf_counter(); m.fit(x, y); best = min(best, (time.thread_time() - t) / 20)
    print(f"    (wall {time.perf_counter() - w:.4f} s, thread cpu {time.thread_time() - t:.4f} s for 20 epochs)")
acc = (m.predict(xt) == yt).mean()
print(f"MLP(32) epoch: mlp_epoch_s={best:.5f} mlp_acc={acc:.4f}")
"""#
}

#if canImport(Accelerate)
import Accelerate
#else
import CBLAS
#endif

func cblasGemm(_ n: Int, _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ c: UnsafeMutablePointer<Double>) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(n), Int32(n), Int32(n), 1, a, Int32(n), b, Int32(n), 1, c, Int32(n))
}
