import MotusTestSupport
import Testing
import MotusCore
@testable import MotusFusion

/// Synthetic still device: true attitude `q` (device → reference), accelerometer = gravity up
/// in the device frame plus seeded noise, gyroscope = bias plus seeded noise.
private func stillSamples(q: Quaternion, bias: Vector3, seconds: Double, rate: Double, seed: UInt64,
                          accNoise: Double = 0.05, gyroNoise: Double = 0.002) -> [(Vector3, Vector3)] {
    var rng = SplitMix64(seed: seed)
    let g = q.inverseRotate(Vector3(0, 0, Units.standardGravity))
    return (0..<Int(seconds * rate)).map { _ in (g + rng.vector(accNoise), bias + rng.vector(gyroNoise)) }
}

private func degrees(_ a: Vector3, _ b: Vector3) -> Double { a.angle(to: b) * Math.degreesPerRadian }

@Suite struct AttitudeFilterTests {
    @Test func exponentialMatchesAxisAngle() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let r = rng.vector(0.5)
            let e = AttitudeFilter.exponential(r)
            let ref = Quaternion(axis: r, angle: r.norm)
            #expect(abs(e.w - ref.w) < 1e-12 && abs(e.x - ref.x) < 1e-12 && abs(e.y - ref.y) < 1e-12 && abs(e.z - ref.z) < 1e-12)
        }
        // Tiny angles use a series; compare with the exact formula.
        let r = Vector3(3e-7, -2e-7, 1e-7)
        let t = r.norm, s = Math.sin(t / 2) / t
        let exact = Quaternion(w: Math.cos(t / 2), x: r.x * s, y: r.y * s, z: r.z * s)
        let e = AttitudeFilter.exponential(r)
        #expect(abs(e.w - exact.w) < 1e-15 && abs(e.x - exact.x) < 1e-15 && abs(e.y - exact.y) < 1e-15)
    }

    @Test func tiltOntoZTakesVectorToZ() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<200 {
            let u = rng.vector(1).normalized
            let q = AttitudeFilter.tiltOntoZ(u)
            let v = q.rotate(u)
            #expect(abs(v.x) < 1e-12 && abs(v.y) < 1e-12 && abs(v.z - 1) < 1e-12)
            #expect(abs(q.z) < 1e-15)  // about a horizontal axis only
        }
        let down = AttitudeFilter.tiltOntoZ(Vector3(0, 0, -1)).rotate(Vector3(0, 0, -1))
        #expect(abs(down.z - 1) < 1e-12)
    }

    /// Constant rate about a fixed axis: the strapdown integral must equal the closed form.
    @Test func constantRateIntegratesExactly() {
        var s = AttitudeFilter.Settings()
        s.restBiasEstimation = false
        var f = AttitudeFilter(settings: s)
        let w = Vector3(0.3, -1.2, 2.0)
        let dt = 0.01
        f.update(acceleration: Vector3(0, 0, 9.8), rotationRate: w, dt: 0)  // the first sample's dt is ignored
        for _ in 0..<1000 { f.update(acceleration: Vector3(0, 0, 9.8), rotationRate: w, dt: dt) }
        let expected = Quaternion(axis: w, angle: w.norm * 10)
        let q = f.strapdown
        #expect(abs(q.dot(expected)) > 1 - 1e-12, "\(q) vs \(expected)")
    }

    @Test func convergesFromWrongInitialAttitude() {
        let truth = Quaternion(axis: Vector3(1, 0.4, 0), angle: 0.7)
        let data = stillSamples(q: truth, bias: .zero, seconds: 5, rate: 100, seed: 3)
        // Start 120° away from the truth.
        var f = AttitudeFilter(initialAttitude: Quaternion(axis: Vector3(0, 1, 0), angle: 2.1) * truth)
        let g = truth.inverseRotate(Vector3(0, 0, Units.standardGravity))
        for (i, (a, w)) in data.enumerated() {
            f.update(acceleration: a, rotationRate: w, dt: 0.01)
            if i == 200 { #expect(degrees(f.gravity, g) < 1, "after 2 s: \(degrees(f.gravity, g))°") }
        }
        #expect(degrees(f.gravity, g) < 0.5)
        #expect(abs(f.gravity.norm - Units.standardGravity) < 1e-9)
        #expect(f.userAcceleration.norm < 0.3)
    }

    @Test func learnsGyroscopeBiasAtRest() {
        let bias = Vector3(0.012, -0.02, 0.007)
        let truth = Quaternion(axis: Vector3(0.2, 1, 0), angle: 0.4)
        let data = stillSamples(q: truth, bias: bias, seconds: 30, rate: 100, seed: 4)
        var f = AttitudeFilter()
        var learned = false
        for (a, w) in data {
            f.update(acceleration: a, rotationRate: w, dt: 0.01)
            learned = learned || f.flags.biasLearning
        }
        #expect(learned)
        #expect(f.flags.atRest)
        #expect((f.gyroscopeBias - bias).norm < 5e-4, "bias \(f.gyroscopeBias)")
        // With the bias removed the attitude barely drifts over 2 s (unlearned: 1.4°).
        let before = f.attitude
        for (a, w) in data.prefix(200) { f.update(acceleration: a, rotationRate: w, dt: 0.01) }
        #expect(before.angle(to: f.attitude) * Math.degreesPerRadian < 0.3)
    }

    @Test func doesNotLearnBiasWhileRotating() {
        var f = AttitudeFilter()
        var rng = SplitMix64(seed: 5)
        var q = Quaternion.identity
        for _ in 0..<3000 {
            let w = Vector3(0, 0, 0.5) + rng.vector(0.01)
            q = (q * AttitudeFilter.exponential(w * 0.01)).normalized
            f.update(acceleration: q.inverseRotate(Vector3(0, 0, 9.80665)), rotationRate: w, dt: 0.01)
        }
        #expect(f.gyroscopeBias.norm == 0)
        #expect(!f.flags.atRest)
    }

    @Test func quaternionStaysUnit() {
        var f = AttitudeFilter()
        var rng = SplitMix64(seed: 6)
        var maxDeviation = 0.0
        for i in 0..<20000 {
            let a = Vector3(0, 0, 9.8) + rng.vector(4)
            let w = rng.vector(3)
            f.update(acceleration: a, rotationRate: w, dt: i % 7 == 0 ? 0.013 : 0.01)
            maxDeviation = max(maxDeviation, abs(f.attitude.norm - 1), abs(f.strapdown.norm - 1))
        }
        #expect(maxDeviation < 1e-12)
        #expect(f.gravity.isFinite && f.userAcceleration.isFinite)
    }

    @Test func skipsNonFiniteInputAndBadTimeSteps() {
        var f = AttitudeFilter()
        f.update(acceleration: Vector3(0, 0, 9.8), rotationRate: .zero, dt: 0)
        let before = f.attitude
        f.update(acceleration: Vector3(.nan, 0, 9.8), rotationRate: .zero, dt: 0.01)
        #expect(f.flags.sampleSkipped)
        #expect(f.attitude == before)
        f.update(acceleration: Vector3(0, 0, 9.8), rotationRate: Vector3(1, 0, 0), dt: -1)
        f.update(acceleration: Vector3(0, 0, 9.8), rotationRate: Vector3(1, 0, 0), dt: .infinity)
        #expect(!f.flags.sampleSkipped)
        #expect(f.attitude.isFinite && f.attitude.angle(to: before) < 1e-9)
    }

    /// The update touches only the filter's own stored numbers: the state is plain data
    /// (no references, so no heap storage to allocate or retain), checked structurally.
    @Test func stateIsPlainDataSoUpdateCannotAllocate() {
        #expect(_isPOD(AttitudeFilter.self))
        #expect(_isPOD(LowPassGravity.self))
        #expect(MemoryLayout<AttitudeFilter>.size < 1024)
    }

    @Test func lowPassGravityFallback() {
        let truth = Quaternion(axis: Vector3(1, -1, 0), angle: 0.5)
        let data = stillSamples(q: truth, bias: .zero, seconds: 3, rate: 50, seed: 7)
        var f = LowPassGravity()
        let g = truth.inverseRotate(Vector3(0, 0, Units.standardGravity))
        f.update(acceleration: data[0].0, dt: 0)
        #expect(degrees(f.gravity, g) < 1)  // first sample already gives an estimate
        for (a, _) in data.dropFirst() { f.update(acceleration: a, dt: 0.02) }
        #expect(degrees(f.gravity, g) < 0.2)
        #expect(!f.flags.initialising)
        #expect(abs(f.gravity.norm - Units.standardGravity) < 1e-9)
        #expect(f.attitude.inverseRotate(Vector3(0, 0, 1)).angle(to: f.gravity) < 1e-7)
        // Reference: first-order low-pass written out (after the 1 s running mean).
        var ref = LowPassGravity(settings: .init(timeConstant: 0.1))
        var manual = Vector3.zero
        var seen = 0.0, count = 0.0
        for (i, (a, _)) in data.enumerated() {
            ref.update(acceleration: a, dt: 0.02)
            if i == 0 { manual = a; count = 1 }
            else if seen < 0.1 { seen += 0.02; count += 1; manual = manual + (a - manual) * (1 / count) }
            else { manual = manual + (a - manual) * (1 - Math.exp(-0.02 / 0.1)) }
        }
        #expect((ref.lowPass - manual).norm < 1e-9)
    }
}

@Suite struct OptimisedFilterMatchesReference {
    /// Random rotation and acceleration, jittered time steps and gaps: the optimised update
    /// and the plain reference give the same gravity to rounding, with and without bias learning.
    @Test(arguments: [false, true])
    func randomMotion(biasLearning: Bool) {
        var s = AttitudeFilter.Settings.default
        s.restBiasEstimation = biasLearning
        var f = AttitudeFilter(settings: s)
        var ref = ReferenceAttitudeFilter(settings: s)
        var rng = SplitMix64(seed: 21)
        var truth = Quaternion(axis: Vector3(0.3, 1, 0.2), angle: 2.5)
        var worst = 0.0
        for i in 0..<30000 {
            // Phases: still (with bias), slow turns, vigorous motion.
            let phase = (i / 3000) % 3
            let w = phase == 0 ? Vector3(0.01, -0.02, 0.005) + rng.vector(0.002) : rng.vector(phase == 1 ? 0.3 : 3)
            let dt = i % 997 == 0 ? 0.3 : 0.01 + (phase == 2 ? rng.uniform() * 0.004 : 0)
            truth = (truth * ReferenceAttitudeFilter.exp(w * dt)).normalized
            let a = truth.inverseRotate(Vector3(0, 0, 9.80665)) + rng.vector(phase == 2 ? 5 : 0.05)
            f.update(acceleration: a, rotationRate: w, dt: i == 0 ? 0 : dt)
            ref.update(acceleration: a, rotationRate: w, dt: i == 0 ? 0 : dt)
            worst = max(worst, f.gravity.angle(to: ref.gravity))
            #expect(f.flags.accelerationRejected == ref.moving)
            if biasLearning { #expect(f.flags.atRest == ref.atRest) }
        }
        #expect(worst < 1e-8, "largest gravity difference \(worst) rad")
        #expect((f.gyroscopeBias - ref.bias).norm < 1e-12)
        // The attitude maps the gravity estimate onto +z and is a unit quaternion.
        let up = f.attitude.rotate(f.gravity)
        #expect(abs(up.z - 9.80665) < 1e-9 && abs(up.x) < 1e-9 && abs(up.y) < 1e-9)
        #expect(abs(f.attitude.norm - 1) < 1e-12)
    }

    /// A face-down start (acceleration along −z): the first sample levels the strapdown frame,
    /// so the tilt stays far from its singular direction and the heading moves smoothly.
    @Test func faceDownStartKeepsHeadingSmooth() {
        var f = AttitudeFilter(settings: .biasCorrectedGyroscope)
        var rng = SplitMix64(seed: 22)
        var previous: Quaternion? = nil
        var largestStep = 0.0
        for i in 0..<2000 {
            f.update(acceleration: Vector3(0, 0, -9.80665) + rng.vector(0.05), rotationRate: rng.vector(0.001), dt: i == 0 ? 0 : 0.01)
            if let p = previous, i > 1 { largestStep = max(largestStep, p.angle(to: f.attitude)) }
            previous = f.attitude
        }
        #expect(largestStep * Math.degreesPerRadian < 0.5, "largest attitude change per sample \(largestStep * Math.degreesPerRadian)°")
        #expect(f.gravity.angle(to: Vector3(0, 0, -1)) * Math.degreesPerRadian < 0.5)
    }
}
