import Testing
import MotusTestSupport
import MotusCore
import MotusSignal
@testable import MotusTracking

/// The offline step detector: the vertical-acceleration detector alone on synthetic walks at
/// any rate and orientation, and the per-bout choice between it and the live pedometer.
@Suite struct OfflineStepsTests {
    /// `walkSignal` with the device turned so gravity lies along (x, z) instead of z.
    func tilted(_ s: SensorStream) -> SensorStream {
        var out = SensorStream(kind: .acceleration)
        let c = Math.cos(0.9), sn = Math.sin(0.9)
        for i in 0..<s.count {
            let v = s.vector(i)
            out.append(time: s.times[i], Vector3(c * v.x + sn * v.z, v.y, -sn * v.x + c * v.z))
        }
        return out
    }

    @Test(arguments: [25.0, 100.0, 400.0])
    func verticalDetectorCountsASyntheticWalkAtAnyRateAndTilt(rateHz: Double) {
        let walk = walkSignal(rateHz: rateHz, steps: 40, jitter: 0.2, seed: 3)
        for s in [walk, tilted(walk)] {
            let steps = OfflineStepDetector.verticalSteps(s)
            #expect(abs(steps.count - 40) <= 1, "\(steps.count) steps at \(rateHz) Hz")
            #expect(steps.allSatisfy { $0.time >= 3 - 0.3 && $0.time <= 3 + 20 + 0.3 && $0.peakToPeak > 1 })
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $1.time - $0.time >= 0.3 })
        }
    }

    /// A step's peak-to-peak (and so its Weinberg length) is the same whichever detector found
    /// it: the vertical detector measures the swing of |a| with the live pedometer's one-pass
    /// low-pass, not a zero-phase one (whose squared response gave about 10 % smaller swings).
    @Test(arguments: [25.0, 100.0])
    func aStepHasOnePeakToPeakWhicheverDetectorFoundIt(rateHz: Double) {
        let walk = walkSignal(rateHz: rateHz, steps: 40, seed: 7)
        let live = Pedometer.detect(walk), vertical = OfflineStepDetector.verticalSteps(walk)
        var ratios: [Double] = []
        for l in live {
            guard let v = vertical.min(by: { abs($0.time - l.time) < abs($1.time - l.time) }), abs(v.time - l.time) < 0.15 else { continue }
            ratios.append(l.peakToPeak / v.peakToPeak)
        }
        #expect(ratios.count >= 30)
        let median = ratios.sorted()[ratios.count / 2]
        #expect(abs(median - 1) < 0.03, "live / vertical peak-to-peak \(median) at \(rateHz) Hz")
    }

    @Test func bothModesCountASyntheticWalk() {
        let walk = walkSignal(rateHz: 100, steps: 30, seed: 5)
        let live = Pedometer.detect(walk)
        let offline = OfflineStepDetector.detect(walk)
        #expect(abs(live.count - 30) <= 1 && abs(offline.count - 30) <= 1, "live \(live.count), offline \(offline.count)")
        #expect(OfflineStepDetector.verticalSteps(SensorStream(kind: .acceleration)).isEmpty)
        #expect(OfflineStepDetector.detect(SensorStream(kind: .acceleration)).isEmpty)
    }

    func steps(_ times: [Double]) -> [StepEvent] { times.map { StepEvent(time: $0, peakToPeak: 1) } }
    func regular(from a: Double, count: Int, interval: Double = 0.5) -> [Double] { (0..<count).map { a + Double($0) * interval } }

    @Test func eachBoutTakesTheMoreRegularDetector() {
        let truth = regular(from: 10, count: 20)
        // Live splits three intervals with extra candidates (a turn); vertical is regular.
        let live = (truth + [12.2, 13.7, 15.2]).sorted()
        #expect(OfflineStepDetector.choose(live: steps(live), vertical: steps(truth)).map(\.time) == truth)
        // Vertical misses three steps (intervals twice the others); live is regular.
        let missing = truth.enumerated().filter { ![5, 9, 13].contains($0.offset) }.map(\.element)
        #expect(OfflineStepDetector.choose(live: steps(truth), vertical: steps(missing)).map(\.time) == truth)
        // Equally regular: the live steps stay.
        let shifted = truth.map { $0 + 0.05 }
        #expect(OfflineStepDetector.choose(live: steps(truth), vertical: steps(shifted)).map(\.time) == truth)
    }

    @Test func aDetectorThatStartsLateHasMissedTheWalksStart() {
        let truth = regular(from: 10, count: 16)
        // The pedometer confirms four steps late; the vertical detector has every step and one
        // extra that splits an interval (a turn). Judged by its own intervals alone the
        // pedometer is the more regular, but its four missing intervals count against it.
        let late = Array(truth.dropFirst(4))
        let vertical = (truth + [13.2]).sorted()
        #expect(OfflineStepDetector.choose(live: steps(late), vertical: steps(vertical)).map(\.time) == vertical)
        // A lead of less than one interval (a weight shift before the first step) misses nothing:
        // equally regular, the live steps stay.
        #expect(OfflineStepDetector.choose(live: steps(truth), vertical: steps([9.6] + truth)).map(\.time) == truth)
        // A detector going on after the walk (the device handled) is not evidence that the
        // other one missed steps: the vertical detector, regular throughout, is chosen over a
        // pedometer with a split interval and a regular tail.
        let handled = (truth + [13.2] + regular(from: 18, count: 5)).sorted()
        #expect(OfflineStepDetector.choose(live: steps(handled), vertical: steps(truth)).map(\.time) == truth)
    }

    /// A walk one detector missed at the start of a long bout is kept when the other detector's
    /// steps there make a walk by themselves, even though the late detector wins the bout.
    @Test func aWholeWalkBeforeTheChosenDetectorsFirstStepIsKept() {
        let truth = regular(from: 10, count: 48, interval: 0.55)
        // The vertical detector in a pocket: every other peak 0.22 s late (one leg's impact
        // reaches the phone later), so its intervals alternate 0.77 and 0.33 s, and half of
        // them count as irregular. The pedometer confirms the walk only after eight steps, yet
        // with its regular intervals it is still the more regular over the bout.
        let pocket = truth.enumerated().map { $0.offset % 2 == 0 ? $0.element + 0.22 : $0.element }
        let late = Array(truth.dropFirst(8))
        #expect(OfflineStepDetector.irregularity(pocket, .default, boutStart: pocket[0])
            > OfflineStepDetector.irregularity(late, .default, boutStart: pocket[0]))
        let chosen = OfflineStepDetector.choose(live: steps(late), vertical: steps(pocket)).map(\.time)
        #expect(chosen == Array(pocket.prefix(8)) + late, "\(chosen.count) steps of 48")
        // Without the rule the walk's first eight steps are lost.
        var off = OfflineStepDetector.Settings()
        off.takesLeadingWalk = false
        #expect(OfflineStepDetector.choose(live: steps(late), vertical: steps(pocket), settings: off).map(\.time) == late)
        // A few peaks before the chosen steps (a phone handled, a weight shift) are no walk:
        // four steps (three intervals), or five at erratic times, stay out.
        for lead in [[11.7, 12.25, 12.8, 13.35], [10.4, 11.5, 11.8, 12.9, 13.3]] {
            let vertical = steps(lead + Array(pocket.dropFirst(8)))
            #expect(OfflineStepDetector.choose(live: steps(late), vertical: vertical).map(\.time) == late)
        }
        #expect(OfflineStepDetector.isWalk(regular(from: 0, count: 5), .default))
        #expect(!OfflineStepDetector.isWalk(regular(from: 0, count: 5, interval: 2.5), .default))
    }

    @Test func boutsAreJudgedApart() {
        // Two walks 10 s apart: live is irregular in the first, vertical in the second.
        let a = regular(from: 0, count: 12), b = regular(from: 16, count: 12)
        let live = (a + [1.2, 2.7] + b).sorted()
        let vertical = (a + b + [17.2, 18.7, 19.2]).sorted()
        #expect(OfflineStepDetector.choose(live: steps(live), vertical: steps(vertical)).map(\.time) == a + b)
        // A bout with fewer intervals than needed is wholly irregular for that detector: three
        // vertical peaks do not replace four live steps, and live steps alone are kept.
        let short = [30.0, 30.5, 31.0]
        #expect(OfflineStepDetector.choose(live: steps([30, 30.5, 31, 31.5]), vertical: steps(short)).count == 4)
        #expect(OfflineStepDetector.choose(live: [], vertical: []).isEmpty)
    }

    @Test func reconcilingDropsAnUnconfirmedSplitAndFillsAConfirmedGap() {
        let truth = regular(from: 10, count: 20)
        // The chosen steps split one interval (12.2, which the other detector does not have)
        // and miss one step (14.0, which the other detector has).
        let chosen = (truth.filter { $0 != 14 } + [12.2]).sorted()
        let other = truth
        let mended = OfflineStepDetector.reconcile(steps(chosen), live: steps(chosen), vertical: steps(other))
        #expect(mended.map(\.time) == truth)
        // A split both detectors find is a step: kept.
        let both = OfflineStepDetector.reconcile(steps(chosen), live: steps(chosen), vertical: steps((other + [12.25]).sorted()))
        #expect(both.map(\.time).contains(12.2))
        // A step that would leave an irregular interval (0.2 s after the last one) fills nothing.
        let early = truth.filter { $0 != 14 } + [13.7]
        let unfilled = OfflineStepDetector.reconcile(steps(truth.filter { $0 != 14 }), live: steps(truth.filter { $0 != 14 }),
                                                     vertical: steps(early.sorted()))
        #expect(unfilled.count == truth.count - 1)
        // Off, the choice stands as it was.
        var off = OfflineStepDetector.Settings()
        off.reconciles = false
        off.choosesBetweenAgreedSteps = false
        let walk = walkSignal(rateHz: 100, steps: 30, seed: 5)
        let live = Pedometer.detect(walk)
        #expect(OfflineStepDetector.detect(walk, live: live, settings: off).map(\.time)
                == OfflineStepDetector.choose(live: live, vertical: OfflineStepDetector.verticalSteps(walk)).map(\.time))
    }

    @Test func betweenAgreedStepsTheDetectorNearestTheRhythmIsTaken() {
        let truth = regular(from: 10, count: 30)
        // The chosen (vertical) steps miss three steps in a row, a turn's weak steps, which the
        // pedometer has a little off the beat; the pedometer also splits one interval with a tap.
        let turn: Set<Double> = [15, 15.5, 16]
        let vertical = truth.filter { !turn.contains($0) }
        let live = (truth.map { turn.contains($0) ? $0 + 0.06 : $0 } + [20.2]).sorted()
        let mended = OfflineStepDetector.chooseBetweenAgreedSteps(steps(vertical), live: steps(live), vertical: steps(vertical))
        #expect(mended.map(\.time) == truth.map { turn.contains($0) ? $0 + 0.06 : $0 })
        // The other way round: the chosen pedometer steps with the tap lose it to the vertical
        // detector's span, and keep their turn.
        let back = OfflineStepDetector.chooseBetweenAgreedSteps(steps(live), live: steps(live), vertical: steps(vertical))
        #expect(back.map(\.time) == mended.map(\.time))
        // Nearer the rhythm by less than the resolution: the chosen steps stay. Both detectors
        // have one step for two between 21.5 and 23 s, the chosen at 22.2 s (hops 0.7 and
        // 0.8 s), the other at 22.4 s (0.9 and 0.6 s: 0.04 nearer the rhythm in Σ |log|).
        let span: Set<Double> = [22, 22.5]
        let mine = (truth.filter { !span.contains($0) } + [22.2]).sorted()
        let theirs = (truth.filter { !span.contains($0) } + [22.4]).sorted()
        let kept = OfflineStepDetector.chooseBetweenAgreedSteps(steps(mine), live: steps(mine), vertical: steps(theirs))
        #expect(kept.map(\.time) == mine)
        var sharp = OfflineStepDetector.Settings()
        sharp.rhythmResolutionRatio = 1
        #expect(OfflineStepDetector.chooseBetweenAgreedSteps(steps(mine), live: steps(mine), vertical: steps(theirs), settings: sharp)
                    .map(\.time) == theirs)
    }

    @Test func aPauseBetweenAgreedStepsIsNotFilledWithStraySteps() {
        // Two walks with a 6 s stop; the pedometer has two stray candidates in the stop. One
        // long hop is nearer the rhythm than three long ones: the stop stays empty.
        let a = regular(from: 0, count: 10), b = regular(from: 10.5, count: 10)
        let live = (a + [6.5, 8.5] + b).sorted()
        let chosen = a + b
        #expect(OfflineStepDetector.chooseBetweenAgreedSteps(steps(chosen), live: steps(live), vertical: steps(chosen))
                    .map(\.time) == chosen)
        // Steps before the first and after the last agreed step stay as chosen, and without two
        // agreed steps nothing changes.
        let edges = [-0.3] + a + [4.9]
        #expect(OfflineStepDetector.chooseBetweenAgreedSteps(steps(edges), live: steps(edges), vertical: steps(a))
                    .map(\.time) == edges)
        #expect(OfflineStepDetector.chooseBetweenAgreedSteps(steps(a), live: steps(a), vertical: []).map(\.time) == a)
    }

    @Test func aWalkBetweenTwoPausesKeepsItsStepsWhenOnlyOneDetectorHearsIt() {
        // Daily life: a walk both detectors hear, 15 s sitting, a short walk only the vertical
        // detector hears (the pedometer never confirmed it), 5 s standing, a walk both hear.
        // The span between the agreed steps around the middle walk crosses two pauses: it
        // joins three walks, and its rhythm says nothing about the middle one, which stays.
        let a = regular(from: 0, count: 10), mid = regular(from: 19.5, count: 6, interval: 0.6)
        let b = regular(from: 27.5, count: 10)
        let chosen = a + mid + b
        let kept = OfflineStepDetector.chooseBetweenAgreedSteps(steps(chosen), live: steps(a + b), vertical: steps(chosen))
        #expect(kept.map(\.time) == chosen)
        // The pauses are where the bouts of the bout choice start: the middle walk and the last.
        #expect(OfflineStepDetector.boutStarts(live: steps(a + b), vertical: steps(chosen), gap: 2) == [mid[0], b[0]])
        // Either detector's steps keep a bout going; none, or one bout, start nothing.
        #expect(OfflineStepDetector.boutStarts(live: steps([20.1, 21.3]), vertical: steps([20.7, 21.9, 23.8]), gap: 2).isEmpty)
        #expect(OfflineStepDetector.boutStarts(live: [], vertical: [], gap: 2).isEmpty)
        #expect(OfflineStepDetector.boutStarts(live: steps([0.5, 3]), vertical: steps([5.5]), gap: 2) == [3, 5.5])
    }

    @Test func reconcilingLeavesBoutEdgesAndShortRunsAlone() {
        // The first step stays though it is 0.2 s before the next (confirmed) one, and an
        // interval across a pause (longer than the bout gap) is never filled, though the other
        // detector has steps in it.
        let a = regular(from: 0, count: 8), b = regular(from: 8, count: 8)
        let chosen = [-0.2] + a + b
        let mended = OfflineStepDetector.reconcile(steps(chosen), live: steps(chosen), vertical: steps([0.0, 5.0, 6.0]))
        #expect(mended.map(\.time) == chosen)
        // Fewer than four steps: unchanged.
        #expect(OfflineStepDetector.reconcile(steps([1, 1.2, 2]), live: steps([1, 1.2, 2]), vertical: []).count == 3)
    }

    @Test func userAccelerationPlusGravityIsTheAcceleration() {
        var r = Recording(metadata: RecordingMetadata(), streams: [])
        var u = SensorStream(kind: .userAcceleration), g = SensorStream(kind: .gravity)
        g.append(time: 0.5, Vector3(0, 0, 9.8))
        g.append(time: 1.5, Vector3(0, 9.8, 0))
        for i in 0..<4 { u.append(time: Double(i) * 0.5, Vector3(1, 0, 0)) }
        r.streams = [u, g]
        let a = OfflineStepDetector.acceleration(of: r)
        // The sample at 0 s has no gravity yet and is left out, as a session waits for gravity.
        #expect(a?.times == [0.5, 1.0, 1.5])
        #expect(a.map { [$0.vector(0), $0.vector(1), $0.vector(2)] } == [Vector3(1, 0, 9.8), Vector3(1, 0, 9.8), Vector3(1, 9.8, 0)])
        // User acceleration alone goes through UserAccelerationOnlyInput, as a session adapts it.
        let alone = OfflineStepDetector.acceleration(of: Recording(metadata: RecordingMetadata(), streams: [u]))
        #expect(alone?.times == u.times)
        #expect(alone.map { abs($0.vector(0).norm - 9.80665) < 1.01 } == true)
        #expect(OfflineStepDetector.acceleration(of: Recording(metadata: RecordingMetadata(), streams: [g])) == nil)
    }

    /// A 20 s walk (1.8 steps/s), then 4 s of weak movement (a phone handled: 2 Hz at
    /// `weak` m/s²) between 3 s of stillness on each side; with `padMinutes` of a phone at rest
    /// before and after (noise, and a 0.4 s fidget every 20 s). Along gravity, at 100 Hz.
    func walkThenHandling(padMinutes: Double, weak: Double = 0.35) -> (stream: SensorStream, walk: ClosedRange<Double>) {
        var rng = SplitMix64(seed: 11)
        let pad = padMinutes * 60, start = pad + 3, total = 2 * pad + 30
        var s = SensorStream(kind: .acceleration)
        for i in 0..<Int(total * 100) {
            let t = Double(i) / 100
            var v = 0.0
            if t >= start && t < start + 20 { v = 2 * Math.sin(2 * Double.pi * 1.8 * (t - start)) }
            if t >= start + 20 && t < start + 24 { v = weak * Math.sin(2 * Double.pi * 2 * (t - start - 20)) }
            let fidget = (t < pad || t >= pad + 30) ? (t.truncatingRemainder(dividingBy: 20) - 5) : -1
            if fidget >= 0 && fidget < 0.4 { v += 0.6 * Math.sin(2 * Double.pi * 3 * fidget) }
            s.append(time: t, Vector3(0.01 * rng.gaussian(), 0.01 * rng.gaussian(), 9.81 + v + 0.01 * rng.gaussian()))
        }
        return (s, pad...(pad + 30))
    }

    /// Stillness around a walk lowers the whole recording's standard deviation, the scale a
    /// vertical peak is judged against; the floor of the moving stretches' scale keeps the
    /// count inside the walk where it was (within a step), while without it the handling's
    /// weak oscillations count. Fidgets shorter than the bout gap do not count as movement.
    @Test func longStillnessAroundAWalkLeavesItsCountAlone() {
        func inside(_ r: (stream: SensorStream, walk: ClosedRange<Double>), floor: Double) -> Int {
            var settings = OfflineStepDetector.Settings()
            settings.movementScaleFraction = floor
            return OfflineStepDetector.verticalSteps(r.stream, settings: settings).filter { r.walk.contains($0.time) }.count
        }
        let alone = walkThenHandling(padMinutes: 0), padded = walkThenHandling(padMinutes: 10)
        let floor = OfflineStepDetector.Settings.default.movementScaleFraction
        #expect(inside(alone, floor: floor) == 36)
        #expect(abs(inside(padded, floor: floor) - 36) <= 1, "\(inside(padded, floor: floor)) steps with 10 min of stillness around")
        #expect(inside(padded, floor: 0) >= 40, "without the floor the handling counts: \(inside(padded, floor: 0))")
        // The fidgets alone are no movement stretch; the walk is.
        let moving = OfflineStepDetector.movingSamples((0..<padded.stream.count).map { padded.stream.vector($0) }, rateHz: 100, forAtLeast: 2)
        #expect(moving.indices.filter { moving[$0] }.allSatisfy { padded.walk.contains(padded.stream.times[$0]) })
        #expect(moving.filter { $0 }.count >= 2000)
    }

    /// A minute of jogging (2.8 steps/s, 6 m/s² along gravity), a minute of walking (1.8 steps/s,
    /// 1.5 m/s²), a minute of jogging; 100 Hz.
    func jogWalkJog() -> SensorStream {
        verticalActivities([(60, 6, 2.8), (60, 1.5, 1.8), (60, 6, 2.8)], seed: 5)
    }

    /// A walk between two runs moves the device far less than the runs, which set the whole
    /// recording's scale: judged against it, the vertical detector hears almost none of the
    /// walk's 108 steps; judged against its own (`quieterActivityRatio`), all of them. With the
    /// centred window alone it hears only the walk's middle, where that window holds no run;
    /// the window on the walk's side of a step holds none anywhere. Silent near the runs, it
    /// was the irregular detector of the bout (it went without a step for more than
    /// `missedWalkSeconds` while the pedometer counted), so the offline count took the
    /// pedometer's steps there.
    @Test func aWalkBetweenRunsIsJudgedAgainstItsOwnScale() {
        let s = jogWalkJog()
        func walkSteps(_ steps: [StepEvent]) -> Int { steps.filter { $0.time >= 60 && $0.time < 120 }.count }
        var global = OfflineStepDetector.Settings()
        global.quieterActivityRatio = 0
        var centred = OfflineStepDetector.Settings()
        centred.sideWindowMovingFraction = .infinity
        var centredNoMissedWalk = centred
        centredNoMissedWalk.missedWalkSeconds = .infinity
        #expect(walkSteps(OfflineStepDetector.verticalSteps(s, settings: global)) < 10)
        let centredSteps = walkSteps(OfflineStepDetector.verticalSteps(s, settings: centred))
        #expect(centredSteps >= 60 && centredSteps < 100, "\(centredSteps) steps with the centred window")
        let sided = walkSteps(OfflineStepDetector.verticalSteps(s))
        #expect(abs(sided - 108) <= 2, "\(sided) steps with the windows on either side")
        #expect(walkSteps(OfflineStepDetector.detect(s, settings: centredNoMissedWalk)) < 80)
        let offline = walkSteps(OfflineStepDetector.detect(s))
        #expect(abs(offline - 108) <= 2, "offline \(offline) of 108 walking steps")
        // An endless window is a window as long as the recording (180 s), not a trap.
        var endless = OfflineStepDetector.Settings(), whole = endless
        endless.activityWindowSeconds = .infinity
        whole.activityWindowSeconds = 180
        let endlessSteps = OfflineStepDetector.verticalSteps(s, settings: endless).map(\.time)
        #expect(endlessSteps == OfflineStepDetector.verticalSteps(s, settings: whole).map(\.time))
        #expect(endlessSteps != OfflineStepDetector.verticalSteps(s).map(\.time))
    }

    /// A 20 s walk (36 steps) between two runs, with a 4 s stop on each side: every 30 s window
    /// around its steps holds part of a run, so only the windows kept inside the walk's bout
    /// judge it against itself.
    @Test func aShortWalkBetweenStopsIsJudgedAgainstItsOwnBout() {
        let s = verticalActivities([(60, 6, 2.8), (4, 0, 0), (20, 1.5, 1.8), (4, 0, 0), (60, 6, 2.8)], seed: 5)
        func walkSteps(_ steps: [StepEvent]) -> Int { steps.filter { $0.time >= 64 && $0.time < 84 }.count }
        let inside = walkSteps(OfflineStepDetector.verticalSteps(s))
        #expect(abs(inside - 36) <= 2, "\(inside) of the walk's 36 steps")
        // With a bout gap longer than the stops, the windows cross them (an infinite one: no
        // stretch moves long enough, so there is no local scale at all).
        for gap in [5, Double.infinity] {
            var across = OfflineStepDetector.Settings()
            across.boutGapSeconds = gap
            let crossing = walkSteps(OfflineStepDetector.verticalSteps(s, settings: across))
            #expect(crossing < 30, "\(crossing) of 36 with a bout gap of \(gap) s")
        }
    }

    /// The local scale is the quietest of the windows centred on a sample, ending at it and
    /// starting at it, over the moving samples only; a side window counts only when enough of
    /// it moves.
    @Test func theLocalScaleIsTheQuietestWindow() {
        // 0–9: ±1 (deviation about 1), 10–19: ±3 (about 3); all moving; windows of five samples.
        let f = (0..<20).map { i in (i % 2 == 0 ? 1.0 : -1.0) * (i < 10 ? 1 : 3) }
        let all = [Bool](repeating: true, count: 20)
        let d = OfflineStepDetector.quietestMovingStandardDeviation(f, moving: all, width: 4, sideFraction: 0.5, gap: .max)
        // At 9 the window ending at it is all ±1; at 10 the one before it holds a 3 and four 1s.
        #expect(abs(d[9] - 1) < 0.05)
        #expect(d[10] > 1.2 && d[10] < 2)
        #expect(abs(d[15] - 3) < 0.1)
        // Without the side windows, the centred one at 9 mixes both.
        let centred = OfflineStepDetector.quietestMovingStandardDeviation(f, moving: all, width: 4, sideFraction: .infinity, gap: .max)
        #expect(centred[9] > 1.5)
        // Samples that do not move are left out: the ±1 half at rest leaves the ±3 half's scale.
        let loudMoves = (0..<20).map { $0 >= 10 }
        let moving = OfflineStepDetector.quietestMovingStandardDeviation(f, moving: loudMoves, width: 4, sideFraction: 0.5, gap: .max)
        #expect(abs(moving[9] - 3) < 1e-12)
        // None moving: 0.
        #expect(OfflineStepDetector.quietestMovingStandardDeviation(f, moving: [Bool](repeating: false, count: 20), width: 4,
                                                                    sideFraction: 0.5, gap: .max).allSatisfy { $0 == 0 })
    }

    /// A bout between still stretches of the bout gap keeps its windows inside it when it moves
    /// for at least a side window's share: a quiet walk with stops between louder movement.
    @Test func theLocalScaleStaysInsideALongEnoughBout() {
        // Loud (±3) to 20, still for 3 samples, quiet (±1) for `quiet` samples, still for 3,
        // loud again for 20; windows of 20 (a side window needs 10 moving samples), gap 3.
        func scales(quiet: Int, gap: Int) -> (d: [Double], start: Int) {
            let f = (0..<20).map { i in i % 2 == 0 ? 3.0 : -3 } + [0, 0, 0] + (0..<quiet).map { i in i % 2 == 0 ? 1.0 : -1 }
                + [0, 0, 0] + (0..<20).map { i in i % 2 == 0 ? 3.0 : -3 }
            return (OfflineStepDetector.quietestMovingStandardDeviation(f, moving: f.map { $0 != 0 }, width: 20, sideFraction: 0.5, gap: gap), 23)
        }
        let (inside, start) = scales(quiet: 12, gap: 3)
        #expect((start..<start + 12).allSatisfy { abs(inside[$0] - 1) < 0.01 }, "\(inside[start..<start + 12])")
        // Every window around the quiet bout holds loud samples without the bouts, or with a
        // gap longer than the stops.
        for gap in [Int.max, 4] { #expect(scales(quiet: 12, gap: gap).d[start + 2] > 1.5) }
        // A bout shorter than a side window's share keeps the recording around it.
        let short = scales(quiet: 8, gap: 3)
        #expect(short.d[start + 2] > 1.5)
    }

    /// Between agreed steps, a detector's silence of `missedWalkSeconds` or more while the other
    /// detector counted costs every step it missed: a run at 0.36 s with a 12 s walk at 0.5 s in
    /// it, which the chosen (vertical) detector did not hear. Costed as one long hop, the
    /// silence (log 33) weighed less than 24 walking hops a little off the run's rhythm.
    @Test func aLongSilenceBetweenAgreedStepsCostsItsMissedSteps() {
        let run1 = regular(from: 0, count: 28, interval: 0.36), walk = regular(from: 10.2, count: 24)
        let run2 = regular(from: 22.2, count: 28, interval: 0.36)
        let vertical = steps(run1 + run2), live = steps(run1 + walk + run2)
        let chosen = OfflineStepDetector.chooseBetweenAgreedSteps(vertical, live: live, vertical: vertical)
        #expect(chosen.map(\.time) == (run1 + walk + run2))
        var oneHop = OfflineStepDetector.Settings()
        oneHop.missedWalkSeconds = .infinity
        #expect(OfflineStepDetector.chooseBetweenAgreedSteps(vertical, live: live, vertical: vertical, settings: oneHop).map(\.time)
                == run1 + run2)
        // A silence shorter than that is a hop like any other.
        #expect(abs(OfflineStepDetector.rhythmCost([], from: 0, to: 5, rhythm: 0.5, missedWalk: 8) - Math.log(10)) < 1e-12)
        #expect(abs(OfflineStepDetector.rhythmCost([], from: 0, to: 10, rhythm: 0.5, missedWalk: 8) - 19 * Math.log(2)) < 1e-12)
    }

    /// The bout choice counts a detector's silence of `missedWalkSeconds` or more inside a bout
    /// as missed intervals, and a shorter one (a pause the other detector filled with taps) not.
    @Test func aLongSilenceInsideABoutCountsAsMissedSteps() {
        let s = OfflineStepDetector.Settings.default
        let steady = regular(from: 0, count: 20)
        let withSilence = regular(from: 0, count: 10) + regular(from: 14.5, count: 10)
        let withPause = regular(from: 0, count: 10) + regular(from: 7.5, count: 10)
        #expect(OfflineStepDetector.irregularity(steady, s) == 0)
        #expect(OfflineStepDetector.irregularity(withPause, s) == 0)
        // 10 s at 0.5 s: 20 missed intervals against 18 regular ones.
        #expect(abs(OfflineStepDetector.irregularity(withSilence, s) - 20.0 / 38.0) < 1e-9)
    }
}

/// Activities one after another along gravity at 100 Hz, each (seconds, amplitude m/s², steps
/// per second) a sine from its own start (amplitude 0: the device at rest), with 0.01 m/s² of
/// noise on every axis.
func verticalActivities(_ parts: [(seconds: Double, amplitude: Double, hz: Double)], seed: UInt64) -> SensorStream {
    var rng = SplitMix64(seed: seed)
    var s = SensorStream(kind: .acceleration)
    var start = 0.0
    for part in parts {
        let end = start + part.seconds
        var i = Int((start * 100).rounded())
        while Double(i) / 100 < end - 1e-9 {
            let t = Double(i) / 100
            let v = part.amplitude * Math.sin(2 * Double.pi * part.hz * (t - start))
            s.append(time: t, Vector3(0.01 * rng.gaussian(), 0.01 * rng.gaussian(), 9.81 + v + 0.01 * rng.gaussian()))
            i += 1
        }
        start = end
    }
    return s
}
