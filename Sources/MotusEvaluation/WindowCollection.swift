import MotusCore
import MotusClassifier

extension LabelledWindows {
    /// The labelled feature windows of every entry of `datasets`, by the one evaluation loop:
    /// what `train` and `evaluate` learn from and score. `labels` nil makes every label its own
    /// class (in order of first appearance; the recordings are then held until all labels are
    /// known). A window's subject is its entry's (`EvaluationRecording.subject`).
    public static func collect(_ datasets: [EvaluationDataset], pipeline: MotionPipeline, labels: LabelMap?,
                               augmentation: Augmentation = .none,
                               progress: ((_ done: Int, _ total: Int, _ windows: Int) -> Void)? = nil) throws -> (LabelledWindows, LabelMap) {
        var data = LabelledWindows(configuration: pipeline.features)
        func add(_ e: EvaluationRecording, _ map: LabelMap) throws {
            var r = e.recording
            r.metadata.subject = e.subject
            try data.add(r, id: e.entry.path, pipeline: pipeline, labels: map, augmentation: augmentation)
        }
        if let labels {
            _ = try Evaluation.run(datasets, setAside: .fail, progress: { d, t in progress?(d, t, data.count) }) { e -> Bool? in
                try add(e, labels); return true
            }
            return (data, labels)
        }
        let all = try Evaluation.run(datasets, setAside: .fail, progress: { d, t in progress?(d, t, 0) }) { e -> EvaluationRecording? in e }.rows
        let map = LabelMap.identity(all.flatMap { $0.truth.labels.map(\.label) })
        for e in all { try add(e, map) }
        return (data, map)
    }
}
