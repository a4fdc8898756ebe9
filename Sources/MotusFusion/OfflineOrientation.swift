import MotusCore

/// Orientation of a whole recording from both directions in time: the offline mode of
/// `OrientationFilter`, for recordings on disk (`evaluate`, `classify`, training), never for the
/// live session.
///
/// The causal filter's inclination comes from a low-pass in the almost-inertial frame, so it
/// lags: it knows the past only. Run once forwards and once backwards in time (the same filter
/// on the reversed samples with the rotation rate negated), each estimate lags in its own
/// direction, and their mean cancels the lag to first order and halves the noise.
///
/// - The backward pass integrates each interval [tᵢ, tᵢ₊₁] with the rate sample at its end,
///   tᵢ₊₁, as the forward pass does, and it starts from the forward pass's final gyroscope
///   bias (the end of a recording is where the forward pass knows the bias best).
/// - Both passes predict their outputs forward in time by the same `delayCompensation`.
/// - Gravity is the mean of the two unit up directions, scaled to `gravityMagnitude`; the
///   attitude is the forward attitude tilted (about a horizontal axis) onto that gravity, so
///   its heading is the forward pass's.
public enum OfflineOrientation {
    /// Gravity (flat, m/s², device frame, pointing up) and attitude (flat w, x, y, z) for every
    /// sample. `times` in s (increasing), `acceleration` flat m/s² with gravity (Android sign),
    /// `rotationRate` flat rad/s on the same timestamps.
    public static func estimate(times: [Seconds], acceleration: [MetersPerSecondSquared], rotationRate: [RadiansPerSecond],
                                settings: OrientationFilter.Settings = .default) -> (gravity: [MetersPerSecondSquared], attitude: [Double]) {
        let n = times.count
        precondition(acceleration.count == 3 * n && rotationRate.count == 3 * n, "3 values per time")
        func vector(_ a: [Double], _ i: Int) -> Vector3 { Vector3(a[3 * i], a[3 * i + 1], a[3 * i + 2]) }
        var gravity = [Double](repeating: 0, count: 3 * n)
        var attitude = [Double](repeating: 0, count: 4 * n)
        guard n > 0 else { return (gravity, attitude) }

        // Forward pass: keep the unit up direction and the attitude.
        var forward = OrientationFilter(settings: settings)
        var upForward = [Double](repeating: 0, count: 3 * n)
        for i in 0..<n {
            forward.update(acceleration: vector(acceleration, i), rotationRate: vector(rotationRate, i), dt: i == 0 ? 0 : times[i] - times[i - 1])
            let u = forward.gravity.normalized
            upForward[3 * i] = u.x; upForward[3 * i + 1] = u.y; upForward[3 * i + 2] = u.z
            let q = forward.attitude
            attitude[4 * i] = q.w; attitude[4 * i + 1] = q.x; attitude[4 * i + 2] = q.y; attitude[4 * i + 3] = q.z
        }

        // Backward pass: sample i comes after sample i + 1; the interval between them is
        // integrated with the rate at its end in forward time, −ω(tᵢ₊₁); the delay compensation
        // points forward in time, which is backwards for this pass.
        var back = settings
        back.delayCompensation = -settings.delayCompensation
        var backward = OrientationFilter(settings: back)
        backward.startBias(from: forward, negated: true)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let last = i == n - 1
            let rate = last ? -vector(rotationRate, i) : -vector(rotationRate, i + 1)
            backward.update(acceleration: vector(acceleration, i), rotationRate: rate, dt: last ? 0 : times[i + 1] - times[i])
            let ub = backward.gravity.normalized
            let uf = Vector3(upForward[3 * i], upForward[3 * i + 1], upForward[3 * i + 2])
            let mean = (uf + ub).normalized
            let g = mean * settings.gravityMagnitude
            gravity[3 * i] = g.x; gravity[3 * i + 1] = g.y; gravity[3 * i + 2] = g.z
            // Tilt the forward attitude so that it maps `mean` (not `uf`) onto +z.
            let b = 4 * i
            let q = Quaternion(w: attitude[b], x: attitude[b + 1], y: attitude[b + 2], z: attitude[b + 3])
            let tilt = AttitudeFilter.tiltOntoZ(q.rotate(mean))
            let r = (tilt * q).normalized
            attitude[b] = r.w; attitude[b + 1] = r.x; attitude[b + 2] = r.y; attitude[b + 3] = r.z
        }
        return (gravity, attitude)
    }
}

extension OrientationFilter {
    /// Starts this filter's gyroscope bias (and its uncertainty) from `other`'s; `negated` for a
    /// pass backwards in time, which sees the rotation rate, and so its bias, negated.
    mutating func startBias(from other: OrientationFilter, negated: Bool) {
        bias = negated ? -other.bias : other.bias
        biasCovariance = other.biasCovariance
    }
}
