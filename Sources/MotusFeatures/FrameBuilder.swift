import MotusCore
import MotusSignal
import MotusFusion

/// The one road from sensor samples to the fixed-rate `MotionFrame`s that features, the
/// classifier and the stillness detector read. Training, `evaluate`, `classify`, the live
/// `MotionSession` and its batch run all build their frames here, so a model sees live the
/// frames it was trained on.
///
/// **Inputs**, pushed as they arrive, each stream on the same clock with its own timestamps:
/// raw acceleration (gravity included), or CoreMotion-style user acceleration plus gravity;
/// gravity; rotation rate. The acceleration stream drives: every accepted acceleration (or user
/// acceleration) sample makes one *driver sample* of acceleration, gravity and rotation rate.
/// On equal timestamps push gravity and rotation rate before the acceleration they go with
/// (`frames(of:)` and `MotionSession.run` do).
///
/// **Driver samples.**
/// - Acceleration: raw acceleration when the input has it; user acceleration + the latest
///   gravity until the first raw acceleration sample arrives (then user acceleration is
///   ignored, so two drivers never interleave).
/// - Gravity: the latest gravity sample when it is at most `gravityHoldSeconds` old (a
///   CoreMotion or Android gravity sensor); otherwise the settings' filter (`GravityFusion`:
///   `OrientationFilter` by default) on the acceleration and the latest rotation rate; without
///   any rotation rate, `LowPassGravity`. The filters run only
///   while no fresh gravity is given, with the time step between consecutive driver samples.
/// - Rotation rate: the latest sample at or before the driver sample (sample and hold: a live
///   app knows nothing newer), zero before the first.
/// - A driver sample whose values or time are not finite, or whose time is not after the
///   previous driver sample's, is rejected (counted in `rejected`), and nothing changes.
///
/// **Frames** come from the driver samples by the resampler's grid and gap rules
/// (`ResamplerSettings`, as `StreamingResampler` applies them): grid point k at k / rate (origin
/// 0, so every recording and every session shares one grid), each value interpolated linearly
/// between the two driver samples around it, a grid point at a sample's time taking that sample.
/// **Gap policy**: no frame is interpolated across an interval longer than
/// `maximumGapSeconds`; the frames after such a gap start a new segment (`startsSegment`), and
/// windows restart there, in training as live.
///
/// One push allocates nothing; frames of the last push are computed on demand from the two
/// driver samples around them.
public struct FrameBuilder: Sendable {
    /// Settings: the frame rate and gap policy, and how gravity is estimated when not given.
    public struct Settings: Sendable, Hashable, Codable {
        /// Frame rate (Hz): a model's `features.rateHz`.
        public var rateHz: Hertz
        /// Longest interval between driver samples (s) that frames are interpolated across;
        /// a longer one splits the frames into segments. The default bridges the packet
        /// losses and scheduling jitter real devices show while walking (a few tens of
        /// milliseconds, up to a few hundred for a lossy wireless IMU), at most about a step
        /// at walking cadence, and splits at anything longer.
        public var maximumGapSeconds: Seconds
        /// How old (s) the latest gravity sample may be and still be used for a driver sample;
        /// older, the settings' filter (`fusion`) takes over.
        public var gravityHoldSeconds: Seconds
        /// The filter used when gravity is not given and a rotation rate is.
        public var fusion: GravityFusion
        /// The accelerometer-only estimate used when neither gravity nor rotation rate is given.
        public var lowPass: LowPassGravity.Settings

        /// Settings; units and defaults as on each property.
        public init(rateHz: Hertz = 50, maximumGapSeconds: Seconds = Settings.defaultMaximumGapSeconds, gravityHoldSeconds: Seconds = 0.5,
                    fusion: GravityFusion = .default, lowPass: LowPassGravity.Settings = .default) {
            self.rateHz = rateHz; self.maximumGapSeconds = maximumGapSeconds; self.gravityHoldSeconds = gravityHoldSeconds
            self.fusion = fusion; self.lowPass = lowPass
        }

        /// The gap policy's default (s).
        public static let defaultMaximumGapSeconds: Seconds = 0.5
    }

    /// Where the gravity of the latest driver sample came from.
    public enum GravitySource: String, Sendable, Hashable {
        /// No driver sample yet.
        case none
        /// Given by the device (a gravity stream pushed).
        case given
        /// Fused from acceleration and rotation rate (the settings' `GravityFusion` filter).
        case fused
        /// Estimated from the accelerometer alone (`LowPassGravity`).
        case lowPass

        /// The name `fused` had when the frames always fused with `AttitudeFilter`.
        @available(*, deprecated, renamed: "fused")
        public static var attitudeFilter: GravitySource { .fused }
    }

    /// The grid rate, gap policy and fusion settings.
    public let settings: Settings
    private var grid: ResamplerSettings { latest.grid }
    /// The settings' filter: one of the two is set (`settings.fusion`).
    private var orientation: OrientationFilter?
    private var attitude: AttitudeFilter?
    private var lowPass: LowPassGravity

    @usableFromInline var gyroLatest = Vector3.zero
    @usableFromInline var gravityLatest = Vector3.zero
    @usableFromInline var gravityTime = -Double.infinity
    @usableFromInline var rotationRateSeen = false
    private var driverTime = -Double.infinity
    private var fusionTime = -Double.infinity

    /// The frames the last push completed (none after a rejected one), with the two driver
    /// samples they lie between. A small value: a caller that mutates other state per frame
    /// reads it once (`let run = builder.latest`) instead of calling the builder per frame.
    public private(set) var latest: FrameRun
    /// Grid index of the next frame to complete, and its time.
    private var nextIndex = 0, nextTime = Double.infinity
    private var segmentHasFrames = false

    /// True once a rotation-rate sample has been pushed.
    @inlinable public var hasRotationRate: Bool { rotationRateSeen }
    /// True once a gravity sample has been pushed.
    @inlinable public var hasGravity: Bool { gravityTime.isFinite }
    /// True once a raw acceleration sample has been pushed (user acceleration is ignored from then on).
    public private(set) var hasRawAcceleration = false
    /// Driver samples rejected (not finite, or not after the previous one).
    public private(set) var rejected = 0
    /// Driver samples accepted.
    public private(set) var driverSamples = 0
    /// The latest accepted driver sample: acceleration with gravity (m/s²), gravity (m/s²), time (s).
    @inlinable public var lastAcceleration: Vector3 { latest.hi.0 }
    /// Gravity (m/s², pointing up) of the latest accepted driver sample.
    @inlinable public var lastGravity: Vector3 { latest.hi.1 }
    /// Time (s) of the latest accepted driver sample.
    @inlinable public var lastTime: Seconds { latest.hiTime }
    /// Where the latest driver sample's gravity came from.
    public private(set) var gravitySource = GravitySource.none

    /// A builder that has seen no sample; traps on a rate that is not finite and positive (a
    /// programming error, not input).
    public init(settings: Settings) {
        precondition(settings.rateHz.isFinite && settings.rateHz > 0, "FrameBuilder: rateHz must be finite and > 0")
        precondition(settings.maximumGapSeconds > 0, "FrameBuilder: maximumGapSeconds must be > 0")
        self.settings = settings
        latest = FrameRun(grid: ResamplerSettings(rateHz: settings.rateHz, originSeconds: 0, maxGapSeconds: settings.maximumGapSeconds))
        switch settings.fusion {
        case .orientation(let s): orientation = OrientationFilter(settings: s)
        case .attitude(let s): attitude = AttitudeFilter(settings: s)
        }
        lowPass = LowPassGravity(settings: settings.lowPass)
    }

    // MARK: Inputs

    /// Rotation rate (rad/s), held until the next one. Non-finite samples are ignored.
    @inlinable
    public mutating func pushRotationRate(_ w: Vector3, time: Seconds) {
        guard w.isFinite else { return }
        gyroLatest = w; rotationRateSeen = true
    }

    /// Gravity in the device frame, pointing up (m/s², Android sign). Non-finite samples are ignored.
    @inlinable
    public mutating func pushGravity(_ g: Vector3, time: Seconds) {
        guard g.isFinite, time.isFinite else { return }
        gravityLatest = g; gravityTime = time
    }

    /// A filter's gravity, read through the optional in place (see `pushAcceleration`).
    private static func gravity(of f: inout OrientationFilter) -> Vector3 { f.gravity }
    /// A filter's gravity, read through the optional in place (see `pushAcceleration`).
    private static func gravity(of f: inout AttitudeFilter) -> Vector3 { f.gravity }

    /// Raw acceleration, gravity included (m/s², Android sign). Returns true when the sample was
    /// accepted as a driver sample; the frames it completed (possibly none) are then `latest`.
    @discardableResult
    public mutating func pushAcceleration(_ a: Vector3, time t: Seconds) -> Bool {
        hasRawAcceleration = true
        guard a.isFinite, t.isFinite, t > driverTime else { rejected += 1; latest.count = 0; latest.startsSegment = false; return false }
        if t - gravityTime <= settings.gravityHoldSeconds {
            gravitySource = .given
            drive(a, gravityLatest, t)
        } else {
            let dt = fusionTime.isFinite ? t - fusionTime : 0
            let g: Vector3
            if rotationRateSeen {
                // Mutated in place through the optional, and read through it in place too: a
                // plain read of `orientation!.gravity` copies the filter once more per sample.
                if orientation != nil {
                    orientation!.update(acceleration: a, rotationRate: gyroLatest, dt: dt)
                    g = Self.gravity(of: &orientation!)
                } else {
                    attitude!.update(acceleration: a, rotationRate: gyroLatest, dt: dt)
                    g = Self.gravity(of: &attitude!)
                }
                gravitySource = .fused
            } else {
                lowPass.update(acceleration: a, dt: dt)
                g = lowPass.gravity; gravitySource = .lowPass
            }
            fusionTime = t
            drive(a, g, t)
        }
        return true
    }

    /// User acceleration (gravity removed, m/s²): drives with the latest gravity until raw
    /// acceleration is seen. Returns true when accepted as a driver sample.
    @discardableResult
    public mutating func pushUserAcceleration(_ u: Vector3, time t: Seconds) -> Bool {
        guard !hasRawAcceleration, gravityTime.isFinite else { latest.count = 0; latest.startsSegment = false; return false }
        guard u.isFinite, t.isFinite, t > driverTime else { rejected += 1; latest.count = 0; latest.startsSegment = false; return false }
        gravitySource = .given
        drive(u + gravityLatest, gravityLatest, t)
        return true
    }

    /// Any sample; returns true when it was accepted as a driver sample. Kinds the frames do
    /// not read (location, step counter, …) are ignored.
    @discardableResult
    public mutating func push(_ s: SensorSample) -> Bool {
        switch s {
        case .acceleration(let v): return pushAcceleration(v.value, time: v.time)
        case .userAcceleration(let v): return pushUserAcceleration(v.value, time: v.time)
        case .gravity(let v): pushGravity(v.value, time: v.time)
        case .rotationRate(let v): pushRotationRate(v.value, time: v.time)
        default: break
        }
        return false
    }

    /// One accepted driver sample: the frames on the grid up to `t` since the previous one.
    private mutating func drive(_ a: Vector3, _ g: Vector3, _ t: Double) {
        let first = driverSamples == 0
        driverTime = t
        driverSamples += 1
        latest.lo = latest.hi; latest.loTime = latest.hiTime
        latest.hi = (a, g, gyroLatest); latest.hiTime = t
        latest.startsSegment = false
        if first || t - latest.loTime > settings.maximumGapSeconds {
            // A new segment starts at this sample: only a grid point exactly at t is available.
            latest.lo = latest.hi; latest.loTime = t
            segmentHasFrames = false
            nextIndex = grid.firstIndex(atOrAfter: t)
            nextTime = grid.time(nextIndex)
        }
        latest.firstIndex = nextIndex
        latest.firstTime = nextTime
        var n = 0
        while nextTime <= t {
            n += 1
            nextIndex += 1
            nextTime = grid.time(nextIndex)
        }
        latest.count = n
        if n > 0 {
            latest.startsSegment = !segmentHasFrames
            segmentHasFrames = true
        }
    }

    // MARK: Frames of the last driver sample

    /// Frames completed by the last accepted driver sample (0 after a rejected one).
    @inlinable public var frameCount: Int { latest.count }
    /// True when the first of those frames starts a new segment (the first frame ever, or the
    /// first after a gap longer than `maximumGapSeconds`).
    @inlinable public var startsSegment: Bool { latest.startsSegment }
    /// Grid index of frame `j` (time = index / rate).
    public func frameIndex(_ j: Int) -> Int { latest.firstIndex + j }
    /// Time of frame `j` (s).
    public func frameTime(_ j: Int) -> Seconds { latest.time(j) }
    /// Frame `j` of the last push, 0 ≤ j < `frameCount`.
    public func frame(_ j: Int) -> MotionFrame { latest.frame(j) }

    // MARK: Batch

    /// The streams the frames read, in the order pushed when timestamps are equal.
    public static let inputKinds: [StreamKind] = [.gravity, .rotationRate, .acceleration, .userAcceleration]

    /// The frames of a whole recording, by the same pushes a live session makes (samples in
    /// time order, ties in `inputKinds` order), cut into segments at the gaps.
    public static func frames(of recording: Recording, settings: Settings) -> [FrameSegment] {
        var b = FrameBuilder(settings: settings)
        var out: [FrameSegment] = []
        var current: FrameSegment? = nil
        recording.forEachSample(kinds: inputKinds) { s in
            // Only an accepted driver sample completes frames.
            guard b.push(s) else { return }
            let n = b.frameCount
            guard n > 0 else { return }
            if b.startsSegment || current == nil {
                if let c = current { out.append(c) }
                current = FrameSegment(firstIndex: b.frameIndex(0), startTime: b.frameTime(0), frames: [])
            }
            for j in 0..<n { current?.frames.append(b.frame(j)) }
        }
        if let c = current { out.append(c) }
        return out
    }
}

/// The frames one driver sample completed: `count` grid points from `firstIndex` on, each the
/// straight line between the two driver samples around it (the sample itself at its own time).
@frozen
public struct FrameRun: Sendable {
    /// Frames completed.
    public var count = 0
    /// True when the first frame starts a new segment.
    public var startsSegment = false
    /// Grid index and time (s) of the first frame.
    public var firstIndex = 0
    /// Time (s) of the first frame.
    public var firstTime: Seconds = 0
    /// The builder's grid (origin 0, its rate).
    @usableFromInline let grid: ResamplerSettings
    // Acceleration, gravity and rotation rate of the two driver samples, and their times.
    @usableFromInline var lo = (Vector3.zero, Vector3.zero, Vector3.zero), hi = (Vector3.zero, Vector3.zero, Vector3.zero)
    @usableFromInline var loTime = -Double.infinity, hiTime = -Double.infinity

    init(grid: ResamplerSettings) { self.grid = grid }

    /// Time of frame `j` (s) on the builder's grid.
    @inlinable public func time(_ j: Int) -> Seconds { j == 0 ? firstTime : grid.time(firstIndex + j) }

    /// Frame `j`, 0 ≤ j < `count`.
    @inlinable @inline(__always) public func frame(_ j: Int) -> MotionFrame {
        precondition(j >= 0 && j < count, "FrameRun: frame index out of range")
        let g = time(j)
        if g == hiTime { return MotionFrame(acceleration: hi.0, gravity: hi.1, rotationRate: hi.2) }
        if g == loTime { return MotionFrame(acceleration: lo.0, gravity: lo.1, rotationRate: lo.2) }
        let f = (g - loTime) / (hiTime - loTime)
        return MotionFrame(acceleration: lo.0 + (hi.0 - lo.0) * f, gravity: lo.1 + (hi.1 - lo.1) * f,
                           rotationRate: lo.2 + (hi.2 - lo.2) * f)
    }
}

/// Consecutive frames with no gap between them (see `FrameBuilder`'s gap policy).
public struct FrameSegment: Sendable, Equatable {
    /// Grid index of the first frame.
    public var firstIndex: Int
    /// Time of the first frame (s); frame i is at `startTime + i / rate` on the grid.
    public var startTime: Seconds
    /// The frames, one per grid point.
    public var frames: [MotionFrame]
    /// A segment of `frames` starting at grid index `firstIndex`, time `startTime` (s).
    public init(firstIndex: Int, startTime: Seconds, frames: [MotionFrame]) {
        self.firstIndex = firstIndex; self.startTime = startTime; self.frames = frames
    }
}
