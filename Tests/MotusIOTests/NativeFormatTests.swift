import MotusTestSupport
import Testing
import Foundation
@testable import MotusIO
import MotusCore

@Suite struct NativeFormatTests {
    /// A recording with every stream kind, awkward text and missing values.
    static func sampleRecording(seed: UInt64 = 1, samples: Int = 500) -> Recording {
        var rng = SplitMix64(seed: seed)
        var r = Recording()
        r.metadata = RecordingMetadata(device: "iPhone 7, \"belt\"", placement: "belt", subject: "s01\nline2", heightMeters: 1.755,
                                       weightKg: 71.25, age: 33, gender: "f", nominalRateHz: 50, source: "test\\path",
                                       extra: ["surface": "hard", "course_m": "20", "note": "a,b"])
        for kind in StreamKind.allCases {
            var s = SensorStream(kind: kind)
            var t = 1_000_000.0 + rng.uniform()
            for _ in 0..<samples {
                t += 0.02 + (rng.uniform() - 0.5) * 1e-3
                // Within what a sensor of the kind can give (`ReadingRules.limit`): ±10, ±1 for attitude.
                var v = (0..<kind.width).map { _ in (rng.uniform() - 0.5) * (kind == .attitude ? 2 : 20) }
                for c in 0..<kind.width where kind.allowsMissing(component: c) && rng.uniform() < 0.3 { v[c] = .nan }
                s.append(time: t, v)
            }
            r.streams.append(s)
        }
        var foot = SensorStream(kind: .acceleration, name: "acc.rf")
        // Awkward doubles: tiny, subnormal, and the largest below the acceleration limit (1e4).
        foot.append(time: 0.5, Vector3(1e-300, -Double.leastNonzeroMagnitude, 9999.999999999998))
        r.streams.append(foot)
        r.labels = [LabelSegment(start: 0, end: 12.5, label: "still"), LabelSegment(start: 12.5, end: 30, label: "walk, \"fast\"")]
        r.events = [GroundTruthEvent(time: 13.01, kind: "step", detail: "left"), GroundTruthEvent(time: 13.5, kind: "step")]
        return r
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func roundTripIsExact(seed: UInt64) throws {
        let r = Self.sampleRecording(seed: seed)
        let p = TestFiles.tempPath("r.motus")
        try NativeWriter.write(r, to: p)
        let back = try NativeFormat.read(path: p)
        let same = back == r
        #expect(same, "read(write(r)) differs from r")
        #expect(back.metadata == r.metadata)
        #expect(back.labels == r.labels)
        #expect(back.events == r.events)
        // And again: writing what was read gives the same bytes.
        let p2 = TestFiles.tempPath("r2.motus")
        try NativeWriter.write(back, to: p2)
        #expect(FileManager.default.contents(atPath: p) == FileManager.default.contents(atPath: p2))
    }

    @Test func roundTripChangesSomethingWhenDataDiffer() throws {
        // The equality used above is not vacuous.
        var r = Self.sampleRecording()
        let p = TestFiles.tempPath("r.motus")
        try NativeWriter.write(r, to: p)
        r.streams[0].replace(times: r.streams[0].times.map { $0 + 1e-9 }, values: r.streams[0].values)
        let differs = try NativeFormat.read(path: p) != r
        #expect(differs)
    }

    @Test func everyWriterWritesAValueNotReportedByOneRule() {
        func text(_ v: Double, _ absent: StaticString = "", finiteOnly: Bool = false) -> String {
            var b: [UInt8] = []
            OutputBytes.append(value: v, absent: absent, finiteOnly: finiteOnly, to: &b)
            return String(decoding: b, as: UTF8.self)
        }
        // Native and CSV: an empty field; JSON Lines: null, for infinity too.
        #expect(text(.nan) == "" && text(1.25) == "1.25" && text(.infinity) == "inf")
        #expect(text(.nan, "null", finiteOnly: true) == "null" && text(-.infinity, "null", finiteOnly: true) == "null")
        #expect(text(-0.5, "null", finiteOnly: true) == "-0.5")
    }

    @Test func appendingWhileRecordingIsReadableAfterEachFlush() throws {
        let p = TestFiles.tempPath("live.motus")
        let w = try NativeWriter(path: p)
        w.metadata(RecordingMetadata(device: "test"))
        w.declare(stream: 0, name: "acc", kind: .acceleration)
        for i in 0..<100 {
            [0.1, 9.8, 0.2].withUnsafeBufferPointer { w.sample(stream: 0, time: Double(i) * 0.01, values: $0) }
            if i % 10 == 9 {
                try w.flush()
                let r = try NativeFormat.read(path: p)
                #expect(r.stream(.acceleration)?.count == i + 1)
            }
        }
        // A crash mid-line leaves a cut-short last line: readable with allowTruncatedTail.
        let h = FileHandle(forWritingAtPath: p)!
        h.seekToEndOfFile(); h.write(Data("acc,1.0,0.1,9".utf8)); h.closeFile()
        #expect(throws: InputError.self) { _ = try NativeFormat.read(path: p) }
        let tolerant = try NativeFormat.read(path: p, options: NativeReadOptions(allowTruncatedTail: true))
        #expect(tolerant.stream(.acceleration)?.count == 100)
    }

    @Test func appendModeContinuesAFile() throws {
        let p = TestFiles.tempPath("a.motus")
        do {
            let w = try NativeWriter(path: p)
            w.declare(stream: 0, name: "gyro", kind: .rotationRate)
            [0.0, 0, 1].withUnsafeBufferPointer { w.sample(stream: 0, time: 1, values: $0) }
            try w.close()
        }
        let w = try NativeWriter(path: p, append: true)
        w.declare(stream: 0, name: "gyro", kind: .rotationRate)
        [0.0, 0, 2].withUnsafeBufferPointer { w.sample(stream: 0, time: 2, values: $0) }
        try w.close()
        let r = try NativeFormat.read(path: p)
        #expect(r.streams.count == 1 && r.streams[0].count == 2 && r.streams[0].value(1, 2) == 2)
    }

    /// Each bad input gives exactly this one-line error.
    @Test(arguments: [
        ("", "bad.motus: found nothing, expected a '#motus,1' first line"),
        ("time,x\n", "bad.motus:1:1: found 'time,x', expected '#motus,1' (the native format's first line)"),
        ("#motus,9\n", "bad.motus:1:8: found '9', expected version 1 or lower (upgrade Motus)"),
        ("#motus,1\nacc,0,1,2,3\n", "bad.motus:2:1: found 'acc', expected a stream declared by an earlier '@stream' line"),
        ("#motus,1\n@stream,acc,accel\n", "bad.motus:2:13: found 'accel', expected a stream kind (acc, uacc, grav, gyro, mag, att, steps, loc, baro)"),
        ("#motus,1\n@stream,acc,acc\nacc,0,1,2x,3\n", "bad.motus:3:9: found '2x', expected a number (y_mps2)"),
        ("#motus,1\n@stream,acc,acc\nacc,0,1,2\n", "bad.motus:3:10: found '2 values', expected 3 values for a 'acc' sample"),
        ("#motus,1\n@stream,acc,acc\nacc,0,1,,3\n", "bad.motus:3:9: found nothing, expected y_mps2 of 'acc'"),
        ("#motus,1\n@stream,acc,acc\nacc,0,1,nan,3\n", "bad.motus:3:9: found 'nan', expected a finite number"),
        ("#motus,1\n@stream,acc,acc\nacc,5,1,2,3\nacc,3.5,1,2,3\n", "bad.motus:4:5: found '3.5', expected a time no earlier than 4.0 s (previous 5.0 s)"),
        ("#motus,1\n@meta,height_m,\"tall\"\n", "bad.motus:2:17: found 'tall', expected a number for height_m"),
        ("#motus,1\n@label,3,2,\"x\"\n", "bad.motus:2:10: found '2', expected an end time not before the start 3.0"),
        ("#motus,1\n@frobnicate,1\n", "bad.motus:2:1: found '@frobnicate', expected @stream, @meta, @label or @event"),
    ])
    func badInputIsReportedExactly(text: String, message: String) {
        let p = TestFiles.temp(text, name: "bad.motus")
        do {
            _ = try NativeFormat.read(path: p)
            Issue.record("no error for \(text.debugDescription)")
        } catch {
            let dir = (p as NSString).deletingLastPathComponent + "/"
            #expect(error.description.replacingOccurrences(of: dir, with: "") == message)
        }
    }

    @Test func readingOnlySomeKindsSkipsTheOthers() throws {
        let r = Self.sampleRecording()
        let p = TestFiles.tempPath("kinds.motus")
        try NativeWriter.write(r, to: p)
        let some = try NativeFormat.read(path: p, options: NativeReadOptions(kinds: [.rotationRate, .acceleration]))
        #expect(some.streams.map(\.name) == r.streams.filter { [.rotationRate, .acceleration].contains($0.kind) }.map(\.name))
        #expect(some.stream(named: "gyro") == r.stream(named: "gyro"))
        #expect(some.stream(named: "acc.rf") == r.stream(named: "acc.rf"))
        #expect(some.labels == r.labels && some.events == r.events)
    }

    @Test func smallBackwardStepsAreKeptNotDropped() throws {
        let p = TestFiles.temp("#motus,1\n@stream,acc,acc\nacc,1.0,0,0,9\nacc,0.99,0,0,9\nacc,1.02,0,0,9\n", name: "jitter.motus")
        let r = try NativeFormat.read(path: p)
        #expect(r.streams[0].times == [1.0, 0.99, 1.02])
    }
}
