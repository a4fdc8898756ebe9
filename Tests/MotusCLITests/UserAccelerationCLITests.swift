import Testing
import Foundation
import MotusCore
import MotusIO

/// `motus track` on a file with user (linear) acceleration only: it tracks, and says on stderr
/// how (steps along the main axis of motion, no model).
@Suite(.serialized) struct UserAccelerationCLITests {
    @Test func tracksLinearAccelerationAlone() throws {
        // The bundled belt walk's user acceleration alone, as an Android linear-acceleration
        // log would hold it (m/s², one time column).
        let r = try RecordingLoader.load(path: CLI.root + "/datasets/iphone-belt-stand-then-walk.motus")
        let u = try #require(r.stream(.userAcceleration))
        var text = "t,ux,uy,uz\n"
        for i in 0..<u.count { let v = u.vector(i); text += "\(u.times[i] - u.times[0]),\(v.x),\(v.y),\(v.z)\n" }
        let p = CLI.temp("linear.csv", text)
        let out = try CLI.run(["track", p, "--time-column", "t", "--user-accel-columns", "ux,uy,uz", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr == "motus: \(p): user acceleration without gravity: steps are counted along its main axis of motion (taken for the vertical), moving/still from the steps and stillness alone; the shipped model is not used, its features need gravity (give the gravity or the accelerometer's stream for them)\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? Int)
        #expect(steps > 30, "the U-turn walk's steps: \(steps)")
    }
}
