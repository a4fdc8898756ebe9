import Testing
import MotusCore
import MotusClassifier

/// Which windows the ground truth judges: a window inside a mapped label is left out where the
/// ground truth says the labelled activity was interrupted.
@Suite struct WindowTruthTests {
    let map = try! LabelMap(parsing: ["moving=walk,turn", "still=still"])
    let labels = [LabelSegment(start: 0, end: 10, label: "still"), LabelSegment(start: 10, end: 40, label: "walk"),
                  LabelSegment(start: 40, end: 50, label: "still"), LabelSegment(start: 50, end: 70, label: "walk")]

    func steps(_ times: [Double]) -> [GroundTruthEvent] { times.map { GroundTruthEvent(time: $0, kind: "step") } }
    /// Steps every 0.5 s from `a` up to `b`.
    func walk(_ a: Double, _ b: Double) -> [Double] { Array(stride(from: a, to: b, by: 0.5)) }

    @Test func withoutInterruptionsEveryWindowTakesItsLabel() {
        let truth = WindowTruth(labels: labels, events: steps(walk(10.2, 40) + walk(50.2, 70)), map: map)
        #expect(truth.interruptions.isEmpty)
        #expect(truth.judge(start: 12, end: 14.56) == .labelled(0))
        #expect(truth.judge(start: 2, end: 4.56) == .labelled(1))
        #expect(truth.judge(start: 9, end: 11.56) == .unlabelled)
        // The gap between the two walks' steps spans the still label: not an interruption.
        #expect(truth.judge(start: 42, end: 44.56) == .labelled(1))
    }

    @Test func theReferenceStepsStoppingInsideAWalkInterruptIt() {
        // The walker stands from 20 to 23 s (a 3.5 s gap between heel strikes), inside `walk`.
        let truth = WindowTruth(labels: labels, events: steps(walk(10.2, 20) + walk(23.2, 40)), map: map)
        #expect(truth.interruptions.count == 1)
        #expect(truth.judge(start: 20, end: 22.56) == .interrupted)
        #expect(truth.judge(start: 18, end: 20.56) == .interrupted)
        // Windows that only touch the gap's ends are kept.
        #expect(truth.judge(start: 17.14, end: 19.70) == .labelled(0))
        #expect(truth.judge(start: 23.2, end: 25.76) == .labelled(0))
        // A gap just under `standingGap` is walking.
        let slow = WindowTruth(labels: labels, events: steps([10.2, 12.6, 15.0]), map: map)
        #expect(slow.interruptions.isEmpty && slow.judge(start: 11, end: 13.56) == .labelled(0))
    }

    @Test func aStepInsideAStillLabelInterruptsIt() {
        // A few steps after the walk, inside the still label (IPOL's foot sensors find such).
        let truth = WindowTruth(labels: labels, events: steps(walk(10.2, 40) + [44, 44.6]), map: map)
        #expect(truth.judge(start: 43, end: 45.56) == .interrupted)
        #expect(truth.judge(start: 41.9, end: 44.46) == .interrupted)
        #expect(truth.judge(start: 44.8, end: 47.36) == .labelled(1))
        // Under a map with no class named `still`, steps in a run mean nothing by themselves.
        let other = try! LabelMap(parsing: ["moving=walk,turn", "rest=still"])
        let t2 = WindowTruth(labels: labels, events: steps(walk(10.2, 40) + [44, 44.6]), map: other)
        #expect(t2.judge(start: 43, end: 45.56) == .labelled(1))
    }

    @Test func anAnnotatedIncidentInterruptsWhateverTheLabel() {
        let text = "The participant briefly stopped and side stepped"
        let events = steps(walk(10.2, 40)) + [GroundTruthEvent(time: 30, kind: "annotation", detail: text),
                                              GroundTruthEvent(time: 32, kind: "annotation-end", detail: text),
                                              GroundTruthEvent(time: 60, kind: "annotation", detail: "no end")]
        let truth = WindowTruth(labels: labels, events: events, map: map)
        #expect(WindowTruth.incidents(events).map(\.start) == [30, 60] && WindowTruth.incidents(events).map(\.end) == [32, 60])
        #expect(truth.judge(start: 28, end: 30.56) == .interrupted)
        #expect(truth.judge(start: 31.9, end: 34.46) == .interrupted)
        #expect(truth.judge(start: 32, end: 34.56) == .labelled(0))
        // An incident with no end is an instant: only the windows around it.
        #expect(truth.judge(start: 59, end: 61.56) == .interrupted)
        #expect(truth.judge(start: 61, end: 63.56) == .labelled(0))
        #expect(truth.windowClass(start: 28, end: 30.56) == nil && truth.windowClass(start: 12, end: 14.56) == 0)
        // Training and scoring count what they leave out through one counter.
        var left = WindowTruth.LeftOut()
        let classes = [(28, 30.56), (12, 14.56), (9, 11.56), (59, 61.56)].map { truth.windowClass(start: $0.0, end: $0.1, countingIn: &left) }
        #expect(classes == [nil, 0, nil, nil])
        #expect(left.all == 3 && left.interrupted == 2)
    }

    @Test func interruptedWindowsAreLeftOutOfTrainingAndCounted() throws {
        // A synthetic walk whose reference steps stop for 4 s in the middle.
        var r = Synthetic.recording(moving: true, subject: "s", seed: 1, amplitude: 2)
        let span = try #require(r.timeRange)
        r.labels = [LabelSegment(start: span.lowerBound, end: span.upperBound, label: "moving")]
        r.events = steps(walk(span.lowerBound + 0.1, 12) + walk(16, span.upperBound))
        let map = try LabelMap(parsing: ["moving=moving", "still=still"])
        var data = LabelledWindows(configuration: .standard)
        try data.add(r, id: "s", pipeline: MotionPipeline(), labels: map)
        #expect(data.windowsInterrupted > 0 && data.windowsInterrupted <= data.windowsUnlabelled)
        #expect(data.count + data.windowsUnlabelled == data.windowsSeen)
        for i in 0..<data.count {
            #expect(data.features.endTimes[i] <= 12 + 1e-9 || data.features.startTimes[i] >= 16 - 1e-9)
        }
    }
}
