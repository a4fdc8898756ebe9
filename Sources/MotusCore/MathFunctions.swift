#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's elementary functions under one name, so that hot code needs no Foundation.
public enum Math {
    @inlinable public static func sin(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.sin(x)
        #else
        Glibc.sin(x)
        #endif
    }
    @inlinable public static func cos(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.cos(x)
        #else
        Glibc.cos(x)
        #endif
    }
    @inlinable public static func atan2(_ y: Double, _ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.atan2(y, x)
        #else
        Glibc.atan2(y, x)
        #endif
    }
    @inlinable public static func acos(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.acos(Swift.min(1, Swift.max(-1, x)))
        #else
        Glibc.acos(Swift.min(1, Swift.max(-1, x)))
        #endif
    }
    @inlinable public static func asin(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.asin(Swift.min(1, Swift.max(-1, x)))
        #else
        Glibc.asin(Swift.min(1, Swift.max(-1, x)))
        #endif
    }
    @inlinable public static func exp(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.exp(x)
        #else
        Glibc.exp(x)
        #endif
    }
    @inlinable public static func log(_ x: Double) -> Double {
        #if canImport(Darwin)
        Darwin.log(x)
        #else
        Glibc.log(x)
        #endif
    }
    @inlinable public static func pow(_ x: Double, _ y: Double) -> Double {
        #if canImport(Darwin)
        Darwin.pow(x, y)
        #else
        Glibc.pow(x, y)
        #endif
    }
    @inlinable public static func floor(_ x: Double) -> Double { x.rounded(.down) }
    public static let degreesPerRadian = 180.0 / Double.pi
    public static let radiansPerDegree = Double.pi / 180.0
}
