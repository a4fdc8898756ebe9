import Testing
import Foundation
@testable import MotusClassifier
import MotusCore
import MotusFusion
import MotusFeatures

/// `MotionPipeline.fusionMode`: the offline mode gives the frames the gravity of
/// `OfflineOrientation`, the live mode fuses as a session does; models record the mode.
@Suite struct OfflineFusionTests {
    static func withoutGravity(_ moving: Bool, seed: UInt64) -> Recording {
        var r = Synthetic.recording(moving: moving, subject: "s", seed: seed)
        r.streams.removeAll { $0.kind == .gravity }
        return r
    }

    @Test func offlineFramesCarryTheOfflineGravity() throws {
        let r = Self.withoutGravity(true, seed: 5)
        let offline = try MotionPipeline(fusionMode: .offline).frames(of: r, path: "synthetic")
        let live = try MotionPipeline().frames(of: r, path: "synthetic")
        var completed = r
        FusionPipeline.complete(&completed, mode: .offline)
        let given = try MotionPipeline().frames(of: completed, path: "synthetic")
        // Offline = the recording completed offline, then framed with its gravity given.
        #expect(offline.map { $0.frames } == given.map { $0.frames })
        #expect(offline.map { $0.frames } != live.map { $0.frames })
        // A recording that has gravity keeps it in both modes.
        let withGravity = Synthetic.recording(moving: true, subject: "s", seed: 5)
        #expect(try MotionPipeline(fusionMode: .offline).frames(of: withGravity, path: "g").map { $0.frames }
                == MotionPipeline().frames(of: withGravity, path: "g").map { $0.frames })
    }

    @Test func modelsRecordTheirFusionMode() throws {
        #expect(MotionModel.shipped.fusionMode == nil && MotionModel.shipped.pipeline.fusionMode == .live)
        var m = MotionModel.shipped
        m.fusionMode = .offline
        let back = try JSONDecoder().decode(MotionModel.self, from: try JSONEncoder().encode(m))
        #expect(back.pipeline.fusionMode == .offline)
        // The shipped model's file has no such field: it reads as live.
        let plain = try JSONDecoder().decode(MotionModel.self, from: try JSONEncoder().encode(MotionModel.shipped))
        #expect(plain.fusionMode == nil)
    }
}
