import MotusIO

/// The GPS tracks in the shared datasets (`tracks/`, see its README), for the track reader
/// tests (MotusIOTests) and the ride and route tests (MotusGeoTests).
public enum TrackData {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)
    /// `…/shared/datasets/tracks`, or nil when the shared datasets are absent.
    public static let folder: String? = {
        guard let d = DatasetLocator.sharedDatasets(packageRoot: root) else { return nil }
        let p = d + "/tracks"
        return DatasetLocator.isDirectory(p) ? p : nil
    }()
    /// True when the tracks are there; says so when they are not (the tests then skip).
    public static var available: Bool {
        if folder == nil { print("shared datasets/tracks not found (set MOTUS_DATASETS); skipping real-data track tests") }
        return folder != nil
    }
    public static func path(_ rel: String) -> String { (folder ?? "") + "/" + rel }

    public static let edge530 = "fitfiler/garmin-edge530-ride.fit"
    public static let edge810 = "python-fitparse/Edge810-Vector-2013-08-16-15-35-10.fit"
    public static let edge500 = "python-fitparse/garmin-edge-500-activity.fit"
    public static let elemnt = "python-fitparse/2019-02-17-062644-ELEMNT-297E-195-0.fit"
    public static let edge1030 = "sports-lib/6783622686.fit"
    public static let fenix = "python-fitparse/activity-small-fenix2-run.fit"
    public static let fitFiles = [edge530, edge810, edge500, elemnt, edge1030, fenix]
    public static let brouter = "brouter/rondanestien-test-route.gpx"
    public static let polyline6 = "georust-polyline/route-geometry-sweden-west-coast.polyline6"
}
