import MotusCore

/// Reads a MATLAB Mobile sensor log (`sensorlog_*.mat`): a MAT-file holding one MATLAB
/// `timetable` per sensor (`MATTimetable`), row times `Timestamp` (a `datetime`), read into
/// one recording on one clock: seconds since 1970 from the datetimes (`MATDateTime`: UTC
/// when the log's datetimes carry a time zone, else the phone's clock reading as if UTC).
///
/// Streams, units as MathWorks documents them for the app's logs:
/// - `Acceleration` (`X`, `Y`, `Z`, m/s², gravity included; a phone lying face up reads
///   about +9.81 on Z, as Motus' `acc`) → `acc`;
/// - `AngularVelocity` (`X`, `Y`, `Z`, rad/s) → `gyro`;
/// - `MagneticField` (`X`, `Y`, `Z`, µT) → `mag`;
/// - `Position` (`latitude`, `longitude` in degrees, `altitude` m, `speed` m/s, `course`
///   degrees, `hacc` m) → `loc` (vertical accuracy NaN: the log has none).
///
/// `Orientation` (azimuth, pitch and roll in degrees) is not read: MathWorks documents the
/// angles but not the order in which they compose into an attitude, and Motus keeps
/// attitudes as quaternions; it is named in a notice (`InputNotices`) with any other
/// variable the reader does not take, never dropped without a word.
/// Errors: a sensor timetable without its columns, with non-finite values, or with times
/// going backwards is an `InputError` at the variable's byte offset naming the variable,
/// row and column; MAT-file and subsystem damage as `MATFile` reports it.
public enum MATLABMobileReader {
    /// The timetables a log may hold, one per sensor.
    public static let sensorVariables: [String] = ["Acceleration", "AngularVelocity", "MagneticField", "Orientation", "Position"]

    /// Whether `path` is a MAT-file holding at least one of MATLAB Mobile's sensor
    /// variables (reads the header and the variables' names only).
    public static func isLog(_ path: String) -> Bool {
        guard MATFile.looksLikeMAT(ReaderFiles.headBytes(path, count: 128)),
              let names = try? MATFile.variableNames(path: path) else { return false }
        return names.contains(where: sensorVariables.contains)
    }

    /// Reads the log at `path`.
    public static func read(path: String) throws(InputError) -> Recording {
        let mat = try MATFile.read(path: path)
        var streams: [SensorStream] = []
        var leftOut: [String] = []
        var zones = Set<String>()
        var clock: String? = nil   // "datetime" or "duration": one clock for every stream

        func table(_ name: String) throws(InputError) -> MATTimetable? {
            guard mat.variables[name] != nil || mat.skipped.contains(where: { $0.name == name }) else { return nil }
            let t = try mat.timetable(name)
            let kind: String
            switch t.rowTimes {
            case .datetime(let d): kind = "datetime"; zones.insert(d.timeZone)
            case .duration: kind = "duration"
            }
            if let c = clock, c != kind {
                throw InputError(.badValue, at: .byteOffset(mat.offsets[name] ?? 0, in: path), found: "\(name) row times as \(kind)",
                                 expected: "row times of one kind in every timetable (the others have \(c))")
            }
            clock = kind
            return t
        }
        func stream(_ name: String, _ kind: StreamKind, columns: [String], optional: Set<String> = []) throws(InputError) {
            guard let t = try table(name) else { return }
            let here = SourceLocation.byteOffset(mat.offsets[name] ?? 0, in: path)
            var cols: [MATArray?] = []
            for c in columns {
                let v = t.variable(c)
                if v == nil && !optional.contains(c) {
                    throw InputError(.missingColumn, at: here, found: "variables \(t.variableNames.joined(separator: ", "))",
                                     expected: "a variable '\(c)' in timetable '\(name)' (\(columns.joined(separator: ", ")))")
                }
                if let v, !(v.arrayClass.isNumeric && !v.isComplex && v.columns == 1) {
                    throw InputError(.badValue, at: here, found: "\(name).\(c) \(v.summary)", expected: "one real numeric column")
                }
                cols.append(v)
            }
            let times = t.rowTimes.seconds
            let n = times.count
            var values = [Double](repeating: .nan, count: n * kind.width)
            for (k, col) in cols.enumerated() {
                guard let col else { continue }
                for i in 0..<n {
                    let x = col.values[i]
                    guard x.isFinite || kind.allowsMissing(component: k) && x.isNaN else {
                        throw InputError(.nonFinite, at: here, found: "\(x) at row \(i + 1) of \(name).\(columns[k])", expected: "a finite \(kind.title) value")
                    }
                    values[i * kind.width + k] = x
                }
            }
            for i in 0..<n {
                guard times[i].isFinite else {
                    throw InputError(.nonFinite, at: here, found: "\(times[i]) at row \(i + 1) of \(name).\(t.rowTimesName)", expected: "a finite time")
                }
                if i > 0 && times[i] < times[i - 1] {
                    throw InputError(.timeBackwards, at: here, found: "\(name).\(t.rowTimesName) row \(i + 1) \(times[i] - times[i - 1]) s after row \(i)",
                                     expected: "row times in order")
                }
            }
            streams.append(SensorStream(kind: kind, times: times, values: values))
        }

        try stream("Acceleration", .acceleration, columns: ["X", "Y", "Z"])
        try stream("AngularVelocity", .rotationRate, columns: ["X", "Y", "Z"])
        try stream("MagneticField", .magneticField, columns: ["X", "Y", "Z"])
        try stream("Position", .location, columns: ["latitude", "longitude", "altitude", "speed", "course", "hacc", "vacc"],
                   optional: ["altitude", "speed", "course", "hacc", "vacc"])
        if let o = try table("Orientation") {
            leftOut.append("Orientation (\(o.rowCount) rows of azimuth, pitch and roll in degrees: their rotation order is not documented, so no attitude is made from them)")
        }
        for name in mat.names where !sensorVariables.contains(name) { leftOut.append(name) }
        for s in mat.skipped where !sensorVariables.contains(s.name) && !s.name.contains(".") && !s.name.contains("{") { leftOut.append(s.description) }
        guard !streams.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "variables \((mat.names + mat.skipped.map(\.name)).joined(separator: ", "))",
                             expected: "at least one of MATLAB Mobile's Acceleration, AngularVelocity, MagneticField or Position timetables")
        }
        if !leftOut.isEmpty { InputNotices.post("\(path): left out: \(leftOut.joined(separator: "; "))") }

        let fileName = ReaderFiles.lastComponent(path)
        var md = RecordingMetadata(source: "MATLAB Mobile \(fileName)")
        if clock == "datetime" {
            let zone = zones.count == 1 ? zones.first ?? "" : zones.sorted().joined(separator: ", ")
            md.extra["clock"] = zone.isEmpty ? "epoch s of the phone's clock reading (datetime without time zone, taken as UTC)" : "UTC epoch s (time zone \(zone))"
        } else {
            md.extra["clock"] = "s (duration row times)"
        }
        return Recording(metadata: md, streams: streams)
    }
}
