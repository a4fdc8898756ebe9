import ArgumentParser
import Foundation
import Motus

/// `motus features`: the feature rows `train` learns from, written for pandas and scikit-learn.
struct Features: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the feature rows of recordings or datasets (the windows train uses) as CSV, JSON Lines or NumPy .npy.",
        discussion: """
        One row per window: recording, subject, label, start_s, end_s, then one column per \
        feature (the names `train` records in a model). The windows, features, subjects and \
        labels are those `train` and `evaluate` use, by the same road (--map, --features and \
        --fusion as there). A window no mapped label covers wholly is written with an empty \
        label (null in JSON Lines); --labelled-only leaves it out, as train does. A feature \
        that is not a number is an empty cell (CSV) or null (JSON Lines). Rows are written one \
        recording at a time, so memory does not grow with the data. The format is the one \
        --out names: .csv, .jsonl / .ndjson, or .npy. Example:
          motus features ../shared/datasets/motionsense --map moving=wlk,jog,ups,dws --map still=sit,std --out features.csv
          python3 -c "import pandas; print(pandas.read_csv('features.csv').groupby('label').size())"

        FILE.npy is NumPy's format (version 1.0): a float64 matrix of start_s, end_s and the \
        features, NaN where a feature is not a number; the sidecar FILE.npy.json holds the \
        matrix's column names and the text columns recording, subject and label (one entry \
        per row, null for no label). Together they are the CSV's columns:
          meta = json.load(open("f.npy.json")); df = pandas.DataFrame(numpy.load("f.npy"), columns=meta["columns"])
          for k in ("label", "subject", "recording"): df.insert(0, k, meta[k])
        Parquet is not written: no maintained Parquet library for Swift is available to this \
        build, and Motus does not write the format by hand. Convert with pandas and pyarrow:
          python3 -c "import pandas; pandas.read_csv('f.csv').to_parquet('f.parquet')"

        One recording of a dataset, with the dataset's context (its subjects, labels and \
        name, so its rows are those of the whole run): --recording ID with the dataset's \
        folder. --list-recordings prints the ids, one JSON object per line \
        ({"path", "dataset", "recording", "set_aside"}); scale/motus_dask.py runs one task per \
        line on a Dask cluster.
        """)

    @Argument(help: "Recordings or folders (dataset folders Motus knows are expanded).")
    var paths: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("File to write: FILE.csv, FILE.jsonl or FILE.npy (with FILE.npy.json beside it); - for standard output, as CSV unless --format says jsonl.", valueName: "FILE"))
    var out: String?

    @Option(name: .customLong("recording"), help: ArgumentHelp("Only the recording with this id (repeat for more), with one dataset folder: its rows as the whole dataset's run writes them.", valueName: "ID"))
    var recordings: [String] = []

    @Flag(name: .customLong("list-recordings"), help: "Print the recordings of the paths, one JSON object per line (path, dataset, recording id, set_aside), and write no rows.")
    var listRecordings = false

    @Option(help: ArgumentHelp("Output format for --out - : csv or jsonl (a file's extension names its own).", valueName: "csv|jsonl"))
    var format: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("Class from recording labels: CLASS=LABEL,LABEL… (repeat for each class).", valueName: "CLASS=LABELS"))
    var maps: [String] = []

    @Flag(name: .customLong("labelled-only"), help: "Leave out the windows no mapped label covers (the rows train learns from).")
    var labelledOnly = false

    @Option(help: ArgumentHelp("Feature set: standard, no-gyroscope or all-channels (as train).", valueName: "SET"))
    var features: FeatureSet = .standard

    @Option(help: ArgumentHelp("How gravity is fused for recordings without it: live or offline (as train).", valueName: "live|offline"))
    var fusion: FusionPipeline.Mode = .live

    @OptionGroup var input: InputOptions

    func validate() throws {
        if let f = format, FeatureExport.Format(rawValue: f) == nil { throw ValidationError("--format must be csv or jsonl, not '\(f)'") }
        if !recordings.isEmpty && paths.count != 1 { throw ValidationError("--recording takes one dataset folder, not \(paths.count) paths") }
        if listRecordings {
            if out != nil || !recordings.isEmpty { throw ValidationError("--list-recordings writes no rows: give it without --out and --recording") }
            return
        }
        guard let out else { throw ValidationError("give --out FILE (.csv, .jsonl, .ndjson or .npy, or - for standard output)") }
        if out != "-" {
            if Self.isNumPy(out) {
                if let given = format { throw ValidationError("--format \(given) but --out \(out) names npy") }
                return
            }
            guard let f = FeatureExport.Format(path: out) else { throw ValidationError("--out must end in .csv, .jsonl, .ndjson or .npy, not '\(out)'") }
            if let given = format, given != f.rawValue { throw ValidationError("--format \(given) but --out \(out) names \(f.rawValue)") }
        }
    }

    static func isNumPy(_ path: String) -> Bool { path.lowercased().hasSuffix(".npy") }

    func run() throws {
        try Self.reportingErrors {
            if listRecordings { print(try Datasets.listing(paths, options: try input.delimitedOptions()), terminator: ""); return }
            let out = self.out ?? "-"
            let fmt = out == "-" ? (format.flatMap(FeatureExport.Format.init(rawValue:)) ?? .csv) : FeatureExport.Format(path: out) ?? .csv
            let pipeline = MotionPipeline(features: features.configuration, fusionMode: fusion)
            let labels = maps.isEmpty ? nil : try LabelMap(parsing: maps)
            let datasets = try Datasets.open(paths, options: try input.delimitedOptions(), recordings: recordings.isEmpty ? nil : recordings)
            // A file is written beside its place and renamed there when complete, so a run that
            // stops leaves no half file under the name asked for.
            let handle: FileHandle
            let partial = out + ".partial"
            if out == "-" {
                handle = FileHandle.standardOutput
            } else {
                try OutputPaths.file(out)
                guard FileManager.default.createFile(atPath: partial, contents: nil), let h = FileHandle(forWritingAtPath: partial) else {
                    throw CLIError("\(partial): cannot create the file")
                }
                handle = h
            }
            let summary: FeatureExport.Summary
            let sidecar = out + ".json", sidecarPartial = sidecar + ".partial"
            do {
                if Self.isNumPy(out) {
                    // The header holds the row count: written for 0 rows, then again over
                    // itself (same length) once every row is written.
                    var columns = FeatureExport.NumPySidecar(featureNames: pipeline.features.featureNames)
                    try handle.write(contentsOf: Data(NumPyArray.header(rows: 0, columns: columns.columns.count)))
                    summary = try FeatureExport.forEachRecording(datasets, pipeline: pipeline, labels: labels, labelledOnly: labelledOnly,
                                                                 progress: Datasets.progress("features")) { rows in
                        try handle.write(contentsOf: Data(FeatureExport.matrixBytes(rows)))
                        columns.add(rows)
                    }
                    try handle.seek(toOffset: 0)
                    try handle.write(contentsOf: Data(NumPyArray.header(rows: columns.rows, columns: columns.columns.count)))
                    let name = URL(fileURLWithPath: out).lastPathComponent
                    guard FileManager.default.createFile(atPath: sidecarPartial, contents: Data(columns.json(npyFile: name).utf8)) else {
                        throw CLIError("\(sidecarPartial): cannot create the file")
                    }
                } else {
                    summary = try FeatureExport.run(datasets, pipeline: pipeline, labels: labels, format: fmt, labelledOnly: labelledOnly,
                                                    progress: Datasets.progress("features")) { text in
                        try handle.write(contentsOf: Data(text.utf8))
                    }
                }
            } catch {
                if out != "-" {
                    try? handle.close()
                    try? FileManager.default.removeItem(atPath: partial)
                    try? FileManager.default.removeItem(atPath: sidecarPartial)
                }
                throw error
            }
            if out != "-" {
                try handle.close()
                var moves = [(partial, out)]
                if Self.isNumPy(out) { moves.append((sidecarPartial, sidecar)) }
                for (from, to) in moves {
                    if FileManager.default.fileExists(atPath: to) { try FileManager.default.removeItem(atPath: to) }
                    try FileManager.default.moveItem(atPath: from, toPath: to)
                }
            }
            let what = labelledOnly ? "\(summary.leftOut) windows left out: no mapped label covers them, or they cross an interruption of it the ground truth marks" : "\(summary.unlabelledRows) without a label"
            printError("motus: wrote \(out == "-" ? "standard output" : Self.isNumPy(out) ? "\(out) and \(sidecar)" : out): \(summary.rows) rows (\(what)) from \(summary.recordings) recordings, \(pipeline.features.featureCount) features")
        }
    }
}
