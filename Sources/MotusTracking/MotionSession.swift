import MotusCore
import MotusGeo
import MotusFusion
import MotusFeatures
import MotusClassifier

/// A tracking session you push samples into as they arrive; it reports events (moving/still
/// changes, steps, splits, goal) and a live snapshot (state, steps, cadence, distance, paces,
/// moving and elapsed time).
///
/// **Inputs**, any mix, any rate, each with its own timestamps (s, one clock, increasing per
/// stream): raw acceleration (gravity included) or user acceleration + gravity (CoreMotion
/// device motion), rotation rate, platform step counter, location. On equal timestamps push
/// the other streams before the acceleration, which drives the session (`run` does).
///
/// **Parts**, each usable and tested alone:
/// - `FrameBuilder`: gravity (given, or fused), fixed-rate frames at the model's rate, the gap
///   policy. Training builds its frames with the same code, so the model sees live what it
///   was trained on.
/// - `Pedometer` on every accepted acceleration sample, `StillnessDetector`, `PostureTracker`
///   and the model's `StreamingClassifier` on every frame.
/// - `MotionPolicy`: the moving/still decision from that evidence.
/// - `Odometer`: steps to distance, pace, splits, goal.
///
/// The shipped moving/still model (`MotionModel.shipped`) is the default classifier, as the
/// platform's activity classifier is for a platform app.
///
/// Deterministic; `update`s allocate nothing in steady state (storage is allocated at init).
/// A batch run (`run(_:)`) is a loop over the same calls, so live and offline results are identical.
public struct MotionSession: Sendable {
    /// What the app set: mode, height, splits, goal, tuning.
    public let settings: SessionSettings

    private var frames: FrameBuilder
    private var pedometer: Pedometer
    /// The live check on the pedometer's steps before they are counted (`LiveStepCheck`; with
    /// offline steps it runs uncounted, for its silent walks); nil when turned off, in a ride,
    /// or once a platform step counter reports.
    private var stepCheck: LiveStepCheck?
    private var classifier: StreamingClassifier?
    private var stillness: StillnessDetector
    private var posture: PostureTracker
    private var policy: MotionPolicy
    private var odometer: Odometer
    private var stepCounter = StepCounterIntegrator()
    private var platformSteps = false
    private var platformCadence = 0.0
    /// The last pushed steps' times (`pushStep`), newest last, for their cadence.
    private var pushedTimes = SIMD4<Double>(repeating: .nan)
    private var lastFix: LocationSample? = nil
    private var pendingRideMeters = 0.0
    private var events = EventQueue()
    private var tap: SessionTap? = nil
    /// Heading from the magnetometer: created at the first magnetic-field sample, then fed at
    /// every frame with the frame's acceleration and rotation rate and the latest field (the
    /// 9D `OrientationFilter`). Nil, and nothing spent on it, without a magnetometer.
    private var compass: OrientationFilter? = nil
    private var latestField = Vector3.zero
    private var compassTime = Double.nan

    // Clock.
    /// Time of the first sample (s, input clock); NaN before it.
    public private(set) var startTime: Seconds = .nan
    /// Time of the latest sample (s, input clock); NaN before the first.
    public private(set) var now: Seconds = .nan

    /// A session with the shipped moving/still model.
    public init(settings: SessionSettings = .default) {
        // The shipped model is checked by the tests; a failure here is a build defect.
        do { try self.init(settings: settings, model: MotionModel.shipped) } catch {
            preconditionFailure("the shipped model cannot be run: \(error)")
        }
    }

    /// A session; `model` gives moving/still probabilities (nil: pedometer and stillness only).
    public init(settings: SessionSettings, model: MotionModel?) throws(StreamingClassifier.Failure) {
        self.settings = settings
        let t = settings.tuning
        pedometer = Pedometer(settings: t.pedometer)
        classifier = try model.map { m throws(StreamingClassifier.Failure) in try StreamingClassifier(model: m) }
        // Offline (steps pushed from a whole-file detector) the check still runs, uncounted: a
        // walk the pedometer does not hear resumes the session as in live mode.
        let checks = t.stepCheck.enabled && settings.mode == .foot
        stepCheck = checks ? LiveStepCheck(settings: t.stepCheck) : nil
        let frameSettings = model?.pipeline.frameSettings ?? FrameBuilder.Settings(rateHz: t.frameRateHz)
        frames = FrameBuilder(settings: frameSettings)
        stillness = StillnessDetector(rateHz: frameSettings.rateHz, settings: t.stillness)
        posture = PostureTracker(rateHz: frameSettings.rateHz, settings: t.posture)
        var policySettings = t.policy
        if !settings.provisionalResume { policySettings.earlyResumeSteps = 0 }
        let features = model?.features ?? .standard
        policy = MotionPolicy(settings: policySettings, context: MotionPolicy.Context(
            mode: settings.mode, framePeriod: 1 / frameSettings.rateHz, stillnessWindowSeconds: t.stillness.windowSeconds,
            windowSeconds: Double(features.windowLength) / features.rateHz, hopSeconds: Double(features.hopLength) / features.rateHz,
            maximumStepInterval: t.pedometer.maximumStepInterval, stopTimeout: t.pedometer.stopTimeout))
        odometer = Odometer(settings: t.odometer, stride: settings.effectiveStrideModel, splitMeters: settings.splitMeters,
                            goalMeters: settings.goalMeters)
    }

    // MARK: Events

    /// Takes the oldest unread event, nil when there is none.
    public mutating func nextEvent() -> SessionEvent? { events.next() }
    /// Unread events.
    public var pendingEvents: Int { events.count }
    /// Events dropped because the queue was full (read events with `nextEvent()` often).
    public var droppedEvents: Int { events.dropped }

    // MARK: Inputs

    /// Any sample (dispatches to the typed calls).
    public mutating func push(_ s: SensorSample) {
        switch s {
        case .acceleration(let v): pushAcceleration(v.value, time: v.time)
        case .userAcceleration(let v): pushUserAcceleration(v.value, time: v.time)
        case .gravity(let v): pushGravity(v.value, time: v.time)
        case .rotationRate(let v): pushRotationRate(v.value, time: v.time)
        case .stepCounter(let c): pushStepCounter(c)
        case .location(let l): pushLocation(l)
        case .magneticField(let m): pushMagneticField(m.value, time: m.time)
        case .attitude, .pressure: touch(s.time)
        }
    }

    /// Magnetic field (µT, device frame). Gives the snapshot a compass heading.
    public mutating func pushMagneticField(_ m: Vector3, time: Seconds) {
        touch(time)
        guard m.isFinite, m != .zero else { return }
        latestField = m
        if compass == nil { compass = OrientationFilter() }
    }

    private mutating func touch(_ t: Double) {
        guard t.isFinite else { return }
        if startTime.isNaN { startTime = t; now = t; odometer.start(at: t) }
        if t > now { now = t }
    }

    /// Rotation rate (rad/s).
    public mutating func pushRotationRate(_ w: Vector3, time: Seconds) {
        guard w.isFinite else { return }
        frames.pushRotationRate(w, time: time)
        touch(time)
    }

    /// Gravity in the device frame, pointing up (m/s²), e.g. CoreMotion's (sign converted).
    public mutating func pushGravity(_ g: Vector3, time: Seconds) {
        guard g.isFinite else { return }
        frames.pushGravity(g, time: time)
        touch(time)
    }

    /// User acceleration (gravity removed, m/s²). Drives the session with the latest gravity
    /// until a raw acceleration sample is seen.
    public mutating func pushUserAcceleration(_ u: Vector3, time: Seconds) {
        if frames.pushUserAcceleration(u, time: time) { drive() } else { touch(time) }
    }

    /// CoreMotion-style device motion in one call (m/s², m/s², rad/s).
    public mutating func pushDeviceMotion(userAcceleration u: Vector3, gravity g: Vector3, rotationRate w: Vector3, time: Seconds) {
        pushRotationRate(w, time: time)
        pushGravity(g, time: time)
        pushUserAcceleration(u, time: time)
    }

    /// Raw acceleration, gravity included (m/s², Android sign: +9.81 up at rest).
    public mutating func pushAcceleration(_ a: Vector3, time: Seconds) {
        if frames.pushAcceleration(a, time: time) { drive() }
    }

    /// One accepted driver sample: the pedometer on it, then the frames it completed.
    private mutating func drive() {
        let t = frames.lastTime
        touch(t)
        if settings.mode == .foot {
            let k = pedometer.update(acceleration: frames.lastAcceleration, time: t)
            stepCheck?.push(frames.lastAcceleration, time: t)
            if k > 0 {
                stepsCredited(k, at: t)
            } else {
                // While still, the candidates before a change of posture (standing up) are its
                // motion, not steps: only those after it may resume.
                let change = posture.changedAt
                let n = pedometer.pendingSteps, need = policy.earlyResumeCandidates(postureChange: change)
                let walking = policy.state != .still ? n : posture.inTransit ? 0 : Self.candidates(n, after: change, of: pedometer)
                // Candidates matter while still (enough of them to resume early) or while a
                // provisional resume waits for confirmation.
                if policy.state == .still ? need > 0 && walking >= need : policy.isProvisional {
                    policy.stepCandidates(count: walking, earliest: need > 0 && walking >= need ? pedometer.pendingStepTime(n - need) : .nan,
                                          newest: n > 0 ? pedometer.pendingStepTime(n - 1) : .nan, motionStd: stillness.accelerationStd,
                                          postureChange: change, at: t, events: &events)
                }
            }
            if stepCheck != nil {
                // A candidate the pedometer has not credited yet, or one it has not found yet
                // (found within the longest step interval), may still become a step.
                let next = pedometer.pendingSteps > 0 ? pedometer.pendingStepTime(0) : t - pedometer.settings.maximumStepInterval
                countCheckedSteps(noStepBefore: next)
            }
        }
        let run = frames.latest   // a small copy, so the frames are read without the builder
        guard run.count > 0 else { return }
        if run.startsSegment {
            classifier?.restart(); stillness.reset(); posture.reset()
            tap?.startSegment(firstIndex: run.firstIndex, startTime: run.firstTime)
        }
        for j in 0..<run.count { frame(run.frame(j), time: run.time(j)) }
    }

    /// How many of the `n` pending candidates come at or after `time` (all of them when `time`
    /// is NaN).
    // Static, on the pedometer alone: as a method of the session, called per sample from a
    // mutating one, it had the whole session copied for every call.
    private static func candidates(_ n: Int, after time: Double, of pedometer: borrowing Pedometer) -> Int {
        guard time.isFinite else { return n }
        var m = 0
        while m < n && pedometer.pendingStepTime(n - 1 - m) >= time - MotionPolicy.tolerance { m += 1 }
        return m
    }

    private mutating func stepsCredited(_ k: Int, at t: Double) {
        let held = Swift.min(k, 128)
        // The walk's first step: the earliest credited one, or after a change of posture
        // (standing up) the earliest credited after it.
        let change = posture.changedAt
        var first = held - 1
        if change.isFinite {
            while first > 0 && pedometer.recentStep(first).time < change - MotionPolicy.tolerance { first -= 1 }
        }
        policy.stepsConfirmed(firstStep: pedometer.recentStep(first).time, postureChange: change, at: t, events: &events)
        if !platformSteps && settings.stepMode == .live {
            for j in Swift.stride(from: held - 1, through: 0, by: -1) {
                let s = pedometer.recentStep(j)
                if stepCheck == nil { addStep(s, cadence: pedometer.cadence); continue }
                // Checked before it is counted; moving/still follows it now.
                policy.stepCounted(at: s.time)
                if let passed = stepCheck?.push(s) { countStep(passed) }
            }
        } else if !platformSteps {
            // Offline steps are counted as they are pushed; the live ones still date the
            // pauses, and go through the check (uncounted) for its silent walks, so that
            // moving/still is the live session's in either mode.
            for j in Swift.stride(from: held - 1, through: 0, by: -1) {
                let s = pedometer.recentStep(j)
                policy.stepCounted(at: s.time)
                _ = stepCheck?.push(s)
            }
        }
        odometer.lastPeakToPeak = pedometer.recentStep(0).peakToPeak
    }

    private mutating func addStep(_ s: StepEvent, cadence: Double) {
        policy.stepCounted(at: s.time)
        odometer.addStep(s, cadence: cadence, movingTime: policy.movingTime(at: s.time), events: &events)
    }

    /// Counts (steps, distance, splits) a pedometer step that passed the live check.
    private mutating func countStep(_ s: StepEvent) {
        odometer.addStep(s, cadence: pedometer.cadence, movingTime: policy.movingTime(at: s.time), events: &events)
    }

    /// Counts the checked steps that are decided (`LiveStepCheck.next(noStepBefore:)`; offline,
    /// they are only drained), and takes a walk the pedometer did not hear as confirmed.
    private mutating func countCheckedSteps(noStepBefore horizon: Double) {
        let counts = settings.stepMode == .live
        while let s = stepCheck?.next(noStepBefore: horizon) { if counts { countStep(s) } }
        if let first = stepCheck?.takeSilentWalkStart() {
            policy.stepsConfirmed(firstStep: first, at: now, events: &events)
        }
    }

    /// Ends the live check: its last steps are decided and counted.
    private mutating func finishStepCheck() {
        guard stepCheck != nil else { return }
        stepCheck?.finish()
        countCheckedSteps(noStepBefore: .infinity)
    }

    /// One frame on the fixed grid.
    private mutating func frame(_ f: MotionFrame, time t: Double) {
        if compass != nil {
            let dt = compassTime.isNaN ? 0 : t - compassTime
            compassTime = t
            compass?.update(acceleration: f.acceleration, rotationRate: frames.hasRotationRate ? f.rotationRate : .zero,
                            magneticField: latestField, dt: dt)
        }
        let still = stillness.push(accelerationMagnitude: f.acceleration.norm,
                                   rotationRateMagnitude: frames.hasRotationRate ? f.rotationRate.norm : 0)
        posture.update(gravity: f.gravity, acceleration: f.acceleration, still: still, time: t)
        // A change of posture (standing up), or the device leaving rest, lets the walk that
        // follows count from the vertical detector's peaks without repeating itself
        // (`SilentWalk.countsAfterPostureChange`, `countsAfterRest`).
        if !posture.changedAt.isNaN { stepCheck?.postureChanged(at: posture.changedAt) }
        if still { stepCheck?.atRest(at: t) }
        var p = Double.nan
        // Mutated in place through the optional (no copy of its buffers).
        let window = classifier?.push(f) == true
        if window { p = classifier?.lastProbability ?? .nan }
        if tap != nil { record(f, window: window) }
        policy.frame(at: t, still: still, accelerationStd: stillness.accelerationStd, windowProbability: p,
                     walk: WalkEvidence(isWalking: pedometer.isWalking, lastStepTime: pedometer.lastStepTime, stepInterval: pedometer.stepInterval),
                     events: &events)
    }

    /// A platform step-counter reading (cumulative, may reset). Once one arrives, steps and
    /// step distance come from the platform counter; the accelerometer still decides moving/still.
    public mutating func pushStepCounter(_ s: StepCounterSample) {
        guard settings.mode == .foot else { touch(s.time); return }
        let before = stepCounter.lastTime
        let added = Int(stepCounter.update(s).rounded())
        touch(s.time)
        if !platformSteps && stepCounter.lastTime.isFinite {
            platformSteps = true
            // The platform counts from now on; the pedometer steps already checked are counted.
            finishStepCheck()
            stepCheck = nil
        }
        guard added > 0 else { return }
        let t0 = before.isFinite ? before : s.time
        let span = s.time - t0
        if span > 0 { platformCadence = 60 * Double(added) / span }
        if !frames.hasRawAcceleration && !frames.hasGravity { policy.stepCounterSteps(from: t0, at: s.time, events: &events) }
        for j in 0..<added {
            let t = t0 + span * Double(j + 1) / Double(added)
            addStep(StepEvent(time: t, peakToPeak: odometer.lastPeakToPeak), cadence: platformCadence)
        }
    }

    /// A step found by an outside detector (`OfflineStepDetector` over a whole file), counted
    /// (steps, distance, splits) when the settings' `stepMode` is `.offline` and no platform
    /// step counter reports; ignored otherwise. Moving/still does not depend on it: the live
    /// pedometer's steps decide resumes and date pauses in either mode. Push each step once, in
    /// time order, before the first sample after its time.
    /// Its cadence is that of the last four pushed steps (the intervals longer than the
    /// pedometer's longest step interval break it).
    public mutating func pushStep(_ s: StepEvent) {
        guard settings.mode == .foot, settings.stepMode == .offline, !platformSteps, s.time.isFinite else { return }
        pushedTimes = SIMD4(pushedTimes[1], pushedTimes[2], pushedTimes[3], s.time)
        // Counted and measured only: moving/still keeps following the live pedometer's steps.
        odometer.addStep(s, cadence: pushedCadence, movingTime: policy.movingTime(at: s.time), events: &events)
    }

    /// Steps per minute over the last four pushed steps that follow each other within the
    /// pedometer's longest step interval (fewer when the walk just began); 0 before two.
    var pushedCadence: Double {
        let t = pushedTimes, limit = settings.tuning.pedometer.maximumStepInterval
        var first = 3
        while first > 0 && t[first - 1].isFinite && t[first] - t[first - 1] <= limit { first -= 1 }
        return first < 3 && t[3] > t[first] ? 60 * Double(3 - first) / (t[3] - t[first]) : 0
    }

    /// A location fix. Used for GPS calibration of the stride (foot) or distance and speed (ride).
    public mutating func pushLocation(_ l: LocationSample) {
        touch(l.time)
        guard l.latitude.isFinite, l.longitude.isFinite else { return }
        if let acc = l.horizontalAccuracyMeters, !(acc <= odometer.settings.maximumLocationAccuracy) { return }
        var d = 0.0
        if let p = lastFix, l.time > p.time {
            d = Geodesic.haversine(p.latitude, p.longitude, l.latitude, l.longitude)
        }
        let speed = l.speedMetersPerSecond.flatMap { $0 >= 0 ? $0 : nil }
            ?? (lastFix.map { l.time > $0.time ? d / (l.time - $0.time) : Double.nan } ?? .nan)
        lastFix = l
        if speed.isFinite && policy.speed(speed, at: l.time, events: &events) && pendingRideMeters > 0 {
            // Distance ridden while the start was being confirmed is credited on resume.
            odometer.addDistance(pendingRideMeters, time: l.time, movingTime: policy.movingTime(at: l.time), events: &events)
            pendingRideMeters = 0
        }
        if settings.mode == .ride && policy.state == .still {
            pendingRideMeters = policy.isConfirmingRideStart ? pendingRideMeters + d : 0
        }
        guard policy.state == .moving, d > 0 else { return }
        switch settings.mode {
        case .ride: odometer.addDistance(d, time: l.time, movingTime: policy.movingTime(at: l.time), events: &events)
        case .foot: odometer.gpsDistanceWalked(d)
        }
    }

    /// Calibrates the stride from a known distance covered by the steps so far: the model is
    /// scaled so that the distance becomes `knownDistanceMeters`.
    public mutating func calibrate(knownDistanceMeters: Meters) {
        odometer.calibrate(knownDistanceMeters: knownDistanceMeters)
    }

    /// Ends the session (the workout stopped, or the recording ended): a provisional resume
    /// the pedometer has not confirmed is retracted (a pause with cause `unconfirmed`, dated at
    /// the resume). The batch run and the asynchronous adapter call it at the end of the input.
    public mutating func finish() {
        finishStepCheck()
        policy.finish(at: now, events: &events)
    }

    // MARK: Diagnostics

    /// From now on, keep every frame and every window's features (`recorded`); memory then
    /// grows with the input, so this is for diagnostics and tests, not for a live app.
    public mutating func recordFrames() {
        if tap == nil { tap = SessionTap(featureNames: classifier?.model.features.featureNames ?? []) }
    }

    /// The frames and feature rows kept since `recordFrames()` (nil when not asked).
    public var recorded: SessionTap? { tap }

    private mutating func record(_ f: MotionFrame, window: Bool) {
        tap?.add(f)
        if window, let c = classifier {
            let rate = frames.settings.rateHz
            tap?.addWindow(c.lastFeatures, startFrame: c.windowStartFrame, length: c.model.features.windowLength, rateHz: rate)
        }
    }

    // MARK: Snapshot

    /// Moving or still now.
    public var state: MotionState { policy.state }
    /// Steps counted so far.
    public var steps: Int { odometer.steps }
    /// Distance covered so far (m).
    public var distanceMeters: Meters { odometer.distanceMeters }

    /// Moving time up to `t` (s).
    public func movingTime(at t: Seconds) -> Seconds { policy.movingTime(at: t) }

    /// Pace over the last `currentPaceSeconds` of distance updates (s/km), NaN when undefined.
    public var currentPace: SecondsPerKilometer { policy.state == .moving ? odometer.currentPace(now: now) : .nan }

    /// The live figures now.
    public var snapshot: SessionSnapshot {
        let t = now.isNaN ? 0 : now
        let mt = policy.movingTime(at: t)
        var pace = currentPace
        var speed = pace.isFinite ? 1000 / pace : 0
        if settings.mode == .ride {
            let v = policy.lastSpeed
            speed = policy.state == .moving && t - policy.lastSpeedTime <= policy.settings.speedValiditySeconds && v.isFinite ? v : 0
            pace = speed > 0 ? 1000 / speed : .nan
        }
        let distance = odometer.distanceMeters
        let avg = distance > 0 ? mt / distance * 1000 : .nan
        var remaining = Double.nan
        if let g = settings.goalMeters {
            if distance >= g { remaining = 0 } else {
                let p = pace.isFinite ? pace : avg
                if p.isFinite { remaining = (g - distance) * p / 1000 }
            }
        }
        let cadence: Double
        if settings.mode == .ride || policy.state == .still { cadence = 0 } else if platformSteps {
            cadence = t - policy.lastStepTime < 5 ? platformCadence : 0
        } else if settings.stepMode == .offline {
            cadence = t - pushedTimes[3] < 5 ? pushedCadence : 0
        } else { cadence = pedometer.cadence }
        return SessionSnapshot(time: t, state: policy.state, steps: odometer.steps, cadenceStepsPerMinute: cadence, distanceMeters: distance,
                               currentPaceSecondsPerKm: pace, averagePaceSecondsPerKm: avg, speedMetersPerSecond: speed,
                               movingTimeSeconds: mt, elapsedTimeSeconds: startTime.isNaN ? 0 : t - startTime,
                               remainingTimeSeconds: remaining, movingProbability: policy.smoothedProbability,
                               stepLengthMeters: odometer.stepLength(peakToPeak: odometer.lastPeakToPeak,
                                                                     cadence: pedometer.isWalking ? pedometer.cadence : 110),
                               headingDegrees: compass?.heading.map { $0 * Math.degreesPerRadian })
    }

    /// True once the stride has been calibrated from GPS.
    public var isGPSCalibrated: Bool { odometer.isGPSCalibrated }
    /// The current stride scale (1 = uncalibrated model).
    public var strideCalibrationFactor: Double { odometer.strideScale }
}
