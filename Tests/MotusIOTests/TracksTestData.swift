import Foundation
import MotusCore
import MotusIO

/// The GPS tracks in the shared datasets (`tracks/`), for the track reader tests.
enum TrackData {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)
    /// `…/shared/datasets/tracks`, or nil when the shared datasets are absent.
    static let folder: String? = {
        guard let d = DatasetLocator.sharedDatasets(packageRoot: root) else { return nil }
        let p = d + "/tracks"
        return DatasetLocator.isDirectory(p) ? p : nil
    }()
    static var available: Bool {
        if folder == nil { print("MotusIOTests: shared datasets/tracks not found (set MOTUS_DATASETS); skipping real-data track tests") }
        return folder != nil
    }
    static func path(_ rel: String) -> String { (folder ?? "") + "/" + rel }

    static let edge530 = "fitfiler/garmin-edge530-ride.fit"
    static let edge810 = "python-fitparse/Edge810-Vector-2013-08-16-15-35-10.fit"
    static let edge500 = "python-fitparse/garmin-edge-500-activity.fit"
    static let elemnt = "python-fitparse/2019-02-17-062644-ELEMNT-297E-195-0.fit"
    static let edge1030 = "sports-lib/6783622686.fit"
    static let fenix = "python-fitparse/activity-small-fenix2-run.fit"
    static let brouter = "brouter/rondanestien-test-route.gpx"
    static let polyline6 = "georust-polyline/route-geometry-sweden-west-coast.polyline6"

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
