import MotusCore

/// A 3×3 matrix of doubles by rows, for the filter's small Kalman update (no allocation).
@frozen
public struct Matrix3: Sendable, Hashable {
    /// First row.
    public var r0: Vector3
    /// Second row.
    public var r1: Vector3
    /// Third row.
    public var r2: Vector3

    /// The matrix with these rows.
    @inlinable public init(_ r0: Vector3, _ r1: Vector3, _ r2: Vector3) { self.r0 = r0; self.r1 = r1; self.r2 = r2 }

    /// The identity times `s`.
    @inlinable public static func scaledIdentity(_ s: Double) -> Matrix3 {
        Matrix3(Vector3(s, 0, 0), Vector3(0, s, 0), Vector3(0, 0, s))
    }

    /// The rotation matrix of unit quaternion `q` (columns: the device axes in the reference frame).
    @inlinable public init(rotation q: Quaternion) {
        let w = q.w, x = q.x, y = q.y, z = q.z
        r0 = Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y))
        r1 = Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x))
        r2 = Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    /// The transpose.
    @inlinable public var transposed: Matrix3 {
        Matrix3(Vector3(r0.x, r1.x, r2.x), Vector3(r0.y, r1.y, r2.y), Vector3(r0.z, r1.z, r2.z))
    }

    /// Matrix × vector.
    @inlinable @inline(__always) public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v))
    }

    /// Matrix product.
    @inlinable @inline(__always) public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(Vector3(a.r0.dot(t.r0), a.r0.dot(t.r1), a.r0.dot(t.r2)),
                       Vector3(a.r1.dot(t.r0), a.r1.dot(t.r1), a.r1.dot(t.r2)),
                       Vector3(a.r2.dot(t.r0), a.r2.dot(t.r1), a.r2.dot(t.r2)))
    }

    /// Difference.
    @inlinable @inline(__always) public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2)
    }

    /// The inverse by the adjugate; nil when the determinant is zero or not finite.
    @inlinable public var inverse: Matrix3? {
        let c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1)
        let det = r0.dot(c0)
        guard det != 0, det.isFinite else { return nil }
        let s = 1 / det
        // The rows of the inverse are the columns of (c0 c1 c2) scaled: inverse = [c0 c1 c2] / det.
        return Matrix3(Vector3(c0.x, c1.x, c2.x) * s, Vector3(c0.y, c1.y, c2.y) * s, Vector3(c0.z, c1.z, c2.z) * s)
    }
}
