// Reading and resampling: files into SI streams, and streams onto a fixed rate.
import Benchmark
import BenchSupport
import HarnessConfig
import Motus

/// Counts samples without keeping them: the streaming (bounded-memory) read path.
struct CountingSink: RecordingSink {
    var samples = 0
    var sum = 0.0
    mutating func metadata(_ metadata: RecordingMetadata) {}
    mutating func declare(stream index: Int, name: String, kind: StreamKind) {}
    mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) { samples += 1; sum += values[0] }
    mutating func label(_ label: LabelSegment) {}
    mutating func event(_ event: GroundTruthEvent) {}
}

let csvRows = 180_000
let csvPath = Synthetic.csvFile(rows: csvRows)
/// 1,000,000 decimal numbers as IMU CSVs write them ("-12.345678,").
let numberBytes: [UInt8] = {
    var g = SplitMix(seed: 9)
    var s = ""
    s.reserveCapacity(12_000_000)
    for _ in 0..<1_000_000 { s += String(format: "%.6f,", 20 * g.normal()) }
    return Array(s.utf8)
}()
let hourIMU = Synthetic.imu(samples: 3600 * 100, rateHz: 100, seed: 3)  // one hour at 100 Hz

let benchmarks: @Sendable () -> Void = {
    Benchmark(Harness.name("CSV read 180,000 rows x 10 columns (DelimitedReader.read)"),
              configuration: Harness.configuration(maxDuration: .seconds(5), maxIterations: 30, warmup: 1, mallocTolerance: 64, usesAllCores: true)) { b in
        for _ in b.scaledIterations {
            blackHole(try DelimitedReader(path: csvPath).read().streams.count)
        }
    }

    Benchmark(Harness.name("CSV scan 180,000 rows x 10 columns (DelimitedReader.scan, streaming)"),
              configuration: Harness.configuration(maxDuration: .seconds(5), maxIterations: 30, warmup: 1, mallocTolerance: 64, usesAllCores: true)) { b in
        for _ in b.scaledIterations {
            var sink = CountingSink()
            try DelimitedReader(path: csvPath).scan(into: &sink)
            blackHole(sink.samples)
        }
    }

    // One iteration parses 1,000 numbers: the figures read as "per 1,000 numbers".
    Benchmark(Harness.name("NumberParser.scan per 1,000 numbers"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 1_000_000)) { b in
        numberBytes.withUnsafeBufferPointer { buf in
            var pos = 0
            for _ in b.scaledIterations {
                if pos >= buf.count - 16 { pos = 0 }
                if let (v, next) = NumberParser.scan(buf, pos, buf.count) {
                    blackHole(v); pos = next + 1
                } else { pos += 1 }
            }
        }
    }

    Benchmark(Harness.name("Resampler.resample one hour of 100 Hz acc to 50 Hz"),
              configuration: Harness.configuration(maxDuration: .seconds(4), maxIterations: 50, warmup: 1)) { b in
        let settings = ResamplerSettings(rateHz: 50)
        for _ in b.scaledIterations {
            blackHole(Resampler.resample(times: hourIMU.times, values: hourIMU.acc, width: 3, settings: settings).count)
        }
    }

    // Per 1,000 input samples (100 Hz in, 50 Hz out); steady state must not allocate.
    Benchmark(Harness.name("StreamingResampler.push per 1,000 samples"),
              configuration: Harness.configuration(perIteration: .kilo, maxIterations: 1_000_000)) { b in
        var r = StreamingResampler(width: 3, settings: ResamplerSettings(rateHz: 50))
        var out = [Double](repeating: 0, count: 3)
        let n = hourIMU.times.count
        var i = 0
        hourIMU.acc.withUnsafeBufferPointer { vp in
            out.withUnsafeMutableBufferPointer { ob in
                // warm the state before measuring
                for k in 0..<200 { _ = r.push(time: hourIMU.times[k], UnsafeBufferPointer(rebasing: vp[(3 * k)..<(3 * k + 3)])) }
                i = 200
                b.startMeasurement()
                for _ in b.scaledIterations {
                    if i == n { i = 200; r.reset() }
                    let m = r.push(time: hourIMU.times[i], UnsafeBufferPointer(rebasing: vp[(3 * i)..<(3 * i + 3)]))
                    for j in 0..<m { r.output(j, into: ob) }
                    blackHole(ob[0])
                    i += 1
                }
                b.stopMeasurement()
            }
        }
    }
}
