import Testing
@testable import MotusClassifier
import MotusCore
import MotusFeatures
import MotusLearn

/// Several data sets at once: per-data-set figures and leave-one-dataset-out cross-validation.
@Suite struct DatasetCrossValidationTests {
    /// Three synthetic data sets: `pocket` and `belt` with moving and still recordings (the
    /// belt's steps move the sensor less), `wrist` with moving recordings only, of two groups.
    static func windows() throws -> LabelledWindows {
        var data = LabelledWindows(configuration: .standard)
        var seed: UInt64 = 0
        for (dataset, amplitude, still) in [("pocket", 3.0, true), ("belt", 1.0, true), ("wrist", 2.0, false)] {
            for s in 0..<2 {
                for moving in still ? [true, false] : [true] {
                    seed += 1
                    let r = Synthetic.recording(moving: moving, seconds: 20, subject: "\(dataset)/s\(s)", seed: seed, amplitude: amplitude)
                    try data.add(r, id: "\(dataset)-\(s)-\(moving)", pipeline: MotionPipeline(), labels: Synthetic.labels,
                                 dataset: dataset, group: dataset == "wrist" ? (s == 0 ? "left" : "right") : "")
                }
            }
        }
        return data
    }

    /// The windows whose data set passes `keep`.
    static func subset(_ d: LabelledWindows, _ keep: (String) -> Bool) -> LabelledWindows {
        var out = LabelledWindows(configuration: .standard)
        for r in 0..<d.count where keep(d.datasets[r]) {
            out.features.values.append(contentsOf: d.features.values[(r * d.features.columns)..<((r + 1) * d.features.columns)])
            out.features.startTimes.append(d.features.startTimes[r]); out.features.endTimes.append(d.features.endTimes[r])
            out.features.rows += 1
            out.classes.append(d.classes[r]); out.subjects.append(d.subjects[r]); out.recordingIDs.append(d.recordingIDs[r])
            out.augmented.append(d.augmented[r]); out.datasets.append(d.datasets[r]); out.groups.append(d.groups[r])
        }
        return out
    }

    @Test func eachDataSetIsScoredByAModelTrainedOnTheOthers() throws {
        let data = try Self.windows()
        #expect(data.datasets.count == data.count && data.groups.count == data.count)
        let report = try MotionModel.crossValidate(data, labels: Synthetic.labels, estimator: .logistic, scheme: .datasets)
        #expect(report.scheme == "leave-one-dataset-out (3 data sets)")
        #expect(report.windows == data.count)
        let groups = try #require(report.groups)
        #expect(groups.map(\.name) == ["pocket", "belt", "wrist", "wrist/left", "wrist/right"])
        // Each held-out row equals a model trained without that data set, scored on it.
        for name in ["pocket", "belt", "wrist"] {
            let g = try #require(groups.first { $0.name == name })
            let rows = (0..<data.count).filter { data.datasets[$0] == name }
            #expect(g.windows == rows.count)
            #expect(g.windowsPerClass == [rows.filter { data.classes[$0] == 0 }.count, rows.filter { data.classes[$0] == 1 }.count])
            let model = try MotionModel.train(Self.subset(data) { $0 != name }, labels: Synthetic.labels, features: .standard,
                                              estimator: .logistic, sources: [])
            let direct = try model.evaluate(Self.subset(data) { $0 == name }, scheme: "direct")
            #expect(abs(direct.balancedAccuracy - g.balancedAccuracy) < 1e-12)
            #expect(zip(direct.perClass, g.recall).allSatisfy { s, r in s.support == 0 ? r == nil : abs(s.recall - r!) < 1e-12 })
        }
        // The wrist has no still window: its still recall is absent, its balanced accuracy the moving recall.
        let wrist = try #require(groups.first { $0.name == "wrist" })
        #expect(wrist.windowsPerClass[1] == 0 && wrist.recall[1] == nil && wrist.balancedAccuracy == wrist.recall[0])
        #expect(groups.filter { $0.name.hasPrefix("wrist/") }.map(\.windows).reduce(0, +) == wrist.windows)
    }

    @Test func leaveOneDatasetOutNeedsTwoDataSetsAndEveryClassLeftToTrainOn() throws {
        var one = LabelledWindows(configuration: .standard)
        for moving in [true, false] {
            try one.add(Synthetic.recording(moving: moving, seconds: 15, subject: "a", seed: moving ? 1 : 2), id: "a\(moving)",
                        pipeline: MotionPipeline(), labels: Synthetic.labels, dataset: "only")
        }
        do { _ = try MotionModel.crossValidate(one, labels: Synthetic.labels, estimator: .logistic, scheme: .datasets); Issue.record("no error") } catch {
            #expect("\(error)".contains("two or more data sets"))
        }
        // A second data set of moving windows only: holding out the first leaves no still window.
        try one.add(Synthetic.recording(moving: true, seconds: 15, subject: "b", seed: 3), id: "b", pipeline: MotionPipeline(),
                    labels: Synthetic.labels, dataset: "walks")
        do { _ = try MotionModel.crossValidate(one, labels: Synthetic.labels, estimator: .logistic, scheme: .datasets); Issue.record("no error") } catch {
            #expect("\(error)".contains("holding out only leaves no 'still' window"))
        }
    }

    @Test func groupsAreListedOnlyWhenThereIsMoreThanOne() throws {
        let p = try Matrix(rows: 6, cols: 2, values: [0.9, 0.1, 0.2, 0.8, 0.3, 0.7, 0.1, 0.9, 0.6, 0.4, 0.8, 0.2])
        let y = [0, 0, 1, 1, 0, 0]
        let base = try EvaluationReport(classes: ["moving", "still"], yTrue: y, probabilities: p, scheme: "t")
        // One data set, no groups: nothing to add.
        #expect(try base.withGroups(datasets: Array(repeating: "a", count: 6), groups: Array(repeating: "", count: 6), yTrue: y, probabilities: p).groups == nil)
        // One data set of two groups: the groups only.
        let g = try #require(try base.withGroups(datasets: Array(repeating: "a", count: 6), groups: ["x", "x", "x", "y", "y", "y"], yTrue: y, probabilities: p).groups)
        #expect(g.map(\.name) == ["a/x", "a/y"])
        // x: moving rows 0 (right) and 1 (wrong: predicted still), still row 2 (right).
        #expect(g[0].windowsPerClass == [2, 1] && g[0].recall == [0.5, 1] && g[0].balancedAccuracy == 0.75)
        // y: still row 3 (right), moving rows 4 and 5 (right).
        #expect(g[1].windowsPerClass == [2, 1] && g[1].accuracy == 1)
        // Two data sets: a row each, and the groups of the one that has several.
        let two = try #require(try base.withGroups(datasets: ["a", "a", "b", "b", "b", "b"], groups: ["", "", "x", "y", "x", "y"], yTrue: y, probabilities: p).groups)
        #expect(two.map(\.name) == ["a", "b", "b/x", "b/y"])
        #expect(two[0].windows == 2 && two[0].recall[1] == nil && two[0].balancedAccuracy == 0.5)
    }

    @Test func aMapForScoringMayNameOneClass() throws {
        let m = try LabelMap(parsing: ["moving=walk,turn"], minimumClasses: 1)
        #expect(m.classes == ["moving"] && m.classIndex(of: "turn") == 0)
        #expect(throws: ClassifierError.self) { try LabelMap(parsing: ["moving=walk"]) }
    }
}
