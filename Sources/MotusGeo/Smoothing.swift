import MotusCore

/// Rejects position fixes that cannot be right: a reported horizontal accuracy worse than a
/// limit, or a jump from the last accepted fix that would need an impossible speed.
public struct OutlierFilter: Sendable {
    /// Fixes whose horizontal accuracy (m) is worse than this are rejected (when reported).
    public var maxHorizontalAccuracyMeters: Meters = 50
    /// Fixes implying a speed (m/s) above this from the last accepted fix are rejected.
    public var maxSpeedMetersPerSecond: MetersPerSecond = 35
    /// After this many rejections in a row the next fix is accepted anyway (the previous
    /// accepted fix was the wrong one, or the device really moved during a gap).
    public var maxConsecutiveRejections = 10

    /// A filter with these limits (m, m/s).
    public init(maxHorizontalAccuracyMeters: Meters = 50, maxSpeedMetersPerSecond: MetersPerSecond = 35) {
        self.maxHorizontalAccuracyMeters = maxHorizontalAccuracyMeters; self.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
    }

    /// For each point: true when it has a position and is accepted.
    public func accepted(_ t: Track) -> [Bool] { acceptedWithSteps(t).accepted }

    /// Accepted flags, and for each accepted fix the geodesic distance (m) from the previous
    /// accepted fix (0 for the first and for the others), computed once for both uses.
    public func acceptedWithSteps(_ t: Track) -> (accepted: [Bool], steps: [Meters]) {
        var ok = [Bool](repeating: false, count: t.count)
        var steps = [Double](repeating: 0, count: t.count)
        var last = -1, rejectedRun = 0
        for i in 0..<t.count {
            let lat = t.latitudes[i], lon = t.longitudes[i]
            guard !lat.isNaN, !lon.isNaN else { continue }
            let h = t.horizontalAccuracies[i]
            if !h.isNaN && h > maxHorizontalAccuracyMeters { continue }
            if last >= 0 && rejectedRun < maxConsecutiveRejections {
                let dt = t.times[i] - t.times[last]
                let d = Geodesic.distance(t.latitudes[last], t.longitudes[last], lat, lon)
                // Without usable times (routes), only accuracy applies.
                if dt.isFinite && d > maxSpeedMetersPerSecond * max(dt, 1) { rejectedRun += 1; continue }
                steps[i] = d
            } else if last >= 0 {
                steps[i] = Geodesic.distance(t.latitudes[last], t.longitudes[last], lat, lon)
            }
            ok[i] = true; last = i; rejectedRun = 0
        }
        return (ok, steps)
    }
}

/// Smooths positions and estimates speed with a constant-velocity Kalman filter in a local
/// east/north plane (metres), followed by a Rauch–Tung–Striebel backward pass.
///
/// Model per axis: state (position, velocity), x' = F x with F = [[1, dt], [0, 1]]; process
/// noise from white acceleration of spectral density `accelerationNoise` (m²/s³):
/// Q = q·[[dt³/3, dt²/2], [dt²/2, dt]]; measurement = position with variance σ², σ = the
/// fix's horizontal accuracy or `defaultAccuracyMeters`. East and north are independent
/// filters with the same gains. O(n) time, 6 doubles stored per point and axis.
public struct PositionSmoother: Sendable {
    /// White-acceleration spectral density (m²/s³): larger follows turns faster, smaller smooths more.
    public var accelerationNoise: MetersSquaredPerSecondCubed = 0.5
    /// Position standard deviation (m) for fixes without a reported accuracy.
    public var defaultAccuracyMeters: Meters = 4

    /// A smoother with this process noise (m²/s³) and default accuracy (m).
    public init(accelerationNoise: MetersSquaredPerSecondCubed = 0.5, defaultAccuracyMeters: Meters = 4) {
        self.accelerationNoise = accelerationNoise; self.defaultAccuracyMeters = defaultAccuracyMeters
    }

    /// The smoothed track, one value per input point.
    public struct Output: Sendable {
        /// Smoothed positions (degrees; NaN where the input had none or was rejected).
        public var latitudes: [Degrees]
        /// Smoothed longitudes (degrees; NaN as for `latitudes`).
        public var longitudes: [Degrees]
        /// Smoothed speed over ground (m/s; NaN where there was no fix).
        public var speeds: [MetersPerSecond]
    }

    /// Smooths the fixes where `use[i]` is true (all fixes with a position when nil).
    public func smooth(_ t: Track, use: [Bool]? = nil) -> Output {
        let n = t.count
        var out = Output(latitudes: .init(repeating: .nan, count: n), longitudes: .init(repeating: .nan, count: n),
                         speeds: .init(repeating: .nan, count: n))
        var idx: [Int] = []
        idx.reserveCapacity(n)
        for i in 0..<n where !t.latitudes[i].isNaN && !t.longitudes[i].isNaN && (use?[i] ?? true) && !t.times[i].isNaN { idx.append(i) }
        guard let first = idx.first else { return out }
        let plane = LocalTangentPlane(latitude: t.latitudes[first], longitude: t.longitudes[first])
        var east = [Double](repeating: 0, count: idx.count), north = east, variance = east, dts = east
        for (k, i) in idx.enumerated() {
            let p = plane.project(t.latitudes[i], t.longitudes[i])
            east[k] = p.east; north[k] = p.north
            let h = t.horizontalAccuracies[i]
            let s = h.isNaN || h <= 0 ? defaultAccuracyMeters : h
            variance[k] = s * s
            dts[k] = k == 0 ? 0 : max(0, t.times[i] - t.times[idx[k - 1]])
        }
        let e = filterAxis(east, variance, dts), nn = filterAxis(north, variance, dts)
        for (k, i) in idx.enumerated() {
            let ll = plane.unproject(east: e.position[k], north: nn.position[k])
            out.latitudes[i] = ll.latitude; out.longitudes[i] = ll.longitude
            out.speeds[i] = (e.velocity[k] * e.velocity[k] + nn.velocity[k] * nn.velocity[k]).squareRoot()
        }
        return out
    }

    /// One axis: forward Kalman filter, then RTS smoother.
    func filterAxis(_ z: [Double], _ r: [Double], _ dts: [Double]) -> (position: [Double], velocity: [Double]) {
        let n = z.count
        // Filtered (posterior) and predicted (prior) states and covariances [p00, p01, p11].
        var xf = [Double](repeating: 0, count: 2 * n), pf = [Double](repeating: 0, count: 3 * n)
        var xp = [Double](repeating: 0, count: 2 * n), pp = [Double](repeating: 0, count: 3 * n)
        var x0 = z[0], x1 = 0.0, p00 = r[0], p01 = 0.0, p11 = 100.0
        let q = accelerationNoise
        for k in 0..<n {
            let dt = dts[k]
            if k > 0 {
                // Predict.
                x0 += dt * x1
                let n00 = p00 + 2 * dt * p01 + dt * dt * p11 + q * dt * dt * dt / 3
                let n01 = p01 + dt * p11 + q * dt * dt / 2
                let n11 = p11 + q * dt
                p00 = n00; p01 = n01; p11 = n11
            }
            xp[2 * k] = x0; xp[2 * k + 1] = x1
            pp[3 * k] = p00; pp[3 * k + 1] = p01; pp[3 * k + 2] = p11
            // Update with the position measurement.
            let s = p00 + r[k]
            let k0 = p00 / s, k1 = p01 / s
            let innovation = z[k] - x0
            x0 += k0 * innovation; x1 += k1 * innovation
            let u00 = (1 - k0) * p00, u01 = (1 - k0) * p01, u11 = p11 - k1 * p01
            p00 = u00; p01 = u01; p11 = u11
            xf[2 * k] = x0; xf[2 * k + 1] = x1
            pf[3 * k] = p00; pf[3 * k + 1] = p01; pf[3 * k + 2] = p11
        }
        // RTS backward pass: x_s(k) = x_f(k) + C (x_s(k+1) − x_p(k+1)), C = P_f(k) Fᵀ P_p(k+1)⁻¹.
        var pos = [Double](repeating: 0, count: n), vel = pos
        var s0 = xf[2 * (n - 1)], s1 = xf[2 * (n - 1) + 1]
        pos[n - 1] = s0; vel[n - 1] = s1
        var k = n - 2
        while k >= 0 {
            let dt = dts[k + 1]
            let a00 = pf[3 * k], a01 = pf[3 * k + 1], a11 = pf[3 * k + 2]
            // P_f Fᵀ
            let m00 = a00 + dt * a01, m01 = a01, m10 = a01 + dt * a11, m11 = a11
            let b00 = pp[3 * (k + 1)], b01 = pp[3 * (k + 1) + 1], b11 = pp[3 * (k + 1) + 2]
            let det = b00 * b11 - b01 * b01
            if det > 1e-12 {
                let i00 = b11 / det, i01 = -b01 / det, i11 = b00 / det
                let c00 = m00 * i00 + m01 * i01, c01 = m00 * i01 + m01 * i11
                let c10 = m10 * i00 + m11 * i01, c11 = m10 * i01 + m11 * i11
                let d0 = s0 - xp[2 * (k + 1)], d1 = s1 - xp[2 * (k + 1) + 1]
                s0 = xf[2 * k] + c00 * d0 + c01 * d1
                s1 = xf[2 * k + 1] + c10 * d0 + c11 * d1
            } else {
                s0 = xf[2 * k]; s1 = xf[2 * k + 1]
            }
            pos[k] = s0; vel[k] = s1
            k -= 1
        }
        return (pos, vel)
    }
}

/// Median of each window of `2·half + 1` values (NaN skipped; shorter at the ends): removes
/// single-sample spikes (the Edge 500's 26 m/s reading right after a stop) without moving edges.
func medianFilter(_ x: [Double], half: Int) -> [Double] {
    var out = [Double](repeating: .nan, count: x.count)
    var window: [Double] = []
    window.reserveCapacity(2 * half + 1)
    for i in x.indices {
        window.removeAll(keepingCapacity: true)
        for j in max(0, i - half)...min(x.count - 1, i + half) where !x[j].isNaN { window.append(x[j]) }
        guard !window.isEmpty, !x[i].isNaN else { continue }
        window.sort()
        out[i] = window.count % 2 == 1 ? window[window.count / 2] : (window[window.count / 2 - 1] + window[window.count / 2]) / 2
    }
    return out
}
