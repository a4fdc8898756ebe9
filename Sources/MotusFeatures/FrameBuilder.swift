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
///   CoreMotion or Android gravity sensor); otherwise `AttitudeFilter` on the acceleration and the
///   latest rotation rate; without any rotation rate, `LowPassGravity`. The filters run only
///   while no fresh gravity is given, with the time step between consecutive driver samples.
/// - Rotation rate: the latest sample at or before the driver sample (sample and hold: a live
///   app knows nothing newer), zero before the first.
/// - A driver sample whose values or time are not finite, or whose time is not after the
///   previous driver sample's, is rejected (counted in `rejected`), and nothing changes.
///
/// **Frames** come from the driver samples by `StreamingResampler`: grid point k at k / rate
/// (origin 0, so every recording and every session shares one grid), each value interpolated
/// linearly between the two driver samples around it. **Gap policy**: no frame is interpolated
/// across an interval longer than `maximumGapSeconds`; the frames after such a gap start a new
/// segment (`startsSegment`), and windows restart there, in training as live.
///
/// One push allocates nothing; frames of the last push are computed on demand.
public struct FrameBuilder: Sendable {
    /// Settings: the frame rate and gap policy, and how gravity is estimated when not given.
    public struct Settings: Sendable, Hashable, Codable {
        /// Frame rate (Hz): a model's `features.rateHz`.
        public var rateHz: Double
        /// Longest interval between driver samples (s) that frames are interpolated across;
        /// a longer one splits the frames into segments. The default bridges the packet
        /// losses and scheduling jitter real devices show while walking (a few tens of
        /// milliseconds, up to a few hundred for a lossy wireless IMU), at most about a step
        /// at walking cadence, and splits at anything longer.
        public var maximumGapSeconds: Double
        /// How old (s) the latest gravity sample may be and still be used for a driver sample;
        /// older, the attitude filter takes over.
        public var gravityHoldSeconds: Double
        /// The attitude filter used when gravity is not given and a rotation rate is.
        public var fusion: AttitudeFilter.Settings
        /// The accelerometer-only estimate used when neither gravity nor rotation rate is given.
        public var lowPass: LowPassGravity.Settings

        public init(rateHz: Double = 50, maximumGapSeconds: Double = Settings.defaultMaximumGapSeconds, gravityHoldSeconds: Double = 0.5,
                    fusion: AttitudeFilter.Settings = .default, lowPass: LowPassGravity.Settings = .default) {
            self.rateHz = rateHz; self.maximumGapSeconds = maximumGapSeconds; self.gravityHoldSeconds = gravityHoldSeconds
            self.fusion = fusion; self.lowPass = lowPass
        }

        /// The gap policy's default (s).
        public static let defaultMaximumGapSeconds = 0.5
    }

    /// Where the gravity of the latest driver sample came from.
    public enum GravitySource: String, Sendable, Hashable {
        case none, given, attitudeFilter, lowPass
    }

    public let settings: Settings
    private var resampler: StreamingResampler
    private var attitude: AttitudeFilter
    private var lowPass: LowPassGravity

    private var gyroLatest = Vector3.zero
    private var gravityLatest = Vector3.zero
    private var gravityTime = -Double.infinity
    private var driverTime = -Double.infinity
    private var fusionTime = -Double.infinity
    /// False after a rejected driver sample: the resampler's outputs are then an older push's.
    private var framesValid = false

    /// True once a rotation-rate sample has been pushed.
    public private(set) var hasRotationRate = false
    /// True once a raw acceleration sample has been pushed (user acceleration is ignored from then on).
    public private(set) var hasRawAcceleration = false
    /// Driver samples rejected (not finite, or not after the previous one).
    public private(set) var rejected = 0
    /// Driver samples accepted.
    public private(set) var driverSamples = 0
    /// The latest accepted driver sample: acceleration with gravity (m/s²), gravity (m/s²), time (s).
    public private(set) var lastAcceleration = Vector3.zero
    public private(set) var lastGravity = Vector3.zero
    public private(set) var lastTime = -Double.infinity
    public private(set) var gravitySource = GravitySource.none

    public init(settings: Settings) {
        precondition(settings.rateHz.isFinite && settings.rateHz > 0, "FrameBuilder: rateHz must be finite and > 0")
        precondition(settings.maximumGapSeconds > 0, "FrameBuilder: maximumGapSeconds must be > 0")
        self.settings = settings
        resampler = StreamingResampler(width: 9, settings: ResamplerSettings(rateHz: settings.rateHz, originSeconds: 0,
                                                                             maxGapSeconds: settings.maximumGapSeconds),
                                       interpolation: .linear)
        attitude = AttitudeFilter(settings: settings.fusion)
        lowPass = LowPassGravity(settings: settings.lowPass)
    }

    // MARK: Inputs

    /// Rotation rate (rad/s), held until the next one. Non-finite samples are ignored.
    public mutating func pushRotationRate(_ w: Vector3, time: Double) {
        guard w.isFinite else { return }
        gyroLatest = w; hasRotationRate = true
    }

    /// Gravity in the device frame, pointing up (m/s², Android sign). Non-finite samples are ignored.
    public mutating func pushGravity(_ g: Vector3, time: Double) {
        guard g.isFinite, time.isFinite else { return }
        gravityLatest = g; gravityTime = time
    }

    /// Raw acceleration, gravity included (m/s², Android sign). Returns true when the sample was
    /// accepted as a driver sample; its frames (possibly none) are then `frameCount` …
    @discardableResult
    public mutating func pushAcceleration(_ a: Vector3, time t: Double) -> Bool {
        hasRawAcceleration = true
        guard a.isFinite, t.isFinite, t > driverTime else { rejected += 1; framesValid = false; return false }
        if t - gravityTime <= settings.gravityHoldSeconds {
            gravitySource = .given
            drive(a, gravityLatest, t)
        } else {
            let dt = fusionTime.isFinite ? t - fusionTime : 0
            let g: Vector3
            if hasRotationRate {
                attitude.update(acceleration: a, rotationRate: gyroLatest, dt: dt)
                g = attitude.gravity; gravitySource = .attitudeFilter
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
    public mutating func pushUserAcceleration(_ u: Vector3, time t: Double) -> Bool {
        guard !hasRawAcceleration, gravityTime.isFinite else { framesValid = false; return false }
        guard u.isFinite, t.isFinite, t > driverTime else { rejected += 1; framesValid = false; return false }
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

    private mutating func drive(_ a: Vector3, _ g: Vector3, _ t: Double) {
        driverTime = t
        driverSamples += 1
        framesValid = true
        lastAcceleration = a; lastGravity = g; lastTime = t
        let w = gyroLatest
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 9) { p in
            p[0] = a.x; p[1] = a.y; p[2] = a.z
            p[3] = g.x; p[4] = g.y; p[5] = g.z
            p[6] = w.x; p[7] = w.y; p[8] = w.z
            resampler.push(time: t, UnsafeBufferPointer(p))
        }
    }

    // MARK: Frames of the last driver sample

    /// Frames completed by the last accepted driver sample (0 after a rejected one).
    public var frameCount: Int { framesValid ? resampler.outputCount : 0 }
    /// True when the first of those frames starts a new segment (the first frame ever, or the
    /// first after a gap longer than `maximumGapSeconds`).
    public var startsSegment: Bool { resampler.outputStartsSegment }
    /// Grid index of frame `j` (time = index / rate).
    public func frameIndex(_ j: Int) -> Int { resampler.outputIndex(j) }
    /// Time of frame `j` (s).
    public func frameTime(_ j: Int) -> Double { resampler.outputTime(j) }
    /// Frame `j` of the last push, 0 ≤ j < `frameCount`.
    public func frame(_ j: Int) -> MotionFrame {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 9) { p in
            resampler.output(j, into: p)
            return MotionFrame(acceleration: Vector3(p[0], p[1], p[2]), gravity: Vector3(p[3], p[4], p[5]),
                               rotationRate: Vector3(p[6], p[7], p[8]))
        }
    }

    // MARK: Batch

    /// The streams the frames read, in the order pushed when timestamps are equal.
    public static let inputKinds: [StreamKind] = [.gravity, .rotationRate, .acceleration, .userAcceleration]

    /// The frames of a whole recording, by the same pushes a live session makes (samples in
    /// time order, ties in `inputKinds` order), cut into segments at the gaps.
    public static func frames(of recording: Recording, settings: Settings) -> [FrameSegment] {
        var b = FrameBuilder(settings: settings)
        var merge = SampleMerge(recording, kinds: inputKinds)
        var out: [FrameSegment] = []
        var current: FrameSegment? = nil
        while let (s, i, t) = merge.next() {
            let stream = merge.streams[s]
            switch stream.kind {
            case .gravity: b.pushGravity(stream.vector(i), time: t); continue
            case .rotationRate: b.pushRotationRate(stream.vector(i), time: t); continue
            case .acceleration: guard b.pushAcceleration(stream.vector(i), time: t) else { continue }
            case .userAcceleration: guard b.pushUserAcceleration(stream.vector(i), time: t) else { continue }
            default: continue
            }
            let n = b.frameCount
            guard n > 0 else { continue }
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

/// Consecutive frames with no gap between them (see `FrameBuilder`'s gap policy).
public struct FrameSegment: Sendable, Equatable {
    /// Grid index of the first frame.
    public var firstIndex: Int
    /// Time of the first frame (s); frame i is at `startTime + i / rate` on the grid.
    public var startTime: Double
    public var frames: [MotionFrame]
    public init(firstIndex: Int, startTime: Double, frames: [MotionFrame]) {
        self.firstIndex = firstIndex; self.startTime = startTime; self.frames = frames
    }
}
