import Foundation
import MotusCore

/// Another detector's steps, to be judged as Motus judges its own (`evaluate-steps
/// --steps-from FILE`): a CSV file with the header `recording,time_s` and one row per step,
/// the recording's id as `evaluate-steps` names it and the step's time in seconds on the
/// recording's clock. A row with an empty time (`T1_ID3_1L,`) says that the detector ran on
/// the recording and found no step there; a recording with no row at all was not run.
///
/// Every row is read or the file is refused: a line without exactly two fields, an empty id,
/// a time that is not a finite number is an `InputError` with its line and column. Blank
/// lines (a trailing newline) are not rows. A `\r` before the newline is taken off.
public enum StepTimesFile {
    /// The header the file must start with.
    public static let header = "recording,time_s"

    /// The step times per recording id, in file order within each recording.
    public static func read(_ path: String) throws -> [String: [Seconds]] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "", expected: "a readable CSV file of step times (\(header))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "bytes that are not UTF-8", expected: "a UTF-8 CSV file of step times")
        }
        return try parse(text, file: path)
    }

    /// `read` on the file's text (`file` names it in errors).
    public static func parse(_ text: String, file: String) throws -> [String: [Seconds]] {
        guard !text.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: file), found: "", expected: "the header '\(header)' and one row per step")
        }
        var out: [String: [Seconds]] = [:]
        var sawHeader = false
        // "\r\n" is one Character in Swift: split on it as on "\n".
        for (k, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let n = k + 1
            if !sawHeader {
                guard line == header else {
                    throw InputError(.badHeader, at: SourceLocation(file: file, line: n), found: String(line), expected: "the header '\(header)'")
                }
                sawHeader = true
                continue
            }
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw InputError(fields.count < 2 ? .missingColumn : .badValue, at: SourceLocation(file: file, line: n), found: String(line),
                                 expected: "two fields: recording,time_s")
            }
            let id = String(fields[0]), time = fields[1]
            guard !id.isEmpty else {
                throw InputError(.badValue, at: SourceLocation(file: file, line: n, column: 1), found: "", expected: "a recording id")
            }
            let column = id.utf8.count + 2
            if time.isEmpty { out[id, default: []] += []; continue }
            guard let t = Double(time) else {
                throw InputError(.badNumber, at: SourceLocation(file: file, line: n, column: column), found: String(time), expected: "a time in seconds")
            }
            guard t.isFinite else {
                throw InputError(.nonFinite, at: SourceLocation(file: file, line: n, column: column), found: String(time), expected: "a finite time in seconds")
            }
            out[id, default: []].append(t)
        }
        return out
    }
}
