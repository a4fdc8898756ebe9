import Foundation
import Testing
import MotusCore
import MotusIO
import MotusClassifier
import MotusEvaluation

/// `motus evaluate` scores recording files as it reads them (`StreamedScoring`); the report
/// must be the one the evaluation loop gives on the same files, figure for figure.
@Suite struct StreamedScoringTests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))

    @Test func streamedReportEqualsTheLoops() throws {
        guard let shared = Self.shared else {
            print("StreamedScoringTests: ../shared/datasets not found (set MOTUS_DATASETS); skipped")
            return
        }
        // IPOL trials (still and walk labels) written as native files, streams interleaved.
        let trials = try EvaluationDataset.open(shared + "/ipol/voisard2023_ipol497").entries.prefix(8)
        let dir = NSTemporaryDirectory() + "motus-streamed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for (i, e) in trials.enumerated() {
            let path = dir + "/trial\(i).motus"
            var r = try RecordingLoader.load(path: e.path)
            // An annotated incident in the first trial's walk: its windows are left out alike.
            if i == 0, let walk = r.labels.first(where: { $0.label == "walk" }) {
                r.events += [GroundTruthEvent(time: walk.start + 2, kind: "annotation", detail: "a stop"),
                             GroundTruthEvent(time: walk.start + 3, kind: "annotation-end", detail: "a stop")]
            }
            try NativeWriter.write(r, to: path)
            files.append(path)
        }
        let model = MotionModel.shipped
        let labels = try LabelMap(parsing: ["moving=walk", "still=still"])
        var scoring = StreamedScoring(model: model, labels: labels)
        for f in files {
            #expect(StreamedScoring.streams(f, options: .init()))
            try scoring.score(path: f)
        }
        let streamed = try scoring.report(scheme: "s")
        let (data, _) = try LabelledWindows.collect(try files.map { try EvaluationDataset.open($0) }, pipeline: model.pipeline, labels: labels)
        let batch = try model.evaluate(data, scheme: "s")
        #expect(streamed.windows == batch.windows && streamed.windows > 50)
        #expect(streamed.confusion == batch.confusion)
        #expect(streamed.logLoss == batch.logLoss)
        #expect(streamed.balancedAccuracy == batch.balancedAccuracy)
        #expect(scoring.windowsSeen == data.windowsSeen && scoring.windowsUnlabelled == data.windowsUnlabelled)
        #expect(scoring.windowsInterrupted == data.windowsInterrupted && data.windowsInterrupted > 0)
    }
}
