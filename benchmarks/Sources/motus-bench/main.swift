// motus-bench: in-process timings of Motus library calls, printed as one JSON line per call
// so compare/run.py can put them beside the Python peers' figures (same inputs, same run).
//
//   motus-bench csv FILE [--repeat N] [--threads T]   read a delimited file into a Recording (all columns), wall time
//   motus-bench scan FILE [--repeat N]       one streaming pass (bounded memory) over a file
//   motus-bench features FRAMES [--basic] [--threads N]  batch features of features_numpy.py's signal (11 channels, 128/64)
//   motus-bench window [--repeat N]          one streaming window's features + moving/still inference (µs)
//   motus-bench learn DIR                    logistic regression and one MLP(32) epoch on raw float64 files in DIR
//   motus-bench infer DIR                    single-window inference, logistic and MLP, on DIR's window problem
//   motus-bench fusion FILE                  OrientationFilter.update (the session's filter) per sample over FILE (raw float64 rows t,ax,ay,az,gx,gy,gz)
//   motus-bench steps ROOT OUTDIR            pedometer over the Oxford walks (or IPOL trials) in ROOT; exports acc for peers
//   motus-bench track FILE [--repeat N]      read + fuse + features + classify + pedometer over a native file
//   motus-bench fit FILE [--repeat N]        FIT decode + ride summary
//
// CPU-bound single-thread figures use this thread's CPU time (load on the shared machine counts
// less); the readers (which use every core on large files) and `track` use wall time.
import Foundation
import Motus
import BenchSupport

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Peak resident memory of this process image (VmHWM). getrusage's ru_maxrss would include
/// the parent's peak from before exec, which misleads when Python starts the benchmark.
func peakRSSBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kb * 1024
    }
    return 0
}

func emit(_ fields: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
        print("{\"error\": \"unencodable result\"}"); return
    }
    print(String(decoding: data, as: UTF8.self))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("motus-bench: \(message)\n".utf8))
    exit(1)
}

func median(_ a: [Double]) -> Double { let s = a.sorted(); return s[s.count / 2] }

func readF64(_ path: String) -> [Double] {
    guard let d = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return d.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
}

func readI64(_ path: String) -> [Int] {
    guard let d = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return d.withUnsafeBytes { $0.bindMemory(to: Int64.self).map { Int($0) } }
}

/// `DIR/NAME_x.f64` (rows × cols, cols in `NAME_cols.txt`) and `DIR/NAME_y.i64`.
func readProblem(_ dir: String, _ name: String, _ part: String) -> (Matrix, [Int]) {
    guard let colsText = try? String(contentsOfFile: "\(dir)/\(name)_cols.txt", encoding: .utf8),
          let cols = Int(colsText.trimmingCharacters(in: .whitespacesAndNewlines)) else { fail("cannot read \(dir)/\(name)_cols.txt") }
    let x = readF64("\(dir)/\(name)_x\(part).f64"), y = readI64("\(dir)/\(name)_y\(part).i64")
    guard let m = try? Matrix(rows: y.count, cols: cols, values: x) else { fail("\(name): shape mismatch") }
    return (m, y)
}

let args = CommandLine.arguments
guard args.count >= 2 else { fail("usage: motus-bench csv|scan|features|window|learn|infer|fusion|steps|track|fit ARGS (see the source header)") }
let mode = args[1]
func arg(_ i: Int) -> String {
    if i < args.count { return args[i] }
    fail("\(mode): missing argument \(i - 1)")
}
var repeats = 5
if let i = args.firstIndex(of: "--repeat"), i + 1 < args.count, let n = Int(args[i + 1]) { repeats = n }

do {
    switch mode {
    case "csv", "scan":
        let file = arg(2)
        var times: [Double] = []
        var rows = 0
        let threads = args.firstIndex(of: "--threads").flatMap { $0 + 1 < args.count ? Int(args[$0 + 1]) : nil }
        for _ in 0..<repeats {
            let t0 = now()
            if mode == "csv" {
                let r = try threads.map { try DelimitedReader(path: file).read(maxThreads: $0) } ?? DelimitedReader(path: file).read()
                rows = r.streams.first?.count ?? 0
            } else {
                let s = try RecordingLoader.summarize(path: file)
                rows = s.streams.first?.samples ?? 0
            }
            times.append(now() - t0)
        }
        times.sort()
        emit(["mode": mode, "file": file, "rows": rows, "threads": threads ?? 0, "best_s": times[0], "median_s": times[times.count / 2],
              "rows_per_s": Double(rows) / times[times.count / 2], "peak_rss_bytes": peakRSSBytes()])

    case "features":
        guard let frames = Int(arg(2)) else { fail("features FRAMES") }
        let basic = args.contains("--basic")
        var config = FeatureConfiguration.allChannels
        if basic {
            config.features = [.mean, .standardDeviation, .minimum, .maximum, .range, .median, .interquartileRange, .rms,
                               .skewness, .kurtosis, .meanCrossingRate, .signalMagnitudeArea, .dominantFrequency, .spectralEntropy]
            config.correlations = []
        }
        // --threads N (default 1): N > 1 splits the windows over N threads; then the figure is
        // wall time (the thread CPU clock would see only the calling thread).
        var threads = 1
        if let i = args.firstIndex(of: "--threads"), i + 1 < args.count, let t = Int(args[i + 1]) { threads = max(1, t) }
        let data = Synthetic.featureSignal(frames: frames)
        let ex = try FeatureExtractor(configuration: config, threadCount: threads)
        var best = Double.infinity, bestWall = Double.infinity, rows = 0, cols = 0
        for _ in 0..<3 {
            let t0 = cpuNow(), w0 = now()
            let m = ex.extract(channelMajor: data, frameCount: frames)
            best = min(best, cpuNow() - t0); bestWall = min(bestWall, now() - w0)
            rows = m.rows; cols = m.columns
        }
        if threads == 1 {
            emit(["mode": mode, "basic": basic, "threads": 1, "windows": rows, "features": cols, "best_cpu_s": best,
                  "best_wall_s": bestWall, "windows_per_s": Double(rows) / best])
        } else {
            emit(["mode": mode, "basic": basic, "threads": threads, "windows": rows, "features": cols,
                  "best_wall_s": bestWall, "windows_per_s": Double(rows) / bestWall])
        }

    case "window":
        let model = try MotionModel.load(path: BenchPaths.movingStillModel)
        let frames = Synthetic.motionFrames(samples: 64 * 2000 + 128, seed: 1)
        var s = try StreamingFeatureExtractor(configuration: model.features)
        var row = [Double](repeating: 0, count: s.featureCount)
        let count = row.count
        // The one prediction path a live session runs (allocation-free).
        var probs = [Double](repeating: 0, count: model.classes.count)
        var scratch = [Double](repeating: 0, count: model.predictionScratchCount)
        @inline(__always) func infer(_ row: inout [Double]) throws -> Bool {
            row.withUnsafeBufferPointer { x in
                probs.withUnsafeMutableBufferPointer { p in
                    scratch.withUnsafeMutableBufferPointer { s in model.probabilities(row: x.baseAddress!, into: p.baseAddress!, scratch: s.baseAddress!) }
                }
            }
            return probs[0] >= 0.5                // class 0 is "moving"
        }
        if args.contains("--repeat") {
            // Instruction counts (callgrind): `repeats` passes of 64 pushes + features + inference
            // per window; the caller takes the difference of two repeat counts.
            var windows = 0, moving = 0
            for _ in 0..<repeats {
                s.reset()
                for f in frames where s.push(f) {
                    row.withUnsafeMutableBufferPointer { s.features(into: $0) }
                    if try infer(&row) { moving += 1 }
                    windows += 1
                }
            }
            emit(["mode": mode, "windows": windows, "moving": moving, "feature_count": count])
            break
        }
        // Times of whole passes, no clock read per window (a thread CPU clock read is a system
        // call, whose cost moves with the host's load): pushes alone, pushes + features (the
        // features' time is the difference), inference over the stored rows. Best of 5 each.
        var rows: [Double] = []
        s.reset()
        for f in frames where s.push(f) {
            row.withUnsafeMutableBufferPointer { s.features(into: $0) }
            rows += row
        }
        let windows = rows.count / count
        var pushOnly = Double.infinity, withFeatures = Double.infinity, inference = Double.infinity, moving = 0
        for _ in 0..<5 {
            s.reset()
            var t0 = cpuNow()
            var ready = 0
            for f in frames where s.push(f) { ready += 1 }
            pushOnly = min(pushOnly, cpuNow() - t0)
            precondition(ready == windows)
            s.reset()
            t0 = cpuNow()
            for f in frames where s.push(f) { row.withUnsafeMutableBufferPointer { s.features(into: $0) } }
            withFeatures = min(withFeatures, cpuNow() - t0)
            moving = 0
            t0 = cpuNow()
            for w in 0..<windows {
                for j in 0..<count { row[j] = rows[w * count + j] }
                if try infer(&row) { moving += 1 }
            }
            inference = min(inference, cpuNow() - t0)
        }
        let featuresUs = max(0, withFeatures - pushOnly) / Double(windows) * 1e6, inferenceUs = inference / Double(windows) * 1e6
        emit(["mode": mode, "windows": windows, "moving": moving, "features_us": featuresUs, "inference_us": inferenceUs,
              "push_ns": pushOnly / Double(frames.count) * 1e9, "window_total_us": featuresUs + inferenceUs,
              "feature_count": count])

    case "learn":
        let dir = arg(2)
        var out: [String: Any] = ["mode": mode]
        for k in [2, 6] {
            let (x, y) = readProblem(dir, "lr\(k)", "train"), (xt, yt) = readProblem(dir, "lr\(k)", "test")
            var best = Double.infinity, acc = 0.0, iters = 0
            for _ in 0..<3 {
                var m = LogisticRegression(l2: 1.0 / Double(x.rows), tolerance: 1e-4, maxIterations: 1000)  // = sklearn C=1, tol=1e-4
                let t0 = cpuNow()
                try m.fit(x, y)
                best = min(best, cpuNow() - t0)
                acc = try Metrics.accuracy(yTrue: yt, yPred: m.predict(xt))
                iters = m.lastFit?.iterations ?? 0
            }
            out["lr\(k)_fit_s"] = best; out["lr\(k)_acc"] = acc; out["lr\(k)_iterations"] = iters
        }
        let (x, y) = readProblem(dir, "mlp", "train"), (xt, yt) = readProblem(dir, "mlp", "test")
        var best = Double.infinity, acc = 0.0
        for _ in 0..<5 {
            var m = MLPClassifier(hiddenLayerSizes: [32], maxEpochs: 20, earlyStopping: false, patience: 1000, tolerance: 0, seed: 1)
            let t0 = cpuNow()
            try m.fit(x, y)
            best = min(best, (cpuNow() - t0) / 20)
            acc = try Metrics.accuracy(yTrue: yt, yPred: m.predict(xt))
        }
        out["mlp_epoch_s"] = best; out["mlp_acc"] = acc
        emit(out)

    case "infer":
        let dir = arg(2)
        let (x, y) = readProblem(dir, "win", "train")
        var lr = LogisticRegression()
        try lr.fit(x, y)
        var mlp = MLPClassifier(hiddenLayerSizes: [32], maxEpochs: 50, seed: 1)
        try mlp.fit(x, y)
        let one = x.selectingRows([0])
        func perCall(_ body: () throws -> Double) rethrows -> Double {
            var sink = 0.0
            var best = Double.infinity
            for _ in 0..<5 {
                let t0 = cpuNow()
                for _ in 0..<2000 { sink += try body() }
                best = min(best, (cpuNow() - t0) / 2000)
            }
            if sink.isNaN { print("") }
            return best
        }
        let lrS = try perCall { try lr.predictProbabilities(one)[0, 0] }
        let mlpS = try perCall { try mlp.predictProbabilities(one)[0, 0] }
        emit(["mode": mode, "logistic_us": lrS * 1e6, "mlp_us": mlpS * 1e6, "features": x.cols])

    case "fusion":
        let raw = readF64(arg(2))
        let n = raw.count / 7
        var acc = [Vector3](), gyro = [Vector3](), dts = [Double]()
        acc.reserveCapacity(n); gyro.reserveCapacity(n); dts.reserveCapacity(n)
        for i in 0..<n {
            acc.append(Vector3(raw[7 * i + 1], raw[7 * i + 2], raw[7 * i + 3]))
            gyro.append(Vector3(raw[7 * i + 4], raw[7 * i + 5], raw[7 * i + 6]))
            dts.append(i == 0 ? 0.02 : raw[7 * i] - raw[7 * (i - 1)])
        }
        var best = Double.infinity
        var g = Vector3.zero
        for _ in 0..<max(3, repeats) {
            var f = OrientationFilter()
            let t0 = cpuNow()
            for i in 0..<n { f.update(acceleration: acc[i], rotationRate: gyro[i], dt: dts[i]) }
            best = min(best, cpuNow() - t0)
            g = f.gravity
        }
        emit(["mode": mode, "samples": n, "ns_per_sample": best / Double(n) * 1e9, "gravity_z": g.z])

    case "steps":
        let root = arg(2), outDir = arg(3)
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        var entries: [(String, Recording)] = []
        var dataset = "oxford"
        if let ox = try? OxfordDataset(root: root + "/oxford") {
            for id in ox.recordingIDs { entries.append((id, try ox.load(id))) }
        } else if let ipol = try? IPOLDataset(root: root + "/ipol") {
            dataset = "ipol"
            for id in ipol.recordingIDs { entries.append((id, try ipol.load(id))) }
        } else { fail("neither \(root)/oxford nor \(root)/ipol holds walks") }
        var rows: [[String: Any]] = []
        var totalSamples = 0, totalCPU = 0.0
        for (id, r) in entries {
            guard let acc = r.stream(.acceleration), acc.count > 1 else { continue }
            let truth = r.events.filter { $0.kind == "step" }.map(\.time)
            guard !truth.isEmpty else { continue }
            let t0 = cpuNow()
            let detected = Pedometer.detect(acc)
            totalCPU += cpuNow() - t0
            totalSamples += acc.count
            // The judged window, as StepEvaluation defines it (IPOL: the annotated trial widened by
            // its margin; Oxford: the whole walk).
            let active = r.labels.filter { $0.label != "still" }
            var lo = -Double.infinity, hi = Double.infinity, trueSteps = truth.count
            if let a = active.map(\.start).min(), let b = active.map(\.end).max() {
                trueSteps = truth.filter { $0 >= a && $0 <= b }.count
                lo = a - StepEvaluation.windowMargin; hi = b + StepEvaluation.windowMargin
            }
            let counted = detected.filter { $0.time >= lo && $0.time <= hi }.count
            let file = id.replacingOccurrences(of: "/", with: "_") + ".f64"
            var flat = [Double](); flat.reserveCapacity(acc.count * 4)
            for i in 0..<acc.count { flat.append(acc.times[i]); for c in 0..<3 { flat.append(acc.value(i, c)) } }
            try flat.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: outDir + "/" + file)) }
            rows.append(["id": id, "file": file, "samples": acc.count, "true_steps": trueSteps, "motus_steps": counted,
                         "lo": lo.isFinite ? lo : -1e300, "hi": hi.isFinite ? hi : 1e300])
        }
        let manifest = try JSONSerialization.data(withJSONObject: ["dataset": dataset, "recordings": rows], options: [.sortedKeys])
        try manifest.write(to: URL(fileURLWithPath: outDir + "/manifest.json"))
        emit(["mode": mode, "dataset": dataset, "recordings": rows.count, "samples": totalSamples,
              "ns_per_sample": totalCPU / Double(max(1, totalSamples)) * 1e9, "cpu_s": totalCPU])

    case "track":
        let file = args.count > 2 && !args[2].hasPrefix("--") ? args[2] : try HourRecording.file(seconds: 3600)
        let model = try MotionModel.load(path: BenchPaths.movingStillModel)
        var times: [Double] = []
        var outcome = TrackOutcome()
        for _ in 0..<repeats {
            let t0 = now()
            outcome = try TrackPipeline.run(path: file, model: model)
            times.append(now() - t0)
        }
        // The parts, once each (wall time), so the table can say where the time goes.
        let t0 = now()
        let r = try NativeFormat.read(path: file)
        let t1 = now()
        // Frames by the one road (gravity fused, frames on the grid), then their features.
        let pipeline = model.pipeline
        let segments = try pipeline.frames(of: r, path: file)
        let t2 = now()
        let extractor = try FeatureExtractor(configuration: model.features)
        var m = FeatureMatrix(columns: model.features.featureCount, names: model.features.featureNames)
        for seg in segments { m.append(contentsOf: extractor.extract(frames: seg.frames, startTime: seg.startTime)) }
        let t3 = now()
        _ = try model.probabilities(m)
        let t4 = now()
        if let acc = r.stream(.acceleration) { _ = Pedometer.detect(acc) }
        let t5 = now()
        var fields: [String: Any] = ["mode": mode, "file": file, "samples": outcome.samples]
        fields["seconds_of_data"] = Double(outcome.samples) / 50
        fields["windows"] = outcome.windows; fields["moving_windows"] = outcome.movingWindows; fields["steps"] = outcome.steps
        fields["median_s"] = median(times); fields["best_s"] = times.min() ?? 0
        fields["read_s"] = t1 - t0; fields["fuse_s"] = t2 - t1; fields["features_s"] = t3 - t2
        fields["classify_s"] = t4 - t3; fields["pedometer_s"] = t5 - t4
        emit(fields)

    case "fit":
        let file = arg(2)
        var times: [Double] = []
        var distance = 0.0
        for _ in 0..<max(repeats, 20) {
            let t0 = now()
            let track = try TrackLoader.load(path: file)
            let s = TrackSummary(track: track, settings: TrackSettings(activity: TrackActivity(sport: track.sport) ?? .ride))
            distance = s.distanceMeters
            times.append(now() - t0)
        }
        emit(["mode": mode, "file": file, "median_s": median(times), "best_s": times.min() ?? 0, "distance_m": distance])

    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(mode): \(error)")
}
