#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's elementary functions under one name, so that hot code needs no Foundation.
public enum Math {
    /// Sine of `x` (radians).
    @inlinable public static func sin(_ x: Radians) -> Double {
        #if canImport(Darwin)
        Darwin.sin(x)
        #else
        Glibc.sin(x)
        #endif
    }
    /// Cosine of `x` (radians).
    @inlinable public static func cos(_ x: Radians) -> Double {
        #if canImport(Darwin)
        Darwin.cos(x)
        #else
        Glibc.cos(x)
        #endif
    }
    /// Angle of the point (x, y) from the x axis, radians in [−π, π]: `atan2(y, x)`.
    @inlinable public static func atan2(_ y: Double, _ x: Double) -> Radians {
        #if canImport(Darwin)
        Darwin.atan2(y, x)
        #else
        Glibc.atan2(y, x)
        #endif
    }
    /// Arc cosine (radians in [0, π]).
    @inlinable public static func acos(_ x: Double) -> Radians {
        #if canImport(Darwin)
        Darwin.acos(Swift.min(1, Swift.max(-1, x)))
        #else
        Glibc.acos(Swift.min(1, Swift.max(-1, x)))
        #endif
    }
    /// Arc sine (radians in [−π/2, π/2]).
    @inlinable public static func asin(_ x: Double) -> Radians {
        #if canImport(Darwin)
        Darwin.asin(Swift.min(1, Swift.max(-1, x)))
        #else
        Glibc.asin(Swift.min(1, Swift.max(-1, x)))
        #endif
    }
    /// e to the power `x`.
    @inlinable public static func exp(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.exp(x)
        #else
        Glibc.exp(x)
        #endif
    }
    /// Natural logarithm.
    @inlinable public static func log(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.log(x)
        #else
        Glibc.log(x)
        #endif
    }
    /// `x` to the power `y`.
    @inlinable public static func pow(_ x: Double, _ y: Double) -> Double {
        #if canImport(Darwin)
        Darwin.pow(x, y)
        #else
        Glibc.pow(x, y)
        #endif
    }
    /// The largest integer not above `x`.
    @inlinable public static func floor(_ x: Double) -> Double { x.rounded(.down) }
    /// 180/π: multiply radians by it to get degrees.
    public static let degreesPerRadian = 180.0 / Double.pi
    /// π/180: multiply degrees by it to get radians.
    public static let radiansPerDegree = Double.pi / 180.0
}
