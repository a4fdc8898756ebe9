import MotusCore
import MotusClassifier

/// Collecting labelled windows from datasets with ground truth: the evaluation loop's side of
/// `train`, `evaluate` and feature export, and the naming of data sets and subjects that keeps
/// the cross-validation folds of different data sets apart.
extension LabelledWindows {
    /// The labelled feature windows of every entry of `datasets`, by the one evaluation loop:
    /// what `train` and `evaluate` learn from and score. `labels` nil makes every label its own
    /// class (in order of first appearance; the recordings are then held until all labels are
    /// known). A window's subject is its entry's (`EvaluationRecording.subject`) prefixed with
    /// its data set's name (`motionsense/sub_3`), so that subjects of different data sets never
    /// share a fold; its data set is the dataset's name (its path when two datasets given share
    /// a name) and its group the entry's label. Returns the windows and the label map used
    /// (`labels`, or the one built from the labels found).
    ///
    /// - Throws: an entry's `InputError` (a set-aside entry stops the run, naming its missing
    ///   file), `ClassifierError` when a recording lacks a stream the features need, and
    ///   `.unreadable` when a dataset changed during the run.
    public static func collect(_ datasets: [EvaluationDataset], pipeline: MotionPipeline, labels: LabelMap?,
                               augmentation: Augmentation = .none,
                               progress: ((_ done: Int, _ total: Int, _ windows: Int) -> Void)? = nil) throws -> (LabelledWindows, LabelMap) {
        var data = LabelledWindows(configuration: pipeline.features)
        let owner = datasetOfEntries(datasets)
        func add(_ e: EvaluationRecording, _ map: LabelMap) throws {
            var r = e.recording
            let dataset = owner[e.entry.path] ?? ""
            r.metadata.subject = subject(e.subject, dataset: dataset)
            try data.add(r, id: e.entry.path, pipeline: pipeline, labels: map, augmentation: augmentation,
                         dataset: dataset, group: e.entry.label ?? "")
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

    /// A name per dataset for reports and leave-one-dataset-out folds: the dataset's own name
    /// (`motionsense`, `ipol`, or a folder's name), its root path where two share a name.
    public static func datasetNames(_ datasets: [EvaluationDataset]) -> [String] {
        let names = datasets.map(\.name)
        return zip(datasets, names).map { ds, n in names.filter { $0 == n }.count > 1 ? ds.root : n }
    }

    /// The data set (`datasetNames`) of each entry of `datasets`, by the entry's path.
    public static func datasetOfEntries(_ datasets: [EvaluationDataset]) -> [String: String] {
        var owner: [String: String] = [:]
        for (ds, name) in zip(datasets, datasetNames(datasets)) { for e in ds.entries { owner[e.path] = owner[e.path] ?? name } }
        return owner
    }

    /// A subject as windows carry it: prefixed with its data set (`ipol/3`), so that subjects of
    /// two data sets never meet in one cross-validation fold.
    public static func subject(_ subject: String, dataset: String) -> String {
        dataset.isEmpty ? subject : "\(dataset)/\(subject)"
    }
}
