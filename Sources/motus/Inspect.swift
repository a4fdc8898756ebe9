import ArgumentParser
import Foundation
import Motus

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a recording holds: streams, measured rate and jitter, duration, gaps, labels, metadata.",
        discussion: """
        Takes files or folders. A folder is searched for recordings (.motus, .csv, .txt, .json) \
        and dataset trees Motus knows. A file or folder holding several recordings of a dataset \
        (a WISDM v1.1 file of several users, a UCI HAR folder) shows each one with its id, the \
        one `motus track PATH --recording ID` takes. Reading is one streaming pass with bounded memory, so \
        it works on recordings larger than memory and on a recording that is still being \
        written: a last line without a newline that looks cut is left out, and a line on \
        stderr says how many bytes were left.

        Delimited text without a header Motus recognises needs the input flags, for example:
          motus inspect walk.csv --rate 100 --accel-columns acc_x,acc_y,acc_z --accel-unit g
        """)

    @Argument(help: "Recordings or folders to inspect.")
    var paths: [String]

    @Option(help: "Output format: table, json, or csv (one row per stream, the columns of the JSON's streams).")
    var format: OutputFormat = .table

    @OptionGroup var input: InputOptions

    func run() throws {
        try Self.reportingErrors {
            let options = try input.delimitedOptions()
            var summaries: [RecordingSummary] = []
            var failures = 0
            for p in paths {
                let files = try RecordingLoader.items(under: p)
                for f in files {
                    // In a folder, one unreadable file is reported and the rest are still inspected.
                    do {
                        let s = try f.summarize(options: options)
                        if let left = s.leftOut { printError("motus: \(left)") }
                        summaries.append(s)
                    } catch {
                        if files.count == 1 && paths.count == 1 { throw error }
                        printError("motus: \(error)")
                        failures += 1
                    }
                }
            }
            defer { if failures > 0 { printError("motus: \(failures) of \(failures + summaries.count) recordings could not be read") } }
            switch format {
            case .table: print(summaries.map(Self.table).joined(separator: "\n"), terminator: "")
            case .json: print(try JSONOutput.encode(summaries.map(InspectJSON.init)))
            case .csv: print(Self.csv(summaries), terminator: "")
            }
            if failures > 0 { throw ExitCode(1) }
        }
    }

    /// One row per stream of every recording, with the columns of the JSON's `streams`.
    static func csv(_ summaries: [RecordingSummary]) -> String {
        let header = ["path", "recording", "stream", "kind", "samples", "first_time_s", "last_time_s", "duration_s", "rate_hz", "median_interval_s", "jitter_std_s",
                      "p99_interval_s", "gaps", "largest_gap_s", "missing_time_s", "duplicates", "out_of_order", "mean_magnitude"]
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        func n(_ v: Double, _ key: String) -> String { JSONNumbers.format(v, JSONNumbers.precision(forKey: key)).replacingOccurrences(of: "null", with: "") }
        var out = header.joined(separator: ",") + "\n"
        for s in summaries {
            for st in s.streams {
                let cells = [field(s.path), field(s.recording ?? ""), field(st.name), st.kind.rawValue, "\(st.samples)", n(st.firstTime, "first_time_s"), n(st.lastTime, "last_time_s"),
                             n(st.durationS, "duration_s"), n(st.rateHz, "rate_hz"), n(st.medianIntervalS, "median_interval_s"), n(st.jitterStdS, "jitter_std_s"),
                             n(st.p99IntervalS, "p99_interval_s"), "\(st.gaps)", n(st.largestGapS, "largest_gap_s"), n(st.missingTimeS, "missing_time_s"),
                             "\(st.duplicates)", "\(st.outOfOrder)", n(st.meanMagnitude, "mean_magnitude")]
                out += cells.joined(separator: ",") + "\n"
            }
        }
        return out
    }

    static func table(_ s: RecordingSummary) -> String {
        var out = s.recording.map { "\(s.path): recording \($0)\n" } ?? "\(s.path)\n"
        let m = s.metadata
        var meta: [String] = []
        if let v = m.source, v != s.path { meta.append("source: \(v)") }
        if let v = m.device { meta.append("device: \(v)") }
        if let v = m.placement { meta.append("placement: \(v)") }
        if let v = m.subject { meta.append("subject: \(v)") }
        if let v = m.heightMeters { meta.append("height: \(Fmt.f(v, 2)) m") }
        if let v = m.weightKg { meta.append("weight: \(Fmt.f(v, 1)) kg") }
        if let v = m.age { meta.append("age: \(Fmt.f(v, 0))") }
        if let v = m.gender { meta.append("gender: \(v)") }
        if let v = m.nominalRateHz { meta.append("nominal rate: \(Fmt.f(v, 1)) Hz") }
        for k in m.extra.keys.sorted() {
            // Multi-line text (a dataset's description) shows its first line; --format json has it all.
            let v = m.extra[k]!, first = v.prefix { $0 != "\n" }
            meta.append("\(k): \(first)\(first.count < v.count ? " …" : "")")
        }
        if !meta.isEmpty { out += "  " + meta.joined(separator: "  ·  ") + "\n" }
        if let r = s.timeRange {
            out += "  duration \(Fmt.f(r.upperBound - r.lowerBound, 3)) s (t = \(Fmt.f(r.lowerBound, 3)) … \(Fmt.f(r.upperBound, 3)) s)\n"
        }
        var rows = [["stream", "kind", "samples", "rate Hz", "jitter ms", "p99 dt ms", "gaps", "largest gap s", "dup", "back", "mean |v|"]]
        for st in s.streams {
            rows.append([st.name, st.kind.title, "\(st.samples)", Fmt.f(st.rateHz, 2), Fmt.f(st.jitterStdS * 1000, 2),
                         Fmt.f(st.p99IntervalS * 1000, 2), "\(st.gaps)", Fmt.f(st.largestGapS, 3), "\(st.duplicates)",
                         "\(st.outOfOrder)", Fmt.f(st.meanMagnitude, 3)])
        }
        out += Fmt.table(rows, indent: 2)
        if !s.labels.isEmpty {
            out += "  labels: " + s.labels.map { "\($0.label) \(Fmt.f($0.seconds, 1)) s (\($0.segments))" }.joined(separator: ", ") + "\n"
        }
        if !s.events.isEmpty {
            out += "  events: " + s.events.map { "\($0.kind) \($0.count)" }.joined(separator: ", ") + "\n"
        }
        return out
    }
}

struct InspectJSON: Encodable {
    struct Stream: Encodable {
        var name: String, kind: String, samples: Int, first_time_s: Double, last_time_s: Double, duration_s: Double
        var rate_hz: Double, median_interval_s: Double, jitter_std_s: Double, p99_interval_s: Double
        var gaps: Int, largest_gap_s: Double, missing_time_s: Double, duplicates: Int, out_of_order: Int, mean_magnitude: Double
    }
    struct Label: Encodable { var label: String, seconds: Double, segments: Int }
    struct Event: Encodable { var kind: String, count: Int }
    var path: String
    /// The recording's id when its file holds several (`RecordingItem`); absent otherwise.
    var recording: String?
    var metadata: RecordingMetadata
    var duration_s: Double
    var streams: [Stream]
    var labels: [Label]
    var events: [Event]

    init(_ s: RecordingSummary) {
        path = s.path
        recording = s.recording
        metadata = s.metadata
        duration_s = s.timeRange.map { $0.upperBound - $0.lowerBound } ?? 0
        streams = s.streams.map {
            Stream(name: $0.name, kind: $0.kind.rawValue, samples: $0.samples, first_time_s: $0.firstTime, last_time_s: $0.lastTime,
                   duration_s: $0.durationS, rate_hz: $0.rateHz, median_interval_s: $0.medianIntervalS, jitter_std_s: $0.jitterStdS,
                   p99_interval_s: $0.p99IntervalS, gaps: $0.gaps, largest_gap_s: $0.largestGapS, missing_time_s: $0.missingTimeS,
                   duplicates: $0.duplicates, out_of_order: $0.outOfOrder, mean_magnitude: $0.meanMagnitude)
        }
        labels = s.labels.map { Label(label: $0.label, seconds: $0.seconds, segments: $0.segments) }
        events = s.events.map { Event(kind: $0.kind, count: $0.count) }
    }
}

/// `--format` of the commands that print table, JSON and CSV.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

/// `--format` of the commands whose report is not one table (the evaluations): table or
/// JSON, so `--help` lists only what works.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

