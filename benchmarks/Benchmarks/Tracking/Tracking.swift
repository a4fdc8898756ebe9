// Tracking: the per-sample detectors and a whole hour of data through the pipeline.
import Benchmark
import BenchSupport
import HarnessConfig
import Motus

let imu = Synthetic.imu(samples: 100_000, seed: 8)
let accVectors = (0..<imu.times.count).map { Vector3(imu.acc[3 * $0], imu.acc[3 * $0 + 1], imu.acc[3 * $0 + 2]) }
let gyroVectors = (0..<imu.times.count).map { Vector3(imu.gyro[3 * $0], imu.gyro[3 * $0 + 1], imu.gyro[3 * $0 + 2]) }
let loadedModel: MotionModel? = try? MotionModel.load(path: BenchPaths.movingStillModel)
let hourPath: String? = try? HourRecording.file(seconds: 3600)

let benchmarks: @Sendable () -> Void = {
    // One iteration = one sample; figures per 1,000 samples. Pinned at zero allocations.
    Benchmark(Harness.name("Pedometer.update per 1,000 samples"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 10_000_000)) { b in
        var p = Pedometer()
        let n = accVectors.count
        var i = 0
        for _ in 0..<3000 { blackHole(p.update(acceleration: accVectors[i], time: imu.times[i])); i += 1 }
        var offset = 0.0
        b.startMeasurement()
        for _ in b.scaledIterations {
            blackHole(p.update(acceleration: accVectors[i], time: imu.times[i] + offset))
            i += 1
            if i == n { i = 0; offset += imu.times[n - 1] + 0.02 }
        }
        b.stopMeasurement()
    }

    // Attitude filter + streaming features + moving/still inference at every hop (64 samples).
    // Allocations: only the inference call's (see README: no allocation-free single-row predict yet).
    Benchmark(Harness.name("Moving/still detector per 1,000 samples (fusion + streaming features + inference)"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 10_000_000, mallocTolerance: 8)) { b in
        guard let model = loadedModel else { b.error("cannot read \(BenchPaths.movingStillModel)"); return }
        var d = try StreamingDetector(model: model)
        let n = accVectors.count
        var i = 0
        for _ in 0..<256 { _ = try d.update(acceleration: accVectors[i], rotationRate: gyroVectors[i]); i += 1 }
        b.startMeasurement()
        for _ in b.scaledIterations {
            blackHole(try d.update(acceleration: accVectors[i], rotationRate: gyroVectors[i]))
            i += 1
            if i == n { i = 0 }
        }
        b.stopMeasurement()
    }

    // The tracking session's live update: acceleration and rotation rate pushed as they arrive
    // (target: < 1 µs per sample).
    Benchmark(Harness.name("Tracking session update per 1,000 samples (acc + gyro pushed live)"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 10_000_000, mallocTolerance: 8)) { b in
        guard let model = loadedModel else { b.error("cannot read \(BenchPaths.movingStillModel)"); return }
        var session = try MotionSession(settings: .default, model: model)
        let n = accVectors.count
        var i = 0
        var offset = 0.0
        for _ in 0..<3000 {
            session.pushRotationRate(gyroVectors[i], time: imu.times[i]); session.pushAcceleration(accVectors[i], time: imu.times[i])
            i += 1
            if i == n { i = 0; offset += imu.times[n - 1] - imu.times[0] + 0.02 }
        }
        b.startMeasurement()
        for _ in b.scaledIterations {
            let t = imu.times[i] + offset
            session.pushRotationRate(gyroVectors[i], time: t)
            session.pushAcceleration(accVectors[i], time: t)
            while let e = session.nextEvent() { blackHole(e) }
            i += 1
            if i == n { i = 0; offset += imu.times[n - 1] - imu.times[0] + 0.02 }
        }
        b.stopMeasurement()
    }

    // The whole `track` of one hour of real 50 Hz motion (the bundled belt recording repeated):
    // read the native file, fuse, features, classify moving/still, count steps.
    Benchmark(Harness.name("track one hour of 50 Hz acc + gyro (read + fuse + features + classify + pedometer)"),
              configuration: Harness.configuration(maxDuration: .seconds(10), maxIterations: 20, warmup: 1, mallocTolerance: 1000, usesAllCores: true)) { b in
        guard let model = loadedModel, let path = hourPath else { b.error("cannot build the hour file or read the model"); return }
        for _ in b.scaledIterations {
            blackHole(try TrackPipeline.run(path: path, model: model).steps)
        }
    }
}
