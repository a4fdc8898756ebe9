/// A three-component vector in a right-handed device or world frame.
///
/// Units are those of the stream it belongs to (m/s² for acceleration, rad/s for rotation
/// rate, µT for magnetic field); the type itself is unit-free.
@frozen
public struct Vector3: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The x component (device frame: to the right of the screen).
    public var x: Double
    /// The y component (device frame: to the top edge).
    public var y: Double
    /// The z component (device frame: out of the screen).
    public var z: Double

    /// The vector (x, y, z).
    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    /// The vector (x, y, z).
    @inlinable public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }

    /// (0, 0, 0).
    public static let zero = Vector3(0, 0, 0)

    /// Euclidean length.
    @inlinable public var norm: Double { (x * x + y * y + z * z).squareRoot() }
    /// Squared Euclidean length (no square root).
    @inlinable public var squaredNorm: Double { x * x + y * y + z * z }
    /// The unit vector in the same direction, or `.zero` for a zero vector.
    @inlinable public var normalized: Vector3 {
        let n = norm
        return n > 0 ? Vector3(x / n, y / n, z / n) : .zero
    }
    /// Dot product.
    @inlinable public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    /// Cross product `self × o` (right-handed).
    @inlinable @inline(__always) public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Angle between two vectors in radians, in [0, π]; numerically stable near 0 and π.
    @inlinable public func angle(to o: Vector3) -> Radians {
        let c = cross(o).norm, d = dot(o)
        return Double.atan2Compat(c, d)
    }
    /// True when every component is finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// Sum.
    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    /// Difference.
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    /// Negation.
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    /// Scaled by `s`.
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    /// Scaled by `s`.
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    /// Divided by `s`.
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    /// Adds `b` to `a`.
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    /// Subtracts `b` from `a`.
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

    public var description: String { "(\(x), \(y), \(z))" }
}

extension Double {
    /// `atan2` without Foundation: Swift's standard library has no elementary functions on
    /// Linux without Foundation, so the few we need live in `MathFunctions.swift`.
    @inlinable static func atan2Compat(_ y: Double, _ x: Double) -> Double { Math.atan2(y, x) }
}
