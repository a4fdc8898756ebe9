import MotusCore
import MotusIO
import MotusClassifier

/// The feature rows of recordings and datasets, written out for pandas, scikit-learn or any
/// tool that reads CSV or JSON Lines: one row per window, with its recording, subject, label
/// and start and end (s), then one column per feature, in `FeatureConfiguration.featureNames`
/// order.
///
/// The windows and features are those `train` and `evaluate` use: the same evaluation loop
/// (`Evaluation.run`, so set-aside entries fail as in `LabelledWindows.collect`), the same
/// `MotionPipeline.windows`, the same subject (`EvaluationRecording.subject` prefixed with its
/// data set, `LabelledWindows.subject`), recording id
/// (the entry's path) and label rule (`WindowTruth`: a window's label is the class of the one
/// run of mapped labels that holds it wholly, unless it overlaps an interruption the ground
/// truth marks). With `labelledOnly` the rows are exactly `LabelledWindows.collect`'s; without
/// it the windows left out are written too, with an empty label.
///
/// Rows go to `write` one recording at a time, as they are made: memory holds one
/// recording's windows, however many recordings there are.
public enum FeatureExport {
    /// The text format of the rows; its raw value is the name `--format` takes.
    public enum Format: String, Sendable, CaseIterable {
        /// Comma-separated values (RFC 4180 quoting): a header line of `leadingColumns` then the
        /// feature names, one line per window; `start_s` and `end_s` in s; an unlabelled
        /// window's label and a feature that is not finite are empty fields.
        case csv
        /// JSON Lines: one object per window with the keys `leadingColumns` then one key per
        /// feature name, no header; an unlabelled window's `label` and a feature that is not
        /// finite are `null`.
        case jsonl

        /// The format a file name's extension names (`.csv`, `.jsonl` or `.ndjson`), nil for others.
        public init?(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".csv") { self = .csv } else if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { self = .jsonl } else { return nil }
        }
    }

    /// The columns (CSV) or keys (JSON Lines) before the features: the recording's id (the
    /// entry's path), its subject (prefixed with its data set, `motionsense/sub_3`), the window's
    /// label, and the window's start and end (s, on the recording's clock).
    public static let leadingColumns = ["recording", "subject", "label", "start_s", "end_s"]

    /// What `run` wrote.
    public struct Summary: Sendable, Equatable {
        /// Recordings whose rows were written.
        public var recordings = 0
        /// Rows written (one per window), the header not counted.
        public var rows = 0
        /// Windows written without a label because no label covered them wholly (0 with
        /// `labelledOnly`).
        public var unlabelledRows = 0
        /// Windows not written because no label covered them wholly (0 without `labelledOnly`).
        public var leftOut = 0
    }

    /// One recording's rows, as `forEachRecording` hands them over: the columns of
    /// `leadingColumns` and the feature values, one entry per window.
    public struct RecordingRows: Sendable {
        /// The recording's id: its entry's path.
        public var recording: String
        /// Its subject, prefixed with its data set (`LabelledWindows.subject`).
        public var subject: String
        /// Each window's label (the class name), nil when no mapped label covers it wholly.
        public var labels: [String?] = []
        /// Each window's start (s, on the recording's clock).
        public var startTimes: [Seconds] = []
        /// Each window's end (s).
        public var endTimes: [Seconds] = []
        /// Features per window (`FeatureConfiguration.featureCount`).
        public var columns: Int
        /// The features, row-major: window `i`'s are `values[i * columns ..< (i + 1) * columns]`;
        /// a feature that could not be computed is NaN.
        public var values: [Double] = []
        /// Windows held.
        public var count: Int { startTimes.count }

        /// Rows from their columns (see the properties; `values` holds `columns` per window).
        public init(recording: String, subject: String, labels: [String?] = [], startTimes: [Seconds] = [], endTimes: [Seconds] = [],
                    columns: Int, values: [Double] = []) {
            self.recording = recording; self.subject = subject; self.labels = labels
            self.startTimes = startTimes; self.endTimes = endTimes; self.columns = columns; self.values = values
        }
    }

    /// Hands every entry of `datasets` to `body` as its rows, one recording at a time, in the
    /// datasets' order. `labels` maps label names to classes as `--map` does (nil: every label
    /// is its own class); with `labelledOnly` the windows no mapped label covers are left out
    /// (and counted). `progress(done, total)` is called after each entry.
    ///
    /// - Throws: an entry's `InputError` (a set-aside entry's missing file included), the
    ///   pipeline's error when a recording lacks a stream its features need, what `body`
    ///   throws, and `.unreadable` when a dataset changed during the run.
    @discardableResult
    public static func forEachRecording(_ datasets: [EvaluationDataset], pipeline: MotionPipeline, labels: LabelMap?,
                                        labelledOnly: Bool = false, progress: ((Int, Int) -> Void)? = nil,
                                        _ body: (RecordingRows) throws -> Void) throws -> Summary {
        var summary = Summary()
        let owner = LabelledWindows.datasetOfEntries(datasets)
        _ = try Evaluation.run(datasets, setAside: .fail, progress: progress) { e -> Bool? in
            var r = e.recording
            r.metadata.subject = LabelledWindows.subject(e.subject, dataset: owner[e.entry.path] ?? "")
            let m = try pipeline.windows(of: r, path: e.entry.path)
            // Without a map every label of the recording is its own class, named by itself.
            let map = labels ?? LabelMap.identity(r.labels.map(\.label))
            let truth = WindowTruth(labels: r.labels, events: r.events, map: map)
            var rows = RecordingRows(recording: e.entry.path, subject: r.metadata.subject ?? e.entry.path, columns: m.columns)
            for row in 0..<m.rows {
                let s = m.startTimes[row], t = m.endTimes[row]
                let c = truth.windowClass(start: s, end: t)
                if c == nil {
                    if labelledOnly { summary.leftOut += 1; continue }
                    summary.unlabelledRows += 1
                }
                rows.labels.append(c.map { map.classes[$0] })
                rows.startTimes.append(s)
                rows.endTimes.append(t)
                rows.values += m.values[(row * m.columns)..<((row + 1) * m.columns)]
            }
            try body(rows)
            summary.rows += rows.count
            summary.recordings += 1
            return true
        }
        return summary
    }

    /// Writes the header (CSV) and every row of every entry of `datasets` through `write`,
    /// one call per recording (`forEachRecording`, whose arguments these are).
    ///
    /// - Throws: as `forEachRecording`.
    @discardableResult
    public static func run(_ datasets: [EvaluationDataset], pipeline: MotionPipeline, labels: LabelMap?, format: Format,
                           labelledOnly: Bool = false, progress: ((Int, Int) -> Void)? = nil,
                           write: (String) throws -> Void) throws -> Summary {
        let names = pipeline.features.featureNames
        if format == .csv { try write((leadingColumns + names).map(csvField).joined(separator: ",") + "\n") }
        return try forEachRecording(datasets, pipeline: pipeline, labels: labels, labelledOnly: labelledOnly, progress: progress) { rows in
            try write(text(rows, names: names, format: format))
        }
    }

    /// One recording's rows as CSV lines (without the header) or JSON Lines.
    public static func text(_ rows: RecordingRows, names: [String], format: Format) -> String {
        var text = ""
        for i in 0..<rows.count {
            let s = rows.startTimes[i], t = rows.endTimes[i]
            let values = rows.values[(i * rows.columns)..<((i + 1) * rows.columns)]
            switch format {
            case .csv:
                text += [rows.recording, rows.subject, rows.labels[i] ?? ""].map(csvField).joined(separator: ",")
                text += "," + number(s) + "," + number(t)
                for v in values { text += "," + (v.isFinite ? number(v) : "") }
                text += "\n"
            case .jsonl:
                text += "{\"recording\":" + jsonString(rows.recording) + ",\"subject\":" + jsonString(rows.subject)
                    + ",\"label\":" + (rows.labels[i].map(jsonString) ?? "null")
                    + ",\"start_s\":" + number(s) + ",\"end_s\":" + number(t)
                for (k, v) in zip(names, values) { text += "," + jsonString(k) + ":" + (v.isFinite ? number(v) : "null") }
                text += "}\n"
            }
        }
        return text
    }

    /// A double as the shortest text that reads back to the same double.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line end (RFC 4180).
    static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingQuotes() + "\""
    }

    /// A JSON string literal: the JSON Lines recording writer's escaping.
    static func jsonString(_ s: String) -> String { RecordingJSONLinesWriter.string(s) }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for c in self { if c == "\"" { out += "\"\"" } else { out.append(c) } }
        return out
    }
}
