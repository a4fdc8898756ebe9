import MotusCore
import MotusSignal

/// The offline detector's choice between agreed steps (`OfflineStepDetector.chooseBetweenAgreedSteps`)
/// for a live session, on its checked steps as they come.
///
/// A checked pedometer step that the live vertical detector also found is agreed. The steps
/// after an agreed step are held until the next agreed step; then the held steps, or the
/// vertical detector's peaks between the two agreed steps (without those within the
/// confirmation tolerance of either), whichever make hops nearer the local rhythm by more than
/// log(`rhythmResolutionRatio`), go out, then the agreed step. The rule and its cost are the
/// offline one's (`OfflineStepDetector.rhythmCost`); where it differs, live: the rhythm is the
/// median of the 2 × `rhythmIntervals` intervals of the checked steps before the later agreed
/// step (offline: `rhythmIntervals` on each side of it), since the steps after it have not
/// come; and a span across a short pause is judged too (offline, a span across a pause of
/// the bout gap keeps its steps): live, the held steps are always the pedometer's, and such a
/// span is where the vertical peaks replace the steps it counted while the walker stood
/// (WeAllWalk's guide-dog walkers). A span longer than `maximumSpanSeconds`, one with more held
/// steps than `capacity`, and the held steps when the walk stops (no step for the bout gap) go
/// out as they came, so no step waits longer than that. Steps before the first agreed step,
/// and after a span that went out as it came, pass straight on until the next agreed step.
///
/// Fixed storage: allocates nothing after `init`.
struct AgreedSpanChoice: Sendable {
    /// The second detector's steps as a span needs them: reported in time order and numbered
    /// from 0, the newest `count − oldest` of them still held.
    protocol Peaks {
        /// Steps reported so far.
        var count: Int { get }
        /// The number of the oldest step still held.
        var oldest: Int { get }
        /// The `n`-th step reported (`oldest ≤ n < count`).
        func step(_ n: Int) -> StepEvent
    }

    /// Steps held in one span (the span goes out as it came when one more comes).
    static let capacity = 64

    let side: Int, gap: Seconds, tolerance: Seconds, margin: Double, maxSpan: Seconds
    // Held steps since the last agreed one.
    var heldTimes: [Double], heldPeaks: [Double], heldFilled: [Bool], heldCount = 0
    var lastAgreed: Double?
    // Decided steps waiting to be taken (a ring: one span's steps and its agreed step).
    var outTimes: [Double], outPeaks: [Double], outFilled: [Bool], outStart = 0, outEnd = 0
    // The times of the last 2 × side + 1 checked steps (ring), for the rhythm.
    var recent: [Double], recentCount = 0
    var scratch: [Double]

    init(settings s: OfflineStepDetector.Settings, maximumSpanSeconds: Seconds) {
        side = Swift.max(1, s.rhythmIntervals)
        gap = s.boutGapSeconds
        tolerance = s.confirmationToleranceSeconds
        margin = Math.log(Swift.max(s.rhythmResolutionRatio, 1))
        maxSpan = maximumSpanSeconds
        let c = Self.capacity, q = 2 * Self.capacity + 1
        heldTimes = [Double](repeating: 0, count: c); heldPeaks = heldTimes; heldFilled = [Bool](repeating: false, count: c)
        outTimes = [Double](repeating: 0, count: q); outPeaks = outTimes; outFilled = [Bool](repeating: false, count: q)
        recent = [Double](repeating: 0, count: 2 * side + 1)
        scratch = [Double](repeating: 0, count: 2 * side)
    }

    /// Whether steps are held, waiting for the next agreed step.
    var isHolding: Bool { heldCount > 0 }
    /// Time (s) of the newest step held, or of the last agreed step when none is.
    var lastTime: Double? { heldCount > 0 ? heldTimes[heldCount - 1] : lastAgreed }

    /// The next decided step, oldest first.
    mutating func pop() -> StepEvent? {
        guard outStart < outEnd else { return nil }
        defer { outStart += 1 }
        let j = outStart % outTimes.count
        return StepEvent(time: outTimes[j], peakToPeak: outPeaks[j], filled: outFilled[j])
    }

    /// The next checked step, in time order; `agreed`: a pedometer step the vertical detector
    /// found. `vertical` gives the peaks of a span.
    mutating func push(_ s: StepEvent, agreed: Bool, vertical: some Peaks) {
        remember(s.time)
        guard let a = lastAgreed else {
            emit(s)
            if agreed { lastAgreed = s.time }
            return
        }
        if s.time - a > maxSpan {
            release()
            emit(s)
            lastAgreed = agreed ? s.time : nil
            return
        }
        guard agreed else {
            if heldCount == Self.capacity { release(); lastAgreed = nil; emit(s); return }
            heldTimes[heldCount] = s.time; heldPeaks[heldCount] = s.peakToPeak; heldFilled[heldCount] = s.filled
            heldCount += 1
            return
        }
        choose(from: a, to: s.time, vertical: vertical)
        emit(s)
        lastAgreed = s.time
    }

    /// Lets the held steps go out as they came (the walk stopped, or the input ended); the
    /// next steps pass straight on until an agreed one.
    mutating func release() {
        releaseHeld()
        lastAgreed = nil
    }

    /// The span from agreed step `a` to agreed step `b`: the held steps or the vertical peaks
    /// inside it, whichever keep nearer the rhythm (see the type's description).
    mutating func choose(from a: Double, to b: Double, vertical v: some Peaks) {
        defer { heldCount = 0 }
        guard let m = rhythm() else { releaseHeld(); return }
        // The vertical peaks inside (a + tolerance, b − tolerance), from the newest back.
        var first = v.count
        let oldest = v.oldest
        while first > oldest && v.step(first - 1).time > a + tolerance { first -= 1 }
        if first == oldest && oldest > 0 { releaseHeld(); return }   // the span's peaks are no longer all held
        var end = first
        while end < v.count && v.step(end).time < b - tolerance { end += 1 }
        let vc = OfflineStepDetector.rhythmCost((first..<end).lazy.map { v.step($0).time }, from: a, to: b, rhythm: m)
        let own = OfflineStepDetector.rhythmCost(heldTimes[0..<heldCount], from: a, to: b, rhythm: m)
        if vc < own - margin && end - first <= Self.capacity {
            for k in first..<end { emit(v.step(k)) }
        } else {
            releaseHeld()
        }
    }

    /// The held steps out as they came, keeping the last agreed step.
    mutating func releaseHeld() {
        for k in 0..<heldCount { emit(StepEvent(time: heldTimes[k], peakToPeak: heldPeaks[k], filled: heldFilled[k])) }
        heldCount = 0
    }

    mutating func emit(_ s: StepEvent) {
        let j = outEnd % outTimes.count
        outTimes[j] = s.time; outPeaks[j] = s.peakToPeak; outFilled[j] = s.filled
        outEnd += 1
    }

    mutating func remember(_ t: Double) {
        recent[recentCount % recent.count] = t
        recentCount += 1
    }

    /// The median of the last 2 × side intervals of the checked steps (those shorter than the
    /// bout gap; nil with fewer than three).
    mutating func rhythm() -> Double? {
        let n = recent.count, have = Swift.min(recentCount, n)
        var m = 0
        if have >= 2 {
            for k in (recentCount - have + 1)..<recentCount {
                let d = recent[k % n] - recent[(k - 1) % n]
                if d < gap { scratch[m] = d; m += 1 }
            }
        }
        guard m >= 3 else { return nil }
        return scratch.medianOfFirst(m)
    }
}

extension VerticalStepStream: AgreedSpanChoice.Peaks {
    var count: Int { steps }
    var oldest: Int { Swift.max(0, steps - Self.stepCapacity) }
    func step(_ n: Int) -> StepEvent {
        let p = reportedStep(n)
        return StepEvent(time: p.time, peakToPeak: p.peakToPeak)
    }
}
