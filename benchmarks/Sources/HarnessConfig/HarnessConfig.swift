// Shared harness settings for the suites in Benchmarks/.
//
// Thresholds (checked by `swift package benchmark thresholds check` against the p90 values
// committed in Thresholds/):
// - malloc counts are deterministic, so they must match exactly; the streaming paths are
//   committed at 0, so one allocation per sample or per window fails the check;
// - times vary with load on a shared 2-core machine (2x swings are common), so time metrics
//   only fail on a gross change: more than `timeTolerancePercent` away from the committed p90
//   (three times that for work spread over every core, which load from others moves most).
//   (An improvement that large also "fails": update the thresholds when you make one.)
import Benchmark

public enum Harness {
    /// A benchmark name as the thresholds files spell it: `thresholds update` writes
    /// `Target.Name.p90.json` with spaces and slashes turned into underscores, but
    /// `thresholds check` looks the name up unchanged (benchmark 1.38.1), so names must not
    /// contain either.
    public static func name(_ text: String) -> String {
        String(text.map { $0 == " " || $0 == "/" ? "_" : $0 })
    }

    public static let timeTolerancePercent = 60.0

    /// - Parameters:
    ///   - perIteration: `.kilo` when one measured iteration does 1,000 units (samples); figures
    ///     are then per 1,000 units (`--scale` prints them per unit).
    ///   - mallocTolerance: allowed absolute deviation of the p90 malloc count (0: exact).
    public static func configuration(perIteration: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(2),
                                     maxIterations: Int = 10_000, warmup: Int = 3, mallocTolerance: Int = 0,
                                     usesAllCores: Bool = false) -> Benchmark.Configuration {
        // Work spread over every core (the CSV reader on large files) depends on what else runs far more.
        let time = BenchmarkThresholds(relative: [.p90: usesAllCores ? 3 * timeTolerancePercent : timeTolerancePercent])
        return .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                     timeUnits: .automatic,
                     warmupIterations: warmup,
                     scalingFactor: perIteration,
                     maxDuration: maxDuration,
                     maxIterations: maxIterations,
                     thresholds: [.wallClock: time, .throughput: time,
                                  .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: mallocTolerance])])
    }
}
