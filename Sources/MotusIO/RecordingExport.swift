#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// The formats a recording is written in (`motus convert --out`), named by the output's
/// file extension.
public enum RecordingOutputFormat: String, Sendable, CaseIterable {
    /// Motus's native format (`.motus`; docs/FORMAT.md).
    case native = "motus"
    /// One CSV table, one row per sample, label, event or metadata field (`RecordingCSVWriter`).
    case csv
    /// JSON Lines: one JSON object per line (`RecordingJSONLinesWriter`).
    case jsonLines = "jsonl"

    /// The format an output path names by its extension (`.motus`, `.csv`, `.jsonl` or
    /// `.ndjson`, any case); nil for any other.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "motus": self = .native
        case "csv": self = .csv
        case "jsonl", "ndjson": self = .jsonLines
        default: return nil
        }
    }

    /// The extensions, as a message lists them.
    public static let extensionsText = ".motus (native), .csv or .jsonl"

    /// A writer of this format to `path` (`-`: standard output).
    public func writer(path: String) throws(NativeWriter.WriteError) -> any RecordingWriter {
        switch self {
        case .native: return path == "-" ? try NativeWriter(standardOutput: ()) : try NativeWriter(path: path)
        case .csv: return try RecordingCSVWriter(output: OutputBytes(path: path))
        case .jsonLines: return try RecordingJSONLinesWriter(output: OutputBytes(path: path))
        }
    }
}

/// A `RecordingSink` that writes a file: `close()` flushes and reports the first write error.
public protocol RecordingWriter: AnyObject, RecordingSink {
    /// Flushes what is buffered and closes the file (standard output stays open); throws the first
    /// write error, also one met by an earlier sink call.
    func close() throws(NativeWriter.WriteError)
}

extension NativeWriter: RecordingWriter {}

/// Writes a recording as one CSV table that pandas, R or a spreadsheet read as it is. The
/// header is always
///
/// `kind,stream,time_s,x,y,z,w,steps,distance_m,lat_deg,lon_deg,alt_m,speed_mps,course_deg,hacc_m,vacc_m,pressure_pa,end_s,text,detail`
///
/// and each row is one of:
/// - a sample: `kind` is the stream kind (`acc`, `gyro`, … as in the native format), `stream`
///   its name, `time_s` its time, and the kind's values in their columns, SI units: `x,y,z`
///   for `acc`, `uacc`, `grav` (m/s²), `gyro` (rad/s) and `mag` (µT); `w,x,y,z` for `att`;
///   `steps,distance_m` for `steps`; `lat_deg` … `vacc_m` for `loc`; `pressure_pa` for `baro`;
/// - `label`: `time_s` the start, `end_s` the end, `text` the label;
/// - `event`: `time_s`, `text` the event kind, `detail` its detail;
/// - `meta`: `text` the key (as the native format's `@meta` names it), `detail` the value.
///
/// Columns a row does not use are empty, as are values not reported. Numbers are written in
/// the shortest form that reads back to the same double; text in double quotes when it holds
/// a comma, quote or line break (quotes doubled).
public final class RecordingCSVWriter: RecordingWriter {
    /// The header line every file starts with (without its newline).
    public static let header = "kind,stream,time_s,x,y,z,w,steps,distance_m,lat_deg,lon_deg,alt_m,speed_mps,course_deg,hacc_m,vacc_m,pressure_pa,end_s,text,detail"
    /// Value columns after `time_s`, by name, in header order.
    static let valueColumns = ["x", "y", "z", "w", "steps", "distance_m", "lat_deg", "lon_deg", "alt_m", "speed_mps", "course_deg", "hacc_m", "vacc_m", "pressure_pa"]

    let out: OutputBytes
    /// Per stream: the start of its sample rows, `kind,stream,` (made once, at `declare`).
    var prefixes: [String] = []
    /// Per kind: the value column (index into `valueColumns`) of each of its components.
    static func slots(_ kind: StreamKind) -> [Int] {
        switch kind {
        case .acceleration, .userAcceleration, .gravity, .rotationRate, .magneticField: [0, 1, 2]
        case .attitude: [3, 0, 1, 2]
        case .stepCounter: [4, 5]
        case .location: [6, 7, 8, 9, 10, 11, 12]
        case .pressure: [13]
        }
    }
    /// Per stream: for each value column, the component of its samples written there (−1: none).
    var componentByColumn: [[Int]] = []

    /// A writer to `output`; writes the header line at once (buffered). Declared throwing like
    /// the other writers' initialisers; it does not throw itself.
    public init(output: OutputBytes) throws(NativeWriter.WriteError) {
        out = output
        out.append(Self.header + "\n")
    }

    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        var q = "\""
        for ch in s { if ch == "\"" { q += "\"\"" } else { q.append(ch) } }
        return q + "\""
    }

    /// A row of only `kind`, `time_s`, `end_s`, `text` and `detail`.
    func textRow(kind: String, time: Double?, end: Double?, text: String, detail: String) {
        out.append(kind + ",,")
        if let time { out.append(number: time) }
        out.append(String(repeating: ",", count: Self.valueColumns.count + 1))
        if let end { out.append(number: end) }
        out.append("," + Self.field(text) + "," + Self.field(detail) + "\n")
        out.flushIfFull()
    }

    /// Writes one `meta` row per metadata field that is set (`RecordingMetadata.fields`).
    public func metadata(_ m: RecordingMetadata) {
        for (key, value) in m.fields { textRow(kind: "meta", time: nil, end: nil, text: key, detail: value) }
    }

    /// Notes the stream's name and kind; writes nothing (every sample row names both).
    public func declare(stream index: Int, name: String, kind: StreamKind) {
        while prefixes.count <= index { prefixes.append(""); componentByColumn.append([]) }
        prefixes[index] = kind.rawValue + "," + Self.field(name) + ","
        var columns = [Int](repeating: -1, count: Self.valueColumns.count)
        for (c, slot) in Self.slots(kind).enumerated() { columns[slot] = c }
        componentByColumn[index] = columns
    }

    /// Writes one sample row: kind, stream, `time_s` (s) and the values (SI) in their kind's
    /// columns; a NaN value is an empty cell.
    public func sample(stream index: Int, time: Seconds, values: UnsafeBufferPointer<Double>) {
        let prefix = prefixes[index], columns = componentByColumn[index]
        out.appendLine { b in
            b.append(contentsOf: prefix.utf8)
            OutputBytes.append(number: time, to: &b)
            for c in columns {
                b.append(UInt8(ascii: ","))
                if c >= 0 && c < values.count { OutputBytes.append(value: values[c], to: &b) }
            }
            b.append(contentsOf: ",,,\n".utf8)
        }
    }

    /// Writes a `label` row: `time_s` the start, `end_s` the end (s), `text` the label.
    public func label(_ l: LabelSegment) { textRow(kind: "label", time: l.start, end: l.end, text: l.label, detail: "") }
    /// Writes an `event` row: `time_s` (s), `text` the kind, `detail` the detail.
    public func event(_ e: GroundTruthEvent) { textRow(kind: "event", time: e.time, end: nil, text: e.kind, detail: e.detail) }
    /// Flushes and closes the output; throws the first write error.
    public func close() throws(NativeWriter.WriteError) { try out.close() }
}

/// Writes a recording as JSON Lines, one object per line, in the order the reader gives them:
///
/// ```
/// {"type":"meta","key":"device","value":"iPhone 7"}
/// {"type":"stream","stream":"acc","kind":"acc","columns":["x_mps2","y_mps2","z_mps2"]}
/// {"type":"sample","stream":"acc","t":0.01,"v":[0.1,0.2,9.8]}
/// {"type":"label","start":0,"end":4.5,"label":"walk"}
/// {"type":"event","t":1.25,"kind":"step","detail":"left"}
/// ```
///
/// Values are SI, in the kind's column order (docs/FORMAT.md); a value not reported is
/// `null`. Numbers are the shortest form that reads back to the same double; metadata values
/// are strings (numbers for `height_m`, `weight_kg`, `age`, `nominal_rate_hz`).
public final class RecordingJSONLinesWriter: RecordingWriter {
    let out: OutputBytes
    var prefixes: [String] = []

    /// A writer to `output`; writes nothing until the first record. Declared throwing like the
    /// CSV writer's initialiser; it does not throw itself.
    public init(output: OutputBytes) throws(NativeWriter.WriteError) { out = output }

    /// `s` as a JSON string literal: quoted, with `"`, `\`, line breaks, tab and the other control
    /// characters escaped.
    public static func string(_ s: String) -> String {
        var o = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case "\n": o += "\\n"
            case "\r": o += "\\r"
            case "\t": o += "\\t"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    o += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else { o.unicodeScalars.append(u) }
            }
        }
        return o + "\""
    }

    func number(_ v: Double) { out.append(value: v, absent: "null", finiteOnly: true) }

    /// Writes one `{"type":"meta","key":…,"value":…}` line per field that is set; the values of
    /// `height_m`, `weight_kg`, `age` and `nominal_rate_hz` as numbers, the others as strings.
    public func metadata(_ m: RecordingMetadata) {
        for (key, value) in m.fields {
            out.append("{\"type\":\"meta\",\"key\":" + Self.string(key) + ",\"value\":")
            if RecordingMetadata.numericKeys.contains(key), let v = Double(value), v.isFinite { number(v) } else { out.append(Self.string(value)) }
            out.append("}\n")
        }
    }

    /// Writes the `{"type":"stream",…}` line with the kind's column names (`x_mps2` …).
    public func declare(stream index: Int, name: String, kind: StreamKind) {
        while prefixes.count <= index { prefixes.append("") }
        prefixes[index] = "{\"type\":\"sample\",\"stream\":" + Self.string(name) + ",\"t\":"
        out.append("{\"type\":\"stream\",\"stream\":" + Self.string(name) + ",\"kind\":\"" + kind.rawValue + "\",\"columns\":["
                   + kind.columns.map { "\"" + $0 + "\"" }.joined(separator: ",") + "]}\n")
    }

    /// Writes one `{"type":"sample","stream":…,"t":…,"v":[…]}` line: time in s, values in SI units;
    /// a value that is NaN or infinite is `null`.
    public func sample(stream index: Int, time: Seconds, values: UnsafeBufferPointer<Double>) {
        let prefix = prefixes[index]
        func number(_ v: Double, _ b: inout [UInt8]) { OutputBytes.append(value: v, absent: "null", finiteOnly: true, to: &b) }
        out.appendLine { b in
            b.append(contentsOf: prefix.utf8)
            number(time, &b)
            b.append(contentsOf: ",\"v\":[".utf8)
            for (i, v) in values.enumerated() {
                if i > 0 { b.append(UInt8(ascii: ",")) }
                number(v, &b)
            }
            b.append(contentsOf: "]}\n".utf8)
        }
    }

    /// Writes a `{"type":"label","start":…,"end":…,"label":…}` line (times in s).
    public func label(_ l: LabelSegment) {
        out.append("{\"type\":\"label\",\"start\":"); number(l.start)
        out.append(",\"end\":"); number(l.end)
        out.append(",\"label\":" + Self.string(l.label) + "}\n")
    }

    /// Writes an `{"type":"event","t":…,"kind":…,"detail":…}` line (time in s).
    public func event(_ e: GroundTruthEvent) {
        out.append("{\"type\":\"event\",\"t\":"); number(e.time)
        out.append(",\"kind\":" + Self.string(e.kind) + ",\"detail\":" + Self.string(e.detail) + "}\n")
    }

    /// Flushes and closes the output; throws the first write error.
    public func close() throws(NativeWriter.WriteError) { try out.close() }
}

/// The metadata as key–value text, in the order and with the keys of the native format's
/// `@meta` lines (what the CSV and JSON Lines writers write).
extension RecordingMetadata {
    /// Every field that is set, as the native format's `@meta` lines name them (`x.NAME` for
    /// the extra keys), in that order; numbers in their shortest round-trip form.
    public var fields: [(key: String, value: String)] {
        var out: [(String, String)] = []
        func text(_ k: String, _ v: String?) { if let v { out.append((k, v)) } }
        func num(_ k: String, _ v: Double?) { if let v { out.append((k, v.description)) } }
        text("device", device); text("placement", placement); text("subject", subject)
        num("height_m", heightMeters); num("weight_kg", weightKg); num("age", age)
        text("gender", gender); num("nominal_rate_hz", nominalRateHz); text("source", source)
        for k in extra.keys.sorted() { out.append(("x." + k, extra[k]!)) }
        return out
    }
}
