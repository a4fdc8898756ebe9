import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// Issue #18: imports and ground truth that never drop or change things silently.
@Suite struct ImportAndGroundTruthTests {
    static func export(_ accelerometer: String?, name: String = "Accelerometer.csv") -> String {
        let dir = TestFiles.tempDir()
        try! "time,seconds_elapsed,z,y,x\n1700000000000000000,0.0,0.3,0.2,0.1\n".write(toFile: dir + "/Gyroscope.csv", atomically: true, encoding: .utf8)
        if let accelerometer { try! accelerometer.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    static func error(_ body: () throws -> Void) -> InputError? {
        do { try body(); return nil } catch { return error as? InputError }
    }

    /// An empty, header-only or garbage Accelerometer.csv once imported (exit 0) as a recording
    /// without acceleration.
    @Test(arguments: [
        ("", "an empty file"),
        ("time,seconds_elapsed,z,y,x\n", "a header and no rows"),
        ("\u{1}\u{7F}garbage bytes", "a header and no rows"),
        ("time,seconds_elapsed,z,y,x\n1700000000000000000,-0.5,0.3,0.2,0.1\n", "1 rows, all before the start (negative seconds_elapsed)"),
    ])
    func sensorFileWithoutReadingsIsAnError(contents: String, found: String) throws {
        let dir = Self.export(contents)
        let e = Self.error { _ = try DatasetImporter.run(source: dir, format: .sensorlogger, out: TestFiles.tempDir()) }
        #expect(e == InputError(.emptyFile, at: SourceLocation(file: dir + "/Accelerometer.csv"), found: found,
                                expected: "Sensor Logger accelerometer readings (time, seconds_elapsed and values under a header)"))
    }

    /// A time of 1e300 once imported and made a file `read` refused: now an error at its row
    /// and column, in CSV and JSON exports alike.
    @Test func absurdTimeIsAnErrorAtItsRow() throws {
        let expected = "a 'time' in epoch nanoseconds (a whole number from 0 to 9223372036854775807)"
        let csv = Self.export("time,seconds_elapsed,z,y,x\n1700000000000000000,0.0,0.3,0.2,0.1\n1e300,0.01,0.3,0.2,0.1\n")
        let e1 = Self.error { _ = try SensorLoggerExportReader.read(folder: csv) }
        #expect(e1 == InputError(.badValue, at: SourceLocation(file: csv + "/Accelerometer.csv", line: 3, column: 1), found: "1e300", expected: expected))
        let json = Self.export(#"[{"time":"1700000000000000000","seconds_elapsed":"0","z":"0.3","y":"0.2","x":"0.1"},"# + "\n" +
                               #" {"time":"-5","seconds_elapsed":"0.01","z":"0.3","y":"0.2","x":"0.1"}]"#, name: "Accelerometer.json")
        let e2 = Self.error { _ = try SensorLoggerExportReader.read(folder: json) }
        #expect(e2 == InputError(.badValue, at: SourceLocation(file: json + "/Accelerometer.json", line: 2, column: 10), found: "-5", expected: expected))
        // A good export still imports, and what it writes reads back whole.
        let good = Self.export("time,seconds_elapsed,z,y,x\n1700000000000000000,0.0,0.3,0.2,0.1\n1700000000010000000,0.01,0.3,0.2,0.1\n")
        let out = TestFiles.tempDir()
        let report = try DatasetImporter.run(source: good, format: .sensorlogger, out: out)
        #expect(report.written.count == 1 && report.samples == 3)
    }

    /// The general check: a recording the native format cannot carry is not left on disk.
    @Test func importNeverLeavesAFileReadWouldRefuse() throws {
        var s = SensorStream(kind: .acceleration, name: "acc")
        s.append(time: 0, Vector3(0, 0, 9.8))
        s.append(time: 1, Vector3(.nan, 0, 9.8))
        let path = TestFiles.tempDir() + "/bad.motus"
        try NativeWriter.write(Recording(streams: [s]), to: path)
        let e = Self.error { try DatasetImporter.verifyWritten(path, Recording(streams: [s]), from: "source.csv") }
        #expect(e?.location.file == "source.csv" && e?.reason == .badValue)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    static let lbHeader = "Acquisition frequency: 100 Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\tGyr_X\tGyr_Y\tGyr_Z\tMag_X\tMag_Y\tMag_Z\n"
    static func lbRow(_ c: Int) -> String { "\(c).0\t9.7\t0.1\t0.2\t0.01\t0.02\t0.03\t-0.3\t0.1\t-0.7\n" }

    /// IPOL heel strikes and toe-offs outside the sensor file were dropped from the scored
    /// truth without a word: now an error at the event in the JSON.
    @Test func ipolEventOutsideTheRecordingIsAnErrorAtTheEvent() throws {
        let dir = TestFiles.tempDir() + "/GaitData"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let lb = dir + "/2-2_lb.txt"
        try (Self.lbHeader + (0...9).map(Self.lbRow).joined()).write(toFile: lb, atomically: true, encoding: .utf8)
        try #"{"TrialBoundaries": [1, 8], "UTurnBoundaries": [4, 5], "LeftFootEvents": [[1, 3]],"# .appending("\n")
            .appending(#" "RightFootEvents": [[5, 8], [8, 12]]}"#).write(toFile: dir + "/2-2.json", atomically: true, encoding: .utf8)
        let e = Self.error { _ = try IPOLReader.read(path: lb) }
        #expect(e == InputError(.badValue, at: SourceLocation(file: dir + "/2-2.json", line: 2, column: 34), found: "12]]}",
                                expected: "a RightFootEvents heel strike sample inside the recording (0…9)"))
        // A trial that runs past the file would cut its labels.
        try #"{"TrialBoundaries": [1, 30], "UTurnBoundaries": [4, 5], "LeftFootEvents": [], "RightFootEvents": []}"#
            .write(toFile: dir + "/2-2.json", atomically: true, encoding: .utf8)
        #expect(Self.error { _ = try IPOLReader.read(path: lb) }?.found == "trial [1, 30]")
        // Annotations whose sensor file is missing are a trial found and set aside.
        try "{}".write(toFile: dir + "/3-1.json", atomically: true, encoding: .utf8)
        let ds = try IPOLDataset(root: ReaderFiles.parent(dir))
        #expect(ds.entries.map(\.id) == ["2-2", "3-1"])
        #expect(ds.entries[1].setAside == "no 3-1_lb.txt beside its annotations 3-1.json")
    }
}
