// Learning: training (logistic regression, one MLP epoch) and single-window inference.
// OpenBLAS is pinned to one thread (the figures are single-thread, like the comparison).
import Benchmark
import BenchSupport
import HarnessConfig
import Motus

#if os(Linux)
// OpenBLAS reads OPENBLAS_NUM_THREADS when it loads, before any of this runs: set the count directly.
@_silgen_name("openblas_set_num_threads") func openblas_set_num_threads(_ n: Int32)
let pinBLAS: Void = openblas_set_num_threads(1)
#else
let pinBLAS: Void = ()
#endif
let logisticData = Synthetic.linearData(n: 100_000, d: 150, k: 2, seed: 42)
let mlpData = Synthetic.linearData(n: 4216, d: 154, k: 6, seed: 7)
/// A window-shaped problem (102 standard features, 2 classes) for inference figures.
let windowData = Synthetic.linearData(n: 2000, d: 102, k: 2, seed: 11)
let loadedModel: MotionModel? = try? MotionModel.load(path: BenchPaths.movingStillModel)

let benchmarks: @Sendable () -> Void = {
    _ = pinBLAS

    Benchmark(Harness.name("LogisticRegression.fit 100,000 x 150, 2 classes (L-BFGS)"),
              configuration: Harness.configuration(maxDuration: .seconds(8), maxIterations: 5, warmup: 1, mallocTolerance: 16)) { b in
        for _ in b.scaledIterations {
            var m = LogisticRegression(l2: 1.0 / 100_000, tolerance: 1e-4, maxIterations: 1000)  // = sklearn C=1, tol=1e-4
            try m.fit(logisticData.x, logisticData.y)
            blackHole(m.lastFit?.iterations)
        }
    }

    Benchmark(Harness.name("MLPClassifier(32) one epoch, 4,216 x 154, 6 classes"),
              configuration: Harness.configuration(maxDuration: .seconds(3), maxIterations: 200, warmup: 2)) { b in
        for _ in b.scaledIterations {
            var m = MLPClassifier(hiddenLayerSizes: [32], maxEpochs: 1, earlyStopping: false, tolerance: 0, seed: 1)
            try m.fit(mlpData.x, mlpData.y)
            blackHole(m.lastFit)
        }
    }

    Benchmark(Harness.name("Inference, one window, moving/still model (scaler + logistic)"),
              configuration: Harness.configuration(maxIterations: 1_000_000)) { b in
        guard let model = loadedModel else { b.error("cannot read \(BenchPaths.movingStillModel)"); return }
        var fm = FeatureMatrix(columns: model.features.featureCount, names: model.features.featureNames)
        fm.rows = 1
        fm.values = windowData.x.row(0)
        fm.startTimes = [0]; fm.endTimes = [2.56]
        b.startMeasurement()
        for _ in b.scaledIterations { blackHole(try model.probabilities(fm)[0, 0]) }
        b.stopMeasurement()
    }

    Benchmark(Harness.name("Inference, one window, MLP(32) on 102 features"),
              configuration: Harness.configuration(maxIterations: 1_000_000)) { b in
        var m = MLPClassifier(hiddenLayerSizes: [32], maxEpochs: 20, seed: 1)
        try m.fit(windowData.x, windowData.y)
        let x = windowData.x.selectingRows([0])
        b.startMeasurement()
        for _ in b.scaledIterations { blackHole(try m.predictProbabilities(x)[0, 0]) }
        b.stopMeasurement()
    }

    Benchmark(Harness.name("Inference, one window, logistic on 102 features"),
              configuration: Harness.configuration(maxIterations: 1_000_000)) { b in
        var m = LogisticRegression()
        try m.fit(windowData.x, windowData.y)
        let x = windowData.x.selectingRows([0])
        b.startMeasurement()
        for _ in b.scaledIterations { blackHole(try m.predictProbabilities(x)[0, 0]) }
        b.stopMeasurement()
    }
}
