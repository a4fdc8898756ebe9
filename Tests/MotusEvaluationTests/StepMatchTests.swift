import Testing
@testable import MotusEvaluation

/// `StepMatch`: counted steps compared with reference steps one by one, and where the misses
/// and extra steps lie (`evaluate-steps` prints the sum under its summary).
@Suite struct StepMatchTests {
    /// A walk of `n` reference steps every `interval` s from `start`.
    static func walk(from start: Double, steps n: Int, interval: Double = 0.5) -> [Double] {
        (0..<n).map { start + Double($0) * interval }
    }

    @Test func stepsAShortDelayAfterTheirHeelStrikesAllMatch() {
        let reference = Self.walk(from: 10, steps: 20)
        let m = StepMatch.compare(counted: reference.map { $0 + 0.12 }, reference: reference)
        #expect(m.matched == 20 && m.missed == 0 && m.extra == 0)
        #expect(m.precisionPercent == 100 && m.recallPercent == 100 && m.f1Percent == 100)
        // Beyond the tolerance nothing matches: every step is missed, and every counted one extra.
        let late = StepMatch.compare(counted: reference.map { $0 + 0.31 }, reference: reference)
        #expect(late.matched == 19 && late.missed == 1 && late.extra == 1, "each step but the first is within 0.19 s of the next one's heel strike")
        let slow = Self.walk(from: 10, steps: 10, interval: 1)
        let far = StepMatch.compare(counted: slow.map { $0 + 0.35 }, reference: slow)
        #expect(far.matched == 0 && far.extra == 10 && far.missed == 10)
    }

    @Test func aRightCountWithWrongStepsIsSeen() {
        // A missed turn step and an extra step after the walk: the count is right, the steps are not.
        let reference = Self.walk(from: 0, steps: 20)
        var counted = reference.filter { $0 != 5 }
        counted.append(9.9)
        let turn = [(start: 4.2, end: 6.2)]
        let m = StepMatch.compare(counted: counted, reference: reference, turns: turn)
        #expect(counted.count == reference.count)
        #expect(m.matched == 19 && m.missed == 1 && m.extra == 1)
        #expect(m.missedInTurns == 1 && m.missedAtEnds == 0)
        #expect(m.extraAtEnds == 1 && m.extraInTurns == 0, "after the walk's last heel strike")
        #expect(abs(m.precisionPercent - 95) < 1e-9 && abs(m.recallPercent - 95) < 1e-9 && abs(m.f1Percent - 95) < 1e-9)
    }

    @Test func aWalksEndsAreItsBoutsFirstAndLastSteps() {
        // Two walks with a stop of 3 s between: the first and last step of each are ends.
        let reference = Self.walk(from: 0, steps: 10) + Self.walk(from: 7.5, steps: 10)
        let missing: Set<Double> = [0, 4.5, 7.5, 12, 2]
        let counted = reference.filter { !missing.contains($0) } + [5.8, 1.25]
        let m = StepMatch.compare(counted: counted, reference: reference)
        #expect(m.missed == 5 && m.missedAtEnds == 4, "2 s is inside the first walk")
        // 5.8 s lies in the stop (no two steps of one bout around it); 1.25 s inside the walk.
        #expect(m.extra == 2 && m.extraAtEnds == 1 && m.extraInTurns == 0)
    }

    @Test func eachStepMatchesOnceAndTheClosestPairsFirst() {
        // Two counted steps near one heel strike: one matches, the other is extra.
        let m = StepMatch.compare(counted: [1.0, 1.1], reference: [1.08])
        #expect(m.matched == 1 && m.extra == 1 && m.missed == 0)
        // A counted step between two heel strikes goes to the nearer one.
        let n = StepMatch.compare(counted: [1.2, 1.55], reference: [1.0, 1.5])
        #expect(n.matched == 2 && n.missed == 0 && n.extra == 0)
        // The order the steps come in does not matter.
        #expect(StepMatch.compare(counted: [1.55, 1.2], reference: [1.5, 1.0]) == n)
    }

    @Test func nothingCountedOrNothingToFind() {
        let none = StepMatch.compare(counted: [], reference: [1, 2, 3])
        #expect(none.missed == 3 && none.precisionPercent == 0 && none.recallPercent == 0 && none.f1Percent == 0)
        #expect(none.missedAtEnds == 2)
        let noReference = StepMatch.compare(counted: [1, 2], reference: [])
        #expect(noReference.extra == 2 && noReference.extraAtEnds == 2 && noReference.recallPercent == 0)
    }

    @Test func theSummaryAddsTheRecordingsComparisons() {
        let a = StepMatch.compare(counted: [1, 2, 3], reference: [1, 2, 3, 4])
        let b = StepMatch.compare(counted: [1, 2, 3.5], reference: [1, 2])
        var ra = StepGroupTests.row("a", nil, true: 4, counted: 3), rb = StepGroupTests.row("b", nil, true: 2, counted: 3)
        ra.match = a; rb.match = b
        let s = StepEvaluation.summarize([ra, rb, StepGroupTests.row("c", nil, true: 5, counted: 5)])
        #expect(s.match == StepMatch.total([a, b]))
        #expect(s.match.matched == 5 && s.match.missed == 1 && s.match.extra == 1)
    }
}
