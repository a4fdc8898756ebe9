import Testing
import Foundation
import MotusIO

/// `motus evaluate-fusion`'s options, run as a user runs them.
@Suite(.serialized) struct EvaluateFusionCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    /// A time constant that is not a positive number, or one given where no `OrientationFilter`
    /// runs, is refused before anything is read.
    @Test func accelerationTimeConstantIsValidated() throws {
        for (args, message) in [(["=0"], "must be a number of seconds > 0, not 0.0"),
                                (["=-2"], "must be a number of seconds > 0, not -2.0"),
                                (["=3", "--method", "legacy"], "goes with the default method (motus)"),
                                (["=3", "--magnetometer"], "goes with the default method (motus)"),
                                (["=3", "--check-still"], "goes with the default method (motus)")] {
            let r = try CLI.run(["evaluate-fusion", "/nonexistent", "--acceleration-time-constant" + args[0]] + args.dropFirst())
            #expect(r.status == 64 && r.stdout.isEmpty, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: --acceleration-time-constant \(message)"), "\(args): \(r.stderr)")
        }
    }

    /// The option reaches the filter: 3 s (the default) gives the default's figures to the last
    /// digit, 20 s others, and the JSON says which was used; offline takes it too.
    @Test(.enabled(if: shared != nil, "shared datasets absent: skipping evaluate-fusion on MotionSense"))
    func accelerationTimeConstantReachesTheFilter() throws {
        let walks = Self.shared! + "/motionsense/A_DeviceMotion_data/wlk_15"
        func figures(_ extra: [String]) throws -> [String: Any] {
            let r = try CLI.run(["evaluate-fusion", walks, "--format", "json"] + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        }
        let plain = try figures([]), three = try figures(["--acceleration-time-constant", "3"])
        let long = try figures(["--acceleration-time-constant", "20"])
        #expect(plain["acceleration_time_constant_s"] == nil && three["acceleration_time_constant_s"] as? Double == 3)
        #expect(long["acceleration_time_constant_s"] as? Double == 20)
        for key in ["median_deg", "p95_deg", "rmse_deg", "count"] {
            #expect((plain[key] as? NSNumber) == (three[key] as? NSNumber), "\(key)")
        }
        #expect((plain["count"] as? Int).map { $0 > 10_000 } == true && long["count"] as? Int == plain["count"] as? Int)
        #expect(long["rmse_deg"] as? Double != plain["rmse_deg"] as? Double, "\(long["rmse_deg"] ?? "") \(plain["rmse_deg"] ?? "")")
        let offline = try figures(["--offline"]), offlineLong = try figures(["--offline", "--acceleration-time-constant", "20"])
        #expect(offline["rmse_deg"] as? Double != offlineLong["rmse_deg"] as? Double)
    }
}
