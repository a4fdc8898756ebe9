import Foundation
import MotusCore
import MotusIO
import MotusTestSupport

/// Helpers of the track reader tests, beside the shared `TrackData` (MotusTestSupport).
extension TrackData {
    /// The whole file, by Foundation (independent of the readers under test).
    static func bytes(_ rel: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(rel)))) }

    /// Haversine length (m) of the points that have a position, on the sphere of the
    /// datasets' README (R = 6,371,008.8 m): the README's figures are computed this way.
    static func haversineLength(_ t: Track) -> Double {
        let r = 6_371_008.8, d2r = Double.pi / 180
        var d = 0.0, last = -1
        for i in 0..<t.count where !t.latitudes[i].isNaN {
            if last >= 0 {
                let dLat = (t.latitudes[i] - t.latitudes[last]) * d2r, dLon = (t.longitudes[i] - t.longitudes[last]) * d2r
                let h = sin(dLat / 2) * sin(dLat / 2) + cos(t.latitudes[last] * d2r) * cos(t.latitudes[i] * d2r) * sin(dLon / 2) * sin(dLon / 2)
                d += 2 * r * asin(min(1, h.squareRoot()))
            }
            last = i
        }
        return d
    }
}
