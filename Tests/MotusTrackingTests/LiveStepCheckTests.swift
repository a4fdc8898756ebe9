import Testing
import MotusTestSupport
import MotusCore
import MotusSignal
@testable import MotusTracking

/// The live check on the pedometer's steps: the streaming rhythm rule, the live vertical
/// detector, and the session counting through them.
@Suite struct LiveStepCheckTests {
    func steps(_ times: [Double]) -> [StepEvent] { times.map { StepEvent(time: $0, peakToPeak: 1) } }
    func regular(from a: Double, count: Int, interval: Double = 0.5) -> [Double] { (0..<count).map { a + Double($0) * interval } }

    /// Pushes `times` one at a time with their confirmations, asking for decided steps after
    /// each as a live caller does (no step can come before the one just pushed).
    func run(_ times: [Double], confirmed: (Double) -> Bool, settings: OfflineStepDetector.Settings = .default) -> [Double] {
        var check = StepRhythmCheck(settings: settings)
        var out: [Double] = []
        for t in times {
            if let p = check.push(StepEvent(time: t, peakToPeak: 1), confirmed: confirmed(t)) { out.append(p.time) }
            while let s = check.next(noStepBefore: t) { out.append(s.time) }
        }
        while let s = check.next(noStepBefore: .infinity) { out.append(s.time) }
        return out
    }

    @Test func rhythmCheckDropsAnUnconfirmedSplitOnly() {
        let walk = regular(from: 10, count: 20)
        let extra = 13.2, withExtra = (walk + [extra]).sorted()
        // Unconfirmed, it split the interval 13.0–13.5: dropped.
        #expect(run(withExtra, confirmed: { $0 != extra }) == walk)
        // Confirmed by the other detector: kept.
        #expect(run(withExtra, confirmed: { _ in true }) == withExtra)
        // An unconfirmed step that splits nothing (a regular walk) is kept.
        #expect(run(walk, confirmed: { _ in false }) == walk)
        // A run too short for a rhythm (fewer than three intervals around a step) is kept by
        // the split rule (the run rule off; with it, four unconfirmed steps at these irregular
        // times are dropped: the next test).
        let short = [10.0, 10.5, 10.7, 11.0]
        var splitsOnly = OfflineStepDetector.Settings()
        splitsOnly.unconfirmedRunSteps = 0
        #expect(run(short, confirmed: { _ in false }, settings: splitsOnly) == short)
    }

    /// Steps the other detector does not confirm, several in a row coming more often than their
    /// rhythm (a phone handled after a walk ends), are dropped; unconfirmed steps that keep a
    /// rhythm stay (a walk the other detector misses), also when their intervals alternate
    /// short and long with regular strides (a phone in one pocket) or one of them is long (a
    /// missed step).
    @Test func rhythmCheckDropsAnUnconfirmedRunThatKeepsNoRhythm() {
        let walk = regular(from: 10, count: 20)
        // Candidates in pairs at erratic times (a bag being handled rings the band-pass twice).
        let handling = [20.1, 20.25, 21.0, 21.5, 21.62, 22.8, 22.95, 23.3]
        let times = walk + handling
        let kept = run(times, confirmed: { $0 < 20 })
        #expect(kept == walk, "\(kept)")
        var off = OfflineStepDetector.Settings()
        off.unconfirmedRunSteps = 0
        // Without the rule only the split rule acts, and it keeps most of them.
        #expect(run(times, confirmed: { $0 < 20 }, settings: off).count >= walk.count + 5)
        // Three unconfirmed steps are too few for the rule (four by default).
        let three = walk + [20.1, 20.25, 21.0]
        #expect(run(three, confirmed: { $0 < 20 }, settings: off) == run(three, confirmed: { $0 < 20 }))
        // Unconfirmed but regular: a walk the other detector does not hear.
        let unheard = walk + regular(from: 20, count: 10, interval: 0.55)
        #expect(run(unheard, confirmed: { $0 < 20 }) == unheard)
        // Alternating 0.36 / 0.64 s (1.8 apart), strides of 1 s: kept too.
        var alternating = walk
        for k in 0..<12 {
            let offset: Double = k % 2 == 1 ? 0.36 : 0
            alternating.append(20 + Double(k / 2) + offset)
        }
        #expect(run(alternating, confirmed: { $0 < 20 }) == alternating)
        // One confirmed step among them breaks the run: no four unconfirmed in a row.
        let broken = walk + [20.1, 20.25, 21.0, 21.5]
        #expect(run(broken, confirmed: { $0 < 20 || $0 == 20.25 }) == run(broken, confirmed: { $0 < 20 || $0 == 20.25 }, settings: off))
        // A long interval (a missed step) does not make a run irregular.
        let missed = walk + [20.0, 20.5, 21.0, 22.0, 22.5, 23.0, 23.5]
        #expect(run(missed, confirmed: { $0 < 20 }) == missed)
    }

    @Test func rhythmCheckWaitsForTheStepsItNeedsAndNoLonger() {
        var check = StepRhythmCheck()
        let walk = regular(from: 0, count: 12)
        for t in walk.prefix(6) { check.push(StepEvent(time: t, peakToPeak: 1), confirmed: false) }
        // Step 0 opens the bout (kept at once); step 1 needs five steps after it (1.0 … 3.0).
        var got: [Double] = []
        while let s = check.next(noStepBefore: 2.5) { got.append(s.time) }
        #expect(got == [0.0])
        check.push(StepEvent(time: walk[6], peakToPeak: 1), confirmed: false)
        while let s = check.next(noStepBefore: 3.0) { got.append(s.time) }
        #expect(got == [0.0, 0.5])
        // Unknown confirmations hold a step until they are known, and the unconfirmed steps
        // before it whose run it could complete (`unconfirmedRunSteps` − 1 of them: 2.0–3.0 s).
        check.push(StepEvent(time: walk[7], peakToPeak: 1))
        for t in walk.dropFirst(8) { check.push(StepEvent(time: t, peakToPeak: 1), confirmed: false) }
        while let s = check.next(noStepBefore: 6) { got.append(s.time) }
        #expect(got == Array(walk.prefix(4)))
        check.confirm(until: 10) { _ in true }
        // The end of the walk: nothing can follow within the bout gap, all are decided.
        while let s = check.next(noStepBefore: walk[11] + 2) { got.append(s.time) }
        #expect(got == walk)
        #expect(check.pending == 0 && check.dropped == 0)
    }

    @Test func rhythmCheckPassesOnTheOldestStepWhenFull() {
        var check = StepRhythmCheck()
        var passed: [Double] = []
        let many = regular(from: 0, count: StepRhythmCheck.capacity + 3, interval: 0.4)
        for t in many { if let p = check.push(StepEvent(time: t, peakToPeak: 1)) { passed.append(p.time) } }
        #expect(passed == Array(many.prefix(3)))
        check.confirm(until: .infinity) { _ in true }
        var rest: [Double] = []
        while let s = check.next(noStepBefore: .infinity) { rest.append(s.time) }
        #expect(passed + rest == many, "no step lost")
    }

    @Test(arguments: [25.0, 100.0, 400.0])
    func liveVerticalDetectorFindsTheWholeFileDetectorsSteps(rateHz: Double) {
        let walk = walkSignal(rateHz: rateHz, steps: 40, jitter: 0.2, seed: 3)
        let offline = OfflineStepDetector.verticalSteps(walk).map(\.time)
        var live = VerticalStepStream()
        var lag = 0.0
        for i in 0..<walk.count {
            live.push(walk.vector(i), time: walk.times[i])
            if live.decidedUntil.isFinite { lag = Swift.max(lag, walk.times[i] - live.decidedUntil) }
        }
        live.finish()
        #expect(live.decidedUntil == .infinity)
        // Within the walk (3 s to 23 s) the same peaks; before and after it, in the still
        // lead-in, the live threshold (a running mean square) is still small and may pass
        // noise peaks, which only ever confirm more steps.
        let inWalk = live.stepTimes.prefix(live.steps).filter { $0 >= 3 - 0.3 && $0 <= 23 + 0.3 }
        #expect(abs(inWalk.count - offline.count) <= 1, "live \(inWalk.count), whole file \(offline.count)")
        // Each whole-file peak is found live within 20 ms.
        #expect(offline.filter { !live.hasStep(near: $0, within: 0.02) }.count <= 1)
        // Peaks are decided a bounded time after they happen: settling, span, hop, one sample.
        let s = VerticalStepStream.Settings.default
        #expect(lag <= s.settlingSeconds + s.prominenceSpanSeconds + s.hopSeconds + 0.05, "lag \(lag) s")
    }

    /// The live peak threshold's scale (a running mean square of the band-passed signal) rises
    /// with `amplitudeTimeConstantSeconds` and falls with the slower
    /// `amplitudeFallTimeConstantSeconds`: a quiet stretch after a walk (a turn, a pause) keeps
    /// most of the walk's scale, so a cane's taps there are judged against the walk's steps.
    @Test func theLiveThresholdFallsMoreSlowlyThanItRises() throws {
        let walk = walkSignal(rateHz: 100, steps: 60, stillBefore: 3, stillAfter: 16, noise: 0)
        let s = VerticalStepStream.Settings.default
        #expect(s.amplitudeFallTimeConstantSeconds > s.amplitudeTimeConstantSeconds)
        var live = VerticalStepStream()
        // The threshold (∝ √mean square) of each grid sample as it becomes final.
        var thresholds: [Double] = []
        for i in 0..<walk.count {
            live.push(walk.vector(i), time: walk.times[i])
            while thresholds.count < live.finalCount { thresholds.append(live.threshold[thresholds.count & live.ringMask]) }
        }
        // At the walk's end (33 s) and 10 s into the stillness after it (the grid is 100 Hz).
        try #require(thresholds.count > 4300)
        let end = thresholds[3300], later = thresholds[4300]
        let falling = (later / end) * (later / end)   // the mean square's ratio over 10 s
        #expect(abs(falling - Math.exp(-10 / s.amplitudeFallTimeConstantSeconds)) < 0.02,
                "mean square fell to \(falling) of the walk's in 10 s")
    }

    /// After a run, the running mean square holds the run's scale for a minute or more; once
    /// the walk's moving samples fill the quieter-stretch window (`quieterWindowSeconds`) and
    /// deviate less than `quieterActivityRatio` of it, the walk's peaks are judged against the
    /// walk. A minute of jogging (2.8 steps/s, 8 m/s² along gravity), then 90 s of walking
    /// (1.8 steps/s, 1.5 m/s²), 100 Hz.
    @Test func aWalkAfterARunIsJudgedAgainstItselfOnceItFillsTheWindow() {
        let jogThenWalk = verticalActivities([(60, 8, 2.8), (90, 1.5, 1.8)], seed: 9)
        func walkPeaks(_ detector: OfflineStepDetector.Settings, from start: Double) -> Int {
            var live = VerticalStepStream(detector: detector)
            for i in 0..<jogThenWalk.count { live.push(jogThenWalk.vector(i), time: jogThenWalk.times[i]) }
            live.finish()
            return live.stepTimes.prefix(live.steps).filter { $0 >= start && $0 < 149 }.count
        }
        var running = OfflineStepDetector.Settings()
        running.quieterActivityRatio = 0
        let window = VerticalStepStream.Settings.default.quieterWindowSeconds
        // From the window's end on, 1.8 steps/s to 149 s.
        let expected = Int(((149 - 60 - window) * 1.8).rounded())
        let judgedAgainstWalk = walkPeaks(.default, from: 60 + window), againstRun = walkPeaks(running, from: 60 + window)
        #expect(abs(judgedAgainstWalk - expected) <= 2, "\(judgedAgainstWalk) peaks of \(expected)")
        #expect(againstRun < expected - 20, "against the running scale alone: \(againstRun) of \(expected)")
        // An endless window turns the rule off instead of trapping.
        var endless = VerticalStepStream.Settings()
        endless.quieterWindowSeconds = .infinity
        var live = VerticalStepStream(settings: endless)
        for i in 0..<jogThenWalk.count { live.push(jogThenWalk.vector(i), time: jogThenWalk.times[i]) }
        live.finish()
        #expect(live.stepTimes.prefix(live.steps).filter { $0 >= 60 + window && $0 < 149 }.count == againstRun)
    }

    @Test func aWalkAfterAStopIsJudgedAgainstItselfFromItsFirstStep() {
        // A minute's run, a stop of `pause` s, then a 20 s walk (1.8 steps/s) that never fills
        // the quieter-stretch window.
        func walkPeaks(pause: Double, _ detector: OfflineStepDetector.Settings = .default) -> Int {
            let s = verticalActivities([(60, 8, 2.8), (pause, 0, 0), (20, 1.5, 1.8), (5, 0, 0)], seed: 9)
            var live = VerticalStepStream(detector: detector)
            let walkStart = 60 + pause
            for i in 0..<s.count { live.push(s.vector(i), time: s.times[i]) }
            live.finish()
            return live.stepTimes.prefix(live.steps).filter { $0 >= walkStart && $0 < walkStart + 20 }.count
        }
        var never = OfflineStepDetector.Settings()
        never.boutGapSeconds = .infinity
        let afterStop = walkPeaks(pause: 4), withoutRestart = walkPeaks(pause: 4, never), afterHalt = walkPeaks(pause: 1)
        #expect(abs(afterStop - 36) <= 2, "after a 4 s stop: \(afterStop) peaks of 36")
        #expect(withoutRestart < 20, "with the run's scale kept: \(withoutRestart) of 36")
        // A stop shorter than the bout gap keeps the run's scale.
        #expect(afterHalt < 20, "after a 1 s stop: \(afterHalt) of 36")
    }

    /// The streaming filter's output and the whole-signal one's largest difference past the
    /// first 3 s (the forward pass starts without padding), and at the last sample.
    func streamed(_ x: [Double], _ band: BiquadCascade, delay: Int) -> (Double, Double) {
        let whole = band.filteredZeroPhase(x)
        var live = StreamingZeroPhaseFilter(band, delaySamples: delay, hopSamples: 50)
        var out: [Double] = []
        for v in x {
            if live.push(v) > 0 { for i in live.newlyFinal..<live.finalCount { out.append(live.output(i)) } }
            // Final `delay` samples behind the newest, at most a hop later.
            #expect(live.finalCount >= live.count - delay - 50)
        }
        live.finish()
        for i in live.newlyFinal..<live.finalCount { out.append(live.output(i)) }
        #expect(out.count == x.count)
        let err = zip(out, whole).dropFirst(300).map { Swift.abs($0 - $1) }.max() ?? .infinity
        return (err, Swift.abs(out[x.count - 1] - whole[x.count - 1]))
    }

    @Test func streamingZeroPhaseFilteringIsTheWholeSignalsAfterItsDelay() {
        let band = BiquadCascade.butterworthBandPass(order: 4, lowHz: 1, highHz: 5, sampleRateHz: 100)
        var rng = SplitMix64(seed: 9)
        let x = (0..<3000).map { Math.sin(Double($0) * 0.13) + 0.5 * Math.sin(Double($0) * 0.41) + 0.2 * rng.gaussian() }
        // Amplitude about 1.5: the backward pass's made-up end is forgotten to 2 % in 2 s (the
        // live detector's delay) and to 0.2 % in 4 s; the end itself is the whole signal's.
        let (at2s, end) = streamed(x, band, delay: 200)
        #expect(at2s < 0.03 && end < 1e-9, "2 s: \(at2s), end \(end)")
        let (at4s, _) = streamed(x, band, delay: 400)
        #expect(at4s < 0.003 && at4s < at2s / 5, "4 s: \(at4s)")
    }

    @Test func aLiveSessionCountsCheckedStepsLaterAndAllOfThemAtTheEnd() throws {
        let walk = walkSignal(rateHz: 100, steps: 40, seed: 5)
        var on = MotionSession(settings: SessionSettings())
        var offSettings = SessionSettings()
        offSettings.tuning.stepCheck.enabled = false
        var off = MotionSession(settings: offSettings)
        var behind = 0
        var lags: [Double] = []
        for i in 0..<walk.count {
            on.pushAcceleration(walk.vector(i), time: walk.times[i])
            off.pushAcceleration(walk.vector(i), time: walk.times[i])
            behind = Swift.max(behind, off.steps - on.steps)
            #expect(on.steps <= off.steps)
            while let e = on.nextEvent() { if case .step(let s) = e { lags.append(walk.times[i] - s.time) } }
        }
        #expect(behind > 0, "checked steps are counted after a delay")
        // The delay: the vertical detector's (about 4 s) or, for the last steps of the walk, the
        // steps their rhythm needs and the bout gap after the walk (4 s after the last step).
        lags.sort()
        #expect(!lags.isEmpty && lags[lags.count / 2] <= 4.5 && lags[lags.count - 1] <= 7, "lags \(lags)")
        on.finish(); off.finish()
        // A regular walk: the check drops nothing, so both count the pedometer's steps.
        #expect(on.steps == off.steps && abs(on.steps - 40) <= 1, "checked \(on.steps), unchecked \(off.steps)")
    }

    @Test func stepsHeldForTheChoiceBetweenAgreedStepsComeOutWhenTheWalkStops() {
        // A walk, then 10 s still. The pedometer's last five steps come 0.3 s late (the
        // vertical detector does not confirm them, but they keep their rhythm): they wait for
        // an agreed step that never comes, and are counted once no step came for the bout gap,
        // before the input ends.
        let walk = walkSignal(rateHz: 100, steps: 30, stillAfter: 10, seed: 7)
        var pedometer = Pedometer.detect(walk).map(\.time)
        let n = pedometer.count
        for k in (n - 5)..<n { pedometer[k] += 0.3 }
        var check = LiveStepCheck()
        var next = 0, counted: [Double] = []
        for i in 0..<walk.count {
            let t = walk.times[i]
            check.push(walk.vector(i), time: t)
            while next < n && pedometer[next] <= t - 0.2 {
                if let passed = check.push(StepEvent(time: pedometer[next], peakToPeak: 1)) { counted.append(passed.time) }
                next += 1
            }
            while let s = check.next(noStepBefore: t - 0.2) { counted.append(s.time) }
        }
        #expect(counted == pedometer, "counted \(counted.count) of \(n) before the end")
        #expect(check.pending == 0)
    }

    @Test func aStepPassedOnWhenTheCheckIsFullIsCountedInTimeOrder() {
        // The walk's last five pedometer steps come late and wait for an agreed step (as
        // above), and so do the pedometer's steps after the walk. Then the acceleration stops
        // coming while the pedometer's steps go on: none can be confirmed any more, so the
        // rhythm check fills and passes its oldest steps on unchecked. They are counted after
        // the waiting steps, not before them, and every step is counted once.
        let walk = walkSignal(rateHz: 100, steps: 30, stillAfter: 10, seed: 7)
        var pedometer = Pedometer.detect(walk).map(\.time)
        let n = pedometer.count
        for k in (n - 5)..<n { pedometer[k] += 0.3 }
        let all = pedometer + regular(from: pedometer[n - 1] + 0.5, count: StepRhythmCheck.capacity + 20)
        let cut = pedometer[n - 1] + 5
        var check = LiveStepCheck()
        var counted: [Double] = []
        func take(_ passed: StepEvent?, horizon: Double) {
            if let p = passed { counted.append(p.time) }
            while let s = check.next(noStepBefore: horizon) { counted.append(s.time) }
        }
        var next = 0
        for i in 0..<walk.count where walk.times[i] <= cut {
            let t = walk.times[i]
            check.push(walk.vector(i), time: t)
            while next < all.count && all[next] <= t - 0.2 { take(check.push(StepEvent(time: all[next], peakToPeak: 1)), horizon: t - 0.2); next += 1 }
            take(nil, horizon: t - 0.2)
        }
        for t in all[next...] { take(check.push(StepEvent(time: t, peakToPeak: 1)), horizon: t) }
        check.finish()
        take(nil, horizon: .infinity)
        let late = zip(counted, counted.dropFirst()).first { $1 < $0 }
        #expect(late == nil, "\(late.map { "\($0.1) s counted after \($0.0) s" } ?? "")")
        #expect(counted.count + check.dropped == all.count && check.pending == 0)
    }

    /// Feeds `signal` to a live check that gets no pedometer step (a walk the pedometer does
    /// not hear) and returns the steps it counts, asking after every sample as a session does.
    /// With `postureChange` (and `laterPostureChange`), the session's change of posture (standing
    /// up, sitting down) is told to the check when the input reaches that time, as the session
    /// tells it; with `restUntil` (and `restFrom`), every sample up to (from) that time is at
    /// rest (`atRest(at:)`), as the session's stillness test tells.
    func silentSteps(_ signal: SensorStream, settings: LiveStepCheck.Settings = .init(),
                     postureChange: Double? = nil, restUntil: Double? = nil, pedometer: [Double] = [],
                     laterPostureChange: Double? = nil, restFrom: Double? = nil) -> (times: [Double], silent: Int) {
        var check = LiveStepCheck(settings: settings)
        var out: [Double] = []
        var told = false, toldLater = false, heard = 0
        for i in 0..<signal.count {
            if let c = postureChange, !told, signal.times[i] >= c { check.postureChanged(at: c); told = true }
            if let c = laterPostureChange, !toldLater, signal.times[i] >= c { check.postureChanged(at: c); toldLater = true }
            // The device at rest on every sample up to `restUntil`, and from `restFrom` on, as a
            // session tells it.
            if let r = restUntil, signal.times[i] <= r { check.atRest(at: signal.times[i]) }
            if let r = restFrom, signal.times[i] >= r { check.atRest(at: signal.times[i]) }
            // The pedometer's steps, each as it would come: when the samples reach it.
            while heard < pedometer.count && pedometer[heard] <= signal.times[i] {
                _ = check.push(StepEvent(time: pedometer[heard], peakToPeak: 1)); heard += 1
            }
            check.push(signal.vector(i), time: signal.times[i])
            while let s = check.next(noStepBefore: signal.times[i]) { out.append(s.time) }
        }
        check.finish()
        while let s = check.next(noStepBefore: .infinity) { out.append(s.time) }
        return (out, check.silentWalkSteps)
    }

    /// A walk the pedometer misses (its |a| breaks rhythm at a low rate, a swinging arm) is
    /// counted from the vertical detector's peaks: all of it, its first steps included (they
    /// wait until the signal has shown it repeats), in time order; not when the rule is off.
    @Test(arguments: [12.5, 100.0])
    func aWalkThePedometerDoesNotHearIsCountedFromTheVerticalPeaks(rateHz: Double) {
        let walk = walkSignal(rateHz: rateHz, steps: 40, seed: 7)
        let (times, silent) = silentSteps(walk)
        #expect(abs(times.count - 40) <= 1 && silent == times.count, "\(times.count) steps, \(silent) silent")
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 >= 3 - 0.3 && $0 <= 23 + 0.3 }, "\(times)")
        var off = LiveStepCheck.Settings()
        off.countsSilentWalks = false
        #expect(silentSteps(walk, settings: off).times.isEmpty)
    }

    /// A walk whose peaks alternate short and long intervals (a phone in one pocket: the near
    /// leg's step and the far leg's fall at different phases of the stride) is counted from
    /// the regularity of its strides, each of its peaks once; with the intervals further apart
    /// than `maximumStepAsymmetry`, not.
    @Test func anAsymmetricWalkIsCountedByItsStrides() {
        // Strides of 1 s: the near leg's step at 0, the far leg's 0.36 s later (intervals
        // 0.36 and 0.64 s, 1.8 times apart), 30 strides between 3 s of stillness.
        func pulse(_ t: Double, _ width: Double) -> Double {
            abs(t) < width / 2 ? 0.5 * (1 + Math.cos(2 * Double.pi * t / width)) : 0
        }
        var rng = SplitMix64(seed: 3)
        var s = SensorStream(kind: .acceleration)
        var t = 0.0
        while t < 36 {
            var v = 0.0
            if t >= 3 && t < 33 {
                let u = (t - 3).truncatingRemainder(dividingBy: 1)
                v = 3 * (pulse(u, 0.2) + pulse(u - 1, 0.2)) + 2 * pulse(u - 0.36, 0.2) - 1
            }
            s.append(time: t, Vector3(0.3, 0.2, 9.8 + v + 0.03 * rng.gaussian()))
            t += 0.01
        }
        let (times, silent) = silentSteps(s)
        #expect(abs(times.count - 60) <= 2 && silent == times.count, "\(times.count) steps, \(silent) silent")
        var strict = LiveStepCheck.Settings()
        strict.detector.maximumStepAsymmetry = 1.5
        #expect(silentSteps(s, settings: strict).times.count < 10)
    }

    /// Jolts of 4 m/s² for 0.15 s at random times 0.55–3.05 s apart from 1 s on, over
    /// `duration` s at 100 Hz (a phone knocked about on a table, fidgeting).
    func joltTrain(seed: UInt64, duration: Double) -> SensorStream {
        var rng = SplitMix64(seed: seed)
        var s = SensorStream(kind: .acceleration)
        var t = 0.0, nextJolt = 1.0
        while t < duration {
            var v = 0.03 * rng.gaussian()
            if t >= nextJolt && t < nextJolt + 0.15 { v += 4 * Math.sin(Double.pi * (t - nextJolt) / 0.15) }
            if t >= nextJolt + 0.15 { nextJolt = t + 0.4 + 2.5 * rng.uniform() }
            s.append(time: t, Vector3(0.3, 0.2, 9.8 + v))
            t += 0.01
        }
        return s
    }

    /// Jolts at random times are not a walk, though the band-pass rings each into a pair of
    /// peaks and some trains of peaks look regular: the signal itself does not repeat a stride
    /// later. Fifty different trains.
    @Test func irregularJoltsAreNoSilentWalk() {
        for seed in UInt64(1)...50 {
            let (times, _) = silentSteps(joltTrain(seed: seed, duration: 60))
            #expect(times.isEmpty, "seed \(seed): \(times.count) steps")
        }
    }

    /// Still, then 10 steps 0.55 s apart from `start`, each with its own width, height and a
    /// second bump at its own phase (so the steps' signal does not repeat itself), then still to
    /// `until` (s; 100 Hz); `settling`: single movements at those times before the steps (an arm
    /// settling into its swing).
    func unlikeSteps(start: Double, settling: [Double] = [], seed: UInt64, until: Double, count: Int = 10) -> SensorStream {
        func pulse(_ t: Double, _ width: Double) -> Double {
            abs(t) < width / 2 ? 0.5 * (1 + Math.cos(2 * Double.pi * t / width)) : 0
        }
        var rng = SplitMix64(seed: seed)
        let steps = (0..<count).map { k in (t: start + 0.55 * Double(k), width: 0.12 + 0.2 * rng.uniform(), height: 1.5 + 2.5 * rng.uniform(),
                                         bump: 0.15 + 0.25 * rng.uniform(), bumpHeight: 2.5 * rng.uniform()) }
        var s = SensorStream(kind: .acceleration)
        var t = 0.0
        while t < until {
            var v = 0.03 * rng.gaussian()
            for k in steps { v += k.height * pulse(t - k.t, k.width) + k.bumpHeight * pulse(t - k.t - k.bump, 0.1) }
            for m in settling { v += 2.5 * pulse(t - m, 0.25) }
            s.append(time: t, Vector3(0.3, 0.2, 9.8 + v))
            t += 0.01
        }
        return s
    }

    /// A short walk right after standing up does not repeat itself over three strides (a turn
    /// changes its steps' signal), so it counts only because it follows the change of posture:
    /// steps at a regular rhythm whose waveforms all differ count in the bout that began with a
    /// change of posture; without one, or with one a pause of more than the bout gap before
    /// them, or with the rule off, they are no silent walk. Irregular jolts after standing up
    /// are still no walk: they are impulses with stillness between them, and the rule asks the
    /// device to move all through the strides (`motionShare`).
    @Test func aShortWalkAfterStandingUpCountsWithoutRepeatingItself() {
        func shortWalk(start: Double, settling: [Double] = []) -> SensorStream {
            unlikeSteps(start: start, settling: settling, seed: 11, until: 10)
        }
        let s = shortWalk(start: 2.2)
        var v = VerticalStepStream()
        for i in 0..<s.count { v.push(s.vector(i), time: s.times[i]) }
        #expect(v.periodicity(from: 2.1, to: 5.1, period: 1.1) < 0.8, "the steps' signal must not repeat itself")
        #expect(v.motionShare(from: 2.1, to: 5.1) >= 0.18, "\(v.motionShare(from: 2.1, to: 5.1))")
        let standing = silentSteps(s, postureChange: 1.5)
        #expect(abs(standing.times.count - 10) <= 1 && standing.silent == standing.times.count, "\(standing.times)")
        #expect(silentSteps(s).times.isEmpty)
        #expect(silentSteps(s, postureChange: -1).times.isEmpty, "a change of posture more than the bout gap before")
        // The bout that began with standing up goes on through movements that are no steps:
        // steps 2.4 s after the change count after such movements (out of the steps' rhythm),
        // not after stillness.
        let settled = silentSteps(shortWalk(start: 2.6, settling: [0.6, 1.0]), postureChange: 0.2)
        #expect(abs(settled.times.filter { $0 >= 2.5 }.count - 10) <= 1, "\(settled.times)")
        #expect(silentSteps(shortWalk(start: 2.6), postureChange: 0.2).times.isEmpty)
        var off = LiveStepCheck.Settings()
        off.silentWalk.countsAfterPostureChange = false
        #expect(silentSteps(s, settings: off, postureChange: 1.5).times.isEmpty)
        // Irregular jolts right after standing up (the jolt trains of `irregularJoltsAreNoSilentWalk`).
        var walks = 0
        for seed in UInt64(1)...50 {
            let j = joltTrain(seed: seed, duration: 20)
            if !silentSteps(j, postureChange: 0.5).times.isEmpty { walks += 1 }
            var jv = VerticalStepStream()
            for i in 0..<j.count { jv.push(j.vector(i), time: j.times[i]) }
            #expect(jv.motionShare(from: 1, to: 19) < 0.18, "seed \(seed): \(jv.motionShare(from: 1, to: 19))")
        }
        #expect(walks == 0, "\(walks) of 50 jolt trains after standing up counted as a walk")
    }

    /// `signal` with each sample turned by `degrees(t)` about the device's y axis (a thigh
    /// turning from seated to standing turns a pocket's phone so).
    func turned(_ signal: SensorStream, degrees: (Double) -> Double) -> SensorStream {
        var s = SensorStream(kind: .acceleration)
        for i in 0..<signal.count {
            let a = signal.vector(i), phi = degrees(signal.times[i]) * Double.pi / 180
            s.append(time: signal.times[i], Vector3(a.x * Math.cos(phi) + a.z * Math.sin(phi), a.y, -a.x * Math.sin(phi) + a.z * Math.cos(phi)))
        }
        return s
    }

    /// A walk right after standing up keeps its posture from its first stride: the device
    /// turned 80° (seated to standing) over the second before the first step, and every step
    /// counts after the change of posture, the first included (judged by a low-pass of the
    /// acceleration, still turning there, the first step was dropped). A device that goes on
    /// turning through the steps (30° a stride: being put away) keeps no posture, and none
    /// counts.
    @Test func aWalkRightAfterStandingUpKeepsItsPosture() {
        let steps = unlikeSteps(start: 1.8, seed: 11, until: 10)
        let stoodUp = turned(steps) { t in 80 * Swift.min(Swift.max((1.7 - t) / 1.0, 0), 1) }
        let counted = silentSteps(stoodUp, postureChange: 1.2).times
        #expect(counted.count == 10 && (counted.first ?? .infinity) < 1.9, "\(counted)")
        let turning = turned(steps) { t in 150 * Swift.min(Swift.max((t - 1.5) / 5.5, 0), 1) }
        #expect(silentSteps(turning, postureChange: 1.2).times.isEmpty)
        #expect(silentSteps(steps, postureChange: 1.2).times.count == 10)
    }

    /// A walk from a chair whose device turns too little for the posture tracker still starts
    /// from rest: steps whose waveforms all differ count in the bout that began when the device
    /// left rest, not when the rest ended more than the bout gap before them, not without rest,
    /// and not with the rule off. Irregular jolts after rest are still no walk.
    @Test func aWalkFromRestCountsWithoutRepeatingItself() {
        let s = unlikeSteps(start: 2.2, seed: 11, until: 10)
        let fromRest = silentSteps(s, restUntil: 1.5)
        #expect(abs(fromRest.times.count - 10) <= 1 && fromRest.silent == fromRest.times.count, "\(fromRest.times)")
        #expect(silentSteps(s).times.isEmpty, "no rest")
        #expect(silentSteps(s, restUntil: 0).times.isEmpty, "rest that ended 2.2 s before the first step")
        var off = LiveStepCheck.Settings()
        off.silentWalk.countsAfterRest = false
        #expect(silentSteps(s, settings: off, restUntil: 1.5).times.isEmpty)
        var walks = 0
        for seed in UInt64(1)...50 where !silentSteps(joltTrain(seed: seed, duration: 20), restUntil: 0.5).times.isEmpty {
            walks += 1
        }
        #expect(walks == 0, "\(walks) of 50 jolt trains after rest counted as a walk")
    }

    /// A walk from a chair can turn after four steps: four unlike steps count after standing up
    /// or rest (`peaksAfterMovementStart`), not without a movement start, and not when the
    /// setting asks for as many peaks as any run (`peaks`).
    @Test func fourStepsAfterAMovementStartCount() {
        let s = unlikeSteps(start: 2.2, seed: 11, until: 6, count: 4)
        #expect(silentSteps(s, postureChange: 1.5).times.count == 4)
        #expect(silentSteps(s, restUntil: 1.5).times.count == 4)
        #expect(silentSteps(s).times.isEmpty)
        var five = LiveStepCheck.Settings()
        five.silentWalk.peaksAfterMovementStart = five.silentWalk.peaks
        #expect(silentSteps(s, settings: five, postureChange: 1.5).times.isEmpty)
        #expect(silentSteps(s, settings: five, restUntil: 1.5).times.isEmpty)
    }

    /// A walk of four steps from rest or after standing up counts though rest, or another
    /// change of posture, comes right after it: the check examines a peak about 4 s after it,
    /// and judges it against the rest or change told before the peak, not the later one told
    /// by then.
    @Test func aShortWalkFollowedByRestStillFollowsTheRestBeforeIt() {
        let s = unlikeSteps(start: 2.2, seed: 11, until: 9, count: 4)
        // The four steps end by 4.1 s; the first is examined after 6 s.
        #expect(silentSteps(s, restUntil: 1.5, restFrom: 4.5).times.count == 4)
        #expect(silentSteps(s, postureChange: 1.5, laterPostureChange: 4.5).times.count == 4)
        // Rest only after the walk is no rest before it.
        #expect(silentSteps(s, restFrom: 4.5).times.isEmpty)
    }

    /// A walker who stopped a moment walks on: steps whose waveforms all differ (the first
    /// strides after a stop do not repeat each other) count when they begin within
    /// `resumesWithinSeconds` of the last step the pedometer heard; not when nothing was heard
    /// before them, nor when the pause was longer, nor with the rule off. Irregular jolts
    /// after a walk are still no walk (they do not move the device all through their strides).
    @Test func aWalkResumedAfterAStopCountsWithoutRepeatingItself() {
        let s = unlikeSteps(start: 4.5, seed: 23, until: 12)
        var v = VerticalStepStream()
        for i in 0..<s.count { v.push(s.vector(i), time: s.times[i]) }
        #expect(v.periodicity(from: 4.4, to: 7.4, period: 1.1) < 0.8, "the steps' signal must not repeat itself")
        // The pedometer heard a walk up to 1.8 s; the walker stood 2.7 s (longer than the bout gap).
        let heard = [0.15, 0.7, 1.25, 1.8]
        let resumed = silentSteps(s, pedometer: heard)
        let after = resumed.times.filter { $0 > 4 }
        #expect(abs(after.count - 10) <= 1 && resumed.silent == after.count, "\(resumed.times)")
        #expect(silentSteps(s).times.isEmpty, "nothing heard before")
        #expect(silentSteps(unlikeSteps(start: 8.5, seed: 23, until: 12), pedometer: heard).times.filter { $0 > 4 }.isEmpty, "a stop of 6.7 s")
        var off = LiveStepCheck.Settings()
        off.silentWalk.resumesWithinSeconds = 0
        #expect(silentSteps(s, settings: off, pedometer: heard).times.filter { $0 > 4 }.isEmpty)
        // Irregular jolts right after a walk (the jolt trains of `irregularJoltsAreNoSilentWalk`,
        // which begin at 1 s): the pedometer heard steps up to 0.6 s.
        var walks = 0
        for seed in UInt64(1)...50 {
            let j = joltTrain(seed: seed, duration: 20)
            if !silentSteps(j, pedometer: [0.05, 0.6]).times.filter({ $0 > 0.9 }).isEmpty { walks += 1 }
        }
        #expect(walks == 0, "\(walks) of 50 jolt trains after a walk counted as a walk")
    }

    /// A walk's first steps that the pedometer missed (it starts a walk only after five regular
    /// candidates) count when the pedometer's walk follows them: steps whose waveforms all
    /// differ, unheard from 2.5 to 5.25 s, then heard from 6.35 s on. Not without the heard walk,
    /// nor when it begins more than the bout gap after them, nor with the rule off; jolts
    /// before a heard walk are still no walk.
    @Test func aWalksStartThePedometerMissedCountsWhenItsWalkFollows() {
        let s = unlikeSteps(start: 2.5, seed: 23, until: 12)
        let heard = [6.35, 6.9, 7.45]
        let led = silentSteps(s, pedometer: heard)
        #expect(led.silent == 6 && led.times.filter { $0 < 5.5 }.count == 6, "\(led.times)")
        #expect(silentSteps(s).times.isEmpty, "nothing heard after")
        #expect(silentSteps(s, pedometer: [8.5, 9.05, 9.6]).silent == 0, "the heard walk 3.3 s after the run")
        var off = LiveStepCheck.Settings()
        off.silentWalk.countsBeforeHeardWalk = false
        #expect(silentSteps(s, settings: off, pedometer: heard).silent == 0)
        // Jolt trains (from 1 s on) with a heard walk from 17 s on.
        var walks = 0
        for seed in UInt64(1)...50 {
            let j = joltTrain(seed: seed, duration: 20)
            if silentSteps(j, pedometer: [17, 17.55, 18.1]).silent > 0 { walks += 1 }
        }
        #expect(walks == 0, "\(walks) of 50 jolt trains before a heard walk counted as a walk")
    }

    /// The periodicity measure: 1 for a signal that repeats at the period asked, low for one
    /// that does not, 0 before enough samples have come.
    @Test func periodicityOfTheVerticalAcceleration() {
        var v = VerticalStepStream()
        #expect(v.periodicity(from: 0, to: 5, period: 1) == 0)
        let walk = walkSignal(rateHz: 100, steps: 40, seed: 2)
        for i in 0..<walk.count { v.push(walk.vector(i), time: walk.times[i]) }
        #expect(v.periodicity(from: 8, to: 12, period: 1) > 0.95)
        #expect(v.periodicity(from: 8, to: 12, period: 0.75) < 0.5)
        #expect(v.periodicity(from: 0, to: 2, period: 1) < 0.5, "noise before the walk")
    }

    /// A walk only the vertical detector hears (the pedometer made deaf here, as a swinging arm
    /// at a low rate makes it) is counted and resumes the session: once its rhythm, posture
    /// and periodicity are shown, as a confirmed walk dated at its first step, paused when
    /// the body is still again; offline (steps from the whole-file detector) moving/still is
    /// the same. Without the rule: no step, no resume.
    @Test func aWalkOnlyTheVerticalDetectorHearsResumesTheSession() throws {
        let (acc, starts, stops) = sessionSignal([.still(4), .walk(steps: 40, hz: 2), .still(8)])
        var s = SessionSettings()
        s.tuning.pedometer.minimumHysteresis = 100
        let live = try changes(Recording(streams: [acc]), settings: s)
        #expect(abs(live.summary.steps - 40) <= 1, "\(live.summary.steps)")
        let c = live.stateChanges
        #expect(c.count == 2, "\(c)")
        guard c.count == 2 else { return }
        #expect(c[0].state == .moving && c[0].change.cause == .steps && abs(c[0].change.time - starts[0]) <= 0.6, "\(c[0])")
        #expect(c[1].state == .still && abs(c[1].change.time - stops[0]) <= 1.5, "\(c[1])")
        #expect(abs(live.summary.movingTimeSeconds - 20) <= 1.5, "\(live.summary.movingTimeSeconds)")
        var offline = s
        offline.stepMode = .offline
        let o = try changes(Recording(streams: [acc]), settings: offline)
        #expect(o.stateChanges.map(\.change) == c.map(\.change))
        s.tuning.stepCheck.countsSilentWalks = false
        let off = try changes(Recording(streams: [acc]), settings: s)
        #expect(off.summary.steps == 0 && off.stateChanges.isEmpty, "\(off.stateChanges)")
    }
}
