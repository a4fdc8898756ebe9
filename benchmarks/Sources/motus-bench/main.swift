// motus-bench: in-process timings of Motus library calls, printed as JSON lines so the
// comparison scripts can put them beside the Python peers' figures.
//
//   motus-bench csv FILE [--repeat N]    read a delimited file into a Recording (all columns)
//   motus-bench scan FILE [--repeat N]   one streaming pass (bounded memory) over a file
import Foundation
import Motus

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
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
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: motus-bench csv|scan FILE [--repeat N]\n".utf8))
    exit(2)
}
let mode = args[1], file = args[2]
var repeats = 5
if let i = args.firstIndex(of: "--repeat"), i + 1 < args.count, let n = Int(args[i + 1]) { repeats = n }

var times: [Double] = []
var rows = 0
do {
    for _ in 0..<repeats {
        let t0 = now()
        switch mode {
        case "csv":
            let r = try DelimitedReader(path: file).read()
            rows = r.streams.first?.count ?? 0
        case "scan":
            let s = try RecordingLoader.summarize(path: file)
            rows = s.streams.first?.samples ?? 0
        default:
            FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8)); exit(2)
        }
        times.append(now() - t0)
    }
} catch {
    FileHandle.standardError.write(Data("motus-bench: \(error)\n".utf8)); exit(1)
}
times.sort()
emit(["mode": mode, "file": file, "rows": rows, "best_s": times[0], "median_s": times[times.count / 2],
      "rows_per_s": Double(rows) / times[times.count / 2], "peak_rss_bytes": peakRSSBytes()])
