import MotusCore

/// A fast stillness test on fixed-rate frames: over the last `windowSeconds`, the standard
/// deviation of |a| (gravity included, so orientation-free) is below `maximumAccelerationStd`
/// and, when a gyroscope is present, the mean |ω| is below `maximumRotationRate`.
///
/// A phone carried by someone walking or running never passes: every step puts an impact of
/// 1–10 m/s² into |a|, and a swinging hand turns the phone by more than 1 rad/s. A phone in a
/// pocket or at the belt of someone standing reads 0.01–0.1 m/s².
///
/// Ring buffer of one window allocated at init; O(1) per frame (running sums, recomputed from
/// the buffer once per window so rounding cannot drift).
public struct StillnessDetector: Sendable {
    /// The window and thresholds; units on each property.
    public struct Settings: Sendable, Hashable, Codable {
        /// Window length (s).
        public var windowSeconds: Seconds = 0.5
        /// Largest standard deviation of |a| (m/s²) for a still window.
        public var maximumAccelerationStd: MetersPerSecondSquared = 0.2
        /// Largest mean |ω| (rad/s) for a still window (ignored without a gyroscope).
        public var maximumRotationRate: RadiansPerSecond = 0.5
        /// The defaults, as given on each property.
        public init() {}
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// The settings this detector runs with.
    public let settings: Settings
    var acc: [Double]
    var gyro: [Double]
    var head = 0
    var filled = 0
    var sum = 0.0, sumSq = 0.0, gyroSum = 0.0
    /// Standard deviation of |a| over the current window (m/s²).
    public private(set) var accelerationStd: MetersPerSecondSquared = .infinity
    /// Mean |ω| over the current window (rad/s).
    public private(set) var meanRotationRate: RadiansPerSecond = 0
    /// True when the latest full window is still.
    public private(set) var isStill = false

    /// A detector for frames at `rateHz` (Hz); it reports still only after one full window.
    public init(rateHz: Hertz, settings: Settings = .default) {
        precondition(rateHz > 0 && settings.windowSeconds > 0, "rate and window must be > 0")
        self.settings = settings
        let n = Swift.max(2, Int((settings.windowSeconds * rateHz).rounded()))
        acc = [Double](repeating: 0, count: n)
        gyro = [Double](repeating: 0, count: n)
    }

    /// Window length in frames.
    public var windowLength: Int { acc.count }

    /// Forgets the window (after a gap).
    public mutating func reset() {
        head = 0; filled = 0; sum = 0; sumSq = 0; gyroSum = 0
        accelerationStd = .infinity; meanRotationRate = 0; isStill = false
    }

    /// Adds one frame: |a| (m/s²) and |ω| (rad/s, 0 without a gyroscope). Returns `isStill`.
    @discardableResult
    public mutating func push(accelerationMagnitude m: MetersPerSecondSquared, rotationRateMagnitude w: RadiansPerSecond) -> Bool {
        let n = acc.count
        let x = m - Units.standardGravity      // centred: small squares, no cancellation
        if filled == n {
            let old = acc[head], oldW = gyro[head]
            sum -= old; sumSq -= old * old; gyroSum -= oldW
        } else {
            filled += 1
        }
        acc[head] = x; gyro[head] = w
        sum += x; sumSq += x * x; gyroSum += w
        head += 1
        if head == n {
            head = 0
            // Exact sums once per window (no drift over hours).
            var s = 0.0, q = 0.0, g = 0.0
            for i in 0..<filled { s += acc[i]; q += acc[i] * acc[i]; g += gyro[i] }
            sum = s; sumSq = q; gyroSum = g
        }
        guard filled == n else { isStill = false; return false }
        let k = Double(n)
        let mean = sum / k
        accelerationStd = Swift.max(0, sumSq / k - mean * mean).squareRoot()
        meanRotationRate = gyroSum / k
        isStill = accelerationStd <= settings.maximumAccelerationStd && meanRotationRate <= settings.maximumRotationRate
        return isStill
    }
}
