import Foundation
import MotusCore
import MotusIO

/// MotionDataCollector CSV files (the data behind Boost Run Club's classifier; see
/// `datasets/apps/motiondatacollector/README.md`): CMDeviceMotion polled by a 0.1 s timer,
/// header `,attitude.roll,…,userAcceleration.z`, no time column, label = the folder name.
///
/// Read with the delimited reader (CoreMotion names: g → m/s² with CoreMotion's sign flipped,
/// attitude from roll/pitch/yaw). Time is synthesised: row i at i/rate s (nominal 10 Hz; the
/// true times are lost, so this is approximate). The first row is dropped: it is polled
/// before the first motion update and is stale.
public enum MotionDataCollectorReader {
    public static let nominalRateHz = 10.0

    public static func read(path: String, label: String?, rateHz: Double = nominalRateHz) throws(InputError) -> Recording {
        var o = DelimitedOptions()
        o.rateHz = rateHz
        var r = try DelimitedReader(path: path, options: o).read()
        guard let n = r.streams.first?.count, n >= 2 else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "\(r.streams.first?.count ?? 0) rows", expected: "at least two data rows")
        }
        for i in r.streams.indices {
            let s = r.streams[i]
            r.streams[i].replace(times: Array(s.times.dropFirst()), values: Array(s.values.dropFirst(s.width)))
        }
        r.metadata = RecordingMetadata(device: "iPhone (MotionDataCollector)", nominalRateHz: rateHz,
                                       source: "MotionDataCollector " + (label.map { $0 + "/" } ?? "") + (path.split(separator: "/").last.map(String.init) ?? path),
                                       extra: ["time": "synthesised from the row index at \(rateHz) Hz (no time column; approximate)",
                                               "dropped": "first row (stale poll before the first motion update)"])
        if let label, let range = r.timeRange {
            r.labels = [LabelSegment(start: range.lowerBound, end: range.upperBound + 1 / rateHz, label: label)]
        }
        return r
    }
}

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
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { $0.lowercased() }
        return names.contains("metadata.csv") || names.contains("accelerometer.csv") && names.contains("gyroscope.csv")
            || names.contains("accelerometer.json")
    }

    public static func read(folder: String, label: String? = nil) throws(InputError) -> Recording {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
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
            let rows = file.lowercased().hasSuffix(".json") ? try jsonRows(path) : try csvRows(path)
            var started = false
            var line = 1
            var batch = SampleBatch()
            for row in rows {
                line += 1
                if !started, let e = row["seconds_elapsed"].flatMap(Double.init), e < 0 { continue }
                started = true
                guard let time = row["time"] else {
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: "", expected: "a 'time' value (epoch ns)")
                }
                var values: [(String, JSONValue)] = []
                for (k, v) in row where k != "time" && k != "seconds_elapsed" && k != "sensor" { values.append((k, .string(v))) }
                let reading = JSONValue.object([("name", .string(sensor)), ("time", .string(time)), ("values", .object(values))])
                let o = SensorLoggerParser.reading(reading, coreMotionSign: coreMotionSign, into: &batch)
                if o.malformed > 0 {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: line), found: o.warning ?? "", expected: "a Sensor Logger \(sensor) row")
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
                var s = $0.trimmingCharacters(in: .whitespaces)
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

    /// Rows of a JSON export: an array of flat objects (values usually strings).
    static func jsonRows(_ path: String) throws(InputError) -> [[String: String]] {
        let bytes = try LineReader.readAll(path: path)
        let v: JSONValue
        do { v = try JSONLite.parse(bytes) } catch {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "\(error)", expected: "a JSON array of readings")
        }
        guard let arr = v.array else { throw InputError(.badValue, at: SourceLocation(file: path), found: "not an array", expected: "a JSON array of readings") }
        var out: [[String: String]] = []
        for item in arr {
            guard case .object(let members) = item else { continue }
            var row: [String: String] = [:]
            for (k, val) in members {
                switch val {
                case .string(let s): row[k] = s
                case .number(let d, let i): row[k] = i.map { "\($0)" } ?? "\(d)"
                default: continue
                }
            }
            out.append(row)
        }
        return out
    }
}

/// `motus import`: whole datasets to native recordings, one `.motus` file per recording.
public enum DatasetImporter {
    public enum Format: String, Sendable, CaseIterable {
        case motionsense, oxford, ipol, mpower, motiondatacollector, sensorlogger
    }

    public struct Report: Sendable {
        public var written: [String] = []
        public var samples = 0
        public var labels = 0
    }

    /// Converts every recording under `source` into `out/<id>.motus` (folders in the id become
    /// `-`). `rateHz` is MotionDataCollector's rate. `progress` is told each file written.
    public static func run(source: String, format: Format, out: String, rateHz: Double? = nil,
                           progress: (String, Recording) -> Void = { _, _ in }) throws -> Report {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var report = Report()
        func write(_ id: String, _ r: Recording) throws {
            var safe = id.replacingOccurrences(of: "/", with: "-")
            if safe.hasSuffix(".csv") || safe.hasSuffix(".txt") || safe.hasSuffix(".json") { safe = String(safe[..<safe.lastIndex(of: ".")!]) }
            let path = out + "/" + safe + ".motus"
            try NativeWriter.write(r, to: path)
            report.written.append(path)
            report.samples += r.streams.reduce(0) { $0 + $1.count }
            report.labels += r.labels.count
            progress(path, r)
        }
        switch format {
        case .motionsense, .oxford, .ipol, .mpower:
            let ds = try DatasetFormat(rawValue: format.rawValue)!.openDataset(root: source)
            for e in ds.entries {
                var r = try ds.load(e.id)
                if r.metadata.subject == nil { r.metadata.subject = e.subject }
                if r.labels.isEmpty, let l = e.label, let range = r.timeRange {
                    r.labels = [LabelSegment(start: range.lowerBound, end: range.upperBound, label: l)]
                }
                try write(e.id, r)
            }
        case .motiondatacollector:
            // SOURCE/<label>/<file>.csv, or one labelled folder, or one file.
            let files = try csvFiles(source)
            guard !files.isEmpty else {
                throw InputError(.emptyFile, at: SourceLocation(file: source), found: "no .csv files", expected: "MotionDataCollector CSV files in label folders")
            }
            for (rel, label) in files {
                let r = try MotionDataCollectorReader.read(path: source.hasSuffix(".csv") ? source : source + "/" + rel, label: label,
                                                           rateHz: rateHz ?? MotionDataCollectorReader.nominalRateHz)
                try write(rel, r)
            }
        case .sensorlogger:
            var folders: [String] = []
            if SensorLoggerExportReader.isExport(source) { folders = [""] } else {
                for n in (try? FileManager.default.contentsOfDirectory(atPath: source).sorted()) ?? [] where SensorLoggerExportReader.isExport(source + "/" + n) {
                    folders.append(n)
                }
            }
            guard !folders.isEmpty else {
                throw InputError(.emptyFile, at: SourceLocation(file: source), found: "no Sensor Logger export", expected: "a folder with Accelerometer.csv, Gyroscope.csv, Metadata.csv …")
            }
            for f in folders {
                let path = f.isEmpty ? source : source + "/" + f
                try write(f.isEmpty ? (source.split(separator: "/").last.map(String.init) ?? "export") : f, try SensorLoggerExportReader.read(folder: path))
            }
        }
        return report
    }

    /// (relative path, label from the parent folder) of the CSV files under `root`.
    static func csvFiles(_ root: String) throws -> [(String, String?)] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir) else {
            throw InputError(.unreadable, at: SourceLocation(file: root), found: "nothing there", expected: "a folder or a .csv file")
        }
        if !isDir.boolValue {
            let parent = root.split(separator: "/").dropLast().last.map(String.init)
            return [(root.split(separator: "/").last.map(String.init) ?? root, parent)]
        }
        var out: [(String, String?)] = []
        let rootLabel = root.split(separator: "/").last.map(String.init)
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where !name.hasPrefix(".") {
            let p = root + "/" + name
            var d: ObjCBool = false
            FileManager.default.fileExists(atPath: p, isDirectory: &d)
            if d.boolValue {
                for f in try FileManager.default.contentsOfDirectory(atPath: p).sorted() where f.lowercased().hasSuffix(".csv") {
                    out.append((name + "/" + f, name))
                }
            } else if name.lowercased().hasSuffix(".csv") {
                out.append((name, rootLabel))
            }
        }
        return out
    }
}
