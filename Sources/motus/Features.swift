import ArgumentParser
import Foundation
import Motus

/// `motus features`: the feature rows `train` learns from, written for pandas and scikit-learn.
struct Features: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the feature rows of recordings or datasets (the windows train uses) as CSV or JSON Lines.",
        discussion: """
        One row per window: recording, subject, label, start_s, end_s, then one column per \
        feature (the names `train` records in a model). The windows, features, subjects and \
        labels are those `train` and `evaluate` use, by the same road (--map, --features and \
        --fusion as there). A window no mapped label covers wholly is written with an empty \
        label (null in JSON Lines); --labelled-only leaves it out, as train does. A feature \
        that is not a number is an empty cell (CSV) or null (JSON Lines). Rows are written one \
        recording at a time, so memory does not grow with the data. The format is the one \
        --out names: .csv, or .jsonl / .ndjson. Example:
          motus features ../shared/datasets/motionsense --map moving=wlk,jog,ups,dws --map still=sit,std --out features.csv
          python3 -c "import pandas; print(pandas.read_csv('features.csv').groupby('label').size())"
        """)

    @Argument(help: "Recordings or folders (dataset folders Motus knows are expanded).")
    var paths: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("File to write: FILE.csv or FILE.jsonl (- for standard output, as CSV unless --format says jsonl).", valueName: "FILE"))
    var out: String

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
        if out != "-" {
            guard let f = FeatureExport.Format(path: out) else { throw ValidationError("--out must end in .csv, .jsonl or .ndjson, not '\(out)'") }
            if let given = format, given != f.rawValue { throw ValidationError("--format \(given) but --out \(out) names \(f.rawValue)") }
        }
    }

    func run() throws {
        try Self.reportingErrors {
            let fmt = out == "-" ? (format.flatMap(FeatureExport.Format.init(rawValue:)) ?? .csv) : FeatureExport.Format(path: out) ?? .csv
            let pipeline = MotionPipeline(features: features.configuration, fusionMode: fusion)
            let labels = maps.isEmpty ? nil : try LabelMap(parsing: maps)
            let datasets = try Datasets.open(paths, options: try input.delimitedOptions())
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
            do {
                summary = try FeatureExport.run(datasets, pipeline: pipeline, labels: labels, format: fmt, labelledOnly: labelledOnly,
                                                progress: Datasets.progress("features")) { text in
                    try handle.write(contentsOf: Data(text.utf8))
                }
            } catch {
                if out != "-" { try? handle.close(); try? FileManager.default.removeItem(atPath: partial) }
                throw error
            }
            if out != "-" {
                try handle.close()
                if FileManager.default.fileExists(atPath: out) { try FileManager.default.removeItem(atPath: out) }
                try FileManager.default.moveItem(atPath: partial, toPath: out)
            }
            let what = labelledOnly ? "\(summary.leftOut) windows left out: no mapped label covers them" : "\(summary.unlabelledRows) without a label"
            printError("motus: wrote \(out == "-" ? "standard output" : out): \(summary.rows) rows (\(what)) from \(summary.recordings) recordings, \(pipeline.features.featureCount) features")
        }
    }
}
