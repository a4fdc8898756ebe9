// Sensor fusion: one attitude-filter update per sample.
import Benchmark
import BenchSupport
import HarnessConfig
import Motus

let imu = Synthetic.imu(samples: 100_000, seed: 5)
let accVectors = (0..<imu.times.count).map { Vector3(imu.acc[3 * $0], imu.acc[3 * $0 + 1], imu.acc[3 * $0 + 2]) }
let gyroVectors = (0..<imu.times.count).map { Vector3(imu.gyro[3 * $0], imu.gyro[3 * $0 + 1], imu.gyro[3 * $0 + 2]) }

let benchmarks: @Sendable () -> Void = {
    // One iteration = one sample; reported per 1,000 samples (`--scale` divides).
    Benchmark(Harness.name("AttitudeFilter.update per 1,000 samples"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 10_000_000)) { b in
        var f = AttitudeFilter()
        let n = accVectors.count
        var i = 0
        for _ in 0..<500 { f.update(acceleration: accVectors[i], rotationRate: gyroVectors[i], dt: 0.02); i += 1 }
        b.startMeasurement()
        for _ in b.scaledIterations {
            f.update(acceleration: accVectors[i], rotationRate: gyroVectors[i], dt: 0.02)
            i += 1
            if i == n { i = 0 }
        }
        b.stopMeasurement()
        blackHole(f.gravity)
    }

    Benchmark(Harness.name("FusionPipeline.complete one hour of 50 Hz acc + gyro"),
              configuration: Harness.configuration(maxDuration: .seconds(4), maxIterations: 30, warmup: 1)) { b in
        let hour = Synthetic.imu(samples: 180_000, seed: 6)
        let base = Recording(streams: [SensorStream(kind: .acceleration, times: hour.times, values: hour.acc),
                                       SensorStream(kind: .rotationRate, times: hour.times, values: hour.gyro)])
        b.startMeasurement()
        for _ in b.scaledIterations {
            var r = base
            FusionPipeline.complete(&r)
            blackHole(r.streams.count)
        }
        b.stopMeasurement()
    }
}
