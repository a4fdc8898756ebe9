import MotusCore

/// One row of MotionSense's `data_subjects_info.csv`, in SI units.
public struct MotionSenseSubject: Sendable, Hashable {
    /// The `N` of `sub_N.csv`.
    public var code: Int
    /// Weight (kg), as the file gives it.
    public var weightKg: Kilograms
    /// Height (m); the file gives centimetres.
    public var heightMeters: Meters
    /// Age in years, as the file gives it.
    public var age: Years
    /// "female" (0 in the file) or "male" (1).
    public var gender: String
}

/// Reads the MotionSense dataset (Malekzadeh et al.; iPhone 6s in the front trouser pocket,
/// CoreMotion at a nominal 50 Hz, no time column).
///
/// **Device-motion files** `A_DeviceMotion_data/<act>_<trial>/sub_<n>.csv` become a recording
/// with these streams, all on the clock `t = row / 50` s:
/// - `grav`: CoreMotion gravity (g, pointing down: face up reads z ≈ −1) times −9.80665, so in
///   Motus' Android convention it points up (face up reads z ≈ +9.81 m/s²).
/// - `uacc`: user acceleration, same conversion (× −9.80665).
/// - `gyro`: rotation rate, rad/s, unchanged (bias-corrected by CoreMotion).
/// - `att`: the attitude, from the file's roll/pitch/yaw (see `attitude(roll:pitch:yaw:)`).
/// - `acc`: **derived**, `grav + uacc` (what a raw accelerometer would read, in m/s², Android
///   sign). The dataset README checks that this sum matches the raw accelerometer.
/// - `acc.raw` / `gyro.raw`: when the matching `B_Accelerometer_data` / `C_Gyroscope_data`
///   file exists (subject 3 in the shared subset): the raw accelerometer (g, CoreMotion sign,
///   gravity included; × −9.80665) and the raw gyroscope (rad/s, not bias-corrected). They are
///   separate streams whose rows do **not** line up with A's; each is on its own clock
///   `row / 50` s starting at 0.
///
/// One label segment covers the whole recording, `[0, rows / 50)`, with the activity code of
/// the folder (`dws`, `ups`, `wlk`, `jog`, `sit`, `std`). Metadata: subject `sub_<n>`, height,
/// weight, age and gender from `data_subjects_info.csv` (found three folders up), device
/// "iPhone 6s", placement "front-pocket", nominal rate 50 Hz.
///
/// A `B_…`/`C_…` file read on its own gives a recording with one stream, `acc` or `gyro`.
public enum MotionSenseReader {
    /// The dataset's sampling rate (Hz): row i of a file is at i / 50 s.
    public static let nominalRateHz: Hertz = 50.0
    /// The activity codes that start the trial folders' names, in the dataset's order.
    public static let activityCodes = ["dws", "ups", "wlk", "jog", "sit", "std"]
    /// Activity code → its name in words ("wlk" → "walking").
    public static let activityNames = ["dws": "downstairs", "ups": "upstairs", "wlk": "walking",
                                       "jog": "jogging", "sit": "sitting", "std": "standing"]
    /// The header of the device-motion files (column 0 is an unnamed row index).
    public static let deviceMotionColumns = [
        "attitude.roll", "attitude.pitch", "attitude.yaw", "gravity.x", "gravity.y", "gravity.z",
        "rotationRate.x", "rotationRate.y", "rotationRate.z",
        "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
    ]
    /// CoreMotion g (pointing down) to Motus m/s² (pointing up).
    public static let coreMotionToSI = -Units.standardGravity

    /// The attitude quaternion for CoreMotion's Euler angles (radians).
    ///
    /// CoreMotion's convention: pitch is a rotation about the device x axis, roll about y, yaw
    /// about z, and the rotation matrix from device to reference frame is
    /// `R = Rz(yaw) · Rx(pitch) · Ry(roll)` (intrinsic z-x'-y''). So the quaternion is
    /// `q = q_z(yaw) ⊗ q_x(pitch) ⊗ q_y(roll)`, rotating device-frame vectors into the reference
    /// frame (z up), as `Quaternion` documents. Check: the device-frame gravity (CoreMotion,
    /// pointing down) equals `q.inverseRotate((0, 0, −1))`; tests verify it on every file.
    public static func attitude(roll: Radians, pitch: Radians, yaw: Radians) -> Quaternion {
        let cr = Math.cos(roll / 2), sr = Math.sin(roll / 2)
        let cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2)
        let cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2)
        // q_z(yaw) ⊗ q_x(pitch) = (cy·cp, cy·sp, sy·sp, sy·cp); then ⊗ q_y(roll) = (cr, 0, sr, 0).
        let a = Quaternion(w: cy * cp, x: cy * sp, y: sy * sp, z: sy * cp)
        return Quaternion(w: a.w * cr - a.y * sr,
                          x: a.x * cr - a.z * sr,
                          y: a.w * sr + a.y * cr,
                          z: a.z * cr + a.x * sr)
    }

    /// Reads `data_subjects_info.csv` (`code,weight,height,age,gender`; BOM and a missing final
    /// newline are fine). Height is converted from cm to m.
    public static func subjectInfo(path: String) throws(InputError) -> [Int: MotionSenseSubject] {
        let head = try TableScanner.head(path: path, lines: 1)
        guard let first = head.first, !first.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a header 'code,weight,height,age,gender'")
        }
        let names = first.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        let wanted = ["code", "weight", "height", "age", "gender"]
        let cols = try TableScanner.requireColumns(wanted, in: names, path: path, line: 1)
        let rows = try TableScanner.readRows(path: path, delimiter: UInt8(ascii: ","), firstDataLine: 2, fieldCount: names.count,
                                             columns: cols, names: wanted, what: "MotionSense subject info")
        var out: [Int: MotionSenseSubject] = [:]
        for i in 0..<rows.count {
            let code = rows.value(i, 0), g = rows.value(i, 4)
            guard code == code.rounded(), code >= 0, code < 1e6 else {
                throw InputError(.badValue, at: rows.location(row: i), found: "\(code)", expected: "a whole subject number")
            }
            guard g == 0 || g == 1 else {
                throw InputError(.badValue, at: rows.location(row: i), found: "\(g)", expected: "gender 0 (female) or 1 (male)")
            }
            out[Int(code)] = MotionSenseSubject(code: Int(code), weightKg: rows.value(i, 1), heightMeters: rows.value(i, 2) / 100,
                                                age: rows.value(i, 3), gender: g == 1 ? "male" : "female")
        }
        return out
    }

    /// What the path says about a file: `<root>/<X>_..._data/<act>_<trial>/sub_<n>.csv`.
    struct PathInfo {
        var root: String?
        var kindFolder: String?   // A_DeviceMotion_data, B_Accelerometer_data, C_Gyroscope_data
        var activity: String?
        var trial: String?
        var subject: Int?
        var relative: String
    }

    static func pathInfo(_ path: String) -> PathInfo {
        let parts = ReaderFiles.components(path)
        var info = PathInfo(relative: ReaderFiles.lastComponent(path))
        if let file = parts.last, file.hasPrefix("sub_"), file.hasSuffix(".csv") {
            info.subject = Int(file.dropFirst(4).dropLast(4))
        }
        if parts.count >= 2 {
            let folder = parts[parts.count - 2]
            if let u = folder.lastIndex(of: "_") {
                let act = String(folder[..<u])
                if activityCodes.contains(act) { info.activity = act; info.trial = String(folder[folder.index(after: u)...]) }
            }
            info.relative = folder + "/" + parts[parts.count - 1]
        }
        if parts.count >= 3 {
            let k = parts[parts.count - 3]
            if k.hasSuffix("_data") {
                info.kindFolder = k
                info.relative = k + "/" + info.relative
                info.root = ReaderFiles.parent(ReaderFiles.parent(ReaderFiles.parent(path)))
            }
        }
        return info
    }

    /// Reads one MotionSense file, finding `data_subjects_info.csv` and the raw B/C files of
    /// the same trial and subject next to it when they exist.
    public static func read(path: String) throws(InputError) -> Recording {
        let info = pathInfo(path)
        var subjects: [Int: MotionSenseSubject]? = nil
        if let root = info.root {
            let p = ReaderFiles.join(root, "data_subjects_info.csv")
            if ReaderFiles.isFile(p) { subjects = try subjectInfo(path: p) }
        }
        return try read(path: path, subjects: subjects, includeRaw: true)
    }

    /// Reads one MotionSense file with subject information already loaded (nil: none).
    /// `includeRaw` adds the matching B/C raw streams to a device-motion recording.
    public static func read(path: String, subjects: [Int: MotionSenseSubject]?, includeRaw: Bool = true) throws(InputError) -> Recording {
        let info = pathInfo(path)
        let head = try TableScanner.head(path: path, lines: 1)
        guard let header = head.first, !header.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a MotionSense header line")
        }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        var rec: Recording
        if names.contains("x") && names.count == 4 {
            // A raw B or C file read on its own.
            let raw = try readRaw(path: path, header: names, accelerometer: try rawIsAccelerometer(info, path: path))
            rec = Recording(streams: [raw.stream.readerRenamed(raw.stream.kind.rawValue)])
            rec.labels = info.activity.map { [LabelSegment(start: 0, end: Double(raw.stream.count) / nominalRateHz, label: $0)] } ?? []
        } else {
            rec = try readDeviceMotion(path: path, header: names)
            if includeRaw, let root = info.root, let act = info.activity, let trial = info.trial, let n = info.subject {
                let rel = "\(act)_\(trial)/sub_\(n).csv"
                let bPath = ReaderFiles.join(root, "B_Accelerometer_data/" + rel)
                let cPath = ReaderFiles.join(root, "C_Gyroscope_data/" + rel)
                if ReaderFiles.isFile(bPath) {
                    let s = try readRaw(path: bPath, header: nil, accelerometer: true).stream.readerRenamed("acc.raw")
                    rec.streams.append(s)
                    rec.metadata.extra["acc.raw"] = "B_Accelerometer_data/\(rel): raw accelerometer, own clock row/50 s (rows do not line up with the device-motion file)"
                }
                if ReaderFiles.isFile(cPath) {
                    let s = try readRaw(path: cPath, header: nil, accelerometer: false).stream.readerRenamed("gyro.raw")
                    rec.streams.append(s)
                    rec.metadata.extra["gyro.raw"] = "C_Gyroscope_data/\(rel): raw gyroscope, not bias-corrected, own clock row/50 s"
                }
            }
            let n = rec.streams.first?.count ?? 0
            if let act = info.activity { rec.labels = [LabelSegment(start: 0, end: Double(n) / nominalRateHz, label: act)] }
        }
        var md = rec.metadata
        md.device = "iPhone 6s"
        md.placement = "front-pocket"
        md.nominalRateHz = nominalRateHz
        md.source = "MotionSense " + info.relative
        if let n = info.subject {
            md.subject = "sub_\(n)"
            if let s = subjects?[n] {
                md.heightMeters = s.heightMeters; md.weightKg = s.weightKg; md.age = s.age; md.gender = s.gender
            }
        }
        if let act = info.activity { md.extra["activity"] = act }
        if let t = info.trial { md.extra["trial"] = t }
        if info.activity == "sit" && info.trial == "13" && info.subject == 1 {
            md.extra["quirk"] = "upstream sit_13/sub_1 is byte-identical to sit_5/sub_1 (mind trial-level leakage)"
        }
        rec.metadata = md
        return rec
    }

    static func rawIsAccelerometer(_ info: PathInfo, path: String) throws(InputError) -> Bool {
        if let k = info.kindFolder, k.hasPrefix("B_") { return true }
        if let k = info.kindFolder, k.hasPrefix("C_") { return false }
        throw InputError(.badValue, at: SourceLocation(file: path), found: info.kindFolder ?? ReaderFiles.parent(path),
                         expected: "a ',x,y,z' file inside B_Accelerometer_data or C_Gyroscope_data (the folder gives the unit)")
    }

    static func readDeviceMotion(path: String, header: [String]) throws(InputError) -> Recording {
        let cols = try TableScanner.requireColumns(deviceMotionColumns, in: header, path: path, line: 1)
        let rows = try TableScanner.readRows(path: path, delimiter: UInt8(ascii: ","), firstDataLine: 2, fieldCount: header.count,
                                             columns: cols, names: deviceMotionColumns, what: "MotionSense device motion",
                                             scales: [1, 1, 1, coreMotionToSI, coreMotionToSI, coreMotionToSI, 1, 1, 1, coreMotionToSI, coreMotionToSI, coreMotionToSI],
                                             units: ["rad", "rad", "rad", "m/s²", "m/s²", "m/s²", "rad/s", "rad/s", "rad/s", "m/s²", "m/s²", "m/s²"],
                                             limits: [nil, nil, nil] + (0..<3).map { (.gravity, $0) } + (0..<3).map { (.rotationRate, $0) } + (0..<3).map { (.userAcceleration, $0) })
        let n = rows.count
        var times = [Double](); times.reserveCapacity(n)
        for i in 0..<n { times.append(Double(i) / nominalRateHz) }
        let k = coreMotionToSI
        let grav = SensorStream.fromColumns(kind: .gravity, times: times, rows: rows, x: 3, y: 4, z: 5, scale: k)
        let gyro = SensorStream.fromColumns(kind: .rotationRate, times: times, rows: rows, x: 6, y: 7, z: 8)
        let uacc = SensorStream.fromColumns(kind: .userAcceleration, times: times, rows: rows, x: 9, y: 10, z: 11, scale: k)
        // The raw acceleration the device-motion sample stands for, by the one rule a session
        // pairs them with (gravity and user acceleration share every time here).
        let acc = Recording(streams: [grav, uacc]).deviceMotionAcceleration ?? SensorStream(kind: .acceleration)
        var att = [Double](); att.reserveCapacity(4 * n)
        for i in 0..<n {
            let q = attitude(roll: rows.value(i, 0), pitch: rows.value(i, 1), yaw: rows.value(i, 2))
            att.append(q.w); att.append(q.x); att.append(q.y); att.append(q.z)
        }
        let attitudeStream = SensorStream(kind: .attitude, times: times, values: att)
        var md = RecordingMetadata()
        md.extra["acc"] = "derived: gravity + userAcceleration (no raw accelerometer in the device-motion file)"
        md.extra["att"] = "from CoreMotion roll/pitch/yaw: q = qz(yaw)*qx(pitch)*qy(roll), device to reference frame; yaw origin arbitrary"
        md.extra["time"] = "row / 50 s (the file has no time column)"
        return Recording(metadata: md, streams: [acc, gyro, grav, uacc, attitudeStream])
    }

    static func readRaw(path: String, header: [String]?, accelerometer: Bool) throws(InputError) -> (stream: SensorStream, rows: Int) {
        var names = header
        if names == nil {
            let head = try TableScanner.head(path: path, lines: 1)
            guard let h = head.first, !h.isEmpty else {
                throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a header ',x,y,z'")
            }
            names = h.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        }
        let cols = try TableScanner.requireColumns(["x", "y", "z"], in: names!, path: path, line: 1)
        let rows = try TableScanner.readRows(path: path, delimiter: UInt8(ascii: ","), firstDataLine: 2, fieldCount: names!.count,
                                             columns: cols, names: ["x", "y", "z"],
                                             what: accelerometer ? "MotionSense raw accelerometer" : "MotionSense raw gyroscope",
                                             scales: [Double](repeating: accelerometer ? coreMotionToSI : 1, count: 3),
                                             units: [String](repeating: accelerometer ? "m/s²" : "rad/s", count: 3),
                                             limits: (0..<3).map { (accelerometer ? .acceleration : .rotationRate, $0) })
        var times = [Double](); times.reserveCapacity(rows.count)
        for i in 0..<rows.count { times.append(Double(i) / nominalRateHz) }
        let s = SensorStream.fromColumns(kind: accelerometer ? .acceleration : .rotationRate, times: times, rows: rows,
                                         x: 0, y: 1, z: 2, scale: accelerometer ? coreMotionToSI : 1)
        return (s, rows.count)
    }
}

extension SensorStream {
    func readerRenamed(_ name: String) -> SensorStream {
        var s = self
        s.name = name
        return s
    }
}

extension Substring {
    var readerTrimmed: String {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}

extension String {
    var readerTrimmed: String { self[...].readerTrimmed }
}
