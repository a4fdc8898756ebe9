import MotusCore
import MotusGeo

/// Stretches of `xs` where `ys` has no value: from the last x with a value before each run of
/// NaN to the first x with one after it (or the run's own end at either end of the data).
/// Points without an x are passed over.
func absentIntervals(xs: [Double], ys: [Double]) -> [(start: Double, end: Double, points: Int)] {
    var out: [(start: Double, end: Double, points: Int)] = []
    var lastValid: Double?, open: (start: Double, points: Int)?
    var lastX: Double?
    for i in xs.indices where i < ys.count && xs[i].isFinite {
        if ys[i].isNaN {
            if open == nil { open = (lastValid ?? xs[i], 0) }
            open?.points += 1
        } else {
            if let o = open { out.append((o.start, xs[i], o.points)); open = nil }
            lastValid = xs[i]
        }
        lastX = xs[i]
    }
    if let o = open, let e = lastX { out.append((o.start, e, o.points)) }
    return out
}

/// A copy of (xs, ys) with a NaN point inserted before every index in `breaks`, so that the
/// line stops there.
func breaking(_ xs: [Double], _ ys: [Double], at breaks: [Int]) -> (xs: [Double], ys: [Double]) {
    guard !breaks.isEmpty else { return (xs, ys) }
    var ox: [Double] = [], oy: [Double] = []
    ox.reserveCapacity(xs.count + breaks.count); oy.reserveCapacity(xs.count + breaks.count)
    var b = 0
    for i in xs.indices {
        while b < breaks.count && breaks[b] < i { b += 1 }
        if b < breaks.count && breaks[b] == i { ox.append(xs[i]); oy.append(.nan) }
        ox.append(xs[i]); oy.append(ys[i])
    }
    return (ox, oy)
}

/// A ride or run against distance: speed, elevation, grade and heart rate, the splits marked,
/// and every gap in the data (no point for longer than the summary's `maxGapSeconds`, points
/// without a value) drawn as a gap and named in the legend.
public enum RidePlot {
    /// The chart of a summarised ride or run; `name` is its title (the file name).
    public static func chart(_ ride: RideSummary, name: String, maxGapSeconds: Seconds = 30) -> Chart {
        let t = ride.track, s = ride.summary
        let xs = s.cumulativeDistances.map { $0 / 1000 }
        // Time gaps: the line stops and the stretch is hatched.
        var breaks: [Int] = []
        var timeGaps: [(start: Double, end: Double)] = []
        for i in 1..<max(t.count, 1) {
            let dt = t.times[i] - t.times[i - 1]
            if dt.isFinite && dt > maxGapSeconds { breaks.append(i); timeGaps.append((xs[i - 1], xs[i])) }
        }
        let timeGapSpan = SpanSeries(name: "no point for > \(num(maxGapSeconds, 0)) s (\(timeGaps.count))", color: Palette.grey,
                                     intervals: timeGaps, hatched: true)
        var unnamedTimeGaps = timeGapSpan
        unnamedTimeGaps.name = ""
        func spansFor(_ ys: [Double], what: String, first: Bool) -> [SpanSeries] {
            var out: [SpanSeries] = []
            if !timeGaps.isEmpty { out.append(first ? timeGapSpan : unnamedTimeGaps) }
            let absent = absentIntervals(xs: xs, ys: ys)
            if !absent.isEmpty {
                let n = absent.reduce(0) { $0 + $1.points }
                out.append(SpanSeries(name: "no \(what) (\(n) points)", color: Palette.grey, intervals: absent.map { ($0.start, $0.end) }, hatched: true))
            }
            return out
        }
        let splitMarks = MarkSeries(name: "splits (\(s.splits.count))", color: "#777777", xs: s.splits.map { $0.distanceMeters / 1000 },
                                    style: .across, labels: s.splits.map { "\($0.index)" })
        var unnamedSplits = splitMarks
        unnamedSplits.name = ""; unnamedSplits.labels = []

        var panels: [Panel] = []
        let speed = s.speedsMetersPerSecond.map { $0 * 3.6 }
        let sp = breaking(xs, speed, at: breaks)
        let deviceSpeed = t.speeds.contains { !$0.isNaN }
        panels.append(Panel(yLabel: "speed (km/h)", height: 170, includeZero: true,
                            lines: [LineSeries(name: deviceSpeed ? "speed (device)" : "speed (from positions)", color: Palette.blue, xs: sp.xs, ys: sp.ys, width: 0.9)],
                            spans: spansFor(speed, what: "speed", first: true), marks: [splitMarks]))
        var notes: [String] = []
        if t.hasElevation {
            let el = breaking(xs, t.elevations, at: breaks)
            panels.append(Panel(yLabel: "elevation (m)", height: 150,
                                lines: [LineSeries(name: "elevation", color: Palette.bluishGreen, xs: el.xs, ys: el.ys, filled: true)],
                                spans: spansFor(t.elevations, what: "elevation", first: false), marks: [unnamedSplits]))
            panels.append(gradePanel(s.profile, gaps: absentIntervals(xs: xs, ys: t.elevations).map { ($0.start, $0.end) }, marks: [unnamedSplits]))
        } else { notes.append("no elevation in the file") }
        if t.heartRates.contains(where: { !$0.isNaN }) {
            let hr = breaking(xs, t.heartRates, at: breaks)
            panels.append(Panel(yLabel: "heart rate (bpm)", height: 140,
                                lines: [LineSeries(name: "heart rate", color: Palette.vermillion, xs: hr.xs, ys: hr.ys, width: 0.9)],
                                spans: spansFor(t.heartRates, what: "heart rate", first: false), marks: [unnamedSplits]))
        } else { notes.append("no heart rate in the file") }
        var head = "\(s.activity.rawValue): \(num(s.distanceMeters / 1000, 2, trimmed: false)) km, moving \(clock(s.movingTimeSeconds)) of \(clock(s.elapsedTimeSeconds))"
        if t.hasElevation { head += ", gain \(num(s.elevation.motus.gainMeters, 0)) m" }
        if let hr = s.averageHeartRate { head += ", heart rate \(num(hr, 0)) bpm" }
        notes.insert(head, at: 0)
        return Chart(title: name, notes: notes, xLabel: "distance (km, while moving)", panels: panels)
    }

    /// Grade (%) per profile bin as steps; bins that overlap a stretch without elevation are
    /// left out rather than drawn from an interpolation across it.
    static func gradePanel(_ profile: ElevationProfile, gaps: [(start: Double, end: Double)], marks: [MarkSeries]) -> Panel {
        var gx: [Double] = [], gy: [Double] = []
        let pts = profile.points
        // Each bin's grade holds from its mark to the next; the last mark (no grade) ends the
        // last bin.
        for k in pts.indices {
            let a = pts[k].distanceMeters / 1000
            let b = k + 1 < pts.count ? pts[k + 1].distanceMeters / 1000 : a
            let overlaps = gaps.contains { $0.start < b && $0.end > a }
            gx.append(a); gy.append(overlaps ? .nan : pts[k].gradePercent)
        }
        return Panel(yLabel: "grade (%)", height: 120, includeZero: true,
                     lines: [LineSeries(name: "grade per \(num(profile.stepMeters, 0)) m", color: Palette.orange, xs: gx, ys: gy, stepped: true)],
                     marks: marks)
    }

    static func clock(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "-" }
        let t = Int(s.rounded())
        let h = t / 3600, m = (t % 3600) / 60, sec = t % 60
        func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }
}

/// A planned route against distance: the elevation of every point (a point without one is
/// a gap, hatched and named in the legend) and the grade per profile bin, over the whole
/// route's distance.
public enum RoutePlot {
    /// The chart of a summarised route; `name` starts its title (the file name).
    public static func chart(_ route: RouteSummary, name: String) -> Chart {
        let gaps = route.elevationGaps.map { (start: $0.startMeters / 1000, end: $0.endMeters / 1000) }
        // The elevation at the profile's marks (every `stepMeters`).
        var ex: [Double] = [], ey: [Double] = []
        for p in route.profile.points {
            let d = p.distanceMeters / 1000
            // A mark inside a gap is interpolated across it: leave it out, so the line breaks.
            if gaps.contains(where: { $0.start < d && $0.end > d }) { ex.append(d); ey.append(.nan); continue }
            ex.append(d); ey.append(p.elevationMeters)
        }
        let n = route.elevationGaps.reduce(0) { $0 + $1.points }
        var spans: [SpanSeries] = []
        if !gaps.isEmpty {
            spans.append(SpanSeries(name: "no elevation (\(n) of \(route.points) points)", color: Palette.grey, intervals: gaps.map { ($0.start, $0.end) },
                                    hatched: true))
        }
        let elevation = Panel(yLabel: "elevation (m)", height: 220,
                              lines: [LineSeries(name: "elevation", color: Palette.bluishGreen, xs: ex, ys: ey, filled: true)], spans: spans)
        var grade = RidePlot.gradePanel(route.profile, gaps: gaps, marks: [])
        grade.spans = spans.map { var s = $0; s.name = ""; return s }
        var notes = ["\(num(route.distanceMeters / 1000, 2, trimmed: false)) km, gain \(num(route.elevation.motus.gainMeters, 0)) m, loss \(num(route.elevation.motus.lossMeters, 0)) m (5 m band)"]
        notes += gapNotes(route)
        let total = route.distanceMeters / 1000
        return Chart(title: "\(name): elevation and grade", notes: notes, xLabel: "distance (km)",
                     xRange: total > 0 ? 0...total : nil, panels: [elevation, grade])
    }

    /// One line per stretch without elevation, saying where it is and what it leaves out.
    public static func gapNotes(_ route: RouteSummary) -> [String] {
        guard route.pointsWithElevation > 0 else { return ["no point has an elevation"] }
        return route.elevationGaps.map { g in
            var s = "no elevation on \(g.points) of \(route.points) points, km \(num(g.startMeters / 1000, 2, trimmed: false))–\(num(g.endMeters / 1000, 2, trimmed: false))"
            if g.endMeters >= route.distanceMeters { s += ": the elevation profile ends at km \(num(g.startMeters / 1000, 2, trimmed: false))" }
            else if g.startMeters == 0 { s += ": the elevation profile starts at km \(num(g.endMeters / 1000, 2, trimmed: false))" }
            else { s += ": elevation and grade are interpolated across it" }
            return s
        }
    }
}
