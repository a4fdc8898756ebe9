import MotusCore

/// Coefficients of a second-order Butterworth low-pass for one time step, in the
/// trapezoidal state-variable form (the "topology-preserving" SVF).
///
/// The filter is described by a time constant τ: its cut-off frequency is √2 / (2πτ), so that
/// the group delay at low frequencies is τ, as for a first-order low-pass of time constant τ,
/// while disturbances above the cut-off fall off twice as fast (40 dB per decade). The
/// state-variable form keeps its two states meaningful (the output and a scaled slope) when
/// the coefficients change, so a time step that changes from sample to sample (phone
/// timestamps jitter) needs no state conversion and causes no transient.
@frozen
public struct LowPassCoefficients: Sendable, Hashable {
    @usableFromInline var a1: Double
    @usableFromInline var a2: Double
    @usableFromInline var a3: Double

    /// Coefficients for time constant `tau` (s, > 0) and time step `dt` (s, > 0).
    @inlinable
    public init(timeConstant tau: Seconds, dt: Seconds) {
        // g = tan(π fc dt) with fc = √2 / (2π τ): tan(dt / (√2 τ)).
        let x = dt / (2.0.squareRoot() * tau)
        let g: Double
        if x < 0.1 {
            // tan by its series: below 0.1 the terms left out are under 1e-13 relative.
            let x2 = x * x
            g = x * (1 + x2 * (1.0 / 3 + x2 * (2.0 / 15 + x2 * (17.0 / 315))))
        } else {
            g = Math.sin(Swift.min(x, 1.5)) / Math.cos(Swift.min(x, 1.5))
        }
        let k = 2.0.squareRoot()
        a1 = 1 / (1 + g * (g + k))
        a2 = g * a1
        a3 = g * a2
    }
}

/// One channel of `LowPassCoefficients`' filter: two numbers of state.
@frozen
public struct LowPassState: Sendable, Hashable {
    /// The slope state (the band-pass integrator's memory).
    @usableFromInline var s1: Double
    /// The output state (the low-pass integrator's memory): the filtered value.
    @usableFromInline var s2: Double

    /// A filter resting at `value`.
    @inlinable public init(value: Double = 0) { s1 = 0; s2 = value }

    /// The filtered value.
    @inlinable public var value: Double { s2 }

    /// Filters `x` and returns the output.
    @inlinable @inline(__always)
    public mutating func step(_ x: Double, _ c: LowPassCoefficients) -> Double {
        let v3 = x - s2
        let v1 = c.a1 * s1 + c.a2 * v3
        let v2 = s2 + c.a2 * s1 + c.a3 * v3
        s1 = 2 * v1 - s1
        s2 = 2 * v2 - s2
        return v2
    }
}

/// Three channels of the filter, for a vector.
@frozen
public struct LowPassState3: Sendable, Hashable {
    @usableFromInline var x: LowPassState
    @usableFromInline var y: LowPassState
    @usableFromInline var z: LowPassState

    /// Three channels settled at `v`.
    @inlinable public init(value v: Vector3 = .zero) {
        x = LowPassState(value: v.x); y = LowPassState(value: v.y); z = LowPassState(value: v.z)
    }

    /// The filtered vector.
    @inlinable public var value: Vector3 { Vector3(x.value, y.value, z.value) }

    /// Filters one vector sample with coefficients `c`; returns the filtered vector.
    @inlinable @inline(__always)
    public mutating func step(_ v: Vector3, _ c: LowPassCoefficients) -> Vector3 {
        Vector3(x.step(v.x, c), y.step(v.y, c), z.step(v.z, c))
    }
}
