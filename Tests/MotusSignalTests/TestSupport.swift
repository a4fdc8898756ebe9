import MotusCore
import MotusIO
@testable import MotusSignal


enum Data {
    static let root: String? = DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))
    static var available: Bool { root != nil }

    static let oxfordWalks = [
        "Nexus_Jamie_Hard_InHand_1", "Pixel_Jamie_Carpet_InHand_4", "Pixel_Jamie_Hard_FrontPocket_2",
        "Pixel_Jamie_Hard_NeckPouch_1", "Pixel_Jamie_Hard_SwingingArm_2", "Samsung_Carmelo_Hard_Armband_2",
        "Samsung_Carmelo_Hard_BackPocket_2", "Samsung_Carmelo_Hard_FrontPocket_2", "Samsung_Carmelo_Hard_Purse_2",
        "Samsung_Dario_Hard_ArmBand_1", "Samsung_Dario_Hard_Backpocket_2", "Samsung_Dario_Hard_NeckPouch_2",
        "Samsung_Dario_Hard_Purse_1", "Samsung_Jamie_Hard_InHand_1",
    ]

    /// Oxford `accelerometer.csv`: `timestamp_ns,accuracy,x,y,z`, no header, CRLF.
    /// Times in seconds since boot (ns × 1e-9), unshifted.
    static func oxford(_ walk: String) throws -> SensorStream {
        let path = root! + "/oxford/optimisation/data/\(walk)/accelerometer.csv"
        var times: [Double] = [], values: [Double] = []
        let splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        try LineReader(path: path).forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int) throws(InputError) in
            if line.isEmpty { return }
            var f = [Double](repeating: .nan, count: 5)
            var bad: InputError?
            let count = splitter.split(line) { i, s, e in
                guard i < 5 else { return }
                if let v = NumberParser.parseDouble(line, s, e) { f[i] = v } else if bad == nil {
                    bad = InputError(.badNumber, at: SourceLocation(file: path, line: n, column: s + 1), found: line.text(s, e), expected: "a number")
                }
            }
            if let bad { throw bad }
            guard count == 5 else {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: n), found: "\(count) fields", expected: "5 fields")
            }
            times.append(f[0] * 1e-9)
            values.append(f[2]); values.append(f[3]); values.append(f[4])
        }
        return SensorStream(kind: .acceleration, times: times, values: values)
    }

    static let ipolTrials = [
        "1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "3-1", "3-3", "3-5", "4-2", "4-3", "5-1", "5-4", "6-1", "6-5",
        "7-1", "7-4", "8-5", "8-6", "9-4", "9-6", "10-1", "10-5", "11-2", "11-5", "12-1", "12-5", "13-1", "13-2",
        "14-3", "14-4", "15-1", "15-4", "16-3", "16-6", "17-2", "17-4", "18-2", "18-5", "19-3", "19-6",
    ]

    /// Lost packets per IPOL set-1 trial, from the dataset README ("missing packets", whole file).
    static let ipolMissing: [String: Int] = [
        "1-2": 140, "1-3": 96, "1-4": 0, "2-2": 0, "2-3": 291, "2-4": 155, "3-1": 0, "3-3": 651, "3-5": 197,
        "4-2": 5, "4-3": 173, "5-1": 38, "5-4": 1, "6-1": 521, "6-5": 365, "7-1": 388, "7-4": 0, "8-5": 594,
        "8-6": 714, "9-4": 165, "9-6": 21, "10-1": 0, "10-5": 1, "11-2": 6, "11-5": 112, "12-1": 0, "12-5": 1,
        "13-1": 4, "13-2": 154, "14-3": 0, "14-4": 0, "15-1": 0, "15-4": 331, "16-3": 0, "16-6": 0, "17-2": 684,
        "17-4": 132, "18-2": 45, "18-5": 0, "19-3": 1, "19-6": 136,
    ]

    /// IPOL set-1 `_lb.txt`: line 1 `Acquisition frequency: 100 Hz`, line 2 tab header, then
    /// `PacketCounter Acc_X Acc_Y Acc_Z Gyr_X Gyr_Y Gyr_Z Mag_X Mag_Y Mag_Z`; t = counter / 100.
    /// Returns (acceleration, rotation rate, first and last counter).
    static func ipol(_ trial: String) throws -> (acc: SensorStream, gyro: SensorStream, firstCounter: Double, lastCounter: Double) {
        let path = root! + "/ipol/voisard2023_ipol497/GaitData/\(trial)_lb.txt"
        var t: [Double] = [], acc: [Double] = [], gyr: [Double] = []
        var first = Double.nan, last = Double.nan
        let splitter = FieldSplitter(delimiter: 0x09)
        try LineReader(path: path).forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int) throws(InputError) in
            if n <= 2 || line.isEmpty { return }
            var f = [Double](repeating: .nan, count: 7)
            splitter.split(line) { i, s, e in if i < 7 { f[i] = NumberParser.parseDouble(line, s, e) ?? .nan } }
            for v in f where !v.isFinite {
                throw InputError(.badNumber, at: SourceLocation(file: path, line: n), found: "", expected: "7 numbers")
            }
            if first.isNaN { first = f[0] }
            last = f[0]
            t.append(f[0] / 100)
            acc.append(contentsOf: f[1...3]); gyr.append(contentsOf: f[4...6])
        }
        return (SensorStream(kind: .acceleration, times: t, values: acc), SensorStream(kind: .rotationRate, times: t, values: gyr), first, last)
    }
}

/// Naive reference: value of a stream at time g by binary search and linear interpolation
/// (or hold/slerp), or nil when g is outside the samples or the enclosing interval > maxGap.
func naiveValue(times: [Double], values: [Double], width: Int, at g: Double, maxGap: Double, interpolation: Interpolation) -> [Double]? {
    guard let f = times.first, let l = times.last, g >= f, g <= l else { return nil }
    var lo = 0, hi = times.count - 1
    while hi - lo > 1 { let mid = (lo + hi) / 2; if times[mid] <= g { lo = mid } else { hi = mid } }
    if times[lo] == g { return Array(values[(lo * width)..<((lo + 1) * width)]) }
    if times[hi] == g { return Array(values[(hi * width)..<((hi + 1) * width)]) }
    if times[hi] - times[lo] > maxGap { return nil }
    let a = Array(values[(lo * width)..<((lo + 1) * width)]), b = Array(values[(hi * width)..<((hi + 1) * width)])
    let u = (g - times[lo]) / (times[hi] - times[lo])
    switch interpolation {
    case .hold: return a
    case .linear: return (0..<width).map { a[$0] * (1 - u) + b[$0] * u }
    case .slerp:
        let q = Quaternion.slerp(Quaternion(w: a[0], x: a[1], y: a[2], z: a[3]), Quaternion(w: b[0], x: b[1], y: b[2], z: b[3]), u)
        return [q.w, q.x, q.y, q.z]
    }
}

func maxAbsDiff(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count)
    var m = 0.0
    for i in a.indices { m = max(m, abs(a[i] - b[i])) }
    return m
}
