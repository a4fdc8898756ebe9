#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import MotusCore
import MotusFeatures

/// Throughput figures, off by default (they take seconds and mean nothing in a debug build):
///
///     MOTUS_FEATURES_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter FeatureBenchmark
///
/// Same input as `benchmarks/compare/features_numpy.py` (run that beside it with
/// OPENBLAS_NUM_THREADS=1); times are this thread's CPU time, best of 3.
@Suite(.enabled(if: getenv("MOTUS_FEATURES_BENCH") != nil, "set MOTUS_FEATURES_BENCH=1 to measure"))
struct FeatureBenchmark {
    static func cpuSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static let basic14: [Feature] = [.mean, .standardDeviation, .minimum, .maximum, .range, .median, .interquartileRange, .rms,
                                     .skewness, .kurtosis, .meanCrossingRate, .signalMagnitudeArea, .dominantFrequency, .spectralEntropy]

    @Test func batchThroughput() throws {
        let windows = 5000, frames = 64 * (windows - 1) + 128
        let data = benchmarkSignal(frames: frames)
        var basic = FeatureConfiguration.allChannels
        basic.features = Self.basic14; basic.correlations = []
        for (name, config) in [("full set", FeatureConfiguration.allChannels), ("basic 14-feature set", basic)] {
            let ex = try FeatureExtractor(configuration: config)
            var best = Double.infinity, rows = 0
            for _ in 0..<3 {
                let t0 = Self.cpuSeconds()
                let m = ex.extract(channelMajor: data, frameCount: frames)
                best = min(best, Self.cpuSeconds() - t0)
                rows = m.rows
            }
            #expect(rows == windows)
            print("MotusFeatures batch, \(name): \(rows) windows x 11 channels x 128 samples -> \(config.featureCount) features: " +
                  "\(Int(Double(rows) / best)) windows/s (\(best / Double(rows) * 1e6) µs/window)")
        }
    }

    @Test func streamingCostPerWindow() throws {
        let frames = syntheticFrames(count: 64 * 2000 + 128, seed: 1)
        for (name, config) in [("standard", FeatureConfiguration.standard), ("allChannels", FeatureConfiguration.allChannels)] {
            var s = try StreamingFeatureExtractor(configuration: config)
            var out = [Double](repeating: 0, count: s.featureCount)
            var featureTime = 0.0, windows = 0
            let t0 = Self.cpuSeconds()
            out.withUnsafeMutableBufferPointer { ob in
                for f in frames where s.push(f) {
                    let t = Self.cpuSeconds()
                    s.features(into: ob)
                    featureTime += Self.cpuSeconds() - t
                    windows += 1
                }
            }
            let total = Self.cpuSeconds() - t0
            #expect(windows == 2001)
            print("MotusFeatures streaming, \(name) (\(config.featureCount) features): \(featureTime / Double(windows) * 1e6) µs per window, " +
                  "\((total - featureTime) / Double(frames.count) * 1e9) ns per push")
        }
    }
}
