import MotusCore
import MotusFeatures

/// Feature windows with their class, subject and recording: what training and evaluation use.
/// A window gets a class only when it lies wholly inside one run of touching label segments
/// that the map gives the same class (so `--map moving=WALKING,TURNING` keeps a window that
/// spans a walk and the turn after it) and overlaps no interruption of it that the ground truth
/// marks (`WindowTruth`); every other window is left out (and counted).
public struct LabelledWindows: Sendable {
    /// One row of features per window.
    public var features: FeatureMatrix
    /// The class index of each window.
    public var classes: [Int]
    /// The subject of each window (cross-validation never splits a subject).
    public var subjects: [String]
    /// The recording each window came from.
    public var recordingIDs: [String]
    /// The data set each window came from (its name, e.g. `motionsense`; empty when not
    /// known): what leave-one-dataset-out cross-validation holds out, and the rows of the
    /// per-data-set figures.
    public var datasets: [String]
    /// The group of each window's recording inside its data set (the entry's whole-recording
    /// label: the walker's mobility aid in WeAllWalk, phone or watch in sp-sw-har; empty when
    /// none), for per-group figures.
    public var groups: [String]
    /// True for windows computed from an augmented copy of a recording (see `Augmentation`);
    /// evaluation uses only the originals.
    public var augmented: [Bool]
    /// Windows seen in total (of the recordings as recorded).
    public var windowsSeen = 0
    /// Windows left out: no single mapped label covers them, or they overlap an interruption
    /// of it (`windowsInterrupted` of them).
    public var windowsUnlabelled = 0
    /// Windows of `windowsUnlabelled` that lie inside a mapped label but overlap an interruption
    /// the ground truth marks (`WindowTruth`: an annotated incident, the reference steps
    /// stopping for `WindowTruth.standingGap` or more, a reference step inside a `still` label).
    public var windowsInterrupted = 0
    /// Recordings read.
    public var recordings = 0

    /// No windows yet, with the columns of `configuration`.
    public init(configuration: FeatureConfiguration) {
        features = FeatureMatrix(columns: configuration.featureCount, names: configuration.featureNames)
        classes = []; subjects = []; recordingIDs = []; augmented = []; datasets = []; groups = []
    }

    /// Adds the labelled windows of one recording, from data set `dataset` and its group
    /// `group` there (both may be empty).
    public mutating func add(_ recording: Recording, id: String, pipeline: MotionPipeline, labels: LabelMap,
                             augmentation: Augmentation = .none, dataset: String = "", group: String = "") throws(ClassifierError) {
        try add(recording, id: id, pipeline: pipeline, labels: labels, isAugmented: false, dataset: dataset, group: group)
        recordings += 1
        for scale in augmentation.dynamicScales {
            try add(Augmentation.scalingDynamics(recording, by: scale), id: id, pipeline: pipeline, labels: labels, isAugmented: true,
                    dataset: dataset, group: group)
        }
    }

    mutating func add(_ recording: Recording, id: String, pipeline: MotionPipeline, labels: LabelMap, isAugmented: Bool,
                      dataset: String, group: String) throws(ClassifierError) {
        let m = try pipeline.windows(of: recording, path: id)
        if !isAugmented { windowsSeen += m.rows }
        let subject = recording.metadata.subject ?? id
        let truth = WindowTruth(labels: recording.labels, events: recording.events, map: labels)
        var leftOut = WindowTruth.LeftOut()
        for r in 0..<m.rows {
            let s = m.startTimes[r], e = m.endTimes[r]
            guard let c = truth.windowClass(start: s, end: e, countingIn: &leftOut) else { continue }
            features.values.append(contentsOf: m.values[(r * m.columns)..<((r + 1) * m.columns)])
            features.startTimes.append(s); features.endTimes.append(e)
            features.rows += 1
            classes.append(c); subjects.append(subject); recordingIDs.append(id); augmented.append(isAugmented)
            datasets.append(dataset); groups.append(group)
        }
        if !isAugmented { windowsUnlabelled += leftOut.all; windowsInterrupted += leftOut.interrupted }
    }

    /// The class of a window from `start` to `end` (s): that of the last run (see `classRuns`)
    /// that holds it wholly, or nil when none does.
    public static func windowClass(start s: Seconds, end e: Seconds, runs: [(start: Seconds, end: Seconds, class: Int)]) -> Int? {
        runs.last { $0.start <= s + 1e-9 && e <= $0.end + 1e-9 }?.class
    }

    /// The label segments as runs of one class: segments the map knows, in time order, with
    /// touching segments of the same class joined. Overlapping segments are kept apart.
    public static func classRuns(_ segments: [LabelSegment], _ labels: LabelMap) -> [(start: Seconds, end: Seconds, class: Int)] {
        var out: [(start: Double, end: Double, class: Int)] = []
        for seg in segments.sorted(by: { $0.start < $1.start }) {
            guard let c = labels.classIndex(of: seg.label) else { continue }
            if let last = out.last, last.class == c, abs(seg.start - last.end) <= 1e-9 {
                out[out.count - 1].end = Swift.max(last.end, seg.end)
            } else {
                out.append((seg.start, seg.end, c))
            }
        }
        return out
    }

    /// Only the windows of the recordings as recorded (no augmented copies).
    public var originals: LabelledWindows {
        guard augmented.contains(true) else { return self }
        var out = self
        out.features = FeatureMatrix(columns: features.columns, names: features.names)
        out.classes = []; out.subjects = []; out.recordingIDs = []; out.augmented = []; out.datasets = []; out.groups = []
        for r in 0..<count where !augmented[r] {
            out.features.values.append(contentsOf: features.values[(r * features.columns)..<((r + 1) * features.columns)])
            out.features.startTimes.append(features.startTimes[r]); out.features.endTimes.append(features.endTimes[r])
            out.features.rows += 1
            out.classes.append(classes[r]); out.subjects.append(subjects[r]); out.recordingIDs.append(recordingIDs[r]); out.augmented.append(false)
            out.datasets.append(datasets[r]); out.groups.append(groups[r])
        }
        return out
    }

    /// Number of windows, augmented copies included.
    public var count: Int { classes.count }

    /// Number of windows computed from the recordings as recorded.
    public var originalCount: Int { augmented.lazy.filter { !$0 }.count }

    /// Windows per class index, for `k` classes.
    public func countPerClass(_ k: Int) -> [Int] {
        var out = [Int](repeating: 0, count: k)
        for c in classes { out[c] += 1 }
        return out
    }
}
