import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusGeo

/// The quality bars, on the real files in shared/datasets/tracks.
@Suite struct QualityBarTests {
    static func summary(_ file: String) throws -> (Track, TrackSummary) {
        let t = try TrackLoader.load(path: TrackData.path(file))
        let act = TrackActivity(sport: t.sport) ?? .ride
        return (t, TrackSummary(track: t, settings: TrackSettings(activity: act)))
    }

    /// Distance from positions within 1 % of the device's on the Garmin rides and the Fenix run.
    @Test(.enabled(if: TrackData.available), arguments: [TrackData.edge530, TrackData.edge810, TrackData.edge500, TrackData.edge1030, TrackData.fenix])
    func distanceWithinOnePercentOfDevice(file: String) throws {
        let (t, s) = try Self.summary(file)
        let device = try #require(t.deviceSummary.distanceMeters)
        print("distance \(file): motus \(fmt(s.distanceMeters, 0)) m, device \(fmt(device, 0)) m, path with stops \(fmt(s.pathLengthMeters, 0)) m, diff \(fmt((s.distanceMeters / device - 1) * 100, 2)) %")
        #expect(rel(s.distanceMeters, device) < 0.01)
    }

    /// The ELEMNT measured with a wheel sensor through many stops: the raw path (stops
    /// included) is 2.7 % long because of stationary GPS jitter; Motus drops the jitter.
    @Test(.enabled(if: TrackData.available))
    func elemntStationaryJitterAddsNoDistance() throws {
        let (t, s) = try Self.summary(TrackData.elemnt)
        let device = try #require(t.deviceSummary.distanceMeters)
        print("ELEMNT: motus \(fmt(s.distanceMeters, 0)) m, wheel sensor \(fmt(device, 0)) m, every GPS step \(fmt(s.pathLengthMeters, 0)) m")
        #expect(s.pathLengthMeters > device * 1.02)
        #expect(rel(s.distanceMeters, device) < 0.01)
    }

    /// Elevation gain, one rule (5 m dead band) for every file, within 10 % of the device on
    /// the Edge 530 and Edge 1030 and of BRouter's own filtered ascent.
    @Test(.enabled(if: TrackData.available), arguments: [TrackData.edge530, TrackData.edge1030, TrackData.brouter])
    func elevationGainWithinTenPercent(file: String) throws {
        let t = try TrackLoader.load(path: TrackData.path(file))
        let reference = try #require(t.deviceSummary.ascentMeters)
        let gain = ElevationGain.compute(t.elevations).gainMeters
        print("ascent \(file): motus \(fmt(gain, 1)) m, reference \(fmt(reference, 0)) m (\(fmt((gain / reference - 1) * 100, 1)) %)")
        #expect(rel(gain, reference) < 0.10)
    }

    /// BRouter's own rule reproduces its figure exactly (README: 1,991.25 m).
    @Test(.enabled(if: TrackData.available))
    func brouterRuleReproducesBRouter() throws {
        let t = try GPXReader.read(path: TrackData.path(TrackData.brouter))
        let g = ElevationGain.compute(t.elevations, rule: .dipBuffer(meters: 10))
        #expect(abs(g.gainMeters - 1991.25) < 1e-6)
    }

    /// Every other file: Motus's figure beside the device's, the raw sum and the 5 m band.
    @Test(.enabled(if: TrackData.available))
    func printsElevationSideBySide() throws {
        let files = TrackData.fitFiles + ["tcxparser/test.tcx", "togeojson/run.gpx", "togeojson/apple_watch_route.gpx", "togeojson/trek.gpx", TrackData.brouter]
        print("file | motus | device | raw | 5 m band | 10 m dip buffer")
        for f in files {
            let t = try TrackLoader.load(path: TrackData.path(f))
            let r = ElevationReport(elevations: t.elevations)
            print("\(f) | \(fmt(r.motus.gainMeters, 1)) | \(t.deviceSummary.ascentMeters.map { fmt($0, 0) } ?? "-") | \(fmt(r.raw.gainMeters, 1)) | \(fmt(r.deadBand5m.gainMeters, 1)) | \(fmt(r.dipBuffer10m.gainMeters, 1))")
            // The README's raw and 5 m figures (naive reference).
            #expect(r.motus == r.deadBand5m)
        }
        let e810 = ElevationReport(elevations: try TrackLoader.load(path: TrackData.path(TrackData.edge810)).elevations)
        #expect(abs(e810.raw.gainMeters - 835.2) < 0.1 && abs(e810.deadBand5m.gainMeters - 433.0) < 0.1)
    }

    /// Moving time against the device's timer time (auto-pause), and the spike filter on max speed.
    @Test(.enabled(if: TrackData.available), arguments: [TrackData.edge530, TrackData.edge810, TrackData.edge500, TrackData.edge1030, TrackData.fenix, TrackData.elemnt])
    func movingTimeNearDeviceTimer(file: String) throws {
        let (t, s) = try Self.summary(file)
        let timer = try #require(t.deviceSummary.timerSeconds)
        print("moving \(file): motus \(fmt(s.movingTimeSeconds, 0)) s, device timer \(fmt(timer, 0)) s")
        #expect(rel(s.movingTimeSeconds, timer) < 0.07)
    }

    @Test(.enabled(if: TrackData.available))
    func edge500SpeedSpikeIsNotTheMaximum() throws {
        let (t, s) = try Self.summary(TrackData.edge500)
        #expect(t.deviceSummary.maxSpeedMetersPerSecond! > 26)
        #expect(s.maxSpeedMetersPerSecond < 17.5 && s.maxSpeedMetersPerSecond > 15)
    }

    @Test(.enabled(if: TrackData.available))
    func runHasStepsAndCadence() throws {
        let (_, s) = try Self.summary(TrackData.fenix)
        #expect(s.activity == .run)
        let spm = try #require(s.cadenceStepsPerMinute)
        #expect(spm > 140 && spm < 190)
        let steps = try #require(s.steps)
        // steps ≈ cadence × moving minutes
        #expect(abs(steps - spm * s.movingTimeSeconds / 60) < 0.02 * steps)
        #expect(s.splits.count == 9)
    }
}

@Suite struct XMLSessionTests {
    /// GPX and TCX runs have no device speed: the Kalman speed drives the auto-pause.
    @Test(.enabled(if: TrackData.available), arguments: ["togeojson/run.gpx", "tcxparser/test.tcx", "togeojson/apple_watch_route.gpx"])
    func runsWithoutDeviceSpeed(file: String) throws {
        let t = try TrackLoader.load(path: TrackData.path(file))
        let s = TrackSummary(track: t, settings: TrackSettings(activity: .run))
        print("\(file): distance \(fmt(s.distanceMeters, 0)) m (path \(fmt(s.pathLengthMeters, 0)) m), moving \(fmt(s.movingTimeSeconds, 0)) s of \(fmt(s.elapsedTimeSeconds, 0)) s")
        #expect(s.distanceMeters > 0.9 * s.pathLengthMeters)
        #expect(s.movingTimeSeconds > 0.5 * s.elapsedTimeSeconds)
    }
}
