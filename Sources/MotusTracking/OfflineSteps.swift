import MotusCore
import MotusSignal

/// Which step counter a recording's steps come from.
public enum StepMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The live pedometer: causal, what a session counts as the samples arrive.
    case live
    /// The offline detector (`OfflineStepDetector`): the whole recording is known, so it may
    /// look back and ahead. For files; never used by a live session.
    case offline
}

/// Steps of a whole recording, looking back and ahead: for files, where the whole recording is
/// known (`StepMode.offline`).
///
/// Two detectors see different things:
/// - the live pedometer (`Pedometer`) follows |a| in a 0.5–3 Hz band with an adaptive
///   hysteresis and only counts a walk once five candidates came at a regular rhythm. It is
///   robust at walk starts and ends, at any carry position, but a slow or irregular gait
///   (turning, a cane, shuffling) makes it trigger on the small oscillations between impacts,
///   and a weak step breaks its rhythm;
/// - a zero-phase peak detector on the *vertical* acceleration (the acceleration along gravity,
///   gravity estimated by a zero-phase 0.3 Hz low-pass): band-pass 1–5 Hz forwards and
///   backwards, resampled to 100 Hz, peaks at least 0.3 s apart whose prominence reaches the
///   filtered signal's standard deviation (the peers' method, on the component that carries the
///   impacts), or a floor of its deviation while the device moves when long stillness lowers
///   the whole recording's (`Settings.movementScaleFraction`), or, where the device moves much
///   less than that (a walk beside a run), the local deviation: the quietest of the 30 s of
///   movement around, before or after the peak (`Settings.quieterActivityRatio`).
///   Turning and swinging move the device sideways, not along gravity, so it counts
///   slow and irregular walks better; but at the trunk it misses steps a lower-back sensor sees
///   only weakly in |a|.
///
/// Neither is better everywhere, and a miscount shows as a broken rhythm: a missed step makes
/// an interval about twice the others, an extra one splits an interval in two. So the recording
/// is cut into walking bouts (the union of both detectors' steps, cut where no step comes for
/// `boutGap`), and each bout takes the steps of the detector whose intervals there are the more
/// regular: the smaller fraction of intervals more than `irregularityRatio` away from the
/// bout's median interval (a detector with fewer than `minimumIntervals` intervals in a bout
/// counts as wholly irregular there; a tie keeps the live steps). A detector whose first step
/// in a bout comes whole intervals of its own rhythm after the bout's first step (of either
/// detector) has missed the walk's start, and those intervals count as irregular: the
/// pedometer confirms a walk only after a regular run, so on a short walk (standing up, a few
/// steps, a turn) it can start steps late, and judged only by the intervals it has it looked as
/// regular as the detector that counted the start. A walk's end is not judged so: after it the
/// device is handled (a phone put away, a bag set down), which either detector may take for
/// steps, so a detector going on longer has not shown the other one missed anything.
/// The count of missed intervals only weighs on the choice; over a long bout the late detector
/// may still be the more regular (a pocket's vertical peaks alternate short and long intervals,
/// one leg's impact reaching the phone later than the other's, and the irregularity counts
/// half of them). So when the chosen detector starts late and the other detector's steps
/// before its first step make a walk by themselves (`isWalk`: at least `minimumIntervals`
/// intervals keeping a rhythm of steps, or of strides), the bout takes them as well: a whole
/// walk one detector missed is not lost to the other detector's regularity later on. A few
/// steps before (a weight shift, a phone handled before the walk) are no such walk and stay
/// out (`takesLeadingWalk`).
///
/// A bout's choice is then revised span by span (`chooseBetweenAgreedSteps`): between two
/// chosen steps both detectors find, within one walk (no pause of the bout gap between them),
/// the steps of whichever detector make hops nearest the local rhythm are kept, so a long walk
/// takes the pedometer's steps in a turn where the vertical detector misses them, and the
/// vertical detector's where the pedometer added a tap.
///
/// The chosen steps are then reconciled step by step with the other detector, by the same
/// rhythm rule (`reconcile`): a chosen step the other detector does not confirm, which splits
/// one regular interval into a short one and another, is dropped, and so are the pedometer's
/// steps the vertical detector does not hear when `unconfirmedRunSteps` of them in a row come
/// more often than their own rhythm (a phone handled after a walk); an interval more than
/// `irregularityRatio` times the local median (a missed step) gets the step of either detector
/// that splits it into two regular intervals. The bout choice says which detector follows a
/// walk; the reconciliation mends the single steps where it slipped. The live session runs the
/// first half of it, with a live vertical detector (`LiveStepCheck`).
///
/// The vertical detector's steps get a peak-to-peak value like the live ones (the range of the
/// swing signal, `StepSwingFilter` at 3 Hz, since the previous step), which the Weinberg stride
/// model uses.
public enum OfflineStepDetector {
    /// The detector's settings (units in the names' doc comments: s, Hz).
    public struct Settings: Sendable, Hashable, Codable {
        /// Cut-off (Hz) of the zero-phase low-pass that estimates gravity's direction.
        public var gravityCutoffHz: Hertz = 0.3
        /// Rate (Hz) of the grid the vertical acceleration is resampled to.
        public var gridRateHz: Hertz = 100
        /// Band (Hz) of the 4th-order zero-phase Butterworth band-pass on the vertical acceleration.
        public var bandLowHz: Hertz = 1
        /// Upper edge (Hz) of that band.
        public var bandHighHz: Hertz = 5
        /// Shortest time (s) between two peaks (of two closer ones the higher stays).
        public var minimumPeakSpacingSeconds: Seconds = 0.3
        /// A peak's prominence must reach this fraction of the filtered signal's standard deviation.
        public var prominenceFraction: Double = 1
        /// The standard deviation a peak's prominence is judged against is the whole
        /// recording's, but at least this fraction of the filtered signal's standard deviation
        /// over the stretches of `boutGapSeconds` or more in which the device moves all along
        /// (`movingSamples`). Stillness lowers the whole recording's: without the floor, a walk
        /// recorded with ten minutes of a phone at rest around it is judged against a fraction
        /// of its own scale, and its weak oscillations count as steps. The floor is the highest
        /// that changes no count of the shared recordings as recorded (IPOL's trials, a fifth
        /// to a half of each labelled standing, are the first it would change).
        public var movementScaleFraction: Double = 0.8
        /// Where the device moves more quietly than this fraction of the whole recording's
        /// scale, a peak is judged against the local scale: the filtered signal's standard
        /// deviation over the moving samples (`movingSamples`) in the quietest of three windows
        /// of `activityWindowSeconds`: centred on the peak, ending at it and starting at it
        /// (`quietestMovingStandardDeviation`), kept inside the peak's bout (between stops of
        /// `boutGapSeconds`) when that bout is long enough. A walk before or after a run moves
        /// a pocket two to three times less than the run, and judged against the run's scale
        /// its steps fall under the threshold. Turns and pauses inside one walk stay judged
        /// against the walk (0.5 changes no count of the shared recordings; 0.67 does).
        public var quieterActivityRatio: Double = 0.5
        /// The windows (s) of that local scale (shorter windows judge the shared walks' pauses
        /// against themselves: 20 s already changes their counts). Next to a run the centred
        /// window holds part of the run; the window on the walk's side does not.
        public var activityWindowSeconds: Seconds = 30
        /// A window on one side of a peak counts for the local scale only when the device moves
        /// for at least this fraction of it: the few steps of a walk's gentle start or end,
        /// with stillness beyond them, are not the walk's scale.
        public var sideWindowMovingFraction: Double = 0.5
        /// A detector without a step for this long (s) inside a walking bout, while the other
        /// detector went on counting, has missed those steps: the bout choice counts the
        /// intervals of its rhythm in that time as irregular, as it does those before a late
        /// first step, and the choice between agreed steps costs such a hop as those missed
        /// steps (`rhythmCost`). The live check's longest span
        /// (`LiveStepCheck.Settings.maximumAgreedSpanSeconds`): a walk's pause is shorter (a
        /// pause of the bout gap or more splits the bout).
        public var missedWalkSeconds: Seconds = 8
        /// A walking bout ends where neither detector finds a step for this long (s). The live
        /// vertical detector (`VerticalStepStream`) starts its scale again after stillness this
        /// long.
        public var boutGapSeconds: Seconds = 2
        /// An interval counts as irregular when it is more than this factor from the bout's median.
        public var irregularityRatio: Double = 1.5
        /// A detector needs at least this many intervals in a bout to be judged regular there.
        public var minimumIntervals: Int = 4
        /// Cut-off (Hz) of the swing signal (`StepSwingFilter`) whose range between steps is a
        /// step's peak-to-peak.
        public var peakToPeakCutoffHz: Hertz = 3
        /// Two detectors' steps this close (s) are the same step (the other detector confirms it).
        public var confirmationToleranceSeconds: Seconds = 0.15
        /// The local rhythm of a step is the median of up to this many intervals on each side,
        /// within its walking bout.
        public var rhythmIntervals: Int = 4
        /// Whether a bout whose chosen detector starts late also takes the other detector's
        /// steps before the chosen ones when those make a walk by themselves (`isWalk`; see the
        /// type's description).
        public var takesLeadingWalk: Bool = true
        /// Whether the bout choice is revised between the steps both detectors find
        /// (`chooseBetweenAgreedSteps`).
        public var choosesBetweenAgreedSteps: Bool = true
        /// How far apart (a ratio) two step times must lie to count as a different rhythm: between
        /// agreed steps another detector's steps replace the chosen ones only when their hops
        /// lie nearer the local rhythm by more than one hop off by this ratio. Step times are
        /// no sharper than about a tenth of an interval.
        public var rhythmResolutionRatio: Double = 1.1
        /// Whether the chosen steps are reconciled with the other detector (`reconcile`).
        public var reconciles: Bool = true
        /// This many steps in a row that the other detector does not confirm, coming more
        /// often than their own rhythm, are dropped (`StepRhythmCheck`): handling a phone after
        /// a walk, or a cane's taps while turning on the spot, not a walk. 0 turns the rule
        /// off. A run keeps its rhythm when no interval is shorter than their median over
        /// `irregularityRatio`, or (intervals that alternate, as a phone in one pocket gives)
        /// every stride of two intervals lies within `strideRegularityRatio` of the strides'
        /// median…
        public var unconfirmedRunSteps: Int = 4
        /// …(see `unconfirmedRunSteps`)…
        public var strideRegularityRatio: Double = 1.2
        /// …with the longest interval at most this many times the shortest.
        public var maximumStepAsymmetry: Double = 2.5

        /// The defaults.
        public init() {}
        /// The defaults.
        public static let `default` = Settings()
    }

    /// The steps of a whole acceleration stream (m/s², gravity included, times in s): the live
    /// pedometer's (`Pedometer.detect` with `pedometer`) and the vertical detector's, each bout
    /// from the more regular of the two. In time order.
    public static func detect(_ acc: SensorStream, pedometer: Pedometer.Settings = .default,
                              settings: Settings = .default) -> [StepEvent] {
        detect(acc, live: Pedometer.detect(acc, settings: pedometer), settings: settings)
    }

    /// The same with the live steps already counted (`live`: the steps a session credited on
    /// this stream, in time order).
    public static func detect(_ acc: SensorStream, live: [StepEvent], settings: Settings = .default) -> [StepEvent] {
        let vertical = verticalSteps(acc, settings: settings)
        // The walking bouts both stages judge in, found once.
        let starts = boutStarts(live: live, vertical: vertical, gap: settings.boutGapSeconds)
        var chosen = choose(live: live, vertical: vertical, boutStarts: starts, settings: settings)
        if settings.choosesBetweenAgreedSteps {
            chosen = chooseBetweenAgreedSteps(chosen, live: live, vertical: vertical, boutStarts: starts, settings: settings)
        }
        return settings.reconciles ? reconcile(chosen, live: live, vertical: vertical, settings: settings) : chosen
    }

    /// Per walking bout, the steps of the more regular detector, after the other detector's
    /// leading walk when the chosen one starts late (see the type's description).
    public static func choose(live: [StepEvent], vertical: [StepEvent], settings: Settings = .default) -> [StepEvent] {
        choose(live: live, vertical: vertical, boutStarts: boutStarts(live: live, vertical: vertical, gap: settings.boutGapSeconds),
               settings: settings)
    }

    /// `choose` with the bouts' starts already found (`boutStarts` of the same steps and gap).
    static func choose(live: [StepEvent], vertical: [StepEvent], boutStarts starts: [Double], settings: Settings) -> [StepEvent] {
        var out: [StepEvent] = []
        out.reserveCapacity(Swift.max(live.count, vertical.count))
        var li = 0, vi = 0
        // One bout: the steps of each detector before `end` (those before its start were taken).
        func bout(before end: Double) {
            var l: [StepEvent] = [], v: [StepEvent] = []
            while li < live.count && live[li].time < end { l.append(live[li]); li += 1 }
            while vi < vertical.count && vertical[vi].time < end { v.append(vertical[vi]); vi += 1 }
            let start = Swift.min(l.first?.time ?? .infinity, v.first?.time ?? .infinity)
            let takesVertical = irregularity(v.map(\.time), settings, boutStart: start)
                < irregularity(l.map(\.time), settings, boutStart: start)
            let (own, other) = takesVertical ? (v, l) : (l, v)
            if settings.takesLeadingWalk, let first = own.first?.time {
                // The other detector's steps before the chosen first step (one within the
                // confirmation tolerance of it is that step).
                let lead = other.prefix { $0.time < first - settings.confirmationToleranceSeconds }
                if isWalk(lead.map(\.time), settings) { out += lead }
            }
            out += own
        }
        for start in starts { bout(before: start) }
        if li < live.count || vi < vertical.count { bout(before: .infinity) }
        return out
    }

    /// Where walking bouts start, after the first: each step of either detector (`live` and
    /// `vertical`, each in time order) that comes more than `gap` (s) after the previous step
    /// of either. In time order. The bouts `choose` takes its detector in, and the pauses a
    /// span between agreed steps may cross (`chooseBetweenAgreedSteps`).
    static func boutStarts(live: [StepEvent], vertical: [StepEvent], gap: Double) -> [Double] {
        var out: [Double] = []
        var i = 0, j = 0, prev = -Double.infinity
        while i < live.count || j < vertical.count {
            let t: Double
            if j >= vertical.count || (i < live.count && live[i].time <= vertical[j].time) { t = live[i].time; i += 1 } else { t = vertical[j].time; j += 1 }
            if prev.isFinite && t - prev > gap { out.append(t) }
            prev = Swift.max(prev, t)
        }
        return out
    }

    /// Whether `steps` (in time order) has a step within `tolerance` (s) of `t`.
    static func hasStep(near t: Double, in steps: [StepEvent], within tolerance: Double) -> Bool {
        let i = steps.sortedFirstIndex(atOrAfter: t) { $0.time }
        return (i < steps.count && steps[i].time - t <= tolerance) || (i > 0 && t - steps[i - 1].time <= tolerance)
    }

    /// How far the hops a → `times`… → b lie from the rhythm `m` (s): Σ |log(hop / m)|, the
    /// cost by which the choice between agreed steps compares detectors, offline and live.
    /// A hop of `missedWalk` (s) or more is a detector's silence while the other one counted
    /// (a pause that long splits the bout: no such span is judged), and costs as the steps of
    /// the rhythm it missed: n = hop / m rounded, |log(hop / (n m))| + (n − 1) log 2, each missed
    /// step as much as one hop twice the rhythm. Costed as one long hop, log n, twelve seconds of
    /// silence weighed less than a walk's steps a little off a run's rhythm beside it.
    static func rhythmCost(_ times: some Sequence<Double>, from a: Double, to b: Double, rhythm m: Double,
                           missedWalk: Double = .infinity) -> Double {
        func hop(_ h: Double) -> Double {
            guard h >= missedWalk else { return Swift.abs(Math.log(h / m)) }
            let n = Swift.max(1, (h / m).rounded())
            return Swift.abs(Math.log(h / (n * m))) + (n - 1) * Math.log(2)
        }
        var prev = a, c = 0.0
        for t in times { c += hop(t - prev); prev = t }
        return c + hop(b - prev)
    }

    /// The bout choice (`choose`) revised span by span. A bout takes one detector's steps, but
    /// inside it each detector slips in places of its own: the vertical detector misses the weak
    /// steps of a turn, the pedometer adds a tap. Where both detectors find a chosen step
    /// (within `confirmationToleranceSeconds`), that step is agreed; between two agreed steps
    /// the steps of whichever detector (the chosen steps, the pedometer's, the vertical
    /// detector's, each without steps within the tolerance of the two agreed ones) make hops
    /// from one agreed step to the next nearest the local rhythm are kept: the least
    /// Σ |log(hop / median)|, the median of the chosen intervals around the later agreed step
    /// (`rhythmIntervals` on each side, those shorter than the bout gap, at least three; else
    /// the span is kept as chosen). A missed step costs a hop twice the rhythm, an extra one
    /// two hops of half of it, and a pause one long hop that a few stray steps only make
    /// costlier; but a silence of `missedWalkSeconds` or more while the other detector counted
    /// costs every step of the rhythm it missed (`rhythmCost`). Another detector's steps
    /// replace the chosen ones only when they are nearer the rhythm by more than
    /// log(`rhythmResolutionRatio`). A span across a pause (a bout of
    /// `choose` starts inside it: `boutStarts`) joins separate walks, each with its own bout
    /// choice, and keeps its chosen steps: a hop across a pause is no step of a rhythm,
    /// and costing it as one would drop a whole short walk between two pauses (sitting, then
    /// a few steps, then standing) in favour of no step at all. Before the first and after the
    /// last agreed step the chosen steps stay. In time order.
    public static func chooseBetweenAgreedSteps(_ chosen: [StepEvent], live: [StepEvent], vertical: [StepEvent],
                                                settings s: Settings = .default) -> [StepEvent] {
        guard chosen.count >= 4 else { return chosen }
        return chooseBetweenAgreedSteps(chosen, live: live, vertical: vertical,
                                        boutStarts: boutStarts(live: live, vertical: vertical, gap: s.boutGapSeconds), settings: s)
    }

    /// `chooseBetweenAgreedSteps` with the bouts' starts already found (`boutStarts` of the
    /// same steps and gap).
    static func chooseBetweenAgreedSteps(_ chosen: [StepEvent], live: [StepEvent], vertical: [StepEvent],
                                         boutStarts starts: [Double], settings s: Settings) -> [StepEvent] {
        guard chosen.count >= 4 else { return chosen }
        let tol = s.confirmationToleranceSeconds, gap = s.boutGapSeconds, w = Swift.max(1, s.rhythmIntervals)
        let margin = Math.log(Swift.max(s.rhythmResolutionRatio, 1))
        var scratch: [Double] = []
        // A span between agreed steps a and b crosses a pause when a bout starts in (a, b].
        func crossesPause(_ a: Double, _ b: Double) -> Bool {
            let k = starts.sortedFirstIndex(atOrAfter: a.nextUp) { $0 }
            return k < starts.count && starts[k] <= b
        }
        // The median chosen interval around step j (nil with fewer than three). Unlike
        // `reconcile`'s bout median it skips an interval of the bout gap or more instead of
        // stopping there, so the rhythm of a span next to such a gap is also judged from the
        // steps beyond it; stopping there as `reconcile` does was measured and not taken
        // (benchmarks/README.md, "Studied 2026-11-29, not taken").
        func median(around j: Int) -> Double? {
            scratch.removeAll(keepingCapacity: true)
            for k in Swift.max(1, j - w)...Swift.min(chosen.count - 1, j + w) where chosen[k].time - chosen[k - 1].time < gap {
                scratch.append(chosen[k].time - chosen[k - 1].time)
            }
            guard scratch.count >= 3 else { return nil }
            scratch.sort()
            return TimingStatistics.percentile(scratch, 0.5)
        }
        // The steps of `steps` strictly inside (a + tol, b − tol), from index `i` on (advanced).
        func inside(_ steps: [StepEvent], _ i: inout Int, _ a: Double, _ b: Double) -> Range<Int> {
            while i < steps.count && steps[i].time <= a + tol { i += 1 }
            var e = i
            while e < steps.count && steps[e].time < b - tol { e += 1 }
            return i..<e
        }
        var out: [StepEvent] = []
        out.reserveCapacity(chosen.count)
        var last = -1, li = 0, vi = 0
        for j in chosen.indices {
            let b = chosen[j].time
            guard hasStep(near: b, in: live, within: tol) && hasStep(near: b, in: vertical, within: tol) else { continue }
            if last < 0 {
                out += chosen[0..<j]
            } else if let m = median(around: j) {
                let a = chosen[last].time
                let own = (last + 1)..<j
                let l = inside(live, &li, a, b), v = inside(vertical, &vi, a, b)
                let silence = s.missedWalkSeconds
                let ownCost = rhythmCost(chosen[own].lazy.map(\.time), from: a, to: b, rhythm: m, missedWalk: silence)
                let lc = rhythmCost(live[l].lazy.map(\.time), from: a, to: b, rhythm: m, missedWalk: silence)
                let vc = rhythmCost(vertical[v].lazy.map(\.time), from: a, to: b, rhythm: m, missedWalk: silence)
                if Swift.min(lc, vc) < ownCost - margin, !crossesPause(a, b) {
                    out += lc <= vc ? live[l] : vertical[v]
                } else {
                    out += chosen[own]
                }
            } else {
                out += chosen[(last + 1)..<j]
            }
            out.append(chosen[j])
            last = j
        }
        out += chosen[(last + 1)...]
        return out
    }

    /// The chosen steps (`choose`) mended one step at a time with both detectors' steps (`live`
    /// and `vertical`, each in time order), by the rhythm rule of the bout choice: an interval
    /// is regular when it lies within `irregularityRatio` of the local median, the median of
    /// the intervals of the walking bout around it, `rhythmIntervals` + 1 steps on each side at
    /// most (the bout ends at an interval of the bout gap or more; at least three intervals,
    /// else nothing is changed there).
    /// - A chosen step (not the first or the last) that the other detector does not confirm
    ///   (no step of it within `confirmationToleranceSeconds`) is dropped when one of its two
    ///   intervals is shorter than the local median over the ratio while the two together make
    ///   one regular interval: it split a step's interval, as a stray oscillation does. A
    ///   pedometer step the vertical detector does not confirm is also dropped when it lies in
    ///   a run of `unconfirmedRunSteps` such steps that come more often than their own rhythm
    ///   (the vertical detector's own steps are never dropped so: where the pedometer is deaf
    ///   they are the walk). This is `StepRhythmCheck`, the rule a live session checks its
    ///   pedometer's steps with.
    /// - Then an interval longer than the ratio times the local median (a missed step) gets
    ///   the step of either detector, nearest its middle, that splits it into two regular
    ///   intervals, if one does.
    /// In time order.
    public static func reconcile(_ chosen: [StepEvent], live: [StepEvent], vertical: [StepEvent],
                                 settings s: Settings = .default) -> [StepEvent] {
        guard chosen.count >= 4 else { return chosen }
        let r = s.irregularityRatio, gap = s.boutGapSeconds
        func regular(_ dt: Double, _ median: Double) -> Bool { dt >= median / r && dt <= median * r }
        func confirmed(_ t: Double, in steps: [StepEvent]) -> Bool { hasStep(near: t, in: steps, within: s.confirmationToleranceSeconds) }
        // Drop the unconfirmed steps that split an interval (each judged among the chosen
        // steps): the rule the live session checks its steps with.
        var check = StepRhythmCheck(settings: s)
        var kept: [StepEvent] = []
        kept.reserveCapacity(chosen.count)
        for e in chosen {
            // The run rule is the live check's: it drops the pedometer's steps the vertical
            // detector does not hear, never the vertical detector's own (where the pedometer
            // is deaf, as at low rates, they are the walk).
            let heard = confirmed(e.time, in: vertical)
            if let passed = check.push(e, confirmed: confirmed(e.time, in: live) && heard, inRuns: !heard) { kept.append(passed) }
            while let k = check.next(noStepBefore: e.time) { kept.append(k) }
        }
        while let k = check.next(noStepBefore: .infinity) { kept.append(k) }
        // Fill the missed steps, judged among the kept steps.
        let keptTimes = kept.map(\.time)
        let w = Swift.max(1, s.rhythmIntervals)
        var scratch: [Double] = []
        // The median interval of the bout around the interval before step i: up to w + 1 steps
        // on each side of it, the bout ending at an interval of the gap or more (the interval
        // itself counts when shorter); nil with fewer than three intervals.
        func boutMedian(_ i: Int) -> Double? {
            var lo = i - 1, hi = i
            while (i - 1) - lo < w && lo > 0 && keptTimes[lo] - keptTimes[lo - 1] < gap { lo -= 1 }
            while hi - i < w && hi + 1 < keptTimes.count && keptTimes[hi + 1] - keptTimes[hi] < gap { hi += 1 }
            scratch.removeAll(keepingCapacity: true)
            for k in (lo + 1)...hi where keptTimes[k] - keptTimes[k - 1] < gap { scratch.append(keptTimes[k] - keptTimes[k - 1]) }
            guard scratch.count >= 3 else { return nil }
            scratch.sort()
            return TimingStatistics.percentile(scratch, 0.5)
        }
        var out: [StepEvent] = []
        out.reserveCapacity(kept.count)
        out.append(kept[0])
        var li = 0, vi = 0
        for i in 1..<kept.count {
            let t0 = keptTimes[i - 1], t1 = keptTimes[i], g = t1 - t0
            if g < gap, let m = boutMedian(i), g > m * r {
                let mid = (t0 + t1) / 2
                var best: StepEvent?
                func consider(_ steps: [StepEvent], _ j: inout Int) {
                    while j < steps.count && steps[j].time <= t0 { j += 1 }
                    var k = j
                    while k < steps.count && steps[k].time < t1 {
                        let e = steps[k]
                        if regular(e.time - t0, m) && regular(t1 - e.time, m)
                            && (best.map { Swift.abs(e.time - mid) < Swift.abs($0.time - mid) } ?? true) { best = e }
                        k += 1
                    }
                }
                consider(live, &li)
                consider(vertical, &vi)
                if let e = best { out.append(e) }
            }
            out.append(kept[i])
        }
        return out
    }

    /// Whether `t` (times in time order) make a walk by themselves: at least `minimumIntervals`
    /// intervals, all shorter than the bout gap, that keep a walking rhythm (`StepRhythm` with
    /// `irregularityRatio`, `strideRegularityRatio` and `maximumStepAsymmetry`; unlike
    /// `StepRhythmCheck`'s run rule, a long interval breaks it: a lead with a gap is no walk).
    static func isWalk(_ t: [Double], _ s: Settings) -> Bool {
        guard t.count > Swift.max(1, s.minimumIntervals) else { return false }
        guard zip(t, t.dropFirst()).allSatisfy({ $1 - $0 < s.boutGapSeconds }) else { return false }
        let rhythm = StepRhythm(intervalRatio: s.irregularityRatio, strideRatio: s.strideRegularityRatio,
                                asymmetry: s.maximumStepAsymmetry, longIntervalsBreak: true)
        var scratch = [Double](repeating: 0, count: t.count)
        return rhythm.step(count: t.count - 1, judging: t.count - 1, scratch: &scratch, time: { t[$0] }) != nil
    }

    /// The fraction of the intervals between `times` (those shorter than the bout gap) that lie
    /// more than `irregularityRatio` from their median; 1 with fewer than `minimumIntervals`.
    /// With `boutStart` (s), the whole median intervals between it and the first of `times`
    /// count as irregular intervals too: steps missed at the start of the bout; and so do those
    /// in an interval of `missedWalkSeconds` or more (within a bout, the other detector counted
    /// steps there).
    static func irregularity(_ times: [Double], _ s: Settings, boutStart: Double? = nil) -> Double {
        var d: [Double] = []
        var holes: [Double] = []
        for i in times.indices.dropFirst() {
            let dt = times[i] - times[i - 1]
            if dt < s.boutGapSeconds { d.append(dt) } else { holes.append(dt) }
        }
        guard d.count >= Swift.max(1, s.minimumIntervals) else { return 1 }
        let median = TimingStatistics.percentile(d.sorted(), 0.5)
        let r = s.irregularityRatio
        var off = d.filter { $0 > median * r || $0 * r < median }.count, total = d.count
        // Silent for longer than `missedWalkSeconds` while the other detector counted (the
        // bout goes on): those intervals were missed.
        for h in holes where h >= s.missedWalkSeconds {
            let missed = Int((h / median).rounded(.down))
            off += missed
            total += missed
        }
        if let boutStart, let first = times.first, first > boutStart {
            let missed = Int(((first - boutStart) / median).rounded(.down))
            off += missed
            total += missed
        }
        return Double(off) / Double(total)
    }

    /// The vertical detector alone: peaks of the band-passed vertical acceleration (see the
    /// type's description), with their peak-to-peak values. In time order.
    public static func verticalSteps(_ acc: SensorStream, settings s: Settings = .default) -> [StepEvent] {
        precondition(acc.width == 3, "an acceleration stream has three components")
        let n = acc.count
        guard n > 2, let t0 = acc.times.first, let t1 = acc.times.last, t1 > t0 else { return [] }
        // The device's own rate, for the gravity low-pass (median interval: robust to gaps).
        guard let period = TimingStatistics.medianPositiveInterval(acc.times) else { return [] }
        let rate = 1 / period
        guard s.gravityCutoffHz < rate / 2, s.bandHighHz < s.gridRateHz / 2 else { return [] }
        let lowPass = BiquadCascade(sections: [.butterworthLowPass(cutoffHz: s.gravityCutoffHz, sampleRateHz: rate)])
        var comp = [[Double]](repeating: [], count: 3)
        for c in 0..<3 { comp[c] = lowPass.filteredZeroPhase((0..<n).map { acc.value($0, c) }) }
        var vertical = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let a = acc.vector(i)
            let g = Vector3(comp[0][i], comp[1][i], comp[2][i])
            let gn = g.norm
            vertical[i] = gn > 0 ? a.dot(g) / gn : 0
        }
        // The grid t0, t0 + 1/rate, … below t1, by linear interpolation.
        let step = 1 / s.gridRateHz
        let m = Int(((t1 - t0) * s.gridRateHz).rounded(.up))
        var grid = [Double](repeating: 0, count: m), gridAcceleration = [Vector3](repeating: .zero, count: m)
        var j = 0
        for k in 0..<m {
            let t = t0 + Double(k) * step
            while j + 1 < n - 1 && acc.times[j + 1] <= t { j += 1 }
            let ta = acc.times[j], tb = acc.times[j + 1]
            let w = tb > ta ? Swift.min(Swift.max((t - ta) / (tb - ta), 0), 1) : 0
            grid[k] = vertical[j] + w * (vertical[j + 1] - vertical[j])
            let a = acc.vector(j)
            gridAcceleration[k] = a + (acc.vector(j + 1) - a) * w
        }
        guard m > 2 else { return [] }
        let band = BiquadCascade.butterworthBandPass(order: 4, lowHz: s.bandLowHz, highHz: s.bandHighHz, sampleRateHz: s.gridRateHz)
        let f = band.filteredZeroPhase(grid)
        // The scale a peak's prominence is judged against: the recording's (with its floor,
        // `movementScaleFraction`), or where the movement is much quieter, the local one
        // (`quieterActivityRatio`).
        let moving = movingSamples(gridAcceleration, rateHz: s.gridRateHz, forAtLeast: s.boutGapSeconds)
        let scale = Swift.max(standardDeviation(f), s.movementScaleFraction * standardDeviation(f, where: moving))
        let local = quietestMovingStandardDeviation(f, moving: moving, width: sampleCount(s.activityWindowSeconds, rateHz: s.gridRateHz),
                                                    sideFraction: s.sideWindowMovingFraction, gap: sampleCount(s.boutGapSeconds, rateHz: s.gridRateHz))
        let peaks = Peaks.find(f, minimumDistance: sampleCount(s.minimumPeakSpacingSeconds, rateHz: s.gridRateHz)) { p in
            let quieter = local[p] > 0 && local[p] < s.quieterActivityRatio * scale
            return s.prominenceFraction * (quieter ? local[p] : scale)
        }
        // The swing signal by one forward pass, primed with the first sample: the filter the
        // live pedometer and the live vertical detector measure a step's swing with, so that a
        // step has one peak-to-peak (and one length) whichever detector found it. A zero-phase
        // pass squares the magnitude response and gives smaller swings.
        var swing = StepSwingFilter(cutoffHz: s.peakToPeakCutoffHz, sampleRateHz: s.gridRateHz)
        swing.prime(with: gridAcceleration[0])
        let smooth = gridAcceleration.map { swing.process($0) }
        var out: [StepEvent] = []
        out.reserveCapacity(peaks.count)
        var from = 0
        for (i, p) in peaks.enumerated() {
            // A step's peak-to-peak: the range of the swing signal since the previous peak (for
            // the first, over the same span before it as after it to the next).
            let start = i > 0 ? from : Swift.max(0, p - (i + 1 < peaks.count ? peaks[i + 1] - p : p))
            var lo = Double.infinity, hi = -Double.infinity
            for k in start...p { lo = Swift.min(lo, smooth[k]); hi = Swift.max(hi, smooth[k]) }
            out.append(StepEvent(time: t0 + Double(p) * step, peakToPeak: hi - lo))
            from = p
        }
        return out
    }
}

extension OfflineStepDetector {
    /// Which samples of `acceleration` (m/s², gravity included, on a grid at `rateHz`) lie in a
    /// stretch of at least `seconds` in which the device moves all along: not still by
    /// `StillnessDetector`'s default test (the standard deviation of |a| over its window,
    /// centred on the sample, reaches its limit). A short stretch is a fidget or a phone put
    /// down, which a long recording of someone sitting has many of, not a walk.
    static func movingSamples(_ acceleration: [Vector3], rateHz: Hertz, forAtLeast seconds: Seconds) -> [Bool] {
        let test = StillnessDetector.Settings.default
        let n = acceleration.count, half = Swift.max(1, Int((test.windowSeconds * rateHz / 2).rounded()))
        // Prefix sums of |a| − g and of its square (centred: small squares, no cancellation).
        var sum = [Double](repeating: 0, count: n + 1), squares = sum
        for i in 0..<n {
            let x = acceleration[i].norm - Units.standardGravity
            sum[i + 1] = sum[i] + x
            squares[i + 1] = squares[i] + x * x
        }
        let limit = test.maximumAccelerationStd * test.maximumAccelerationStd
        var moving = (0..<n).map { i in
            let lo = Swift.max(0, i - half), hi = Swift.min(n, i + half + 1), count = Double(hi - lo)
            let mean = (sum[hi] - sum[lo]) / count
            return (squares[hi] - squares[lo]) / count - mean * mean >= limit
        }
        // Stretches of movement shorter than `seconds` do not count.
        let shortest = sampleCount(seconds, rateHz: rateHz)
        var start = 0
        while start < n {
            guard moving[start] else { start += 1; continue }
            var end = start
            while end < n && moving[end] { end += 1 }
            if end - start < shortest { for k in start..<end { moving[k] = false } }
            start = end
        }
        return moving
    }

    /// `seconds` as a number of samples at `rateHz`, rounded; `Int.max` for an infinite (or NaN)
    /// time, which no stretch reaches.
    static func sampleCount(_ seconds: Seconds, rateHz: Hertz) -> Int {
        let n = (seconds * rateHz).rounded()
        return n < Double(Int.max / 2) ? Swift.max(0, Int(n)) : Int.max
    }

    /// For each sample of `f`, the standard deviation of the samples whose entry in `moving` is
    /// true in the quietest of three windows of `width` samples: centred on it, ending at it and
    /// starting at it. A window on one side counts only when at least `sideFraction` of it
    /// moves; the centred one whenever it holds a moving sample. 0 where none counts. The
    /// windows end at the still stretches of `gap` samples or more around the sample (its bout)
    /// when that bout holds at least `sideFraction` of a window's moving samples.
    /// A window longer than `f` is as long as `f` (an endless `activityWindowSeconds`: the
    /// whole recording's moving samples, or the bout's).
    static func quietestMovingStandardDeviation(_ f: [Double], moving: [Bool], width: Int, sideFraction: Double, gap: Int) -> [Double] {
        let n = f.count, width = Swift.min(width, n), half = width / 2
        // Prefix sums of the moving samples, their squares and their count.
        var sum = [Double](repeating: 0, count: n + 1), squares = sum, count = sum
        for i in 0..<n {
            let w: Double = moving[i] ? 1 : 0
            sum[i + 1] = sum[i] + w * f[i]
            squares[i + 1] = squares[i] + w * f[i] * f[i]
            count[i + 1] = count[i] + w
        }
        // The deviation of the moving samples in [lo, hi), if at least `least` of them.
        func deviation(_ lo: Int, _ hi: Int, least: Double) -> Double {
            let k = count[hi] - count[lo]
            guard k > 0, k >= least else { return .infinity }
            let mean = (sum[hi] - sum[lo]) / k
            return Swift.max(0, (squares[hi] - squares[lo]) / k - mean * mean).squareRoot()
        }
        let sideLeast = sideFraction * Double(width)
        // The still stretches of `gap` samples or more: the bouts lie between them.
        var cuts: [Range<Int>] = []
        var k = 0
        while k < n {
            guard !moving[k] else { k += 1; continue }
            var end = k
            while end < n && !moving[end] { end += 1 }
            if end - k >= gap { cuts.append(k..<end) }
            k = end
        }
        var c = 0
        return (0..<n).map { i in
            // The windows stay inside the sample's bout when that bout moves for at least a
            // side window's share: a walk with a stop before it is judged against itself, not
            // against the run before the stop. A sample inside a still stretch (a walk's first
            // gentle step can be one) lies between the bouts before and after it. A shorter
            // bout (a phone handled after a walk) keeps the whole recording around it.
            while c < cuts.count && cuts[c].upperBound <= i { c += 1 }
            // The next still stretch after the sample (the one after the stretch it lies in).
            let next = c < cuts.count && cuts[c].lowerBound <= i ? c + 1 : c
            var lo = c > 0 ? cuts[c - 1].upperBound : 0
            var hi = next < cuts.count ? cuts[next].lowerBound : n
            if count[hi] - count[lo] < sideLeast { lo = 0; hi = n }
            let centred = deviation(Swift.max(lo, i - half), Swift.min(hi, i + half + 1), least: 1)
            let before = deviation(Swift.max(lo, i - width), i + 1, least: sideLeast)
            let after = deviation(i, Swift.min(hi, i + width + 1), least: sideLeast)
            let quietest = Swift.min(centred, before, after)
            return quietest.isFinite ? quietest : 0
        }
    }

    /// The standard deviation of `values` (of those whose entry in `mask` is true, when given);
    /// 0 when there are none.
    static func standardDeviation(_ values: [Double], where mask: [Bool]? = nil) -> Double {
        var count = 0, sum = 0.0
        for i in values.indices where mask?[i] ?? true { count += 1; sum += values[i] }
        guard count > 0 else { return 0 }
        let mean = sum / Double(count)
        var squares = 0.0
        for i in values.indices where mask?[i] ?? true { squares += (values[i] - mean) * (values[i] - mean) }
        return (squares / Double(count)).squareRoot()
    }

    /// The offline steps of a whole recording: on `acceleration(of:)`, the live pedometer's
    /// steps (`Pedometer.detect`: the update a session runs on each acceleration sample; the
    /// platform step counter plays no part) and the vertical detector's, each bout from the more
    /// regular (`detect(_:live:settings:)`). What `evaluate-steps` scores and `MotionSession.run`
    /// counts with `stepMode` `.offline`. `session`: the settings whose pedometer tuning the live
    /// steps use. Nil when the recording has no acceleration to count on.
    public static func steps(of r: Recording, session: SessionSettings = .default, settings: Settings = .default) -> [StepEvent]? {
        guard let acc = acceleration(of: r) else { return nil }
        return detect(acc, pedometer: session.tuning.pedometer, settings: settings)
    }

    /// The acceleration (gravity included) a recording's steps are counted on: its raw
    /// acceleration stream; else its user acceleration plus gravity
    /// (`Recording.deviceMotionAcceleration`, as a session combines them); else its user
    /// acceleration alone through `UserAccelerationOnlyInput` (as a session adapts it). Nil
    /// without any.
    public static func acceleration(of r: Recording) -> SensorStream? {
        if let a = r.stream(.acceleration), !a.isEmpty { return a }
        if let a = r.deviceMotionAcceleration { return a }
        guard let u = r.stream(.userAcceleration), !u.isEmpty else { return nil }
        var out = SensorStream(kind: .acceleration)
        out.reserveCapacity(u.count)
        var input = UserAccelerationOnlyInput()
        for i in 0..<u.count {
            out.append(time: u.times[i], input.acceleration(userAcceleration: u.vector(i), time: u.times[i]))
        }
        return out
    }
}
