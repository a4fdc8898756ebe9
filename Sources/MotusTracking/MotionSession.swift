import MotusCore
import MotusGeo
import MotusFusion
import MotusFeatures
import MotusClassifier

/// Settings of a `MotionSession`. Units: s, m, m/s, m/s², rad/s, Hz.
public struct SessionSettings: Sendable, Hashable, Codable {
    public var mode: SessionMode = .foot
    /// The person's height (m); 1.70 when unknown. Gives the default stride model.
    public var heightMeters: Double? = nil
    /// Step-length model; nil = Weinberg with `k` from the height (`StrideModel.weinbergK`).
    public var strideModel: StrideModel? = nil
    /// Distance of each split (m); 0 turns splits off.
    public var splitMeters: Double = 1000
    /// Goal distance (m), for the "goal reached" event and the remaining time.
    public var goalMeters: Double? = nil

    /// Frame rate of the fused stream when there is no model (Hz); with a model, its rate.
    public var frameRateHz: Double = 50
    /// Input gaps up to this long (s) are bridged by interpolation; longer ones restart the
    /// classifier's and the stillness detector's windows.
    public var maximumInterpolatedGap: Double = 0.5

    // Moving/still.
    public var stillness = StillnessDetector.Settings()
    /// Stillness must last this long (s) before a pause is decided.
    public var minimumStillSeconds: Double = 0.3
    /// A pause is dated when the motion ended: the stillness window's start, or the last step
    /// if that came later.
    /// Smoothing of the classifier's window probabilities (weight of the newest window).
    public var probabilitySmoothing: Double = 0.6
    /// Smoothed p(moving) at or above which the classifier says moving.
    public var enterProbability: Double = 0.8
    /// Smoothed p(moving) at or below which the classifier says still.
    public var exitProbability: Double = 0.2
    /// Windows in a row above `enterProbability` to resume without steps (foot mode) — long,
    /// so that fidgeting does not resume; the pedometer resumes walks much sooner.
    public var classifierResumeWindows: Int = 4
    /// Windows in a row below `exitProbability` to pause without stillness (e.g. standing
    /// while handling the phone).
    public var classifierPauseWindows: Int = 2
    /// On foot, a classifier pause also needs the stillness window's |a| std at most this (m/s²).
    public var classifierPauseMaximumStd: Double = 0.4
    /// While the classifier's smoothed p(moving) is at least this, a stillness detection whose
    /// acceleration std is above `guardedStillStd` does not pause (a phone held steady in the
    /// hand of someone running).
    public var guardProbability: Double = 0.9
    /// Stillness below this std (m/s²) pauses even against the classifier.
    public var guardedStillStd: Double = 0.08
    /// A resume from steps is dated at the motion onset (end of stillness) when that came at
    /// most this long (s) before the first credited step, else at the first step.
    public var resumeOnsetLookback: Double = 0.6
    /// Step candidates in a row (regular, while the stillness detector sees motion) that resume
    /// provisionally, before the pedometer's `confirmationSteps` confirm a walk; 0 turns the
    /// early resume off. The steps themselves are counted only on confirmation.
    public var earlyResumeSteps: Int = 2
    /// Longest interval (s) between those candidates (60 steps/min): the first steps of a
    /// walk come faster than the shifts of weight of someone standing.
    public var earlyResumeMaximumInterval: Double = 1.0
    /// Smallest standard deviation of |a| (m/s²) over the stillness window when resuming
    /// early: the body moves like a walk's steps, not like someone shifting their weight
    /// (on MotionSense `sit`/`std`, 1.0 makes a fifth as many retracted resumes as 0.2, and
    /// the IPOL lower-back walks still resume by their second step).
    public var earlyResumeMinimumStd: Double = 1.0
    /// A provisional resume the pedometer has not confirmed this long (s) after it was
    /// decided is retracted (a pause with cause `unconfirmed`, dated at the resume).
    public var earlyResumeTimeout: Double = 4.0
    /// While the pedometer walks, no pause until this many step intervals (the mean or the
    /// latest, whichever is longer) after the last step.
    public var stepDueFactor: Double = 2.0

    public var pedometer = Pedometer.Settings()

    // Pace and calibration.
    /// Window of the current pace (s of movement).
    public var currentPaceSeconds: Double = 10
    /// Location fixes less accurate than this (m) are not used.
    public var maximumLocationAccuracy: Double = 30
    /// GPS distance (m) needed before the stride model is calibrated from GPS.
    public var minimumGPSCalibrationMeters: Double = 50

    // Ride mode.
    /// Speed (m/s) at or above which a ride is moving, and at or below which it is stopped.
    public var rideStartSpeed: Double = 2.0
    public var rideStopSpeed: Double = 0.8
    /// How long (s) the speed must stay beyond a threshold.
    public var rideSpeedSeconds: Double = 2.0
    /// In ride mode the classifier resumes after this many windows (no step evidence).
    public var rideClassifierWindows: Int = 2

    public init() {}
    public static let `default` = SessionSettings()

    /// The height used when none is given (m).
    public static let defaultHeightMeters = 1.70
    /// The stride model these settings give.
    public var effectiveStrideModel: StrideModel {
        strideModel ?? .weinberg(k: StrideModel.weinbergK(heightMeters: heightMeters ?? Self.defaultHeightMeters))
    }
}

/// A tracking session you push samples into as they arrive; it reports events (moving/still
/// changes, steps, splits, goal) and a live snapshot (state, steps, cadence, distance, paces,
/// moving and elapsed time).
///
/// **Inputs**, any mix, any rate, each with its own timestamps (s, one clock, increasing per
/// stream): raw acceleration (gravity included) or user acceleration + gravity (CoreMotion
/// device motion), rotation rate, platform step counter, location. On equal timestamps push
/// the other streams before the acceleration, which drives the session (`run` does).
///
/// **Pipeline per acceleration sample**: gravity (the gravity stream when given, else
/// `AttitudeFilter` with the latest rotation rate, else `LowPassGravity`), the pedometer on the
/// raw sample, then linear interpolation onto a fixed frame grid (the model's rate) feeding
/// the stillness detector and the classifier.
///
/// **Moving/still (foot)**: resume provisionally on the first `earlyResumeSteps` (2) regular
/// step candidates while the body moves (cause `firstSteps`), dated at the first of them (or
/// the motion onset just before it); it stands once the pedometer confirms a walk or the
/// classifier is confident, and is retracted otherwise (a pause with cause `unconfirmed`,
/// dated at the resume: no moving time, and the candidates were never counted as steps).
/// Without the early resume: when the pedometer confirms regular steps, dated back to the
/// first credited step; or after `classifierResumeWindows` confident classifier windows. Pause when the stillness detector
/// has seen `minimumStillSeconds` of stillness (unless the classifier is confident the body
/// moves and the stillness is shallow), or after `classifierPauseWindows` confident still
/// windows. A missing step never pauses: a phone swinging in a hand loses steps but is not still.
/// **Ride**: no steps; speed from the location stream when present, the classifier and the
/// stillness detector otherwise.
///
/// Deterministic; `update`s allocate nothing in steady state (storage is allocated at init;
/// an MLP model allocates once per classifier window). A batch run (`run(_:)`) is a loop over
/// the same calls, so live and offline results are identical.
public struct MotionSession: Sendable {
    public let settings: SessionSettings

    // Components.
    @usableFromInline var pedometer: Pedometer
    @usableFromInline var classifier: StreamingClassifier?
    @usableFromInline var stillness: StillnessDetector
    @usableFromInline var attitude: AttitudeFilter
    @usableFromInline var lowPass: LowPassGravity
    @usableFromInline var stepCounter = StepCounterIntegrator()
    @usableFromInline let frameRate: Double
    @usableFromInline let framePeriod: Double
    @usableFromInline var stride: StrideModel
    @usableFromInline var strideScale = 1.0

    // Latest values of the secondary streams.
    @usableFromInline var gyroLatest = Vector3.zero
    @usableFromInline var gyroSeen = false
    @usableFromInline var gravityLatest = Vector3.zero
    @usableFromInline var gravityTime = -Double.infinity
    @usableFromInline var rawAccelerationSeen = false

    // Driver samples and frame grid.
    @usableFromInline var prevTime = -Double.infinity
    @usableFromInline var prevAcc = Vector3.zero, prevGrav = Vector3.zero, prevGyro = Vector3.zero
    @usableFromInline var nextFrame = 0.0
    @usableFromInline var haveDriver = false
    @usableFromInline var fusionPrevTime = -Double.infinity

    // Clock.
    public private(set) var startTime = Double.nan
    public private(set) var now = Double.nan

    // State.
    public private(set) var state = MotionState.still
    @usableFromInline var movingSince = 0.0
    @usableFromInline var movingAccumulated = 0.0
    @usableFromInline var lastPauseTime = -Double.infinity
    @usableFromInline var stillSince = Double.nan          // start of the current still run (frame time)
    @usableFromInline var stillWindowStart = Double.nan    // start of the first still window of the run
    @usableFromInline var motionOnset = -Double.infinity   // last end of stillness
    @usableFromInline var provisionalSince = Double.nan    // decision time of an unconfirmed early resume
    @usableFromInline var retractedUpTo = -Double.infinity // newest candidate of the last retracted early resume
    @usableFromInline var smoothedP = Double.nan
    @usableFromInline var windowsAbove = 0, windowsBelow = 0
    @usableFromInline var speedAboveSince = Double.nan, speedBelowSince = Double.nan
    @usableFromInline var lastSpeed = Double.nan
    @usableFromInline var lastSpeedTime = -Double.infinity

    // Steps and distance.
    public private(set) var steps = 0
    @usableFromInline var platformSteps = false
    @usableFromInline var lastP2P = 9.5
    @usableFromInline var lastStepTime = -Double.infinity
    @usableFromInline var lastStepInterval = 0.0
    @usableFromInline var platformCadence = 0.0
    public private(set) var distanceMeters = 0.0
    @usableFromInline var lastFix: LocationSample? = nil
    @usableFromInline var gpsMeters = 0.0, stepMetersSinceGPS = 0.0
    @usableFromInline var gpsCalibrated = false
    @usableFromInline var pendingRideMeters = 0.0

    // Pace ring: (time, moving time, distance) at each distance update.
    @usableFromInline var paceTime: [Double]
    @usableFromInline var paceDist: [Double]
    @usableFromInline var paceHead = 0, paceCount = 0
    static let paceCapacity = 512

    // Splits and goal.
    @usableFromInline var nextSplit: Double
    @usableFromInline var splitIndex = 0
    @usableFromInline var splitStartMoving = 0.0, splitStartTime = Double.nan, splitStartSteps = 0
    @usableFromInline var goalDone = false

    // Event queue (fixed ring).
    @usableFromInline var queue: [SessionEvent]
    @usableFromInline var queueHead = 0, queueCount = 0
    /// Events dropped because the queue was full (read events with `nextEvent()` often).
    public private(set) var droppedEvents = 0
    static let queueCapacity = 1024

    /// A session; `model` gives moving/still probabilities (nil: pedometer and stillness only).
    public init(settings: SessionSettings = .default, model: MotionModel? = nil) throws(StreamingClassifier.Failure) {
        self.settings = settings
        pedometer = Pedometer(settings: settings.pedometer)
        classifier = try model.map { m throws(StreamingClassifier.Failure) in try StreamingClassifier(model: m) }
        frameRate = model?.features.rateHz ?? settings.frameRateHz
        framePeriod = 1 / frameRate
        stillness = StillnessDetector(rateHz: frameRate, settings: settings.stillness)
        attitude = AttitudeFilter(settings: model?.fusion ?? .default)
        lowPass = LowPassGravity()
        stride = settings.effectiveStrideModel
        paceTime = [Double](repeating: 0, count: Self.paceCapacity)
        paceDist = [Double](repeating: 0, count: Self.paceCapacity)
        nextSplit = settings.splitMeters > 0 ? settings.splitMeters : .infinity
        queue = [SessionEvent](repeating: .goalReached(time: 0, distanceMeters: 0, movingTimeSeconds: 0), count: Self.queueCapacity)
    }

    // MARK: Events

    /// Takes the oldest unread event, nil when there is none.
    
    public mutating func nextEvent() -> SessionEvent? {
        guard queueCount > 0 else { return nil }
        let e = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count { queueHead = 0 }
        queueCount -= 1
        return e
    }

    /// Unread events.
    public var pendingEvents: Int { queueCount }

    @usableFromInline
    mutating func emit(_ e: SessionEvent) {
        if queueCount == queue.count {   // full: drop the oldest
            queueHead += 1
            if queueHead == queue.count { queueHead = 0 }
            queueCount -= 1
            droppedEvents += 1
        }
        var i = queueHead + queueCount
        if i >= queue.count { i -= queue.count }
        queue[i] = e
        queueCount += 1
    }

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
        case .magneticField, .attitude, .pressure: touch(s.time)
        }
    }

    mutating func touch(_ t: Double) {
        guard t.isFinite else { return }
        if startTime.isNaN { startTime = t; now = t; splitStartTime = t }
        if t > now { now = t }
    }

    /// Rotation rate (rad/s).
    
    public mutating func pushRotationRate(_ w: Vector3, time: Double) {
        guard w.isFinite else { return }
        gyroLatest = w; gyroSeen = true
        touch(time)
    }

    /// Gravity in the device frame, pointing up (m/s²), e.g. CoreMotion's (sign converted).
    
    public mutating func pushGravity(_ g: Vector3, time: Double) {
        guard g.isFinite else { return }
        gravityLatest = g; gravityTime = time
        touch(time)
    }

    /// User acceleration (gravity removed, m/s²). Drives the session with the latest gravity
    /// until a raw acceleration sample is seen.
    
    public mutating func pushUserAcceleration(_ u: Vector3, time: Double) {
        guard !rawAccelerationSeen, gravityTime.isFinite else { touch(time); return }
        drive(u + gravityLatest, gravity: gravityLatest, time: time)
    }

    /// CoreMotion-style device motion in one call (m/s², m/s², rad/s).
    
    public mutating func pushDeviceMotion(userAcceleration u: Vector3, gravity g: Vector3, rotationRate w: Vector3, time: Double) {
        pushRotationRate(w, time: time)
        pushGravity(g, time: time)
        pushUserAcceleration(u, time: time)
    }

    /// Raw acceleration, gravity included (m/s², Android sign: +9.81 up at rest).
    
    public mutating func pushAcceleration(_ a: Vector3, time: Double) {
        rawAccelerationSeen = true
        let haveGravity = time - gravityTime <= 0.5
        drive(a, gravity: haveGravity ? gravityLatest : .zero, time: time)
    }

    
    mutating func drive(_ a: Vector3, gravity gIn: Vector3, time t: Double) {
        guard a.isFinite, t.isFinite, t > prevTime else { return }
        touch(t)
        // Gravity: given, or fused.
        var g = gIn
        if g == .zero {
            let dt = fusionPrevTime.isFinite ? t - fusionPrevTime : 0
            if gyroSeen {
                attitude.update(acceleration: a, rotationRate: gyroLatest, dt: dt)
                g = attitude.gravity
            } else {
                lowPass.update(acceleration: a, dt: dt)
                g = lowPass.gravity
            }
        }
        fusionPrevTime = t
        // Pedometer on the raw sample.
        if settings.mode == .foot {
            let k = pedometer.update(acceleration: a, time: t)
            if k > 0 { pedometerCredited(k, at: t) } else if state == .still {
                if settings.earlyResumeSteps > 0 && pedometer.pendingSteps >= settings.earlyResumeSteps { earlyResume(at: t) }
            } else if !provisionalSince.isNaN {
                // Retracted when the pedometer gives up its candidates (no regular step for
                // `maximumStepInterval`), or does not confirm in time.
                let n = pedometer.pendingSteps
                if n == 0 || t - provisionalSince > settings.earlyResumeTimeout {
                    retractedUpTo = n > 0 ? pedometer.pendTime[n - 1] : t
                    retractProvisionalResume(decidedAt: t)
                }
            }
        }
        // Frames on the fixed grid.
        let w = gyroLatest
        if !haveDriver || t - prevTime > settings.maximumInterpolatedGap {
            if haveDriver { classifier?.restart(); stillness.reset() }
            haveDriver = true
            frame(a, g, w, time: t)
            nextFrame = t + framePeriod
        } else {
            let span = t - prevTime
            while nextFrame <= t {
                let f = (nextFrame - prevTime) / span
                frame(prevAcc + (a - prevAcc) * f, prevGrav + (g - prevGrav) * f, prevGyro + (w - prevGyro) * f, time: nextFrame)
                nextFrame += framePeriod
            }
        }
        prevTime = t; prevAcc = a; prevGrav = g; prevGyro = w
        checkSpeedTimeout(t)
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
        }
        guard added > 0 else { return }
        let t0 = before.isFinite ? before : s.time
        let span = s.time - t0
        if span > 0 { platformCadence = 60 * Double(added) / span }
        if !rawAccelerationSeen && !gravityTime.isFinite && state == .still {
            resume(at: t0, decidedAt: s.time, cause: .stepCounter)
        }
        for j in 0..<added {
            let t = t0 + span * Double(j + 1) / Double(added)
            addStep(StepEvent(time: t, peakToPeak: lastP2P), cadence: platformCadence)
        }
    }

    /// A location fix. Used for GPS calibration of the stride (foot) or distance and speed (ride).
    public mutating func pushLocation(_ l: LocationSample) {
        touch(l.time)
        guard l.latitude.isFinite, l.longitude.isFinite else { return }
        if let acc = l.horizontalAccuracyMeters, !(acc <= settings.maximumLocationAccuracy) { return }
        var d = 0.0
        if let p = lastFix, l.time > p.time {
            d = Geodesic.haversine(p.latitude, p.longitude, l.latitude, l.longitude)
        }
        let speed = l.speedMetersPerSecond.flatMap { $0 >= 0 ? $0 : nil }
            ?? (lastFix.map { l.time > $0.time ? d / (l.time - $0.time) : Double.nan } ?? .nan)
        lastFix = l
        if speed.isFinite { speedSample(speed, time: l.time) }
        if settings.mode == .ride && state == .still {
            // Distance ridden while the start is being confirmed is credited on resume.
            pendingRideMeters = speedAboveSince.isNaN ? 0 : pendingRideMeters + d
        }
        guard state == .moving, d > 0 else { return }
        switch settings.mode {
        case .ride:
            addDistance(d, time: l.time)
        case .foot:
            gpsMeters += d
            if gpsMeters >= settings.minimumGPSCalibrationMeters && stepMetersSinceGPS > 0 {
                // Steps measured over the same stretch: scale the stride to match GPS.
                let s = gpsMeters / stepMetersSinceGPS
                if s > 0.5 && s < 2 { strideScale *= s; gpsCalibrated = true }
                gpsMeters = 0; stepMetersSinceGPS = 0
            }
        }
    }

    /// Calibrates the stride from a known distance covered by the steps so far: the model is
    /// scaled so that the distance becomes `knownDistanceMeters`.
    public mutating func calibrate(knownDistanceMeters: Double) {
        guard distanceMeters > 0, knownDistanceMeters > 0 else { return }
        strideScale *= knownDistanceMeters / distanceMeters
        distanceMeters = knownDistanceMeters
    }

    /// Ends the session (the workout stopped, or the recording ended): a provisional resume
    /// the pedometer has not confirmed is retracted (a pause with cause `unconfirmed`, dated at
    /// the resume). The batch run and the asynchronous adapter call it at the end of the input.
    public mutating func finish() {
        retractProvisionalResume(decidedAt: now)
    }

    // MARK: Decisions

    /// When a walk whose first step is at `first` began: the motion onset (end of stillness)
    /// when it came at most `resumeOnsetLookback` before that step, else the step.
    @usableFromInline
    func walkStart(firstStep first: Double) -> Double {
        motionOnset.isFinite && motionOnset <= first && first - motionOnset <= settings.resumeOnsetLookback ? motionOnset : first
    }

    /// Takes back an unconfirmed provisional resume: a pause with cause `unconfirmed`, dated at
    /// the resume (`pause` dates and labels any pause of a provisional resume so).
    @usableFromInline
    mutating func retractProvisionalResume(decidedAt t: Double) {
        if state == .moving && !provisionalSince.isNaN { pause(at: movingSince, decidedAt: t, cause: .unconfirmed) }
    }

    /// A provisional resume on the first regular steps while the body moves (see
    /// `SessionSettings.earlyResumeSteps`): the newest `earlyResumeSteps` pending candidates
    /// close enough together, newer than a retracted resume's, while the stillness detector
    /// sees motion at least `earlyResumeMinimumStd` strong.
    @usableFromInline
    mutating func earlyResume(at t: Double) {
        let n = pedometer.pendingSteps
        let need = settings.earlyResumeSteps
        // Motion now, and candidates newer than those of a retracted early resume.
        guard stillSince.isNaN, pedometer.pendTime[n - need] > retractedUpTo else { return }
        guard pedometer.pendTime[n - 1] - pedometer.pendTime[n - need] <= Double(need - 1) * settings.earlyResumeMaximumInterval else { return }
        guard stillness.accelerationStd >= settings.earlyResumeMinimumStd else { return }
        resume(at: walkStart(firstStep: pedometer.pendTime[n - need]), decidedAt: t, cause: .firstSteps)
        if state == .moving { provisionalSince = t }
    }

    @usableFromInline
    mutating func pedometerCredited(_ k: Int, at t: Double) {
        provisionalSince = .nan   // confirmed (or already moving)
        if state == .still {
            resume(at: walkStart(firstStep: pedometer.recentStep(Swift.min(k, 128) - 1).time), decidedAt: t, cause: .steps)
        }
        if !platformSteps {
            for j in Swift.stride(from: Swift.min(k, 128) - 1, through: 0, by: -1) {
                addStep(pedometer.recentStep(j), cadence: pedometer.cadence)
            }
        }
        lastP2P = pedometer.recentStep(0).peakToPeak
    }

    @usableFromInline
    mutating func addStep(_ s: StepEvent, cadence: Double) {
        steps += 1
        let dt = s.time - lastStepTime
        lastStepInterval = dt <= settings.pedometer.maximumStepInterval ? dt : 0
        lastStepTime = s.time
        emit(.step(s))
        let len = stride.stepLength(peakToPeak: s.peakToPeak, cadence: cadence) * strideScale
        stepMetersSinceGPS += len
        addDistance(len, time: s.time)
    }

    @usableFromInline
    mutating func addDistance(_ d: Double, time t: Double) {
        distanceMeters += d
        paceTime[paceHead] = t; paceDist[paceHead] = distanceMeters
        paceHead += 1
        if paceHead == paceTime.count { paceHead = 0 }
        if paceCount < paceTime.count { paceCount += 1 }
        while distanceMeters >= nextSplit {
            splitIndex += 1
            let mt = movingTime(at: t)
            let dur = mt - splitStartMoving
            emit(.split(Split(index: splitIndex, distanceMeters: nextSplit, time: t, movingTimeSeconds: dur,
                              elapsedTimeSeconds: t - splitStartTime, paceSecondsPerKm: dur / settings.splitMeters * 1000,
                              steps: steps - splitStartSteps)))
            splitStartMoving = mt; splitStartTime = t; splitStartSteps = steps
            nextSplit += settings.splitMeters
        }
        if let g = settings.goalMeters, !goalDone, distanceMeters >= g {
            goalDone = true
            emit(.goalReached(time: t, distanceMeters: distanceMeters, movingTimeSeconds: movingTime(at: t)))
        }
    }

    @usableFromInline
    mutating func resume(at t0: Double, decidedAt t: Double, cause: StateChangeCause) {
        guard state == .still else { return }
        let when = Swift.min(Swift.max(t0, lastPauseTime), t)
        state = .moving
        movingSince = when
        windowsBelow = 0
        emit(.resumed(StateChange(time: when, decidedAt: t, cause: cause)))
    }

    @usableFromInline
    mutating func pause(at t0: Double, decidedAt t: Double, cause: StateChangeCause) {
        guard state == .moving else { return }
        // A pause while a provisional resume is unconfirmed retracts it: no moving time.
        let when = provisionalSince.isNaN ? Swift.min(Swift.max(t0, movingSince), t) : movingSince
        let cause = provisionalSince.isNaN ? cause : .unconfirmed
        provisionalSince = .nan
        state = .still
        movingAccumulated += when - movingSince
        lastPauseTime = when
        windowsAbove = 0
        emit(.paused(StateChange(time: when, decidedAt: t, cause: cause)))
    }

    /// One frame on the fixed grid.
    @usableFromInline
    mutating func frame(_ a: Vector3, _ g: Vector3, _ w: Vector3, time t: Double) {
        let still = stillness.push(accelerationMagnitude: a.norm, rotationRateMagnitude: gyroSeen ? w.norm : 0)
        if still {
            if stillSince.isNaN { stillSince = t; stillWindowStart = t - settings.stillness.windowSeconds }
        } else if !stillSince.isNaN {
            motionOnset = t - framePeriod
            stillSince = .nan
        }
        // Mutated in place through the optional (no copy of its buffers).
        if classifier?.push(MotionFrame(acceleration: a, gravity: g, rotationRate: w)) == true {
            classifierWindow(classifier?.lastProbability ?? .nan, time: t)
        }
        if state == .moving, !stillSince.isNaN, t - stillSince >= settings.minimumStillSeconds {
            // Steps vouch for motion: the stillness must begin after the last step, and not
            // while the pedometer's next step is still due (slow walkers are quiet between steps).
            let foot = settings.mode == .foot
            let stepDue = foot && pedometer.isWalking && t - pedometer.lastStepTime < settings.stepDueFactor * Swift.max(pedometer.stepInterval, lastStepInterval)
            let stillAfterStep = !foot || stillSince > lastStepTime
            let guarded = stepDue || !stillAfterStep
                || (smoothedP >= settings.guardProbability && stillness.accelerationStd > settings.guardedStillStd)
            if !guarded {
                let end = Swift.max(stillWindowStart, settings.mode == .foot ? lastStepTime : -Double.infinity)
                pause(at: end, decidedAt: t, cause: .stillness)
            }
        }
    }

    @usableFromInline
    mutating func classifierWindow(_ p: Double, time t: Double) {
        guard p.isFinite else { return }
        let a = settings.probabilitySmoothing
        smoothedP = smoothedP.isNaN ? p : smoothedP + a * (p - smoothedP)
        if smoothedP >= settings.enterProbability { windowsAbove += 1 } else { windowsAbove = 0 }
        if smoothedP <= settings.exitProbability { windowsBelow += 1 } else { windowsBelow = 0 }
        let speedKnown = t - lastSpeedTime <= 5
        // The classifier's own resume evidence confirms a provisional resume.
        if !provisionalSince.isNaN && windowsAbove >= settings.classifierResumeWindows { provisionalSince = .nan }
        if state == .still && stillSince.isNaN && !(settings.mode == .ride && speedKnown) {
            let need = settings.mode == .ride ? settings.rideClassifierWindows : settings.classifierResumeWindows
            if windowsAbove >= need {
                let onset = motionOnset.isFinite ? motionOnset : t
                resume(at: Swift.max(onset, t - Double(need + 1) * 1.28), decidedAt: t, cause: .classifier)
            }
        }
        if state == .moving && windowsBelow >= settings.classifierPauseWindows && !(settings.mode == .ride && speedKnown) {
            let recentStep = settings.mode == .foot && t - lastStepTime < settings.pedometer.stopTimeout
            // On foot the body must also be fairly quiet: a slow, shuffling walk the pedometer
            // cannot confirm still shakes the phone more than standing does.
            let quiet = settings.mode == .ride || stillness.accelerationStd <= settings.classifierPauseMaximumStd
            if !recentStep && quiet {
                let end = settings.mode == .foot && lastStepTime.isFinite ? Swift.max(lastStepTime, t - 2.56) : t - 2.56
                pause(at: end, decidedAt: t, cause: .classifier)
            }
        }
    }

    @usableFromInline
    mutating func speedSample(_ v: Double, time t: Double) {
        lastSpeed = v; lastSpeedTime = t
        guard settings.mode == .ride else { return }
        if v >= settings.rideStartSpeed {
            if speedAboveSince.isNaN { speedAboveSince = t }
            speedBelowSince = .nan
            if state == .still && t - speedAboveSince >= settings.rideSpeedSeconds {
                resume(at: speedAboveSince, decidedAt: t, cause: .speed)
                if pendingRideMeters > 0 { addDistance(pendingRideMeters, time: t); pendingRideMeters = 0 }
            }
        } else if v <= settings.rideStopSpeed {
            if speedBelowSince.isNaN { speedBelowSince = t }
            speedAboveSince = .nan
            if state == .moving && t - speedBelowSince >= settings.rideSpeedSeconds { pause(at: speedBelowSince, decidedAt: t, cause: .speed) }
        } else {
            speedAboveSince = .nan; speedBelowSince = .nan
        }
    }

    mutating func checkSpeedTimeout(_ t: Double) {}

    // MARK: Snapshot

    /// Moving time up to `t` (s).
    
    public func movingTime(at t: Double) -> Double {
        movingAccumulated + (state == .moving ? Swift.max(0, t - movingSince) : 0)
    }

    /// Pace over the last `currentPaceSeconds` of distance updates (s/km), NaN when undefined.
    public var currentPace: Double {
        guard state == .moving, paceCount >= 2 else { return .nan }
        var newest = paceHead - 1
        if newest < 0 { newest += paceTime.count }
        let tN = paceTime[newest], dN = paceDist[newest]
        if now - tN > Swift.max(3, settings.currentPaceSeconds / 2) { return .nan }
        var j = newest
        var k = 1
        while k < paceCount {
            var i = j - 1
            if i < 0 { i += paceTime.count }
            j = i; k += 1
            if tN - paceTime[j] >= settings.currentPaceSeconds { break }
        }
        let dt = tN - paceTime[j], dd = dN - paceDist[j]
        return dd > 0 && dt > 0 ? dt / dd * 1000 : .nan
    }

    /// The live figures now.
    public var snapshot: SessionSnapshot {
        let t = now.isNaN ? 0 : now
        let mt = movingTime(at: t)
        var pace = currentPace
        var speed = pace.isFinite ? 1000 / pace : 0
        if settings.mode == .ride {
            speed = state == .moving && t - lastSpeedTime <= 5 && lastSpeed.isFinite ? lastSpeed : 0
            pace = speed > 0 ? 1000 / speed : .nan
        }
        let avg = distanceMeters > 0 ? mt / distanceMeters * 1000 : .nan
        var remaining = Double.nan
        if let g = settings.goalMeters {
            if distanceMeters >= g { remaining = 0 } else {
                let p = pace.isFinite ? pace : avg
                if p.isFinite { remaining = (g - distanceMeters) * p / 1000 }
            }
        }
        let cadence: Double
        if settings.mode == .ride || state == .still { cadence = 0 } else if platformSteps {
            cadence = t - lastStepTime < 5 ? platformCadence : 0
        } else { cadence = pedometer.cadence }
        return SessionSnapshot(time: t, state: state, steps: steps, cadenceStepsPerMinute: cadence, distanceMeters: distanceMeters,
                               currentPaceSecondsPerKm: pace, averagePaceSecondsPerKm: avg, speedMetersPerSecond: speed,
                               movingTimeSeconds: mt, elapsedTimeSeconds: startTime.isNaN ? 0 : t - startTime,
                               remainingTimeSeconds: remaining, movingProbability: smoothedP,
                               stepLengthMeters: stride.stepLength(peakToPeak: lastP2P, cadence: pedometer.isWalking ? pedometer.cadence : 110) * strideScale)
    }

    /// True once the stride has been calibrated from GPS.
    public var isGPSCalibrated: Bool { gpsCalibrated }
    /// The current stride scale (1 = uncalibrated model).
    public var strideCalibrationFactor: Double { strideScale }

}
