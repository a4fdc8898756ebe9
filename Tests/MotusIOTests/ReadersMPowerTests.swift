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

    /// An mPower accelerometer file (the study's `accel_*.json` layout) of `n` samples.
    static func writeAccelerometerFile(_ path: String, n: Int = 50) throws {
        let rows = (0..<n).map { #"{"y":0.97,"timestamp":\#(39042.6 + Double($0) * 0.01),"z":-0.2,"x":-0.1}"# }
        try FileManager.default.createDirectory(atPath: ReaderFiles.parent(path), withIntermediateDirectories: true)
        try ("[" + rows.joined(separator: ",") + "]").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("file names: X.json and Synapse's X.json.items-<uuid>.tmp name recording X; others none")
    func recordingNames() {
        #expect(MPowerDataset.recordingName(ofFile: "walk_data.json") == "walk_data")
        #expect(MPowerDataset.recordingName(ofFile: "accel_walking_outbound.json.items-332b9650-9d21-4c41-b3ed-fcff2cf0e0622267771411486043586.tmp") == "accel_walking_outbound")
        for other in ["walk.tmp", ".json", ".json.items-1.tmp", "walk.json.items-1.txt", "walk.csv", "json.items-1.tmp"] {
            #expect(MPowerDataset.recordingName(ofFile: other) == nil, "\(other)")
        }
    }

    @Test("a Synapse download: its files two folders under cache/ are found from cache/ and from the folder above; ids keep the path")
    func synapseDownload() throws {
        let t = TempDir()
        let a = t.path + "/cache/0/2353000/accel_walking_outbound.json.items-332b9650-9d21-4c41-b3ed-fcff2cf0e0622267771411486043586.tmp"
        let b = t.path + "/cache/1/2393001/accel_walking_outbound.json.items-8a4026d1-48d3-4889-8690-9135e6433d22154709352169880302.tmp"
        try Self.writeAccelerometerFile(a, n: 50)
        try Self.writeAccelerometerFile(b, n: 60)
        #expect(DatasetFormat.probe(path: a) == DatasetFormat.Probe(format: .mpower, isDataset: false))
        #expect(try RecordingLoader.load(path: a).stream(.acceleration)?.count == 50)
        for (root, prefix) in [(t.path, "cache/"), (t.path + "/cache", "")] {
            #expect(DatasetFormat.probe(path: root) == DatasetFormat.Probe(format: .mpower, isDataset: true), "\(root)")
            let ds = try DatasetFormat.openDataset(root: root)
            #expect(ds.recordingIDs == [prefix + "0/2353000/accel_walking_outbound", prefix + "1/2393001/accel_walking_outbound"])
            #expect(try ds.load(ds.recordingIDs[1]).stream(.acceleration)?.count == 60)
        }
        // A folder with files of its own is not taken for mPower because of one deep inside it.
        try "t,x,y,z\n0,0,0,9.8\n".write(toFile: t.path + "/walk.csv", atomically: true, encoding: .utf8)
        #expect(DatasetFormat.probe(path: t.path) == nil)
    }

    @Test("the folder reader lists mPower files at any depth, not two folders down only")
    func deepFiles() throws {
        let t = TempDir()
        try Self.writeAccelerometerFile(t.path + "/top.json")
        try Self.writeAccelerometerFile(t.path + "/a/b/c/d/deep.json")
        #expect(try MPowerDataset(root: t.path).recordingIDs == ["a/b/c/d/deep", "top"])
    }
}
