#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import MotusCore
import MotusIO
import MotusFusion

// Usage: FusionEval --data DIR [--method motus|lowpass|mahony|madgwick|gyro]
//   [--tau S] [--rejection MPS2] [--bias 0|1] [--lp-tau S] [--kp X] [--ki X] [--beta X]
//   [--skip S] [--repeats N]
// Prints one JSON object: overall / odd / even / per activity figures (degrees) and the
// filter's time per sample (ns), measured on the in-memory arrays (no parsing); for
// `--method motus` in a loop written like the C timing driver for Fusion (see README "Speed").

var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}
func number(_ name: String, _ d: Double) -> Double { option(name).flatMap(Double.init) ?? d }

guard let data = option("--data") ?? DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath) + "/../..") else {
    print("FusionEval: no dataset folder (give --data DIR or set MOTUS_DATASETS)")
    exit(2)
}
let method = option("--method") ?? "motus"
let skip = number("--skip", 2)
let repeats = Int(number("--repeats", 3))

// MotionSense's rotationRate is bias-corrected by CoreMotion: use that preset (--bias 1 to learn anyway).
var settings = AttitudeFilter.Settings.biasCorrectedGyroscope
settings.accelerationTimeConstant = number("--tau", settings.accelerationTimeConstant)
settings.motionTimeConstant = number("--tau-motion", settings.motionTimeConstant)
settings.motionThreshold = number("--motion", settings.motionThreshold)
settings.motionWindow = number("--motion-window", settings.motionWindow)
settings.startupTime = number("--startup", settings.startupTime)
settings.restBiasEstimation = number("--bias", settings.restBiasEstimation ? 1 : 0) != 0
settings.restRotationThreshold = number("--rest-gyro", settings.restRotationThreshold)
settings.restAccelerationThreshold = number("--rest-acc", settings.restAccelerationThreshold)
let lpSettings = LowPassGravity.Settings(timeConstant: number("--lp-tau", 1))
let kp = number("--kp", 0.5), ki = number("--ki", 0), beta = number("--beta", 0.033)

let files: [MotionSenseFile]
do { files = try MotionSenseFile.readAll(root: data) } catch {
    print("FusionEval: \(error)"); exit(1)
}

// --dump FILE: the samples as little-endian doubles, 7 per sample (ax ay az m/s², gx gy gz
// rad/s, dt s; dt = 0 at the start of each recording), for the C timing driver.
if let path = option("--dump"), let fp = fopen(path, "wb") {
    for f in files {
        for i in 0..<f.times.count {
            var row = [f.acceleration[3 * i], f.acceleration[3 * i + 1], f.acceleration[3 * i + 2],
                       f.rotationRate[3 * i], f.rotationRate[3 * i + 1], f.rotationRate[3 * i + 2],
                       i == 0 ? 0 : f.times[i] - f.times[i - 1]]
            _ = fwrite(&row, 8, 7, fp)
        }
    }
    fclose(fp)
}

@inline(never)
func run(_ f: MotionSenseFile, into out: inout [Double]) {
    let n = f.times.count
    if out.count != 3 * n { out = [Double](repeating: 0, count: 3 * n) }
    func put(_ i: Int, _ g: Vector3) { out[3 * i] = g.x; out[3 * i + 1] = g.y; out[3 * i + 2] = g.z }
    func acc(_ i: Int) -> Vector3 { Vector3(f.acceleration[3 * i], f.acceleration[3 * i + 1], f.acceleration[3 * i + 2]) }
    func gyr(_ i: Int) -> Vector3 { Vector3(f.rotationRate[3 * i], f.rotationRate[3 * i + 1], f.rotationRate[3 * i + 2]) }
    switch method {
    case "motus":
        var filter = AttitudeFilter(settings: settings)
        for i in 0..<n {
            filter.update(acceleration: acc(i), rotationRate: gyr(i), dt: i == 0 ? 0 : f.times[i] - f.times[i - 1])
            put(i, filter.gravity)
        }
    case "lowpass":
        var filter = LowPassGravity(settings: lpSettings)
        for i in 0..<n {
            filter.update(acceleration: acc(i), dt: i == 0 ? 0 : f.times[i] - f.times[i - 1])
            put(i, filter.gravity)
        }
    case "mahony":
        var filter = Mahony(kp: kp, ki: ki)
        for i in 0..<n {
            filter.update(acc(i), gyr(i), i == 0 ? 0 : f.times[i] - f.times[i - 1])
            put(i, filter.gravityUp)
        }
    case "madgwick":
        var filter = Madgwick(beta: beta)
        for i in 0..<n {
            filter.update(acc(i), gyr(i), i == 0 ? 0 : f.times[i] - f.times[i - 1])
            put(i, filter.gravityUp)
        }
    case "gyro":
        // Diagnostic: start from the reference gravity, then integrate the gyroscope only.
        // --variant 0: rate at t over [t-dt,t]; 1: rate at t-dt; 2: mean of both; 3: 2 + coning term.
        let variant = Int(number("--variant", 0))
        let g0 = Vector3(f.referenceGravity[0], f.referenceGravity[1], f.referenceGravity[2]).normalized
        let w2 = (1 + g0.z) / 2, s2 = w2.squareRoot()
        var q = Quaternion(w: s2, x: g0.y / (2 * s2), y: -g0.x / (2 * s2), z: 0)
        put(0, q.inverseRotate(Vector3(0, 0, 1)))
        for i in 1..<n {
            let dt = f.times[i] - f.times[i - 1]
            let a = gyr(i - 1), b = gyr(i)
            var r: Vector3
            switch variant {
            case 1: r = a * dt
            case 2: r = (a + b) * (dt / 2)
            case 3: r = (a + b) * (dt / 2) + (a * dt).cross(b * dt) * (1.0 / 12)
            default: r = b * dt
            }
            let th = r.norm
            let dq = th < 1e-12 ? Quaternion.identity : Quaternion(axis: r, angle: th)
            q = (q * dq).normalized
            put(i, q.inverseRotate(Vector3(0, 0, 1)))
        }
    default:
        print("FusionEval: unknown method \(method)"); exit(2)
    }
}

var results: [FusionEvaluation.RecordingResult] = []
var scratch: [Double] = []
var samples = 0
let trace = option("--trace")
for f in files {
    run(f, into: &scratch)
    if f.name == trace {
        let e = FusionEvaluation.angleErrors(times: f.times, estimate: scratch, reference: f.referenceGravity, skipSeconds: 0)
        var i = 0
        while i < e.count {
            let b = 3 * i
            let an = Vector3(f.acceleration[b], f.acceleration[b + 1], f.acceleration[b + 2]).norm
            print("t \(f.times[i]) err \(Int(e[i] * 10)) |a| \(Int(an * 10))")
            i += 25
        }
    }
    samples += f.times.count
    let e = FusionEvaluation.angleErrors(times: f.times, estimate: scratch, reference: f.referenceGravity, skipSeconds: skip)
    results.append(.init(name: f.name, activity: f.activity, subject: f.subject, errorsDegrees: e))
}

// Timing: the whole data set, best of `repeats`, output written to a reused buffer.
func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9 }

/// The same loop as the C timing driver for Fusion (see README "Speed"): all samples in flat
/// arrays (acceleration, rotation rate, dt with 0 at the start of each recording, where a new
/// filter starts), one `update` and one `gravity` per sample, gravity stored; raw pointers, so
/// no bounds checks that the C loop does not have either.
@inline(never)
func timeMotus(_ acc: UnsafePointer<Double>, _ gyr: UnsafePointer<Double>, _ dts: UnsafePointer<Double>,
               _ n: Int, _ out: UnsafeMutablePointer<Double>) {
    var filter = AttitudeFilter(settings: settings)
    for i in 0..<n {
        let dt = dts[i]
        if dt == 0 { filter = AttitudeFilter(settings: settings) }
        let b = 3 * i
        filter.update(acceleration: Vector3(acc[b], acc[b + 1], acc[b + 2]),
                      rotationRate: Vector3(gyr[b], gyr[b + 1], gyr[b + 2]), dt: dt)
        let g = filter.gravity
        out[b] = g.x; out[b + 1] = g.y; out[b + 2] = g.z
    }
}

var best = Double.infinity
if method == "motus" {
    var acc: [Double] = [], gyr: [Double] = [], dts: [Double] = []
    for f in files {
        acc += f.acceleration; gyr += f.rotationRate
        for i in 0..<f.times.count { dts.append(i == 0 ? 0 : f.times[i] - f.times[i - 1]) }
    }
    var out = [Double](repeating: 0, count: acc.count)
    let n = dts.count
    acc.withUnsafeBufferPointer { a in gyr.withUnsafeBufferPointer { g in dts.withUnsafeBufferPointer { d in
        out.withUnsafeMutableBufferPointer { o in
            for _ in 0..<repeats {
                let t0 = now()
                timeMotus(a.baseAddress!, g.baseAddress!, d.baseAddress!, n, o.baseAddress!)
                best = min(best, now() - t0)
            }
        }
    } } }
    // The timed loop must give what the evaluation loop gave.
    var offset = 0
    for f in files {
        run(f, into: &scratch)
        for j in 0..<scratch.count where scratch[j] != out[offset + j] {
            print("FusionEval: timed loop differs from the evaluation at \(f.name) value \(j)"); exit(1)
        }
        offset += scratch.count
    }
} else {
    for _ in 0..<repeats {
        let t0 = now()
        for f in files { run(f, into: &scratch) }
        best = min(best, now() - t0)
    }
}

func json(_ s: FusionEvaluation.Summary) -> String {
    func r(_ x: Double) -> String { x.isNaN ? "null" : String(Double(Int((x * 1000).rounded())) / 1000) }
    return "{\"median_deg\": \(r(s.medianDegrees)), \"p95_deg\": \(r(s.p95Degrees)), \"mean_deg\": \(r(s.meanDegrees)), \"count\": \(s.count)}"
}
let all = FusionEvaluation.aggregate(results)
let odd = FusionEvaluation.aggregate(results.filter { $0.subject % 2 == 1 })
let even = FusionEvaluation.aggregate(results.filter { $0.subject % 2 == 0 })
var out = "{\"method\": \"\(method)\", \"files\": \(files.count), \"samples\": \(samples),\n"
out += " \"ns_per_sample\": \(Int((best / Double(samples) * 1e9).rounded())),\n"
out += " \"median_deg\": \(json(all.overall).split(separator: ",")[0].dropFirst().split(separator: ":")[1]), \"p95_deg\": \(json(all.overall).split(separator: ",")[1].split(separator: ":")[1]),\n"
out += " \"overall\": \(json(all.overall)),\n \"odd\": \(json(odd.overall)),\n \"even\": \(json(even.overall)),\n \"activities\": {"
out += all.activities.map { "\"\($0.activity)\": \(json($0.summary))" }.joined(separator: ", ")
out += "},\n \"even_activities\": {"
out += even.activities.map { "\"\($0.activity)\": \(json($0.summary))" }.joined(separator: ", ")
out += "}"
if args.contains("--per-recording") {
    out += ",\n \"recordings\": {" + all.recordings.map { "\"\($0.name)\": \(json($0.summary))" }.joined(separator: ",\n  ") + "}"
}
out += "}"
print(out)
