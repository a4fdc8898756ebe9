import MotusCore

/// Reads one walk of the Oxford step-counter dataset (Salvi et al., EMBC 2018): a folder
/// `<Phone>_<Person>_<Surface>_<Position>_<N>/` with
/// - `accelerometer.csv`: no header, CRLF, `timestamp_ns, accuracy, x, y, z`; Android
///   `TYPE_ACCELEROMETER` in m/s² with gravity (already Motus' convention). Becomes stream
///   `acc` with times in **seconds since phone boot** (the source's clock, not shifted). Every
///   row is kept: repeated rows (same x, y, z as the row before, frequent on the irregular
///   Samsung/MPU6500) and repeated timestamps are counted in `metadata.extra`
///   (`repeated_values`, `repeated_timestamps`) and left for the resampler. A timestamp that
///   goes backwards is an error (`.timeBackwards`).
/// - `stepcounter.csv`: `timestamp_ns, right, left` foot-switch states (1 = pad pressed). The
///   ground truth is one `GroundTruthEvent(kind: "step", detail: "right"/"left")` at every
///   0→1 change of either column (the first row only sets the state), which is the rule that
///   produced `optimisation/stats.csv`. Same clock as the accelerometer.
/// - `metadata.txt` (`accelerometer : <sensor>`) and `notes.txt` when present go to `extra`.
///
/// Metadata from the folder name: device (phone), subject (person), placement normalised
/// (`InHand` → "hand", `Armband`/`ArmBand` → "armband", `BackPocket`/`Backpocket` →
/// "back-pocket", `FrontPocket` → "front-pocket", `NeckPouch` → "neck-pouch", `Purse` → "bag",
/// `SwingingArm` → "swinging-arm"), `extra["surface"]`, `extra["position"]` (as written),
/// `extra["repeat"]`. No nominal rate (the phones logged as fast as they could).
public enum OxfordReader {
    /// Parts of a walk folder name.
    public struct WalkName: Sendable, Hashable {
        /// The phone model, as written (`Pixel`, `Samsung` …).
        public var phone: String
        /// The person who walked (the subject).
        public var person: String
        /// The surface walked on, as written (`Hard`, `Soft` …).
        public var surface: String
        /// Where the phone was carried, as written (`FrontPocket`, `InHand` …).
        public var position: String
        /// The repeat's number, as written (`1`, `2` …).
        public var repeatNumber: String
        /// Motus placement vocabulary for `position`.
        public var placement: String { OxfordReader.placement(position) }
    }

    /// Splits `<Phone>_<Person>_<Surface>_<Position>_<N>`; nil when the name has not five parts.
    public static func parseName(_ folderName: String) -> WalkName? {
        let p = folderName.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard p.count == 5, p.allSatisfy({ !$0.isEmpty }) else { return nil }
        return WalkName(phone: p[0], person: p[1], surface: p[2], position: p[3], repeatNumber: p[4])
    }

    /// Normalises the dataset's position names (spelling varies) to Motus placements.
    public static func placement(_ position: String) -> String {
        switch position.lowercased() {
        case "inhand": "hand"
        case "armband": "armband"
        case "backpocket": "back-pocket"
        case "frontpocket": "front-pocket"
        case "neckpouch": "neck-pouch"
        case "purse": "bag"
        case "swingingarm": "swinging-arm"
        default: position.lowercased()
        }
    }

    /// Reads the walk in `folder`.
    public static func read(folder: String) throws(InputError) -> Recording {
        let accPath = ReaderFiles.join(folder, "accelerometer.csv")
        let stepPath = ReaderFiles.join(folder, "stepcounter.csv")
        guard ReaderFiles.isDirectory(folder) else {
            throw InputError(.unreadable, at: SourceLocation(file: folder), found: ReaderFiles.isFile(folder) ? "a file" : "nothing",
                             expected: "an Oxford walk folder holding accelerometer.csv and stepcounter.csv")
        }
        // Accelerometer.
        let acc = try TableScanner.readRows(path: accPath, delimiter: UInt8(ascii: ","), firstDataLine: 1, fieldCount: 5,
                                            columns: [0, 2, 3, 4], names: ["timestamp_ns", "x", "y", "z"],
                                            what: "Oxford accelerometer: timestamp_ns, accuracy, x, y, z",
                                            timeColumn: 0, timeScale: 1e-9,
                                            limits: [nil, (.acceleration, 0), (.acceleration, 1), (.acceleration, 2)])
        let n = acc.count
        var times = [Double](); times.reserveCapacity(n)
        var values = [Double](); values.reserveCapacity(3 * n)
        var repeatedValues = 0, repeatedTimes = 0
        for i in 0..<n {
            let t = acc.value(i, 0) / 1e9
            let x = acc.value(i, 1), y = acc.value(i, 2), z = acc.value(i, 3)
            if i > 0 {
                let pt = times[i - 1]
                if t < pt {
                    throw InputError(.timeBackwards, at: acc.location(row: i, column: 1), found: "\(acc.value(i, 0))",
                                     expected: "a timestamp ≥ \(acc.value(i - 1, 0)) (the row before)")
                }
                if t == pt { repeatedTimes += 1 }
                let b = 3 * (i - 1)
                if x == values[b] && y == values[b + 1] && z == values[b + 2] { repeatedValues += 1 }
            }
            times.append(t)
            values.append(x); values.append(y); values.append(z)
        }
        let accStream = SensorStream(kind: .acceleration, times: times, values: values)

        // Foot switches.
        let sw = try TableScanner.readRows(path: stepPath, delimiter: UInt8(ascii: ","), firstDataLine: 1, fieldCount: 3,
                                           columns: [0, 1, 2], names: ["timestamp_ns", "right", "left"],
                                           what: "Oxford foot switches: timestamp_ns, right, left",
                                           timeColumn: 0, timeScale: 1e-9)
        var events: [GroundTruthEvent] = []
        var prevR = 0.0, prevL = 0.0, prevT = -Double.infinity
        var right = 0, left = 0
        for i in 0..<sw.count {
            let t = sw.value(i, 0) / 1e9, r = sw.value(i, 1), l = sw.value(i, 2)
            if (r != 0 && r != 1) || (l != 0 && l != 1) {
                let c = (r != 0 && r != 1) ? 2 : 3
                throw InputError(.badValue, at: sw.location(row: i, column: 0), found: "\(c == 2 ? r : l) in field \(c)",
                                 expected: "a foot-switch state 0 or 1")
            }
            if t < prevT {
                throw InputError(.timeBackwards, at: sw.location(row: i, column: 1), found: "\(sw.value(i, 0))",
                                 expected: "a timestamp ≥ \(sw.value(i - 1, 0)) (the row before)")
            }
            if i > 0 {
                if prevR == 0 && r == 1 { events.append(GroundTruthEvent(time: t, kind: "step", detail: "right")); right += 1 }
                if prevL == 0 && l == 1 { events.append(GroundTruthEvent(time: t, kind: "step", detail: "left")); left += 1 }
            }
            prevR = r; prevL = l; prevT = t
        }

        var md = RecordingMetadata()
        let folderName = ReaderFiles.lastComponent(folder)
        if let w = parseName(folderName) {
            md.device = w.phone
            md.subject = w.person
            md.placement = w.placement
            md.extra["surface"] = w.surface.lowercased()
            md.extra["position"] = w.position
            md.extra["repeat"] = w.repeatNumber
        }
        md.source = "Oxford step counter optimisation/data/\(folderName)"
        md.extra["time"] = "seconds since phone boot (Android SensorEvent.timestamp / 1e9)"
        md.extra["repeated_values"] = "\(repeatedValues)"
        md.extra["repeated_timestamps"] = "\(repeatedTimes)"
        md.extra["steps_right"] = "\(right)"
        md.extra["steps_left"] = "\(left)"
        md.extra["foot_switch_rows"] = "\(sw.count)"
        if sw.count > 0 {
            md.extra["foot_switch_start_s"] = "\(sw.value(0, 0) / 1e9)"
            md.extra["foot_switch_end_s"] = "\(sw.value(sw.count - 1, 0) / 1e9)"
        }
        let metaPath = ReaderFiles.join(folder, "metadata.txt")
        if ReaderFiles.isFile(metaPath), let line = try TableScanner.head(path: metaPath, lines: 1).first,
           let colon = line.firstIndex(of: ":") {
            md.extra["sensor"] = line[line.index(after: colon)...].readerTrimmed
        }
        let notesPath = ReaderFiles.join(folder, "notes.txt")
        if ReaderFiles.isFile(notesPath) {
            let notes = try TableScanner.head(path: notesPath, lines: 50).joined(separator: " ").readerTrimmed
            if !notes.isEmpty { md.extra["notes"] = notes }
        }
        return Recording(metadata: md, streams: [accStream], labels: [], events: events)
    }

    /// Reads `optimisation/stats.csv` (`#dir, user, phone, position, surface, duration(s), steps`,
    /// separator ", "): walk folder name → ground-truth step total.
    public static func statsTable(path: String) throws(InputError) -> [String: Int] {
        let lines = try TableScanner.head(path: path, lines: 100_000)
        guard let header = lines.first, header.hasPrefix("#dir") else {
            throw InputError(.badHeader, at: SourceLocation(file: path, line: 1, column: 1), found: lines.first ?? "",
                             expected: "'#dir, user, phone, position, surface, duration(s), steps'")
        }
        var out: [String: Int] = [:]
        for (k, line) in lines.enumerated().dropFirst() where !line.readerTrimmed.isEmpty {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.readerTrimmed }
            guard f.count == 7 else {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: k + 1, column: 0), found: "\(f.count) fields", expected: "7 fields")
            }
            guard let steps = Int(f[6]) else {
                throw InputError(.badNumber, at: SourceLocation(file: path, line: k + 1, column: 0), found: f[6], expected: "a whole step count")
            }
            out[f[0]] = steps
        }
        return out
    }
}
