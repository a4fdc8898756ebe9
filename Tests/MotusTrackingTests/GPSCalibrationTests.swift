import Testing
import MotusCore
@testable import MotusTracking

/// Stride calibration from a location stream: the same walk with and without GPS; with it,
/// the distance must move from the stride model's guess to what the positions say.
@Suite struct GPSCalibrationTests {
    @Test func locationStreamCalibratesTheStride() throws {
        // 240 steps at 2 Hz after 5 s still; the walker covers 0.55 m per step (132 m), which
        // the height model for 1.85 m would put well above that.
        let (acc, starts, _) = sessionSignal([.still(5), .walk(steps: 240, hz: 2), .still(4)])
        let stepLength = 0.55
        var loc = SensorStream(kind: .location)
        var t = 0.0
        while t <= acc.times.last! {
            let walked = max(0, min(t - starts[0], 120)) * 2 * stepLength
            let lat = 48.0 + walked / 111_200.0     // metres north to degrees (close enough at this scale)
            loc.append(time: t, [lat, 11.0, 500, .nan, .nan, 4, .nan])
            t += 1
        }
        var settings = SessionSettings.default
        settings.heightMeters = 1.85
        let without = try MotionSession.run(Recording(streams: [acc]), settings: settings, model: shippedModel())
        let with = try MotionSession.run(Recording(streams: [acc, loc]), settings: settings, model: shippedModel())
        let truth = 240 * stepLength
        let before = abs(without.summary.distanceMeters - truth), after = abs(with.summary.distanceMeters - truth)
        #expect(with.summary.steps == without.summary.steps)
        #expect(before > 0.15 * truth, "the uncalibrated model should be off here: \(without.summary.distanceMeters) m vs \(truth) m")
        #expect(after < 0.5 * before, "calibrated \(with.summary.distanceMeters) m, uncalibrated \(without.summary.distanceMeters) m, truth \(truth) m")
    }
}
