import Testing
import MotusCore
import MotusIO
import MotusClassifier
@testable import MotusTracking

/// The session decides on durations, not on where the clock starts: the same recording with
/// its times counted from 0 and counted in Unix seconds (shifted by 1.7·10⁹ s, where one unit
/// in the last place is about 2·10⁻⁷ s) gives the same events, their times shifted.
@Suite struct ClockOriginTests {
    static let shift = 1.7e9
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)

    static func shifted(_ r: Recording, by s: Double) -> Recording {
        var out = r
        out.streams = r.streams.map { x in
            var c = x
            c.replace(times: x.times.map { $0 + s }, values: x.values)
            return c
        }
        return out
    }

    /// Same causes and states in the same order, times within `tolerance` once shifted back,
    /// and the same steps.
    static func expectSame(_ a: SessionResult, _ b: SessionResult, shift: Double, _ name: String) {
        let tolerance = 1e-5
        #expect(a.stateChanges.count == b.stateChanges.count, "\(name): \(a.stateChanges.count) vs \(b.stateChanges.count) changes")
        for (x, y) in zip(a.stateChanges, b.stateChanges) {
            #expect(x.state == y.state && x.change.cause == y.change.cause, "\(name): \(x) vs \(y)")
            #expect(abs(y.change.time - shift - x.change.time) < tolerance && abs(y.change.decidedAt - shift - x.change.decidedAt) < tolerance,
                    "\(name): \(x.change) vs \(y.change) (shifted back: \(y.change.time - shift), \(y.change.decidedAt - shift))")
        }
        #expect(a.stepTimes.count == b.stepTimes.count, "\(name): \(a.stepTimes.count) vs \(b.stepTimes.count) steps")
        let worst = zip(a.stepTimes, b.stepTimes).map { abs($1 - shift - $0) }.max() ?? 0
        #expect(worst < tolerance, "\(name): step times differ by up to \(worst) s")
        #expect(abs(b.summary.movingTimeSeconds - a.summary.movingTimeSeconds) < 1e-4, "\(name)")
    }

    /// A real lower-back recording of daily activities (walks, stops, sitting; many resumes and
    /// pauses, some provisional resumes retracted), from 0 and in Unix seconds.
    @Test func bundledRecordingFromZeroAndInUnixSeconds() throws {
        let r = try RecordingLoader.load(path: Self.root + "/datasets/lowback-daily-activities.motus")
        #expect(r.timeRange.map { abs($0.lowerBound) < 0.1 } == true, "the recording counts from 0")
        let a = try MotionSession.run(r, model: .shipped)
        let b = try MotionSession.run(Self.shifted(r, by: Self.shift), model: .shipped)
        #expect(a.stateChanges.count >= 10 && a.summary.steps > 50, "\(a.stateChanges.count) changes, \(a.summary.steps) steps")
        Self.expectSame(a, b, shift: Self.shift, "lowback-daily-activities")
    }

    /// A recording stamped in Unix seconds (an iPhone at the belt) moved to start at 0.
    @Test func unixRecordingMovedToZero() throws {
        let r = try RecordingLoader.load(path: Self.root + "/datasets/iphone-belt-stand-then-walk.motus")
        let start = try #require(r.timeRange?.lowerBound)
        #expect(start > 1e9)
        // Moved by a whole number of 50 Hz frames, so that the frame grid (origin 0) keeps its phase.
        let back = -(start * 50).rounded(.down) / 50
        let a = try MotionSession.run(Self.shifted(r, by: back), model: .shipped)
        let b = try MotionSession.run(r, model: .shipped)
        Self.expectSame(a, b, shift: -back, "iphone-belt-stand-then-walk")
    }

    /// The pedometer's grid: cell ends are t₀ + k·T, with no drift from adding T cell after cell
    /// (which, at Unix seconds, moves them by about 10⁻⁴ s within minutes).
    @Test func cellEndsDoNotDriftOnALargeClock() {
        let t0 = Self.shift + 0.013
        var c = CellAverager(rateHz: 50)
        var ends: [Double] = []
        var k = 0
        while k <= 100 * 3600 {   // an hour at 100 Hz
            c.push(time: t0 + Double(k) / 100, value: 1) { t, _ in ends.append(t) }
            k += 1
        }
        #expect(ends.count == 50 * 3600)
        let worst = ends.enumerated().map { abs($1 - (t0 + Double($0 + 1) / 50)) }.max() ?? 1
        #expect(worst < 1e-6, "cell ends drift by up to \(worst) s")
    }
}
