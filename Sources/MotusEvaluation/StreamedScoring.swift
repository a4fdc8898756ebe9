import MotusCore
import MotusIO
import MotusClassifier
import MotusFeatures
import MotusLearn

/// A model's predictions on the labelled windows of recording files, streamed: each file's
/// samples go through `WindowClassifier` as they are read, and only each window's class and
/// probabilities are kept, so a week-long recording scores in the memory of a minute's (plus a
/// few numbers per window). The windows, their labels (`LabelledWindows.windowClass`) and the
/// probabilities are those `LabelledWindows.collect` and `MotionModel.evaluate` give, bit for bit.
public struct StreamedScoring {
    public let model: MotionModel
    public let labels: LabelMap
    /// True class of each scored window, and its probabilities (row-major, one row per window).
    public private(set) var yTrue: [Int] = []
    public private(set) var probabilities: [Double] = []
    public private(set) var recordings = 0
    /// Windows of the recordings, and those left out (not wholly inside a mapped label).
    public private(set) var windowsSeen = 0
    public private(set) var windowsUnlabelled = 0

    public init(model: MotionModel, labels: LabelMap) { self.model = model; self.labels = labels }

    /// True when `path` is a file `score` reads as it goes (a native or delimited recording;
    /// dataset files and folders go through the evaluation loop instead).
    public static func streams(_ path: String, options: DelimitedOptions) -> Bool {
        (try? SampleReader(path: path, options: options, kinds: FrameBuilder.inputKinds))?.isStreamed ?? false
    }

    /// Scores one recording file.
    public mutating func score(path: String, options: DelimitedOptions = .init()) throws {
        var reader = try SampleReader(path: path, options: options, kinds: FrameBuilder.inputKinds)
        var classifier = try WindowClassifier(model: model, kinds: reader.declaredKinds, path: path)
        let runs = LabelledWindows.classRuns(reader.labels, labels)
        var seen = 0, unlabelled = 0
        var y: [Int] = [], p: [Double] = []
        try reader.forEach { s in
            classifier.push(s) { w in
                seen += 1
                guard let c = LabelledWindows.windowClass(start: w.start, end: w.end, runs: runs) else { unlabelled += 1; return }
                y.append(c)
                p.append(contentsOf: w.probabilities)
            }
        }
        yTrue += y; probabilities += p
        windowsSeen += seen; windowsUnlabelled += unlabelled
        recordings += 1
    }

    /// The report over everything scored.
    public func report(scheme: String) throws -> EvaluationReport {
        guard !yTrue.isEmpty else { throw ClassifierError.notEnoughData("no window lies wholly inside a label the model knows (\(labels.description))") }
        let p = try Matrix(rows: yTrue.count, cols: model.classes.count, values: probabilities)
        return try EvaluationReport(classes: model.classes, yTrue: yTrue, probabilities: p, scheme: scheme)
    }
}
