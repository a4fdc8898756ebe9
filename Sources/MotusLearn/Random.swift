#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// xoshiro256** seeded through SplitMix64: a small, fast PRNG whose stream depends only on the seed,
/// on every platform, so fits are bit-for-bit reproducible. Not for cryptography.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var sm = seed
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&sm); s1 = splitMix(&sm); s2 = splitMix(&sm); s3 = splitMix(&sm)
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    @inlinable
    public mutating func nextUniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform integer in 0..<n (n > 0), by rejection (no modulo bias, platform-independent).
    @inlinable
    public mutating func nextInt(below n: Int) -> Int {
        precondition(n > 0)
        let bound = UInt64(n)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let x = next()
            if x < limit { return Int(x % bound) }
        }
    }

    /// Standard normal by Box–Muller (uses two uniforms per call; deterministic).
    public mutating func nextNormal() -> Double {
        var u1 = nextUniform()
        while u1 <= 0 { u1 = nextUniform() }
        let u2 = nextUniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Fisher–Yates shuffle that depends only on this generator (unlike `Array.shuffle(using:)`,
    /// whose algorithm the standard library does not promise to keep).
    public mutating func shuffle<T>(_ a: inout [T]) {
        var i = a.count - 1
        while i > 0 {
            let j = nextInt(below: i + 1)
            if i != j { a.swapAt(i, j) }
            i -= 1
        }
    }

    /// A permutation of 0..<n.
    public mutating func permutation(_ n: Int) -> [Int] {
        var p = Array(0..<n)
        shuffle(&p)
        return p
    }
}
