import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusGeo

@Suite struct RideSummaryTests {
    /// The options pick the activity (given, else the file's sport, else ride) and carry the
    /// masses, split and grade step into the settings; the rest follows from the activity.
    @Test func optionsMakeTheSettings() {
        var run = Track()
        run.sport = "running"
        #expect(RideOptions().settings(for: run).activity == .run)
        #expect(RideOptions().settings(for: Track()).activity == .ride)
        #expect(RideOptions(activity: .walk).settings(for: run).activity == .walk)
        let s = RideOptions(activity: .ride, riderMassKg: 60, bikeMassKg: 7, splitMeters: 500, gradeStepMeters: 50).settings(for: run)
        #expect(s.energy == EnergyModel(riderMassKg: 60, bikeMassKg: 7))
        #expect(s.splitMeters == 500 && s.gradeStepMeters == 50)
        #expect(s.stopSpeed == TrackSettings(activity: .ride).stopSpeed && s.outliers.maxSpeedMetersPerSecond == 35)
    }

    /// Summarising a file is loading it and summarising the track with the options' settings.
    @Test(.enabled(if: TrackData.available), arguments: [TrackData.fenix, "tcxparser/test.tcx", "togeojson/run.gpx"])
    func summarizeFileIsLoadThenSummary(file: String) throws {
        let path = TrackData.path(file)
        let options = RideOptions(riderMassKg: 70, splitMeters: 500)
        let r = try RideSummary.summarize(path: path, options: options)
        let t = try TrackLoader.load(path: path)
        let s = TrackSummary(track: t, settings: options.settings(for: t))
        // (Tracks and splits hold NaN for what is absent, so they are compared field by field.)
        #expect(r.track.count == t.count && r.track.times == t.times && r.track.source == t.source && r.track.sport == t.sport)
        #expect(r.summary.distanceMeters == s.distanceMeters && r.summary.movingTimeSeconds == s.movingTimeSeconds && r.summary.energyKcal == s.energyKcal)
        #expect(r.summary.splits.map(\.distanceMeters) == s.splits.map(\.distanceMeters) && r.summary.splits.first?.lengthMeters == 500)
        #expect(r.summary.activity == (TrackActivity(sport: t.sport) ?? .ride))
    }
}
