import Testing
import MotusCore
import MotusFusion
@testable import MotusTracking

/// The session reports a compass heading when, and only when, a magnetometer streams in.
@Suite struct HeadingSessionTests {
    /// A phone lying flat turns slowly about the vertical under Earth's field (20 µT north,
    /// 40 µT down, east-north-up): the snapshot's heading follows the top edge's azimuth.
    @Test func headingFollowsTheMagnetometer() {
        var session = MotionSession()
        let earth = Vector3(0, 20, -40), w = Vector3(0, 0, -0.1)   // clockwise seen from above
        var truth = Quaternion(axis: Vector3(0, 0, 1), angle: -0.5)  // top edge 0.5 rad east of north
        var worst = 0.0
        for i in 0..<6000 {
            let t = Double(i) * 0.01
            if i > 0 { truth = (truth * Quaternion(axis: w, angle: w.norm * 0.01)).normalized }
            session.pushAcceleration(truth.inverseRotate(Vector3(0, 0, 9.81)), time: t)
            session.pushRotationRate(w, time: t)
            session.pushMagneticField(truth.inverseRotate(earth), time: t)
            guard i > 2000, i % 100 == 0 else { continue }
            let y = truth.rotate(Vector3(0, 1, 0))
            var expected = Math.atan2(y.x, y.y) * Math.degreesPerRadian
            if expected < 0 { expected += 360 }
            guard let h = session.snapshot.headingDegrees else { Issue.record("no heading at \(t) s"); return }
            let d = abs(h - expected)
            worst = max(worst, min(d, 360 - d))
        }
        // Frames at the session's rate, with the half-sample prediction: within a degree.
        #expect(worst < 1, "worst heading error \(worst)°")
    }

    @Test func noMagnetometerNoHeading() {
        var session = MotionSession()
        for i in 0..<500 {
            session.pushAcceleration(Vector3(0, 0, 9.81), time: Double(i) * 0.01)
            session.pushRotationRate(.zero, time: Double(i) * 0.01)
        }
        #expect(session.snapshot.headingDegrees == nil)
    }
}
