import MotusCore

/// Sensor Logger exports: a folder (an unzipped export) with one file per sensor,
/// `Accelerometer.csv` (header `time,seconds_elapsed,z,y,x`), `Gravity`, `Gyroscope`,
/// `Magnetometer`, `TotalAcceleration`, `Orientation` (`qz,qy,qx,qw,roll,pitch,yaw`),
/// `Location`, `Barometer`, `Pedometer`, each as `.csv` or as `.json` (an array of objects
/// whose values are strings), and `Metadata.csv`.
///
/// Columns are read by header name (the app has added columns over time). Values go through
/// the same conversion as the live push (`SensorLoggerParser.reading`): time = `time` (UTC
/// epoch ns → s), accelerometer = user acceleration. iOS exports without standardisation
/// (`Metadata.csv`: `platform` ios, `standardisation` false) get acceleration and gravity
/// negated into Android's sign. Leading rows with a negative `seconds_elapsed` (buffered
/// before Start was tapped: stale) are dropped.
///
/// What is refused, so that an import never writes a recording that is not the export (nor
/// one `read` would refuse): a sensor file that is empty, holds only a header, or holds no
/// reading after the start (`.emptyFile` naming it); a row without a `time`; a `time` that is
/// not epoch nanoseconds a clock can give (a whole, non-negative number below 2⁶³ ns, i.e.
/// before 2262: `1e300` is an error at its row and column); any row the live parser would
/// refuse.
///
/// No real export was available to test with (the one found has no licence): the tests use
/// files built from the documented format.
public enum SensorLoggerExportReader {
    static let files: [(String, String)] = [
        ("accelerometer", "accelerometer"), ("totalacceleration", "totalacceleration"), ("gravity", "gravity"),
        ("gyroscope", "gyroscope"), ("magnetometer", "magnetometer"), ("orientation", "orientation"),
        ("location", "location"), ("barometer", "barometer"), ("pedometer", "pedometer"),
    ]

    /// True when `folder` looks like a Sensor Logger export.
    public static func isExport(_ folder: String) -> Bool {
        if PhyphoxExport.isExport(folder) { return false }   // phyphox also writes Accelerometer.csv
        let names = ReaderFiles.list(folder).map { $0.lowercased() }
        return names.contains("metadata.csv") || names.contains("accelerometer.csv") && names.contains("gyroscope.csv")
            || names.contains("accelerometer.json")
    }

    /// Reads the export in `folder` as one recording: a stream per sensor file, on Sensor Logger's
    /// clock (seconds since the Unix epoch), with the device, platform and standardisation from
    /// `Metadata.csv` in the metadata and, when `label` is given, one label segment over the whole
    /// recording. Throws `InputError` for what is refused (above): an empty sensor file, a row
    /// without a valid `time`, a reading the live parser would refuse, or a folder with no sensor
    /// file at all.
    public static func read(folder: String, label: String? = nil) throws(InputError) -> Recording {
        let names = ReaderFiles.list(folder)
        var meta = RecordingMetadata(source: "Sensor Logger export " + (folder.split(separator: "/").last.map(String.init) ?? folder))
        var coreMotionSign = false
        if let m = names.first(where: { $0.lowercased() == "metadata.csv" }) {
            let rows = try csvRows(folder + "/" + m)
            if let row = rows.rows.first?.values {
                let platform = row["platform"]?.lowercased()
                let std = row["standardisation"]?.lowercased()
                coreMotionSign = platform == "ios" && !(std == "true" || std == "1")
                meta.device = row["device name"] ?? row["devicename"] ?? row["device"]
                if let p = platform { meta.extra["platform"] = p }
                if let s = std { meta.extra["standardisation"] = s }
                if coreMotionSign { meta.extra["sign"] = "iOS without standardisation: acceleration and gravity negated into Android's sign" }
            }
        }
        var builder = RecordingBuilder()
        var declared: [StreamKind: Int] = [:]
        var any = false
        for (stem, sensor) in files {
            guard let file = names.first(where: { $0.lowercased() == stem + ".csv" }) ?? names.first(where: { $0.lowercased() == stem + ".json" }) else { continue }
            let path = folder + "/" + file
            let rows = file.lowercased().hasSuffix(".json") ? try jsonRows(path) : try csvRows(path)
            var started = false
            var batch = SampleBatch()
            for row in rows.rows {
                if !started, let e = row.values["seconds_elapsed"].flatMap(Double.init), e < 0 { continue }
                started = true
                guard let time = row.values["time"] else {
                    throw InputError(.missingColumn, at: row.location, found: "", expected: "a 'time' value (epoch ns)")
                }
                guard let t = epochSeconds(time) else {
                    throw InputError(.badValue, at: row.locations["time"] ?? row.location, found: time,
                                     expected: "a 'time' in epoch nanoseconds (a whole number from 0 to 9223372036854775807)")
                }
                // The same conversion as a live reading; the export writes every value as text.
                let o = SensorLoggerParser.sample(name: sensor, time: t, coreMotionSign: coreMotionSign, into: &batch) { row.values[$0].flatMap(ReaderJSON.numberInText) }
                if o.malformed > 0 {
                    // One line: the row's own values as found, the parser's reason (without its
                    // sensor prefix) as what was expected.
                    var reason = o.warning ?? "a valid row"
                    if reason.hasPrefix(sensor + ": ") { reason = String(reason.dropFirst(sensor.count + 2)) }
                    let shown = row.values.keys.sorted().filter { $0 != "seconds_elapsed" }.map { "\($0)=\(row.values[$0] ?? "")" }.joined(separator: " ")
                    let json = file.lowercased().hasSuffix(".json")
                    throw InputError(.badValue, at: row.location, found: shown, expected: "a Sensor Logger \(sensor) \(json ? "reading" : "row") (\(reason))")
                }
            }
            // A sensor file that gives nothing would make a recording without that sensor
            // look like a complete import.
            guard batch.count > 0 else {
                let json = file.lowercased().hasSuffix(".json")
                let found = !rows.rows.isEmpty ? "\(rows.rows.count) rows, all before the start (negative seconds_elapsed)"
                    : json ? "an empty array" : rows.hasHeader ? "a header and no rows" : "an empty file"
                throw InputError(.emptyFile, at: SourceLocation(file: path), found: found,
                                 expected: "Sensor Logger \(sensor) readings (time, seconds_elapsed and values under a header)")
            }
            for i in 0..<batch.count {
                let kind = batch.kinds[i]
                let si: Int
                if let s = declared[kind] { si = s } else {
                    si = declared.count; declared[kind] = si
                    builder.declare(stream: si, name: kind.rawValue, kind: kind)
                }
                Array(batch.values(of: i)).withUnsafeBufferPointer { builder.sample(stream: si, time: batch.times[i], values: $0) }
                any = true
            }
        }
        guard any else {
            throw InputError(.emptyFile, at: SourceLocation(file: folder), found: "no sensor files", expected: "Accelerometer.csv, Gyroscope.csv, … (a Sensor Logger export)")
        }
        var r = builder.recording
        r.metadata = meta
        if let label, let range = r.timeRange { r.labels = [LabelSegment(start: range.lowerBound, end: range.upperBound, label: label)] }
        return r
    }

    /// Epoch nanoseconds (as the export writes them: an integer, or a number with no
    /// fraction) in seconds; nil when the text is not a time a clock can give: negative, not
    /// whole, or beyond 2⁶³ − 1 ns.
    static func epochSeconds(_ text: String) -> Double? {
        if let ns = Int64(text) {
            return ns >= 0 ? SensorLoggerParser.seconds(epochNanoseconds: ns, orNumber: nil) : nil
        }
        guard let d = ReaderJSON.numberInText(text), d.isFinite, d >= 0, d < 9.223372036854775e18, d == d.rounded() else { return nil }
        return SensorLoggerParser.seconds(epochNanoseconds: Int64(d), orNumber: nil)
    }

    /// One row of an export file: its values by column name, where each value is, and where
    /// the row is (line, or the object's position in a JSON file).
    struct ExportRow {
        var values: [String: String]
        var locations: [String: SourceLocation]
        var location: SourceLocation
    }

    struct ExportRows {
        var rows: [ExportRow]
        /// False when the file had no line at all (not even a header).
        var hasHeader: Bool
    }

    /// Rows of a small CSV file as header → text (quotes stripped), each value with its line
    /// and column.
    static func csvRows(_ path: String) throws(InputError) -> ExportRows {
        let bytes = try LineReader.readAll(path: path)
        let text = String(decoding: bytes, as: UTF8.self)
        // Lines with their numbers (blank lines are not rows, but they are counted).
        var lines: [(Int, Substring)] = []
        for (k, l) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = l.hasSuffix("\r") ? l.dropLast() : l
            if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.append((k + 1, line)) }
        }
        guard !lines.isEmpty else { return ExportRows(rows: [], hasHeader: false) }
        /// The fields of a line with the 1-based byte column where each starts.
        func fields(_ l: Substring) -> [(String, Int)] {
            var out: [(String, Int)] = []
            var column = 1
            for f in l.split(separator: ",", omittingEmptySubsequences: false) {
                var s = String(f).trimmingSpaces()
                if s.hasPrefix("\""), s.hasSuffix("\""), s.count >= 2 { s = String(s.dropFirst().dropLast()) }
                out.append((s, column))
                column += f.utf8.count + 1
            }
            return out
        }
        let header = fields(lines.removeFirst().1).map { $0.0 }
        let rows = lines.map { (n, l) -> ExportRow in
            var row = ExportRow(values: [:], locations: [:], location: SourceLocation(file: path, line: n))
            for (k, (v, column)) in zip(header, fields(l)) where !v.isEmpty {
                let key = k.lowercased() == "time" ? "time" : k
                row.values[key] = v
                row.locations[key] = SourceLocation(file: path, line: n, column: column)
            }
            if let m = row.values.first(where: { $0.key.lowercased() == "seconds_elapsed" }) { row.values["seconds_elapsed"] = m.value }
            return row
        }
        return ExportRows(rows: rows, hasHeader: true)
    }

    /// Rows of a JSON export: an array of flat objects (values usually strings; numbers are
    /// kept as the text of their exact value), each value with its line and column.
    static func jsonRows(_ path: String) throws(InputError) -> ExportRows {
        let doc = try ReaderJSONDocument(path: path)
        let arr = try doc.array(doc.root, context: "a Sensor Logger export: one object per reading")
        var out: [ExportRow] = []
        for item in arr {
            guard let members = item.members else {
                throw InputError(.badValue, at: doc.location(item), found: doc.snippet(item), expected: "an object per reading (a Sensor Logger export)")
            }
            var row = ExportRow(values: [:], locations: [:], location: doc.location(item))
            for (k, val) in members {
                switch val.value {
                case .string(let s): row.values[k] = s
                case .number(let d, let i): row.values[k] = i.map { "\($0)" } ?? "\(d)"
                default: continue
                }
                row.locations[k] = doc.location(val)
            }
            out.append(row)
        }
        return ExportRows(rows: out, hasHeader: true)
    }
}
