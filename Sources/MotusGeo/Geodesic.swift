import MotusCore

/// Distances on the WGS84 ellipsoid.
///
/// Method: Vincenty's inverse formula (T. Vincenty, "Direct and inverse solutions of
/// geodesics on the ellipsoid", Survey Review 23(176), 1975), iterated until the longitude on
/// the auxiliary sphere changes by less than 1e-12 rad (about 6 µm). Its error against an
/// exact geodesic is below 0.5 mm for any pair of points that are not nearly antipodal.
/// Near-antipodal pairs (where the iteration does not converge within 200 steps) fall back to
/// the great-circle distance on a sphere of the mean radius, whose error is at most about
/// 0.5 %; tracks never contain such steps. `haversine` is the spherical reference
/// (R = 6,371,008.8 m, IUGG mean radius): between 0.3 % and 0.5 % off depending on latitude and
/// heading, and what most tools (and the datasets' README) sum.
public enum Geodesic {
    /// WGS84 semi-major axis (m).
    public static let a: Meters = 6_378_137.0
    /// WGS84 flattening.
    public static let f = 1 / 298.257_223_563
    /// Semi-minor axis (m).
    public static let b: Meters = a * (1 - f)
    /// IUGG mean Earth radius (m).
    public static let meanRadius: Meters = 6_371_008.8

    /// Geodesic distance in metres between two points given in degrees (WGS84).
    @inlinable
    public static func distance(_ lat1: Degrees, _ lon1: Degrees, _ lat2: Degrees, _ lon2: Degrees) -> Meters {
        if lat1 == lat2 && lon1 == lon2 { return 0 }
        let d2r = Math.radiansPerDegree
        let L = (lon2 - lon1) * d2r
        let U1 = atanReduced(lat1 * d2r), U2 = atanReduced(lat2 * d2r)
        let sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2)
        var lambda = L
        var iterations = 0
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
        while true {
            let sinL = Math.sin(lambda), cosL = Math.cos(lambda)
            let t1 = cosU2 * sinL, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosL
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL
            sigma = Math.atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinL / sinSigma
            cos2Alpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
            let C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            iterations += 1
            if abs(lambda - previous) < 1e-12 { break }
            if iterations >= 200 { return haversine(lat1, lon1, lat2, lon2) }
        }
        let uSq = cos2Alpha * (a * a - b * b) / (b * b)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - deltaSigma)
    }

    @inlinable static func atanReduced(_ phi: Double) -> Double {
        Math.atan2((1 - f) * Math.sin(phi), Math.cos(phi))
    }

    /// Great-circle distance (m) on a sphere of the mean radius: the reference most tools use.
    @inlinable
    public static func haversine(_ lat1: Degrees, _ lon1: Degrees, _ lat2: Degrees, _ lon2: Degrees, radius: Meters = meanRadius) -> Meters {
        let d2r = Math.radiansPerDegree
        let dLat = (lat2 - lat1) * d2r, dLon = (lon2 - lon1) * d2r
        let s1 = Math.sin(dLat / 2), s2 = Math.sin(dLon / 2)
        let h = s1 * s1 + Math.cos(lat1 * d2r) * Math.cos(lat2 * d2r) * s2 * s2
        return 2 * radius * Math.asin(min(1, h.squareRoot()))
    }

    /// Sum of geodesic distances along a path, skipping points without a position (NaN).
    public static func pathLength(latitudes: [Degrees], longitudes: [Degrees]) -> Meters {
        var total = 0.0
        var last = -1
        for i in latitudes.indices where !latitudes[i].isNaN && !longitudes[i].isNaN {
            if last >= 0 { total += distance(latitudes[last], longitudes[last], latitudes[i], longitudes[i]) }
            last = i
        }
        return total
    }
}

/// A local east-north tangent plane around an origin, for filters that want metres.
/// Within a few tens of kilometres of the origin its distortion is below 0.1 %.
public struct LocalTangentPlane: Sendable {
    /// Latitude of the origin (degrees).
    public let originLatitude: Degrees
    /// Longitude of the origin (degrees).
    public let originLongitude: Degrees
    /// Metres per degree of latitude and of longitude at the origin (WGS84 radii of curvature).
    public let metersPerDegreeLatitude: Double
    /// Metres per degree of longitude at the origin.
    public let metersPerDegreeLongitude: Double

    /// The plane tangent at this origin (degrees, WGS84).
    public init(latitude: Degrees, longitude: Degrees) {
        originLatitude = latitude; originLongitude = longitude
        let phi = latitude * Math.radiansPerDegree
        let e2 = Geodesic.f * (2 - Geodesic.f)
        let s = Math.sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let n = Geodesic.a / w                       // prime vertical radius
        let m = Geodesic.a * (1 - e2) / (w * w * w)  // meridian radius
        metersPerDegreeLatitude = m * Math.radiansPerDegree
        metersPerDegreeLongitude = n * Math.cos(phi) * Math.radiansPerDegree
    }

    /// Metres east and north of the origin of a position (degrees).
    @inlinable public func project(_ lat: Degrees, _ lon: Degrees) -> (east: Meters, north: Meters) {
        ((lon - originLongitude) * metersPerDegreeLongitude, (lat - originLatitude) * metersPerDegreeLatitude)
    }

    /// The position (degrees) of a point `east` and `north` metres from the origin.
    @inlinable public func unproject(east: Meters, north: Meters) -> (latitude: Degrees, longitude: Degrees) {
        (originLatitude + north / metersPerDegreeLatitude, originLongitude + east / metersPerDegreeLongitude)
    }
}
