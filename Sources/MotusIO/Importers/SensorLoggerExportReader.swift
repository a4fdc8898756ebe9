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
        let names = ReaderFiles.list(folder).map { $0.lowercased() }
        return names.contains("metadata.csv") || names.contains("accelerometer.csv") && names.contains("gyroscope.csv")
            || names.contains("accelerometer.json")
    }

    public static func read(folder: String, label: String? = nil) throws(InputError) -> Recording {
        let names = ReaderFiles.list(folder)
        var meta = RecordingMetadata(source: "Sensor Logger export " + (folder.split(separator: "/").last.map(String.init) ?? folder))
        var coreMotionSign = false
        if let m = names.first(where: { $0.lowercased() == "metadata.csv" }) {
            let rows = try csvRows(folder + "/" + m)
            if let row = rows.first {
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
            let isJSON = file.lowercased().hasSuffix(".json")
            let rows: [[String: String]], places: [SourceLocation]
            if isJSON { (rows, places) = try jsonRows(path) } else {
                rows = try csvRows(path)
                places = rows.indices.map { SourceLocation(file: path, line: $0 + 2) }
            }
            var started = false
            var batch = SampleBatch()
            for (k, row) in rows.enumerated() {
                let place = places[k]
                if !started, let e = row["seconds_elapsed"].flatMap(Double.init), e < 0 { continue }
                started = true
                guard let time = row["time"] else {
                    throw InputError(.missingColumn, at: place, found: "", expected: "a 'time' value (epoch ns)")
                }
                // The same conversion as a live reading; the export writes every value as text.
                let o: ParseOutcome
                if let t = SensorLoggerParser.seconds(epochNanoseconds: Int64(time), orNumber: ReaderJSON.numberInText(time)) {
                    o = SensorLoggerParser.sample(name: sensor, time: t, coreMotionSign: coreMotionSign, into: &batch) { row[$0].flatMap(ReaderJSON.numberInText) }
                } else {
                    o = .bad("\(sensor): 'time' is not epoch nanoseconds")
                }
                if o.malformed > 0 {
                    // One line: the row's own values as found, the parser's reason (without its
                    // sensor prefix) as what was expected.
                    var reason = o.warning ?? "a valid row"
                    if reason.hasPrefix(sensor + ": ") { reason = String(reason.dropFirst(sensor.count + 2)) }
                    let shown = row.keys.sorted().filter { $0 != "seconds_elapsed" }.map { "\($0)=\(row[$0] ?? "")" }.joined(separator: " ")
                    throw InputError(.badValue, at: place, found: shown, expected: "a Sensor Logger \(sensor) \(isJSON ? "reading" : "row") (\(reason))")
                }
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

    /// Rows of a small CSV file as header → text (quotes stripped).
    static func csvRows(_ path: String) throws(InputError) -> [[String: String]] {
        let bytes = try LineReader.readAll(path: path)
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [] }
        func fields(_ l: String) -> [String] {
            l.split(separator: ",", omittingEmptySubsequences: false).map {
                var s = String($0).trimmingSpaces()
                if s.hasPrefix("\""), s.hasSuffix("\""), s.count >= 2 { s = String(s.dropFirst().dropLast()) }
                return s
            }
        }
        let header = fields(lines.removeFirst())
        return lines.map { l in
            var row: [String: String] = [:]
            for (k, v) in zip(header, fields(l)) where !v.isEmpty { row[k.lowercased() == "time" ? "time" : k] = v }
            if let m = row.first(where: { $0.key.lowercased() == "seconds_elapsed" }) { row["seconds_elapsed"] = m.value }
            return row
        }
    }

    /// Rows of a JSON export: an array of flat objects (values usually strings; numbers are
    /// kept as the text of their exact value).
    /// Each row comes with the place of its object, for errors.
    static func jsonRows(_ path: String) throws(InputError) -> (rows: [[String: String]], places: [SourceLocation]) {
        let doc = try ReaderJSONDocument(path: path)
        let arr = try doc.array(doc.root, context: "a Sensor Logger export: one object per reading")
        var out: [[String: String]] = []
        var places: [SourceLocation] = []
        for item in arr {
            guard let members = item.members else {
                throw InputError(.badValue, at: doc.location(item), found: doc.snippet(item), expected: "an object per reading (a Sensor Logger export)")
            }
            var row: [String: String] = [:]
            for (k, val) in members {
                switch val.value {
                case .string(let s): row[k] = s
                case .number(let d, let i): row[k] = i.map { "\($0)" } ?? "\(d)"
                default: continue
                }
            }
            out.append(row)
            places.append(doc.location(item))
        }
        return (out, places)
    }
}
