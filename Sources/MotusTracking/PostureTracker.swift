import MotusCore

/// Notices a change of posture (sitting → standing, the phone picked up) in the direction of
/// gravity in the device frame: a carried device keeps a roughly fixed orientation to the body
/// part it rides on, so when that part changes posture its gravity direction turns by tens of
/// degrees and stays turned, while the strides of a walk only rock it about a mean.
///
/// The gravity direction (unit vector, from the frame's fused or low-passed gravity) is
/// low-passed over `timeConstant`. The **rest posture** is that direction on the latest still
/// frame (or on the first frame, before any). `changedAt` is when the direction first lay more
/// than `changeDegrees` from the rest posture since then: the time the body left its resting
/// posture, NaN while it has not. A walk that follows starts after it, so step-like motion before
/// it (the push of standing up) is not a step.
///
/// O(1) per frame, no allocation.
public struct PostureTracker: Sendable {
    /// The smoothing and the angle; units on each property.
    public struct Settings: Sendable, Hashable, Codable {
        /// Time constant (s) of the low-pass on the gravity direction: long enough to average
        /// the rocking of a stride's impacts, short enough to follow standing up (about 1 s).
        public var timeConstant: Seconds = 0.25
        /// Angle (degrees) from the rest posture that counts as a new posture: more than a
        /// trunk or thigh rocks about its mean while walking, less than sitting to standing
        /// turns a thigh, hip or wrist (60–90°).
        public var changeDegrees: Degrees = 40
        /// Angle (degrees) from the rest posture beyond which, until `changeDegrees` is passed,
        /// the posture is in transit: the body is turning into a new posture, and motion in
        /// the meantime (the push of standing up) is not yet a walk.
        public var transitDegrees: Degrees = 20
        /// The defaults, as given on each property.
        public init() {}
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// The settings this tracker runs with.
    public let settings: Settings
    private let alpha: Double
    private let cosChange: Double
    private let cosTransit: Double
    /// True while the smoothed direction lies between `transitDegrees` and `changeDegrees` from
    /// the rest posture, before it first passed `changeDegrees`.
    public private(set) var inTransit = false
    private var smoothed = Vector3.zero
    private var hasDirection = false
    /// Smoothed gravity direction on the latest still frame (or the first frame), unit length.
    public private(set) var restDirection = Vector3.zero
    /// When the smoothed direction first lay more than `changeDegrees` from `restDirection`
    /// since the latest still frame (s); NaN while it has not.
    public private(set) var changedAt: Seconds = .nan

    /// A tracker for frames at `rateHz` (Hz).
    public init(rateHz: Hertz, settings: Settings = .default) {
        precondition(rateHz > 0 && settings.timeConstant > 0, "rate and time constant must be > 0")
        self.settings = settings
        alpha = 1 - Math.exp(-1 / (settings.timeConstant * rateHz))
        cosChange = Math.cos(settings.changeDegrees * Double.pi / 180)
        cosTransit = Math.cos(settings.transitDegrees * Double.pi / 180)
    }

    /// Forgets the posture (after a gap in the input).
    public mutating func reset() {
        smoothed = .zero; hasDirection = false; restDirection = .zero; changedAt = .nan; inTransit = false
    }

    /// One frame at `time` (s): its gravity (m/s², device frame; `.zero` when unknown, then the
    /// acceleration's direction is used) and whether the stillness test passed on it.
    public mutating func update(gravity g: Vector3, acceleration a: Vector3, still: Bool, time: Seconds) {
        let v = g == .zero ? a : g
        let n = v.norm
        guard n > 0, n.isFinite else { return }
        let u = v / n
        if !hasDirection {
            smoothed = u; hasDirection = true
            restDirection = u; changedAt = .nan
            return
        }
        smoothed = smoothed + (u - smoothed) * alpha
        let m = smoothed.norm
        guard m > 0 else { return }
        let d = smoothed / m
        let c = d.dot(restDirection)
        if still {
            restDirection = d; changedAt = .nan
        } else if changedAt.isNaN && c < cosChange {
            changedAt = time
        }
        inTransit = changedAt.isNaN && !still && c < cosTransit
    }
}
