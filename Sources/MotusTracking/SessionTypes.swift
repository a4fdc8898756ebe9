import MotusCore

/// Moving or still.
public enum MotionState: String, Sendable, Hashable, Codable {
    /// Not moving: standing, sitting, the phone on a table, a ride stopped.
    case still
    /// Walking, running or riding.
    case moving
}

/// What kind of session: on foot (steps, stride, pace) or a ride (no steps: moving/still from
/// the classifier and, with a location stream, speed).
public enum SessionMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Walking or running: steps, stride, cadence and pace.
    case foot
    /// Cycling (or any ride): no steps; distance and speed from location fixes.
    case ride
}

/// Why the state changed.
public enum StateChangeCause: String, Sendable, Hashable, Codable {
    /// The pedometer confirmed a walk (regular steps); dated back to its first credited step.
    case steps
    /// Provisional resume on the first steps of a walk (`SessionSettings.earlyResumeSteps`
    /// regular step candidates while the body moves), before the pedometer confirms it. If
    /// the pedometer does not confirm, a pause with cause `unconfirmed` follows, dated at
    /// the same time, so the span adds no moving time.
    case firstSteps
    /// Retraction of a `firstSteps` resume the pedometer did not confirm (dated at that
    /// resume: no moving time was added).
    case unconfirmed
    /// The fast stillness detector (acceleration variance, rotation rate).
    case stillness
    /// The classifier's smoothed probability crossed its threshold for long enough.
    case classifier
    /// The location stream's speed (ride mode).
    case speed
    /// A platform step counter reported steps (no accelerometer).
    case stepCounter
}

/// A change between moving and still.
@frozen
public struct StateChange: Sendable, Hashable, Codable {
    /// When the change happened, as far as the session can tell (s, input clock): for a
    /// resume from steps, the first step's time; for a pause, when the motion ended.
    public var time: Seconds
    /// When the session decided it (s): the time of the sample that triggered the decision.
    /// `decidedAt − time` is the decision latency.
    public var decidedAt: Seconds
    /// What decided the change.
    public var cause: StateChangeCause
    /// A change at `time`, decided at `decidedAt` (both s, input clock).
    @inlinable public init(time: Seconds, decidedAt: Seconds, cause: StateChangeCause) {
        self.time = time; self.decidedAt = decidedAt; self.cause = cause
    }
    /// Decision latency (s).
    @inlinable public var latency: Seconds { decidedAt - time }
}

/// A completed split.
@frozen
public struct Split: Sendable, Hashable, Codable {
    /// 1 for the first split.
    public var index: Int
    /// Cumulative distance at the end of the split (m).
    public var distanceMeters: Meters
    /// Time the split was completed (s, input clock).
    public var time: Seconds
    /// Moving time spent in this split (s).
    public var movingTimeSeconds: Seconds
    /// Elapsed time spent in this split (s).
    public var elapsedTimeSeconds: Seconds
    /// Moving time per kilometre over the split (s/km).
    public var paceSecondsPerKm: SecondsPerKilometer
    /// Steps in this split (0 in ride mode).
    public var steps: Int
    /// A split; units as on each property.
    public init(index: Int, distanceMeters: Meters, time: Seconds, movingTimeSeconds: Seconds, elapsedTimeSeconds: Seconds,
                paceSecondsPerKm: SecondsPerKilometer, steps: Int) {
        self.index = index; self.distanceMeters = distanceMeters; self.time = time; self.movingTimeSeconds = movingTimeSeconds
        self.elapsedTimeSeconds = elapsedTimeSeconds; self.paceSecondsPerKm = paceSecondsPerKm; self.steps = steps
    }
}

/// What a session reports as it goes. Plain values (no references), so a fixed event queue
/// holds them without allocating.
public enum SessionEvent: Sendable, Hashable {
    /// Still → moving: when it happened, when it was decided, and why.
    case resumed(StateChange)
    /// Moving → still.
    case paused(StateChange)
    /// One counted step (a session on foot).
    case step(StepEvent)
    /// A split completed (every `SessionSettings.splitMeters`).
    case split(Split)
    /// The goal distance was reached: (time s, distance m, moving time s).
    case goalReached(time: Seconds, distanceMeters: Meters, movingTimeSeconds: Seconds)

    /// The event's time (s, input clock).
    public var time: Seconds {
        switch self {
        case .resumed(let c), .paused(let c): c.time
        case .step(let s): s.time
        case .split(let s): s.time
        case .goalReached(let t, _, _): t
        }
    }

    /// A short name: "resumed", "paused", "step", "split", "goal".
    public var name: String {
        switch self {
        case .resumed: "resumed"
        case .paused: "paused"
        case .step: "step"
        case .split: "split"
        case .goalReached: "goal"
        }
    }
}

/// The live figures of a session at one moment. Paces are seconds per kilometre and NaN when
/// undefined (no distance yet, or not moving).
@frozen
public struct SessionSnapshot: Sendable, Hashable, Codable {
    /// Time of the latest sample (s, input clock).
    public var time: Seconds
    /// Moving or still now.
    public var state: MotionState
    /// Steps counted since the start (the platform counter's when one is pushed).
    public var steps: Int
    /// Steps per minute while moving on foot, 0 otherwise.
    public var cadenceStepsPerMinute: StepsPerMinute
    /// Distance covered while moving (m): steps × stride on foot, location fixes on a ride.
    public var distanceMeters: Meters
    /// Pace over the last `SessionSettings.currentPaceSeconds` of movement (s/km).
    public var currentPaceSecondsPerKm: SecondsPerKilometer
    /// Moving time / distance (s/km).
    public var averagePaceSecondsPerKm: SecondsPerKilometer
    /// Current speed (m/s): 1000 / current pace, or the location speed in ride mode.
    public var speedMetersPerSecond: MetersPerSecond
    /// Time spent moving since the start (s).
    public var movingTimeSeconds: Seconds
    /// Time since the first sample (s), pauses included.
    public var elapsedTimeSeconds: Seconds
    /// Time to the goal distance at the current pace (s); NaN without a goal or a pace, 0 once reached.
    public var remainingTimeSeconds: Seconds
    /// Latest smoothed probability of moving from the classifier (NaN without one).
    public var movingProbability: Double
    /// Length of one step (m) the stride model currently gives (calibration included).
    public var stepLengthMeters: Meters
    /// Compass heading (degrees clockwise from magnetic north, 0 to 360) of the device's +y
    /// axis (a phone's top edge) on the horizontal; nil without a magnetometer (or while that
    /// axis points straight up or down).
    public var headingDegrees: Degrees? = nil
}

/// Formats a pace in s/km as "m:ss /km" ("-" when undefined).
public func formatPace(_ secondsPerKm: SecondsPerKilometer) -> String {
    guard secondsPerKm.isFinite, secondsPerKm > 0, secondsPerKm < 360_000 else { return "-" }
    let total = Int(secondsPerKm.rounded())
    let s = total % 60
    return "\(total / 60):\(s < 10 ? "0" : "")\(s) /km"
}
