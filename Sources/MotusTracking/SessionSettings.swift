import MotusCore

/// What an app sets for a `MotionSession`. Units: m, s.
public struct SessionSettings: Sendable, Hashable, Codable {
    /// On foot (steps, stride, pace) or a ride (no steps; speed from location when present).
    public var mode: SessionMode = .foot
    /// The person's height (m); 1.70 when unknown. Gives the default stride model.
    public var heightMeters: Meters? = nil
    /// Step-length model; nil = Weinberg with `k` from the height (`StrideModel.weinbergK`).
    public var strideModel: StrideModel? = nil
    /// Distance of each split (m); 0 turns splits off.
    public var splitMeters: Meters = 1000
    /// Goal distance (m), for the "goal reached" event and the remaining time.
    public var goalMeters: Meters? = nil
    /// Resume provisionally on a walk's first steps (cause `firstSteps`, retracted with no
    /// moving time when the pedometer does not confirm a walk). Off: resume only on the
    /// pedometer's confirmation (about five steps) or the classifier, for an app that must
    /// never show a resume it may take back.
    public var provisionalResume: Bool = true
    /// Where the counted steps come from. `.live` (the default, and what a live app uses): the
    /// session's own pedometer. `.offline`: the steps pushed with `MotionSession.pushStep(_:)`,
    /// found by `OfflineStepDetector` over a whole file (`MotionSession.run(_:settings:model:keepStepEvents:)`
    /// does it for a recording); the pedometer still gives the walking evidence moving/still
    /// is decided on. A platform step counter, once it reports, counts in either mode.
    public var stepMode: StepMode = .live
    /// How the session decides; the defaults suit phones and wearables carried by a walker,
    /// runner or rider, and an app rarely needs to change them.
    public var tuning = SessionTuning()

    /// The defaults, as given on each property.
    public init() {}
    /// The defaults (the same as `init()`).
    public static let `default` = SessionSettings()

    /// The height used when none is given (m).
    public static let defaultHeightMeters: Meters = 1.70
    /// The stride model these settings give.
    public var effectiveStrideModel: StrideModel {
        strideModel ?? .weinberg(k: StrideModel.weinbergK(heightMeters: heightMeters ?? Self.defaultHeightMeters))
    }
}

/// The session's internal tuning, by part (see each part's settings for units and reasons).
public struct SessionTuning: Sendable, Hashable, Codable {
    /// Frame rate without a model (Hz); with a model, frames come at the model's rate.
    public var frameRateHz: Hertz = 50
    /// The fast stillness test on the frames.
    public var stillness = StillnessDetector.Settings()
    /// The change-of-posture test on the frames (standing up before a walk).
    public var posture = PostureTracker.Settings()
    /// The step detector.
    public var pedometer = Pedometer.Settings()
    /// The live check on the step detector's steps before they are counted.
    public var stepCheck = LiveStepCheck.Settings()
    /// When to resume and pause.
    public var policy = MotionPolicy.Settings()
    /// Pace and stride calibration.
    public var odometer = Odometer.Settings()
    /// The defaults, as given on each property.
    public init() {}
}

/// A fixed ring of session events, allocated once: the session and its parts emit into it, the
/// app reads it with `MotionSession.nextEvent()`. When full, the oldest event is dropped (and
/// counted), so a session that is never read cannot grow.
public struct EventQueue: Sendable {
    private var ring: [SessionEvent]
    private var head = 0
    /// Unread events.
    public private(set) var count = 0
    /// Events dropped because the queue was full.
    public private(set) var dropped = 0

    /// A queue of `capacity` events, allocated now.
    public init(capacity: Int = 1024) {
        precondition(capacity > 0)
        ring = [SessionEvent](repeating: .goalReached(time: 0, distanceMeters: 0, movingTimeSeconds: 0), count: capacity)
    }

    /// Adds an event, dropping (and counting) the oldest when full.
    public mutating func emit(_ e: SessionEvent) {
        if count == ring.count {
            head += 1
            if head == ring.count { head = 0 }
            count -= 1
            dropped += 1
        }
        var i = head + count
        if i >= ring.count { i -= ring.count }
        ring[i] = e
        count += 1
    }

    /// Takes the oldest unread event, nil when there is none.
    public mutating func next() -> SessionEvent? {
        guard count > 0 else { return nil }
        let e = ring[head]
        head += 1
        if head == ring.count { head = 0 }
        count -= 1
        return e
    }
}
