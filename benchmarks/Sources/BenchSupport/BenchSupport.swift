// Inputs and pipelines shared by the benchmark suites (Benchmarks/) and `motus-bench`
// (the in-process timer behind compare/run.sh), so both measure the same thing.
//
// Every input is either generated here from a fixed formula or seed, or built from the
// project's own `datasets/` (never from ../shared): nothing random, nothing downloaded.
import Foundation
import Motus

public enum BenchPaths {
    /// The main package's root (benchmarks/..), from this file's location.
    public static let packageRoot: String = {
        var u = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { u.deleteLastPathComponent() }  // BenchSupport.swift, BenchSupport, Sources, benchmarks
        return u.path
    }()
    /// Generated inputs (gitignored).
    public static let data: String = {
        let d = packageRoot + "/benchmarks/.data"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()
    public static let movingStillModel = packageRoot + "/models/moving-still.json"
    public static let beltRecording = packageRoot + "/datasets/iphone-belt-stand-then-walk.motus"
}

/// SplitMix64: a tiny deterministic generator (the seed fixes every figure's input).
public struct SplitMix: Sendable {
    var state: UInt64
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    /// Standard normal (Box–Muller, one value per call).
    public mutating func normal() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
    }
}

public enum Synthetic {
    /// Walking-like IMU at `rateHz`: gravity mostly along +z with a slow sway, a 1.8 Hz step
    /// bounce, noise; gyroscope a sway plus noise. SI units.
    public static func imu(samples: Int, rateHz: Double = 50, seed: UInt64 = 1) -> (times: [Double], acc: [Double], gyro: [Double]) {
        var g = SplitMix(seed: seed)
        var t = [Double](repeating: 0, count: samples)
        var a = [Double](repeating: 0, count: samples * 3), w = [Double](repeating: 0, count: samples * 3)
        for i in 0..<samples {
            let s = Double(i) / rateHz
            t[i] = s
            let sway = 0.3 * Foundation.sin(2 * Double.pi * 0.2 * s)
            let bounce = 2.5 * Foundation.sin(2 * Double.pi * 1.8 * s)
            a[3 * i] = 9.80665 * Foundation.sin(sway) + 0.3 * g.normal()
            a[3 * i + 1] = 0.5 * Foundation.cos(2 * Double.pi * 0.9 * s) + 0.3 * g.normal()
            a[3 * i + 2] = 9.80665 * Foundation.cos(sway) + bounce + 0.3 * g.normal()
            w[3 * i] = 0.6 * Foundation.cos(2 * Double.pi * 0.2 * s) * 2 * Double.pi * 0.2 * 0.3 + 0.02 * g.normal()
            w[3 * i + 1] = 0.4 * Foundation.sin(2 * Double.pi * 0.9 * s) + 0.02 * g.normal()
            w[3 * i + 2] = 0.2 * Foundation.sin(2 * Double.pi * 1.8 * s) + 0.02 * g.normal()
        }
        return (t, a, w)
    }

    /// The same frames through the orientation filter (the session's): what a streaming consumer sees.
    public static func motionFrames(samples: Int, rateHz: Double = 50, seed: UInt64 = 1) -> [MotionFrame] {
        let d = imu(samples: samples, rateHz: rateHz, seed: seed)
        var f = OrientationFilter()
        var out: [MotionFrame] = []
        out.reserveCapacity(samples)
        for i in 0..<samples {
            let a = Vector3(d.acc[3 * i], d.acc[3 * i + 1], d.acc[3 * i + 2])
            let w = Vector3(d.gyro[3 * i], d.gyro[3 * i + 1], d.gyro[3 * i + 2])
            f.update(acceleration: a, rotationRate: w, dt: 1 / rateHz)
            out.append(MotionFrame(acceleration: a, gravity: f.gravity, rotationRate: w))
        }
        return out
    }

    /// The feature benchmark signal of compare/features_numpy.py's `generate`, channel-major:
    /// x[c, i] = sin(0.05 (c+1) i) + 0.3 sin(1.3 i + c) + 0.1 sin(0.001 (c+1) i²) + 0.2 c.
    public static func featureSignal(frames: Int, channels: Int = 11) -> [Double] {
        var x = [Double](repeating: 0, count: frames * channels)
        for c in 0..<channels {
            let cd = Double(c)
            for i in 0..<frames {
                let id = Double(i)
                x[c * frames + i] = Foundation.sin(0.05 * (cd + 1) * id) + 0.3 * Foundation.sin(1.3 * id + cd)
                    + 0.1 * Foundation.sin(0.001 * (cd + 1) * id * id) + 0.2 * cd
            }
        }
        return x
    }

    /// A 10-column IMU CSV (time, acc xyz, gyro xyz, mag xyz; 6 decimals) like compare/csv_read.py's.
    /// Written once into benchmarks/.data; returns its path.
    public static func csvFile(rows: Int, seed: UInt64 = 42) -> String {
        let path = BenchPaths.data + "/imu_swift_\(rows).csv"
        if FileManager.default.fileExists(atPath: path) { return path }
        var g = SplitMix(seed: seed)
        var s = "time,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z\n"
        s.reserveCapacity(rows * 100)
        let base: [Double] = [0, 0, 9.81, 0, 0, 0, 20, -5, 40], sd: [Double] = [2, 2, 2, 0.5, 0.5, 0.5, 5, 5, 5]
        for i in 0..<rows {
            s += String(format: "%.6f", Double(i) / 100)
            for c in 0..<9 { s += String(format: ",%.6f", base[c] + sd[c] * g.normal()) }
            s += "\n"
        }
        try? s.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        _ = try? FileManager.default.replaceItemAt(URL(fileURLWithPath: path), withItemAt: URL(fileURLWithPath: path + ".tmp"))
        if !FileManager.default.fileExists(atPath: path) { try? FileManager.default.moveItem(atPath: path + ".tmp", toPath: path) }
        return path
    }

    /// Standard-normal features with labels from a random softmax model (the learn benchmarks' data).
    public static func linearData(n: Int, d: Int, k: Int, seed: UInt64) -> (x: Matrix, y: [Int]) {
        var g = SplitMix(seed: seed)
        let w = (0..<(k * d)).map { _ in g.normal() * 3 / Double(d).squareRoot() }
        var x = Matrix(rows: n, cols: d)
        var y = [Int](repeating: 0, count: n)
        var z = [Double](repeating: 0, count: k)
        for i in 0..<n {
            for j in 0..<d { x[i, j] = g.normal() }
            var m = -Double.infinity
            for c in 0..<k {
                var s = 0.0
                for j in 0..<d { s += w[c * d + j] * x[i, j] }
                z[c] = s; m = max(m, s)
            }
            var tot = 0.0
            for c in 0..<k { z[c] = Foundation.exp(z[c] - m); tot += z[c] }
            var u = g.uniform() * tot, c = 0
            while c < k - 1 && u >= z[c] { u -= z[c]; c += 1 }
            y[i] = c
        }
        return (x, y)
    }
}

/// One hour (or any length) of real 50 Hz motion: the bundled belt recording
/// (iPhone 7, stand then walk, 114 s) repeated end to end with shifted times, raw
/// acceleration and rotation rate only (as a watch or an Android phone gives), so the
/// pipeline must run sensor fusion itself.
public enum HourRecording {
    public static func build(seconds: Double = 3600) throws -> Recording {
        let src = try NativeFormat.read(path: BenchPaths.beltRecording)
        guard let acc = src.stream(.acceleration), let gyro = src.stream(.rotationRate), acc.count > 1 else {
            throw InputError(.missingColumn, at: SourceLocation(file: BenchPaths.beltRecording), found: "no acc or gyro stream", expected: "acc and gyro")
        }
        let t0 = acc.times[0]
        let span = acc.times[acc.count - 1] - t0 + 0.02
        var accT: [Double] = [], accV: [Double] = [], gyroT: [Double] = [], gyroV: [Double] = []
        var k = 0
        outer: while true {
            let shift = Double(k) * span - t0
            for i in 0..<acc.count {
                let t = acc.times[i] + shift
                if t >= seconds { break outer }
                accT.append(t)
                accV.append(contentsOf: acc.values[(3 * i)..<(3 * i + 3)])
            }
            for i in 0..<gyro.count {
                let t = gyro.times[i] + shift
                if t >= seconds { break }
                gyroT.append(t)
                gyroV.append(contentsOf: gyro.values[(3 * i)..<(3 * i + 3)])
            }
            k += 1
        }
        var meta = src.metadata
        meta.extra["x.benchmark"] = "iphone-belt-stand-then-walk.motus repeated \(k + 1) times, acc and gyro only"
        return Recording(metadata: meta, streams: [SensorStream(kind: .acceleration, times: accT, values: accV),
                                                   SensorStream(kind: .rotationRate, times: gyroT, values: gyroV)])
    }

    /// The hour written once as a native file in benchmarks/.data (what `motus track` would read).
    public static func file(seconds: Double = 3600) throws -> String {
        let path = BenchPaths.data + "/belt-\(Int(seconds))s.motus"
        if FileManager.default.fileExists(atPath: path) { return path }
        let r = try build(seconds: seconds)
        try NativeWriter.write(r, to: path + ".tmp")
        try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
        return path
    }
}

public struct TrackOutcome: Sendable {
    public var samples = 0
    public var windows = 0
    public var movingWindows = 0
    public var steps = 0
    public init() {}
}

/// What `motus track` does over a file, from the parts that exist today:
/// read → fuse (gravity from acc + gyro) → features → classify (moving/still model) → pedometer.
public enum TrackPipeline {
    public static func run(path: String, model: MotionModel) throws -> TrackOutcome {
        let r = try NativeFormat.read(path: path)
        return try run(recording: r, path: path, model: model)
    }

    public static func run(recording r: Recording, path: String, model: MotionModel) throws -> TrackOutcome {
        var out = TrackOutcome()
        // The tracking session, as `motus track` runs it: one live update per sample
        // (fusion, streaming features, classifier, pedometer, pace), batch = a loop over it.
        let result = try MotionSession.run(r, settings: .default, model: model)
        out.samples = r.stream(.acceleration)?.count ?? 0
        out.steps = result.summary.steps
        out.windows = result.stateChanges.count
        out.movingWindows = result.stateChanges.filter { $0.state == .moving }.count
        return out
    }
}

/// A streaming moving/still detector built from the library's per-sample parts: orientation
/// filter (the session's) → streaming features → the model's one-row prediction at every hop (allocation-free).
public struct StreamingDetector {
    public var filter = OrientationFilter()
    public var features: StreamingFeatureExtractor
    public let model: MotionModel
    public var row: [Double]
    var probabilities: [Double]
    var scratch: [Double]
    public var moving = false
    public var windows = 0
    let movingIndex: Int
    public let dt: Double

    public init(model: MotionModel, rateHz: Double = 50) throws {
        self.model = model
        features = try StreamingFeatureExtractor(configuration: model.features)
        row = [Double](repeating: 0, count: features.featureCount)
        probabilities = [Double](repeating: 0, count: model.classes.count)
        scratch = [Double](repeating: 0, count: model.predictionScratchCount)
        movingIndex = model.classes.firstIndex(of: "moving") ?? 0
        dt = 1 / rateHz
    }

    /// One sample; returns true when a window was classified.
    @inline(__always)
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3) throws -> Bool {
        filter.update(acceleration: a, rotationRate: w, dt: dt)
        guard features.push(MotionFrame(acceleration: a, gravity: filter.gravity, rotationRate: w)) else { return false }
        row.withUnsafeMutableBufferPointer { features.features(into: $0) }
        row.withUnsafeBufferPointer { x in
            probabilities.withUnsafeMutableBufferPointer { p in
                scratch.withUnsafeMutableBufferPointer { s in model.probabilities(row: x.baseAddress!, into: p.baseAddress!, scratch: s.baseAddress!) }
            }
        }
        moving = probabilities[movingIndex] >= 0.5
        windows += 1
        return true
    }
}
