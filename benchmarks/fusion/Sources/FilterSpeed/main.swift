#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import MotusCore
import MotusFusion

// Usage: FilterSpeed DUMP [REPEATS]
// Times Motus's filters on a flat dump of samples (dump_broad.py: 10 little-endian doubles per
// sample, acceleration m/s², rotation rate rad/s, magnetic field µT, dt s with 0 at each
// recording's start, where a new filter starts), in the loop the C driver for Fusion uses:
// one update and one gravity per sample, gravity stored (9D: one update with the magnetometer
// and the attitude, as the C driver's 9D loop stores Fusion's). Prints one JSON line per filter
// with the best of REPEATS passes. With FILTERSPEED_DUMP=DIR set, each filter's outputs are also
// written to DIR/<filter>.f64 (doubles), to check that a change to a filter keeps them bit for bit.

let args = CommandLine.arguments
guard args.count >= 2, let fp = fopen(args[1], "rb") else { print("usage: FilterSpeed DUMP [REPEATS]"); exit(2) }
let repeats = args.count > 2 ? Int(args[2]) ?? 5 : 5
fseek(fp, 0, SEEK_END); let bytes = ftell(fp); fseek(fp, 0, SEEK_SET)
let n = bytes / 80
var raw = [Double](repeating: 0, count: 10 * n)
guard fread(&raw, 80, n, fp) == n else { print("FilterSpeed: short read"); exit(1) }
fclose(fp)

func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9 }

@inline(never)
func timeOrientation(_ d: UnsafePointer<Double>, _ n: Int, _ out: UnsafeMutablePointer<Double>, _ s: OrientationFilter.Settings) {
    var f = OrientationFilter(settings: s)
    for i in 0..<n {
        let r = d + 10 * i
        if r[9] == 0 { f = OrientationFilter(settings: s) }
        f.update(acceleration: Vector3(r[0], r[1], r[2]), rotationRate: Vector3(r[3], r[4], r[5]), dt: r[9])
        let g = f.gravity
        out[3 * i] = g.x; out[3 * i + 1] = g.y; out[3 * i + 2] = g.z
    }
}

@inline(never)
func timeOrientation9D(_ d: UnsafePointer<Double>, _ n: Int, _ out: UnsafeMutablePointer<Double>, _ s: OrientationFilter.Settings) {
    var f = OrientationFilter(settings: s)
    for i in 0..<n {
        let r = d + 10 * i
        if r[9] == 0 { f = OrientationFilter(settings: s) }
        f.update(acceleration: Vector3(r[0], r[1], r[2]), rotationRate: Vector3(r[3], r[4], r[5]), magneticField: Vector3(r[6], r[7], r[8]), dt: r[9])
        let q = f.attitude
        out[3 * i] = q.x; out[3 * i + 1] = q.y; out[3 * i + 2] = q.z
    }
}

@inline(never)
func timeAttitude(_ d: UnsafePointer<Double>, _ n: Int, _ out: UnsafeMutablePointer<Double>, _ s: AttitudeFilter.Settings) {
    var f = AttitudeFilter(settings: s)
    for i in 0..<n {
        let r = d + 10 * i
        if r[9] == 0 { f = AttitudeFilter(settings: s) }
        f.update(acceleration: Vector3(r[0], r[1], r[2]), rotationRate: Vector3(r[3], r[4], r[5]), dt: r[9])
        let g = f.gravity
        out[3 * i] = g.x; out[3 * i + 1] = g.y; out[3 * i + 2] = g.z
    }
}

var out = [Double](repeating: 0, count: 3 * n)
func report(_ name: String, _ body: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Void) {
    var best = Double.infinity
    raw.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { o in
        for _ in 0..<repeats { let t0 = now(); body(d.baseAddress!, o.baseAddress!); best = min(best, now() - t0) }
    } }
    let checksum = out.reduce(0, +)
    if let dir = getenv("FILTERSPEED_DUMP"), let f = fopen(String(cString: dir) + "/" + name.filter { $0.isLetter || $0.isNumber } + ".f64", "wb") {
        _ = out.withUnsafeBufferPointer { fwrite($0.baseAddress!, 8, $0.count, f) }; fclose(f)
    }
    print("{\"filter\": \"\(name)\", \"samples\": \(n), \"ns_per_sample\": \((best / Double(n) * 1e10).rounded() / 10), \"checksum\": \(checksum)}")
}
report("Motus OrientationFilter 6D") { timeOrientation($0, n, $1, .default) }
report("Motus OrientationFilter 9D (attitude out)") { timeOrientation9D($0, n, $1, .default) }
report("Motus AttitudeFilter (legacy)") { timeAttitude($0, n, $1, .default) }
if args.count > 3 {
    report("Motus OrientationFilter 6D, bias estimation off") { timeOrientation($0, n, $1, .biasCorrectedGyroscope) }
    var s = OrientationFilter.Settings.biasCorrectedGyroscope; s.delayCompensation = 0
    report("Motus OrientationFilter 6D, bias off, no delay compensation") { timeOrientation($0, n, $1, s) }
}
