import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// Values read in the wrong unit and a declared rate the timestamps contradict are said
/// (`PlausibilityCheck`), as a warning or, with `.error`, as the error that stops reading.
@Suite(.serialized) struct PlausibilityCheckTests {
    /// mobgap's CSV (g, deg/s, no time column) copied away from its layout file.
    static func mobgapWithoutLayout() -> String {
        let p = TestFiles.tempDir() + "/walk.csv"
        try! FileManager.default.copyItem(atPath: TestFiles.packageRoot + "/datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv", toPath: p)
        return p
    }

    static func rate(_ hz: Double) -> DelimitedOptions { var o = DelimitedOptions(); o.rateHz = hz; return o }

    static func strict(_ o: DelimitedOptions = .init()) -> DelimitedOptions { var o = o; o.plausibility = .error; return o }

    @Test func gAndDegreesReadAsSIAreFoundOnTheRealFile() throws {
        let p = Self.mobgapWithoutLayout()
        var check = PlausibilityCheck()
        check.add(try RecordingLoader.load(path: p, options: { var o = Self.rate(100); o.plausibility = .off; return o }()))
        let f = check.findings(file: p)
        #expect(f.map(\.kind) == [.accelerationTooSmall, .rotationTooLarge])
        #expect(f.first?.description == "\(p): median |acceleration| 0.981 m/s², expected about 9.81 (gravity alone): if the file is in g, give --accel-unit g (if it holds acceleration without gravity, --user-accel-columns)")
        #expect(f.last?.description == "\(p): p99 |rotation rate| 53.2 rad/s, expected under 35 rad/s (2000 °/s, a gyroscope's range): if the file is in °/s, give --gyro-unit degs")
        // The same file with its units declared, and the bundled recordings, say nothing.
        var units = Self.rate(100)
        units.accelUnit = .g; units.gyroUnit = .degreesPerSecond
        var ok = PlausibilityCheck(declaredRateHz: 100)
        ok.add(try RecordingLoader.load(path: p, options: units))
        #expect(ok.findings(file: p).isEmpty)
        for name in ["iphone-belt-stand-then-walk.motus", "lowback-straight-walk.motus", "lowback-daily-activities.motus", "mobgap/MS001_TimeMeasure1_Test5_Trial1.csv"] {
            let path = TestFiles.packageRoot + "/datasets/" + name
            // `.error` stops at the first finding: none here.
            _ = try RecordingLoader.load(path: path, options: Self.strict())
            _ = try RecordingLoader.summarize(path: path, options: Self.strict())
        }
    }

    /// Warnings go to `InputNotices` (the CLI tests see them on stderr, once each); with
    /// `.error` every reading road stops with the first finding.
    @Test func everyReadingRoadChecks() throws {
        let p = Self.mobgapWithoutLayout()
        let strict = Self.strict(Self.rate(100))
        let message = "\(p): found 'median |acceleration| 0.981 m/s²', expected about 9.81 (gravity alone): if the file is in g, give --accel-unit g (if it holds acceleration without gravity, --user-accel-columns)"
        do { _ = try RecordingLoader.load(path: p, options: strict); Issue.record("no error") } catch { #expect(error.description == message) }
        do { _ = try RecordingLoader.summarize(path: p, options: strict); Issue.record("no error") } catch { #expect(error.description == message) }
        do {
            var reader = try SampleReader(path: p, options: strict, kinds: [.acceleration])
            try reader.forEach { _ in }
            Issue.record("no error")
        } catch { #expect(error.description == message) }
        do {
            var sink = RecordingBuilder()
            try RecordingLoader.scan(path: p, options: strict, into: &sink)
            Issue.record("no error")
        } catch { #expect(error.description == message) }
        var off = strict
        off.plausibility = .off
        #expect(try RecordingLoader.load(path: p, options: off).stream(.acceleration)?.count == 1450)
        // Rotation rate alone (the acceleration declared in g).
        var gyro = strict
        gyro.accelUnit = .g
        do { _ = try RecordingLoader.load(path: p, options: gyro); Issue.record("no error") } catch {
            #expect(error.description == "\(p): found 'p99 |rotation rate| 53.2 rad/s', expected under 35 rad/s (2000 °/s, a gyroscope's range): if the file is in °/s, give --gyro-unit degs")
        }
    }

    @Test func metresPerSecondSquaredReadAsG() throws {
        // The bundled walk (m/s²) written as CSV and read with --accel-unit g.
        let r = try RecordingLoader.load(path: TestFiles.packageRoot + "/datasets/lowback-straight-walk.motus")
        let acc = try #require(r.stream(.acceleration))
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<acc.count { let v = acc.vector(i); text += "\(acc.times[i]),\(v.x),\(v.y),\(v.z)\n" }
        let p = TestFiles.temp(text, name: "walk.csv")
        var o = DelimitedOptions()
        o.accelUnit = .g
        o.plausibility = .error
        do { _ = try RecordingLoader.load(path: p, options: o); Issue.record("no error") } catch {
            #expect(error.description == "\(p): found 'median |acceleration| 94.4 m/s²', expected about 9.81 (gravity alone): if the file is in m/s², give --accel-unit mps2")
        }
        o.accelUnit = nil
        #expect(try RecordingLoader.load(path: p, options: o).stream(.acceleration)?.count == 1450)
    }

    /// The issue's case: `--rate 100` on a file whose timestamps say 102.5 Hz. The timestamps
    /// give the times (inspect shows 102.50 Hz), and the disagreement is said.
    @Test func aDeclaredRateTheTimestampsContradict() throws {
        var text = "time,acc_x,acc_y,acc_z\n"
        for i in 0..<300 { text += "\(Double(i) / 102.5),0.1,0.2,9.8\n" }
        let p = TestFiles.temp(text, name: "fast.csv")
        var quiet = Self.rate(100)
        quiet.plausibility = .off
        let summary = try RecordingLoader.summarize(path: p, options: quiet)
        #expect(abs((summary.streams.first?.rateHz ?? 0) - 102.5) < 1e-6)
        #expect(summary.metadata.nominalRateHz == 100)
        do { _ = try RecordingLoader.summarize(path: p, options: Self.strict(Self.rate(100))); Issue.record("no error") } catch {
            #expect(error.description == "\(p): found 'timestamps at 102.5 Hz', expected the declared --rate 100 Hz: the timestamps are used; give --rate 102.5, or leave it out")
        }
        // Within 2 % is a rate, not a mistake; without a time column the rate gives the times.
        _ = try RecordingLoader.summarize(path: p, options: Self.strict(Self.rate(101)))
        var units = Self.strict(Self.rate(100))
        units.accelUnit = .g; units.gyroUnit = .degreesPerSecond
        _ = try RecordingLoader.load(path: Self.mobgapWithoutLayout(), options: units)
    }

    @Test func foldersWithoutRecordingsAreAnError() {
        let empty = TestFiles.tempDir()
        #expect(throws: InputError.self) { _ = try RecordingLoader.recordings(under: empty) }
        do { _ = try RecordingLoader.recordings(under: empty) } catch {
            #expect(error.description == "\(empty): found 'an empty folder', expected recordings (.motus, .csv, .txt or .json files or MATLAB Mobile .mat logs, in it or in its subfolders) or a dataset folder Motus knows")
        }
        let other = TestFiles.tempDir()
        _ = FileManager.default.createFile(atPath: other + "/README.md", contents: Data("hi".utf8))
        try? FileManager.default.createDirectory(atPath: other + "/sub", withIntermediateDirectories: true)
        do { _ = try RecordingLoader.recordings(under: other) } catch {
            #expect(error.description == "\(other): found '2 entries, no recording', expected recordings (.motus, .csv, .txt or .json files or MATLAB Mobile .mat logs, in it or in its subfolders) or a dataset folder Motus knows; it holds README.md, sub")
        }
        // An empty subfolder beside a recording is fine.
        _ = FileManager.default.createFile(atPath: other + "/a.csv", contents: Data("t,acc_x,acc_y,acc_z\n0,0,0,9.8\n".utf8))
        #expect((try? RecordingLoader.recordings(under: other)) == [other + "/a.csv"])
    }

    @Test func octaveHistogramQuantilesMatchASortedReference() {
        var h = OctaveHistogram()
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = []
        for _ in 0..<5000 { let v = Double.random(in: 0.001...200, using: &rng); values.append(v); h.add(v) }
        values.sort()
        for q in [0.1, 0.5, 0.9, 0.99] {
            let exact = values[Int((Double(values.count - 1) * q).rounded(.down))]
            #expect(abs(h.quantile(q) / exact - 1) < 0.012, "q \(q): \(h.quantile(q)) vs \(exact)")
        }
        var equal = OctaveHistogram()
        for _ in 0..<10 { equal.add(0.01) }
        #expect(abs(equal.quantile(0.5) - 0.01) < 1e-15)
    }
}
