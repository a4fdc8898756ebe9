import Testing
import MotusCore
import MotusIO
@testable import MotusGeo

enum TrackData {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)
    /// `…/shared/datasets/tracks`, or nil when the shared datasets are absent.
    static let folder: String? = {
        guard let d = DatasetLocator.sharedDatasets(packageRoot: root) else { return nil }
        let p = d + "/tracks"
        return DatasetLocator.isDirectory(p) ? p : nil
    }()
    static var available: Bool {
        if folder == nil { print("MotusGeoTests: shared datasets/tracks not found (set MOTUS_DATASETS); skipping real-data tests") }
        return folder != nil
    }
    static func path(_ rel: String) -> String { (folder ?? "") + "/" + rel }

    static let edge530 = "fitfiler/garmin-edge530-ride.fit"
    static let edge810 = "python-fitparse/Edge810-Vector-2013-08-16-15-35-10.fit"
    static let edge500 = "python-fitparse/garmin-edge-500-activity.fit"
    static let elemnt = "python-fitparse/2019-02-17-062644-ELEMNT-297E-195-0.fit"
    static let edge1030 = "sports-lib/6783622686.fit"
    static let fenix = "python-fitparse/activity-small-fenix2-run.fit"
    static let fitFiles = [edge530, edge810, edge500, elemnt, edge1030, fenix]
    static let brouter = "brouter/rondanestien-test-route.gpx"
    static let polyline6 = "georust-polyline/route-geometry-sweden-west-coast.polyline6"

}

func rel(_ a: Double, _ b: Double) -> Double { abs(a - b) / abs(b) }
