import Testing
@testable import MotusEvaluation

/// `StepAgreement.group` and `summarize`: devices worn at once, their counts against each other
/// (what `evaluate-steps --pair-by` reports).
@Suite struct StepAgreementTests {
    static func count(_ id: String, _ key: String, _ n: Int) -> StepAgreement.Count {
        StepAgreement.Count(id: id, key: key, device: nil, countedSteps: n)
    }

    @Test func countsAreGroupedByKeyAndALoneCountIsSetApart() {
        let counts = [Self.count("a_sp", "a", 12), Self.count("b_sp", "b", 10), Self.count("a_sw", "a", 16),
                      Self.count("c_sp", "c", 9), Self.count("b_sw", "b", 10), Self.count("b_x", "b", 11)]
        let (groups, unpaired) = StepAgreement.group(counts)
        // Groups in the order their first count comes, counts in the order they come.
        #expect(groups.map(\.key) == ["a", "b"])
        #expect(groups[0].counts.map(\.id) == ["a_sp", "a_sw"] && groups[1].counts.map(\.id) == ["b_sp", "b_sw", "b_x"])
        // The spread is the largest count minus the smallest, also for three devices.
        #expect(groups.map(\.spread) == [4, 1])
        #expect(abs(groups[0].spreadPercent - 100 * 4 / 14.0) < 1e-12)
        #expect(unpaired.map(\.id) == ["c_sp"])

        let s = StepAgreement.summarize(groups)
        #expect(s.groups == 2 && s.recordings == 5 && s.meanSpreadSteps == 2.5)
        #expect(s.equal == 0 && s.withinOne == 1 && s.worstKey == "a")
        #expect(abs(s.meanSpreadPercent - (100 * 4 / 14.0 + 100 * 1 / 31.0 * 3) / 2) < 1e-12)
    }

    @Test func noStepsAnywhereIsEqualAndNoGroupsSummarizeToZero() {
        let (groups, unpaired) = StepAgreement.group([Self.count("x1", "x", 0), Self.count("x2", "x", 0)])
        #expect(unpaired.isEmpty && groups.count == 1 && groups[0].spread == 0 && groups[0].spreadPercent == 0)
        #expect(StepAgreement.summarize(groups).equal == 1)
        let none = StepAgreement.summarize([])
        #expect(none.groups == 0 && none.meanSpreadSteps == 0 && none.worstKey == nil)
    }
}
