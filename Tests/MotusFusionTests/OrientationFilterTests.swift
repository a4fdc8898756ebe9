import Foundation
import MotusTestSupport
import Testing
import MotusCore
@testable import MotusFusion

private func degrees(_ a: Vector3, _ b: Vector3) -> Double { a.angle(to: b) * Math.degreesPerRadian }

/// A synthetic motion: the true attitude turns at `rate(t)` (device frame); the accelerometer
/// reads gravity (up, device frame) plus seeded noise, the gyroscope the rate plus `bias` and
/// seeded noise. Calls `body(t, truth, filter)` after each sample.
private func simulate(_ f: inout OrientationFilter, seconds: Double, sampleRate: Double, start: Quaternion = .identity,
                      bias: Vector3 = .zero, accNoise: Double = 0.05, gyroNoise: Double = 0.002, seed: UInt64 = 1,
                      rate: (Double) -> Vector3, body: (Double, Quaternion, OrientationFilter) -> Void) {
    var rng = SplitMix64(seed: seed)
    var truth = start
    let dt = 1 / sampleRate
    for i in 0..<Int(seconds * sampleRate) {
        let t = Double(i) * dt
        let w = rate(t)
        if i > 0 { truth = (truth * AttitudeFilter.exponential(w * dt)).normalized }
        let g = truth.inverseRotate(Vector3(0, 0, Units.standardGravity))
        f.update(acceleration: g + rng.vector(accNoise), rotationRate: w + bias + rng.vector(gyroNoise), dt: i == 0 ? 0 : dt)
        body(t, truth, f)
    }
}

private func up(_ q: Quaternion) -> Vector3 { q.inverseRotate(Vector3(0, 0, 1)) }

@Suite struct OrientationFilterTests {
    @Test func firstSampleGivesTheInclination() {
        var f = OrientationFilter()
        let tilt = Quaternion(axis: Vector3(1, 2, 0), angle: 1.1)
        f.update(acceleration: tilt.inverseRotate(Vector3(0, 0, 9.81)), rotationRate: .zero, dt: 0)
        #expect(degrees(f.gravity, up(tilt)) < 1e-9)
        #expect(abs(f.gravity.norm - Units.standardGravity) < 1e-9)
        #expect(f.flags.initialising)
    }

    /// Turning about changing axes with a gyroscope bias of 1°/s on every axis: the inclination
    /// must stay within a degree of the truth once the bias is learned, in motion.
    @Test func inclinationHoldsAndBiasIsLearnedInMotion() {
        let bias = Vector3(1, -1, 1) * Math.radiansPerDegree
        var f = OrientationFilter()
        var worst = 0.0
        simulate(&f, seconds: 300, sampleRate: 100, bias: bias, rate: { t in
            Vector3(0.8 * Math.sin(0.7 * t), 0.6 * Math.cos(0.31 * t), 0.5 * Math.sin(0.13 * t + 1))
        }) { t, truth, f in
            if t > 100 { worst = max(worst, degrees(f.gravity, up(truth))) }
        }
        // Up to 0.3° of it is the half-sample prediction: this simulation has no sensor delay.
        #expect(worst < 1, "worst inclination error \(worst)° after 100 s")
        // The bias seen in the reference frame's horizontal plane is observable; its norm must
        // have come close to the truth's.
        let err = (f.gyroscopeBias - bias).norm * Math.degreesPerRadian
        #expect(err < 0.3, "bias error \(err)°/s, estimate \(f.gyroscopeBias)")
    }

    @Test func biasIsLearnedAtRest() {
        let bias = Vector3(0.02, -0.01, 0.015)
        var f = OrientationFilter()
        var sawRest = false
        simulate(&f, seconds: 30, sampleRate: 200, start: Quaternion(axis: Vector3(0, 1, 0), angle: 0.4), bias: bias,
                 rate: { _ in .zero }) { _, _, f in sawRest = sawRest || f.flags.atRest }
        #expect(sawRest && f.flags.atRest)
        #expect((f.gyroscopeBias - bias).norm < 0.001, "\(f.gyroscopeBias)")
        #expect(f.internalStates.biasStandardDeviation.x < 0.1 * Math.radiansPerDegree)
    }

    /// Without bias estimation and with no delay compensation, the attitude is the integral of
    /// the gyroscope tilted onto the accelerometer: a constant rate about z keeps the gravity
    /// exact and turns the heading by the integral.
    @Test func headingFollowsTheGyroscope() {
        var s = OrientationFilter.Settings.biasCorrectedGyroscope
        s.delayCompensation = 0
        var f = OrientationFilter(settings: s)
        for i in 0..<1001 { f.update(acceleration: Vector3(0, 0, 9.81), rotationRate: Vector3(0, 0, 0.5), dt: i == 0 ? 0 : 0.01) }
        let expected = Quaternion(axis: Vector3(0, 0, 1), angle: 5)
        #expect(abs(f.attitude.dot(expected)) > 1 - 1e-12, "\(f.attitude)")
        // With the default compensation of half a sample the attitude is 0.0025 rad further on.
        var g = OrientationFilter(settings: .biasCorrectedGyroscope)
        for i in 0..<1001 { g.update(acceleration: Vector3(0, 0, 9.81), rotationRate: Vector3(0, 0, 0.5), dt: i == 0 ? 0 : 0.01) }
        #expect(abs(g.attitude.angle(to: Quaternion(axis: Vector3(0, 0, 1), angle: 5.0025))) < 1e-6)
    }

    /// Jittered time steps (phone timestamps) change the coefficients without a transient.
    @Test func jitteredStepsMatchSteadySteps() {
        var steady = OrientationFilter(), jittered = OrientationFilter()
        var rng = SplitMix64(seed: 3)
        var worst = 0.0
        simulate(&steady, seconds: 60, sampleRate: 50, rate: { t in Vector3(0.5 * Math.sin(t), 0.3, 0) }) { _, _, _ in }
        var truth = Quaternion.identity
        for i in 0..<3000 {
            let dt = 0.02 * (1 + 0.05 * (rng.uniform() - 0.5))
            let t = Double(i) * 0.02
            let w = Vector3(0.5 * Math.sin(t), 0.3, 0)
            if i > 0 { truth = (truth * AttitudeFilter.exponential(w * dt)).normalized }
            jittered.update(acceleration: truth.inverseRotate(Vector3(0, 0, 9.81)), rotationRate: w, dt: i == 0 ? 0 : dt)
            if t > 5 { worst = max(worst, degrees(jittered.gravity, up(truth))) }
        }
        #expect(worst < 0.5, "worst \(worst)°")
    }

    @Test func badSamplesAreSkippedAndGapsClipped() {
        var f = OrientationFilter()
        f.update(acceleration: Vector3(0, 0, 9.81), rotationRate: .zero, dt: 0)
        let before = f.attitude
        f.update(acceleration: Vector3(.nan, 0, 9.81), rotationRate: .zero, dt: 0.01)
        #expect(f.flags.sampleSkipped && f.attitude == before)
        f.update(acceleration: Vector3(0, 0, 9.81), rotationRate: Vector3(0, 0, 1), dt: 1e9)
        #expect(!f.flags.sampleSkipped && f.attitude.isFinite)
        // A gap is integrated as maximumTimeStep (0.5 s) plus the half-sample prediction.
        #expect(abs(f.attitude.angle(to: Quaternion(axis: Vector3(0, 0, 1), angle: 0.75))) < 1e-6, "\(f.attitude)")
    }

    @Test func isPlainDataAndSettingsRoundTrip() throws {
        #expect(_isPOD(OrientationFilter.self))
        var s = OrientationFilter.Settings()
        s.accelerationTimeConstant = 4
        s.delayCompensation = 0
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(OrientationFilter.Settings.self, from: data) == s)
    }

    @Test func lowPassHasUnitGainAndItsTimeConstant() {
        let c = LowPassCoefficients(timeConstant: 2, dt: 0.01)
        var lp = LowPassState()
        var y = 0.0, crossed = -1.0
        for i in 0..<5000 {
            y = lp.step(1, c)
            if crossed < 0 && y >= 1 - Math.exp(-1) { crossed = Double(i + 1) * 0.01 }
        }
        #expect(abs(y - 1) < 1e-9)
        // A second-order Butterworth with this cut-off reaches 63 % a little after τ.
        #expect(crossed > 1.5 && crossed < 3, "\(crossed)")
        let m = Matrix3(Vector3(2, 1, 0), Vector3(0, 3, 1), Vector3(1, 0, 4))
        let p = m * m.inverse!
        #expect(abs(p.r0.x - 1) < 1e-12 && abs(p.r0.y) < 1e-12 && abs(p.r2.z - 1) < 1e-12)
        #expect(Matrix3.scaledIdentity(0).inverse == nil)
    }

    /// With a magnetometer the attitude's frame is east-north-up: a device turning about the
    /// vertical reports the heading of its +y axis; a field that jumps in magnitude (a magnet
    /// nearby) is rejected and the heading rides on the gyroscope.
    @Test func magnetometerGivesHeadingAndRejectsDisturbances() {
        // Earth's field in ENU: 20 µT north, 40 µT down.
        let earth = Vector3(0, 20, -40)
        var f = OrientationFilter()
        var truth = Quaternion(axis: Vector3(0, 0, 1), angle: 1.0)  // device +y points 1 rad west of north
        let dt = 0.01, w = Vector3(0, 0, 0.2)
        var worst = 0.0
        for i in 0..<6000 {
            if i > 0 { truth = (truth * AttitudeFilter.exponential(w * dt)).normalized }
            var field = truth.inverseRotate(earth)
            // 20 s to 30 s: a magnet doubles the field.
            if i >= 2000 && i < 3000 { field = field * 2 }
            f.update(acceleration: truth.inverseRotate(Vector3(0, 0, 9.81)), rotationRate: w, magneticField: field, dt: i == 0 ? 0 : dt)
            if i >= 2000 && i < 3000 { #expect(f.flags.magneticDisturbance) }
            if i > 1000 {
                let y = truth.rotate(Vector3(0, 1, 0))
                var expected = Math.atan2(y.x, y.y)
                if expected < 0 { expected += 2 * Double.pi }
                let h = try! #require(f.heading)
                var d = abs(h - expected)
                d = min(d, 2 * Double.pi - d)
                worst = max(worst, d * Math.degreesPerRadian)
            }
        }
        // The half-sample prediction adds 0.06° at 0.2 rad/s and 100 Hz.
        #expect(worst < 0.5, "worst heading error \(worst)°")
    }

    @Test func offlineBeatsCausalOnALaggingTilt() {
        // A slow tilt under a gyroscope bias: the causal low-pass lags, the offline mean does not.
        var times: [Double] = [], acc: [Double] = [], gyr: [Double] = []
        var truth = Quaternion.identity
        var ups: [Vector3] = []
        let bias = Vector3(0.004, -0.003, 0)
        for i in 0..<6000 {
            let t = Double(i) * 0.01
            let w = Vector3(0.3 * Math.sin(0.5 * t), 0.2 * Math.cos(0.3 * t), 0.1)
            if i > 0 { truth = (truth * AttitudeFilter.exponential(w * 0.01)).normalized }
            let g = truth.inverseRotate(Vector3(0, 0, 9.81))
            times.append(t); acc += [g.x, g.y, g.z]; let m = w + bias; gyr += [m.x, m.y, m.z]
            ups.append(truth.inverseRotate(Vector3(0, 0, 1)))
        }
        let offline = OfflineOrientation.estimate(times: times, acceleration: acc, rotationRate: gyr).gravity
        var f = OrientationFilter()
        var causalError = 0.0, offlineError = 0.0
        for i in 0..<times.count {
            f.update(acceleration: Vector3(acc[3 * i], acc[3 * i + 1], acc[3 * i + 2]), rotationRate: Vector3(gyr[3 * i], gyr[3 * i + 1], gyr[3 * i + 2]),
                     dt: i == 0 ? 0 : 0.01)
            guard i > 500 else { continue }
            causalError += pow(degrees(f.gravity, ups[i]), 2)
            offlineError += pow(degrees(Vector3(offline[3 * i], offline[3 * i + 1], offline[3 * i + 2]), ups[i]), 2)
        }
        #expect(offlineError < causalError, "offline \(offlineError) vs causal \(causalError)")
    }
}
