import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("mPower reader")
struct ReadersMPowerTests {
    @Test("every file: streams present, counts = JSON array length, units and gravity/attitude convention",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ReadersData.mpowerFiles)
    func file(_ name: String) throws {
        let path = ReadersData.path("mpower/mhealthtools/" + name)
        let r = try MPowerReader.read(path: path)
        let reference = try #require(ReadersData.json(path) as? [[String: Any]])
        for kind in [StreamKind.acceleration, .rotationRate, .gravity, .userAcceleration, .attitude] {
            let s = try #require(r.stream(kind), "missing \(kind)")
            #expect(s.count == reference.count)
        }
        #expect(r.stream(.magneticField) == nil)   // every sample has accuracy -1
        #expect(r.metadata.extra["mag.uncalibrated"] == "\(reference.count)")
        let g = r.stream(.gravity)!, q = r.stream(.attitude)!, u = r.stream(.userAcceleration)!, a = r.stream(.acceleration)!
        var worst = 0.0
        for i in 0..<g.count {
            #expect(abs(g.vector(i).norm - Units.standardGravity) < 1e-5)
            worst = max(worst, (q.quaternion(i).inverseRotate(Vector3(0, 0, Units.standardGravity)) - g.vector(i)).norm)
            #expect(a.vector(i) == g.vector(i) + u.vector(i))
        }
        #expect(worst < 1e-5, "gravity vs attitude: \(worst) m/s²")
        // Values as written, sign flipped: first sample. (Foundation's JSON numbers on Linux are
        // sometimes 1 ulp off the correctly rounded value, which Motus and Python give; hence
        // a tolerance.)
        let first = reference[0]["gravity"] as! [String: Double]
        let expected = Vector3(first["x"]!, first["y"]!, first["z"]!) * -Units.standardGravity
        #expect((g.vector(0) - expected).norm < 1e-12)
        #expect(g.times[0] == (reference[0]["timestamp"] as! Double))
    }

    @Test("face-up still phone reads +9.81 on z; boot-relative time kept",
          .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func faceUp() throws {
        let r = try MPowerReader.read(path: ReadersData.path("mpower/mhealthtools/phone_data_test.json"))
        let g = r.stream(.gravity)!.mean(), a = r.stream(.acceleration)!.mean()
        #expect(g.z > 9.7)
        #expect((a - g).norm < 0.2)
        #expect(abs(r.stream(.acceleration)!.times[0] - 1_054_137.21) < 0.01)
        #expect(r.stream(.acceleration)!.count == 990)
    }
}
