import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusGeo

/// #18: the work of ride, route and compare is bounded by the points and the rows printed,
/// whatever --split, --grade-step or --step ask for; degenerate tracks get an error, not nan.
@Suite struct BoundedWorkTests {
    /// 100 points alternating between latitude 0 and 80 (8,900 km apart), no times: a polyline.
    static func alternating(_ n: Int = 100) -> Track {
        var t = Track()
        for i in 0..<n { t.append(time: .nan, latitude: i % 2 == 0 ? 0 : 80, longitude: 0) }
        return t
    }

    @Test func splitsAreCappedAndCounted() {
        let t = Self.alternating()
        let s = RideSummary.summarize(track: t, options: RideOptions(activity: .ride)).summary
        let total = Int((s.distanceMeters / 1000).rounded(.down)) + 1   // whole kilometres and the last part
        #expect(s.splits.count == TrackSettings.defaultMaxSplits)
        #expect(s.splits.count + s.splitsNotListed == total)
        #expect(s.splits.last?.index == TrackSettings.defaultMaxSplits && s.splits.last?.distanceMeters == 10_000_000)
        // A split longer than the whole way: one split, nothing left out.
        let one = RideSummary.summarize(track: t, options: RideOptions(activity: .ride, splitMeters: 1e12)).summary
        #expect(one.splits.count == 1 && one.splitsNotListed == 0 && one.splits[0].distanceMeters == one.distanceMeters)
        // A split that does not move the mark (smaller than the distance's last digit).
        let tiny = RideSummary.summarize(track: t, options: RideOptions(activity: .ride, splitMeters: 1e-300)).summary
        #expect(tiny.splits.count == TrackSettings.defaultMaxSplits && tiny.splitsNotListed > 0)
    }

    @Test func profileStepIsWidenedPastTheCap() {
        var t = Self.alternating()
        t.elevations = (0..<t.count).map { Double($0 % 7) * 10 }
        let r = RouteSummary(track: t, gradeStepMeters: 0.001)
        #expect(r.profile.points.count <= ElevationProfile.maxPoints)
        #expect(r.profile.stepMeters > 0.001 && abs(r.profile.stepMeters - r.distanceMeters / Double(ElevationProfile.maxPoints - 2)) < 1e-6 * r.profile.stepMeters)
        #expect(r.profile.points.last?.distanceMeters == r.distanceMeters)
        // A step the distance allows is kept.
        #expect(RouteSummary(track: t, gradeStepMeters: 1e6).profile.stepMeters == 1e6)
    }

    @Test func comparisonMarksAreCapped() {
        let d = (0..<100).map { Double($0) * 1000 }, tm = (0..<100).map { Double($0) * 200 }
        let c = SessionComparison(a: (d, tm), b: (d, tm.map { $0 * 1.1 }), axis: .distance, step: 0.001)
        #expect(c.marks.count == SessionComparison.maxMarks)
        #expect(c.step == 99_000.0 / Double(SessionComparison.maxMarks) && c.marks.last?.at == 99_000)
        let byTime = SessionComparison(a: (d, tm), b: (d, tm), axis: .time, step: 1e-300)
        #expect(byTime.marks.count <= SessionComparison.maxMarks + 1 && byTime.marks.allSatisfy { $0.leader == "tie" })
        // The usual step is untouched.
        #expect(SessionComparison(a: (d, tm), b: (d, tm), axis: .distance, step: 1000).marks.count == 99)
    }

    /// --split 0.001 on a real GPX run: 10,000 splits listed, the rest counted.
    @Test(.enabled(if: TrackData.available)) func tinySplitOnARealRun() throws {
        let r = try RideSummary.summarize(path: TrackData.path("togeojson/run.gpx"), options: RideOptions(splitMeters: 0.001))
        #expect(r.summary.splits.count == TrackSettings.defaultMaxSplits)
        // Whole millimetres past the first 10,000 (a last part under 1 m is no split).
        #expect(r.summary.splitsNotListed == Int((r.summary.distanceMeters / 0.001).rounded(.down)) - TrackSettings.defaultMaxSplits)
        // The default split is unchanged: every kilometre and the last part.
        let d = try RideSummary.summarize(path: TrackData.path("togeojson/run.gpx")).summary
        #expect(d.splits.count == 3 && d.splitsNotListed == 0 && d.splits.map(\.distanceMeters)[0..<2] == [1000, 2000])
    }

    @Test func sessionsNeedTwoPositions() {
        var one = Track()
        one.append(time: 0, latitude: 52.5, longitude: 13.4)
        #expect(throws: InputError(.truncated, at: SourceLocation(file: "one.gpx"), found: "one point with a position",
                                   expected: "at least two points with latitude and longitude (a distance needs two)")) { try one.requireTwoPositions(file: "one.gpx") }
        var none = Track()
        none.append(time: 0, latitude: .nan, longitude: .nan)
        #expect(throws: InputError(.emptyFile, at: SourceLocation(file: "n.tcx"), found: "no point with a position (1 points)",
                                   expected: "at least two points with latitude and longitude (a distance needs two)")) { try none.requireTwoPositions(file: "n.tcx") }
        one.append(time: 1, latitude: 52.5001, longitude: 13.4)
        #expect(throws: Never.self) { try one.requireTwoPositions(file: "two.gpx") }
    }

    /// A route without times: no pace of zero, no nan where a figure exists.
    @Test func noTimesGivesNoFalsePace() {
        let s = RideSummary.summarize(track: Self.alternating(4), options: RideOptions(activity: .run)).summary
        #expect(s.movingTimeSeconds == 0 && s.averagePaceSecondsPerKm.isNaN && s.averageSpeedMetersPerSecond.isNaN)
        #expect(s.distanceMeters.isFinite && s.distanceMeters > 0 && s.energyKcal == 0)
        #expect(s.splits.allSatisfy { $0.paceSecondsPerKm.isNaN && $0.lengthMeters > 0 })
    }
}
