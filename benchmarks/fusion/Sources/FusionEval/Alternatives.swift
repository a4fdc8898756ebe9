import MotusCore

/// Alternatives measured against `AttitudeFilter` (see README): written here from the papers
/// for the comparison only; they are not part of the library.

/// Mahony et al. 2008 explicit complementary filter: PI feedback of acc × estimated gravity.
struct Mahony {
    var kp: Double, ki: Double
    var q = Quaternion.identity
    var integral = Vector3.zero
    var started = false
    var gravityUp: Vector3 { q.inverseRotate(Vector3(0, 0, 1)) }
    mutating func update(_ a: Vector3, _ w: Vector3, _ dt: Double) {
        if !started {
            started = true
            let u = a.normalized
            let w2 = (1 + u.z) / 2
            let s = w2.squareRoot()
            q = Quaternion(w: s, x: u.y / (2 * s), y: -u.x / (2 * s), z: 0)
            return
        }
        let e = a.normalized.cross(gravityUp)   // rotate estimate towards measurement
        integral += e * (ki * dt)
        let r = (w + e * kp + integral) * dt
        q = (q * Quaternion(w: 1, x: r.x / 2, y: r.y / 2, z: r.z / 2)).normalized
    }
}

/// Madgwick 2010 gradient-descent IMU filter.
struct Madgwick {
    var beta: Double
    var q = Quaternion.identity
    var started = false
    var gravityUp: Vector3 { q.inverseRotate(Vector3(0, 0, 1)) }
    mutating func update(_ a0: Vector3, _ w: Vector3, _ dt: Double) {
        let a = a0.normalized
        if !started {
            started = true
            let w2 = (1 + a.z) / 2, s = w2.squareRoot()
            q = Quaternion(w: s, x: a.y / (2 * s), y: -a.x / (2 * s), z: 0)
            return
        }
        let (q0, q1, q2, q3) = (q.w, q.x, q.y, q.z)
        // f = R(q)^T z − a ; gradient J^T f
        let f1 = 2 * (q1 * q3 - q0 * q2) - a.x
        let f2 = 2 * (q0 * q1 + q2 * q3) - a.y
        let f3 = 2 * (0.5 - q1 * q1 - q2 * q2) - a.z
        var g0 = -2 * q2 * f1 + 2 * q1 * f2
        var g1 = 2 * q3 * f1 + 2 * q0 * f2 - 4 * q1 * f3
        var g2 = -2 * q0 * f1 + 2 * q3 * f2 - 4 * q2 * f3
        var g3 = 2 * q1 * f1 + 2 * q2 * f2
        let n = (g0 * g0 + g1 * g1 + g2 * g2 + g3 * g3).squareRoot()
        if n > 0 { g0 /= n; g1 /= n; g2 /= n; g3 /= n }
        let qd = q * Quaternion(w: 0, x: w.x / 2, y: w.y / 2, z: w.z / 2)
        q = Quaternion(w: q0 + (qd.w - beta * g0) * dt, x: q1 + (qd.x - beta * g1) * dt,
                       y: q2 + (qd.y - beta * g2) * dt, z: q3 + (qd.z - beta * g3) * dt).normalized
    }
}
