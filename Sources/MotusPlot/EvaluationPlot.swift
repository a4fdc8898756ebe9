import MotusClassifier
import MotusEvaluation

/// Pictures of what the `evaluate*` commands report, drawn from the evaluation library's own
/// result types.
public enum EvaluationPlot {
    /// How many of one recording's windows the model classed right.
    public struct RecordingScore: Sendable, Hashable {
        /// The recording as the evaluation names it (its path or dataset id).
        public var id: String
        /// The recording's windows that were scored.
        public var windows: Int
        /// Of `windows`, those whose predicted class was the true one.
        public var correct: Int
        /// correct / windows (0…1); NaN without windows.
        public var accuracy: Double { windows > 0 ? Double(correct) / Double(windows) : .nan }
        /// A score of `correct` right windows out of `windows` for the recording `id`.
        public init(id: String, windows: Int, correct: Int) { self.id = id; self.windows = windows; self.correct = correct }
    }

    /// Per recording, in order of first appearance: windows and correct predictions, from the
    /// recording of each window, its true class and the predicted class (the arg-max the
    /// report's confusion matrix counts).
    public static func recordingScores(ids: [String], yTrue: [Int], predicted: [Int]) -> [RecordingScore] {
        var order: [String] = [], index: [String: Int] = [:], out: [RecordingScore] = []
        for i in ids.indices where i < yTrue.count && i < predicted.count {
            let k: Int
            if let j = index[ids[i]] { k = j } else {
                k = out.count; index[ids[i]] = k; order.append(ids[i]); out.append(RecordingScore(id: ids[i], windows: 0, correct: 0))
            }
            out[k].windows += 1
            if yTrue[i] == predicted[i] { out[k].correct += 1 }
        }
        return out
    }

    /// `motus evaluate`: the confusion matrix, the per-class scores and, when known, the
    /// accuracy of each recording, one figure.
    public static func evaluation(_ r: EvaluationReport, recordings: [RecordingScore] = []) -> SVGDocument {
        var head = "\(r.windows) windows: accuracy \(num(r.accuracy * 100, 2, trimmed: false)) %, balanced accuracy \(num(r.balancedAccuracy * 100, 2, trimmed: false)) %, macro F1 \(num(r.macroF1, 3, trimmed: false))"
        if let auc = r.rocAUC { head += ", ROC AUC \(num(auc, 3, trimmed: false))" }
        let matrix = MatrixChart(title: "Confusion matrix", notes: [r.scheme, head], rowTitle: "true class", columnTitle: "predicted class",
                                 labels: r.classes, counts: r.confusion, width: 960)
        let perClass = RowChart(title: "Scores per class", xLabel: "score (0…1)", rows: r.classes, series: [
            .init(name: "precision", color: Palette.blue, values: r.perClass.map(\.precision), style: .bar),
            .init(name: "recall", color: Palette.orange, values: r.perClass.map(\.recall), style: .bar),
            .init(name: "F1", color: Palette.bluishGreen, values: r.perClass.map(\.f1), style: .bar),
        ], rowNotes: r.perClass.map { "\($0.support) windows" }, xRange: 0...1)
        var docs = [matrix.draw(), perClass.draw()]
        if !recordings.isEmpty {
            let names = withoutCommonFolder(recordings.map(\.id))
            let rows = RowChart(title: "Accuracy per recording", notes: ["windows classed right / windows of the recording"], xLabel: "accuracy (%)",
                                rows: names,
                                series: [.init(name: "accuracy", color: Palette.blue, values: recordings.map { $0.accuracy * 100 }, style: .bar)],
                                rowNotes: recordings.map { "\($0.correct)/\($0.windows)" }, xRange: 0...100)
            docs.append(rows.draw())
        }
        return SVGDocument.stacked(docs)
    }

    /// The names without the folder they all share (paths read better from where they differ).
    static func withoutCommonFolder(_ names: [String]) -> [String] {
        guard names.count > 1, var prefix = names.first?.split(separator: "/", omittingEmptySubsequences: false).dropLast() else { return names }
        for n in names.dropFirst() {
            let parts = n.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            var k = 0
            while k < prefix.count && k < parts.count && prefix[prefix.startIndex + k] == parts[parts.startIndex + k] { k += 1 }
            prefix = prefix.prefix(k)
        }
        guard !prefix.isEmpty else { return names }
        let cut = prefix.map(\.count).reduce(0, +) + prefix.count
        return names.map { String($0.dropFirst(cut)) }
    }

    /// `motus evaluate-steps`: true and counted steps per recording, with the error.
    public static func steps(_ rows: [StepEvaluation.Row], summary s: StepEvaluation.Summary) -> RowChart {
        let notes = ["\(s.recordings) recordings, \(s.trueSteps) true steps, \(s.countedSteps) counted",
                     "MAPE \(num(s.mape, 2, trimmed: false)) %, median |error| \(num(s.medianAbsErrorPercent, 2, trimmed: false)) %, worst \(num(s.worstAbsErrorPercent, 2, trimmed: false)) % (\(s.worstID ?? "-"))"]
        return RowChart(title: "Steps counted and true, per recording", notes: notes, xLabel: "steps", rows: rows.map(\.id), series: [
            .init(name: "counted", color: Palette.blue, values: rows.map { Double($0.countedSteps) }, style: .bar),
            .init(name: "true", color: Palette.black, values: rows.map { Double($0.trueSteps) }, style: .dot),
        ], rowNotes: rows.map { ($0.errorPercent >= 0 ? "+" : "") + num($0.errorPercent, 1, trimmed: false) + " %" })
    }

    /// `motus evaluate-fusion`: the median and 95th percentile per recording (when there is
    /// more than one) above the error over time of `shown`.
    public static func fusion(_ report: FusionEvaluation.Report, shown: FusionEvaluation.RecordingResult) -> SVGDocument {
        var docs: [SVGDocument] = []
        if report.recordings.count > 1 {
            let o = report.overall
            docs.append(RowChart(title: "Gravity direction error per recording",
                                 notes: ["all samples: median \(num(o.medianDegrees, 2, trimmed: false))°, p95 \(num(o.p95Degrees, 2, trimmed: false))°, RMSE \(num(o.rmseDegrees, 2, trimmed: false))°"],
                                 xLabel: "error (°)", rows: report.recordings.map(displayName), series: [
                                    .init(name: "median", color: Palette.blue, values: report.recordings.map(\.summary.medianDegrees), style: .dot),
                                    .init(name: "95th percentile", color: Palette.vermillion, values: report.recordings.map(\.summary.p95Degrees), style: .dot),
                                 ]).draw())
        }
        docs.append(fusionErrorOverTime(shown).draw(idPrefix: "e-"))
        return SVGDocument.stacked(docs)
    }

    /// A recording's name with its activity when the name does not hold it ("wlk/sub_2.csv").
    public static func displayName(_ r: FusionEvaluation.RecordingResult) -> String {
        r.activity == "-" || r.activity.isEmpty || r.name.contains(r.activity) ? r.name : "\(r.activity)/\(r.name)"
    }

    /// The error of one recording over time (s from its first scored sample).
    public static func fusionErrorOverTime(_ r: FusionEvaluation.RecordingResult) -> Chart {
        let t0 = r.errorTimes.first ?? 0
        let xs = r.errorTimes.count == r.errorsDegrees.count ? r.errorTimes.map { $0 - t0 } : r.errorsDegrees.indices.map(Double.init)
        var gap: Double?
        if xs.count > 2 {
            var d = zip(xs.dropFirst(), xs).map { $0 - $1 }
            d.sort()
            gap = d[d.count / 2] * 5
        }
        let s = r.summary
        return Chart(title: "Gravity direction error over time: \(displayName(r))",
                     notes: ["median \(num(s.medianDegrees, 2, trimmed: false))°, p95 \(num(s.p95Degrees, 2, trimmed: false))°, mean \(num(s.meanDegrees, 2, trimmed: false))°, RMSE \(num(s.rmseDegrees, 2, trimmed: false))° over \(s.count) samples"],
                     xLabel: r.errorTimes.count == r.errorsDegrees.count ? "time since the first scored sample (s)" : "scored sample",
                     panels: [Panel(yLabel: "error (°)", height: 220, includeZero: true, lines: [
                        LineSeries(name: "angle between estimated and reference gravity", color: Palette.blue, xs: xs, ys: r.errorsDegrees, maxGap: gap, width: 0.9),
                     ])])
    }
}
