/// A rotation quaternion `w + xi + yj + zk` (Hamilton convention, scalar first).
///
/// A unit quaternion `q` rotates a vector from the body (device) frame into the reference
/// frame: `v_ref = q ⊗ v_body ⊗ q*`. CoreMotion's `CMQuaternion` and Android's rotation vector
/// use the same convention (x = axisₓ·sin(θ/2), …, w = cos(θ/2)).
@frozen
public struct Quaternion: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Scalar part, cos(θ/2) for a rotation by θ.
    public var w: Double
    /// Vector part, x: axisₓ·sin(θ/2).
    public var x: Double
    /// Vector part, y: axis_y·sin(θ/2).
    public var y: Double
    /// Vector part, z: axis_z·sin(θ/2).
    public var z: Double

    /// The quaternion `w + xi + yj + zk` (not normalised).
    @inlinable public init(w: Double, x: Double, y: Double, z: Double) { self.w = w; self.x = x; self.y = y; self.z = z }

    /// No rotation: (1, 0, 0, 0).
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation of `angle` radians about `axis` (need not be normalised; zero axis gives identity).
    @inlinable public init(axis: Vector3, angle: Radians) {
        let a = axis.normalized
        let s = Math.sin(angle / 2)
        self.init(w: Math.cos(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// Euclidean length of the four components (1 for a rotation).
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    /// This quaternion scaled to length 1; the identity for a zero quaternion.
    @inlinable public var normalized: Quaternion {
        let n = norm
        return n > 0 ? Quaternion(w: w / n, x: x / n, y: y / n, z: z / n) : .identity
    }
    /// (w, −x, −y, −z): the inverse rotation for a unit quaternion.
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    /// The vector part (x, y, z).
    @inlinable public var vector: Vector3 { Vector3(x, y, z) }
    /// True when every component is finite.
    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// Hamilton product `a ⊗ b` (always inlined: filters call it once per sample).
    @inlinable @inline(__always) public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v` by this (unit) quaternion: `q ⊗ v ⊗ q*`.
    @inlinable @inline(__always) public func rotate(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Rotates `v` by the inverse rotation: reference frame into body frame.
    @inlinable @inline(__always) public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// Dot product of the four components.
    @inlinable public func dot(_ o: Quaternion) -> Double { w * o.w + x * o.x + y * o.y + z * o.z }

    /// Spherical linear interpolation along the shorter arc; `t` in [0, 1].
    @inlinable public static func slerp(_ a: Quaternion, _ b0: Quaternion, _ t: Double) -> Quaternion {
        var b = b0
        var d = a.dot(b)
        if d < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z); d = -d }
        if d > 0.9995 {
            return Quaternion(w: a.w + t * (b.w - a.w), x: a.x + t * (b.x - a.x),
                              y: a.y + t * (b.y - a.y), z: a.z + t * (b.z - a.z)).normalized
        }
        let theta = Math.acos(d)
        let s = Math.sin(theta)
        let wa = Math.sin((1 - t) * theta) / s, wb = Math.sin(t * theta) / s
        return Quaternion(w: wa * a.w + wb * b.w, x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z)
    }

    /// Angle of the rotation taking `self` to `o`, in radians, in [0, π].
    @inlinable public func angle(to o: Quaternion) -> Radians {
        let d = Swift.min(1, Swift.abs(dot(o)))
        return 2 * Math.acos(d)
    }

    public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
