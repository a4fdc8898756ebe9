import MotusCore

/// Reads the raw accelerometer (and gyroscope) text of the WISDM lab's activity datasets
/// (Fordham University):
///
/// - **WISDM v1.1** (`WISDM_ar_v1.1_raw.txt`, Kwapisz, Weiss and Moore 2010; also the
///   Actitracker `WISDM_at_v2.0_raw.txt`): one file for every user, records
///   `user,activity,timestamp,x,y,z;` with the activity as a word (`Walking`, `Jogging`,
///   `Upstairs`, `Downstairs`, `Sitting`, `Standing`; Actitracker also `Stairs`, `LyingDown`).
///   An Android phone in the front trouser pocket, 20 Hz, acceleration in m/s² with gravity.
/// - **WISDM 2019** ("Smartphone and Smartwatch Activity and Biometrics", Weiss 2019):
///   `raw/{phone|watch}/{accel|gyro}/data_<subject>_{accel|gyro}_{phone|watch}.txt`, one
///   subject per file, records `subject,activity code,timestamp,x,y,z;` with the activity as
///   one letter (`activity_key.txt`: A walking … S folding; `activityCodes`). 20 Hz;
///   accelerometer in m/s² with gravity, gyroscope in rad/s.
///
/// **Records**: six comma-separated fields, spaces around them allowed. A record ends at `;`
/// or at the end of its line (the `;` may be missing at a line's end), and several records may
/// share a line (v1.1 has such lines). Blank lines are passed over. A last line without a
/// newline must end with `;`, or it was cut while written (an error, or left out with a notice
/// under `ReadingPolicy.incompleteLastLine == .drop`). The user is a whole
/// number, the activity a non-empty word, the timestamp a whole number of nanoseconds, x, y, z
/// finite numbers within `ReadingRules.limit`. Anything else (a missing field, an extra one, a
/// word for a number) is an error at the field's line and column naming what was expected.
///
/// **Streams**: `acc` (acceleration, m/s², Android sign: unchanged) or `gyro` (rotation rate,
/// rad/s). Reading a 2019 accelerometer file also reads its gyroscope file
/// (`../gyro/data_<subject>_gyro_<device>.txt`) when it is there, and the other way round, into
/// one recording (each stream with its own timestamps).
///
/// **Time**: seconds since the user's first kept record, from the integer difference of the
/// nanosecond timestamps (no precision lost); the first timestamp is kept in
/// `extra["start_ns"]`. The streams of a 2019 pair share that origin (the accelerometer's).
/// Per user, in file order, times must increase, with two exceptions seen in the v1.1 file
/// that carry no measurement and are left out, counted in `extra` and posted once each to
/// `InputNotices` (never silently):
/// - a record with timestamp 0 (`extra["zero_timestamp_records"]`): no time, and its values
///   are zeros;
/// - a record equal to the user's previous kept one, time and values (`extra["repeated_records"]`):
///   the same sample written twice.
/// The same time with other values, or a time before the previous record's, is an error.
///
/// **Labels**: each run of equal activities is a `LabelSegment` from its first record's time
/// to one nominal period (1/20 s) after its last record, or to the next run's first record
/// when that comes sooner (each activity was recorded apart, so the time between runs belongs
/// to none). v1.1 labels are kept as written; 2019 codes become the names of `activityCodes`.
///
/// **Users**: a v1.1 file holds many; `read(path:user:)` reads one (nil: the file must hold
/// exactly one), `users(path:)` lists them, and `WISDMDataset` has one entry per user.
public enum WISDMReader {
    /// The 2019 dataset's activity codes (`activity_key.txt`) and the labels Motus gives them.
    public static let activityCodes: [String: String] = [
        "A": "walking", "B": "jogging", "C": "stairs", "D": "sitting", "E": "standing", "F": "typing",
        "G": "teeth", "H": "soup", "I": "chips", "J": "pasta", "K": "drinking", "L": "sandwich",
        "M": "kicking", "O": "catch", "P": "dribbling", "Q": "writing", "R": "clapping", "S": "folding",
    ]

    /// The rate both datasets were recorded at (Hz).
    public static let nominalRateHz: Hertz = 20.0

    /// What a 2019 file name says: subject, sensor and device.
    public struct FileName: Sendable, Hashable {
        /// The subject id (`1600` … `1650`).
        public var subject: String
        /// `accel` or `gyro`.
        public var sensor: String
        /// `phone` or `watch`.
        public var device: String
    }

    /// Parses `data_<subject>_{accel|gyro}_{phone|watch}.txt`; nil for any other name.
    public static func parseFileName(_ name: String) -> FileName? {
        guard name.hasPrefix("data_") && name.hasSuffix(".txt") else { return nil }
        let parts = name.dropFirst(5).dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.readerIsDigit),
              parts[1] == "accel" || parts[1] == "gyro", parts[2] == "phone" || parts[2] == "watch" else { return nil }
        return FileName(subject: String(parts[0]), sensor: String(parts[1]), device: String(parts[2]))
    }

    /// One record as read: where it stands, and its fields.
    struct Record {
        var userText: String
        var activity: String
        var timeNs: Int64
        var x: Double, y: Double, z: Double
        var line: Int
        var column: Int
        var timeColumn: Int
    }

    /// Calls `body` with every record of `path`, in file order.
    static func scan(path: String, kind: StreamKind, _ body: (Record) throws(InputError) -> Void) throws(InputError) {
        let reader = try LineReader(path: path)
        let unit = kind == .rotationRate ? "rad/s" : "m/s²"
        var any = false
        let policy = ReadingPolicy.incompleteLastLine
        try reader.forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int, unterminated: Bool) throws(InputError) in
            // A last line without a newline must end its record with ';' (every record of both
            // layouts does; only inside the file may a line's end close one): else it was cut.
            if unterminated && !isBlank(line, 0, line.count) {
                var e = line.count
                while e > 0 && (line[e - 1] == 0x20 || line[e - 1] == 0x09) { e -= 1 }
                if line[e - 1] != UInt8(ascii: ";") {
                    let reason = "its last record does not end with ';'"
                    if policy == .error { throw LastLineRule.error(file: path, line: n, column: e + 1, bytes: line.count, reason: reason) }
                    InputNotices.post(LeftOutLine(file: path, line: n, bytes: line.count, reason: reason).description)
                    return
                }
            }
            var start = 0
            while start < line.count {
                var end = start
                while end < line.count && line[end] != UInt8(ascii: ";") { end += 1 }
                if !isBlank(line, start, end) {
                    try body(try record(line, start, end, n: n, path: path, kind: kind, unit: unit))
                    any = true
                } else if end < line.count {
                    // `;` with nothing before it (a record's fields missing, or `;;`).
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: n, column: start + 1), found: "",
                                     expected: "a record user,activity,timestamp,x,y,z before ';'")
                }
                start = end + 1
            }
        }
        if !any { throw InputError(.emptyFile, at: SourceLocation(file: path), found: "no records", expected: "WISDM records user,activity,timestamp,x,y,z;") }
    }

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        var i = s
        while i < e { if line[i] != 0x20 && line[i] != 0x09 { return false }; i += 1 }
        return true
    }

    static let fieldNames = ["user", "activity", "timestamp", "x", "y", "z"]

    /// Parses one record, `line[s..<e]` (no `;`), of line `n`.
    static func record(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, n: Int, path: String, kind: StreamKind,
                       unit: String) throws(InputError) -> Record {
        // Field ranges, trimmed of spaces and tabs.
        var ranges: [(Int, Int)] = []
        ranges.reserveCapacity(6)
        var a = s
        while true {
            var b = a
            while b < e && line[b] != UInt8(ascii: ",") { b += 1 }
            var fs = a, fe = b
            while fs < fe && (line[fs] == 0x20 || line[fs] == 0x09) { fs += 1 }
            while fe > fs && (line[fe - 1] == 0x20 || line[fe - 1] == 0x09) { fe -= 1 }
            ranges.append((fs, fe))
            if b >= e { break }
            a = b + 1
        }
        func text(_ r: (Int, Int)) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[r.0..<r.1]), as: UTF8.self) }
        func loc(_ k: Int) -> SourceLocation { SourceLocation(file: path, line: n, column: ranges[k].0 + 1) }
        if ranges.count > 6 {
            throw InputError(.badValue, at: loc(6), found: text((ranges[6].0, ranges[ranges.count - 1].1)),
                             expected: "';' or the end of the line after the 6 fields user,activity,timestamp,x,y,z")
        }
        if ranges.count < 6 {
            let whole = text((ranges[0].0, ranges[ranges.count - 1].1))
            throw InputError(.missingColumn, at: SourceLocation(file: path, line: n, column: ranges[0].0 + 1), found: whole,
                             expected: "6 fields user,activity,timestamp,x,y,z (\(ranges.count) found; \(fieldNames[ranges.count]) missing)")
        }
        for k in 0..<6 where ranges[k].0 == ranges[k].1 {
            throw InputError(.missingColumn, at: loc(k), found: "", expected: k == 1 ? "the activity" : k == 0 ? "the user id" : k == 2 ? "the timestamp (ns)" : "\(fieldNames[k]) (\(unit))")
        }
        func whole(_ k: Int, _ what: String) throws(InputError) -> Int64 {
            var v: Int64 = 0
            for i in ranges[k].0..<ranges[k].1 {
                let c = line[i]
                guard c >= 0x30 && c <= 0x39 else { throw InputError(.badNumber, at: loc(k), found: text(ranges[k]), expected: what) }
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (t, o2) = m.addingReportingOverflow(Int64(c - 0x30))
                if o1 || o2 { throw InputError(.badValue, at: loc(k), found: text(ranges[k]), expected: what + " below 2^63") }
                v = t
            }
            return v
        }
        _ = try whole(0, "a whole-number user id")
        for i in ranges[1].0..<ranges[1].1 {
            let c = line[i]
            let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x20 || c == 0x5F || c == 0x2D
            if !letter { throw InputError(.badValue, at: loc(1), found: text(ranges[1]), expected: "an activity (a word, as Walking, or a 2019 code letter)") }
        }
        let t = try whole(2, "a timestamp in whole nanoseconds")
        var v = [0.0, 0.0, 0.0]
        for c in 0..<3 {
            let k = 3 + c
            guard let (x, end) = NumberParser.scan(line, ranges[k].0, ranges[k].1), end == ranges[k].1, x.isFinite else {
                throw InputError(.badNumber, at: loc(k), found: text(ranges[k]), expected: "a number (\(fieldNames[k]), \(unit))")
            }
            guard ReadingRules.fits(x, kind, c) else { throw ReadingRules.rangeError(at: loc(k), found: text(ranges[k]), kind: kind, component: c, value: x) }
            v[c] = x
        }
        return Record(userText: text(ranges[0]), activity: text(ranges[1]), timeNs: t, x: v[0], y: v[1], z: v[2],
                      line: n, column: ranges[0].0 + 1, timeColumn: ranges[2].0 + 1)
    }

    /// The users of a file, in order of first appearance (a 2019 file has one).
    public static func users(path: String) throws(InputError) -> [String] {
        var seen = Set<String>(), out: [String] = []
        try scan(path: path, kind: .acceleration) { (r: Record) throws(InputError) in
            if seen.insert(r.userText).inserted { out.append(r.userText) }
        }
        return out
    }

    /// One user's stream and labels, read from `path`.
    struct UserStream {
        var stream: SensorStream
        var startNs: Int64
        var labels: [(time: Double, activity: String)]
        var zeroTimestamps = 0
        var repeats = 0
        var users: [String] = []
    }

    static func readStream(path: String, kind: StreamKind, user: String?, origin: Int64?, codes: Bool) throws(InputError) -> UserStream {
        var s = UserStream(stream: SensorStream(kind: kind, name: kind == .rotationRate ? "gyro" : "acc"), startNs: origin ?? 0, labels: [])
        var seen = Set<String>()
        var hasStart = origin != nil
        var prev: Record? = nil
        var firstZero: SourceLocation? = nil, firstRepeat: SourceLocation? = nil
        try scan(path: path, kind: kind) { (r: Record) throws(InputError) in
            if seen.insert(r.userText).inserted { s.users.append(r.userText) }
            if let u = user { guard r.userText == u else { return } } else if s.users.count > 1 { return }
            if r.timeNs == 0 {
                s.zeroTimestamps += 1
                if firstZero == nil { firstZero = SourceLocation(file: path, line: r.line, column: r.timeColumn) }
                return
            }
            var label = r.activity
            if codes {
                guard let name = activityCodes[r.activity] else {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: r.line, column: r.column + r.userText.utf8.count + 1), found: r.activity,
                                     expected: "a WISDM 2019 activity code (A to S, without N)")
                }
                label = name
            }
            if let p = prev {
                if r.timeNs == p.timeNs && r.x == p.x && r.y == p.y && r.z == p.z {
                    s.repeats += 1
                    if firstRepeat == nil { firstRepeat = SourceLocation(file: path, line: r.line, column: r.column) }
                    return
                }
                if r.timeNs <= p.timeNs {
                    throw InputError(r.timeNs < p.timeNs ? .timeBackwards : .badValue, at: SourceLocation(file: path, line: r.line, column: r.timeColumn),
                                     found: "\(r.timeNs)",
                                     expected: "a timestamp after \(p.timeNs), user \(r.userText)'s previous record (line \(p.line))" + (r.timeNs == p.timeNs ? " with other values" : ""))
                }
            }
            if !hasStart { s.startNs = r.timeNs; hasStart = true }
            let (d, o) = r.timeNs.subtractingReportingOverflow(s.startNs)
            let t = o ? (Double(r.timeNs) - Double(s.startNs)) / 1e9 : Double(d) / 1e9
            guard ReadingRules.timeFits(t, first: 0) else {
                throw ReadingRules.timeError(at: SourceLocation(file: path, line: r.line, column: r.timeColumn), found: "\(r.timeNs)", time: t, first: 0)
            }
            s.stream.append(time: t, Vector3(r.x, r.y, r.z))
            if s.labels.last?.activity != label { s.labels.append((t, label)) }
            prev = r
        }
        if let u = user, !seen.contains(u) {
            throw InputError(.badValue, at: SourceLocation(file: path), found: u, expected: "a user of the file (\(s.users.prefix(5).joined(separator: ", "))\(s.users.count > 5 ? ", …" : ""))")
        }
        if user == nil && s.users.count > 1 {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "\(s.users.count) users (\(s.users.prefix(4).joined(separator: ", "))\(s.users.count > 4 ? ", …" : ""))",
                             expected: "one user's records: a WISDM file of several users is a dataset, one recording per user (evaluate, train and features read it so; WISDMDataset in the library)")
        }
        if let z = firstZero { InputNotices.post("\(z): left out \(s.zeroTimestamps) record\(s.zeroTimestamps == 1 ? "" : "s") with timestamp 0 (no time; the values are zeros)") }
        if let r = firstRepeat { InputNotices.post("\(r): left out \(s.repeats) record\(s.repeats == 1 ? "" : "s") repeating the previous one (same time and values)") }
        if s.stream.isEmpty {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "no record with a timestamp", expected: "WISDM records with timestamps in nanoseconds")
        }
        return s
    }

    /// Reads one user's recording from a WISDM raw file (`user`: nil when the file holds one
    /// user). A 2019 file brings its partner sensor's file along when it is there.
    public static func read(path: String, user: String? = nil) throws(InputError) -> Recording {
        let name = ReaderFiles.lastComponent(path)
        let fileName = parseFileName(name)
        let codes = fileName != nil || isCodeFile(path)
        let kind: StreamKind = fileName?.sensor == "gyro" ? .rotationRate : .acceleration
        // A 2019 pair: the accelerometer file first (its clock is the origin), then the gyroscope.
        var files: [(String, StreamKind)] = [(path, kind)]
        if let f = fileName {
            let other = f.sensor == "accel" ? "gyro" : "accel"
            let partner = ReaderFiles.join(ReaderFiles.join(ReaderFiles.parent(ReaderFiles.parent(path)), other), "data_\(f.subject)_\(other)_\(f.device).txt")
            if ReaderFiles.isFile(partner) {
                let pair = (partner, other == "gyro" ? StreamKind.rotationRate : .acceleration)
                files = f.sensor == "accel" ? [files[0], pair] : [pair, files[0]]
            }
        }
        var streams: [SensorStream] = []
        var labels: [(time: Double, activity: String)] = []
        var origin: Int64? = nil
        var extra: [String: String] = [:]
        var userID = user
        var zeros = 0, repeats = 0
        for (i, (p, k)) in files.enumerated() {
            let s = try readStream(path: p, kind: k, user: userID, origin: origin, codes: codes)
            if origin == nil { origin = s.startNs }
            if userID == nil { userID = s.users.first }
            if i == 0 { labels = s.labels }
            zeros += s.zeroTimestamps; repeats += s.repeats
            streams.append(s.stream)
        }
        extra["start_ns"] = "\(origin ?? 0)"
        if zeros > 0 { extra["zero_timestamp_records"] = "\(zeros)" }
        if repeats > 0 { extra["repeated_records"] = "\(repeats)" }
        if codes { extra["dataset"] = "WISDM 2019" } else { extra["dataset"] = "WISDM v1.1" }
        // Each activity was recorded apart (minutes between them in the 2019 files): a run ends
        // one nominal period after its last record, or where the next run starts if sooner.
        let first = streams[0]
        var segments: [LabelSegment] = []
        var k = 0
        for (j, l) in labels.enumerated() {
            let next = j + 1 < labels.count ? labels[j + 1].time : Double.infinity
            while k + 1 < first.count && first.times[k + 1] < next { k += 1 }
            segments.append(LabelSegment(start: l.time, end: Swift.min(next, first.times[k] + 1 / nominalRateHz), label: l.activity))
        }
        let device = fileName?.device == "watch" ? "smartwatch" : "smartphone"
        let md = RecordingMetadata(device: device, placement: codes ? nil : "front-pocket", subject: userID, nominalRateHz: nominalRateHz,
                                   source: "WISDM: \(files.map { ReaderFiles.lastComponent($0.0) }.joined(separator: " + "))", extra: extra)
        return Recording(metadata: md, streams: streams, labels: segments)
    }

    /// True when the file's first record has a one-letter activity (the 2019 layout).
    static func isCodeFile(_ path: String) -> Bool {
        guard let f = firstRecordFields(path) else { return false }
        return f[1].count == 1
    }

    /// The six trimmed fields of the file's first record when it looks like a WISDM record
    /// (a whole-number user, a word, a whole-number timestamp, three numbers, then `;`); nil
    /// otherwise. Reads the first kilobyte.
    static func firstRecordFields(_ path: String) -> [Substring]? {
        var text = String(decoding: ReaderFiles.headBytes(path, count: 1024), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).first { !$0.allSatisfy { $0 == " " } } ?? ""
        guard let semi = line.firstIndex(of: ";") else { return nil }
        let fields = line[..<semi].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingReaderSpaces }
        guard fields.count == 6, !fields[0].isEmpty, fields[0].allSatisfy(\.readerIsDigit), !fields[1].isEmpty,
              fields[1].allSatisfy({ $0.isLetter || $0 == " " || $0 == "_" || $0 == "-" }),
              !fields[2].isEmpty, fields[2].allSatisfy(\.readerIsDigit),
              fields[3...].allSatisfy({ Double($0) != nil }) else { return nil }
        return fields
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingReaderSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
