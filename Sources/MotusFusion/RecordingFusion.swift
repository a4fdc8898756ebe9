import MotusCore

/// Motus's own estimate of gravity, user acceleration and attitude for a whole recording,
/// in place of whatever estimate the recording already carried: the library side of
/// `motus fuse`.
///
/// `FusionPipeline.complete` only fills in what is missing. Here the point is to check
/// Motus's estimate, so the input's own estimates (CoreMotion's `gravity`,
/// `userAcceleration` and `attitude`, Android's gravity sensor or rotation vector: every
/// stream of kind gravity, user acceleration or attitude) are taken out first and Motus's
/// are written under the kinds' short names (`grav`, `uacc`, `att`). A measured reference
/// (a stream whose name starts with `reference`, such as BROAD's optical motion capture) is
/// ground truth, not an estimate: it is kept as it is, so the output can be compared with it.
public enum RecordingFusion {
    /// What `fuse` did.
    public struct Result: Sendable, Hashable {
        /// The estimator used: `.orientationFilter` with a rotation-rate stream, `.lowPass`
        /// (accelerometer only: no attitude) without one.
        public var method: FusionPipeline.Method
        /// The filter settings used (meaningful for `.orientationFilter`).
        public var settings: OrientationFilter.Settings
        /// Live (causal) or offline (forwards and backwards in time).
        public var mode: FusionPipeline.Mode
        /// True when the attitude's heading came from a magnetic-field stream (live mode).
        public var magneticHeading: Bool
        /// True when the rotation rate was taken as already free of gyroscope bias (the
        /// device's own fusion output, see `rotationRateIsBiasCorrected`), so the filter does
        /// not learn a bias at rest.
        public var biasCorrectedRotationRate: Bool
        /// True when the recording had no raw acceleration and it was rebuilt as
        /// gravity + user acceleration (device motion only).
        public var accelerationRebuilt: Bool
        /// Names of the input's streams that Motus's estimate replaced, in input order.
        public var replaced: [String]
        /// Names of the streams Motus wrote (`grav`, `uacc` and, with a gyroscope, `att`).
        public var written: [String]
        /// Number of acceleration samples (each written stream has this many).
        public var samples: Int
    }

    /// True for the streams `fuse` replaces: every gravity, user-acceleration or attitude
    /// stream that is not a measured reference (name starting with `reference`).
    public static func isDeviceEstimate(_ s: SensorStream) -> Bool {
        (s.kind == .gravity || s.kind == .userAcceleration || s.kind == .attitude) && !s.isMeasuredReference
    }

    /// Whether a recording's rotation rate is a device fusion's output, already corrected for
    /// gyroscope bias: the reader says so (`extra["gyro"]` mentions `bias-corrected`), or the
    /// acceleration was rebuilt from device motion (`extra["acc"]` starts with `derived`:
    /// then the file held no raw sensor at all, as in MotionSense's and mPower's device
    /// motion).
    public static func rotationRateIsBiasCorrected(_ metadata: RecordingMetadata) -> Bool {
        let derived = metadata.extra["acc"]?.hasPrefix("derived") ?? false
        let corrected = metadata.extra["gyro"]?.contains("bias-corrected") ?? false
        return derived || corrected
    }

    /// Replaces the recording's gravity, user acceleration and attitude by Motus's estimate
    /// (see the type's documentation), running `FusionPipeline.complete` on its acceleration
    /// and rotation rate.
    ///
    /// - `mode`: live (causal, as an app gets it; heading from the magnetometer when there is a
    ///   magnetic-field stream) or offline (forwards and backwards in time; no magnetometer).
    /// - `settings`: the attitude filter's settings; nil chooses `.biasCorrectedGyroscope`
    ///   when `rotationRateIsBiasCorrected` (after a rebuild of the acceleration, too), else
    ///   `.default`.
    /// - Without an acceleration stream but with gravity and user acceleration, the
    ///   acceleration is rebuilt as their sum (`Recording.deviceMotionAcceleration`: each user
    ///   sample with the latest gravity, as a session pairs them; kept in the output as `acc`,
    ///   and `metadata.extra["acc"]` says so), as Motus's dataset readers do for device motion.
    /// - Without a rotation-rate stream, gravity comes from the accelerometer alone
    ///   (`LowPassGravity`) and no attitude is written: its heading would mean nothing.
    ///
    /// Throws `.missingColumn` (at `source`) when there is no acceleration to work from, and
    /// `.badValue` when a sample is not finite (a filter fed NaN gives NaN from then on).
    public static func fuse(_ recording: inout Recording, settings: OrientationFilter.Settings? = nil, mode: FusionPipeline.Mode = .live,
                            source: String) throws(InputError) -> Result {
        let here = SourceLocation(file: source)
        let have = recording.streams.isEmpty ? "no stream" : "streams " + recording.streams.map(\.name).joined(separator: ", ")
        var rebuilt = false
        if recording.stream(.acceleration).map({ $0.isEmpty }) ?? true {
            // Device motion only: raw acceleration = gravity + user acceleration.
            if let sum = recording.deviceMotionAcceleration, !sum.isEmpty {
                recording.streams.removeAll { $0.kind == .acceleration }
                recording.streams.append(sum)
                recording.metadata.extra["acc"] = "derived: gravity + userAcceleration"
                rebuilt = true
            } else {
                throw InputError(.missingColumn, at: here, found: have,
                                 expected: "an acceleration stream 'acc' (gravity included), or gravity and user acceleration")
            }
        }
        for kind in [StreamKind.acceleration, .rotationRate] {
            guard let s = recording.stream(kind) else { continue }
            if let i = s.values.firstIndex(where: { !$0.isFinite }) {
                throw InputError(.badValue, at: here, found: "\(s.values[i]) in stream '\(s.name)' at \(s.times[i / s.width]) s",
                                 expected: "finite \(kind.title) values")
            }
        }
        let biasCorrected = rotationRateIsBiasCorrected(recording.metadata)
        let chosen = settings ?? (biasCorrected ? .biasCorrectedGyroscope : .default)
        let replaced = recording.streams.filter(isDeviceEstimate).map(\.name)
        recording.streams.removeAll(where: isDeviceEstimate)
        // `complete` adds only the kinds it does not find, and would take a measured reference
        // for an attitude already there: the references stand aside while it runs.
        let isReference = { (s: SensorStream) in s.kind == .gravity || s.kind == .userAcceleration || s.kind == .attitude }
        let references = recording.streams.filter(isReference)
        recording.streams.removeAll(where: isReference)
        let method = FusionPipeline.complete(&recording, settings: chosen, mode: mode)
        recording.streams += references
        let magnetic = method == .orientationFilter && mode == .live && !(recording.stream(.magneticField)?.isEmpty ?? true)
        let written = [StreamKind.gravity, .userAcceleration, .attitude].map(\.rawValue).filter { recording.stream(named: $0) != nil }
        return Result(method: method, settings: chosen, mode: mode, magneticHeading: magnetic, biasCorrectedRotationRate: biasCorrected, accelerationRebuilt: rebuilt,
                      replaced: replaced, written: written, samples: recording.stream(.acceleration)?.count ?? 0)
    }
}
