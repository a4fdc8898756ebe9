import MotusCore

/// Heading from a magnetometer on top of an inclination-corrected attitude, with magnetic
/// disturbance rejection: the 9D part of `OrientationFilter`.
///
/// The 6D attitude (`OrientationFilter` without a magnetometer) is right in inclination and
/// follows the gyroscope in heading from an arbitrary start. This estimator keeps one number,
/// the heading offset δ: the rotation about the vertical that turns the 6D reference frame so
/// that the horizontal part of the magnetic field points along +y (magnetic north in an
/// east-north-up frame).
///
/// - Each sample's field, turned into the 6D reference frame, gives a measured offset; δ
///   follows it through a first-order low-pass of time constant `timeConstant` (the gyroscope
///   carries the heading in between, so a short magnetic disturbance moves it little).
/// - **Disturbance rejection.** The field's magnitude and its dip (angle below the horizontal)
///   are compared with a reference learned from undisturbed samples. Outside
///   `normTolerance` (a fraction) or `dipTolerance` (rad) the sample is disturbed and not
///   used: near iron or a magnet the field changes its magnitude or its dip long before an
///   error in heading could be seen.
/// - **A new environment.** When the field stays disturbed but steady in the reference frame
///   (magnitude, dip and horizontal direction within the tolerances of a candidate) while the
///   device turns (faster than `newFieldMinimumRate`) for `newFieldTime` in all, the candidate
///   becomes the reference: the device has moved, not the disturbance. Turning is what tells
///   an environment's field (fixed in the reference frame) from a magnet carried with the
///   device (fixed in the device frame, so it turns in the reference frame).
/// - **Start-up.** The first sample sets δ and the reference; during the first
///   `timeConstant` the low-pass is a running mean, so the heading settles fast.
@frozen
public struct HeadingEstimator: Sendable, Hashable {
    /// Tuning values, with units.
    @frozen
    public struct Settings: Sendable, Hashable, Codable {
        /// Time constant (s) with which the heading follows the magnetometer. Default 9 s.
        public var timeConstant: Double = 9
        /// Largest relative change of the field's magnitude that still counts as undisturbed.
        /// Default 0.1.
        public var normTolerance: Double = 0.1
        /// Largest change of the field's dip (rad) that still counts as undisturbed. Default 10°.
        public var dipTolerance: Double = 10 * Math.radiansPerDegree
        /// How long (s) a disturbed but steady field must last to become the new reference.
        /// Default 20 s.
        public var newFieldTime: Double = 20
        /// Rotation rate (rad/s) above which time counts towards `newFieldTime`. Default 20°/s.
        public var newFieldMinimumRate: Double = 20 * Math.radiansPerDegree
        /// Time constant (s) with which the reference magnitude and dip follow undisturbed
        /// samples. Default 10 s.
        public var referenceTimeConstant: Double = 10
        public init() {}
    }

    public var settings: Settings
    /// Heading offset δ (rad): rotation about the vertical from the 6D reference frame to the
    /// magnetic one.
    public private(set) var offset: Double = 0
    /// Whether a sample has set the offset.
    public private(set) var isInitialised = false
    /// The latest sample was disturbed (not used).
    public private(set) var disturbed = false
    /// Reference magnitude (µT) and dip (rad) of the undisturbed field.
    public private(set) var referenceNorm: Double = 0
    public private(set) var referenceDip: Double = 0
    @usableFromInline var candidateNorm: Double = 0
    @usableFromInline var candidateDip: Double = 0
    @usableFromInline var candidateTime: Double = 0
    @usableFromInline var candidateOffset: Double = 0
    @usableFromInline var elapsed: Double = 0
    @usableFromInline var samples: Double = 0
    /// Running sums of the offset's sine and cosine during start-up (a circular mean).
    @usableFromInline var startSin: Double = 0
    @usableFromInline var startCos: Double = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The heading rotation: about +z by `offset`.
    @inlinable public var rotation: Quaternion {
        Quaternion(w: Math.cos(offset / 2), x: 0, y: 0, z: Math.sin(offset / 2))
    }

    /// Updates the offset with one magnetometer sample `field` (µT, device frame), given the
    /// 6D attitude `attitude` (device → 6D reference frame) at that sample and the time step
    /// `dt` (s, 0 for the first); `rotationRate` (rad/s) is how fast the device turns. A
    /// non-finite or zero field is ignored.
    public mutating func update(field: Vector3, attitude: Quaternion, rotationRate: Double, dt: Double) {
        let norm = field.norm
        guard norm > 0, norm.isFinite else { return }
        let m = attitude.rotate(field)
        let horizontal = (m.x * m.x + m.y * m.y).squareRoot()
        guard horizontal > 0 else { disturbed = true; return }
        // Dip below the horizontal (positive where the field points down, as in the north).
        let dip = Math.atan2(-m.z, horizontal)
        // The rotation about z that takes the horizontal field onto +y.
        let measured = Math.atan2(m.x, m.y)
        let step = dt.isFinite && dt > 0 ? dt : 0
        guard isInitialised else {
            offset = measured
            referenceNorm = norm; referenceDip = dip
            candidateNorm = norm; candidateDip = dip; candidateOffset = measured
            startSin = Math.sin(measured); startCos = Math.cos(measured)
            samples = 1; elapsed = 0
            isInitialised = true; disturbed = false
            return
        }
        let s = settings
        disturbed = Swift.abs(norm - referenceNorm) > s.normTolerance * referenceNorm || Swift.abs(dip - referenceDip) > s.dipTolerance
        if disturbed {
            // A steady new field replaces the reference after `newFieldTime`.
            if Swift.abs(norm - candidateNorm) <= s.normTolerance * candidateNorm && Swift.abs(dip - candidateDip) <= s.dipTolerance
                && Swift.abs(Self.wrap(measured - candidateOffset)) <= s.dipTolerance {
                if rotationRate > s.newFieldMinimumRate { candidateTime += step }
            } else {
                candidateNorm = norm; candidateDip = dip; candidateOffset = measured; candidateTime = 0
            }
            if candidateTime >= s.newFieldTime {
                referenceNorm = candidateNorm; referenceDip = candidateDip
                candidateTime = 0
            }
            return
        }
        candidateNorm = norm; candidateDip = dip; candidateOffset = measured; candidateTime = 0
        let kr = s.referenceTimeConstant > 0 ? Swift.min(1, step / s.referenceTimeConstant) : 1
        referenceNorm += (norm - referenceNorm) * kr
        referenceDip += (dip - referenceDip) * kr
        elapsed += step
        if elapsed < s.timeConstant {
            // Start-up: the circular mean of the measured offsets so far.
            samples += 1
            startSin += Math.sin(measured); startCos += Math.cos(measured)
            offset = Math.atan2(startSin, startCos)
            return
        }
        let k = s.timeConstant > 0 ? Swift.min(1, step / s.timeConstant) : 1
        offset = Self.wrap(offset + k * Self.wrap(measured - offset))
    }

    /// `a` wrapped into (−π, π].
    @inlinable static func wrap(_ a: Double) -> Double {
        var x = a
        while x > Double.pi { x -= 2 * Double.pi }
        while x <= -Double.pi { x += 2 * Double.pi }
        return x
    }
}
