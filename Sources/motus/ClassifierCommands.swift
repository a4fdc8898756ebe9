import ArgumentParser
import Foundation
import Motus
import MotusPlot

/// Collects labelled windows from the given paths, as datasets with their ground truth (the
/// one evaluation loop), with progress on stderr.
struct WindowCollector {
    var pipeline: MotionPipeline
    /// nil: every label in the recordings becomes its own class.
    var labels: LabelMap?
    var input: DelimitedOptions
    var augmentation: Augmentation = .none
    var quiet = false

    /// The windows of `paths` (with `recordings`, only the entries with those ids: `--recording`).
    func collect(_ paths: [String], what: String, recordings: [String]? = nil) throws -> LabelledWindows {
        try collectWithLabels(paths, what: what, recordings: recordings).0
    }

    /// The windows and the label map they were labelled with.
    func collectWithLabels(_ paths: [String], what: String, recordings: [String]? = nil) throws -> (LabelledWindows, LabelMap) {
        let datasets = try Datasets.open(paths, options: input, recordings: recordings)
        let quiet = self.quiet
        return try LabelledWindows.collect(datasets, pipeline: pipeline, labels: labels, augmentation: augmentation) { done, total, windows in
            if !quiet && (done % 10 == 1 || done == total) { printError("motus: \(what): \(done)/\(total) recordings, \(windows) windows") }
        }
    }
}

struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train a moving-vs-still (or activity) model on labelled recordings.",
        discussion: """
        Windows are labelled from the recordings' label segments (a window counts only when it lies \
        wholly inside one segment, and crosses no interruption the ground truth marks: an annotated \
        incident, reference steps stopping for \(Fmt.f(WindowTruth.standingGap, 1)) s or more inside a \
        walk, a reference step inside a `still` label) and mapped to classes with --map; several data sets are read at \
        once with one --map naming the labels of each. Example, the shipped model (models/README.md):
          motus train $D/motionsense $D/ipol/voisard2023_ipol497 $D/weallwalk $D/sp-sw-har \\
                      --map moving=wlk,jog,ups,dws,walk,WALKING,TURNING --map still=sit,std,still,SEATED \\
                      --model logistic --augment none --cross-validate subjects --out models/moving-still.json
        Without --map every label is its own class. --cross-validate subjects (or datasets) also \
        records the cross-validated metrics in the model file.
        """)

    @Argument(help: "Recordings or folders (dataset folders Motus knows are expanded).")
    var paths: [String]

    @Option(name: .customLong("map"), help: ArgumentHelp("Class from recording labels: CLASS=LABEL,LABEL… (repeat for each class).", valueName: "CLASS=LABELS"))
    var maps: [String] = []

    @Option(help: "Estimator: logistic or mlp.")
    var model: EstimatorKind = .logistic

    @Option(name: .shortAndLong, help: "Model file to write (JSON; - for standard output).")
    var out: String

    @Option(name: .customLong("cross-validate"), help: ArgumentHelp("Also cross-validate: 'subjects' (leave one subject out), a number of subject folds, or 'datasets' (leave one data set out; give two or more).", valueName: "subjects|K|datasets"))
    var crossValidate: String?

    @Option(help: "Seed for everything random (MLP initialisation, validation split).")
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("Feature set: standard (orientation-free channels), no-gyroscope (for devices without one), all-channels (adds the raw axes, which carry how the device is held).", valueName: "SET"))
    var features: FeatureSet = .standard

    @Option(help: ArgumentHelp("Augment training with copies whose user acceleration and rotation rate are scaled by these factors (carry positions that move less than the training data); 'none' for none.", valueName: "S,S…|none"))
    var augment: String = "0.5"

    @Option(help: ArgumentHelp("How gravity is fused for recordings without it: live (causal, as a session does it) or offline (OrientationFilter forwards and backwards over the whole recording; recordings on disk only, not what an app sees live).", valueName: "live|offline"))
    var fusion: FusionPipeline.Mode = .live

    @OptionGroup var input: InputOptions

    static func augmentation(_ s: String) throws -> Augmentation {
        if s == "none" { return .none }
        let parts = s.split(separator: ",").map { Double($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! > 0 && $0!.isFinite }) else {
            throw CLIError("--augment takes positive factors like 0.5,0.33 or 'none', not '\(s)'")
        }
        return Augmentation(dynamicScales: parts.map { $0! })
    }

    func run() throws {
        try Self.reportingErrors {
            if out != "-" { try OutputPaths.file(out) }
            let features = self.features.configuration
            let pipeline = MotionPipeline(features: features, fusionMode: fusion)
            let given = maps.isEmpty ? nil : try LabelMap(parsing: maps)
            let aug = try Self.augmentation(augment)
            let (data, labels) = try WindowCollector(pipeline: pipeline, labels: given, input: try input.delimitedOptions(), augmentation: aug)
                .collectWithLabels(paths, what: "reading")
            printError("motus: \(data.originalCount) labelled windows (+\(data.count - data.originalCount) augmented) from \(data.recordings) recordings (\(data.windowsUnlabelled) windows left out: \(data.windowsUnlabelled - data.windowsInterrupted) not wholly inside a mapped label, \(data.windowsInterrupted) across an interruption the ground truth marks)")
            let command = "motus train " + CommandLine.arguments.dropFirst(2).joined(separator: " ")
            var m = try MotionModel.train(data, labels: labels, features: features, estimator: model, seed: seed,
                                          sources: paths, command: command, augmentation: aug)
            if fusion == .offline { m.fusionMode = .offline }
            if let cv = crossValidate {
                m.crossValidation = try MotionModel.crossValidate(data, labels: labels, estimator: model, scheme: try Evaluate.scheme(cv), seed: seed) { i, n in
                    printError("motus: cross-validation fold \(i)/\(n)")
                }
                printError("motus: cross-validated balanced accuracy \(Fmt.f(m.crossValidation!.balancedAccuracy * 100, 2)) %")
            }
            if out == "-" {
                do { FileHandle.standardOutput.write(try m.encoded()) } catch { throw CLIError("standard output: cannot write the model: \(error)") }
            } else {
                try m.write(to: out)
            }
            printError("motus: wrote \(out == "-" ? "standard output" : out) (\(m.classes.joined(separator: ", ")); \(features.featureCount) features; \(model.rawValue))")
        }
    }
}

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate a model on labelled recordings, or cross-validate by subject.",
        discussion: """
        With --model: the model's predictions on every window that lies wholly inside a label the \
        model's map knows (or the labels given with --map) and crosses no interruption the ground \
        truth marks (as in train). With --cross-validate: train and test \
        on folds of subjects, so no subject is ever in both, or leave one data set out (--cross-validate \
        datasets). Several data sets can be given at once with one --map naming labels of each; \
        the figures are then also given per data set, and per group of recordings inside one \
        (WeAllWalk's walkers by mobility aid, sp-sw-har's phone and watch). With a model, --map may \
        name one class only, to score data of that class (--min-recall checks it).
          motus evaluate --model models/moving-still.json ../shared/datasets/ipol --map moving=walk --map still=still
          motus evaluate --cross-validate subjects ../shared/datasets/motionsense --map moving=wlk,jog,ups,dws --map still=sit,std \\
                         --min-balanced-accuracy 0.998
          motus evaluate ../shared/datasets/weallwalk --map moving=walk,turn --min-recall moving=0.995

        --recording ID (with a model) scores one recording of a dataset folder with the dataset's \
        context (`motus features --list-recordings` lists the ids). Its JSON is {"report": the \
        figures of that recording's windows, null when none lies inside a mapped label, "exact": \
        {"model", "classes", "recordings": how many were read, "scored": per recording its path, \
        data set, group, each window's true class (index into classes) and class probabilities, \
        as computed}}: what pooling many such runs into the whole run's figures needs (the \
        confusion counts, the log loss and the ROC AUC over all windows, the per-data-set and \
        per-group rows). scale/motus_dask.py spreads a run over a Dask cluster that way.
        """)

    @Argument(help: "Recordings or folders.")
    var paths: [String]

    @Option(help: "The model file to evaluate (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(name: .customLong("recording"), help: ArgumentHelp("With a model: only the recording with this id (repeat for more), with one dataset folder.", valueName: "ID"))
    var recordings: [String] = []

    @Option(name: .customLong("cross-validate"), help: ArgumentHelp("Cross-validate instead: 'subjects', a number of subject folds, or 'datasets' (leave one data set out; give two or more).", valueName: "subjects|K|datasets"))
    var crossValidate: String?

    @Option(help: ArgumentHelp("How gravity is fused for recordings without it: live (causal, as a session does it) or offline (OrientationFilter forwards and backwards over the whole recording; recordings on disk only, not what an app sees live). Default: the model's own (live for the shipped model) and live with --cross-validate.", valueName: "live|offline"))
    var fusion: FusionPipeline.Mode?

    @Option(name: .customLong("estimator"), help: "With --cross-validate: logistic or mlp.")
    var estimator: EstimatorKind = .logistic

    @Option(help: ArgumentHelp("With --cross-validate: the feature set, as for train.", valueName: "SET"))
    var features: FeatureSet = .standard

    @Option(help: ArgumentHelp("With --cross-validate: training augmentation factors, as for train.", valueName: "S,S…|none"))
    var augment: String = "0.5"

    @Option(name: .customLong("map"), help: ArgumentHelp("Class from recording labels: CLASS=LABEL,LABEL…", valueName: "CLASS=LABELS"))
    var maps: [String] = []

    @Option(name: .customLong("min-balanced-accuracy"), help: ArgumentHelp("Exit with status 1 when balanced accuracy is below this (0…1).", valueName: "X"))
    var minBalancedAccuracy: Double?

    @Option(name: .customLong("min-macro-f1"), help: ArgumentHelp("Exit with status 1 when macro F1 is below this (0…1).", valueName: "X"))
    var minMacroF1: Double?

    @Option(name: .customLong("min-recall"), help: ArgumentHelp("Exit with status 1 when the recall of CLASS (the share of its windows called CLASS) is below X (0…1); repeat for more classes.", valueName: "CLASS=X"))
    var minRecalls: [String] = []

    @Option(help: "Output format: table or json.")
    var format: ReportFormat = .table

    @Option(help: "Seed (cross-validation).")
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("Also draw the confusion matrix, the scores per class and (with a model) the accuracy per recording: FILE.svg or FILE.png.", valueName: "FILE"))
    var plot: String?

    func validate() throws {
        if let p = plot { try PlotOutput.validate(p, flag: "--plot") }
        if !recordings.isEmpty {
            if paths.count != 1 { throw ValidationError("--recording takes one dataset folder, not \(paths.count) paths") }
            if crossValidate != nil { throw ValidationError("--recording scores recordings with a model; it does not go with --cross-validate") }
            if plot != nil { throw ValidationError("--plot draws a whole run; it does not go with --recording") }
        }
    }

    @OptionGroup var input: InputOptions

    static func scheme(_ s: String) throws -> MotionModel.CrossValidationScheme {
        if s == "subjects" { return .subjects }
        if s == "datasets" { return .datasets }
        guard let k = Int(s), k >= 2 else { throw CLIError("--cross-validate takes 'subjects', 'datasets' or a number of folds ≥ 2, not '\(s)'") }
        return .subjectFolds(k)
    }

    /// `--min-recall CLASS=X` entries, checked against the classes evaluated.
    static func minimumRecalls(_ entries: [String]) throws -> [(String, Double)] {
        try NamedValues.parse(entries, accept: { $0 >= 0 && $0 <= 1 }) {
            CLIError("--min-recall takes CLASS=X with X in 0…1, like moving=0.995, not '\($0)'")
        }.map { ($0.name, $0.value) }
    }

    func run() throws {
        try Self.reportingErrors {
            let report: EvaluationReport
            var scores: [EvaluationPlot.RecordingScore] = []
            if let p = plot { try OutputPaths.file(p) }
            let options = try input.delimitedOptions()
            _ = try Self.minimumRecalls(minRecalls)  // a malformed bar fails before the work
            if let cv = crossValidate {
                if model != nil { throw CLIError("give --model or --cross-validate, not both") }
                let scheme = try Self.scheme(cv)
                let labels = try LabelMap(parsing: maps)
                let pipeline = MotionPipeline(features: features.configuration, fusionMode: fusion ?? .live)
                let data = try WindowCollector(pipeline: pipeline, labels: labels, input: options, augmentation: try Train.augmentation(augment)).collect(paths, what: "reading")
                Self.noteInterrupted(data.windowsInterrupted)
                report = try MotionModel.crossValidate(data, labels: labels, estimator: estimator, scheme: scheme, seed: seed) { i, n in
                    printError("motus: fold \(i)/\(n)")
                }
            } else {
                var m = try DefaultModel.load(model)
                if let fusion { m.fusionMode = fusion == .offline ? .offline : nil }
                var labels = m.labelMap
                if !maps.isEmpty {
                    let given = try LabelMap(parsing: maps, minimumClasses: 1)
                    guard Set(given.classes).isSubset(of: Set(m.classes)) else {
                        throw CLIError("--map names classes \(given.classes) but the model has \(m.classes)")
                    }
                    labels = LabelMap(classes: m.classes, classOfLabel: given.classOfLabel.mapValues { m.classes.firstIndex(of: given.classes[$0])! })
                }
                if !recordings.isEmpty {
                    try scoreRecordings(m, labels: labels, options: options)
                    return
                }
                if m.pipeline.fusionMode == .live && paths.allSatisfy({ StreamedScoring.streams($0, options: options) }) {
                    // Recording files (native or delimited) are scored as they are read: memory
                    // does not grow with their length. Same windows and figures as below.
                    var scoring = StreamedScoring(model: m, labels: labels)
                    var ids: [String] = []
                    for p in paths {
                        try scoring.score(path: p, options: options)
                        ids += Array(repeating: p, count: scoring.yTrue.count - ids.count)
                    }
                    Self.noteInterrupted(scoring.windowsInterrupted)
                    report = try scoring.report(scheme: "model \(model ?? "(shipped default)") on \(scoring.recordings) recordings")
                    if plot != nil {
                        let predicted = argmaxRows(try Matrix(rows: scoring.yTrue.count, cols: m.classes.count, values: scoring.probabilities))
                        scores = EvaluationPlot.recordingScores(ids: ids, yTrue: scoring.yTrue, predicted: predicted)
                    }
                } else {
                    let data = try WindowCollector(pipeline: m.pipeline, labels: labels, input: options).collect(paths, what: "reading")
                    Self.noteInterrupted(data.windowsInterrupted)
                    report = try m.evaluate(data, scheme: "model \(model ?? "(shipped default)") on \(data.recordings) recordings")
                    if plot != nil {
                        scores = EvaluationPlot.recordingScores(ids: data.recordingIDs, yTrue: data.classes, predicted: argmaxRows(try m.probabilities(data.features)))
                    }
                }
            }
            switch format {
            case .json: print(try JSONOutput.encode(report))
            default: print(Self.table(report), terminator: "")
            }
            if let p = plot { try PlotOutput.write(EvaluationPlot.evaluation(report, recordings: scores).render(title: "motus evaluate: \(report.scheme)"), to: p) }
            try checkBars(report)
        }
    }

    /// Says on standard error how many windows inside a mapped label were left out because they
    /// cross an interruption the ground truth marks (`WindowTruth`), when any were.
    static func noteInterrupted(_ n: Int) {
        if n > 0 { printError("motus: \(n) windows inside a mapped label left out: they cross an interruption the ground truth marks (see --help)") }
    }

    /// `--min-balanced-accuracy`, `--min-macro-f1` and `--min-recall` against `report`.
    func checkBars(_ report: EvaluationReport) throws {
        let recallBars = try Self.minimumRecalls(minRecalls)
        if let x = minBalancedAccuracy, report.balancedAccuracy < x {
            throw CLIError("balanced accuracy \(Fmt.f(report.balancedAccuracy, 4)) is below --min-balanced-accuracy \(x)")
        }
        if let x = minMacroF1, report.macroF1 < x {
            throw CLIError("macro F1 \(Fmt.f(report.macroF1, 4)) is below --min-macro-f1 \(x)")
        }
        for (c, x) in recallBars {
            guard let i = report.classes.firstIndex(of: c) else {
                throw CLIError("--min-recall names '\(c)', but the classes are \(report.classes.joined(separator: ", "))")
            }
            let s = report.perClass[i]
            guard s.support > 0 else { throw CLIError("--min-recall \(c): no '\(c)' window was scored") }
            if s.recall < x { throw CLIError("recall of \(c) \(Fmt.f(s.recall, 4)) is below --min-recall \(c)=\(x)") }
        }
    }

    /// What `exact` holds in the JSON of `--recording`: the windows of each recording scored, with
    /// the numbers as computed, so that the runs of many recordings pool to one whole run's report.
    struct Exact: Encodable {
        /// The model as the report's scheme names it (the file given, or "(shipped default)").
        var model: String
        var classes: [String]
        /// Recordings read (also those without a window inside a mapped label).
        var recordings: Int
        var scored: [Scored]
        struct Scored: Encodable {
            var recording: String
            var dataset: String
            var group: String
            var trueClasses: [Int]
            var probabilities: [[Double]]
        }
    }

    /// `--recording`: the report of the chosen recordings' windows (none when no window lies
    /// inside a mapped label: a result, not an error, for a run spread over tasks) and, in
    /// JSON, the windows themselves (`Exact`). The bars apply to the report when there is one.
    func scoreRecordings(_ m: MotionModel, labels: LabelMap, options: DelimitedOptions) throws {
        let data = try WindowCollector(pipeline: m.pipeline, labels: labels, input: options).collect(paths, what: "reading", recordings: recordings)
        let name = model ?? "(shipped default)"
        let report = data.count > 0 ? try m.evaluate(data, scheme: "model \(name) on \(data.recordings) recordings") : nil
        switch format {
        case .json:
            let p = try m.probabilities(data.features)
            var scored: [Exact.Scored] = []
            for r in 0..<data.count {
                if scored.last?.recording != data.recordingIDs[r] {
                    scored.append(.init(recording: data.recordingIDs[r], dataset: data.datasets[r], group: data.groups[r], trueClasses: [], probabilities: []))
                }
                scored[scored.count - 1].trueClasses.append(data.classes[r])
                scored[scored.count - 1].probabilities.append((0..<m.classes.count).map { p[r, $0] })
            }
            let exact = Exact(model: name, classes: m.classes, recordings: data.recordings, scored: scored)
            let head = try report.map { try JSONOutput.encode(["report": $0]) } ?? "{\n  \"report\" : null\n}"
            print(try JSONOutput.appending(exact: exact, to: head))
        default:
            if let report { print(Self.table(report), terminator: "") } else {
                print("\(recordings.joined(separator: ", ")): no window lies wholly inside a label the model knows (\(labels.description))")
            }
        }
        if let report { try checkBars(report) }
    }

    static func table(_ r: EvaluationReport) -> String {
        var out = "\(r.scheme): \(r.windows) windows\n"
        out += "accuracy \(Fmt.f(r.accuracy * 100, 2)) %   balanced accuracy \(Fmt.f(r.balancedAccuracy * 100, 2)) %   macro F1 \(Fmt.f(r.macroF1, 4))"
        out += "   ROC AUC \(r.rocAUC.map { Fmt.f($0, 4) } ?? "-")   log loss \(Fmt.f(r.logLoss, 4))\n"
        var rows = [["class", "precision", "recall", "F1", "support"]]
        for (c, s) in zip(r.classes, r.perClass) {
            rows.append([c, Fmt.f(s.precision, 4), Fmt.f(s.recall, 4), Fmt.f(s.f1, 4), "\(s.support)"])
        }
        out += Fmt.table(rows)
        out += "confusion (rows: true, columns: predicted)\n"
        var cm = [[""] + r.classes]
        for (c, row) in zip(r.classes, r.confusion) { cm.append([c] + row.map(String.init)) }
        out += Fmt.table(cm)
        if let groups = r.groups {
            out += r.scheme.hasPrefix("leave-one-dataset-out") ? "per data set (each held out in turn) and group\n" : "per data set and group\n"
            var rows = [["data set", "windows"] + r.classes.map { "\($0) windows" } + r.classes.map { "\($0) recall" } + ["balanced accuracy"]]
            for g in groups {
                rows.append([g.name, "\(g.windows)"] + g.windowsPerClass.map(String.init) + g.recall.map { $0.map { Fmt.f($0 * 100, 2) + " %" } ?? "-" }
                            + [Fmt.f(g.balancedAccuracy * 100, 2) + " %"])
            }
            out += Fmt.table(rows)
        }
        return out
    }
}

struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify every window of a recording (moving or still, or the model's classes).",
        discussion: """
        Prints one row per window: start_s,end_s,label,probability (the probability of that label). \
        --segments merges consecutive windows with the same label. Without --model the shipped \
        moving-vs-still model is used.
          motus classify datasets/iphone-belt-stand-then-walk.motus --segments --format table
        """)

    @Argument(help: "The recording.")
    var path: String

    @Option(help: "Model file (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(help: "Output format: csv, json or table.")
    var format: OutputFormat = .csv

    @Flag(help: "Merge consecutive windows with the same label into segments.")
    var segments = false

    @Option(help: ArgumentHelp("How gravity is fused for recordings without it: live (causal, as a session does it) or offline (OrientationFilter forwards and backwards over the whole recording; recordings on disk only, not what an app sees live).", valueName: "live|offline"))
    var fusion: FusionPipeline.Mode = .live

    @OptionGroup var input: InputOptions

    func run() throws {
        try Self.reportingErrors {
            let m = try DefaultModel.load(model)
            // Streamed: windows are classified as the file is read, and CSV rows are printed as
            // they come, so memory does not grow with the recording's length (table and JSON
            // output are held until the end).
            // Offline fusion needs the whole recording: it is read whole, completed with the
            // offline gravity, and its samples go through the same classifier.
            var offline: Recording? = nil
            if fusion == .offline {
                var r = try RecordingLoader.load(path: path, options: try input.delimitedOptions())
                if r.stream(.gravity)?.isEmpty ?? true { FusionPipeline.complete(&r, mode: .offline) }
                offline = r
            }
            var reader = offline == nil ? try SampleReader(path: path, options: try input.delimitedOptions(), kinds: FrameBuilder.inputKinds) : nil
            var classifier = try WindowClassifier(model: m, kinds: offline.map { Set($0.streams.map(\.kind)) } ?? reader!.declaredKinds, path: path)
            var t0 = Double.nan
            var windows: [WindowPrediction] = []
            var runs: [LabelRun] = []
            var merger = LabelRun.Merger()
            let streaming = format == .csv
            if streaming { print(segments ? "start_s,end_s,label,mean_probability,windows" : "start_s,end_s,label,probability") }
            func emit(_ s: LabelRun) {
                if streaming { print("\(Fmt.csv(s.start, "start_s")),\(Fmt.csv(s.end, "end_s")),\(s.label),\(Fmt.csv(s.meanProbability, "mean_probability")),\(s.windows)") } else { runs.append(s) }
            }
            func push(_ sample: SensorSample) {
                if t0.isNaN { t0 = sample.time }
                classifier.push(sample) { w in
                    if segments {
                        if let done = merger.add(w) { emit(done) }
                    } else if streaming {
                        print("\(Fmt.csv(w.start, "start_s")),\(Fmt.csv(w.end, "end_s")),\(w.label),\(Fmt.csv(w.probability, "probability"))")
                    } else {
                        windows.append(w)
                    }
                }
            }
            if let offline {
                offline.forEachSample(kinds: FrameBuilder.inputKinds) { push($0) }
            } else {
                try reader!.forEachReadingAhead { push($0) }
            }
            if segments, let last = merger.finish() { emit(last) }
            if t0.isNaN { t0 = 0 }
            switch (format, segments) {
            case (.csv, _): break
            case (.json, true): print(try JSONOutput.encode(runs))
            case (.table, true):
                var rows = [["from s", "to s", "label", "mean p", "windows"]]
                for s in runs { rows.append([Fmt.f(s.start - t0, 2), Fmt.f(s.end - t0, 2), s.label, Fmt.f(s.meanProbability, 3), "\(s.windows)"]) }
                print(Fmt.table(rows), terminator: "")
            case (.json, false):
                print(try JSONOutput.encode(windows.map { ["start_s": .number($0.start), "end_s": .number($0.end), "label": .text($0.label), "probability": .number($0.probability)] as [String: JSONValue] }))
            case (.table, false):
                var rows = [["from s", "to s", "label", "p"]]
                for w in windows { rows.append([Fmt.f(w.start - t0, 2), Fmt.f(w.end - t0, 2), w.label, Fmt.f(w.probability, 3)]) }
                print(Fmt.table(rows), terminator: "")
            }
        }
    }
}

enum JSONValue: Encodable {
    case number(Double), text(String)
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self { case .number(let d): try c.encode(d); case .text(let s): try c.encode(s) }
    }
}

extension EstimatorKind: ExpressibleByArgument {}
extension FusionPipeline.Mode: ExpressibleByArgument {}

/// The feature sets the commands offer.
enum FeatureSet: String, ExpressibleByArgument, CaseIterable {
    case standard, noGyroscope = "no-gyroscope", allChannels = "all-channels"
    var configuration: FeatureConfiguration {
        switch self {
        case .standard: .standard
        case .noGyroscope: .standardNoGyroscope
        case .allChannels: .allChannels
        }
    }
}

/// The model a command runs: the file given with `--model`, else the shipped moving-vs-still model.
enum DefaultModel {
    static func load(_ path: String?) throws -> MotionModel {
        if let path { return try MotionModel.load(path: path) }
        return MotionModel.shipped
    }
}
