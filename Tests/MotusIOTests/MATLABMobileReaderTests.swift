import Foundation
import Testing
@testable import MotusIO
import MotusCore

/// MATLAB Mobile sensor logs. `Tests/HandWritten/matlab-mobile/sensorlog_20260101_120000.mat`
/// is written by mat-io's MAT-file writer (`make_sample.py` beside it) to the layout of a log,
/// not by MATLAB: made-up numbers, 10 Hz sensors for 3 s, 1 Hz position. The damage tests also
/// run on a file MATLAB itself wrote (`datasets/mat-io/test_timetablev8_v7.mat`).
@Suite("MATLAB Mobile sensor logs")
struct MATLABMobileReaderTests {
    static let sample = TestFiles.packageRoot + "/Tests/HandWritten/matlab-mobile/sensorlog_20260101_120000.mat"
    static let matlabWritten = TestFiles.packageRoot + "/datasets/mat-io/test_timetablev8_v7.mat"
    /// 2026-01-01 12:00:00, the sample's first Acceleration time (no time zone: taken as UTC).
    static let start = 1_767_268_800.0

    @Test("the sample reads through the loader, with no flags, as one recording on one clock")
    func sampleLog() throws {
        #expect(MATLABMobileReader.isLog(Self.sample))
        #expect(!MATLABMobileReader.isLog(Self.matlabWritten))
        let notices = NoticeLog()
        InputNotices.setHandler { notices.add($0) }
        defer { InputNotices.setHandler(nil) }
        let r = try RecordingLoader.load(path: Self.sample)
        #expect(r.streams.map(\.kind) == [.acceleration, .rotationRate, .magneticField, .location])
        #expect(r.streams.map(\.count) == [30, 30, 30, 3])
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.times[0] == Self.start && abs(acc.times[29] - (Self.start + 2.9)) < 1e-6)
        // Row 0 of make_sample.py: X = 0.12 sin 0, Y = -0.08 + 0.05 cos 0, Z = 9.81 + 0.02 sin 0.
        #expect(acc.values[0] == 0 && acc.values[1] == -0.03 && acc.values[2] == 9.81)
        // Row 1: round(0.12 sin 0.4, 6), round(-0.08 + 0.05 cos 0.4, 6), round(9.81 + 0.02 sin 1.1, 6).
        #expect(acc.values[3] == 0.04673 && acc.values[4] == -0.033947 && acc.values[5] == 9.827824)
        let intervals = (1..<acc.count).map { acc.times[$0] - acc.times[$0 - 1] }
        #expect(intervals.allSatisfy { abs($0 - 0.1) < 1e-6 })   // 10 Hz
        let gyro = try #require(r.stream(.rotationRate))
        #expect(abs(gyro.times[0] - (Self.start + 0.013)) < 1e-6 && gyro.values[1] == -0.005 && gyro.values[2] == 0.2)
        let mag = try #require(r.stream(.magneticField))
        #expect(abs(mag.times[0] - (Self.start + 0.027)) < 1e-6 && mag.values[0] == 22 && mag.values[2] == -40.5)
        let loc = try #require(r.stream(.location))
        #expect(loc.times.map { $0 - Self.start } == [0.5, 1.5, 2.5])
        #expect(Array(loc.values[0..<6]) == [48.85837, 2.294481, 35.2, 1.4, 54, 4.5] && loc.values[6].isNaN)
        #expect(r.metadata.source == "MATLAB Mobile sensorlog_20260101_120000.mat")
        #expect(r.metadata.extra["clock"]?.contains("without time zone") == true)
        // Orientation is named, with why it is not read.
        let mine = notices.lines.filter { $0.hasPrefix(Self.sample) }
        #expect(mine.count == 1)
        #expect(mine.first?.hasPrefix("\(Self.sample): left out: Orientation (30 rows of azimuth, pitch and roll in degrees") == true)
        // The streaming path gives the same samples.
        let s = try RecordingLoader.summarize(path: Self.sample)
        #expect(s.streams.map(\.samples) == [30, 30, 30, 3] && abs(s.streams[0].rateHz - 10) < 0.01)
    }

    /// The sample with its compressed elements stored plainly, so that damage reaches the
    /// subsystem bytes themselves rather than the compressed stream around them.
    static func uncompressed(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var out = Array(bytes.prefix(128))
        var at = 128
        while at + 8 <= bytes.count {
            let type = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            if type == 15 {
                out += try Inflate.zlib(Array(bytes[(at + 8)..<(at + 8 + size)]))
                at += 8 + size
            } else {
                out += bytes[at..<(at + 8 + (size + 7) / 8 * 8)]
                at += 8 + (size + 7) / 8 * 8
            }
        }
        return out
    }

    static func check(_ e: InputError, _ file: String) {
        #expect(!e.description.contains("\n"))
        #expect(e.location.file == file)
    }

    @Test("a log cut anywhere, or with any byte of its objects changed, is one error or a recording, never a trap",
          arguments: [sample, matlabWritten])
    func damage(path: String) throws {
        let plain = try Self.uncompressed(path)
        let original = try MATFile.decode(plain, file: "plain.mat")
        #expect(original.names == (try MATFile.read(path: path)).names)   // stored plainly, the same variables
        let dir = TestFiles.tempDir()
        let p = dir + "/sensorlog_cut.mat"
        let compressed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Every cut, of the plain and the compressed file, through the loader for a log.
        for bytes in [plain, compressed] {
            for cut in 0..<bytes.count {
                let prefix = Array(bytes.prefix(cut))
                do {
                    let f = try MATFile.decode(prefix, file: "cut.mat")
                    // Only a cut between elements can read; then some variable or object is missing.
                    #expect(f.names.count < original.names.count || cut == bytes.count)
                } catch { Self.check(error, "cut.mat") }
            }
        }
        // Every byte from the subsystem data on, set to 0xFF and to 0x00 in turn.
        let subsystem = try #require(Self.subsystemStart(plain))
        var failures = 0
        for i in subsystem..<plain.count {
            for v: UInt8 in [0xFF, 0x00] where plain[i] != v {
                var b = plain
                b[i] = v
                do {
                    let f = try MATFile.decode(b, file: "flip.mat")
                    for name in f.names where f[name]?.className == "timetable" { _ = try? f.timetable(name) }
                } catch {
                    Self.check(error, "flip.mat")
                    failures += 1
                }
            }
        }
        #expect(failures > 0)
        // Through the loader too, for a cut inside the subsystem data of a log.
        if path == Self.sample {
            #expect(FileManager.default.createFile(atPath: p, contents: Data(plain.prefix(subsystem + 200))))
            let e = inputError { _ = try RecordingLoader.load(path: p) }
            #expect(e?.reason == .truncated && e?.location.file == p)
        }
    }

    /// Offset of the unnamed uint8 element (the subsystem data) in a plain MAT-file.
    static func subsystemStart(_ b: [UInt8]) -> Int? {
        var at = 128
        while at + 8 <= b.count {
            let size = Int(b[at + 4]) | Int(b[at + 5]) << 8 | Int(b[at + 6]) << 16 | Int(b[at + 7]) << 24
            // flags (16 bytes), then class 9 = uint8 at byte 16 of the element.
            if b[at + 16] == 9 { return at }
            at += 8 + (size + 7) / 8 * 8
        }
        return nil
    }

    @Test("damage the checks name: a reference to an object the subsystem does not have, a missing subsystem")
    func badReferences() throws {
        var plain = try Self.uncompressed(Self.matlabWritten)
        // The first variable's reference ends with object id 1 and class id 2: make the object 9.
        let ref: [UInt8] = [0x00, 0x00, 0x00, 0xDD, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]
        let at = try #require(Self.find(ref, in: plain))
        plain[at + 16] = 9
        let e = inputError { _ = try MATFile.decode(plain, file: "ref.mat") }
        #expect(e?.description == "ref.mat at byte 128: found 'object 9 for 'timetable_v8'', expected an object id from 1 to 4 (subsystem data)")
        // Without the subsystem data the objects' contents are missing.
        let noSubsystem = Array(try Self.uncompressed(Self.matlabWritten).prefix(try #require(Self.subsystemStart(plain))))
        let e2 = inputError { _ = try MATFile.decode(noSubsystem, file: "nosub.mat") }
        #expect(e2?.description == "nosub.mat at byte 128: found ''timetable_v8', timetable object 1', expected the subsystem data holding its contents (an unnamed uint8 array after the variables)")
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
