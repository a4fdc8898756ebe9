// Feature extraction per window: batch (all windows of a signal) and streaming (one window
// at a time as frames arrive).
import Benchmark
import BenchSupport
import HarnessConfig
import Motus

let windows = 1000
let frames = 64 * (windows - 1) + 128
let signal = Synthetic.featureSignal(frames: frames)   // 11 channels, channel-major
let motionFrames = Synthetic.motionFrames(samples: 64 * 400 + 128, seed: 2)
let loadedModel: MotionModel? = try? MotionModel.load(path: BenchPaths.movingStillModel)

var basic14: FeatureConfiguration {
    var c = FeatureConfiguration.allChannels
    c.features = [.mean, .standardDeviation, .minimum, .maximum, .range, .median, .interquartileRange, .rms,
                  .skewness, .kurtosis, .meanCrossingRate, .signalMagnitudeArea, .dominantFrequency, .spectralEntropy]
    c.correlations = []
    return c
}

let benchmarks: @Sendable () -> Void = {
    // One iteration = 1,000 windows of 128 samples x 11 channels (the numpy comparison's input).
    for (name, config) in [("all channels, full set", FeatureConfiguration.allChannels), ("all channels, 14 basic features", basic14)] {
        Benchmark(Harness.name("Batch features, \(name), per 1,000 windows of 128 x 11"),
                  configuration: Harness.configuration(maxDuration: .seconds(3), maxIterations: 200, warmup: 1, mallocTolerance: 8)) { b in
            let ex = try FeatureExtractor(configuration: config)
            b.startMeasurement()
            for _ in b.scaledIterations {
                blackHole(ex.extract(channelMajor: signal, frameCount: frames).rows)
            }
            b.stopMeasurement()
        }
    }

    Benchmark(Harness.name("Batch features, standard set, from frames, per 400 windows"),
              configuration: Harness.configuration(maxDuration: .seconds(3), maxIterations: 200, warmup: 1, mallocTolerance: 8)) { b in
        let ex = try FeatureExtractor(configuration: .standard)
        b.startMeasurement()
        for _ in b.scaledIterations { blackHole(ex.extract(frames: motionFrames).rows) }
        b.stopMeasurement()
    }

    // One iteration = one hop: 64 frames pushed and the window's features computed.
    // Steady state is pinned at zero allocations.
    for (name, config) in [("standard", FeatureConfiguration.standard), ("all channels", FeatureConfiguration.allChannels)] {
        Benchmark(Harness.name("Streaming features, \(name), per window (64 pushes + features)"),
                  configuration: Harness.configuration(maxIterations: 100_000)) { b in
            var s = try StreamingFeatureExtractor(configuration: config)
            var out = [Double](repeating: 0, count: s.featureCount)
            var i = 0
            out.withUnsafeMutableBufferPointer { ob in
                for k in 0..<128 { if s.push(motionFrames[k]) { s.features(into: ob) } }
                i = 128
                b.startMeasurement()
                for _ in b.scaledIterations {
                    for _ in 0..<64 {
                        if s.push(motionFrames[i]) { s.features(into: ob) }
                        i += 1
                        if i == motionFrames.count { i = 0 }
                    }
                    blackHole(ob[0])
                }
                b.stopMeasurement()
            }
        }
    }

    // One window's features + moving/still inference (scaler + logistic), the live path.
    Benchmark(Harness.name("Streaming window features + moving/still inference (standard, logistic)"),
              configuration: Harness.configuration(maxIterations: 100_000)) { b in
        guard let model = loadedModel else { b.error("cannot read \(BenchPaths.movingStillModel)"); return }
        var s = try StreamingFeatureExtractor(configuration: model.features)
        var row = [Double](repeating: 0, count: s.featureCount)
        for k in 0..<128 { _ = s.push(motionFrames[k]) }
        b.startMeasurement()
        for _ in b.scaledIterations {
            row.withUnsafeMutableBufferPointer { s.features(into: $0) }
            model.scaler.transform(row: &row)
            let p = try model.estimator.predictProbabilities(Matrix(rows: 1, cols: row.count, values: row))
            blackHole(p[0, 0])
        }
        b.stopMeasurement()
    }
}
