import MotusCore
import MotusSignal

/// The signal a step's swing (its peak-to-peak, the input of Weinberg's stride model) is
/// measured on: the norm of the acceleration after a 4th-order Butterworth low-pass of each
/// axis. Every step counter here measures a step's swing on it (the range between the step and
/// the one before), so a step has one swing whichever counter found it and whatever rate the
/// device samples at. Low-passing the axes before taking the norm leaves out what only a fast
/// device samples: the norm of the raw axes folds the heel strike's impact (tens of hertz) into
/// the step band, and a device at 25–50 Hz, its anti-alias filter before it, never sees that
/// impact. The steep fourth order leaves out the harmonics above the step rate that a 15 Hz
/// device loses. `benchmarks/README.md` ("A step's swing measured alike at every rate") gives
/// the figures. Causal, five multiplications per section and axis; allocates nothing.
public struct StepSwingFilter: Sendable {
    var x1: Biquad, x2: Biquad, y1: Biquad, y2: Biquad, z1: Biquad, z2: Biquad
    /// How far (s) the filter's output lags the step band: its group delay at low frequencies,
    /// Σ 1 / (Q ωc) over its sections (0.14 s at 3 Hz). A walk's first step shows its own rise
    /// on the swing signal only that long after its peak (`VerticalStepStream` reads a peak's
    /// swing through it there).
    public let delaySeconds: Seconds

    /// The filter for a signal at `sampleRateHz`, cut off at `cutoffHz`. Precondition:
    /// 0 < cutoff < rate / 2.
    public init(cutoffHz: Hertz, sampleRateHz: Hertz) {
        let s = Biquad.butterworthLowPassSections(order: 4, cutoffHz: cutoffHz, sampleRateHz: sampleRateHz)
        x1 = s[0]; x2 = s[1]; y1 = s[0]; y2 = s[1]; z1 = s[0]; z2 = s[1]
        // 1 / Q of the two sections: 2 cos(π / 8) and 2 cos(3π / 8).
        delaySeconds = 2 * (Math.cos(Double.pi / 8) + Math.cos(3 * Double.pi / 8)) / (2 * Double.pi * cutoffHz)
    }

    /// Sets the state to the steady state for a constant input `a` (no ringing at the start).
    public mutating func prime(with a: Vector3) {
        x1.prime(with: a.x); x2.prime(with: a.x)
        y1.prime(with: a.y); y2.prime(with: a.y)
        z1.prime(with: a.z); z2.prime(with: a.z)
    }

    /// Filters one sample (m/s²); returns the norm of the low-passed acceleration.
    public mutating func process(_ a: Vector3) -> MetersPerSecondSquared {
        let x = x2.process(x1.process(a.x)), y = y2.process(y1.process(a.y)), z = z2.process(z1.process(a.z))
        return (x * x + y * y + z * z).squareRoot()
    }
}
