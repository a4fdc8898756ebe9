import Foundation
import MotusCore
import MotusFusion
import MotusFeatures
import MotusLearn

/// A moving-vs-still (or any activity) model: versioned JSON with the classes, the feature
/// configuration (so a model always computes its own features), the scaler, the estimator,
/// a description of the training data and the cross-validated metrics.
public struct MotionModel: Codable, Sendable, Equatable {
    /// The `format` every model file carries.
    public static let formatName = "motus-model"
    /// The newest model-file version this build writes and reads. Version 2 names the filter
    /// that fuses gravity where a recording has none (`fusion`: `GravityFusion`); version 1
    /// holds only `AttitudeFilter`'s settings there, and is read as `.attitude`.
    public static let currentVersion = 2

    /// `formatName`, so a wrong file is named as such.
    public var format: String
    /// The model-file version.
    public var version: Int
    /// Class names, in the estimator's order.
    public var classes: [String]
    /// How the training recordings' labels became the classes.
    public var labelMap: LabelMap
    /// The features the model reads: a model always computes its own.
    public var features: FeatureConfiguration
    /// Sensor fusion used when a recording has no gravity stream: the filter and its settings.
    public var fusion: GravityFusion
    /// Standardises each feature as in training.
    public var scaler: StandardScaler
    /// The fitted estimator.
    public var estimator: Estimator
    /// What it was trained on and how.
    public var training: TrainingDescription
    /// Cross-validated figures recorded at training, when they were computed.
    public var crossValidation: EvaluationReport?
    /// How gravity was fused for recordings without it when the model was trained (nil: live,
    /// the only mode a session has). A model trained offline still runs live in a session.
    public var fusionMode: FusionPipeline.Mode?

    /// The training data and the command, for the model card.
    public struct TrainingDescription: Codable, Sendable, Equatable {
        /// The datasets or files trained on.
        public var sources: [String]
        /// Recordings read.
        public var recordings: Int
        /// Distinct subjects among them.
        public var subjects: Int
        /// Training windows per class name.
        public var windowsPerClass: [String: Int]
        /// Windows left out because no single mapped label covered them.
        public var windowsLeftOut: Int
        /// The command line that trained it, when known.
        public var command: String?
        /// The seed of every random choice in training.
        public var seed: UInt64
        /// The augmentation used, nil for none.
        public var augmentation: Augmentation?
        /// A description without augmentation.
        public init(sources: [String], recordings: Int, subjects: Int, windowsPerClass: [String: Int], windowsLeftOut: Int, command: String?, seed: UInt64) {
            self.sources = sources; self.recordings = recordings; self.subjects = subjects
            self.windowsPerClass = windowsPerClass; self.windowsLeftOut = windowsLeftOut; self.command = command; self.seed = seed
        }
        /// A description with augmentation.
        public init(sources: [String], recordings: Int, subjects: Int, windowsPerClass: [String: Int], windowsLeftOut: Int, command: String?, seed: UInt64,
                    augmentation: Augmentation) {
            self.init(sources: sources, recordings: recordings, subjects: subjects, windowsPerClass: windowsPerClass,
                      windowsLeftOut: windowsLeftOut, command: command, seed: seed)
            self.augmentation = augmentation
        }
    }

    /// The road from a recording to this model's feature windows (frames, fusion, features).
    public var pipeline: MotionPipeline { MotionPipeline(features: features, fusion: fusion, fusionMode: fusionMode ?? .live) }

    // MARK: Training

    /// Fits the scaler and the estimator on all windows.
    public static func train(_ data: LabelledWindows, labels: LabelMap, features: FeatureConfiguration, fusion: GravityFusion = .default,
                             estimator kind: EstimatorKind, seed: UInt64 = 0, sources: [String], command: String? = nil,
                             augmentation: Augmentation = .none) throws(ClassifierError) -> MotionModel {
        let k = labels.classes.count
        let perClass = data.originals.countPerClass(k)
        guard perClass.filter({ $0 > 0 }).count >= 2 else {
            throw .notEnoughData("training needs windows of at least two classes; found \(zip(labels.classes, perClass).map { "\($0): \($1)" }.joined(separator: ", "))")
        }
        do {
            var x = try Matrix(rows: data.count, cols: data.features.columns, values: data.features.values)
            let scaler = try StandardScaler(fitting: x)
            try scaler.transform(inPlace: &x)
            var est = Estimator.make(kind, seed: seed)
            try est.fit(x, data.classes, classCount: k)
            return MotionModel(format: formatName, version: currentVersion, classes: labels.classes, labelMap: labels, features: features,
                               fusion: fusion, scaler: scaler, estimator: est,
                               training: TrainingDescription(sources: sources, recordings: data.recordings, subjects: Set(data.subjects).count,
                                                             windowsPerClass: Dictionary(uniqueKeysWithValues: zip(labels.classes, perClass)),
                                                             windowsLeftOut: data.windowsUnlabelled, command: command, seed: seed,
                                                             augmentation: augmentation),
                               crossValidation: nil)
        } catch let e as ClassifierError {
            throw e
        } catch {
            throw .learning("training failed: \(error)")
        }
    }

    /// How cross-validation splits the windows: never a subject (or a data set) on both sides.
    public enum CrossValidationScheme: Sendable, Equatable {
        /// Leave one subject out (subjects are prefixed with their data set, so they never collide).
        case subjects
        /// k folds of whole subjects.
        case subjectFolds(Int)
        /// Leave one data set out: train on all the others, test on it (needs two or more).
        case datasets
    }

    /// Cross-validation grouped by subject: `folds` = nil for leave-one-subject-out, else k
    /// folds of subjects. No subject is ever in both training and test data. Returns the
    /// report on the out-of-fold predictions.
    public static func crossValidate(_ data: LabelledWindows, labels: LabelMap, estimator kind: EstimatorKind, folds: Int? = nil, seed: UInt64 = 0,
                                     progress: ((Int, Int) -> Void)? = nil) throws(ClassifierError) -> EvaluationReport {
        try crossValidate(data, labels: labels, estimator: kind, scheme: folds.map { .subjectFolds($0) } ?? .subjects, seed: seed, progress: progress)
    }

    /// Cross-validation by `scheme`: for each split a scaler and an estimator are fitted on the
    /// training windows (augmented copies included) and predict the held-out windows as
    /// recorded. Returns the report on the out-of-fold predictions, with figures per data set
    /// (for `.datasets`, each data set's held-out score) and per group inside one.
    public static func crossValidate(_ data: LabelledWindows, labels: LabelMap, estimator kind: EstimatorKind, scheme: CrossValidationScheme, seed: UInt64 = 0,
                                     progress: ((Int, Int) -> Void)? = nil) throws(ClassifierError) -> EvaluationReport {
        let k = labels.classes.count
        if scheme == .datasets {
            let names = Set(data.datasets)
            guard names.count >= 2 else {
                throw .notEnoughData("leave-one-dataset-out needs windows from two or more data sets; found \(names.sorted().map { $0.isEmpty ? "(unnamed)" : $0 })")
            }
            // A held-out data set must leave windows of every class in training.
            for d in names.sorted() {
                var perClass = [Int](repeating: 0, count: k)
                for r in 0..<data.count where data.datasets[r] != d { perClass[data.classes[r]] += 1 }
                if let missing = perClass.firstIndex(of: 0) {
                    throw .notEnoughData("holding out \(d) leaves no '\(labels.classes[missing])' window to train on")
                }
            }
        }
        do {
            let splits: [TrainTestSplit]
            switch scheme {
            case .subjects: splits = try CrossValidation.leaveOneGroupOut(groups: data.subjects)
            case .subjectFolds(let f): splits = try CrossValidation.groupKFold(groups: data.subjects, folds: f)
            case .datasets: splits = try CrossValidation.leaveOneGroupOut(groups: data.datasets)
            }
            let d = data.features.columns
            let all = try Matrix(rows: data.count, cols: d, values: data.features.values)
            var oof = Matrix(rows: data.count, cols: k)
            for (i, split) in splits.enumerated() {
                progress?(i + 1, splits.count)
                var xTrain = all.selectingRows(split.train)
                let yTrain = split.train.map { data.classes[$0] }
                let scaler = try StandardScaler(fitting: xTrain)
                try scaler.transform(inPlace: &xTrain)
                var est = Estimator.make(kind, seed: seed)
                try est.fit(xTrain, yTrain, classCount: k)
                let test = split.test.filter { !data.augmented[$0] }
                var xTest = all.selectingRows(test)
                try scaler.transform(inPlace: &xTest)
                let p = try est.predictProbabilities(xTest)
                for (r, row) in test.enumerated() { for c in 0..<k { oof[row, c] = p[r, c] } }
            }
            // Report on the recordings as recorded only.
            let keep = (0..<data.count).filter { !data.augmented[$0] }
            let oofOriginal = oof.selectingRows(keep)
            let yOriginal = keep.map { data.classes[$0] }
            let name: String
            switch scheme {
            case .subjects: name = "leave-one-subject-out (\(splits.count) subjects)"
            case .subjectFolds(let f): name = "\(f) folds of subjects"
            case .datasets: name = "leave-one-dataset-out (\(splits.count) data sets)"
            }
            return try EvaluationReport(classes: labels.classes, yTrue: yOriginal, probabilities: oofOriginal, scheme: name)
                .withGroups(datasets: keep.map { data.datasets[$0] }, groups: keep.map { data.groups[$0] }, yTrue: yOriginal, probabilities: oofOriginal)
        } catch let e as ClassifierError {
            throw e
        } catch {
            throw .learning("cross-validation failed: \(error)")
        }
    }

    // MARK: Inference

    /// Class probabilities of a feature matrix (rows = windows): `probabilities(row:…)` for each
    /// row, so offline and live predictions are the same bit for bit.
    public func probabilities(_ m: FeatureMatrix) throws(ClassifierError) -> Matrix {
        guard m.columns == features.featureCount else {
            throw .learning("prediction failed: \(m.columns) feature columns, the model reads \(features.featureCount)")
        }
        var p = Matrix(rows: m.rows, cols: classes.count)
        guard m.rows > 0 else { return p }
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: predictionScratchCount)
        defer { scratch.deallocate() }
        m.values.withUnsafeBufferPointer { x in
            p.withUnsafeMutableBufferPointer { pb in
                for r in 0..<m.rows {
                    probabilities(row: x.baseAddress! + r * m.columns, into: pb.baseAddress! + r * classes.count, scratch: scratch)
                }
            }
        }
        return p
    }

    /// Scratch values (`Double`s) that `probabilities(row:into:scratch:)` needs.
    public var predictionScratchCount: Int { features.featureCount + estimator.rowScratchCount }

    /// Class probabilities of one window's features, the one prediction path (live and offline):
    /// the scaler's `(x − mean) / scale`, a feature that is not finite counted as the training
    /// mean (0 after scaling: windows the features cannot describe still get a prediction),
    /// then the estimator's one-row prediction. Reads `features.featureCount` values, writes
    /// `classes.count`, uses `predictionScratchCount` scratch values, allocates nothing.
    public func probabilities(row x: UnsafePointer<Double>, into p: UnsafeMutablePointer<Double>, scratch: UnsafeMutablePointer<Double>) {
        let d = features.featureCount
        scaler.mean.withUnsafeBufferPointer { mean in
            scaler.scale.withUnsafeBufferPointer { scale in
                for j in 0..<d {
                    let v = (x[j] - mean[j]) / scale[j]
                    scratch[j] = v.isFinite ? v : 0
                }
            }
        }
        estimator.predictProbabilities(row: UnsafePointer(scratch), into: p, scratch: scratch + d)
    }

    /// Evaluates on labelled windows (windows whose label the model's map does not know are left out).
    public func evaluate(_ data: LabelledWindows, scheme: String) throws(ClassifierError) -> EvaluationReport {
        guard data.count > 0 else { throw .notEnoughData("no window lies wholly inside a label the model knows (\(labelMap.description))") }
        let p = try probabilities(data.features)
        do {
            return try EvaluationReport(classes: classes, yTrue: data.classes, probabilities: p, scheme: scheme)
                .withGroups(datasets: data.datasets, groups: data.groups, yTrue: data.classes, probabilities: p)
        } catch {
            throw .learning("evaluation failed: \(error)")
        }
    }

    /// One prediction per window of the recording.
    public func classify(_ recording: Recording, path: String) throws(ClassifierError) -> [WindowPrediction] {
        let m = try pipeline.windows(of: recording, path: path)
        let p = try probabilities(m)
        return (0..<m.rows).map { r in prediction(start: m.startTimes[r], end: m.endTimes[r], probabilities: (0..<classes.count).map { p[r, $0] }) }
    }

    // MARK: File

    /// Reads and checks a model file: format, version and every shape.
    public static func load(path: String) throws(ClassifierError) -> MotionModel {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badModel(path: path, found: "no readable file", expected: "a model file (JSON)")
        }
        return try decode(data, source: path)
    }

    /// Decodes and checks a model from JSON bytes; `source` names it in errors.
    public static func decode(_ data: Data, source path: String) throws(ClassifierError) -> MotionModel {
        let model: MotionModel
        // Strict JSON first, so that every syntax error has a place (the decoder accepts some
        // text that is not JSON, and says nothing of where the rest goes wrong).
        let bytes = [UInt8](data)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .badModel(path: path, found: bytes.isEmpty ? "an empty file" : "only white space", expected: "a model file (JSON) written by `motus train`")
        }
        if let p = JSONSyntax.firstProblem(bytes) {
            throw .badModel(path: "\(path):\(p.line):\(p.column)", found: p.found.isEmpty ? "the end of the file" : "'\(p.found)'",
                            expected: "\(p.expected) (a model file is JSON)")
        }
        do {
            model = try JSONDecoder().decode(MotionModel.self, from: data)
        } catch let DecodingError.dataCorrupted(c) {
            throw .badModel(path: path, found: c.codingPath.isEmpty ? "text that is not complete JSON" : "a bad value at \(Self.path(c.codingPath))",
                            expected: "a model file written by `motus train`")
        } catch let DecodingError.keyNotFound(key, c) {
            throw .badModel(path: path, found: "no '\(key.stringValue)' at \(Self.path(c.codingPath))", expected: "a complete model file")
        } catch let DecodingError.typeMismatch(_, c) {
            throw .badModel(path: path, found: "a value of the wrong type at \(Self.path(c.codingPath))", expected: "a model file written by `motus train`")
        } catch let DecodingError.valueNotFound(_, c) {
            throw .badModel(path: path, found: "null at \(Self.path(c.codingPath))", expected: "a value")
        } catch {
            throw .badModel(path: path, found: "\(error)", expected: "a model file written by `motus train`")
        }
        try model.check(path: path)
        return model
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Every shape agrees: classes, map, features, scaler, estimator.
    public func check(path: String) throws(ClassifierError) {
        guard format == Self.formatName else { throw .badModel(path: path, found: "format '\(format)'", expected: "'\(Self.formatName)'") }
        guard version >= 1 && version <= Self.currentVersion else {
            throw .badModel(path: path, found: "version \(version)", expected: "version 1…\(Self.currentVersion) (a newer Motus wrote it?)")
        }
        do { try features.validate() } catch { throw .badModel(path: path, found: "bad features: \(error)", expected: "a valid feature configuration") }
        let d = features.featureCount
        guard classes.count >= 2 else { throw .badModel(path: path, found: "\(classes.count) classes", expected: "at least 2") }
        guard labelMap.classes == classes else { throw .badModel(path: path, found: "label map classes \(labelMap.classes)", expected: "\(classes)") }
        guard scaler.featureCount == d else { throw .badModel(path: path, found: "a scaler for \(scaler.featureCount) features", expected: "\(d) (the feature configuration's)") }
        guard estimator.featureCount == d else {
            throw .badModel(path: path, found: "an estimator for \(estimator.featureCount.map(String.init) ?? "no (unfitted)") features", expected: "\(d)")
        }
        guard estimator.classCount == classes.count else {
            throw .badModel(path: path, found: "an estimator for \(estimator.classCount.map(String.init) ?? "no") classes", expected: "\(classes.count)")
        }
    }

    /// Writes the model file (`encoded()`) to `path`.
    public func write(to path: String) throws(ClassifierError) {
        do { try encoded().write(to: URL(fileURLWithPath: path)) } catch {
            throw .badArgument("\(path): cannot write: \(error.localizedDescription)")
        }
    }

    /// The model file's bytes (what `write(to:)` writes): pretty JSON, keys sorted.
    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try e.encode(self)
    }
}

/// A window's predicted class and probability.
public struct WindowPrediction: Sendable, Equatable, Codable {
    /// Start of the window (s, on the recording's clock).
    public var start: Seconds
    /// End of the window (s).
    public var end: Seconds
    /// Index of the predicted class.
    public var classIndex: Int
    /// Name of the predicted class.
    public var label: String
    /// Probability of `label`.
    public var probability: Double
    /// Every class's probability, in model order.
    public var probabilities: [Double]
}

/// A run of consecutive windows with the same label.
public struct LabelRun: Sendable, Equatable, Codable {
    /// Start of the run (s).
    public var start: Seconds
    /// End of the run (s).
    public var end: Seconds
    /// The class of every window in it.
    public var label: String
    /// Mean probability of `label` over its windows.
    public var meanProbability: Double
    /// Windows in the run.
    public var windows: Int

    /// Merges consecutive windows of the same label. Windows overlap; the boundary between two
    /// runs is put halfway through the overlap of the last window of one and the first of the next.
    public static func merge(_ p: [WindowPrediction]) -> [LabelRun] {
        var merger = Merger()
        var out: [LabelRun] = []
        for w in p { if let done = merger.add(w) { out.append(done) } }
        if let last = merger.finish() { out.append(last) }
        return out
    }

    /// `merge` one window at a time: a run is complete when a window of another label comes.
    public struct Merger: Sendable {
        var current: LabelRun?
        /// A merger that has seen no window.
        public init() {}

        /// Adds the next window; returns the run it completed, if any.
        public mutating func add(_ w: WindowPrediction) -> LabelRun? {
            guard var last = current else {
                current = LabelRun(start: w.start, end: w.end, label: w.label, meanProbability: w.probability, windows: 1)
                return nil
            }
            if last.label == w.label {
                last.meanProbability = (last.meanProbability * Double(last.windows) + w.probability) / Double(last.windows + 1)
                last.windows += 1
                last.end = w.end
                current = last
                return nil
            }
            let boundary = min(last.end, w.start) + abs(last.end - w.start) / 2
            last.end = boundary
            current = LabelRun(start: boundary, end: w.end, label: w.label, meanProbability: w.probability, windows: 1)
            return last
        }

        /// The last run, after the last window.
        public mutating func finish() -> LabelRun? {
            defer { current = nil }
            return current
        }
    }
}
