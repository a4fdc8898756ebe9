import Testing
import MotusTestSupport
import MotusCore
import MotusIO
import MotusClassifier
@testable import MotusTracking

/// Standing up, then walking: the push of standing up is not the walk's first step.
@Suite struct StandUpAndWalkTests {
    /// A gravity direction (unit) turning from `from` to `to` (angle `degrees`) as `s` goes 0 → 1.
    static func turned(_ s: Double, degrees: Double) -> Vector3 {
        let a = min(1, max(0, s)) * degrees * Double.pi / 180
        return Vector3(0, Math.sin(a), Math.cos(a))
    }

    @Test func postureChangeIsNoticedAndRockingIsNot() {
        var p = PostureTracker(rateHz: 50)
        var changedAt = Double.nan, transit = false
        // 2 s still (seated), 1 s turning 80°, then 4 s of walking that rocks ±15° at 1 Hz.
        for k in 0..<(7 * 50) {
            let t = Double(k) / 50
            let base = t < 2 ? Self.turned(0, degrees: 80) : Self.turned(t - 2, degrees: 80)
            let rock = t >= 3 ? 15 * Math.sin(2 * Double.pi * t) * Double.pi / 180 : 0
            let g = Vector3(Math.sin(rock), base.y, base.z) * 9.81
            p.update(gravity: g, acceleration: g, still: t < 2, time: t)
            if t > 2 && t < 3 && p.inTransit { transit = true }
            if changedAt.isNaN && p.changedAt.isFinite { changedAt = p.changedAt }
        }
        #expect(transit)
        // 40° of 80° are reached half-way through the turn, plus the low-pass's lag.
        #expect(changedAt > 2.4 && changedAt < 3.0, "\(changedAt)")
        // Walking alone, from a standing rest, rocks the direction but never changes the posture.
        var q = PostureTracker(rateHz: 50)
        for k in 0..<(8 * 50) {
            let t = Double(k) / 50
            let rock = t >= 2 ? 15 * Math.sin(2 * Double.pi * t) * Double.pi / 180 : 0
            let g = Vector3(Math.sin(rock), 0, Math.cos(rock)) * 9.81
            q.update(gravity: g, acceleration: g, still: t < 2, time: t)
            #expect(!q.inTransit && q.changedAt.isNaN, "at \(t) s")
        }
    }

    /// Seated 3 s, standing up over 1 s (the thigh turns 80°, seen by the gyroscope too, and the
    /// push jolts the device twice), then 16 steps at 2 Hz: the resume is dated at the walk, not
    /// at the push, and stands.
    @Test func resumeIsDatedAtTheWalkNotAtStandingUp() throws {
        var rng = SplitMix64(seed: 11)
        var acc = SensorStream(kind: .acceleration), gyro = SensorStream(kind: .rotationRate)
        let seated = 3.0, standUp = 1.0, walkStart = seated + standUp, steps = 16, hz = 2.0
        let end = walkStart + Double(steps) / hz + 4
        var t = 0.0
        while t < end {
            let s = (t - seated) / standUp
            let up = Self.turned(0.5 - 0.5 * Math.cos(Double.pi * min(1, max(0, s))), degrees: 80)
            var m = 9.81
            if t >= seated && t < walkStart {
                m += 3 * Math.sin(2 * Double.pi * 2 * (t - seated))    // two jolts of the push
            } else if t >= walkStart && t < walkStart + Double(steps) / hz {
                let ph = 2 * Double.pi * hz * (t - walkStart)
                m += 3 * Math.sin(ph - Double.pi / 2) + 0.8 * Math.sin(2 * ph)
            }
            let n = Vector3(0.05 * rng.gaussian(), 0.05 * rng.gaussian(), 0.05 * rng.gaussian())
            acc.append(time: t, up * m + n)
            // d(angle)/dt about x: gravity (0, sin a, cos a) turns as the device pitches.
            let rate = s >= 0 && s <= 1 ? 0.5 * Double.pi * Math.sin(Double.pi * s) / standUp * 80 * Double.pi / 180 : 0
            gyro.append(time: t, Vector3(rate + 0.01 * rng.gaussian(), 0.01 * rng.gaussian(), 0.01 * rng.gaussian()))
            t += 0.01
        }
        let res = try MotionSession.run(Recording(streams: [acc, gyro]), model: nil)
        let first = try #require(res.stateChanges.first)
        #expect(first.state == .moving && first.change.time >= walkStart - 0.1 && first.change.time <= walkStart + 0.6, "\(res.stateChanges)")
        #expect(!res.stateChanges.contains { $0.change.cause == .unconfirmed }, "\(res.stateChanges)")
        // The same jolts without turning (someone already standing, shifting weight, then
        // walking): the posture never changes, so nothing is left out.
        var still = SensorStream(kind: .acceleration)
        for i in 0..<acc.count {
            let v = acc.vector(i)
            still.append(time: acc.times[i], Vector3(0, 0, v.norm))
        }
        let flat = try MotionSession.run(Recording(streams: [still]), model: nil)
        let f = try #require(flat.stateChanges.first)
        #expect(f.change.time < walkStart - 0.3, "without a change of posture the push counts: \(flat.stateChanges)")
    }
}
