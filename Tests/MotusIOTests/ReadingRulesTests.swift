import Foundation
import Testing
@testable import MotusIO
import MotusCore

/// The shared rule for numbers, times and line ends (#18), fed the exact bad inputs.
@Suite struct ReadingRulesTests {
    func read(_ text: String, name: String = "input.csv", _ configure: (inout DelimitedOptions) -> Void = { _ in }) throws -> Recording {
        var o = DelimitedOptions()
        configure(&o)
        return try RecordingLoader.load(path: TestFiles.temp(text, name: name), options: o)
    }

    func error(_ text: String, name: String = "input.csv", _ configure: @escaping (inout DelimitedOptions) -> Void = { _ in }) -> InputError? {
        inputError { _ = try read(text, name: name, configure) }
    }

    /// Strips the temporary folder from an error's description.
    func message(_ e: InputError?) -> String {
        guard var e else { return "no error" }
        e.location.file = (e.location.file as NSString).lastPathComponent
        return e.description
    }

    // MARK: 1. Numbers and times

    @Test func valueInfiniteAfterConversionIsAnError() throws {
        let e = error("t,acc_x,acc_y,acc_z\n0,1e308,2,3\n0.01,1,2,3\n") { $0.accelUnit = .g }
        #expect(message(e) == "input.csv:2:3: found '1e308', expected a value of column 'acc_x' (acceleration) that stays finite in m/s² (it overflows when converted)")
        #expect(e?.reason == .nonFinite)
        // The same value in m/s² is finite, but past what any accelerometer gives.
        #expect(message(error("t,acc_x,acc_y,acc_z\n0,1e308,2,3\n0.01,1,2,3\n") { _ in })
                == "input.csv:2:3: found '1e308', expected an acceleration x_mps2 within ±10000 (no sensor gives 1e+308)")
    }

    @Test func valueInfiniteAfterConversionInTheWholeFileReaderToo() throws {
        // Over the one-thread threshold of the whole-file reader, the direct paths must refuse it as well.
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<200_000 { text += "\(Double(i) / 100),0.125,0.25,9.75\n" }
        text += "2000.5,-1.5e308,0.25,9.75\n"
        let e = error(text) { $0.accelUnit = .g }
        #expect(message(e) == "input.csv:200002:8: found '-1.5e308', expected a value of column 'acc_x' (acceleration) that stays finite in m/s² (it overflows when converted)")
    }

    @Test func timeFarFromTheFirstSampleIsAnError() {
        let e = error("t,acc_x,acc_y,acc_z\n0,1,2,3\n1,1,2,3\n1e11,1,2,3\n")
        #expect(message(e) == "input.csv:4:1: found '1e11', expected a time within 1e10 s of the stream's first sample (0.0 s); this is 100000000000.0 s from it")
        // Within 1e10 s is accepted.
        #expect(inputError { _ = try read("t,acc_x,acc_y,acc_z\n0,1,2,3\n9e9,1,2,3\n") } == nil)
    }

    @Test func timeFarInTheWholeFileReader() {
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<200_000 { text += "\(Double(i) / 100),0.125,0.25,9.75\n" }
        text += "1e300,0.125,0.25,9.75\n"
        let e = error(text)
        #expect(message(e) == "input.csv:200002:1: found '1e300', expected a time within 1e10 s of the stream's first sample (0.0 s); this is 1e+300 s from it")
    }

    @Test func nativeTimeFarFromTheStreamsFirstSample() {
        let p = TestFiles.temp("#motus,1\n@stream,acc,acc\n@stream,gyro,gyro\nacc,5,0,0,9.8\ngyro,1e12,0,0,0\nacc,6,0,0,9.8\ngyro,1e12,0,0,0\nacc,1e300,0,0,9.8\n", name: "r.motus")
        let e = inputError { _ = try NativeFormat.read(path: p) }
        // gyro's first sample is its own origin; acc's 1e300 is measured from acc's 5 s.
        #expect(message(e) == "r.motus:8:5: found '1e300', expected a time within 1e10 s of the stream's first sample (5.0 s); this is 1e+300 s from it")
    }

    @Test func nativeParallelReaderLeavesAFarTimeToTheOneThreadPass() throws {
        var text = "#motus,1\n@stream,acc,acc\n"
        for i in 0..<4000 { text += "acc,\(Double(i) / 100),0.125,0.25,9.75\n" }
        text += "acc,2e10,0.125,0.25,9.75\n"
        for i in 4000..<8000 { text += "acc,\(Double(i) / 100),0.125,0.25,9.75\n" }
        let p = TestFiles.temp(text, name: "far.motus")
        // The parallel reader gives up (in a chunk or at the join); the one-thread pass names the place.
        #expect(try NativeFormat.readParallel(path: p, options: .init(), workers: 2, minimumBytes: 1024) == nil)
        #expect(message(inputError { _ = try NativeFormat.read(path: p) }) == "far.motus:4003:5: found '2e10', expected a time within 1e10 s of the stream's first sample (0.0 s); this is 20000000000.0 s from it")
    }

    @Test func mPowerUserAccelerationOf1e308GIsAnError() {
        let json = """
        [{"timestamp":1.0,"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},
          "userAcceleration":{"x":1e308,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1}}]
        """
        let e = inputError { _ = try MPowerReader.read(path: TestFiles.temp(json, name: "walk.json")) }
        #expect(message(e) == "walk.json:2:27: found '1e308,\"y\":0,\"z\":0},\"gravity\":{\"x\":0,\"y\":', expected a sample 0 userAcceleration 'x' that stays finite in m/s² (it overflows when converted)")
    }

    @Test func mPowerTimeFarFromTheFirst() {
        let s = #"{"timestamp":T,"x":0,"y":0,"z":-1}"#
        let json = "[" + s.replacingOccurrences(of: "T", with: "1.0") + ",\n" + s.replacingOccurrences(of: "T", with: "1e20") + "]"
        let e = inputError { _ = try MPowerReader.read(path: TestFiles.temp(json, name: "accel.json")) }
        #expect(e?.location.line == 2 && e?.location.column == 14)
        #expect(e?.expected.hasPrefix("a time within 1e10 s of the stream's first sample (1.0 s)") == true)
    }

    @Test func motionSenseGravityOverflowingInMetresPerSecondSquared() throws {
        let root = TestFiles.tempDir()
        let dir = root + "/A_DeviceMotion_data/wlk_7"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let header = ",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
        let text = header + "0,0.1,0.2,0.3,0.0,0.0,-1.0,0.0,0.0,0.0,0.01,0.02,0.03\n1,0.1,0.2,0.3,0.0,-1e308,-1.0,0.0,0.0,0.0,0.01,0.02,0.03\n"
        _ = FileManager.default.createFile(atPath: dir + "/sub_1.csv", contents: Data(text.utf8))
        let e = inputError { _ = try MotionSenseReader.read(path: dir + "/sub_1.csv") }
        #expect(message(e) == "sub_1.csv:3:19: found '-1e308', expected a value of gravity.y that stays finite in m/s² (it overflows when converted)")
    }

    @Test func oxfordTimestampFarFromTheFirst() throws {
        let dir = TestFiles.tempDir()
        _ = FileManager.default.createFile(atPath: dir + "/accelerometer.csv", contents: Data("1000000000,3,0.1,0.2,9.8\r\n2000000000,3,0.1,0.2,9.8\r\n9e30,3,0.1,0.2,9.8\r\n".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/stepcounter.csv", contents: Data("1000000000,0,0\r\n".utf8))
        let e = inputError { _ = try OxfordReader.read(folder: dir) }
        #expect(e?.location.line == 3 && e?.location.column == 1 && e?.found == "9e30")
    }

    @Test func sensorLoggerTimeFarFromTheEpochIsRefused() {
        var batch = SampleBatch()
        let o = SensorLoggerParser.sample(name: "accelerometer", time: 1e291, coreMotionSign: false, into: &batch) { _ in 0.5 }
        #expect(o.malformed == 1 && batch.isEmpty)
        #expect(o.warning == "accelerometer: time 1e+291 s is not a Unix time within 1e10 s of 1970")
        let ok = SensorLoggerParser.sample(name: "accelerometer", time: 1.7e9, coreMotionSign: false, into: &batch) { _ in 0.5 }
        #expect(ok.samples == 1)
    }

    // MARK: 2. The cut last line

    @Test func nativeUnterminatedLastLineIsIncomplete() throws {
        let p = TestFiles.temp("#motus,1\n@stream,acc,acc\nacc,0,0.000976,0.5,9.8\nacc,0.01,0.000976,0.5,0.", name: "cut.motus")
        let e = inputError { _ = try NativeFormat.read(path: p) }
        #expect(message(e) == "cut.motus:4: found 'an incomplete last line', expected a complete line: this one has 24 bytes and no newline, and Motus ends every line of its own format with one; the file may have been cut while written (--drop-incomplete-line leaves the line out)")
        #expect(e?.reason == .truncated)
        // Left out when asked, and said so.
        var b = RecordingBuilder()
        let left = try NativeFormat.scan(path: p, into: &b, options: NativeReadOptions(incompleteLastLine: .drop))
        #expect(left?.bytes == 24 && left?.line == 4)
        #expect(b.recording.stream(.acceleration)?.count == 1)
        // inspect leaves it out and reports it in the summary.
        let s = try RecordingLoader.summarize(path: p)
        #expect(s.streams.first?.samples == 1 && s.leftOut?.bytes == 24)
    }

    @Test func delimitedCutInsideTheLastNumber() throws {
        let text = "t,acc_x,acc_y,acc_z\n0.00,0.000976,0.5,9.806\n0.01,0.000977,0.5,9.807\n0.02,0.000978,0.5,0."
        let e = error(text)
        #expect(message(e) == "input.csv:4:19: found 'an incomplete last line', expected a complete line: this one has 20 bytes and no newline, and '0.' ends where no number ends; the file may have been cut while written (--drop-incomplete-line leaves the line out)")
        let dropped = try read(text) { $0.incompleteLastLine = .drop }
        #expect(dropped.stream(.acceleration)?.count == 2)
    }

    @Test func delimitedCutToFewerDigitsOrFields() {
        let base = "t,acc_x,acc_y,acc_z\n0.00,0.000976,0.5,9.806\n0.01,0.000977,0.5,9.807\n"
        #expect(error(base + "0.02,0.000978,0.5,9.8")?.expected.contains("'9.8' has 1 digit after the point and every other value of its column at least 3") == true)
        #expect(error(base + "0.02,0.000978,0.5")?.expected.contains("3 fields where the rows before have 4") == true)
        #expect(error(base + "0.02,0.000978,0.5")?.location.column == 18)
        // A last line printed like the others is complete: read, no error.
        #expect(inputError { _ = try read(base + "0.02,0.000978,0.5,9.808") } == nil)
        #expect((try? read(base + "0.02,0.000978,0.5,9.808"))?.stream(.acceleration)?.count == 3)
    }

    @Test func phyphoxStyleExponentsMustAllBeThere() {
        let base = "\"Time (s)\",\"X (m/s^2)\",\"Y (m/s^2)\",\"Z (m/s^2)\"\n3.446083327E-3,-4.806504822E-1,1.707798615E0,9.449848938E0\n1.337908334E-2,-5.548960876E-1,1.533411255E0,9.562863922E0\n"
        let cols: (inout DelimitedOptions) -> Void = { $0.timeColumn = .index(0); $0.accelColumns = [.index(1), .index(2), .index(3)] }
        #expect(error(base + "2.3E-2,-5.5E-1,1.5E0,9.918524323", cols)?.expected.contains("'9.918524323' has no exponent and every other value of its column has one") == true)
        #expect(error(base + "2.3E-2,-5.5E-1,1.5E0,9.918524323E", cols)?.expected.contains("'9.918524323E' ends where no number ends") == true)
        #expect(inputError { _ = try read(base + "2.339208334E-2,-5.5E-1,1.5E0,9.918524323E0", cols) } == nil)
    }

    @Test func realExportsThatEndWithoutANewlineStillRead() throws {
        guard TestFiles.hasShared, let shared = TestFiles.shared else { return }
        let apps = shared + "/apps"
        var o = DelimitedOptions()
        o.timeColumn = .index(0); o.accelColumns = [.index(1), .index(2), .index(3)]
        for f in ["Accelerometer.csv", "Gyroscope.csv"] {
            var g = o
            if f == "Gyroscope.csv" { g.accelColumns = nil; g.gyroColumns = [.index(1), .index(2), .index(3)] }
            let path = apps + "/phyphox/" + f
            #expect(DelimitedReader.endsWithLF(path) == false)
            let r = try RecordingLoader.load(path: path, options: g)
            #expect((r.streams.first?.count ?? 0) > 10_000)
        }
        for label in ["running", "standing"] {
            for name in ReaderFiles.list(apps + "/motiondatacollector/" + label) where name.hasSuffix(".csv") {
                let r = try MotionDataCollectorReader.read(path: apps + "/motiondatacollector/\(label)/" + name, label: label)
                #expect((r.streams.first?.count ?? 0) > 10)
            }
        }
        let info = shared + "/motionsense/data_subjects_info.csv"
        if ReaderFiles.isFile(info) { #expect(try MotionSenseReader.subjectInfo(path: info).count > 0) }
    }

    @Test func datasetReaderCutLastLine() throws {
        let dir = TestFiles.tempDir()
        _ = FileManager.default.createFile(atPath: dir + "/accelerometer.csv", contents: Data("1000000000,3,0.1234,0.2345,9.8123\r\n1010000000,3,0.1235,0.2346,9.8124\r\n1020000000,3,0.1236,0.2347,9.8".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/stepcounter.csv", contents: Data("1000000000,0,0\r\n".utf8))
        let e = inputError { _ = try OxfordReader.read(folder: dir) }
        #expect(e?.reason == .truncated && e?.location.line == 3 && e?.location.column == 28)
        let r = try ReadingPolicy.with(.drop) { () throws(InputError) -> Recording in try OxfordReader.read(folder: dir) }
        #expect(r.stream(.acceleration)?.count == 2)
    }

    // MARK: 3. Line ends

    @Test func crOnlyLineEndsReadLikeLF() throws {
        let lf = "t,acc_x,acc_y,acc_z\n0.00,0.1,0.2,9.8\n0.01,0.1,0.2,9.8\n0.02,0.1,0.2,9.8\n"
        let cr = lf.replacingOccurrences(of: "\n", with: "\r")
        #expect(try read(cr).streams == read(lf).streams)
        #expect(try read(cr).stream(.acceleration)?.count == 3)
        // Mixed endings keep line numbers: the bad value is on line 4.
        let mixed = "t,acc_x,acc_y,acc_z\r\n0.00,0.1,0.2,9.8\r0.01,0.1,0.2,9.8\nx.02,0.1,0.2,9.8\r\n"
        #expect(error(mixed)?.location.line == 4 && error(mixed)?.location.column == 1)
        let native = "#motus,1\r@stream,acc,acc\racc,0,0.1,0.2,9.8\racc,0.01,0.1,0.2,9.8\r"
        #expect(try NativeFormat.read(path: TestFiles.temp(native, name: "cr.motus")).stream(.acceleration)?.count == 2)
    }

    @Test func crInTheLastByteOfAChunkWaitsForTheNext() throws {
        // A CR-only file whose CR falls on a chunk border, read with a tiny chunk.
        let text = "ab\rcd\r\nef\rgh"
        let p = TestFiles.temp(text, name: "x.txt")
        var c = try LineCursor(path: p, chunkBytes: 16)
        var lines: [String] = []
        while let l = try c.next() { lines.append(String(decoding: l, as: UTF8.self)) }
        #expect(lines == ["ab", "cd", "ef", "gh"])
        #expect(c.lastLineUnterminated && c.lastLineBytes == 2)
    }

    // MARK: 4. Header columns

    @Test func partialAxisTripleIsAnErrorAtTheColumn() {
        let e = error("t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_q\n0,1,2,3,4,5,6\n") { $0.gyroUnit = .degreesPerSecond }
        #expect(message(e) == "input.csv:1:33: found 'gyr_q', expected 'gyr_z' (the header has gyr_x, gyr_y: rotation rate needs all three axes)")
    }

    @Test func unitFlagForAStreamTheFileDoesNotHave() {
        let e = error("t,acc_x,acc_y,acc_z\n0,1,2,3\n") { $0.gyroUnit = .degreesPerSecond }
        #expect(message(e) == "input.csv:1: found 'no rotation-rate columns', expected rotation-rate columns for --gyro-unit (the header has t, acc_x, acc_y, acc_z)")
    }

    @Test func leftOutColumnsArePostedInOneLine() throws {
        let seen = NoticeLog()
        InputNotices.setHandler { seen.add($0) }
        defer { InputNotices.setHandler(nil) }
        let r = try read("t,acc_x,acc_y,acc_z,foo,bar\n0,1,2,3,4,5\n0.01,1,2,3,4,5\n", name: "extra.csv")
        #expect(r.streams.count == 1)
        #expect(seen.lines.contains { $0.hasSuffix("extra.csv: left out columns: foo, bar (Motus reads no stream from them)") })
    }

    // MARK: 5. Column indexes and headers

    @Test func indexFlagsOnAFileWhoseFirstLineIsARow() {
        let e = error("0,1,2,3\n0.01,1,2,3\n") { $0.timeColumn = .index(0); $0.accelColumns = [.index(1), .index(2), .index(3)] }
        #expect(message(e) == "input.csv:1:1: found '0,1,2,3', expected a header line: this first line is a row of numbers and would be taken for the header (add --no-header)")
        // With --no-header it reads both rows.
        let r = try? read("0,1,2,3\n0.01,1,2,3\n") { $0.noHeader = true; $0.timeColumn = .index(0); $0.accelColumns = [.index(1), .index(2), .index(3)] }
        #expect(r?.stream(.acceleration)?.count == 2)
    }

    @Test func noHeaderOnAFileWhoseFirstLineIsAHeader() {
        let e = error("t,acc_x,acc_y,acc_z\n0,1,2,3\n") { $0.noHeader = true; $0.timeColumn = .index(0); $0.accelColumns = [.index(1), .index(2), .index(3)] }
        #expect(message(e) == "input.csv:1:1: found 't,acc_x,acc_y,acc_z', expected a row of numbers: this first line looks like a header (leave out --no-header; columns may then be named)")
    }

    // MARK: 6. Many streams

    @Test func nativeStreamCapAndLinearTime() throws {
        // 50,000 one-sample streams: an error at the line that declares stream 4,097, at once.
        var text = "#motus,1\n"
        for i in 0..<50_000 { text += "@stream,s\(i),acc\ns\(i),\(Double(i) * 0.01),0,0,9.8\n" }
        let p = TestFiles.temp(text, name: "many.motus")
        let start = Date()
        let e = inputError { _ = try RecordingLoader.summarize(path: p) }
        #expect(message(e) == "many.motus:8194:9: found 'stream 4097 's4096'', expected at most 4096 streams in one recording")
        // 4,096 streams read, each sample found by hash, in well under the time the quadratic scan took.
        var ok = "#motus,1\n"
        for i in 0..<4096 { ok += "@stream,s\(i),acc\n" }
        for r in 0..<20 { for i in 0..<4096 { ok += "s\(i),\(Double(r) * 0.01),0,0,9.8\n" } }
        let q = TestFiles.temp(ok, name: "4096.motus")
        let s = try RecordingLoader.summarize(path: q)
        #expect(s.streams.count == 4096 && s.streams.allSatisfy { $0.samples == 20 })
        let rec = try NativeFormat.read(path: q)
        #expect(rec.streams.count == 4096 && rec.streams[4095].name == "s4095" && rec.streams[4095].count == 20)
        #expect(Date().timeIntervalSince(start) < 20)
    }
}

/// Collects notices from `InputNotices` (any thread).
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
