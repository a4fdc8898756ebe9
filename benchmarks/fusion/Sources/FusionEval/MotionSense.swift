#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import MotusCore
import MotusIO

/// One MotionSense DeviceMotion file as plain arrays in Motus conventions: raw acceleration
/// rebuilt as −(gravity + userAcceleration)·g (m/s², Android sign), rotationRate (rad/s),
/// reference gravity −gravity (unit, pointing up), time i/50 s.
struct MotionSenseFile {
    var name: String
    var activity: String
    var subject: Int
    var times: [Double] = []
    var acceleration: [Double] = []
    var rotationRate: [Double] = []
    var referenceGravity: [Double] = []

    static let header = ",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z"

    static func read(path: String, name: String, activity: String, subject: Int) throws(InputError) -> MotionSenseFile {
        var f = MotionSenseFile(name: name, activity: activity, subject: subject)
        let reader = try LineReader(path: path)
        let splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        var row = [Double](repeating: 0, count: 13)
        try reader.forEachLine { (line, number) throws(InputError) in
            if number == 1 {
                let h = line.text(0, line.count)
                if h != header { throw InputError(.badHeader, at: SourceLocation(file: path, line: 1), found: h, expected: "the MotionSense DeviceMotion header") }
                return
            }
            if line.isEmpty { return }
            var bad: InputError? = nil
            let n = splitter.split(line) { i, s, e in
                guard i < 13 else { return }
                if let v = NumberParser.parseDouble(line, s, e), v.isFinite { row[i] = v }
                else if bad == nil { bad = InputError(.badNumber, at: SourceLocation(file: path, line: number, column: s + 1), found: line.text(s, e), expected: "a finite number") }
            }
            if let bad { throw bad }
            if n != 13 { throw InputError(.missingColumn, at: SourceLocation(file: path, line: number), found: "\(n) fields", expected: "13 fields") }
            let g = Units.standardGravity
            f.times.append(Double(f.times.count) / 50)
            for c in 0..<3 {
                f.acceleration.append(-(row[4 + c] + row[10 + c]) * g)
                f.rotationRate.append(row[7 + c])
                f.referenceGravity.append(-row[4 + c])
            }
        }
        return f
    }

    /// All `A_DeviceMotion_data/<act>_<trial>/sub_<n>.csv` under `root`, sorted by name.
    static func readAll(root: String) throws(InputError) -> [MotionSenseFile] {
        let base = root + "/motionsense/A_DeviceMotion_data"
        var out: [MotionSenseFile] = []
        for dir in listDirectory(base).sorted() {
            let act = String(dir.prefix { $0 != "_" })
            for file in listDirectory(base + "/" + dir).sorted() where file.hasPrefix("sub_") && file.hasSuffix(".csv") {
                let subject = Int(file.dropFirst(4).dropLast(4)) ?? 0
                out.append(try read(path: base + "/" + dir + "/" + file, name: dir + "/" + String(file.dropLast(4)), activity: act, subject: subject))
            }
        }
        return out
    }
}

func listDirectory(_ path: String) -> [String] {
    guard let d = opendir(path) else { return [] }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { out.append(name) }
    }
    return out
}
