import Testing
import MotusTestSupport
import Foundation
import MotusCore
import MotusIO
@testable import MotusGeo

@Suite struct GeodesicTests {
    @Test func vincentyClassicExample() {
        // Flinders Peak → Buninyong (Vincenty 1975 / Geoscience Australia): 54,972.271 m.
        let lat1 = -(37 + 57 / 60.0 + 3.72030 / 3600), lon1 = 144 + 25 / 60.0 + 29.52440 / 3600
        let lat2 = -(37 + 39 / 60.0 + 10.15610 / 3600), lon2 = 143 + 55 / 60.0 + 35.38390 / 3600
        #expect(abs(Geodesic.distance(lat1, lon1, lat2, lon2) - 54_972.271) < 0.001)
    }

    @Test func meridianQuadrantAndEquator() {
        // Equator to pole along a meridian: 10,001,965.729 m on WGS84.
        #expect(abs(Geodesic.distance(0, 0, 90, 0) - 10_001_965.729) < 0.001)
        // One degree along the equator: a · π / 180.
        #expect(abs(Geodesic.distance(0, 0, 0, 1) - Geodesic.a * Double.pi / 180) < 1e-6)
        #expect(Geodesic.distance(10, 20, 10, 20) == 0)
        // Nearly antipodal: falls back to the sphere, stays finite.
        #expect(Geodesic.distance(0, 0, 0.5, 179.7).isFinite)
    }

    @Test func closeToHaversineForShortSteps() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let lat = rng.uniform() * 160 - 80, lon = rng.uniform() * 360 - 180
            let lat2 = lat + (rng.uniform() - 0.5) * 0.001, lon2 = lon + (rng.uniform() - 0.5) * 0.001
            let v = Geodesic.distance(lat, lon, lat2, lon2), h = Geodesic.haversine(lat, lon, lat2, lon2)
            #expect(abs(v - h) <= 0.006 * h + 1e-9)
            // Symmetric.
            #expect(abs(v - Geodesic.distance(lat2, lon2, lat, lon)) < 1e-6)
        }
    }
}

@Suite struct ElevationTests {
    /// Naive reference for the dead band, written from the README's words with an index loop.
    static func naiveDeadBand(_ e: [Double], _ band: Double) -> (Double, Double) {
        let v = e.filter { !$0.isNaN }
        guard !v.isEmpty else { return (0, 0) }
        var ref = v[0], up = 0.0, down = 0.0
        for x in v.dropFirst() {
            if x - ref >= band { up += x - ref; ref = x }
            if ref - x >= band { down += ref - x; ref = x }
        }
        return (up, down)
    }

    @Test func deadBandMatchesNaiveReference() {
        var rng = SplitMix64(seed: 1)
        var e: [Double] = []
        var h = 100.0
        for i in 0..<5000 { h += rng.gaussian() * 0.8; e.append(i % 97 == 0 ? .nan : h) }
        let g = ElevationGain.compute(e, rule: .deadBand(meters: 5))
        let n = Self.naiveDeadBand(e, 5)
        #expect(abs(g.gainMeters - n.0) < 1e-9 && abs(g.lossMeters - n.1) < 1e-9)
    }

    @Test func flatNoiseAddsNothing() {
        var rng = SplitMix64(seed: 3)
        let e = (0..<20_000).map { _ in 50 + rng.gaussian() * 1.0 }
        #expect(ElevationGain.compute(e).gainMeters == 0)
        #expect(ElevationGain.compute(e, rule: .raw).gainMeters > 1000)
    }

    @Test func steadyClimbCountsFully() {
        let e = (0...1000).map { Double($0) * 0.5 }   // 500 m
        #expect(abs(ElevationGain.compute(e).gainMeters - 500) <= 5)
        #expect(abs(ElevationGain.compute(e, rule: .dipBuffer(meters: 10)).gainMeters - 500) < 1e-9)
    }

    @Test func profileGrades() {
        // 1 km at 5 %, then 1 km flat, sampled every 10 m.
        var d: [Double] = [], e: [Double] = []
        for i in 0...200 { d.append(Double(i) * 10); e.append(i <= 100 ? Double(i) * 0.5 : 50) }
        let p = ElevationProfile(cumulativeDistances: d, elevations: e, stepMeters: 100)
        #expect(p.points.count == 21)
        #expect(abs(p.maxGradePercent - 5) < 1e-9)
        #expect(abs(p.points[15].gradePercent) < 1e-9)
        #expect(abs(p.grade(atDistance: 250) - 5) < 1e-9)
    }

    @Test func barometricAltitude() {
        #expect(abs(BarometricAltitude.altitude(pascals: 101_325)) < 1e-9)
        #expect(abs(BarometricAltitude.altitude(pascals: 89_874.6) - 1000) < 1)   // ISA table: 1,000 m ↔ 898.746 hPa
        let p = SensorStream(kind: .pressure, times: [0, 1, 2], values: [101_325, 101_313, 101_301])
        let out = BarometricAltitude.elevations(pressure: p, at: [0, 0.5, 1, 2], gpsAltitudes: [110, .nan, 111, 112])
        // ~1 m per 12 Pa; the offset moves the median difference to match GPS (~+10 m).
        #expect(abs(out[0] - 110) < 0.2 && abs(out[3] - 112) < 0.2 && out[1] > out[0])
    }
}

@Suite struct SmoothingTests {
    /// A straight line at 5 m/s with 4 m noise: the smoothed track is closer to the truth than
    /// the fixes and its speed is close to 5 m/s.
    @Test func kalmanOnStraightLine() {
        var rng = SplitMix64(seed: 11)
        var t = Track()
        let plane = LocalTangentPlane(latitude: 45, longitude: 7)
        var truth: [(Double, Double)] = []
        for i in 0..<600 {
            let e = 5.0 * Double(i) * 0.8, n = 5.0 * Double(i) * 0.6
            truth.append((e, n))
            let ll = plane.unproject(east: e + rng.gaussian() * 4, north: n + rng.gaussian() * 4)
            t.append(time: Double(i), latitude: ll.latitude, longitude: ll.longitude)
        }
        let out = PositionSmoother().smooth(t)
        var rawErr = 0.0, smErr = 0.0, speedErr = 0.0
        for i in 50..<550 {
            let r = plane.project(t.latitudes[i], t.longitudes[i]), s = plane.project(out.latitudes[i], out.longitudes[i])
            rawErr += (r.east - truth[i].0) * (r.east - truth[i].0) + (r.north - truth[i].1) * (r.north - truth[i].1)
            smErr += (s.east - truth[i].0) * (s.east - truth[i].0) + (s.north - truth[i].1) * (s.north - truth[i].1)
            speedErr += abs(out.speeds[i] - 5)
        }
        #expect(smErr < 0.25 * rawErr)
        #expect(speedErr / 500 < 0.3)
    }

    @Test func outlierJumpIsRejected() {
        var t = Track()
        for i in 0..<20 { t.append(time: Double(i), latitude: 45 + Double(i) * 0.00005, longitude: 7) }
        t.latitudes[10] = 45.1   // 11 km away for one second
        let ok = OutlierFilter().accepted(t)
        #expect(!ok[10] && ok[9] && ok[11])
        t.horizontalAccuracies[5] = 200
        #expect(!OutlierFilter().accepted(t)[5])
    }

    @Test func stationaryJitterAddsNoDistance() {
        var rng = SplitMix64(seed: 5)
        var t = Track()
        let plane = LocalTangentPlane(latitude: 31, longitude: 121)
        // 10 min standing with 3 m jitter, speed reported ~0.2 m/s.
        for i in 0..<600 {
            let ll = plane.unproject(east: rng.gaussian() * 3, north: rng.gaussian() * 3)
            t.append(time: Double(i), latitude: ll.latitude, longitude: ll.longitude, speed: abs(rng.gaussian() * 0.2))
        }
        let s = TrackSummary(track: t, settings: TrackSettings(activity: .ride))
        #expect(s.distanceMeters == 0 && s.movingTimeSeconds == 0)
        #expect(s.pathLengthMeters > 1000)
    }

    @Test func autoPauseHysteresis() {
        var t = Track()
        // speeds: 5 m/s for 60 s, 1.2 (between thresholds) for 30 s, 0.2 for 60 s, 1.2 for 30 s, 5 for 60 s.
        let speeds = Array(repeating: 5.0, count: 60) + Array(repeating: 1.2, count: 30) + Array(repeating: 0.2, count: 60)
            + Array(repeating: 1.2, count: 30) + Array(repeating: 5.0, count: 60)
        var lat = 45.0
        for (i, v) in speeds.enumerated() {
            lat += v / 111_000
            t.append(time: Double(i), latitude: lat, longitude: 7, speed: v)
        }
        let s = TrackSummary(track: t, settings: TrackSettings(activity: .ride))
        // Moving through the first 1.2 stretch (was moving), stopped through the second (was stopped).
        #expect(abs(s.movingTimeSeconds - 150) <= 1)
        #expect(s.events.map(\.kind) == [.pause, .resume])   // moving from the start is not an event
    }

    @Test func accelerometerStillnessForcesStop() {
        var t = Track()
        var lat = 45.0
        for i in 0..<100 { lat += 3.0 / 111_000; t.append(time: Double(i), latitude: lat, longitude: 7, speed: 3) }
        var s = TrackSettings(activity: .ride)
        s.stillIntervals = [40...59]
        let out = TrackSummary(track: t, settings: s)
        #expect(abs(out.movingTimeSeconds - 79) <= 1)
    }
}

@Suite struct EnergyTests {
    @Test func acsmRunning() {
        // 10 km/h (166.7 m/min) flat, 70 kg, 60 min: VO2 = 3.5 + 33.33 = 36.83 mL/kg/min → 773.6 kcal.
        let m = EnergyModel(riderMassKg: 70)
        #expect(abs(m.runningKcal(speed: 10 / 3.6, gradePercent: 0, seconds: 3600) - 773.5) < 0.5)
        #expect(m.runningKcal(speed: 10 / 3.6, gradePercent: 5, seconds: 60) > m.runningKcal(speed: 10 / 3.6, gradePercent: 0, seconds: 60))
    }

    @Test func cyclingRoadLoad() {
        let m = EnergyModel(riderMassKg: 75, bikeMassKg: 9)
        // Flat 10 m/s: rolling 0.005·84·9.80665·10 = 41.2 W, aero ½·1.225·0.32·1000 = 196 W → /0.976.
        #expect(abs(m.cyclingPower(speed: 10, gradePercent: 0) - (41.19 + 196) / 0.976) < 0.5)
        #expect(m.cyclingPower(speed: 15, gradePercent: -8) == 0)
        #expect(abs(m.cyclingKcal(workJoules: 1_004_160) - 1000) < 1e-9)
    }
}


@Suite struct RecordingTrackTests {
    /// A native recording with location, pressure and accelerometer: the barometer gives the
    /// elevation (offset to GPS), and the accelerometer's still minute counts as stopped even
    /// though the GPS speed says 2 m/s.
    @Test func recordingWithBarometerAndIMU() {
        var rng = SplitMix64(seed: 9)
        var loc = SensorStream(kind: .location), baro = SensorStream(kind: .pressure), acc = SensorStream(kind: .acceleration)
        var lat = 45.0
        for i in 0..<300 {
            let t = Double(i)
            lat += 4.0 / 111_000
            let climb = t * 0.1   // 30 m over 5 minutes
            loc.append(time: t, [lat, 7, 200 + climb + rng.gaussian() * 8, i >= 100 && i < 160 ? 2 : 4, .nan, 5, .nan])
            baro.append(time: t, [101_325 * Math.pow(1 - 2.25577e-5 * climb, 5.25588)])
            for k in 0..<10 {
                let still = i >= 100 && i < 160
                acc.append(time: t + Double(k) / 10, Vector3(0, 0, 9.81 + (still ? 0.005 : 1.5) * rng.gaussian()))
            }
        }
        let r = Recording(streams: [loc, baro, acc])
        let t = Track(recording: r)
        #expect(t.count == 300)
        // Barometric: smooth, and offset to the GPS median (~200 m at the start).
        #expect(abs(t.elevations[0] - 200) < 3 && abs(t.elevations[299] - t.elevations[0] - 29.9) < 0.1)
        #expect(abs(ElevationGain.compute(t.elevations, rule: .raw).gainMeters - 29.9) < 0.1)
        #expect(!t.stillIntervals.isEmpty)
        let s = TrackSummary(track: t, settings: TrackSettings(activity: .ride))
        #expect(s.movingTimeSeconds < 245 && s.movingTimeSeconds > 230)
    }
}
