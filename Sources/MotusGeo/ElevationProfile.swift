import MotusCore

/// Elevation and grade against distance, at a fixed distance step.
///
/// The elevation at each mark (0, step, 2·step, …, the end) is interpolated linearly on the
/// cumulative distance; the grade of a bin is (e(end) − e(start)) / its length. Points without
/// elevation are skipped; bins past the last elevation are left out. A profile has at most
/// `maxPoints` marks: when the distance ÷ the step asks for more, the step is widened to
/// distance ÷ (`maxPoints` − 1), and `stepMeters` says so (the work stays bounded whatever the
/// step or the distance).
public struct ElevationProfile: Sendable, Equatable, Codable {
    /// The most marks a profile holds.
    public static let maxPoints = 100_000
    /// One mark of the profile.
    public struct Point: Sendable, Equatable, Codable {
        /// Distance along the track (m).
        public var distanceMeters: Meters
        /// Elevation there (m), interpolated on distance.
        public var elevationMeters: Meters
        /// Grade (%) of the bin that starts here; NaN for the last point.
        public var gradePercent: Percent
    }
    /// The distance step of the marks (m): the one asked for, or wider (see `maxPoints`).
    public var stepMeters: Meters
    /// The marks, every `stepMeters` from the start.
    public var points: [Point]

    /// `cumulativeDistances` non-decreasing (m); `elevations` (m, NaN = absent), same count.
    public init(cumulativeDistances d: [Meters], elevations e: [Meters], stepMeters: Meters = 100) {
        self.stepMeters = stepMeters
        points = []
        var xs: [Double] = [], ys: [Double] = []
        for i in d.indices where !e[i].isNaN && !d[i].isNaN { xs.append(d[i]); ys.append(e[i]) }
        guard let lastD = xs.last, xs.count >= 2, stepMeters > 0, lastD.isFinite else { return }
        let step = lastD / stepMeters > Double(ElevationProfile.maxPoints - 2) ? lastD / Double(ElevationProfile.maxPoints - 2) : stepMeters
        self.stepMeters = step
        var marks: [Double] = []
        var m = 0.0
        while m < lastD && marks.count < ElevationProfile.maxPoints - 1 { marks.append(m); m += step }
        marks.append(lastD)
        var j = 0
        var elev: [Double] = []
        for mk in marks {
            while j + 1 < xs.count && xs[j + 1] < mk { j += 1 }
            if mk <= xs[0] { elev.append(ys[0]); continue }
            if j + 1 >= xs.count { elev.append(ys[xs.count - 1]); continue }
            let span = xs[j + 1] - xs[j]
            elev.append(span > 0 ? ys[j] + (ys[j + 1] - ys[j]) * (mk - xs[j]) / span : ys[j + 1])
        }
        for k in marks.indices {
            let g = k + 1 < marks.count && marks[k + 1] > marks[k] ? (elev[k + 1] - elev[k]) / (marks[k + 1] - marks[k]) * 100 : .nan
            points.append(Point(distanceMeters: marks[k], elevationMeters: elev[k], gradePercent: g))
        }
    }

    /// Steepest bin (%), only bins at least half a step long; NaN when none.
    public var maxGradePercent: Percent {
        var best = -Double.infinity
        for k in points.indices.dropLast() where points[k + 1].distanceMeters - points[k].distanceMeters >= stepMeters / 2 {
            best = max(best, points[k].gradePercent)
        }
        return best.isFinite ? best : .nan
    }

    /// Steepest descent bin (%, negative).
    public var minGradePercent: Percent {
        var best = Double.infinity
        for k in points.indices.dropLast() where points[k + 1].distanceMeters - points[k].distanceMeters >= stepMeters / 2 {
            best = min(best, points[k].gradePercent)
        }
        return best.isFinite ? best : .nan
    }

    /// The grade (%) at distance `d` (the bin holding it); 0 outside the profile.
    public func grade(atDistance d: Meters) -> Percent {
        guard points.count >= 2, stepMeters > 0 else { return 0 }
        let k = min(points.count - 2, max(0, Int(d / stepMeters)))
        let g = points[k].gradePercent
        return g.isNaN ? 0 : g
    }

    /// CSV: `distance_m,elevation_m,grade_percent`.
    public var csv: String {
        var s = "distance_m,elevation_m,grade_percent\n"
        for p in points {
            s += "\(fmt(p.distanceMeters, 1)),\(fmt(p.elevationMeters, 2)),\(p.gradePercent.isNaN ? "" : fmt(p.gradePercent, 2))\n"
        }
        return s
    }
}

/// Fixed-point formatting without Foundation.
func fmt(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (abs(v) * scale).rounded()
    let neg = v < 0 && r != 0
    var intPart = String(UInt64(r / scale))
    if digits > 0 {
        var frac = String(UInt64(r.truncatingRemainder(dividingBy: scale)))
        while frac.count < digits { frac = "0" + frac }
        intPart += "." + frac
    }
    return (neg ? "-" : "") + intPart
}
