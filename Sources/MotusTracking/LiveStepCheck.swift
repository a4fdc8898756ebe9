import MotusCore
import MotusSignal

/// The live session's check on its pedometer's steps: `StepRhythmCheck` with the confirmations
/// of `VerticalStepStream`, the two halves of the offline detector's step mending that need no
/// whole recording. A pedometer step the vertical detector does not find, which splits one
/// regular interval of the walk in two, is not counted; nor are such steps when
/// `OfflineStepDetector.Settings.unconfirmedRunSteps` of them in a row come more often than
/// their own rhythm (a phone handled after a walk, a cane's taps in a turn).
///
/// The other way round, a walk the pedometer does not hear is counted from the vertical
/// detector's peaks (`SilentWalk`): at low sampling rates a swinging arm's |a| can break the
/// pedometer's rhythm for a whole walk while the acceleration along gravity keeps it. Peaks
/// with no pedometer step near them count once `SilentWalk.peaks` of them keep a walking
/// rhythm, the device's posture stays the same from stride to stride (a phone being handled
/// turns) and the unfiltered acceleration along gravity repeats itself one and two strides
/// later (`VerticalStepStream.periodicity`): jolts at random times or a standing sway, which
/// the band-pass can ring into a regular train of peaks, do not repeat. A short walk right
/// after standing up (a few steps, a turn, a few steps back) does not repeat itself either, so
/// a run in the bout that begins with a change of posture (`postureChanged(at:)`) also counts
/// when the device moves all through its strides (`SilentWalk.countsAfterPostureChange`):
/// jolts are impulses with stillness between them. So does a run in the bout that begins when
/// the device leaves rest (`atRest(at:)`, `SilentWalk.countsAfterRest`): a device that turns
/// little as its wearer stands up still starts the walk from rest. So does a run that begins a few seconds
/// after the last step of a walk (`SilentWalk.resumesWithinSeconds`): a walker who stopped a
/// moment in a turn walks on with steps the turn and the restart make unlike each other. And so
/// does a run the pedometer's walk follows (`SilentWalk.countsBeforeHeardWalk`): the pedometer
/// starts a walk only after five regular candidates, so a walk whose first candidates were
/// irregular begins later for it than for the vertical detector, as the offline counter knows
/// (`OfflineStepDetector.Settings.takesLeadingWalk`).
///
/// Then the offline detector's choice between agreed steps (`AgreedSpanChoice`): between two
/// checked steps the vertical detector also found, the checked steps or the vertical peaks,
/// whichever keep nearer the rhythm (a turn's weak steps the pedometer missed, a tap it added).
///
/// The counted steps come later than the pedometer's, by a bounded delay: a step waits for the
/// vertical detector to have looked past it (about four seconds); one it did not find also
/// waits for the steps its rhythm needs (five more, or the end of the walk) and for the
/// vertical detector's verdict on the three after it, and then for the next step both
/// detectors find (at most `Settings.maximumAgreedSpanSeconds` after the last one, or the bout
/// gap after the walk stops). Moving/still does
/// not wait: it follows the pedometer's steps as they come, and takes a silent walk as a
/// confirmed walk when it begins counting (`takeSilentWalkStart`).
public struct LiveStepCheck: Sendable {
    /// On or off, and the vertical detector's live settings; the rhythm and the vertical
    /// detector's band, spacing and threshold are `OfflineStepDetector.Settings`'.
    public struct Settings: Sendable, Hashable, Codable {
        /// Whether the live session checks its steps (off: each pedometer step is counted as it comes).
        public var enabled = true
        /// Whether the vertical detector's peaks count where the pedometer hears no walk.
        public var countsSilentWalks = true
        /// When such peaks count.
        public var silentWalk = SilentWalk()
        /// The live vertical detector's block, settling and threshold settings.
        public var vertical = VerticalStepStream.Settings()
        /// The rhythm, the confirmation tolerance and the vertical detector's band and threshold;
        /// also whether the choice between agreed steps runs (`choosesBetweenAgreedSteps`).
        public var detector = OfflineStepDetector.Settings.default
        /// The longest span (s) between two agreed steps whose steps wait to be chosen
        /// (`AgreedSpanChoice`): a bound on how much later than without the choice a step is
        /// counted. The offline detector's spans are unbounded.
        public var maximumAgreedSpanSeconds: Seconds = 8
        /// The defaults.
        public init() {}
    }

    /// When the vertical detector's peaks count as a walk the pedometer does not hear.
    public struct SilentWalk: Sendable, Hashable, Codable {
        /// A peak with a pedometer step closer than this (s) is the pedometer's walk.
        public var heardWithinSeconds: Seconds = 1
        /// Peaks in a row that must keep the rhythm before any counts (as many as the
        /// pedometer's `confirmationSteps`; `peaksAfterMovementStart` after standing up or rest).
        public var peaks = 5
        /// Every interval of the run within [median / r, median × r] of the median interval,
        /// or, when the intervals alternate short and long (a phone in one pocket sees the near
        /// leg's step and the far leg's at different phases of the stride; a limp), every
        /// stride within the detector's `strideRegularityRatio` of the strides' median with the
        /// intervals at most its `maximumStepAsymmetry` apart (`OfflineStepDetector.Settings`,
        /// the bounds the run rule of `StepRhythmCheck` keeps a pocket's walk with).
        public var regularityRatio = 1.4
        /// The step at most this long (s): the median interval, or half the median stride when
        /// the intervals alternate; as the pedometer's `maximumConfirmationInterval`.
        public var maximumStepIntervalSeconds: Seconds = 1.5
        /// A peak's swing through it (m/s², `VerticalStepStream.reportedStep`) at least this: more
        /// than a still device's noise. The 0.3 m/s² once set on low-passed |a|, scaled by the
        /// typical ratio of the two swings on IPOL's steps (the stride references 8.3 / 9.5).
        public var minimumPeakToPeak: MetersPerSecondSquared = 0.26
        /// Gravity's direction in the device turns at most this much (degrees, median over the
        /// run) from one stride to the next: a carried device keeps its posture stride after
        /// stride, one being put away or taken out does not. The direction at a peak is the
        /// mean acceleration over a stride centred on it (`keepsPosture`), which has turned
        /// as soon as the device has: a walk's first strides right after standing up keep
        /// their posture (a low-pass of the acceleration was still turning from the seated
        /// posture there).
        public var maximumPostureTurnDegrees: Double = 20
        /// The unfiltered acceleration along gravity around the run's newest
        /// `periodicityPeaks` peaks correlates at least this much with itself one stride and
        /// two strides later (normalised, 1 for a signal that repeats). A run that does not
        /// reach it yet waits for its next peaks. How walks and jolts score against it:
        /// benchmarks/README.md.
        public var minimumPeriodicity: Double = 0.8
        /// Peaks (the newest of the run) over which the periodicity is measured.
        public var periodicityPeaks = 6
        /// Whether a run whose first peak lies in the bout that began with a change of posture
        /// (`postureChanged(at:)`: the session's `PostureTracker`, standing up; no pause of the
        /// detector's bout gap between the change and that peak) also counts when it fails the
        /// periodicity test. Standing up and walking off is one movement, and a short walk from
        /// a chair (a few steps, a turn, a few steps back) does not repeat itself over three
        /// strides: its turn changes the signal from stride to stride. A device standing or
        /// sitting still that jolts or sways has changed no posture, and still has to pass the
        /// test. The rhythm, the posture and the swing of the peaks are judged as for any run.
        public var countsAfterPostureChange = true
        /// Whether a run whose first peak lies in the bout that began when the device left rest
        /// (`atRest(at:)`: the session's stillness test; no pause of the bout gap between the
        /// last frame at rest and that peak) counts as one after a change of posture. Not every
        /// carried device turns by `PostureTracker`'s angle when its wearer stands up (how it
        /// sits in a pocket decides that), but every walk from a chair starts from rest, and
        /// the device moves from rest into the walk in one movement. A device that
        /// jolts after rest still fails the motion share; one that sways regularly after rest
        /// is judged by its rhythm, posture and motion share, as after standing up.
        public var countsAfterRest = true
        /// A run whose first peak lies in the bout after a change of posture or after rest
        /// counts from as few as this many peaks (not `peaks`), when those rules are on. The
        /// movement's start shows where the walk began, so the run need not keep its rhythm as
        /// long before it counts: a walk from a chair can turn after four steps. Its rhythm,
        /// posture and motion share are judged as for any run.
        public var peaksAfterMovementStart = 4
        /// Such a run must still move the device all through its strides: around its newest
        /// `periodicityPeaks` peaks, the acceleration along gravity lies more than a fifth of
        /// its largest excursion from its mean for at least this share of the time
        /// (`VerticalStepStream.motionShare`). A walk moves the body through every stride;
        /// jolts are impulses with stillness between them. How walks and jolts score against
        /// it: benchmarks/README.md.
        public var minimumMotionShare = 0.18
        /// A run whose first peak comes at most this long (s) after the last step of a walk
        /// (the pedometer's, or a silent walk's) also counts when it fails the periodicity
        /// test, if the device moves all through its strides (`minimumMotionShare`), as after
        /// a change of posture: a walker who stopped for a moment (in a turn, at a door) walks
        /// on, and the first strides after the stop do not repeat each other. Longer than the
        /// bout gap, shorter than a wait at a crossing. 0 turns the rule off.
        public var resumesWithinSeconds: Seconds = 5
        /// Whether a run that the pedometer's walk follows (the run's next peak is heard, within
        /// the bout gap of its last one) counts when it fails the periodicity test, if the
        /// device moves all through its strides (`minimumMotionShare`). The pedometer starts a
        /// walk only after `confirmationSteps` regular candidates and credits those alone, so
        /// a walk whose first candidates were irregular (a phone in the far pocket, a start at
        /// a low rate) begins later for it than for the vertical detector; the offline counter
        /// keeps such a lead too (`OfflineStepDetector.Settings.takesLeadingWalk`, with the
        /// rhythm tests of a silent walk here and the offline detector's there).
        public var countsBeforeHeardWalk = true
        /// The defaults.
        public init() {}
    }

    var vertical: VerticalStepStream
    var rhythm: StepRhythmCheck
    let tolerance: Seconds
    // The silent-walk rule (see `SilentWalk`): the pedometer's recent step times (ring of
    // `pedometerCapacity`), the vertical peaks examined so far, the current run of peaks the
    // pedometer does not hear (ring of `runCapacity`: times, peak-to-peak, gravity) and the
    // peaks it made count, waiting to be merged in time order with the pedometer's steps (ring
    // of `fillCapacity`).
    let silent: SilentWalk?, gap: Seconds
    /// The rhythm a run of unheard peaks keeps (`isRegular`): the silent walk's
    /// `regularityRatio` with the detector's stride bounds (`OfflineStepDetector.Settings`).
    let silentRhythm: StepRhythm
    var pedometerTimes = [Double](repeating: 0, count: pedometerCapacity), pedometerCount = 0
    var examined = 0
    var runTimes = [Double](repeating: 0, count: runCapacity), runPeaks = [Double](repeating: 0, count: runCapacity)
    /// Gravity's direction at each peak of a run (`keepsPosture`'s scratch).
    var runDirections = [Vector3](repeating: .zero, count: runCapacity)
    var runStart = 0, runEnd = 0, runCounts = false
    var fillTimes = [Double](repeating: 0, count: fillCapacity), fillPeaks = [Double](repeating: 0, count: fillCapacity)
    var fillStart = 0, fillEnd = 0
    var held: StepEvent?
    // Steps the rhythm check passed on unchecked when full, waiting for `next` (a ring).
    var passed = [StepEvent](repeating: StepEvent(time: 0, peakToPeak: 0), count: passedCapacity)
    var passedStart = 0, passedEnd = 0
    /// The choice between agreed steps, when `choosesSpans`.
    var spans: AgreedSpanChoice
    let choosesSpans: Bool
    var scratch = [Double](repeating: 0, count: runCapacity)
    static let pedometerCapacity = 64, runCapacity = 16, fillCapacity = 256
    /// Steps passed on unchecked that wait for `next` (more than a pedometer credits at once).
    public static let passedCapacity = 256
    /// Steps counted from the vertical detector's peaks where the pedometer heard no walk.
    public private(set) var silentWalkSteps = 0
    /// The first step of the newest silent walk, until `takeSilentWalkStart` takes it.
    var silentWalkStart: Double?
    /// The bout that began with the latest change of posture before the peak examined
    /// (`postureChanged(at:)`).
    var postureBout = MovementStart(mergesConsecutive: false)
    /// The bout that began when the device last left rest before the peak examined
    /// (`atRest(at:)`).
    var restBout = MovementStart(mergesConsecutive: true)

    /// A check with `settings`.
    public init(settings s: Settings = Settings()) {
        vertical = VerticalStepStream(detector: s.detector, settings: s.vertical)
        rhythm = StepRhythmCheck(settings: s.detector)
        tolerance = s.detector.confirmationToleranceSeconds
        silent = s.countsSilentWalks ? s.silentWalk : nil
        gap = s.detector.boutGapSeconds
        silentRhythm = StepRhythm(intervalRatio: s.silentWalk.regularityRatio, strideRatio: s.detector.strideRegularityRatio,
                                  asymmetry: s.detector.maximumStepAsymmetry, longIntervalsBreak: true)
        spans = AgreedSpanChoice(settings: s.detector, maximumSpanSeconds: s.maximumAgreedSpanSeconds)
        choosesSpans = s.detector.choosesBetweenAgreedSteps
        precondition(silent.map { $0.peaks >= 3 && $0.peaks <= Self.runCapacity && $0.periodicityPeaks >= 3 } ?? true,
                     "SilentWalk.peaks must lie in 3…16 and periodicityPeaks be at least 3")
    }

    /// One acceleration sample (m/s², gravity included), as the pedometer gets it.
    public mutating func push(_ a: Vector3, time t: Seconds) { vertical.push(a, time: t) }

    /// A pedometer step, in time order. When the rhythm check is full (its confirmations have
    /// not come for `StepRhythmCheck.capacity` steps: the acceleration stopped coming), its
    /// oldest step is passed on unchecked, and `next` gives it in time order with the others.
    /// Returns a step only when `passedCapacity` such steps wait because `next` was not
    /// called (count it).
    public mutating func push(_ s: StepEvent) -> StepEvent? {
        pedometerTimes[pedometerCount % Self.pedometerCapacity] = s.time
        pedometerCount += 1
        guard let p = rhythm.push(s) else { return nil }
        guard passedEnd - passedStart < Self.passedCapacity else { return p }
        passed[passedEnd % Self.passedCapacity] = p
        passedEnd += 1
        return nil
    }

    /// The oldest step the rhythm check passed on unchecked, if one waits.
    mutating func takePassed() -> StepEvent? {
        guard passedStart < passedEnd else { return nil }
        defer { passedStart += 1 }
        return passed[passedStart % Self.passedCapacity]
    }

    /// The next step to count, if one is decided: no pedometer step will come dated before
    /// `noStepBefore` (s; +∞ after `finish`). With `choosesBetweenAgreedSteps`, the checked
    /// steps pass through `AgreedSpanChoice` (the offline detector's choice between agreed
    /// steps): the steps after an agreed one wait for the next agreed one, at most
    /// `maximumAgreedSpanSeconds`, or until the walk stops.
    public mutating func next(noStepBefore horizon: Seconds) -> StepEvent? {
        guard choosesSpans else { return nextChecked(noStepBefore: horizon)?.step }
        while true {
            if let s = spans.pop() { return s }
            guard let c = nextChecked(noStepBefore: horizon) else {
                // The walk stopped: no step for the bout gap, none undecided, no silent step
                // waiting. The held steps go out as they came.
                if spans.isHolding, let last = spans.lastTime, horizon > last + gap,
                   rhythm.pending == 0, fillStart == fillEnd {
                    spans.release()
                    continue
                }
                return nil
            }
            let agreed = c.fromPedometer && vertical.hasStep(near: c.step.time, within: tolerance)
            spans.push(c.step, agreed: agreed, vertical: vertical)
        }
    }

    /// The next checked step (a pedometer step the rhythm check kept, or a silent walk's step),
    /// if one is decided.
    mutating func nextChecked(noStepBefore horizon: Seconds) -> (step: StepEvent, fromPedometer: Bool)? {
        if rhythm.unconfirmed < rhythm.end {
            let v = vertical, tol = tolerance
            rhythm.confirm(until: v.decidedUntil - tol) { v.hasStep(near: $0, within: tol) }
        }
        if let w = silent { examineSilentPeaks(w, noStepBefore: horizon) }
        // A step passed on unchecked is older than every step still in the rhythm check.
        if held == nil { held = takePassed() ?? rhythm.next(noStepBefore: horizon) }
        // A silent walk's step goes out before the pedometer's steps that come after it.
        if fillStart < fillEnd {
            let f = fillTimes[fillStart % Self.fillCapacity]
            let before = held.map { f < $0.time } ?? (rhythm.oldestUndecidedTime.map { f < $0 } ?? true)
            if before {
                defer { fillStart += 1 }
                return (StepEvent(time: f, peakToPeak: fillPeaks[fillStart % Self.fillCapacity]), false)
            }
        }
        defer { held = nil }
        return held.map { ($0, true) }
    }

    /// Takes the vertical detector's peaks that no pedometer step can come near any more
    /// (`heardWithinSeconds` before `horizon`) into the run of peaks the pedometer does not hear,
    /// and counts the run's peaks once it is a walk (`SilentWalk`), then each next one that
    /// keeps its rhythm.
    mutating func examineSilentPeaks(_ w: SilentWalk, noStepBefore horizon: Seconds) {
        let available = vertical.steps, n = Self.runCapacity
        examined = Swift.max(examined, available - VerticalStepStream.stepCapacity)
        while examined < available {
            let p = vertical.reportedStep(examined)
            guard p.time + w.heardWithinSeconds < horizon else { return }
            examined += 1
            // The starts told up to the peak take effect (they were told as they happened).
            postureBout.reach(p.time)
            restBout.reach(p.time)
            // Every peak that swings the acceleration as a step does (its swing through the
            // peak, which holds a walk's first peak's own rise), heard or not, carries on the
            // bouts that began with standing up and with leaving rest (the band-pass finds
            // peaks in a still device's noise too).
            if p.swingThrough >= w.minimumPeakToPeak {
                postureBout.peak(at: p.time, gap: gap)
                restBout.peak(at: p.time, gap: gap)
            }
            let heard = isHeard(p.time, within: w.heardWithinSeconds)
            if heard || p.swingThrough < w.minimumPeakToPeak {
                // The pedometer's walk begins right after a run that did not count yet: the
                // run is that walk's start.
                if heard && precedesHeardWalk(w, next: p.time) { countRun() }
                runStart = runEnd; runCounts = false; continue
            }
            if runEnd > runStart && p.time - runTimes[(runEnd - 1) % n] > gap { runStart = runEnd; runCounts = false }
            if runEnd - runStart == n { runStart += 1 }
            runTimes[runEnd % n] = p.time; runPeaks[runEnd % n] = p.peakToPeak
            runEnd += 1
            if runCounts {
                // Counting: the new peak counts when it keeps the rhythm of the peaks before it.
                let k = Swift.min(runEnd - runStart - 1, w.peaks)
                if isRegular(w, from: runEnd - 1 - k, count: k + 1, rhythmFrom: k - 1) { fill(runEnd - 1); continue }
                runStart = runEnd - 1; runCounts = false
            }
            // Not yet counting: the run keeps the longest regular tail of its peaks…
            while runEnd - runStart >= 3 && !isRegular(w, from: runStart, count: runEnd - runStart, rhythmFrom: runEnd - runStart - 1) {
                runStart += 1
            }
            guard runEnd - runStart >= w.peaks
                    || (runEnd - runStart >= w.peaksAfterMovementStart && followsMovementStart(w)) else { continue }
            // …and counts them all once the device keeps its posture and the newest peaks'
            // signal repeats itself. A run whose signal does not yet repeat (a walk's first
            // steps) waits for its next peaks; one whose posture changes loses its oldest peak.
            if !keepsPosture(w) { runStart += 1; continue }
            if ((followsMovementStart(w) || resumesWalk(w)) && movesThroughout(w)) || isPeriodic(w) {
                countRun()
            }
        }
    }

    /// A change of posture (standing up) at `time` (s, input clock), as the session's
    /// `PostureTracker` dates it: a run of peaks that begins in the bout it starts (no pause of
    /// the bout gap between it and the run) also counts when the device moves all through the
    /// run (`SilentWalk.countsAfterPostureChange`). The same change told again (a session tells
    /// the tracker's latest one on every frame) changes nothing. A run is judged against the
    /// latest change before its first peak, not a later one (sitting down again after a short
    /// walk) told before the run's peaks are examined (`MovementStart`).
    public mutating func postureChanged(at time: Seconds) {
        postureBout.tell(time)
    }

    /// The device was at rest at `time` (s, input clock): the session's stillness test passed
    /// on that frame. A run of peaks that begins in the bout after the last such frame before
    /// its first peak counts as one after a change of posture (`SilentWalk.countsAfterRest`). A
    /// session tells every frame at rest, also after a short walk and before its peaks are
    /// examined (`MovementStart`).
    public mutating func atRest(at time: Seconds) {
        restBout.tell(time)
    }

    /// Whether the run's first peak lies in the bout that began with the latest change of
    /// posture (with `countsAfterPostureChange`) or when the device last left rest (with
    /// `countsAfterRest`).
    func followsMovementStart(_ w: SilentWalk) -> Bool {
        let first = runTimes[runStart % Self.runCapacity]
        return (w.countsAfterPostureChange && postureBout.contains(first))
            || (w.countsAfterRest && restBout.contains(first))
    }

    /// Whether the run, not counting yet, is the start of the walk the pedometer hears from the
    /// peak at `next` (s) on: `countsBeforeHeardWalk`, at least `peaks` peaks (already trimmed
    /// to a walking rhythm), `next` within the bout gap of its last peak, the posture kept and
    /// the device moving all through its strides.
    mutating func precedesHeardWalk(_ w: SilentWalk, next: Double) -> Bool {
        guard w.countsBeforeHeardWalk, !runCounts, runEnd - runStart >= w.peaks,
              next - runTimes[(runEnd - 1) % Self.runCapacity] <= gap else { return false }
        return keepsPosture(w) && movesThroughout(w)
    }

    /// Whether the run's first peak comes after the last step of a walk, the pedometer's or a
    /// silent walk's, by at most `resumesWithinSeconds`.
    func resumesWalk(_ w: SilentWalk) -> Bool {
        guard w.resumesWithinSeconds > 0 else { return false }
        var last = -Double.infinity
        if pedometerCount > 0 { last = pedometerTimes[(pedometerCount - 1) % Self.pedometerCapacity] }
        if fillEnd > 0 { last = Swift.max(last, fillTimes[(fillEnd - 1) % Self.fillCapacity]) }
        let first = runTimes[runStart % Self.runCapacity]
        return first > last && first - last <= w.resumesWithinSeconds
    }

    /// Whether a pedometer step lies within `within` (s) of `t` (among its last 64).
    func isHeard(_ t: Double, within: Seconds) -> Bool {
        ringHasTime(pedometerTimes, count: pedometerCount, near: t, within: within)
    }

    /// The median of `scratch[0..<m]` (sorted in place; allocates nothing).
    mutating func scratchMedian(count m: Int) -> Double { scratch.medianOfFirst(m) }

    /// The median of the `count` strides (two consecutive intervals) of the run from peak `from`
    /// on (allocates nothing).
    mutating func medianStride(from: Int, count m: Int) -> Double {
        let n = Self.runCapacity
        for i in 0..<m { scratch[i] = runTimes[(from + i + 2) % n] - runTimes[(from + i) % n] }
        return scratchMedian(count: m)
    }

    /// Whether the `count` peaks of the run from `from` on keep a walking rhythm
    /// (`silentRhythm`), judged against its first `rhythmFrom` intervals, with a step
    /// (the median interval, or half the median stride) of at most `maximumStepIntervalSeconds`.
    mutating func isRegular(_ w: SilentWalk, from: Int, count: Int, rhythmFrom m: Int) -> Bool {
        guard count >= 2, m >= 1 else { return false }
        let times = runTimes, n = Self.runCapacity
        guard let step = silentRhythm.step(count: count - 1, judging: Swift.min(m, count - 1), scratch: &scratch, time: { times[(from + $0) % n] }) else { return false }
        return step <= w.maximumStepIntervalSeconds
    }

    /// Whether the device moves all through the run's newest `periodicityPeaks` peaks, from
    /// half their mean interval before the first to half of it after the last
    /// (`minimumMotionShare`): a run after a change of posture.
    func movesThroughout(_ w: SilentWalk) -> Bool {
        let first = runEnd - Swift.min(w.periodicityPeaks, runEnd - runStart), n = Self.runCapacity
        let a = runTimes[first % n], b = runTimes[(runEnd - 1) % n]
        let margin = (b - a) / Double(Swift.max(1, runEnd - 1 - first)) / 2
        return vertical.motionShare(from: a - margin, to: b + margin) >= w.minimumMotionShare
    }

    /// Whether the acceleration along gravity around the run's newest `periodicityPeaks` peaks
    /// repeats itself a stride (the median of their strides) and two strides later.
    mutating func isPeriodic(_ w: SilentWalk) -> Bool {
        let first = runEnd - Swift.min(w.periodicityPeaks, runEnd - runStart)
        let stride = medianStride(from: first, count: runEnd - first - 2)
        let a = runTimes[first % Self.runCapacity] - stride / 4, b = runTimes[(runEnd - 1) % Self.runCapacity] + stride / 4
        return vertical.periodicity(from: a, to: b, period: stride) >= w.minimumPeriodicity
            && vertical.periodicity(from: a, to: b, period: 2 * stride) >= w.minimumPeriodicity
    }

    /// Whether gravity's direction at each peak of the run lies within
    /// `maximumPostureTurnDegrees` of its direction a stride (two peaks) before, in the median.
    /// Gravity's direction at a peak is the mean acceleration over the run's median stride
    /// centred on it (`VerticalStepStream.meanDirection`).
    mutating func keepsPosture(_ w: SilentWalk) -> Bool {
        let n = Self.runCapacity, count = runEnd - runStart, m = count - 2
        guard m >= 1 else { return false }
        let half = medianStride(from: runStart, count: m) / 2
        for k in 0..<count {
            let t = runTimes[(runStart + k) % n]
            runDirections[k] = vertical.meanDirection(from: t - half, to: t + half)
        }
        for k in 0..<m { scratch[k] = runDirections[k + 2].dot(runDirections[k]) }
        return scratchMedian(count: m) >= Math.cos(w.maximumPostureTurnDegrees * Double.pi / 180)
    }

    /// Counts every peak of the run, which is a walk from now on; its first peak starts a
    /// silent walk for moving/still unless one waits to be taken.
    mutating func countRun() {
        runCounts = true
        if silentWalkStart == nil { silentWalkStart = runTimes[runStart % Self.runCapacity] }
        for k in runStart..<runEnd { fill(k) }
    }

    mutating func fill(_ k: Int) {
        if fillEnd - fillStart == Self.fillCapacity { fillStart += 1 }
        fillTimes[fillEnd % Self.fillCapacity] = runTimes[k % Self.runCapacity]
        fillPeaks[fillEnd % Self.fillCapacity] = runPeaks[k % Self.runCapacity]
        fillEnd += 1; silentWalkSteps += 1
    }

    /// The first step (s) of a silent walk that began counting since the last call, if one
    /// did: the session takes it as the pedometer's confirmation of a walk, for moving/still.
    public mutating func takeSilentWalkStart() -> Seconds? {
        defer { silentWalkStart = nil }
        return silentWalkStart
    }

    /// The end of the input: the vertical detector reports its last peaks.
    public mutating func finish() { vertical.finish() }

    /// Pedometer steps dropped so far.
    public var dropped: Int { rhythm.dropped }
    /// Steps pushed and not yet counted: undecided by the rhythm check, passed on unchecked and
    /// waiting for `next`, or held for the choice between agreed steps.
    public var pending: Int { rhythm.pending + passedEnd - passedStart + spans.heldCount + spans.outEnd - spans.outStart }
}

