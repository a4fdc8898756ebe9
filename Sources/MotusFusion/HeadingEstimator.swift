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
        public var timeConstant: Seconds = 9
        /// Largest relative change of the field's magnitude that still counts as undisturbed.
        /// Default 0.1.
        public var normTolerance: Double = 0.1
        /// Largest change of the field's dip (rad) that still counts as undisturbed. Default 10°.
        public var dipTolerance: Radians = 10 * Math.radiansPerDegree
        /// How long (s) a disturbed but steady field must last to become the new reference.
        /// Default 20 s.
        public var newFieldTime: Seconds = 20
        /// Rotation rate (rad/s) above which time counts towards `newFieldTime`. Default 20°/s.
        public var newFieldMinimumRate: RadiansPerSecond = 20 * Math.radiansPerDegree
        /// Time constant (s) with which the reference magnitude and dip follow undisturbed
        /// samples. Default 10 s.
        public var referenceTimeConstant: Seconds = 10
        /// The defaults, as given on each property.
        public init() {}
    }

    /// The tolerances and time constants it runs with.
    public var settings: Settings {
        didSet { setInverses() }
    }
    /// 1 / `timeConstant` and 1 / `referenceTimeConstant` (1/s; infinite for a time constant
    /// of 0, which means no low-pass), kept with the settings: no division per sample.
    @usableFromInline var inverseTimeConstant: Double = 0
    @usableFromInline var inverseReferenceTimeConstant: Double = 0
    /// The previous inverse square roots (Newton starting points).
    @usableFromInline var lastInverseNorm: Double = 0
    @usableFromInline var lastInverseHorizontal: Double = 0
    @usableFromInline var offsetInverseHalfCos: Double = 1
    /// The heading offset as a unit vector (cos δ, sin δ): filtering on the circle needs no
    /// trigonometry per sample.
    @usableFromInline var offsetCos: Double = 1
    @usableFromInline var offsetSin: Double = 0
    /// `rotation`, kept with the offset.
    @usableFromInline var offsetRotation: Quaternion = .identity
    /// Whether a sample has set the offset.
    public private(set) var isInitialised = false
    /// The latest sample was disturbed (not used).
    public private(set) var disturbed = false
    /// Reference magnitude (µT) of the undisturbed field.
    public private(set) var referenceNorm: Microteslas = 0
    /// Sine of the undisturbed field's dip (its angle below the horizontal).
    public private(set) var referenceDipSine: Double = 0
    @usableFromInline var candidateNorm: Double = 0
    @usableFromInline var candidateDipSine: Double = 0
    @usableFromInline var candidateCos: Double = 1
    @usableFromInline var candidateSin: Double = 0
    @usableFromInline var candidateTime: Double = 0
    @usableFromInline var elapsed: Double = 0
    /// Sums of the offset directions during start-up (a circular mean).
    @usableFromInline var startCos: Double = 0
    @usableFromInline var startSin: Double = 0

    /// An estimator that has seen no field.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        setInverses()
    }

    @usableFromInline mutating func setInverses() {
        inverseTimeConstant = settings.timeConstant > 0 ? 1 / settings.timeConstant : .infinity
        inverseReferenceTimeConstant = settings.referenceTimeConstant > 0 ? 1 / settings.referenceTimeConstant : .infinity
    }

    /// Heading offset δ (rad, in (−π, π]): rotation about the vertical from the 6D reference
    /// frame to the magnetic one.
    public var offset: Radians { Math.atan2(offsetSin, offsetCos) }

    /// The heading rotation: about +z by `offset`.
    @inlinable public var rotation: Quaternion { offsetRotation }

    /// Updates the offset with one magnetometer sample `field` (µT, device frame), given the
    /// 6D attitude `attitude` (device → 6D reference frame) at that sample and the time step
    /// `dt` (s, 0 for the first); `rotationRate` (rad/s, device frame) is how the device turns.
    /// A non-finite or zero field is ignored.
    public mutating func update(field: Vector3, attitude: Quaternion, rotationRate: Vector3, dt: Seconds) {
        let norm2 = field.squaredNorm
        guard norm2 > 0, norm2.isFinite else { return }
        // The field's magnitude and its horizontal part change slowly from sample to sample:
        // their inverse square roots come from the previous ones by one Newton step.
        let inverseNorm = Self.inverseSquareRoot(norm2, near: lastInverseNorm)
        lastInverseNorm = inverseNorm
        let norm = norm2 * inverseNorm
        let m = attitude.rotate(field)
        let h2 = m.x * m.x + m.y * m.y
        guard h2 > 0 else { disturbed = true; return }
        let inverseHorizontal = Self.inverseSquareRoot(h2, near: lastInverseHorizontal)
        lastInverseHorizontal = inverseHorizontal
        // The rotation about z that takes the horizontal field onto +y, as (cos, sin); the
        // sine of the dip below the horizontal (positive where the field points down).
        let c = m.y * inverseHorizontal, sn = m.x * inverseHorizontal
        let dipSine = -m.z * inverseNorm
        let step = dt.isFinite && dt > 0 ? dt : 0
        guard isInitialised else {
            setOffset(c, sn)
            referenceNorm = norm; referenceDipSine = dipSine
            candidateNorm = norm; candidateDipSine = dipSine; candidateCos = c; candidateSin = sn
            startCos = c; startSin = sn
            elapsed = 0
            isInitialised = true; disturbed = false
            return
        }
        let s = settings
        disturbed = Swift.abs(norm - referenceNorm) > s.normTolerance * referenceNorm || !Self.sameDip(dipSine, referenceDipSine, s.dipTolerance)
        if disturbed {
            // A steady new field, fixed in the reference frame while the device turns,
            // replaces the reference after `newFieldTime`.
            if Swift.abs(norm - candidateNorm) <= s.normTolerance * candidateNorm && Self.sameDip(dipSine, candidateDipSine, s.dipTolerance)
                && c * candidateCos + sn * candidateSin >= Math.cos(s.dipTolerance) {
                if rotationRate.squaredNorm > s.newFieldMinimumRate * s.newFieldMinimumRate { candidateTime += step }
            } else {
                candidateNorm = norm; candidateDipSine = dipSine; candidateCos = c; candidateSin = sn; candidateTime = 0
            }
            if candidateTime >= s.newFieldTime {
                referenceNorm = candidateNorm; referenceDipSine = candidateDipSine
                candidateTime = 0
            }
            return
        }
        candidateNorm = norm; candidateDipSine = dipSine; candidateCos = c; candidateSin = sn; candidateTime = 0
        let kr = inverseReferenceTimeConstant.isFinite ? Swift.min(1, step * inverseReferenceTimeConstant) : 1
        referenceNorm += (norm - referenceNorm) * kr
        referenceDipSine += (dipSine - referenceDipSine) * kr
        elapsed += step
        if elapsed < s.timeConstant {
            // Start-up: the circular mean of the measured offsets so far.
            startCos += c; startSin += sn
            let r = (startCos * startCos + startSin * startSin).squareRoot()
            if r > 0 { setOffset(startCos / r, startSin / r) }
            return
        }
        // The first-order low-pass on the circle: a step of k towards the measured direction,
        // back onto the unit circle by one Newton step (k is small, so the norm stays near 1).
        let k = inverseTimeConstant.isFinite ? Swift.min(1, step * inverseTimeConstant) : 1
        let x = offsetCos + k * (c - offsetCos), y = offsetSin + k * (sn - offsetSin)
        let n = 1.5 - 0.5 * (x * x + y * y)
        setOffset(x * n, y * n)
    }

    /// Whether two dips, given by their sines, differ by at most `tolerance` (rad): to first
    /// order the sines differ by the angle times the cosine of the dip.
    @inlinable static func sameDip(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
        // |a − b| ≤ tolerance·√(1 − b²), squared: no square root.
        (a - b) * (a - b) <= tolerance * tolerance * Swift.max(0, 1 - b * b)
    }

    /// 1/√x by one Newton step from `y0`, a value close to it, and exactly when that step does
    /// not land within 1e-9 (the first sample, a jump).
    @inlinable static func inverseSquareRoot(_ x: Double, near y0: Double) -> Double {
        let y = y0 * (1.5 - 0.5 * x * y0 * y0)
        return Swift.abs(x * y * y - 1) > 1e-9 ? 1 / x.squareRoot() : y
    }

    /// Sets the offset direction and its rotation quaternion (the half angle of (c, s)).
    @usableFromInline mutating func setOffset(_ c: Double, _ s: Double) {
        offsetCos = c; offsetSin = s
        // cos(δ/2) = √((1 + c)/2), sin(δ/2) = s / (2 cos(δ/2)), through 1/cos(δ/2).
        let w2 = (1 + c) / 2
        if w2 > 1e-12 {
            let y = Self.inverseSquareRoot(w2, near: offsetInverseHalfCos)
            offsetInverseHalfCos = y
            offsetRotation = Quaternion(w: w2 * y, x: 0, y: 0, z: 0.5 * s * y)
        } else {
            offsetRotation = Quaternion(w: 0, x: 0, y: 0, z: 1)
        }
    }
}
