import MotusCore
import MotusIO

/// One MotionSense DeviceMotion file as plain arrays, read with MotusIO's
/// `MotionSenseDataset` / `MotionSenseReader` (the same path as `motus evaluate-fusion`):
/// `acc` = grav + uacc (m/s², Android sign), `gyro` (rad/s), reference `grav` (pointing up),
/// time row / 50 s.
struct MotionSenseFile {
    var name: String
    var activity: String
    var subject: Int
    var times: [Double] = []
    var acceleration: [Double] = []
    var rotationRate: [Double] = []
    var referenceGravity: [Double] = []

    static func readAll(root: String) throws(InputError) -> [MotionSenseFile] {
        let ds = try MotionSenseDataset(root: root + "/motionsense")
        var out: [MotionSenseFile] = []
        for e in ds.entries {
            let r = try MotionSenseReader.read(path: e.path, subjects: nil, includeRaw: false)
            var f = MotionSenseFile(name: e.id, activity: e.label ?? "?", subject: Int((e.subject ?? "").dropFirst(4)) ?? 0)
            f.times = r.stream(.acceleration)!.times
            f.acceleration = r.stream(.acceleration)!.values
            f.rotationRate = r.stream(.rotationRate)!.values
            f.referenceGravity = r.stream(.gravity)!.values
            out.append(f)
        }
        return out
    }
}
