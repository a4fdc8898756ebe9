import MotusCore

/// The summary of a route (planned or ridden): total distance, elevation gain and loss,
/// grades and the highest point. Distance is the geodesic path length through every point
/// with a position (segments not joined); no stop detection, since a route has no times.
public struct RouteSummary: Sendable, Codable {
    public var points: Int
    public var pointsWithElevation: Int
    public var distanceMeters: Double
    public var elevation: ElevationReport
    /// Net grade (%): (last elevation − first) / distance.
    public var averageGradePercent: Double
    /// Gain / distance climbing (%), over the profile's uphill bins.
    public var averageClimbGradePercent: Double
    public var maxGradePercent: Double
    public var minGradePercent: Double
    public var highestPoint: Landmark?
    public var lowestPoint: Landmark?
    public var startElevationMeters: Double
    public var endElevationMeters: Double
    public var profile: ElevationProfile
    /// What the file itself says (BRouter's comment, a FIT session, TCX laps).
    public var reference: DeviceSummary
    /// Distance along the route at every point (m); NaN for points without a position.
    public var cumulativeDistances: [Double]
    /// Stretches of the route whose points have no elevation, in route order. The profile,
    /// the gain and the grades say nothing about them: a profile that stops before the end of
    /// the route stops at the first of these that reaches the end.
    public var elevationGaps: [ElevationGap]

    /// Consecutive points with a position but no elevation.
    public struct ElevationGap: Sendable, Codable, Equatable {
        /// Distance (m) of the last point with an elevation before the gap (the route's start
        /// when the gap opens it) and of the first one after it (the route's end when the gap
        /// closes it).
        public var startMeters: Double
        public var endMeters: Double
        /// Points without elevation in the gap.
        public var points: Int
    }

    public struct Landmark: Sendable, Codable {
        public var elevationMeters: Double
        public var distanceMeters: Double
        public var latitude: Double
        public var longitude: Double
    }

    public init(track t: Track, gradeStepMeters: Double = 100, climbRule: ClimbRule = .standard) {
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

/// Draws an elevation profile as SVG: elevation (m, filled) and grade (%, line, right axis)
/// against distance (km), with axes, ticks, units and a title.
public enum ProfilePlot {
    public static func svg(_ profile: ElevationProfile, title: String = "Elevation and grade", width: Double = 900, height: Double = 420) -> String {
        // Points a plot cannot place (non-finite distance or elevation) are left out.
        let pts = profile.points.filter { $0.distanceMeters.isFinite && $0.elevationMeters.isFinite }
        let left = 70.0, right = 70.0, top = 40.0, bottom = 55.0
        let w = width - left - right, h = height - top - bottom
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(fmt(width, 0))\" height=\"\(fmt(height, 0))\" viewBox=\"0 0 \(fmt(width, 0)) \(fmt(height, 0))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(fmt(width, 0))\" height=\"\(fmt(height, 0))\" fill=\"white\"/>\n"
        out += "<text x=\"\(fmt(width / 2, 1))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(escape(title))</text>\n"
        guard pts.count >= 2, let lastPoint = pts.last else {
            out += "<text x=\"\(fmt(width / 2, 1))\" y=\"\(fmt(height / 2, 1))\" text-anchor=\"middle\">no elevation data</text>\n</svg>\n"
            return out
        }
        let maxD = max(lastPoint.distanceMeters, 1) / 1000
        var eLo = Double.infinity, eHi = -Double.infinity, gLo = 0.0, gHi = 0.0
        for p in pts {
            eLo = min(eLo, p.elevationMeters); eHi = max(eHi, p.elevationMeters)
            if !p.gradePercent.isNaN { gLo = min(gLo, p.gradePercent); gHi = max(gHi, p.gradePercent) }
        }
        let eTicks = niceTicks(eLo, eHi == eLo ? eLo + 10 : eHi)
        let gTicks = niceTicks(gLo, gHi == gLo ? gLo + 1 : gHi)
        let dTicks = niceTicks(0, maxD)
        let e0 = eTicks.lower, e1 = eTicks.upper, g0 = gTicks.lower, g1 = gTicks.upper, d1 = dTicks.upper
        func x(_ km: Double) -> Double { left + km / d1 * w }
        func ye(_ e: Double) -> Double { top + h - (e - e0) / (e1 - e0) * h }
        func yg(_ g: Double) -> Double { top + h - (g - g0) / (g1 - g0) * h }
        // Grid and axes.
        for t in eTicks.values {
            out += "<line x1=\"\(fmt(left, 1))\" y1=\"\(fmt(ye(t), 1))\" x2=\"\(fmt(left + w, 1))\" y2=\"\(fmt(ye(t), 1))\" stroke=\"#ddd\"/>\n"
            out += "<text x=\"\(fmt(left - 6, 1))\" y=\"\(fmt(ye(t) + 4, 1))\" text-anchor=\"end\">\(label(t))</text>\n"
        }
        for t in gTicks.values {
            out += "<text x=\"\(fmt(left + w + 6, 1))\" y=\"\(fmt(yg(t) + 4, 1))\" fill=\"#c0392b\">\(label(t))</text>\n"
        }
        for t in dTicks.values {
            out += "<line x1=\"\(fmt(x(t), 1))\" y1=\"\(fmt(top + h, 1))\" x2=\"\(fmt(x(t), 1))\" y2=\"\(fmt(top + h + 5, 1))\" stroke=\"black\"/>\n"
            out += "<text x=\"\(fmt(x(t), 1))\" y=\"\(fmt(top + h + 19, 1))\" text-anchor=\"middle\">\(label(t))</text>\n"
        }
        // Elevation area.
        var area = "M\(fmt(x(0), 1)),\(fmt(top + h, 1))"
        for p in pts { area += " L\(fmt(x(p.distanceMeters / 1000), 1)),\(fmt(ye(p.elevationMeters), 1))" }
        area += " L\(fmt(x(lastPoint.distanceMeters / 1000), 1)),\(fmt(top + h, 1)) Z"
        out += "<path d=\"\(area)\" fill=\"#9ecae1\" stroke=\"#3182bd\" stroke-width=\"1.2\"/>\n"
        // Grade steps.
        var g = ""
        for k in pts.indices.dropLast() where !pts[k].gradePercent.isNaN {
            let xa = x(pts[k].distanceMeters / 1000), xb = x(pts[k + 1].distanceMeters / 1000), yy = yg(pts[k].gradePercent)
            g += (g.isEmpty ? "M" : " L") + "\(fmt(xa, 1)),\(fmt(yy, 1)) L\(fmt(xb, 1)),\(fmt(yy, 1))"
        }
        if !g.isEmpty { out += "<path d=\"\(g)\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1\"/>\n" }
        if g0 < 0 && g1 > 0 {
            out += "<line x1=\"\(fmt(left, 1))\" y1=\"\(fmt(yg(0), 1))\" x2=\"\(fmt(left + w, 1))\" y2=\"\(fmt(yg(0), 1))\" stroke=\"#c0392b\" stroke-dasharray=\"4,3\" stroke-width=\"0.8\"/>\n"
        }
        out += "<rect x=\"\(fmt(left, 1))\" y=\"\(fmt(top, 1))\" width=\"\(fmt(w, 1))\" height=\"\(fmt(h, 1))\" fill=\"none\" stroke=\"black\"/>\n"
        out += "<text x=\"\(fmt(left + w / 2, 1))\" y=\"\(fmt(height - 12, 1))\" text-anchor=\"middle\">distance (km)</text>\n"
        out += "<text transform=\"translate(18,\(fmt(top + h / 2, 1))) rotate(-90)\" text-anchor=\"middle\" fill=\"#3182bd\">elevation (m)</text>\n"
        out += "<text transform=\"translate(\(fmt(width - 14, 1)),\(fmt(top + h / 2, 1))) rotate(90)\" text-anchor=\"middle\" fill=\"#c0392b\">grade (%, per \(fmt(profile.stepMeters, 0)) m)</text>\n"
        out += "</svg>\n"
        return out
    }

    /// About five round tick values covering [lo, hi].
    /// Tick values from `lo` to `hi` at a round step (1, 2 or 5 × a power of ten), at least two
    /// and at most 50, with the first and last as the axis range. Non-finite bounds give 0…1.
    static func niceTicks(_ lo: Double, _ hi: Double) -> (values: [Double], lower: Double, upper: Double) {
        guard lo.isFinite, hi.isFinite, hi >= lo else { return ([0, 1], 0, 1) }
        let raw = max(hi - lo, 1e-9) / 5
        var mag = 1.0
        while mag * 10 <= raw { mag *= 10 }
        while mag > raw { mag /= 10 }
        let step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag
        let start = (lo / step).rounded(.down) * step
        var out: [Double] = []
        var v = start
        while v < hi + step * 0.999 && out.count < 50 { out.append(v); v += step }
        if out.count < 2 { out = [start, start + step] }
        return (out, out[0], out[out.count - 1])
    }

    static func label(_ v: Double) -> String {
        abs(v - v.rounded()) < 1e-9 ? fmt(v, 0) : fmt(v, 1)
    }

    static func escape(_ s: String) -> String {
        var o = ""
        for c in s { switch c { case "<": o += "&lt;"; case ">": o += "&gt;"; case "&": o += "&amp;"; case "\"": o += "&quot;"; default: o.append(c) } }
        return o
    }
}
