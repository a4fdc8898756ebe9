import Foundation
import Testing
import MotusIO

/// `motus track --format json` carries the compass heading when the recording has a
/// magnetometer stream, and leaves it out otherwise.
@Suite struct HeadingCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    @Test func trackReportsHeadingWithAMagnetometer() throws {
        guard let shared = Self.shared else { print("skipping: ../shared/datasets not found"); return }
        let r = try CLI.run(["track", shared + "/broad/data_mat/03_undisturbed_slow_rotation_C.mat", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let heading = try #require(json["heading_deg"] as? Double)
        #expect(heading >= 0 && heading < 360)
    }

    @Test func noMagnetometerNoHeading() throws {
        let r = try CLI.run(["track", CLI.root + "/datasets/lowback-straight-walk.motus", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["heading_deg"] == nil)
    }
}
