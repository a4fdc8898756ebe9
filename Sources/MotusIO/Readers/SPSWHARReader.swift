import MotusCore

/// Reads the smartphone + smartwatch activity dataset of Matey-Sanz, Casteleyn and Granell
/// (Data in Brief 51, 2023): a Timed-Up-and-Go-like sequence (seated, stand up, walk, turn,
/// walk, turn, sit down, seated) recorded at once by a phone (`sXX_YY_sp.csv`) and a watch
/// (`sXX_YY_sw.csv`), labelled per sample.
///
/// **File**: header `x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label` (columns found by
/// name; every row must have as many fields as the header). Streams:
/// - `acc`: accelerometer, m/s², gravity included, Android sign (unchanged).
/// - `gyro`: gyroscope, rad/s (unchanged).
///
/// **Time**: `timestamp` is Unix time in whole milliseconds. Times are **relative**: seconds
/// since the file's first timestamp, computed from the integer difference so that no precision
/// is lost; the Unix start is kept in `extra["unix_start_ms"]` (the phone and watch files of
/// one execution share that clock, so their difference aligns them). Relative times keep the
/// labels, events and windows readable, like the other readers whose files count from 0.
///
/// **Repeated timestamps** (several rows in the same millisecond; the logging app stamped
/// samples as they were delivered, in bursts): every row is kept, in file order, and a run of
/// `k` rows stamped `m` ms gets the times `m + j/k` ms, `j = 0 … k−1`, spread evenly inside that
/// millisecond. Each value moves by less than the clock's 1 ms resolution, the times become
/// strictly increasing, and the original stamp is recovered as `⌊t × 1000 + 10⁻⁶⌋` ms after
/// the start (the small term absorbs floating-point rounding). Why not leave equal times for `StreamCleaner`: its duplicate policies keep one
/// sample per timestamp (dropping or averaging the rest), which here would remove about one
/// phone sample in twelve that is a real measurement, not a re-emission. The number of rows
/// moved is in `extra["repeated_timestamps"]`. A timestamp that goes backwards, is not a whole
/// number or is negative is an error at its line and column.
///
/// **Labels**: each run of equal `label`s is a `LabelSegment` from its first sample's time to
/// the next run's first sample's time; the last one ends one mean sample interval after the
/// last sample (1 ms for a one-row file), so every sample lies in the segment of its own label.
/// Labels are kept as written (`SEATED`, `STANDING_UP`, `WALKING`, `TURNING`, `SITTING_DOWN`).
///
/// **Metadata**: subject `sXX`, device "smartphone"/"smartwatch" (the dataset names neither the
/// models nor where they were worn, so there is no placement). From `subjects_info.csv` (found
/// in the folder above the subject's, or passed in): age, gender ("male"/"female"), height
/// (cm → m), weight (kg), `extra["dominant_hand"]` ("right"/"left"). From `executions_info.csv`:
/// `extra["phone_orientation"]` (`back`, `back_inv`, `front`, `front_inv`, as written),
/// `extra["first_turn"]`, `extra["second_turn"]` ("left"/"right"). No nominal rate (the source
/// gives none; the files run at about 102–104 Hz).
public enum SPSWHARReader {
    /// Which device recorded a file: the `_sp` / `_sw` suffix.
    public enum Device: String, Sendable, Hashable, CaseIterable {
        /// The smartphone (`_sp`).
        case phone = "sp"
        /// The smartwatch (`_sw`).
        case watch = "sw"
        /// "smartphone" or "smartwatch".
        public var deviceName: String { self == .phone ? "smartphone" : "smartwatch" }
    }

    /// The header of every recording.
    public static let header = "x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label"
    static let numericColumns = ["x_acc", "y_acc", "z_acc", "x_gyro", "y_gyro", "z_gyro", "timestamp"]
    /// The labels the dataset uses.
    public static let activityLabels = ["SEATED", "STANDING_UP", "WALKING", "TURNING", "SITTING_DOWN"]

    /// One row of `subjects_info.csv`, in SI units.
    public struct Subject: Sendable, Hashable {
        /// The subject's id, `sXX`.
        public var id: String
        /// Age in years, as the file gives it.
        public var age: Years
        /// "male" or "female".
        public var gender: String
        /// Height (m); the file gives centimetres.
        public var heightMeters: Meters
        /// Weight (kg), as the file gives it.
        public var weightKg: Kilograms
        /// "right" or "left".
        public var dominantHand: String
        /// How many executions of the task the subject did.
        public var executions: Int
    }

    /// One row of `executions_info.csv`.
    public struct Execution: Sendable, Hashable {
        /// `sXX_YY`.
        public var id: String
        /// Orientation of the phone: `back`, `back_inv`, `front`, `front_inv`.
        public var phoneOrientation: String
        /// The direction of the first turn: "left" or "right" (`l`/`r` in the file).
        public var firstTurn: String
        /// The direction of the second turn: "left" or "right".
        public var secondTurn: String
    }

    /// The parts of a file name `sXX_YY_sp.csv`: subject `sXX`, execution `sXX_YY`, device.
    public struct FileName: Sendable, Hashable {
        /// The subject, `sXX`.
        public var subject: String
        /// The execution, `sXX_YY`.
        public var execution: String
        /// The device, from the `sp`/`sw` suffix.
        public var device: Device
    }

    /// Splits `sXX_YY_{sp|sw}.csv`; nil for any other name.
    public static func parseFileName(_ name: String) -> FileName? {
        guard name.hasSuffix(".csv") else { return nil }
        let p = name.dropLast(4).split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard p.count == 3, p[0].hasPrefix("s"), p[0].count > 1, p[0].dropFirst().allSatisfy(\.readerIsDigit),
              !p[1].isEmpty, p[1].allSatisfy(\.readerIsDigit), let d = Device(rawValue: p[2]) else { return nil }
        return FileName(subject: p[0], execution: "\(p[0])_\(p[1])", device: d)
    }

    /// Reads `subjects_info.csv` (`subject_id,age,gender,height,weight,dominant_hand,executions`).
    public static func subjectInfo(path: String) throws(InputError) -> [String: Subject] {
        let t = try ReaderTextTable(path: path, required: ["subject_id", "age", "gender", "height", "weight", "dominant_hand", "executions"])
        var out: [String: Subject] = [:]
        for r in t.rows {
            let g = try t.choice(r, "gender", ["M": "male", "F": "female"])
            let hand = try t.choice(r, "dominant_hand", ["R": "right", "L": "left"])
            let executions = try t.number(r, "executions")
            guard executions >= 0, executions == executions.rounded(), executions < 1e6 else {
                throw InputError(.badValue, at: t.location(r, "executions"), found: t.text(r, "executions"), expected: "a whole number of executions")
            }
            let id = try t.nonEmpty(r, "subject_id")
            out[id] = Subject(id: id, age: try t.number(r, "age"), gender: g, heightMeters: try t.number(r, "height") / 100,
                              weightKg: try t.number(r, "weight"), dominantHand: hand, executions: Int(executions))
        }
        return out
    }

    /// Reads `executions_info.csv` (`execution_id,orientation,first_turn,second_turn`).
    public static func executionInfo(path: String) throws(InputError) -> [String: Execution] {
        let t = try ReaderTextTable(path: path, required: ["execution_id", "orientation", "first_turn", "second_turn"])
        var out: [String: Execution] = [:]
        let turns = ["l": "left", "r": "right"]
        for r in t.rows {
            let id = try t.nonEmpty(r, "execution_id")
            out[id] = Execution(id: id, phoneOrientation: try t.nonEmpty(r, "orientation"),
                                firstTurn: try t.choice(r, "first_turn", turns), secondTurn: try t.choice(r, "second_turn", turns))
        }
        return out
    }

    /// Reads one recording, with `subjects_info.csv` and `executions_info.csv` from the folder
    /// above the file's when they are there.
    public static func read(path: String) throws(InputError) -> Recording {
        let data = ReaderFiles.parent(ReaderFiles.parent(path))
        let sp = ReaderFiles.join(data, "subjects_info.csv"), ep = ReaderFiles.join(data, "executions_info.csv")
        return try read(path: path, subjects: ReaderFiles.isFile(sp) ? try subjectInfo(path: sp) : nil,
                        executions: ReaderFiles.isFile(ep) ? try executionInfo(path: ep) : nil)
    }

    /// Reads one recording with the information tables already loaded (nil: none).
    public static func read(path: String, subjects: [String: Subject]?, executions: [String: Execution]?) throws(InputError) -> Recording {
        let head = try TableScanner.head(path: path, lines: 1)
        guard let first = head.first, !first.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "the header '\(header)'")
        }
        let names = first.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        let cols = try TableScanner.requireColumns(numericColumns, in: names, path: path, line: 1)
        let labelColumn = try TableScanner.requireColumns(["label"], in: names, path: path, line: 1)[0]
        let rows = try TableScanner.readRows(path: path, delimiter: UInt8(ascii: ","), firstDataLine: 2, fieldCount: names.count,
                                             columns: cols, names: numericColumns, what: "sp-sw-har: \(header)",
                                             textColumn: labelColumn, textName: "label (SEATED, WALKING, …)",
                                             timeColumn: 6, timeScale: 1e-3,
                                             limits: (0..<3).map { (.acceleration, $0) } + (0..<3).map { (.rotationRate, $0) } + [nil])
        let n = rows.count
        let tsField = cols[6]
        var ms = [Int64](); ms.reserveCapacity(n)
        for i in 0..<n {
            let v = rows.value(i, 6)
            guard v >= 0, v == v.rounded(), v < 9.0e15 else {
                throw InputError(.badValue, at: fieldLocation(rows, row: i, field: tsField), found: "\(v)",
                                 expected: "a Unix time in whole milliseconds")
            }
            let m = Int64(v)
            if i > 0 && m < ms[i - 1] {
                throw InputError(.timeBackwards, at: fieldLocation(rows, row: i, field: tsField), found: "\(m)",
                                 expected: "a timestamp ≥ \(ms[i - 1]) (the row before)")
            }
            ms.append(m)
        }
        let (times, repeated) = spreadRepeatedMilliseconds(ms)
        let acc = SensorStream.fromColumns(kind: .acceleration, times: times, rows: rows, x: 0, y: 1, z: 2)
        let gyro = SensorStream.fromColumns(kind: .rotationRate, times: times, rows: rows, x: 3, y: 4, z: 5)
        let labels = labelSegments(times: times, codes: rows.textCodes, names: rows.texts)

        var md = RecordingMetadata()
        let file = ReaderFiles.lastComponent(path)
        let fn = parseFileName(file)
        md.source = "sp-sw-har " + (fn.map { "DATA/\($0.subject)/" } ?? "") + file
        if let fn {
            md.subject = fn.subject
            md.device = fn.device.deviceName
            md.extra["execution"] = fn.execution
            if let s = subjects?[fn.subject] {
                md.age = s.age; md.gender = s.gender; md.heightMeters = s.heightMeters; md.weightKg = s.weightKg
                md.extra["dominant_hand"] = s.dominantHand
            }
            if let e = executions?[fn.execution] {
                md.extra["phone_orientation"] = e.phoneOrientation
                md.extra["first_turn"] = e.firstTurn
                md.extra["second_turn"] = e.secondTurn
            }
        }
        md.extra["unix_start_ms"] = "\(ms[0])"
        md.extra["time"] = "seconds since unix_start_ms; rows sharing a millisecond spread evenly inside it"
        md.extra["repeated_timestamps"] = "\(repeated)"
        return Recording(metadata: md, streams: [acc, gyro], labels: labels, events: [])
    }

    /// Relative times in seconds for whole-millisecond stamps that never decrease: a run of `k`
    /// equal stamps `m` becomes `(m − first + j/k) / 1000`, `j = 0 … k−1`. Returns the times and
    /// how many rows repeated the stamp before them.
    static func spreadRepeatedMilliseconds(_ ms: [Int64]) -> (times: [Double], repeated: Int) {
        var times = [Double](); times.reserveCapacity(ms.count)
        guard let origin = ms.first else { return ([], 0) }
        var repeated = 0
        var i = 0
        while i < ms.count {
            var j = i + 1
            while j < ms.count && ms[j] == ms[i] { j += 1 }
            let k = j - i, base = Double(ms[i] - origin)
            for r in 0..<k { times.append((base + Double(r) / Double(k)) / 1000) }
            repeated += k - 1
            i = j
        }
        return (times, repeated)
    }

    /// One segment per run of equal label codes; see the type's documentation for the ends.
    static func labelSegments(times: [Double], codes: [Int32], names: [String]) -> [LabelSegment] {
        let n = times.count
        guard n > 0, codes.count == n else { return [] }
        let lastEnd = times[n - 1] + (n > 1 ? (times[n - 1] - times[0]) / Double(n - 1) : 0.001)
        var out: [LabelSegment] = []
        var start = 0
        for i in 1...n where i == n || codes[i] != codes[start] {
            out.append(LabelSegment(start: times[start], end: i == n ? lastEnd : times[i], label: names[Int(codes[start])]))
            start = i
        }
        return out
    }

    /// The exact line and byte column of field `field` of data row `row` (read again from the
    /// file: only on the error path).
    static func fieldLocation(_ rows: NumericRows, row: Int, field: Int) -> SourceLocation {
        let line = rows.line(ofRow: row)
        var loc = rows.location(row: row)
        guard let text = try? TableScanner.head(path: rows.path, lines: line).last else { return loc }
        var f = 0, column = 1
        for b in text.utf8 {
            if f == field { break }
            if b == UInt8(ascii: ",") { f += 1 }
            column += 1
        }
        if f == field { loc.column = column }
        return loc
    }
}

/// A small comma-separated text table with a header (the datasets' information files), read
/// whole, with the byte column of every field kept for error messages.
struct ReaderTextTable {
    struct Row { var line: Int; var fields: [String]; var columns: [Int] }
    let path: String
    let header: [String]
    let index: [String: Int]
    let rows: [Row]

    /// Reads `path`; every name in `required` must be in the header, and every row must have as
    /// many fields as the header. Blank lines are skipped only at the end.
    init(path: String, required: [String]) throws(InputError) {
        self.path = path
        var lines: [String] = []
        var cursor = try LineCursor(path: path)
        while let l = try cursor.next() { lines.append(String(decoding: l, as: UTF8.self)) }
        while let l = lines.last, l.readerTrimmed.isEmpty { lines.removeLast() }
        guard let h = lines.first else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a header naming \(required.joined(separator: ","))")
        }
        header = h.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        _ = try TableScanner.requireColumns(required, in: header, path: path, line: 1)
        var idx: [String: Int] = [:]
        for (k, name) in header.enumerated() where idx[name] == nil { idx[name] = k }
        index = idx
        var out: [Row] = []
        for (k, line) in lines.enumerated().dropFirst() {
            var fields: [String] = [], columns: [Int] = []
            var column = 1
            for part in line.split(separator: ",", omittingEmptySubsequences: false) {
                fields.append(part.readerTrimmed); columns.append(column)
                column += part.utf8.count + 1
            }
            guard fields.count == header.count else {
                throw InputError(fields.count < header.count ? .missingColumn : .badValue,
                                 at: SourceLocation(file: path, line: k + 1, column: fields.count < header.count ? line.utf8.count + 1 : columns[header.count]),
                                 found: "\(fields.count) fields", expected: "\(header.count) fields (\(header.joined(separator: ",")))")
            }
            out.append(Row(line: k + 1, fields: fields, columns: columns))
        }
        rows = out
    }

    func text(_ r: Row, _ name: String) -> String { index[name].map { r.fields[$0] } ?? "" }
    func location(_ r: Row, _ name: String) -> SourceLocation {
        SourceLocation(file: path, line: r.line, column: index[name].map { r.columns[$0] } ?? 0)
    }

    func nonEmpty(_ r: Row, _ name: String) throws(InputError) -> String {
        let t = text(r, name)
        guard !t.isEmpty else { throw InputError(.badValue, at: location(r, name), found: "", expected: "a value for \(name)") }
        return t
    }

    func number(_ r: Row, _ name: String) throws(InputError) -> Double {
        let t = text(r, name)
        guard let v = NumberParser.parseDouble(t) else { throw InputError(.badNumber, at: location(r, name), found: t, expected: "a number (\(name))") }
        guard v.isFinite else { throw InputError(.nonFinite, at: location(r, name), found: t, expected: "a finite number (\(name))") }
        return v
    }

    /// The value of `name` mapped through `choices` (case as written).
    func choice(_ r: Row, _ name: String, _ choices: [String: String]) throws(InputError) -> String {
        let t = text(r, name)
        guard let v = choices[t] else {
            throw InputError(.badValue, at: location(r, name), found: t, expected: "\(choices.keys.sorted().joined(separator: " or ")) (\(name))")
        }
        return v
    }
}
