import MotusCore
import MotusIO
import MotusClassifier
import MotusFeatures
import MotusLearn

/// A model's predictions on the labelled windows of recording files, streamed: each file's
/// samples go through `WindowClassifier` as they are read, and only each window's class and
/// probabilities are kept, so a week-long recording scores in the memory of a minute's (plus a
/// few numbers per window). The windows, their labels (`WindowTruth`) and the
/// probabilities are those `LabelledWindows.collect` and `MotionModel.evaluate` give, bit for bit.
public struct StreamedScoring {
    /// The model whose predictions are scored.
    public let model: MotionModel
    /// Maps the recordings' labels to the model's classes; windows not wholly inside one run of
    /// mapped labels are not scored.
    public let labels: LabelMap
    /// True class (index into `model.classes`) of each scored window, in the order scored.
    public private(set) var yTrue: [Int] = []
    /// The model's class probabilities for each scored window: row-major, one row of
    /// `model.classes.count` values per entry of `yTrue`.
    public private(set) var probabilities: [Double] = []
    /// Recording files scored so far.
    public private(set) var recordings = 0
    /// Windows the classifier completed over the recordings, scored or not.
    public private(set) var windowsSeen = 0
    /// Windows left out because they do not lie wholly inside a mapped label, or overlap an
    /// interruption of it (`WindowTruth`).
    public private(set) var windowsUnlabelled = 0
    /// Windows of `windowsUnlabelled` inside a mapped label that cross an interruption the
    /// ground truth marks.
    public private(set) var windowsInterrupted = 0

    /// An empty scoring of `model`, its classes given by `labels`.
    public init(model: MotionModel, labels: LabelMap) { self.model = model; self.labels = labels }

    /// True when `path` is a file `score` reads as it goes (a native or delimited recording;
    /// dataset files and folders go through the evaluation loop instead).
    public static func streams(_ path: String, options: DelimitedOptions) -> Bool {
        (try? SampleReader(path: path, options: options, kinds: FrameBuilder.inputKinds))?.isStreamed ?? false
    }

    /// Scores one recording file: its windows are classified as its samples are read, and the
    /// labelled ones added to `yTrue` and `probabilities`. A file that fails leaves the scoring
    /// as it was.
    ///
    /// - Throws: `InputError` when the file cannot be read or holds bad input (file, line and
    ///   column), and `ClassifierError` when it lacks a stream the model's features need.
    public mutating func score(path: String, options: DelimitedOptions = .init()) throws {
        var reader = try SampleReader(path: path, options: options, kinds: FrameBuilder.inputKinds)
        var classifier = try WindowClassifier(model: model, kinds: reader.declaredKinds, path: path)
        let truth = WindowTruth(labels: reader.labels, events: reader.events, map: labels)
        var seen = 0
        var leftOut = WindowTruth.LeftOut()
        var y: [Int] = [], p: [Double] = []
        try reader.forEachReadingAhead { s in
            classifier.push(s) { w in
                seen += 1
                guard let c = truth.windowClass(start: w.start, end: w.end, countingIn: &leftOut) else { return }
                y.append(c)
                p.append(contentsOf: w.probabilities)
            }
        }
        yTrue += y; probabilities += p
        windowsSeen += seen; windowsUnlabelled += leftOut.all; windowsInterrupted += leftOut.interrupted
        recordings += 1
    }

    /// The report over everything scored (accuracy, per-class scores, confusion matrix), with
    /// `scheme` naming how the figures were obtained.
    ///
    /// - Throws: `ClassifierError.notEnoughData` when no window was scored.
    public func report(scheme: String) throws -> EvaluationReport {
        guard !yTrue.isEmpty else { throw ClassifierError.notEnoughData("no window lies wholly inside a label the model knows (\(labels.description))") }
        let p = try Matrix(rows: yTrue.count, cols: model.classes.count, values: probabilities)
        return try EvaluationReport(classes: model.classes, yTrue: yTrue, probabilities: p, scheme: scheme)
    }
}
