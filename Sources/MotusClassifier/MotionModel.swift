import Foundation
import MotusCore
import MotusFusion
import MotusFeatures
import MotusLearn

/// A moving-vs-still (or any activity) model: versioned JSON with the classes, the feature
/// configuration (so a model always computes its own features), the scaler, the estimator,
/// a description of the training data and the cross-validated metrics.
public struct MotionModel: Codable, Sendable, Equatable {
    public static let formatName = "motus-model"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var classes: [String]
    public var labelMap: LabelMap
    public var features: FeatureConfiguration
    /// Sensor fusion used when a recording has no gravity stream.
    public var fusion: AttitudeFilter.Settings
    public var scaler: StandardScaler
    public var estimator: Estimator
    public var training: TrainingDescription
    public var crossValidation: EvaluationReport?
    /// How gravity was fused for recordings without it when the model was trained (nil: live,
    /// the only mode a session has). A model trained offline still runs live in a session.
    public var fusionMode: FusionPipeline.Mode?

    public struct TrainingDescription: Codable, Sendable, Equatable {
        public var sources: [String]
        public var recordings: Int
        public var subjects: Int
        public var windowsPerClass: [String: Int]
        public var windowsLeftOut: Int
        public var command: String?
        public var seed: UInt64
        public var augmentation: Augmentation?
        public init(sources: [String], recordings: Int, subjects: Int, windowsPerClass: [String: Int], windowsLeftOut: Int, command: String?, seed: UInt64) {
            self.sources = sources; self.recordings = recordings; self.subjects = subjects
            self.windowsPerClass = windowsPerClass; self.windowsLeftOut = windowsLeftOut; self.command = command; self.seed = seed
        }
        public init(sources: [String], recordings: Int, subjects: Int, windowsPerClass: [String: Int], windowsLeftOut: Int, command: String?, seed: UInt64,
                    augmentation: Augmentation) {
            self.init(sources: sources, recordings: recordings, subjects: subjects, windowsPerClass: windowsPerClass,
                      windowsLeftOut: windowsLeftOut, command: command, seed: seed)
            self.augmentation = augmentation
        }
    }

    public var pipeline: MotionPipeline { MotionPipeline(features: features, fusion: fusion, fusionMode: fusionMode ?? .live) }

    // MARK: Training

    /// Fits the scaler and the estimator on all windows.
    public static func train(_ data: LabelledWindows, labels: LabelMap, features: FeatureConfiguration, fusion: AttitudeFilter.Settings = .default,
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

    /// Cross-validation grouped by subject: `folds` = nil for leave-one-subject-out, else k
    /// folds of subjects. No subject is ever in both training and test data. Returns the
    /// report on the out-of-fold predictions.
    public static func crossValidate(_ data: LabelledWindows, labels: LabelMap, estimator kind: EstimatorKind, folds: Int? = nil, seed: UInt64 = 0,
                                     progress: ((Int, Int) -> Void)? = nil) throws(ClassifierError) -> EvaluationReport {
        let k = labels.classes.count
        do {
            let splits = try folds.map { try CrossValidation.groupKFold(groups: data.subjects, folds: $0) }
                ?? CrossValidation.leaveOneGroupOut(groups: data.subjects)
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
            let scheme = folds.map { "\($0) folds of subjects" } ?? "leave-one-subject-out (\(splits.count) subjects)"
            return try EvaluationReport(classes: labels.classes, yTrue: yOriginal, probabilities: oofOriginal, scheme: scheme)
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
        do { return try EvaluationReport(classes: classes, yTrue: data.classes, probabilities: p, scheme: scheme) } catch {
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
    public var start: Double
    public var end: Double
    public var classIndex: Int
    public var label: String
    /// Probability of `label`.
    public var probability: Double
    public var probabilities: [Double]
}

/// A run of consecutive windows with the same label.
public struct LabelRun: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var label: String
    public var meanProbability: Double
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
