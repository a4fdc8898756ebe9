import MotusCore

/// Reads one trial of BROAD, the Berlin Robust Orientation Estimation Assessment Dataset
/// (Laidig et al. 2021): a MATLAB v5 file `data_mat/<trial>.mat` holding, for N samples at
/// `sampling_rate` (285.714 Hz), `imu_acc`, `imu_gyr`, `imu_mag` (N×3), `opt_quat` (N×4),
/// `opt_pos` (N×3), `movement` (N×1) and the text `info`. There is no time column: sample
/// `i` is at `i / sampling_rate` s.
///
/// The recording holds:
/// - `acc` (m/s², gravity included; the file already uses the Android sign: +9.8 on the up
///   axis at rest), `gyro` (rad/s) and `mag` (µT), unchanged, at every sample;
/// - `reference_attitude` (`BROADReader.referenceStreamName`, kind `.attitude`): the optical
///   reference `opt_quat`, a unit quaternion (w, x, y, z) rotating IMU-frame vectors into an
///   ENU frame, as Motus' attitude streams do. Rows where the markers were not seen are NaN in
///   the file: they are left out of the stream (never filled in), and their count is in
///   `extra["reference.missing"]`. It is the ground truth, not an estimate from the device:
///   look it up by name, since `Recording.stream(.attitude)` would also find it;
/// - labels: the `movement` flag as segments `movement` (1, the samples the benchmark scores)
///   and `rest` (0), each `[first sample, sample after the last)` in seconds;
/// - metadata: device, placement, source, nominal rate, and in `extra` the trial name, the
///   file's `info` text and the trial's groups from `trials.json` beside the file, when found.
///
/// `opt_pos` (reference position, m) is not read: Motus has no position stream.
/// Missing variables, wrong shapes, non-finite IMU values, partly-NaN or non-unit reference
/// quaternions and movement flags other than 0/1 throw an `InputError` naming the variable.
public enum BROADReader {
    /// The name of the reference attitude stream.
    public static let referenceStreamName = "reference_attitude"
    /// Label of samples in the movement phase (`movement` = 1) and of the rest phases (0).
    public static let movementLabel = "movement", restLabel = "rest"
    /// The variables a BROAD trial file must hold (and the only ones read).
    public static let requiredVariables: Set<String> = ["imu_acc", "imu_gyr", "imu_mag", "opt_quat", "movement", "sampling_rate"]

    /// Reads one trial. `groups` are the trial's groups (from `trials.json`); nil looks for
    /// `trials.json` in the file's folder.
    public static func read(path: String, groups: [String]? = nil) throws(InputError) -> Recording {
        let mat = try MATFile.read(path: path, options: .init(only: requiredVariables.union(["info"])))
        let here = SourceLocation(file: path)
        let fileName = ReaderFiles.lastComponent(path)
        let trial = fileName.hasSuffix(".mat") ? String(fileName.dropLast(4)) : fileName

        func variable(_ name: String, columns: Int, what: String) throws(InputError) -> MATArray {
            guard let v = mat[name] else {
                throw InputError(.missingColumn, at: here, found: "variables \(mat.names.joined(separator: ", "))",
                                 expected: "a variable '\(name)' (\(what)) as in every BROAD trial")
            }
            guard v.arrayClass.isNumeric, !v.isComplex, v.dimensions.count == 2, v.dimensions[1] == columns else {
                throw InputError(.badValue, at: here, found: "'\(name)' \(v.summary)", expected: "a real N×\(columns) array (\(what))")
            }
            return v
        }

        let rateVar = try variable("sampling_rate", columns: 1, what: "sampling rate in Hz")
        guard rateVar.count == 1, let rate = rateVar.values.first, rate.isFinite, rate > 0 else {
            throw InputError(.badValue, at: here, found: "sampling_rate \(rateVar.summary) \(rateVar.values.prefix(2))",
                             expected: "one positive sampling rate in Hz")
        }
        let acc = try variable("imu_acc", columns: 3, what: "acceleration in m/s²")
        let n = acc.rows
        guard n > 0 else { throw InputError(.emptyFile, at: here, found: "imu_acc \(acc.summary)", expected: "at least one sample") }
        let gyr = try variable("imu_gyr", columns: 3, what: "rotation rate in rad/s")
        let mag = try variable("imu_mag", columns: 3, what: "magnetic field in µT")
        let quat = try variable("opt_quat", columns: 4, what: "reference quaternion w, x, y, z")
        let movement = try variable("movement", columns: 1, what: "movement flag 0/1")
        for v in [gyr, mag, quat, movement] where v.rows != n {
            throw InputError(.badValue, at: here, found: "'\(v.name)' \(v.summary)", expected: "\(n) rows, as imu_acc")
        }

        let times = (0..<n).map { Double($0) / rate }
        func threeAxis(_ v: MATArray, _ kind: StreamKind) throws(InputError) -> SensorStream {
            var values = [Double](repeating: 0, count: 3 * n)
            for c in 0..<3 {
                for i in 0..<n {
                    let x = v.values[i + c * n]
                    guard x.isFinite else {
                        throw InputError(.nonFinite, at: here, found: "\(x) at row \(i + 1), column \(c + 1) of '\(v.name)'",
                                         expected: "a finite \(kind.title) value")
                    }
                    values[3 * i + c] = x
                }
            }
            return SensorStream(kind: kind, times: times, values: values)
        }
        var streams = [try threeAxis(acc, .acceleration), try threeAxis(gyr, .rotationRate), try threeAxis(mag, .magneticField)]

        // Reference: whole NaN rows are samples without markers; anything else must be a unit quaternion.
        var refTimes: [Double] = [], refValues: [Double] = []
        refTimes.reserveCapacity(n); refValues.reserveCapacity(4 * n)
        var missing = 0
        for i in 0..<n {
            let q = (quat.values[i], quat.values[i + n], quat.values[i + 2 * n], quat.values[i + 3 * n])
            let nans = (q.0.isNaN ? 1 : 0) + (q.1.isNaN ? 1 : 0) + (q.2.isNaN ? 1 : 0) + (q.3.isNaN ? 1 : 0)
            if nans == 4 { missing += 1; continue }
            let norm = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
            guard nans == 0, norm.isFinite, abs(norm - 1) < 1e-3 else {
                throw InputError(.badValue, at: here, found: "opt_quat row \(i + 1) = (\(q.0), \(q.1), \(q.2), \(q.3))",
                                 expected: "a unit quaternion, or NaN in all four columns (markers not seen)")
            }
            refTimes.append(times[i])
            refValues.append(q.0); refValues.append(q.1); refValues.append(q.2); refValues.append(q.3)
        }
        streams.append(SensorStream(kind: .attitude, name: referenceStreamName, times: refTimes, values: refValues))

        // Movement flag → segments.
        var labels: [LabelSegment] = []
        var runStart = 0
        for i in 0..<n {
            let m = movement.values[i]
            guard m == 0 || m == 1 else {
                throw InputError(.badValue, at: here, found: "movement row \(i + 1) = \(m)", expected: "0 (rest) or 1 (movement)")
            }
            if i + 1 == n || movement.values[i + 1] != m {
                labels.append(LabelSegment(start: Double(runStart) / rate, end: Double(i + 1) / rate, label: m == 1 ? movementLabel : restLabel))
                runStart = i + 1
            }
        }

        var md = RecordingMetadata(device: "myon aktos-t", placement: "hand-held marker holder", nominalRateHz: rate,
                                   source: "BROAD \(fileName)")
        md.extra["trial"] = trial
        if let info = mat["info"]?.text { md.extra["info"] = info }
        md.extra["reference"] = "\(referenceStreamName): OptiTrack optical motion capture, IMU frame to ENU"
        md.extra["reference.missing"] = "\(missing)"
        let trialGroups: [String]?
        if let groups {
            trialGroups = groups
        } else {
            let json = ReaderFiles.join(ReaderFiles.parent(path), "trials.json")
            trialGroups = ReaderFiles.isFile(json) ? try BROADDataset.readTrials(path: json).groups[trial] : nil
        }
        if let g = trialGroups?.filter({ $0 != "all_trials" }), !g.isEmpty { md.extra["groups"] = g.joined(separator: ", ") }
        return Recording(metadata: md, streams: streams, labels: labels)
    }
}
