import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// WISDM raw text, on files written by hand to the documented layout (`Tests/HandWritten/`;
/// the real files cannot be shipped), with the quirks of the v1.1 file: several records on a
/// line, spaces after commas, a record with timestamp 0, a record written twice, a missing
/// last `;`, blank lines.
@Suite("Readers: WISDM")
struct ReadersWISDMTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath) + "/Tests/HandWritten/wisdm"
    static let v1 = root + "/WISDM_ar_v1.1_raw.txt"
    static let accel = root + "/wisdm-dataset/raw/phone/accel/data_1600_accel_phone.txt"
    static let gyro = root + "/wisdm-dataset/raw/phone/gyro/data_1600_gyro_phone.txt"

    @Test func detectsBothLayouts() {
        #expect(DatasetFormat.probe(path: Self.v1) == .init(format: .wisdm, isDataset: true))
        #expect(DatasetFormat.probe(path: Self.accel) == .init(format: .wisdm, isDataset: false))
        #expect(DatasetFormat.probe(path: Self.root + "/wisdm-dataset") == .init(format: .wisdm, isDataset: true))
        #expect(WISDMReader.parseFileName("data_1600_gyro_watch.txt") == .init(subject: "1600", sensor: "gyro", device: "watch"))
        #expect(WISDMReader.parseFileName("data_1600_magnet_phone.txt") == nil)
    }

    @Test func v1FileIsOneRecordingPerUser() throws {
        let ds = try WISDMDataset(root: Self.v1)
        #expect(ds.entries.map(\.id) == ["WISDM_ar_v1.1_raw/19", "WISDM_ar_v1.1_raw/20", "WISDM_ar_v1.1_raw/33"])
        #expect(ds.subjects == ["19", "20", "33"])

        let u33 = try ds.load("WISDM_ar_v1.1_raw/33")
        let acc = try #require(u33.stream(.acceleration))
        // Seven records: the one written twice is left out, the two sharing a line are both read.
        #expect(acc.count == 7)
        #expect(acc.times.enumerated().allSatisfy { abs($0.element - Double($0.offset) * 0.05) < 1e-12 })
        #expect(acc.vector(0) == Vector3(-0.6946377, 12.680544, 0.50395286))
        #expect(acc.vector(3) == Vector3(-0.61291564, 18.496431, 3.0237172))
        #expect(u33.labels.map(\.label) == ["Jogging", "Walking"])
        #expect(abs(u33.labels[0].end - 0.25) < 1e-12 && abs(u33.labels[1].start - 0.25) < 1e-12 && abs(u33.labels[1].end - 0.35) < 1e-12)
        #expect(u33.metadata.subject == "33" && u33.metadata.placement == "front-pocket" && u33.metadata.nominalRateHz == 20)
        #expect(u33.metadata.extra["start_ns"] == "49105962326000" && u33.metadata.extra["repeated_records"] == "1")

        let u20 = try ds.load("WISDM_ar_v1.1_raw/20")
        #expect(u20.stream(.acceleration)?.count == 2 && u20.metadata.extra["zero_timestamp_records"] == "1")
        #expect(u20.stream(.acceleration)?.vector(1) == Vector3(-1.1, 10.1, 0.8))   // the line without ';'
        let u19 = try ds.load("WISDM_ar_v1.1_raw/19")
        #expect(u19.stream(.acceleration)?.times == [0, 0.079895] && u19.labels.map(\.label) == ["Sitting"])
    }

    @Test func v1FileOfSeveralUsersIsNotOneRecording() {
        let e = inputError { _ = try RecordingLoader.load(path: Self.v1) }
        #expect(e?.description == "\(Self.v1): found '3 users (33, 20, 19)', expected one user's records: a WISDM file of several users is a dataset, one recording per user (evaluate, train and features read it so; WISDMDataset in the library)")
    }

    @Test func file2019BringsItsGyroscope() throws {
        let r = try RecordingLoader.load(path: Self.accel)
        #expect(r.streams.map(\.kind) == [.acceleration, .rotationRate])
        #expect(r.stream(.acceleration)?.count == 7 && r.stream(.rotationRate)?.count == 5)
        // One origin, the accelerometer's first timestamp: the gyroscope's first is 51484 ns later.
        #expect(r.stream(.rotationRate)?.times.first == 51484e-9)
        #expect(r.labels.map(\.label) == ["walking", "jogging"])
        #expect(r.metadata.subject == "1600" && r.metadata.device == "smartphone")
        // Read from the gyroscope file: the same recording.
        let g = try RecordingLoader.load(path: Self.gyro)
        #expect(g.streams == r.streams && g.labels == r.labels)
        let ds = try WISDMDataset(root: Self.root + "/wisdm-dataset")
        #expect(ds.entries.map(\.id) == ["phone/1600"] && ds.entries[0].label == "phone")
        #expect(try ds.load("phone/1600").streams == r.streams)
    }

    /// One fault each: the exact one-line error.
    @Test(arguments: [
        ("33,Jogging,100,1,2,3;\n33,Jogging,150,1,2;\n", "2:1: found '33,Jogging,150,1,2', expected 6 fields user,activity,timestamp,x,y,z (5 found; z missing)"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,150,1,2,;\n", "2:20: found nothing, expected z (m/s²)"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,150,1,2,3,4;\n", "2:22: found '4', expected ';' or the end of the line after the 6 fields user,activity,timestamp,x,y,z"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,150,1,x2,3;\n", "2:18: found 'x2', expected a number (y, m/s²)"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,1.5e2,1,2,3;\n", "2:12: found '1.5e2', expected a timestamp in whole nanoseconds"),
        ("33,Jogging,100,1,2,3;;\n", "1:22: found nothing, expected a record user,activity,timestamp,x,y,z before ';'"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,50,1,2,3;\n", "2:12: found '50', expected a timestamp after 100, user 33's previous record (line 1)"),
        ("33,Jogging,100,1,2,3;\n33,Jogging,100,1,2,4;\n", "2:12: found '100', expected a timestamp after 100, user 33's previous record (line 1) with other values"),
        ("33,Jog9ing,100,1,2,3;\n", "1:4: found 'Jog9ing', expected an activity (a word, as Walking, or a 2019 code letter)"),
        ("3a,Jogging,100,1,2,3;\n", "1:1: found '3a', expected a whole-number user id"),
        ("33,Jogging,100,1,2,3e5;\n", "1:20: found '3e5', expected an acceleration z_mps2 within ±10000 (no sensor gives 300000.0)"),
        ("\n\n", "found 'no records', expected WISDM records user,activity,timestamp,x,y,z;"),
    ])
    func badV1Records(text: String, message: String) {
        let t = TempDir()
        let p = t.write("WISDM_ar_v1.1_raw.txt", text)
        let e = inputError { _ = try WISDMReader.read(path: p) }
        #expect(e?.description == (message.hasPrefix("found") ? "\(p): " : "\(p):") + message)
    }

    @Test func badActivityCode2019() {
        let t = TempDir()
        let p = t.write("raw/phone/accel/data_1601_accel_phone.txt", "1601,A,100,1,2,3;\n1601,N,150,1,2,3;\n")
        let e = inputError { _ = try RecordingLoader.load(path: p) }
        #expect(e?.description == "\(p):2:6: found 'N', expected a WISDM 2019 activity code (A to S, without N)")
    }

    /// Cut anywhere: never a trap, never a value changed by the cut. A cut inside the last
    /// record is an error (its `;` is missing), or with `.drop` the line is left out.
    @Test func cutAnywhere() throws {
        let bytes = Array(try String(contentsOfFile: Self.v1, encoding: .utf8).utf8)
        let t = TempDir()
        for cut in stride(from: 1, to: bytes.count, by: 3) {
            let p = t.write("cut/WISDM_ar_v1.1_raw.txt", String(decoding: bytes[..<cut], as: UTF8.self))
            for user in ["33", "20", "19"] {
                do {
                    let r = try WISDMReader.read(path: p, user: user)
                    #expect(r.streams.allSatisfy { s in (0..<s.count).allSatisfy { s.vector($0).isFinite } })
                } catch {
                    #expect(error.description.hasPrefix(p), "cut at \(cut): \(error)")
                    #expect(!error.description.contains("\n"))
                }
            }
        }
        // "1.73;" cut to "1.7": an error at the cut, not the value 1.7.
        let text = String(decoding: bytes, as: UTF8.self)
        let cut = String(text[..<text.range(of: "1.73;")!.lowerBound]) + "1.7"
        let p = t.write("cut2/WISDM_ar_v1.1_raw.txt", cut)
        let e = inputError { _ = try WISDMReader.read(path: p, user: "19") }
        #expect(e?.reason == .truncated && e?.location.line == 13, "\(String(describing: e))")
        let dropped = try ReadingPolicy.with(.drop) { () throws(InputError) -> Recording in try WISDMReader.read(path: p, user: "19") }
        #expect(dropped.stream(.acceleration)?.count == 1)
    }
}
