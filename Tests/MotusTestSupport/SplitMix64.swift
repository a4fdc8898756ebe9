import MotusCore

/// Deterministic pseudo-random numbers (SplitMix64) for synthetic test inputs: the stream
/// depends only on the seed, on every platform. Shared by the test targets (not a product).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [a, b) through the standard library's `Double.random(in:using:)`.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { Double.random(in: a..<b, using: &self) }

    /// Standard normal (Box–Muller, one value per two uniforms).
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * Math.log(u)).squareRoot() * Math.cos(2 * Double.pi * v)
    }

    /// Three independent normals scaled by `sigma`.
    public mutating func vector(_ sigma: Double) -> Vector3 { Vector3(gaussian() * sigma, gaussian() * sigma, gaussian() * sigma) }
}
