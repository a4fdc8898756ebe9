import MotusCore

/// Reads the JSON recordings of the mPower study app (Sage Bionetworks, ResearchKit): a JSON
/// array with one object per CoreMotion sample. Key order does not matter.
///
/// **Device motion** (`{"timestamp", "attitude":{x,y,z,w}, "rotationRate":{x,y,z},
/// "userAcceleration":{x,y,z}, "gravity":{x,y,z}, "magneticField":{x,y,z,accuracy}}`):
/// - `grav`, `uacc`: g with CoreMotion's sign (gravity points down) times −9.80665, so they
///   point up as Motus expects (like `MotionSenseReader`).
/// - `acc`: **derived**, `grav + uacc`.
/// - `gyro`: rad/s unchanged. `att`: the quaternion (w, x, y, z) unchanged: CMAttitude rotates
///   device-frame vectors into the reference frame, as Motus' `Quaternion` does (the dataset
///   README checks gravity = R(q)ᵀ·(0, 0, −1) in every file).
/// - `mag`: CoreMotion's calibrated field (µT), only for samples whose `accuracy` is 0 or more.
///   Samples with `accuracy` −1 (CMMagneticFieldCalibrationAccuracyUncalibrated, which
///   ResearchKit writes as all zeros when it did not use the magnetometer) are not
///   measurements: they are left out of `mag` and counted in `extra["mag.uncalibrated"]`. When
///   no sample is calibrated there is no `mag` stream (the case in every shared file).
///
/// **Accelerometer** (`{"timestamp", "x", "y", "z"}`, `accel_*.json` in mPower v1): raw
/// acceleration in g, CoreMotion sign, → `acc` × −9.80665.
///
/// Timestamps are seconds as written: since boot in original files, from 0 in rebased ones
/// (`extra["time"]` says which it looks like). They must not go backwards (`.timeBackwards`).
public enum MPowerReader {
    static let xyz = ["x", "y", "z"]

    /// Reads one mPower JSON file (device motion or accelerometer, told apart by the keys of the
    /// samples) as described above. Throws `InputError` at the line and column of the problem: a
    /// file that is not a JSON array of objects (`.emptyFile` for an empty array), a key missing or
    /// not a number, a value not finite in SI units, an attitude that is not a unit quaternion, or
    /// a timestamp that goes backwards (`.timeBackwards`).
    public static func read(path: String) throws(InputError) -> Recording {
        let doc = try ReaderJSONDocument(path: path)
        guard let items = doc.root.array else {
            throw InputError(.badValue, at: doc.location(doc.root), found: doc.snippet(doc.root),
                             expected: "a JSON array of CoreMotion samples")
        }
        guard let first = items.first else {
            throw InputError(.emptyFile, at: doc.location(doc.root), found: "[]", expected: "at least one sample")
        }
        let deviceMotion = first["gravity"] != nil || first["userAcceleration"] != nil || first["attitude"] != nil
        let n = items.count
        let k = -Units.standardGravity
        var times = [Double](); times.reserveCapacity(n)
        var md = RecordingMetadata(device: "iPhone", source: "mPower JSON \(ReaderFiles.lastComponent(path))")

        // A number that stays finite in SI units (1e308 g does not), at its place in the file.
        // With `kind`, also within what a sensor of that kind gives (`ReadingRules.limit`).
        func converted(_ o: ReaderJSON, _ c: String, _ context: String, scale: Double, unit: String, kind: StreamKind? = nil) throws(InputError) -> Double {
            let node = try doc.member(o, c, context: context)
            let x = try doc.number(node, context: "\(context) '\(c)'")! * scale
            guard x.isFinite else {
                throw ReadingRules.conversionError(at: doc.location(node), found: doc.snippet(node), what: "\(context) '\(c)'", unit: unit)
            }
            if let kind, let axis = MPowerReader.xyz.firstIndex(of: c), !ReadingRules.fits(x, kind, axis) {
                throw ReadingRules.rangeError(at: doc.location(node), found: doc.snippet(node), kind: kind, component: axis, value: x)
            }
            return x
        }

        func vec(_ o: ReaderJSON, _ key: String, _ i: Int, _ out: inout [Double], scale: Double, unit: String, kind: StreamKind) throws(InputError) {
            let v = try doc.member(o, key, context: "sample \(i)")
            for c in MPowerReader.xyz {
                out.append(try converted(v, c, "sample \(i) \(key)", scale: scale, unit: unit, kind: kind))
            }
        }

        var prevT = -Double.infinity
        var firstT = Double.nan
        func time(_ o: ReaderJSON, _ i: Int) throws(InputError) -> Double {
            let tn = try doc.member(o, "timestamp", context: "sample \(i)")
            let t = try doc.number(tn, context: "sample \(i) timestamp")!
            if !ReadingRules.timeFits(t, first: firstT) {
                if i == 0 { firstT = t } else { throw ReadingRules.timeError(at: doc.location(tn), found: doc.snippet(tn), time: t, first: firstT) }
            }
            if t < prevT {
                throw InputError(.timeBackwards, at: doc.location(tn), found: doc.snippet(tn), expected: "a timestamp ≥ \(prevT) (the sample before)")
            }
            prevT = t
            return t
        }

        var streams: [SensorStream] = []
        if deviceMotion {
            var grav = [Double](), uacc = [Double](), gyro = [Double](), att = [Double](), mag = [Double](), magTimes = [Double]()
            grav.reserveCapacity(3 * n); uacc.reserveCapacity(3 * n); gyro.reserveCapacity(3 * n); att.reserveCapacity(4 * n)
            var uncalibrated = 0, withMag = 0
            for (i, o) in items.enumerated() {
                guard o.isObject else {
                    throw InputError(.badValue, at: doc.location(o), found: doc.snippet(o), expected: "an object (sample \(i))")
                }
                let t = try time(o, i)
                times.append(t)
                try vec(o, "gravity", i, &grav, scale: k, unit: "m/s²", kind: .gravity)
                try vec(o, "userAcceleration", i, &uacc, scale: k, unit: "m/s²", kind: .userAcceleration)
                try vec(o, "rotationRate", i, &gyro, scale: 1, unit: "rad/s", kind: .rotationRate)
                let a = try doc.member(o, "attitude", context: "sample \(i)")
                let q = Quaternion(w: try doc.requiredNumber(a, "w", context: "sample \(i) attitude"),
                                   x: try doc.requiredNumber(a, "x", context: "sample \(i) attitude"),
                                   y: try doc.requiredNumber(a, "y", context: "sample \(i) attitude"),
                                   z: try doc.requiredNumber(a, "z", context: "sample \(i) attitude"))
                let norm = q.norm
                guard abs(norm - 1) < 1e-3 else {
                    throw InputError(.badValue, at: doc.location(a), found: doc.snippet(a), expected: "a unit quaternion (norm \(norm))")
                }
                att.append(q.w); att.append(q.x); att.append(q.y); att.append(q.z)
                if let m = o["magneticField"] {
                    withMag += 1
                    let acc = try doc.member(m, "accuracy", context: "sample \(i) magneticField")
                    let accuracy = try doc.number(acc, context: "sample \(i) magneticField accuracy")!
                    if accuracy < 0 {
                        uncalibrated += 1
                    } else {
                        magTimes.append(t)
                        try vec(o, "magneticField", i, &mag, scale: 1, unit: "µT", kind: .magneticField)
                    }
                }
            }
            let gravity = SensorStream(kind: .gravity, times: times, values: grav)
            let user = SensorStream(kind: .userAcceleration, times: times, values: uacc)
            // The raw acceleration by the one rule a session pairs them with (both share every
            // time here). Each term is at most 1.8e307 m/s² (finite × g), so the sum stays finite.
            streams = [
                Recording(streams: [gravity, user]).deviceMotionAcceleration ?? SensorStream(kind: .acceleration),
                SensorStream(kind: .rotationRate, times: times, values: gyro),
                gravity,
                user,
                SensorStream(kind: .attitude, times: times, values: att),
            ]
            if !magTimes.isEmpty { streams.append(SensorStream(kind: .magneticField, times: magTimes, values: mag)) }
            md.extra["acc"] = "derived: gravity + userAcceleration"
            if withMag > 0 {
                md.extra["mag.uncalibrated"] = "\(uncalibrated)"
                if magTimes.isEmpty { md.extra["mag"] = "left out: every sample has accuracy -1 (uncalibrated)" }
            }
        } else {
            var acc = [Double](); acc.reserveCapacity(3 * n)
            for (i, o) in items.enumerated() {
                guard o.isObject else {
                    throw InputError(.badValue, at: doc.location(o), found: doc.snippet(o), expected: "an object (sample \(i))")
                }
                times.append(try time(o, i))
                for c in MPowerReader.xyz { acc.append(try converted(o, c, "sample \(i)", scale: k, unit: "m/s²", kind: .acceleration)) }
            }
            streams = [SensorStream(kind: .acceleration, times: times, values: acc)]
        }
        md.extra["time"] = times[0] == 0 ? "seconds, rebased to start at 0" : "seconds since device boot (CMLogItem.timestamp)"
        return Recording(metadata: md, streams: streams)
    }
}
