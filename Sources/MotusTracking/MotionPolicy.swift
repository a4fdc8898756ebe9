import MotusCore

/// What the pedometer says about the walk in progress, for the pause decision.
public struct WalkEvidence: Sendable, Hashable {
    /// The pedometer has confirmed regular steps and has not given up on them.
    public var isWalking: Bool
    /// Time of the pedometer's latest step (s).
    public var lastStepTime: Seconds
    /// The pedometer's current step interval (s).
    public var stepInterval: Seconds
    /// Evidence from the pedometer's `isWalking`, `lastStepTime` (s) and `stepInterval` (s).
    public init(isWalking: Bool, lastStepTime: Seconds, stepInterval: Seconds) {
        self.isWalking = isWalking; self.lastStepTime = lastStepTime; self.stepInterval = stepInterval
    }
    /// No walk: not walking, no step yet.
    public static let none = WalkEvidence(isWalking: false, lastStepTime: -.infinity, stepInterval: 0)
}

/// The moving/still decision: a state machine fed evidence (step candidates and confirmed
/// steps, stillness on each frame, the classifier's p(moving) per window, speed), that emits
/// `resumed` and `paused` events into an `EventQueue` and keeps the moving time. It reads no
/// sensor and runs no detector, so it can be driven and tested alone; `MotionSession` feeds it.
///
/// **On foot**: resume provisionally on the first `earlyResumeSteps` regular step candidates
/// while the body moves (cause `firstSteps`), dated at the first of them (or the motion onset
/// just before it). After a change of posture (someone stands up, then walks: `PostureTracker`)
/// only the candidates after the change count, and the resume is dated at the first of them,
/// not at the onset of standing up. It stands once the pedometer confirms a walk or the
/// classifier is confident for `classifierConfirmWindows` windows, and is retracted otherwise
/// (a pause with cause `unconfirmed`, dated at the resume: no moving time). Without it: when
/// the pedometer confirms regular steps, dated back to the first credited step; or after `classifierResumeWindows` confident windows. Pause when
/// the stillness has lasted `minimumStillSeconds` (unless steps vouch for motion or the
/// classifier is confident and the stillness shallow), or after `classifierPauseWindows`
/// confident still windows while the body is quiet. A missing step never pauses: a phone
/// swinging in a hand loses steps but is not still.
/// **Ride**: no steps; speed from the location stream when known, the classifier and the
/// stillness otherwise.
///
/// Allocation-free; O(1) per call.
public struct MotionPolicy: Sendable {
    /// Thresholds and times of the decisions (s, m/s, m/s², probabilities).
    public struct Settings: Sendable, Hashable, Codable {
        /// Stillness must last this long (s) before a pause is decided: long enough to ignore
        /// the quiet moment between two slow steps' impacts.
        public var minimumStillSeconds: Seconds = 0.3
        /// Weight of the newest window in the smoothed p(moving): one window alone cannot flip
        /// the state, two agreeing windows can.
        public var probabilitySmoothing: Double = 0.6
        /// Smoothed p(moving) at or above which the classifier says moving.
        public var enterProbability: Double = 0.8
        /// Smoothed p(moving) at or below which the classifier says still.
        public var exitProbability: Double = 0.2
        /// Windows in a row above `enterProbability` to resume without steps (foot): long, so
        /// that fidgeting does not resume; the pedometer resumes walks much sooner.
        public var classifierResumeWindows: Int = 4
        /// Windows in a row below `exitProbability` to pause without stillness (standing while
        /// handling the phone moves it too much for the stillness test).
        public var classifierPauseWindows: Int = 2
        /// On foot, a classifier pause also needs the stillness window's |a| std at most this
        /// (m/s²): a slow, shuffling walk the pedometer cannot confirm still shakes the phone
        /// more than standing does.
        public var classifierPauseMaximumStd: MetersPerSecondSquared = 0.4
        /// While the smoothed p(moving) is at least this, a stillness whose |a| std is above
        /// `guardedStillStd` does not pause (a phone held steady in a runner's hand).
        public var guardProbability: Double = 0.9
        /// Stillness below this std (m/s²) pauses even against the classifier: no carried
        /// phone is that quiet.
        public var guardedStillStd: MetersPerSecondSquared = 0.08
        /// A resume from steps is dated at the motion onset (end of stillness) when that came
        /// at most this long (s) before the first step (the push-off precedes the first impact).
        public var resumeOnsetLookback: Seconds = 0.6
        /// Step candidates in a row (regular, while the body moves) that resume provisionally,
        /// before the pedometer confirms a walk; 0 turns the early resume off. Two is the
        /// fewest that show a rhythm.
        public var earlyResumeSteps: Int = 2
        /// Longest interval (s) between those candidates (60 steps/min): the first steps of a
        /// walk come faster than the shifts of weight of someone standing.
        public var earlyResumeMaximumInterval: Seconds = 1.0
        /// Smallest |a| std (m/s²) over the stillness window when resuming early: the body
        /// moves like a walk's steps, not like someone shifting their weight while standing.
        public var earlyResumeMinimumStd: MetersPerSecondSquared = 1.0
        /// A provisional resume not confirmed this long (s) after it was decided is retracted:
        /// the pedometer confirms a real walk within about five steps, the classifier within
        /// `classifierConfirmWindows` windows.
        public var earlyResumeTimeout: Seconds = 4.0
        /// Windows in a row above `enterProbability` that confirm a provisional resume: its
        /// steps already vouch for a walk, so fewer than a resume without steps needs. A short
        /// walk into a turn (weak, irregular impacts) may never give the pedometer its five
        /// regular steps.
        public var classifierConfirmWindows: Int = 2
        /// While the pedometer walks, no pause until this many step intervals (the mean or the
        /// latest, whichever is longer) after the last step: slow walkers are quiet between steps.
        public var stepDueFactor: Double = 2.0
        /// Ride: speed (m/s) at or above which a ride is moving (a slow cyclist).
        public var rideStartSpeed: MetersPerSecond = 2.0
        /// Ride: speed (m/s) at or below which a ride is stopped (walking the bike counts as
        /// stopped).
        public var rideStopSpeed: MetersPerSecond = 0.8
        /// Ride: how long (s) the speed must stay beyond a threshold (GPS speed noise).
        public var rideSpeedSeconds: Seconds = 2.0
        /// Ride: the classifier resumes after this many windows (no step evidence to wait for).
        public var rideClassifierWindows: Int = 2
        /// Ride: a speed older than this (s) is unknown, and the classifier decides.
        public var speedValiditySeconds: Seconds = 5.0
        /// The defaults, as given on each property.
        public init() {}
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// What the policy needs to know about its surroundings, fixed for a session.
    public struct Context: Sendable, Hashable {
        /// On foot or a ride: which evidence resumes and pauses.
        public var mode: SessionMode
        /// Frame period (s).
        public var framePeriod: Seconds
        /// The stillness test's window (s).
        public var stillnessWindowSeconds: Seconds
        /// The classifier's window and hop (s), from the model.
        public var windowSeconds: Seconds
        /// The classifier's hop: time between the starts of consecutive windows (s).
        public var hopSeconds: Seconds
        /// Longest step interval that still counts as walking (s), from the pedometer.
        public var maximumStepInterval: Seconds
        /// Time after the last step (s) that the pedometer keeps walking, from the pedometer.
        public var stopTimeout: Seconds
        /// The surroundings; all times in seconds.
        public init(mode: SessionMode, framePeriod: Seconds, stillnessWindowSeconds: Seconds, windowSeconds: Seconds, hopSeconds: Seconds,
                    maximumStepInterval: Seconds, stopTimeout: Seconds) {
            self.mode = mode; self.framePeriod = framePeriod; self.stillnessWindowSeconds = stillnessWindowSeconds
            self.windowSeconds = windowSeconds; self.hopSeconds = hopSeconds
            self.maximumStepInterval = maximumStepInterval; self.stopTimeout = stopTimeout
        }
    }

    /// Two times closer than this (s) are one instant in every comparison the policy makes.
    /// Frames and steps lie on grids, so durations often equal a threshold exactly; on a clock
    /// with a large origin (Unix seconds carry about 2·10⁻⁷ s of rounding) the same duration
    /// comes out a hair above or below it, and a decision would move by a frame. Far below any
    /// sample period, far above that rounding. The same value as the pedometer grid's.
    public static let tolerance: Seconds = CellAverager.tolerance

    /// The thresholds and delays this policy decides with.
    public let settings: Settings
    /// The session's fixed surroundings (frame period, windows, pedometer limits).
    public let context: Context

    /// Moving or still now; a session starts still.
    public private(set) var state = MotionState.still
    private var movingSince = 0.0
    private var movingAccumulated = 0.0
    private var lastPauseTime = -Double.infinity
    private var stillSince = Double.nan          // frame time the current still run began
    private var stillWindowStart = Double.nan    // start of the first still window of the run
    private var motionOnset = -Double.infinity   // last end of stillness
    private var provisionalSince = Double.nan    // decision time of an unconfirmed early resume
    private var retractedUpTo = -Double.infinity // newest candidate of the last retracted early resume
    private var windowsAbove = 0, windowsBelow = 0
    private var speedAboveSince = Double.nan, speedBelowSince = Double.nan
    /// Latest smoothed p(moving) (NaN before the first window).
    public private(set) var smoothedProbability = Double.nan
    /// Latest speed (m/s) and its time (s).
    public private(set) var lastSpeed: MetersPerSecond = .nan
    /// Time of `lastSpeed` (s; −∞ before the first speed).
    public private(set) var lastSpeedTime: Seconds = -.infinity
    /// Time of the latest counted step (s).
    public private(set) var lastStepTime: Seconds = -.infinity
    private var lastStepInterval = 0.0

    /// A policy in the still state.
    public init(settings: Settings = .default, context: Context) {
        self.settings = settings; self.context = context
    }

    /// Step candidates that resume early: `earlyResumeSteps`, one fewer after a change of
    /// posture (`postureChange` finite): standing up and then a step show a walk beginning as
    /// well as two steps do. 0 when the early resume is off.
    public func earlyResumeCandidates(postureChange: Seconds) -> Int {
        let n = settings.earlyResumeSteps
        return n > 1 && postureChange.isFinite ? n - 1 : n
    }

    /// True while a provisional resume waits for confirmation.
    public var isProvisional: Bool { !provisionalSince.isNaN }
    /// True while the ride's start is being confirmed by speed (speed above the start threshold).
    public var isConfirmingRideStart: Bool { !speedAboveSince.isNaN }

    /// Moving time up to `t` (s).
    public func movingTime(at t: Seconds) -> Seconds {
        movingAccumulated + (state == .moving ? Swift.max(0, t - movingSince) : 0)
    }

    // MARK: Evidence

    /// A step was counted (by the pedometer or the platform step counter) at `time`.
    public mutating func stepCounted(at time: Seconds) {
        let dt = time - lastStepTime
        lastStepInterval = dt <= context.maximumStepInterval + Self.tolerance ? dt : 0
        lastStepTime = time
    }

    /// The pedometer confirmed a walk whose earliest newly credited step is at `firstStep` (the
    /// earliest after `postureChange`, the time the body left its resting posture, when it did:
    /// NaN otherwise).
    public mutating func stepsConfirmed(firstStep: Seconds, postureChange: Seconds = .nan, at t: Seconds, events: inout EventQueue) {
        provisionalSince = .nan   // confirmed (or already moving)
        if state == .still {
            resume(at: walkStart(firstStep: firstStep, postureChange: postureChange), decidedAt: t, cause: .steps, events: &events)
        }
    }

    /// The pedometer's unconfirmed step candidates after a sample that confirmed none: their
    /// number, the time of the `earlyResumeSteps`-th newest (NaN when fewer) and of the newest
    /// (NaN when none), the |a| std of the stillness window (m/s²), and `postureChange`, the
    /// time the body left its resting posture since the last stillness (NaN when it has not).
    /// While still, the session counts only the candidates after that change: the push of
    /// standing up is not a step.
    public mutating func stepCandidates(count n: Int, earliest: Seconds, newest: Seconds, motionStd: MetersPerSecondSquared, postureChange: Seconds = .nan,
                                        at t: Seconds, events: inout EventQueue) {
        let need = earlyResumeCandidates(postureChange: postureChange)
        if state == .still {
            guard need > 0, n >= need else { return }
            // Motion now, candidates newer than those of a retracted early resume, close
            // enough together, and the body moving like a walk.
            guard stillSince.isNaN, earliest > retractedUpTo + Self.tolerance else { return }
            guard newest - earliest <= Double(need - 1) * settings.earlyResumeMaximumInterval + Self.tolerance else { return }
            guard motionStd >= settings.earlyResumeMinimumStd else { return }
            resume(at: walkStart(firstStep: earliest, postureChange: postureChange), decidedAt: t, cause: .firstSteps, events: &events)
            if state == .moving { provisionalSince = t }
        } else if !provisionalSince.isNaN {
            // Retracted when the pedometer gives up its candidates while the classifier does not
            // say moving (in a turn the impacts weaken, but the body still moves), or when
            // neither confirms in time.
            let classifierMoving = smoothedProbability >= settings.enterProbability
            if (n == 0 && !classifierMoving) || t - provisionalSince > settings.earlyResumeTimeout + Self.tolerance {
                retractedUpTo = n > 0 ? newest : t
                retract(decidedAt: t, events: &events)
            }
        }
    }

    /// One frame on the fixed grid at `t`: whether the stillness test passes and its |a| std
    /// (m/s²), the classifier's p(moving) when this frame completed a window (NaN otherwise),
    /// and the pedometer's walk.
    public mutating func frame(at t: Seconds, still: Bool, accelerationStd: MetersPerSecondSquared, windowProbability p: Double,
                               walk: WalkEvidence, events: inout EventQueue) {
        if still {
            if stillSince.isNaN { stillSince = t; stillWindowStart = t - context.stillnessWindowSeconds }
        } else if !stillSince.isNaN {
            motionOnset = t - context.framePeriod
            stillSince = .nan
        }
        if p.isFinite { window(p, at: t, accelerationStd: accelerationStd, events: &events) }
        if state == .moving, !stillSince.isNaN, t - stillSince >= settings.minimumStillSeconds - Self.tolerance {
            // Steps vouch for motion: the stillness must begin after the last step, and not
            // while the pedometer's next step is still due.
            let foot = context.mode == .foot
            let stepDue = foot && walk.isWalking
                && t - walk.lastStepTime < settings.stepDueFactor * Swift.max(walk.stepInterval, lastStepInterval) - Self.tolerance
            let stillAfterStep = !foot || stillSince > lastStepTime + Self.tolerance
            let guarded = stepDue || !stillAfterStep
                || (smoothedProbability >= settings.guardProbability && accelerationStd > settings.guardedStillStd)
            if !guarded {
                let end = Swift.max(stillWindowStart, foot ? lastStepTime : -Double.infinity)
                pause(at: end, decidedAt: t, cause: .stillness, events: &events)
            }
        }
    }

    /// A speed (m/s) at `t`, from the location stream. Returns true when it resumed a ride.
    @discardableResult
    public mutating func speed(_ v: MetersPerSecond, at t: Seconds, events: inout EventQueue) -> Bool {
        lastSpeed = v; lastSpeedTime = t
        guard context.mode == .ride else { return false }
        if v >= settings.rideStartSpeed {
            if speedAboveSince.isNaN { speedAboveSince = t }
            speedBelowSince = .nan
            if state == .still && t - speedAboveSince >= settings.rideSpeedSeconds - Self.tolerance {
                resume(at: speedAboveSince, decidedAt: t, cause: .speed, events: &events)
                return true
            }
        } else if v <= settings.rideStopSpeed {
            if speedBelowSince.isNaN { speedBelowSince = t }
            speedAboveSince = .nan
            if state == .moving && t - speedBelowSince >= settings.rideSpeedSeconds - Self.tolerance {
                pause(at: speedBelowSince, decidedAt: t, cause: .speed, events: &events)
            }
        } else {
            speedAboveSince = .nan; speedBelowSince = .nan
        }
        return false
    }

    /// A platform step counter reported steps from `t0` on, with no accelerometer to confirm a walk.
    public mutating func stepCounterSteps(from t0: Seconds, at t: Seconds, events: inout EventQueue) {
        if state == .still { resume(at: t0, decidedAt: t, cause: .stepCounter, events: &events) }
    }

    /// The input ended: an unconfirmed provisional resume is retracted.
    public mutating func finish(at t: Seconds, events: inout EventQueue) {
        retract(decidedAt: t, events: &events)
    }

    // MARK: Decisions

    /// A classifier window's p(moving) at `t`.
    private mutating func window(_ p: Double, at t: Double, accelerationStd: Double, events: inout EventQueue) {
        let a = settings.probabilitySmoothing
        smoothedProbability = smoothedProbability.isNaN ? p : smoothedProbability + a * (p - smoothedProbability)
        if smoothedProbability >= settings.enterProbability { windowsAbove += 1 } else { windowsAbove = 0 }
        if smoothedProbability <= settings.exitProbability { windowsBelow += 1 } else { windowsBelow = 0 }
        let ride = context.mode == .ride
        let speedKnown = t - lastSpeedTime <= settings.speedValiditySeconds + Self.tolerance
        // The classifier's own evidence confirms a provisional resume.
        if !provisionalSince.isNaN && windowsAbove >= settings.classifierConfirmWindows { provisionalSince = .nan }
        if state == .still && stillSince.isNaN && !(ride && speedKnown) {
            let need = ride ? settings.rideClassifierWindows : settings.classifierResumeWindows
            if windowsAbove >= need {
                // The motion began at most the `need` windows' span (plus one hop) ago.
                let onset = motionOnset.isFinite ? motionOnset : t
                resume(at: Swift.max(onset, t - Double(need + 1) * context.hopSeconds), decidedAt: t, cause: .classifier, events: &events)
            }
        }
        if state == .moving && windowsBelow >= settings.classifierPauseWindows && !(ride && speedKnown) {
            let recentStep = !ride && t - lastStepTime < context.stopTimeout - Self.tolerance
            let quiet = ride || accelerationStd <= settings.classifierPauseMaximumStd
            if !recentStep && quiet {
                // The motion ended at most one window ago (or at the last step, if later).
                let end = !ride && lastStepTime.isFinite ? Swift.max(lastStepTime, t - context.windowSeconds) : t - context.windowSeconds
                pause(at: end, decidedAt: t, cause: .classifier, events: &events)
            }
        }
    }

    /// When a walk whose first step is at `first` began: the step itself after a change of
    /// posture (`postureChange` finite: the motion since the stillness ended was standing up,
    /// not walking); otherwise the motion onset when it came at most `resumeOnsetLookback` before
    /// that step (the push-off precedes the first impact), else the step.
    private func walkStart(firstStep first: Double, postureChange: Double) -> Double {
        if postureChange.isFinite { return first }
        return motionOnset.isFinite && motionOnset <= first + Self.tolerance && first - motionOnset <= settings.resumeOnsetLookback + Self.tolerance
            ? motionOnset : first
    }

    /// Takes back an unconfirmed provisional resume (`pause` dates and labels it).
    private mutating func retract(decidedAt t: Double, events: inout EventQueue) {
        if state == .moving && !provisionalSince.isNaN { pause(at: movingSince, decidedAt: t, cause: .unconfirmed, events: &events) }
    }

    private mutating func resume(at t0: Double, decidedAt t: Double, cause: StateChangeCause, events: inout EventQueue) {
        guard state == .still else { return }
        let when = Swift.min(Swift.max(t0, lastPauseTime), t)
        state = .moving
        movingSince = when
        windowsBelow = 0
        events.emit(.resumed(StateChange(time: when, decidedAt: t, cause: cause)))
    }

    private mutating func pause(at t0: Double, decidedAt t: Double, cause: StateChangeCause, events: inout EventQueue) {
        guard state == .moving else { return }
        // A pause while a provisional resume is unconfirmed retracts it: no moving time.
        let when = provisionalSince.isNaN ? Swift.min(Swift.max(t0, movingSince), t) : movingSince
        let cause = provisionalSince.isNaN ? cause : .unconfirmed
        provisionalSince = .nan
        state = .still
        movingAccumulated += when - movingSince
        lastPauseTime = when
        windowsAbove = 0
        events.emit(.paused(StateChange(time: when, decidedAt: t, cause: cause)))
    }
}
