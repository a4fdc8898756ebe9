import MotusCore

/// Two sessions side by side: at each mark along the way (by distance or by time), who leads
/// and by how much, in seconds and in metres.
///
/// Each session is reduced to its cumulative moving distance against elapsed time (from
/// `TrackSummary`), which is non-decreasing. By distance: at mark d, A reached it at tA(d)
/// and B at tB(d) (linear interpolation); the time gap is tB − tA (positive: A ahead) and the
/// distance gap is d − dB(tA(d)), how far B was behind when A passed. By time: at mark t, the
/// distance gap is dA(t) − dB(t) and the time gap is tB(dA(t)) − t when B reached that point.
public struct SessionComparison: Sendable {
    /// What the marks step along.
    public enum Axis: String, Sendable, Codable {
        /// Marks every `step` metres.
        case distance
        /// Marks every `step` seconds.
        case time
    }

    /// Both sessions at one mark.
    public struct Mark: Sendable, Codable, Equatable {
        /// The mark: metres (by distance) or seconds (by time).
        public var at: Double
        /// A's elapsed time at the mark (s).
        public var timeA: Seconds
        /// B's elapsed time at the mark (s).
        public var timeB: Seconds
        /// A's distance at the mark (m).
        public var distanceA: Meters
        /// B's distance at the mark (m).
        public var distanceB: Meters
        /// "A", "B" or "tie".
        public var leader: String
        /// Positive when A leads.
        public var gapSeconds: Seconds
        /// Positive when A leads.
        public var gapMeters: Meters
    }

    /// Distance or time.
    public var axis: Axis
    /// The step between marks: the one asked for, or wider when the common length ÷ the step
    /// would give more than `maxMarks` marks (then common length ÷ `maxMarks`).
    public var step: Double
    /// The marks, every `step`, and one at `commonLength`.
    public var marks: [Mark]
    /// The most marks a comparison holds.
    public static let maxMarks = 10_000
    /// Where both sessions end being compared (the shorter one's end).
    public var commonLength: Double

    /// `a`, `b`: cumulative distances (m) and elapsed times (s) per point, as in `TrackSummary`.
    public init(a: (distances: [Meters], times: [Seconds]), b: (distances: [Meters], times: [Seconds]), axis: Axis = .distance, step: Double = 1000) {
        self.axis = axis
        let ca = Curve(a.distances, a.times), cb = Curve(b.distances, b.times)
        marks = []
        let length = axis == .distance ? min(ca.maxDistance, cb.maxDistance) : min(ca.maxTime, cb.maxTime)
        commonLength = length.isFinite ? max(0, length) : 0
        let wide = commonLength / Double(SessionComparison.maxMarks)
        self.step = step > 0 && step >= wide ? step : wide
        guard self.step > 0 else { return }
        func mark(_ x: Double) -> Mark { axis == .distance ? Self.byDistance(x, ca, cb) : Self.byTime(x, ca, cb) }
        var k = 1
        while Double(k) * self.step <= commonLength + 1e-9 && marks.count < SessionComparison.maxMarks {
            marks.append(mark(Double(k) * self.step)); k += 1
        }
        if commonLength > 0, marks.last.map({ $0.at < commonLength - 1e-6 }) ?? true { marks.append(mark(commonLength)) }
    }

    /// Compares two summarised sessions (`step` in m or s, as `axis` says).
    public init(a: TrackSummary, b: TrackSummary, axis: Axis = .distance, step: Double = 1000) {
        self.init(a: (a.cumulativeDistances, a.elapsedTimes), b: (b.cumulativeDistances, b.elapsedTimes), axis: axis, step: step)
    }

    static func leader(_ gap: Double) -> String { abs(gap) < 1e-9 ? "tie" : gap > 0 ? "A" : "B" }

    static func byDistance(_ d: Double, _ a: Curve, _ b: Curve) -> Mark {
        let ta = a.time(atDistance: d), tb = b.time(atDistance: d)
        let gapS = tb - ta
        let db = b.distance(atTime: ta)
        return Mark(at: d, timeA: ta, timeB: tb, distanceA: d, distanceB: d, leader: leader(gapS), gapSeconds: gapS, gapMeters: d - db)
    }

    static func byTime(_ t: Double, _ a: Curve, _ b: Curve) -> Mark {
        let da = a.distance(atTime: t), db = b.distance(atTime: t)
        let gapM = da - db
        let tb = b.time(atDistance: da)
        return Mark(at: t, timeA: t, timeB: t, distanceA: da, distanceB: db, leader: leader(gapM), gapSeconds: tb - t, gapMeters: gapM)
    }

    /// Distance against time, both non-decreasing (points with NaN times dropped).
    struct Curve {
        var d: [Double] = [], t: [Double] = []
        init(_ dist: [Double], _ time: [Double]) {
            for i in dist.indices where !time[i].isNaN && !dist[i].isNaN {
                if let lt = t.last, time[i] < lt { continue }
                d.append(max(dist[i], d.last ?? 0)); t.append(time[i])
            }
        }
        var maxDistance: Double { d.last ?? 0 }
        var maxTime: Double { t.last ?? 0 }
        /// First time the distance reaches `x` (s); the end time if never.
        func time(atDistance x: Double) -> Double {
            guard let last = d.last, x <= last else { return t.last ?? .nan }
            let lo = d.sortedFirstIndex(atOrAfter: x)
            if lo == 0 { return t[0] }
            let span = d[lo] - d[lo - 1]
            return span > 0 ? t[lo - 1] + (x - d[lo - 1]) / span * (t[lo] - t[lo - 1]) : t[lo]
        }
        func distance(atTime x: Double) -> Double {
            guard let last = t.last, !t.isEmpty else { return .nan }
            if x >= last { return d[d.count - 1] }
            if x <= t[0] { return d[0] }
            let lo = t.sortedFirstIndex(atOrAfter: x)
            let span = t[lo] - t[lo - 1]
            return span > 0 ? d[lo - 1] + (x - t[lo - 1]) / span * (d[lo] - d[lo - 1]) : d[lo]
        }
    }
}

/// Ranks sessions by how long they took over a common route.
///
/// The route is cut into checkpoints every `checkpointSpacingMeters` (start and end
/// included). A session covers the route when it passes within `toleranceMeters` of every
/// checkpoint in order. The start time is the last fix near the start before heading to the
/// second checkpoint (waiting at the start does not count); the finish is the first fix near
/// the end. Sessions that miss a checkpoint are "not finished", with how far they got.
public struct RouteRanking: Sendable {
    /// One session's result.
    public struct Entry: Sendable, Codable, Equatable {
        /// The session's name as given.
        public var name: String
        /// 1-based rank among finishers; nil when not finished.
        public var rank: Int?
        /// True when it passed every checkpoint in order.
        public var finished: Bool
        /// Time from the start to the finish (s); nil when not finished.
        public var timeSeconds: Seconds?
        /// Behind the winner (s); nil when not finished.
        public var behindSeconds: Seconds?
        /// Checkpoints passed in order, and how many there are.
        public var checkpointsPassed: Int
        /// Checkpoints on the route.
        public var checkpoints: Int
    }
    /// The route's length (m).
    public var routeLengthMeters: Meters
    /// Finishers by rank, then the others by how far they got.
    public var entries: [Entry]

    /// Ranks `sessions` on `route`: checkpoints every `checkpointSpacingMeters`, passed when a
    /// fix comes within `toleranceMeters`.
    public init(route: Track, sessions: [(name: String, track: Track)], checkpointSpacingMeters: Meters = 250, toleranceMeters: Meters = 40) {
        // Checkpoints along the route.
        var cps: [(Double, Double)] = []
        var acc = 0.0, last = -1, total = 0.0
        for i in 0..<route.count where !route.latitudes[i].isNaN && !route.longitudes[i].isNaN {
            if last < 0 { cps.append((route.latitudes[i], route.longitudes[i])) } else {
                let step = Geodesic.distance(route.latitudes[last], route.longitudes[last], route.latitudes[i], route.longitudes[i])
                acc += step; total += step
                if acc >= checkpointSpacingMeters { cps.append((route.latitudes[i], route.longitudes[i])); acc = 0 }
            }
            last = i
        }
        if last >= 0, acc > 0 { cps.append((route.latitudes[last], route.longitudes[last])) }
        routeLengthMeters = total
        var out: [Entry] = []
        for (name, t) in sessions {
            var k = 0
            var start = Double.nan, finish = Double.nan
            var prev = -1
            for i in 0..<t.count where !t.latitudes[i].isNaN && !t.times[i].isNaN {
                defer { prev = i }
                guard k < cps.count else { break }
                let a = prev >= 0 ? prev : i
                // Closest approach of the step a→i to checkpoint c: (distance m, time s).
                func pass(_ c: Int) -> (Double, Double) {
                    let plane = LocalTangentPlane(latitude: cps[c].0, longitude: cps[c].1)
                    let p = plane.project(t.latitudes[a], t.longitudes[a]), q = plane.project(t.latitudes[i], t.longitudes[i])
                    let dx = q.east - p.east, dy = q.north - p.north
                    let len2 = dx * dx + dy * dy
                    let u = len2 > 0 ? min(1, max(0, -(p.east * dx + p.north * dy) / len2)) : 1
                    let ex = p.east + u * dx, ey = p.north + u * dy
                    return ((ex * ex + ey * ey).squareRoot(), t.times[a] + u * (t.times[i] - t.times[a]))
                }
                if k == 0 {
                    let s0 = pass(0)
                    if s0.0 <= toleranceMeters { start = s0.1; k = 1 }
                    continue
                }
                if k == 1 {
                    let s0 = pass(0)
                    if s0.0 <= toleranceMeters && (cps.count < 2 || pass(1).0 > toleranceMeters) { start = s0.1; continue }
                }
                while k < cps.count {
                    let sk = pass(k)
                    guard sk.0 <= toleranceMeters else { break }
                    k += 1
                    if k == cps.count { finish = sk.1 }
                }
            }
            let done = k == cps.count && cps.count >= 2
            out.append(Entry(name: name, rank: nil, finished: done, timeSeconds: done ? finish - start : nil, behindSeconds: nil,
                             checkpointsPassed: k, checkpoints: cps.count))
        }
        let order = out.indices.filter { out[$0].finished }.sorted { out[$0].timeSeconds! < out[$1].timeSeconds! }
        let best = order.first.map { out[$0].timeSeconds! }
        for (r, i) in order.enumerated() { out[i].rank = r + 1; out[i].behindSeconds = out[i].timeSeconds! - best! }
        let unfinished = out.indices.filter { !out[$0].finished }.sorted { out[$0].checkpointsPassed > out[$1].checkpointsPassed }
        entries = order.map { out[$0] } + unfinished.map { out[$0] }
    }
}
