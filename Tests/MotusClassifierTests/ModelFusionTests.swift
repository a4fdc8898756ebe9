import Testing
import Foundation
@testable import MotusClassifier
import MotusCore
import MotusFusion
import MotusFeatures

/// A model file names the filter its frames fuse gravity with (`GravityFusion`): models trained
/// now fuse with `OrientationFilter` (file version 2); files of version 1 hold `AttitudeFilter`'s
/// settings alone and keep fusing with it, so each model sees the frames it was trained on.
@Suite struct ModelFusionTests {
    /// The model as JSON, edited as a dictionary.
    static func json(_ m: MotionModel) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(m)) as? [String: Any])
    }

    @Test func newModelsFuseWithTheOrientationFilterAndSaySo() throws {
        let data = try Synthetic.windows(subjects: 2)
        let m = try MotionModel.train(data, labels: Synthetic.labels, features: .standard, estimator: .logistic, sources: [])
        #expect(m.version == 2 && m.fusion == .orientation(.default) && m.pipeline.frameSettings.fusion == .orientation(.default))
        let fusion = try #require(try Self.json(m)["fusion"] as? [String: Any])
        #expect(fusion["filter"] as? String == "orientation" && fusion["settings"] is [String: Any])
        let back = try MotionModel.decode(try JSONEncoder().encode(m), source: "m.json")
        #expect(back == m)
        // The shipped models are of version 2 too.
        #expect(MotionModel.shipped.version == 2 && MotionModel.shipped.fusion == .default)
        #expect(MotionModel.shippedActivities.fusion == .default)
    }

    @Test func aFileOfVersionOneKeepsTheAttitudeFilter() throws {
        // The shipped model as a file of version 1 would hold it: AttitudeFilter's settings alone.
        var old = try Self.json(MotionModel.shipped)
        old["version"] = 1
        old["fusion"] = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(AttitudeFilter.Settings.default))
        let m = try MotionModel.decode(try JSONSerialization.data(withJSONObject: old), source: "old.json")
        #expect(m.version == 1 && m.fusion == .attitude(.default))
        // Its frames are AttitudeFilter's where a recording has no gravity, not the default's.
        var r = Synthetic.recording(moving: true, subject: "s", seed: 3)
        r.streams.removeAll { $0.kind == .gravity }
        let frames = try m.pipeline.frames(of: r, path: "r").flatMap(\.frames)
        let attitude = FrameBuilder.frames(of: r, settings: FrameBuilder.Settings(rateHz: m.features.rateHz, fusion: .attitude(.default)))
        let orientation = try MotionModel.shipped.pipeline.frames(of: r, path: "r").flatMap(\.frames)
        #expect(frames == attitude.flatMap(\.frames))
        #expect(frames != orientation)
        // Written again, it names its filter (and reads back the same).
        let again = try MotionModel.decode(try JSONEncoder().encode(m), source: "again.json")
        #expect(again.fusion == .attitude(.default))
        #expect((try Self.json(m)["fusion"] as? [String: Any])?["filter"] as? String == "attitude")
    }

    @Test func anUnknownFilterIsRefusedWhereItIsNamed() throws {
        var bad = try Self.json(MotionModel.shipped)
        bad["fusion"] = ["filter": "kalman", "settings": [String: Any]()]
        let data = try JSONSerialization.data(withJSONObject: bad)
        do {
            _ = try MotionModel.decode(data, source: "bad.json")
            Issue.record("accepted an unknown filter")
        } catch {
            #expect(error.description == "bad.json: found a bad value at fusion.filter, expected a model file written by `motus train`")
        }
    }
}
