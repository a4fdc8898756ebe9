import Testing
import Foundation
import MotusCore
import MotusIO
import MotusTestSupport

/// `motus fuse`, run as a user would: the built binary on real files and on a synthetic one.
@Suite(.serialized) struct FuseCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "motus-fuse-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func files(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    /// A device turning about its x axis at 0.3 rad/s, written as a native file: the attitude
    /// `fuse` writes follows the true one at every sample.
    @Test func attitudeFollowsASyntheticRotation() throws {
        let dir = Self.tempDir()
        let motion = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3)
        try NativeWriter.write(motion.recording, to: dir + "/turn.motus")
        let r = try CLI.run(["fuse", dir + "/turn.motus", "--out", dir + "/out/fused.motus"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "motus: wrote \(dir)/out/fused.motus: grav, uacc, att for 2000 samples (orientation filter, default settings, live), 5 streams in all\n")
        #expect(Self.files(dir + "/out") == ["fused.motus"])
        let out = try NativeFormat.read(path: dir + "/out/fused.motus")
        #expect(out.streams.map(\.name) == ["acc", "gyro", "grav", "uacc", "att"])
        let att = try #require(out.stream(named: "att"))
        #expect(att.count == motion.count)
        var worst = 0.0
        for i in 0..<att.count { worst = max(worst, att.quaternion(i).angle(to: motion.attitude(at: att.times[i])) * Math.degreesPerRadian) }
        #expect(worst < 0.5, "attitude off by \(worst)°")
    }

    /// A BROAD trial: grav, uacc and att on every IMU sample, the optical reference kept; the
    /// attitude's up axis agrees with the reference's (far from it would be a frame error).
    @Test func broadTrialKeepsItsReference() throws {
        guard let shared = Self.shared else { print("skipping: ../shared/datasets not found"); return }
        let dir = Self.tempDir()
        let trial = shared + "/broad/data_mat/03_undisturbed_slow_rotation_C.mat"
        let r = try CLI.run(["fuse", trial, "--out", dir + "/broad03.motus", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["method"] as? String == "orientation-filter" && json["settings"] as? String == "default")
        #expect(json["replaced"] as? [String] == [] && json["written"] as? [String] == ["grav", "uacc", "att"])
        #expect(json["streams"] as? [String] == ["acc", "gyro", "mag", "grav", "uacc", "att", "reference_attitude"])
        #expect((json["fusion_seconds"] as? Double).map { $0 > 0 && $0 < 60 } == true)
        let out = try NativeFormat.read(path: dir + "/broad03.motus")
        let acc = try #require(out.stream(.acceleration)), att = try #require(out.stream(named: "att"))
        let ref = try #require(out.stream(named: "reference_attitude"))
        #expect(json["samples"] as? Int == acc.count && att.times == acc.times && out.stream(named: "grav")?.count == acc.count)
        #expect(out.labels.contains { $0.label == "movement" })
        var errors: [Double] = []
        var i = 0
        for j in stride(from: 0, to: ref.count, by: 10) {
            while att.times[i] < ref.times[j] { i += 1 }
            let up = Vector3(0, 0, 1)
            errors.append(att.quaternion(i).inverseRotate(up).angle(to: ref.quaternion(j).inverseRotate(up)) * Math.degreesPerRadian)
        }
        errors.sort()
        #expect(errors[errors.count / 2] < 3, "median inclination error \(errors[errors.count / 2])°")
    }

    /// CoreMotion's own estimates (mPower device motion) are replaced, and stderr says which.
    @Test func mPowerEstimatesAreReplaced() throws {
        guard let shared = Self.shared else { print("skipping: ../shared/datasets not found"); return }
        let dir = Self.tempDir()
        let r = try CLI.run(["fuse", shared + "/mpower/mhealthtools/walk_data.converted.json", "--out", dir + "/walk.motus"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("motus: replaced the input's grav, uacc, att with Motus's estimate\n"), "\(r.stderr)")
        #expect(r.stderr.contains("(orientation filter, bias-corrected-gyroscope settings, live)"))
        let out = try NativeFormat.read(path: dir + "/walk.motus")
        #expect(out.streams.map(\.name) == ["acc", "gyro", "grav", "uacc", "att"])
        #expect(out.stream(named: "att")?.count == 2991)
    }

    @Test func motionSenseCSV() throws {
        guard let shared = Self.shared else { print("skipping: ../shared/datasets not found"); return }
        let dir = Self.tempDir()
        let r = try CLI.run(["fuse", shared + "/motionsense/A_DeviceMotion_data/wlk_15/sub_1.csv", "--out", dir + "/ms.motus", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["settings"] as? String == "bias-corrected-gyroscope")
        #expect((json["replaced"] as? [String])?.contains("grav") == true)
    }

    /// Accelerometer only (delimited text): gravity from a low-pass, said on stderr, no attitude.
    @Test func accelerometerOnlyIsSaid() throws {
        let dir = Self.tempDir()
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<300 { text += "\(Double(i) / 100),0.1,0.2,9.8\n" }
        try text.write(toFile: dir + "/acc.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["fuse", dir + "/acc.csv", "--out", dir + "/acc.motus"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("motus: \(dir)/acc.csv: no rotation-rate stream: gravity from the accelerometer alone (low-pass), no attitude written\n"))
        #expect(r.stderr.contains("grav, uacc for 300 samples (accelerometer-only low-pass)"))
        let out = try NativeFormat.read(path: dir + "/acc.motus")
        #expect(out.streams.map(\.name) == ["acc", "grav", "uacc"])
    }

    /// No acceleration: one line, exit 1, and nothing written (no output, no .partial).
    @Test func noAccelerationIsOneLineAndWritesNothing() throws {
        let dir = Self.tempDir()
        try "t,gyro_x,gyro_y,gyro_z\n0,0.1,0,0\n0.01,0.1,0,0\n".write(toFile: dir + "/gyro.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["fuse", dir + "/gyro.csv", "--out", dir + "/gyro.motus"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "motus: \(dir)/gyro.csv: found 'streams gyro', expected an acceleration stream 'acc' (gravity included), or gravity and user acceleration\n")
        #expect(Self.files(dir) == ["gyro.csv"])
    }

    /// A bad line: the reader's error, and nothing written.
    @Test func badInputWritesNothing() throws {
        let dir = Self.tempDir()
        try "t,acc_x,acc_y,acc_z\n0,1,2,3\n0.01,1,x,3\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["fuse", dir + "/bad.csv", "--out", dir + "/bad.motus"])
        #expect(r.status == 1)
        #expect(r.stderr == "motus: \(dir)/bad.csv:3:8: found 'x', expected a number in column 'acc_y'\n")
        #expect(Self.files(dir) == ["bad.csv"])
    }

    @Test func helpHasAnExample() throws {
        let r = try CLI.run(["fuse", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\n  motus fuse 03_undisturbed_slow_rotation_C.mat --out broad03.motus\n"))
        #expect(r.stdout.contains("--format <format>"))
    }
}
