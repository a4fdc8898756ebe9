import MotusCore

/// Reads the raw inertial signals of the UCI "Human Activity Recognition Using Smartphones"
/// dataset (Anguita et al. 2013): a Samsung Galaxy S II at the waist, 30 subjects, six
/// activities, split into `train/` and `test/`.
///
/// **Files** of a split folder `S` (`train` or `test`):
/// - `Inertial Signals/{total_acc|body_acc|body_gyro}_{x|y|z}_S.txt`: one line per window, 128
///   numbers separated by spaces (leading spaces allowed): 2.56 s at 50 Hz. Consecutive windows
///   of one stretch of recording overlap by half (64 samples).
/// - `subject_S.txt` and `y_S.txt`: one whole number per line and window, the subject and the
///   activity code.
/// - `../activity_labels.txt` (`1 WALKING` … `6 LAYING`), when present; otherwise the codes
///   get the six names the dataset's README gives, in that order.
///
/// **Streams**: `acc` from `total_acc` (g → m/s², gravity included; the phone's Android axes
/// and sign, so +1 g along the upward axis: unchanged but for the unit), `uacc` from
/// `body_acc` (g → m/s²; the dataset's own gravity removal, a 0.3 Hz low-pass), `gyro` from
/// `body_gyro` (rad/s, unchanged). `total_acc` is required; `body_acc` and `body_gyro` are read
/// when their three files are there (one or two of three is an error naming the missing one).
///
/// **De-overlapping**: one recording per subject, from the subject's windows in file order.
/// Two consecutive windows belong to one stretch when the second one's first half equals the
/// first one's second half, value for value, in every signal read; the stretch's samples are
/// then the first half (64 samples) of each of its windows and the whole of its last one, so
/// every sample is kept once. Each sample carries the activity of the window whose first half
/// holds it (the last window's second half, that window's), and each run of one activity is a
/// `LabelSegment`. Times are sample index / 50 Hz within a stretch. The dataset does not say
/// how much time lay between two stretches (windows that do not overlap): the next stretch is
/// placed `stretchGapSeconds` after the previous one's last sample, which any session sees as a
/// gap, and its start is an event `stretch` (detail: the window's 1-based line in the files).
///
/// Every number must be finite and within `ReadingRules.limit`; a line without exactly 128
/// numbers, a file with another number of lines than `subject_S.txt`, or a code missing from
/// `activity_labels.txt` is an error at its file, line and column. A last line without a
/// newline whose last number is printed otherwise than its first was cut while written (an
/// error, or left out with a notice under `ReadingPolicy.incompleteLastLine == .drop`).
public enum UCIHARReader {
    /// Samples per window.
    public static let windowLength = 128
    /// Samples between the starts of consecutive windows (half a window).
    public static let hop = 64
    /// The sampling rate (Hz).
    public static let rateHz = 50.0
    /// Time placed between two stretches of windows that do not overlap (s).
    public static let stretchGapSeconds = 10.0
    /// The activity names of the dataset's README, for codes 1 to 6 when `activity_labels.txt`
    /// is absent.
    public static let defaultActivities = ["WALKING", "WALKING_UPSTAIRS", "WALKING_DOWNSTAIRS", "SITTING", "STANDING", "LAYING"]

    static let signals: [(prefix: String, kind: StreamKind, name: String, scale: Double)] = [
        ("total_acc", .acceleration, "acc", Units.standardGravity),
        ("body_acc", .userAcceleration, "uacc", Units.standardGravity),
        ("body_gyro", .rotationRate, "gyro", 1),
    ]

    /// `train` or `test`: the split a folder holds (the suffix of its `subject_*.txt`); nil when
    /// it holds none.
    public static func split(of folder: String) -> String? {
        for f in ReaderFiles.list(folder) where f.hasPrefix("subject_") && f.hasSuffix(".txt") {
            let s = String(f.dropFirst(8).dropLast(4))
            if ReaderFiles.isDirectory(ReaderFiles.join(folder, "Inertial Signals")) { return s }
        }
        return nil
    }

    /// A whole number per line (`subject_S.txt`, `y_S.txt`), blank lines only at the end.
    static func integers(path: String, what: String) throws(InputError) -> [Int] {
        guard ReaderFiles.isFile(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "no such file", expected: "the \(what) file of the split")
        }
        var out: [Int] = []
        var blank = 0
        try LineReader(path: path).forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int) throws(InputError) in
            var s = 0, e = line.count
            while s < e && (line[s] == 0x20 || line[s] == 0x09) { s += 1 }
            while e > s && (line[e - 1] == 0x20 || line[e - 1] == 0x09) { e -= 1 }
            if s == e { if blank == 0 { blank = n }; return }
            if blank != 0 { throw InputError(.missingColumn, at: SourceLocation(file: path, line: blank), found: "", expected: "a \(what) (blank lines only at the end)") }
            var v = 0
            for i in s..<e {
                let c = line[i]
                guard c >= 0x30 && c <= 0x39, v < 1_000_000 else {
                    throw InputError(.badNumber, at: SourceLocation(file: path, line: n, column: s + 1),
                                     found: String(decoding: UnsafeBufferPointer(rebasing: line[s..<e]), as: UTF8.self), expected: "a whole-number \(what)")
                }
                v = v * 10 + Int(c - 0x30)
            }
            out.append(v)
        }
        if out.isEmpty { throw InputError(.emptyFile, at: SourceLocation(file: path), found: "no lines", expected: "one \(what) per window") }
        return out
    }

    /// The activity names by code: `activity_labels.txt` beside the split folder, or the README's six.
    static func activityNames(folder: String) throws(InputError) -> [Int: String] {
        let path = ReaderFiles.join(ReaderFiles.parent(folder), "activity_labels.txt")
        guard ReaderFiles.isFile(path) else {
            var m: [Int: String] = [:]
            for (i, a) in defaultActivities.enumerated() { m[i + 1] = a }
            return m
        }
        var m: [Int: String] = [:]
        try LineReader(path: path).forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int) throws(InputError) in
            let text = String(decoding: line, as: UTF8.self)
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.isEmpty { return }
            guard parts.count == 2, let code = Int(parts[0]), code >= 0 else {
                throw InputError(.badValue, at: SourceLocation(file: path, line: n, column: 1), found: text, expected: "a code and its activity name (1 WALKING)")
            }
            m[code] = String(parts[1])
        }
        return m
    }

    /// The subjects of a split folder, in order of first appearance.
    public static func subjects(folder: String) throws(InputError) -> [String] {
        guard let s = split(of: folder) else { throw notASplit(folder) }
        var seen = Set<Int>(), out: [String] = []
        for v in try integers(path: ReaderFiles.join(folder, "subject_\(s).txt"), what: "subject") where seen.insert(v).inserted { out.append("\(v)") }
        return out
    }

    static func notASplit(_ folder: String) -> InputError {
        InputError(.unreadable, at: SourceLocation(file: folder), found: ReaderFiles.isDirectory(folder) ? "no subject_*.txt with Inertial Signals/" : "no such folder",
                   expected: "a UCI HAR split folder (train/ or test/) with subject_S.txt, y_S.txt and Inertial Signals/")
    }

    /// One signal file of a split, read once for all its subjects: every window's 128 values
    /// (scaled), and what reading a subject's windows from it must report, in the order a read
    /// of the file meets it.
    struct SignalFile: Sendable {
        /// `lines × 128` values, line by line (0 for a line that could not be read).
        var values: [Double] = []
        /// Lines holding a window (blank lines at the end and a dropped cut last line excluded).
        var lines = 0
        /// Line (1-based) → the error met on it: a cut last line or a blank line before it are
        /// errors for every subject, a bad number only for the subject whose window the line is.
        var issues: [(line: Int, error: InputError, everyone: Bool)] = []
        /// The notice for a cut last line left out (`ReadingPolicy.incompleteLastLine == .drop`),
        /// posted by each read that gets that far.
        var notice: (line: Int, text: String)?
        /// The line after the last one, where a line-count error points.
        var blank = 0
        var path = ""
    }

    /// Reads one signal file whole (`read(folder:subject:)` then takes each subject's rows):
    /// never throws for what is wrong in a line, but records it with its line (`SignalFile`) so
    /// that each subject's read reports what a read of its own rows reports.
    static func signalFile(path: String, kind: StreamKind, component: Int, scale: Double) -> SignalFile {
        var f = SignalFile()
        f.path = path
        var blank = 0
        let policy = ReadingPolicy.incompleteLastLine
        var reached = 0, stopped = false
        do {
            try LineReader(path: path).forEachLine { (line: UnsafeBufferPointer<UInt8>, n: Int, unterminated: Bool) throws(InputError) in
                if stopped { return }
                reached = n
                var s = 0
                while s < line.count && (line[s] == 0x20 || line[s] == 0x09) { s += 1 }
                if s == line.count { if blank == 0 { blank = n }; return }
                if unterminated, let (reason, column) = cutReason(line) {
                    if policy == .error {
                        f.issues.append((n, LastLineRule.error(file: path, line: n, column: column, bytes: line.count, reason: reason), true))
                    } else {
                        f.notice = (n, LeftOutLine(file: path, line: n, bytes: line.count, reason: reason).description)
                    }
                    return
                }
                if blank != 0 {
                    // A read of any subject stops here: nothing after it is looked at.
                    f.issues.append((n, InputError(.missingColumn, at: SourceLocation(file: path, line: blank), found: "", expected: "a window of \(windowLength) numbers (blank lines only at the end)"), true))
                    stopped = true
                    return
                }
                f.lines += 1
                let base = f.values.count
                f.values.append(contentsOf: repeatElement(0, count: windowLength))
                if let e = parseWindow(line, from: s, line: n, path: path, kind: kind, component: component, scale: scale, into: &f.values, at: base) {
                    f.issues.append((n, e, false))
                }
            }
        } catch {
            // A read failure is met by every subject that gets that far.
            f.issues.append((reached + 1, error, true))
        }
        f.blank = blank
        return f
    }

    /// Parses one line's 128 numbers into `out[base...]`; the error at the first bad one, else nil.
    static func parseWindow(_ line: UnsafeBufferPointer<UInt8>, from s: Int, line n: Int, path: String, kind: StreamKind, component: Int, scale: Double,
                            into out: inout [Double], at base: Int) -> InputError? {
        var i = s, count = 0
        while i < line.count {
            while i < line.count && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
            if i == line.count { break }
            var e = i
            while e < line.count && line[e] != 0x20 && line[e] != 0x09 { e += 1 }
            func text() -> String { String(decoding: UnsafeBufferPointer(rebasing: line[i..<e]), as: UTF8.self) }
            guard count < windowLength else {
                return InputError(.badValue, at: SourceLocation(file: path, line: n, column: i + 1), found: text(),
                                  expected: "the end of the line after \(windowLength) numbers (one window)")
            }
            guard let (v, end) = NumberParser.scan(line, i, e), end == e, v.isFinite else {
                return InputError(.badNumber, at: SourceLocation(file: path, line: n, column: i + 1), found: text(), expected: "a number (sample \(count + 1) of \(windowLength))")
            }
            let si = v * scale
            guard si.isFinite else { return ReadingRules.conversionError(at: SourceLocation(file: path, line: n, column: i + 1), found: text(), what: "value", unit: kind == .rotationRate ? "rad/s" : "m/s²") }
            guard ReadingRules.fits(si, kind, component) else {
                return ReadingRules.rangeError(at: SourceLocation(file: path, line: n, column: i + 1), found: text(), kind: kind, component: component, value: si)
            }
            out[base + count] = si
            count += 1
            i = e
        }
        if count < windowLength {
            return InputError(.missingColumn, at: SourceLocation(file: path, line: n, column: line.count + 1), found: "\(count) numbers",
                              expected: "\(windowLength) numbers (one window of 2.56 s at 50 Hz)")
        }
        return nil
    }

    /// The rows `wanted` (0-based window indices, increasing) of a signal file read whole, 128
    /// values each: `out[k * 128 + i]` for the k-th wanted window. Throws what a read of those
    /// rows alone meets first: a cut last line, a blank line before a window, a bad number in a
    /// wanted row, then another number of windows than `windowCount`.
    static func windows(_ f: SignalFile, wanted: [Int], windowCount: Int) throws(InputError) -> [Double] {
        let want = Set(wanted)
        if let first = f.issues.first(where: { $0.everyone || want.contains($0.line - 1) }) { throw first.error }
        if let notice = f.notice { InputNotices.post(notice.text) }
        if f.lines != windowCount {
            throw InputError(.missingColumn, at: SourceLocation(file: f.path, line: f.lines + (f.blank > 0 ? 1 : 0)), found: "\(f.lines) windows",
                             expected: "\(windowCount) windows, one per line of subject_*.txt")
        }
        var out = [Double](repeating: 0, count: wanted.count * windowLength)
        for (k, w) in wanted.enumerated() {
            for i in 0..<windowLength { out[k * windowLength + i] = f.values[w * windowLength + i] }
        }
        return out
    }

    /// Why a last line without a newline looks cut (nil: complete): fewer than 128 numbers, or a
    /// last number printed otherwise than the line's first (the files print every value in one
    /// format, so a cut inside the last one shows as fewer digits after the point or in the
    /// exponent).
    static func cutReason(_ line: UnsafeBufferPointer<UInt8>) -> (String, Int)? {
        var fields: [(Int, Int)] = []
        var i = 0
        while i < line.count {
            while i < line.count && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
            if i == line.count { break }
            var e = i
            while e < line.count && line[e] != 0x20 && line[e] != 0x09 { e += 1 }
            fields.append((i, e)); i = e
        }
        if fields.count < windowLength { return ("\(fields.count) numbers where a window has \(windowLength)", line.count + 1) }
        func shape(_ f: (Int, Int)) -> (Int, Int, Bool) {
            var point = -1, exp = -1
            for j in f.0..<f.1 {
                if line[j] == UInt8(ascii: ".") { point = j }
                if line[j] == UInt8(ascii: "e") || line[j] == UInt8(ascii: "E") { exp = j; break }
            }
            let end = exp >= 0 ? exp : f.1
            return (point >= 0 ? end - point - 1 : 0, exp >= 0 ? f.1 - exp : 0, NumberShape(line, f.0, f.1).endsOpen)
        }
        let first = shape(fields[0]), last = shape(fields[fields.count - 1])
        if last.2 || last.0 != first.0 || last.1 != first.1 {
            return ("its last number is printed otherwise than its first (cut inside it?)", fields[fields.count - 1].0 + 1)
        }
        return nil
    }

    /// A split folder read once: the subject and activity files, the activity names and every
    /// signal file, from which each subject's recording is cut (`recording(subject:)`) without
    /// reading the files again. Problems that concern only some windows (a bad number) are
    /// kept and reported by the reads of the subjects those windows belong to, so each
    /// subject's read reports exactly what reading the files for it alone reports.
    public struct Split: Sendable {
        /// The folder it was read from.
        public let folder: String
        /// `train` or `test`.
        public let name: String
        let subjects: [Int]
        let codes: [Int]
        let names: Result<[Int: String], InputError>
        /// Per signal (`signals` order, those present): the three axis files; or the error a
        /// read meets at that signal (an axis file missing).
        let signalFiles: [(kind: StreamKind, name: String, axes: Result<[SignalFile], InputError>)]
    }

    /// Reads the split folder's files once (see `Split`). Throws what every subject's read meets
    /// before its own windows: no split there, a bad `subject_S.txt` or `y_S.txt`, or the two of
    /// different lengths.
    public static func readSplit(folder: String) throws(InputError) -> Split {
        guard let s = split(of: folder) else { throw notASplit(folder) }
        let subjectPath = ReaderFiles.join(folder, "subject_\(s).txt"), yPath = ReaderFiles.join(folder, "y_\(s).txt")
        let subjects = try integers(path: subjectPath, what: "subject")
        let codes = try integers(path: yPath, what: "activity code")
        if codes.count != subjects.count {
            throw InputError(.missingColumn, at: SourceLocation(file: yPath), found: "\(codes.count) lines", expected: "\(subjects.count) lines, one per line of subject_\(s).txt")
        }
        let names: Result<[Int: String], InputError>
        do { names = .success(try activityNames(folder: folder)) } catch { names = .failure(error) }
        let dir = ReaderFiles.join(folder, "Inertial Signals")
        var files: [(kind: StreamKind, name: String, axes: Result<[SignalFile], InputError>)] = []
        for sig in signals {
            let paths = ["x", "y", "z"].map { ReaderFiles.join(dir, "\(sig.prefix)_\($0)_\(s).txt") }
            let present = paths.map(ReaderFiles.isFile)
            if !present.contains(true) && sig.prefix != "total_acc" { continue }
            if let missing = present.firstIndex(of: false) {
                files.append((sig.kind, sig.name, .failure(InputError(.unreadable, at: SourceLocation(file: paths[missing]), found: "no such file",
                    expected: sig.prefix == "total_acc" ? "total_acc x, y and z (the acceleration)" : "\(sig.prefix) x, y and z together"))))
                break  // a read stops at the first missing file
            }
            files.append((sig.kind, sig.name, .success(paths.enumerated().map { c, p in signalFile(path: p, kind: sig.kind, component: c, scale: sig.scale) })))
        }
        return Split(folder: folder, name: s, subjects: subjects, codes: codes, names: names, signalFiles: files)
    }

    /// Reads one subject's recording from a split folder (`train/` or `test/`).
    public static func read(folder: String, subject: String) throws(InputError) -> Recording {
        try readSplit(folder: folder).recording(subject: subject)
    }
}

extension UCIHARReader.Split {
    /// One subject's recording, cut from the split read once (`UCIHARReader.read(folder:subject:)`
    /// describes it); throws what reading the files for this subject alone throws.
    public func recording(subject: String) throws(InputError) -> Recording {
        typealias R = UCIHARReader
        let windowLength = R.windowLength, hop = R.hop, rateHz = R.rateHz
        let s = name
        let subjectPath = ReaderFiles.join(folder, "subject_\(s).txt"), yPath = ReaderFiles.join(folder, "y_\(s).txt")
        guard let number = Int(subject), subjects.contains(number) else {
            throw InputError(.badValue, at: SourceLocation(file: subjectPath), found: subject, expected: "a subject of the split (\(Set(subjects).sorted().prefix(5).map(String.init).joined(separator: ", ")), …)")
        }
        let names = try self.names.get()
        let wanted = subjects.indices.filter { subjects[$0] == number }
        for w in wanted where names[codes[w]] == nil {
            throw InputError(.badValue, at: SourceLocation(file: yPath, line: w + 1, column: 1), found: "\(codes[w])",
                             expected: "an activity code of activity_labels.txt (\(names.keys.sorted().map(String.init).joined(separator: ", ")))")
        }
        // Each signal's windows: [stream][axis] → values of the wanted windows.
        var read: [(kind: StreamKind, name: String, axes: [[Double]])] = []
        for sig in signalFiles {
            var axes: [[Double]] = []
            for f in try sig.axes.get() { axes.append(try R.windows(f, wanted: wanted, windowCount: subjects.count)) }
            read.append((sig.kind, sig.name, axes))
        }
        // Stretches: consecutive wanted windows whose overlapping halves agree in every signal.
        func continues(_ k: Int) -> Bool {
            guard wanted[k] == wanted[k - 1] + 1 else { return false }
            for r in read { for a in r.axes {
                let prev = (k - 1) * windowLength, cur = k * windowLength
                for i in 0..<hop where a[prev + hop + i] != a[cur + i] { return false }
            } }
            return true
        }
        var streams = read.map { SensorStream(kind: $0.kind, name: $0.name) }
        var labels: [LabelSegment] = []
        var events: [GroundTruthEvent] = []
        var t0 = 0.0
        var lastTime = -Double.infinity
        var k = 0
        let dt = 1 / rateHz
        func addLabel(_ name: String, _ start: Double, _ end: Double) {
            if let l = labels.last, l.label == name, abs(l.end - start) < dt / 2 { labels[labels.count - 1].end = end } else {
                labels.append(LabelSegment(start: start, end: end, label: name))
            }
        }
        while k < wanted.count {
            var e = k
            while e + 1 < wanted.count && continues(e + 1) { e += 1 }
            if k > 0 { t0 = lastTime + R.stretchGapSeconds }
            events.append(GroundTruthEvent(time: t0, kind: "stretch", detail: "line \(wanted[k] + 1)"))
            for w in k...e {
                let count = w == e ? windowLength : hop
                let first = (w - k) * hop
                let start = t0 + Double(first) / rateHz
                for i in 0..<count {
                    let t = t0 + Double(first + i) / rateHz
                    for (j, r) in read.enumerated() {
                        let o = w * windowLength + i
                        streams[j].append(time: t, Vector3(r.axes[0][o], r.axes[1][o], r.axes[2][o]))
                    }
                    lastTime = t
                }
                addLabel(names[codes[wanted[w]]] ?? "", start, t0 + Double(first + count) / rateHz)
            }
            k = e + 1
        }
        var extra: [String: String] = ["split": s, "windows": "\(wanted.count)"]
        extra["stretches"] = "\(events.count)"
        let md = RecordingMetadata(device: "Samsung Galaxy S II", placement: "waist", subject: subject, nominalRateHz: rateHz,
                                   source: "UCI HAR: \(ReaderFiles.lastComponent(folder))/Inertial Signals", extra: extra)
        return Recording(metadata: md, streams: streams, labels: labels, events: events)
    }
}
