import Testing
@testable import MotusEvaluation

/// `StepEvaluation.summarizeGroups`: the step figures per group of recordings (Oxford's carry
/// positions, WeAllWalk's mobility aids), what `evaluate-steps` prints under its summary.
@Suite struct StepGroupTests {
    static func row(_ id: String, _ group: String?, true t: Int, counted c: Int) -> StepEvaluation.Row {
        StepEvaluation.Row(id: id, group: group, trueSteps: t, countedSteps: c,
                           errorPercent: 100 * Double(c - t) / Double(t), source: "accelerometer (offline)")
    }

    @Test func eachGroupIsSummarizedOnItsOwnRowsInTheOrderTheGroupsCome() {
        let rows = [Self.row("a1", "long-cane", true: 100, counted: 102),
                    Self.row("b1", "none", true: 50, counted: 50),
                    Self.row("a2", "long-cane", true: 100, counted: 96),
                    Self.row("c1", nil, true: 10, counted: 20),
                    Self.row("b2", "none", true: 50, counted: 51)]
        let groups = StepEvaluation.summarizeGroups(rows)
        #expect(groups.map(\.group) == ["long-cane", "none"])
        let cane = groups[0].summary, sighted = groups[1].summary
        #expect(cane.recordings == 2 && cane.trueSteps == 200 && cane.countedSteps == 198)
        #expect(abs(cane.mape - 3) < 1e-12 && cane.worstID == "a2" && abs(cane.worstAbsErrorPercent - 4) < 1e-12)
        #expect(sighted.recordings == 2 && abs(sighted.mape - 1) < 1e-12 && sighted.worstID == "b2")
        // A row without a group counts in the whole summary only.
        #expect(StepEvaluation.summarize(rows).recordings == 5)
        #expect(groups == StepEvaluation.summarizeGroups(rows.filter { $0.group != nil }))
    }

    @Test func noGroupsWhenNoRecordingHasOne() {
        #expect(StepEvaluation.summarizeGroups([Self.row("x", nil, true: 10, counted: 10)]).isEmpty)
        #expect(StepEvaluation.summarizeGroups([]).isEmpty)
    }
}
