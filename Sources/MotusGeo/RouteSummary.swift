import MotusCore

/// The summary of a route (planned or ridden): total distance, elevation gain and loss,
/// grades and the highest point. Distance is the geodesic path length through every point
/// with a position (segments not joined); no stop detection, since a route has no times.
public struct RouteSummary: Sendable, Codable {
    /// Points in the route.
    public var points: Int
    /// Points with an elevation.
    public var pointsWithElevation: Int
    /// Geodesic length (m).
    public var distanceMeters: Meters
    /// Gain and loss under each rule, highest and lowest elevation.
    public var elevation: ElevationReport
    /// Net grade (%): (last elevation − first) / distance.
    public var averageGradePercent: Percent
    /// Gain / distance climbing (%), over the profile's uphill bins.
    public var averageClimbGradePercent: Percent
    /// Steepest uphill bin of the profile (%).
    public var maxGradePercent: Percent
    /// Steepest downhill bin of the profile (%, negative).
    public var minGradePercent: Percent
    /// The highest point with an elevation, nil without one.
    public var highestPoint: Landmark?
    /// The lowest point with an elevation, nil without one.
    public var lowestPoint: Landmark?
    /// Elevation of the first point with one (m).
    public var startElevationMeters: Meters
    /// Elevation of the last point with one (m).
    public var endElevationMeters: Meters
    /// Elevation and grade every `gradeStepMeters`.
    public var profile: ElevationProfile
    /// What the file itself says (BRouter's comment, a FIT session, TCX laps).
    public var reference: DeviceSummary
    /// Distance along the route at every point (m); NaN for points without a position.
    public var cumulativeDistances: [Meters]
    /// Stretches of the route whose points have no elevation, in route order. The profile,
    /// the gain and the grades say nothing about them: a profile that stops before the end of
    /// the route stops at the first of these that reaches the end.
    public var elevationGaps: [ElevationGap]

    /// Consecutive points with a position but no elevation.
    public struct ElevationGap: Sendable, Codable, Equatable {
        /// Distance (m) of the last point with an elevation before the gap (the route's start
        /// when the gap opens it) and of the first one after it (the route's end when the gap
        /// closes it).
        public var startMeters: Meters
        /// Distance (m) of the first point with an elevation after the gap.
        public var endMeters: Meters
        /// Points without elevation in the gap.
        public var points: Int
    }

    /// A point of the route worth naming (the highest, the lowest).
    public struct Landmark: Sendable, Codable {
        /// Its elevation (m).
        public var elevationMeters: Meters
        /// Its distance along the route (m).
        public var distanceMeters: Meters
        /// Its latitude (degrees).
        public var latitude: Degrees
        /// Its longitude (degrees).
        public var longitude: Degrees
    }

    /// Summarises `t`: grades every `gradeStepMeters` (m), gain and loss under `climbRule`.
    public init(track t: Track, gradeStepMeters: Meters = 100, climbRule: ClimbRule = .standard) {
        points = t.count
        reference = t.deviceSummary
        var cum = [Double](repeating: .nan, count: t.count)
        var d = 0.0
        var last = -1
        let starts = Set(t.segmentStarts)
        for i in 0..<t.count where !t.latitudes[i].isNaN && !t.longitudes[i].isNaN {
            if last >= 0 && !starts.contains(i) { d += Geodesic.distance(t.latitudes[last], t.longitudes[last], t.latitudes[i], t.longitudes[i]) }
            cum[i] = d
            last = i
        }
        distanceMeters = d
        cumulativeDistances = cum
        var gaps: [ElevationGap] = []
        var lastWith = 0.0, open: ElevationGap?
        for i in 0..<t.count where !cum[i].isNaN {
            if t.elevations[i].isNaN {
                if open == nil { open = ElevationGap(startMeters: lastWith, endMeters: d, points: 0) }
                open?.points += 1
            } else {
                if var g = open { g.endMeters = cum[i]; gaps.append(g); open = nil }
                lastWith = cum[i]
            }
        }
        if let g = open { gaps.append(g) }
        elevationGaps = gaps
        var withEle = 0, hi = -1, lo = -1, first = -1, lastE = -1
        for i in 0..<t.count where !t.elevations[i].isNaN && !cum[i].isNaN {
            withEle += 1
            if first < 0 { first = i }
            lastE = i
            if hi < 0 || t.elevations[i] > t.elevations[hi] { hi = i }
            if lo < 0 || t.elevations[i] < t.elevations[lo] { lo = i }
        }
        pointsWithElevation = withEle
        elevation = ElevationReport(elevations: t.elevations, rule: climbRule)
        profile = ElevationProfile(cumulativeDistances: cum, elevations: t.elevations, stepMeters: gradeStepMeters)
        func mark(_ i: Int) -> Landmark? {
            i < 0 ? nil : Landmark(elevationMeters: t.elevations[i], distanceMeters: cum[i], latitude: t.latitudes[i], longitude: t.longitudes[i])
        }
        highestPoint = mark(hi); lowestPoint = mark(lo)
        startElevationMeters = first >= 0 ? t.elevations[first] : .nan
        endElevationMeters = lastE >= 0 ? t.elevations[lastE] : .nan
        let span = lastE >= 0 ? cum[lastE] - cum[first] : 0
        averageGradePercent = span > 0 ? (endElevationMeters - startElevationMeters) / span * 100 : .nan
        var upDist = 0.0, upGain = 0.0
        for k in profile.points.indices.dropLast() where profile.points[k].gradePercent > 0 {
            let len = profile.points[k + 1].distanceMeters - profile.points[k].distanceMeters
            upDist += len; upGain += profile.points[k].gradePercent / 100 * len
        }
        averageClimbGradePercent = upDist > 0 ? upGain / upDist * 100 : .nan
        maxGradePercent = profile.maxGradePercent
        minGradePercent = profile.minGradePercent
    }
}
