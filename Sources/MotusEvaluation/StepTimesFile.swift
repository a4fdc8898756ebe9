import MotusCore
import MotusIO

/// Another detector's steps, to be judged as Motus judges its own (`evaluate-steps
/// --steps-from FILE`): a CSV file with the header `recording,time_s` and one row per step,
/// the recording's id as `evaluate-steps` names it and the step's time in seconds on the
/// recording's clock. A row with an empty time (`T1_ID3_1L_WC,`) says that the detector ran on
/// the recording and found no step there; a recording with no row at all was not run.
///
/// Read with the readers' own `LineCursor` and `FieldSplitter` (line ends, a byte-order mark,
/// quoted fields and unreadable files as every reader takes them). Every row is read or the
/// file is refused: a line without exactly two fields, an empty id, a time that is not a
/// finite number is an `InputError` with its line and column. Blank lines are not rows.
public enum StepTimesFile {
    /// The header the file must start with.
    public static let header = "recording,time_s"

    /// The step times per recording id, in file order within each recording.
    public static func read(_ path: String) throws(InputError) -> [String: [Seconds]] {
        var cursor = try LineCursor(path: path)
        let splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        var out: [String: [Seconds]] = [:]
        var sawHeader = false
        var fields: [(start: Int, end: Int)] = []
        while let line = try cursor.next() {
            let n = cursor.lineNumber
            guard sawHeader else {
                guard line.text(0, line.count) == header else {
                    throw InputError(.badHeader, at: SourceLocation(file: path, line: n), found: line.text(0, line.count), expected: "the header '\(header)'")
                }
                sawHeader = true
                continue
            }
            if line.isEmpty { continue }
            fields.removeAll(keepingCapacity: true)
            splitter.split(line) { _, s, e in fields.append((s, e)) }
            guard fields.count == 2 else {
                throw InputError(fields.count < 2 ? .missingColumn : .badValue, at: SourceLocation(file: path, line: n),
                                 found: line.text(0, line.count), expected: "two fields: recording,time_s")
            }
            let id = line.text(fields[0].start, fields[0].end), time = line.text(fields[1].start, fields[1].end)
            guard !id.isEmpty else {
                throw InputError(.badValue, at: SourceLocation(file: path, line: n, column: fields[0].start + 1), found: "", expected: "a recording id")
            }
            let column = fields[1].start + 1
            if time.isEmpty { out[id, default: []] += []; continue }
            guard let t = Double(time) else {
                throw InputError(.badNumber, at: SourceLocation(file: path, line: n, column: column), found: time, expected: "a time in seconds")
            }
            guard t.isFinite else {
                throw InputError(.nonFinite, at: SourceLocation(file: path, line: n, column: column), found: time, expected: "a finite time in seconds")
            }
            out[id, default: []].append(t)
        }
        guard sawHeader else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "the header '\(header)' and one row per step")
        }
        return out
    }
}
