import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusGeo

@Suite struct ComparisonTests {
    /// Naive reference: two constant-speed sessions. A at 10 m/s, B at 8 m/s over 10 km.
    @Test func constantSpeeds() {
        let da = (0...1000).map { Double($0) * 10 }, ta = (0...1000).map { Double($0) }
        let db = (0...1250).map { Double($0) * 8 }, tb = (0...1250).map { Double($0) }
        let c = SessionComparison(a: (da, ta), b: (db, tb), axis: .distance, step: 1000)
        #expect(c.marks.count == 10)
        for m in c.marks {
            // At d, A took d/10 s, B d/8 s; when A passed d, B was at 0.8 d.
            #expect(abs(m.gapSeconds - (m.at / 8 - m.at / 10)) < 1e-6)
            #expect(abs(m.gapMeters - 0.2 * m.at) < 1e-6)
            #expect(m.leader == "A")
        }
        let ct = SessionComparison(a: (db, tb), b: (da, ta), axis: .time, step: 100)
        #expect(ct.marks.allSatisfy { $0.leader == "B" && abs($0.gapMeters + 2 * $0.at) < 1e-6 })
    }

    /// A real ride against itself slowed by 5 % and with a 10-minute stop after 20 km.
    @Test(.enabled(if: TrackData.available))
    func realRideAgainstSlowerCopy() throws {
        let a = try FITReader.read(path: TrackData.path(TrackData.edge530))
        var b = a
        let t0 = a.times[0]
        for i in b.times.indices { b.times[i] = t0 + (a.times[i] - t0) * 1.05 }
        let s = TrackSettings(activity: .ride)
        let sa = TrackSummary(track: a, settings: s), sb = TrackSummary(track: b, settings: s)
        let c = SessionComparison(a: sa, b: sb, step: 5000)
        #expect(c.marks.allSatisfy { $0.leader == "A" && $0.gapSeconds > 0 && $0.gapMeters > 0 })
        // At the end B is 5 % of A's elapsed time behind.
        let last = c.marks.last!
        #expect(abs(last.gapSeconds - 0.05 * last.timeA) < 0.01 * last.timeA)
    }

    @Test(.enabled(if: TrackData.available))
    func rankingOnARealRoute() throws {
        let a = try FITReader.read(path: TrackData.path(TrackData.edge810))
        var slow = a
        let t0 = a.times[0]
        for i in slow.times.indices { slow.times[i] = t0 + (a.times[i] - t0) * 1.1 }
        var half = a
        let n = a.count / 2
        for k in [\Track.times, \.latitudes, \.longitudes, \.elevations, \.speeds, \.distances, \.heartRates, \.cadences, \.powers, \.horizontalAccuracies] as [WritableKeyPath<Track, [Double]>] {
            half[keyPath: k] = Array(a[keyPath: k].prefix(n))
        }
        let r = RouteRanking(route: a, sessions: [("slow", slow), ("half", half), ("fast", a)])
        #expect(r.entries.map(\.name) == ["fast", "slow", "half"])
        #expect(r.entries[0].rank == 1 && r.entries[1].rank == 2 && r.entries[2].rank == nil && !r.entries[2].finished)
        let fast = try #require(r.entries[0].timeSeconds), slowT = try #require(r.entries[1].timeSeconds)
        #expect(abs(slowT / fast - 1.1) < 0.01)
        #expect(abs(fast - (a.times[a.count - 1] - a.times[0])) < 60)   // start and finish are within 40 m of the ends
        #expect(r.entries[2].checkpointsPassed < r.entries[2].checkpoints)
    }
}
