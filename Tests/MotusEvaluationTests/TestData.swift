#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import MotusCore
import MotusIO

/// Test helpers: where the shared datasets are, and a small reader of MotionSense DeviceMotion
/// CSVs for the tests.
enum TestData {
    static var datasets: String? { DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath)) }
    static var motionSense: String? {
        guard let d = datasets else { return nil }
        let p = d + "/motionsense/A_DeviceMotion_data"
        return DatasetLocator.isDirectory(p) ? p : nil
    }

    struct MotionSenseFile {
        var name: String, activity: String, subject: Int
        var times: [Double] = [], acceleration: [Double] = [], rotationRate: [Double] = [], referenceGravity: [Double] = []
    }

    /// One MotionSense device-motion file through MotusIO's reader: `acc` = grav + uacc
    /// (m/s², Android sign), `gyro` (rad/s), reference `grav` (pointing up), t = row / 50 s.
    static func readMotionSense(_ path: String, name: String, activity: String, subject: Int) throws -> MotionSenseFile {
        let r = try MotionSenseReader.read(path: path, subjects: nil, includeRaw: false)
        var f = MotionSenseFile(name: name, activity: activity, subject: subject)
        f.times = r.stream(.acceleration)!.times
        f.acceleration = r.stream(.acceleration)!.values
        f.rotationRate = r.stream(.rotationRate)!.values
        f.referenceGravity = r.stream(.gravity)!.values
        return f
    }

    static var ipol: String? { datasets.map { $0 + "/ipol" }.flatMap { DatasetLocator.isDirectory($0) ? $0 : nil } }
    static var oxford: String? { datasets.map { $0 + "/oxford" }.flatMap { DatasetLocator.isDirectory($0) ? $0 : nil } }

    static func list(_ path: String) -> [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { out.append(name) }
        }
        return out.sorted()
    }

    /// Every A_DeviceMotion file, optionally only some subjects.
    static func allMotionSense(subjects: (Int) -> Bool = { _ in true }) throws -> [MotionSenseFile] {
        guard let base = motionSense else { return [] }
        var out: [MotionSenseFile] = []
        for dir in list(base) {
            let act = String(dir.prefix { $0 != "_" })
            for file in list(base + "/" + dir) where file.hasPrefix("sub_") && file.hasSuffix(".csv") {
                let s = Int(file.dropFirst(4).dropLast(4)) ?? 0
                guard subjects(s) else { continue }
                out.append(try readMotionSense(base + "/" + dir + "/" + file, name: dir + "/" + String(file.dropLast(4)), activity: act, subject: s))
            }
        }
        return out
    }
}
