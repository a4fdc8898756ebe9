import Foundation
import Testing
@testable import MotusIO
import MotusCore
import MotusTestSupport

/// `SampleReader` streams a file's samples in the order `SampleMerge` visits the recording
/// `RecordingLoader` reads from it, bit for bit, whatever the layout.
@Suite struct SampleReaderTests {
    static let kinds: [StreamKind] = [.gravity, .rotationRate, .stepCounter, .location, .acceleration, .userAcceleration]

    /// The samples both ways: streamed, and from the whole recording.
    func both(_ path: String, options: DelimitedOptions = .init(), kinds: [StreamKind] = kinds) throws -> (streamed: [SensorSample], batch: [SensorSample]) {
        var reader = try SampleReader(path: path, options: options, kinds: kinds)
        var streamed: [SensorSample] = []
        try reader.forEach { streamed.append($0) }
        let r = try RecordingLoader.load(path: path, options: options, kinds: Set(kinds))
        var batch: [SensorSample] = []
        r.forEachSample(kinds: kinds) { batch.append($0) }
        #expect(reader.metadata == r.metadata)
        #expect(reader.declaredKinds == Set(r.streams.map(\.kind)).intersection(kinds))
        return (streamed, batch)
    }

    @Test func bundledRecordingsStreamAsTheyLoad() throws {
        let files = try RecordingLoader.recordings(under: TestFiles.packageRoot + "/datasets").filter { $0.hasSuffix(".motus") }
        #expect(files.count >= 3)
        for f in files {
            let (s, b) = try both(f)
            #expect(s.count == b.count && s.count > 1000, "\(f)")
            #expect(s == b, "\(f)")
        }
    }

    /// Streams written one after another (as older `convert` wrote them), a stream declared
    /// after another's samples, times stepping back within the tolerance, equal times across
    /// streams (ties in `kinds` order) and labels at the end: the merge order is the batch one.
    @Test func blockLayoutLateDeclarationAndBackwardSteps() throws {
        let text = """
        #motus,1
        @meta,height_m,1.8
        @stream,a,acc,t_s,x,y,z
        a,0.00,0,0,9.8
        a,0.02,0,0.1,9.8
        a,0.01,0,0.2,9.8
        a,0.04,0,0.3,9.8
        @stream,g,gyro,t_s,x,y,z
        g,0.00,1,0,0
        g,0.03,2,0,0
        g,0.04,3,0,0
        @stream,a2,acc,t_s,x,y,z
        a2,0.00,7,7,7
        @label,0,0.04,walk

        """
        let p = TestFiles.temp(text, name: "block.motus")
        let (s, b) = try both(p)
        #expect(s == b)
        // The gyroscope's sample at 0 comes before the acceleration's (tie order), and the
        // second acceleration stream is not read.
        #expect(s.map(\.kind) == [.rotationRate, .acceleration, .acceleration, .acceleration, .rotationRate, .rotationRate, .acceleration])
        let reader = try SampleReader(path: p, kinds: Self.kinds)
        #expect(reader.metadata.heightMeters == 1.8)
        #expect(reader.labels == [LabelSegment(start: 0, end: 0.04, label: "walk")])
    }

    @Test func delimitedRowsWithBackwardSteps() throws {
        var text = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n"
        var g = SplitMix64(seed: 7)
        var t = 0.0
        for i in 0..<5000 {
            // Every 97th row steps back by up to 0.5 s (within the reader's 1 s tolerance).
            t += i % 97 == 96 ? -g.uniform(0, 0.5) : 0.01
            text += "\(t),\(g.uniform(-1, 1)),\(g.uniform(-1, 1)),\(9.8 + g.uniform(-1, 1)),\(g.uniform(-1, 1)),\(g.uniform(-1, 1)),\(g.uniform(-1, 1))\n"
        }
        let p = TestFiles.temp(text, name: "rows.csv")
        let (s, b) = try both(p)
        #expect(s.count == 10_000)
        #expect(s == b)
    }

    @Test func aBadSampleLineIsStillAnErrorAtItsLine() throws {
        let p = TestFiles.temp("#motus,1\n@stream,a,acc,t_s,x,y,z\na,0,0,0,9.8\na,0.01,0,x,9.8\n", name: "bad.motus")
        var reader = try SampleReader(path: p, kinds: Self.kinds)
        #expect(throws: InputError.self) { try reader.forEach { _ in } }
        do { try reader.forEach { _ in } } catch {
            #expect(error.location.line == 4 && error.location.column == 10)
        }
    }

    /// The samples `forEach` gives and the error it ends with, if any.
    func samplesAndError(_ path: String, readingAhead: Bool, strict: Bool = false) throws -> (samples: [SensorSample], error: InputError?, checked: Bool) {
        var options = DelimitedOptions()
        if strict { options.plausibility = .error }
        var reader = try SampleReader(path: path, options: options, kinds: Self.kinds)
        var out: [SensorSample] = []
        do {
            if readingAhead { try reader.forEach(readingAhead: true) { out.append($0) } } else { try reader.forEach { out.append($0) } }
        } catch { return (out, error, reader.checked) }
        return (out, nil, reader.checked)
    }

    /// A second thread parsing ahead (`forEachReadingAhead`) gives what one thread gives: the
    /// same samples in the same order across many batches and turns of the ring (a file of
    /// exactly five batches, and longer ones), the same samples before a bad line and the same
    /// error, the same error from the plausibility check at the end (acceleration in g read as
    /// m/s², with `--strict`), and a pass that counts as the checked one.
    @Test func readingAheadGivesWhatOneThreadGives() throws {
        var g = SplitMix64(seed: 11)
        func native(rows: Int, badAt: Int? = nil, huge: Bool = false) -> String {
            var text = "#motus,1\n@stream,a,acc,t_s,x,y,z\n@stream,g,gyro,t_s,x,y,z\n"
            for i in 0..<rows {
                let t = Double(i) * 0.01
                let x = i == badAt ? "x" : "\(g.uniform(-1, 1))"
                text += "a,\(t),\(x),\(g.uniform(-1, 1)),\((huge ? 1 : 9.8) + g.uniform(-0.1, 0.1))\ng,\(t),\(g.uniform(-1, 1)),0,0\n"
            }
            return text
        }
        let batch = SampleReadAhead.batchSize, ring = SampleReadAhead.batches
        for (name, text) in [("five-batches.motus", native(rows: 5 * batch / 2)),
                             ("ring-turns.motus", native(rows: 3 * ring * batch + 123)),
                             ("bad-late.motus", native(rows: 2 * ring * batch, badAt: ring * batch + 7)),
                             ("implausible.motus", native(rows: 3 * batch, huge: true))] {
            let p = TestFiles.temp(text, name: name)
            let strict = name.hasPrefix("implausible")
            let one = try samplesAndError(p, readingAhead: false, strict: strict), two = try samplesAndError(p, readingAhead: true, strict: strict)
            #expect(one.samples.count > 2 * batch, "\(name)")
            #expect(one.samples == two.samples, "\(name)")
            #expect(one.error == two.error && one.checked == two.checked, "\(name): \(String(describing: one.error)) / \(String(describing: two.error))")
        }
        #expect(try samplesAndError(TestFiles.temp(native(rows: 100), name: "ok.motus"), readingAhead: true).checked)
        let bad = try samplesAndError(TestFiles.temp(native(rows: 2 * ring * batch, badAt: ring * batch + 7), name: "bad.motus"), readingAhead: true)
        #expect(bad.samples.count == 2 * (ring * batch + 7) + 0 && bad.error?.location.line == 4 + 2 * (ring * batch + 7), "\(bad.samples.count) \(String(describing: bad.error))")
        let huge = try samplesAndError(TestFiles.temp(native(rows: 3 * batch, huge: true), name: "huge.motus"), readingAhead: true, strict: true)
        #expect(huge.samples.count == 6 * batch && huge.error != nil, "\(huge.samples.count) \(String(describing: huge.error))")
        // Delimited text reads ahead too; a recording read whole is walked as it is.
        var csv = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<(3 * batch) { csv += "\(Double(i) * 0.01),\(g.uniform(-1, 1)),0,9.8\n" }
        let c = TestFiles.temp(csv, name: "rows.csv")
        #expect(try samplesAndError(c, readingAhead: true).samples == samplesAndError(c, readingAhead: false).samples)
    }

    /// Many readers reading ahead at once from the shared thread pool (more than the machine
    /// has cores, each waiting for its batches) all finish, each with its own samples.
    @Test func manyReadersReadAheadAtOnce() throws {
        var text = "#motus,1\n@stream,a,acc,t_s,x,y,z\n"
        for i in 0..<(3 * SampleReadAhead.batchSize) { text += "a,\(Double(i) * 0.01),0,\(i % 7),9.8\n" }
        let p = TestFiles.temp(text, name: "many.motus")
        let n = 16
        final class Counts: @unchecked Sendable { var values: [Int]; init(_ n: Int) { values = Array(repeating: -1, count: n) } }
        let counts = Counts(n)
        counts.values.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: n) { k in
                guard var reader = try? SampleReader(path: p, kinds: Self.kinds) else { return }
                var c = 0
                try? reader.forEach(readingAhead: true) { _ in c += 1 }
                out[k] = c
            }
        }
        #expect(counts.values == Array(repeating: 3 * SampleReadAhead.batchSize, count: n))
    }

    /// `forEach(while:)` gives the samples `forEach` gives until its body says stop, and reads
    /// no further: a bad row after the stop is never reached, so no error.
    @Test func aWalkStopsWhereItsBodySays() throws {
        var native = "#motus,1\n@stream,a,acc,t_s,x,y,z\n@stream,g,gyro,t_s,x,y,z\n"
        var csv = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n"
        for i in 0..<3000 {
            let t = Double(i) / 100
            native += "a,\(t),0,0,9.8\ng,\(t),0.1,0,0\n"
            csv += "\(t),0,0,9.8,0.1,0,0\n"
        }
        native += "a,30,0,x,9.8\n"
        csv += "30,0,x,9.8,0,0,0\n"
        let files = [TestFiles.temp(native, name: "stop.motus"), TestFiles.temp(csv, name: "stop.csv")]
        for p in files {
            var reader = try SampleReader(path: p, kinds: Self.kinds)
            #expect(throws: InputError.self) { try reader.forEach { _ in } }
            var first: [SensorSample] = []
            let whole = try reader.forEach(while: { s in
                first.append(s)
                return first.count < 1000
            })
            #expect(!whole, "\(p)")
            #expect(first.count == 1000, "\(p)")
            #expect(first.map(\.time) == (0..<1000).map { Double($0 / 2) / 100 }, "\(p)")
            // One kind only: the same walk without the other kind's samples.
            var gyro: [SensorSample] = []
            #expect(try !reader.forEach(only: [.rotationRate], while: { s in gyro.append(s); return gyro.count < 500 }))
            #expect(gyro == first.filter { $0.kind == .rotationRate }, "\(p)")
        }
        // A walk that is never stopped gives every sample and says so; from memory as well.
        let r = try RecordingLoader.load(path: TestFiles.temp(csv.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", name: "whole.csv"))
        let memory = SampleReader(recording: r, path: "whole.csv", kinds: Self.kinds)
        var n = 0
        #expect(try memory.forEach(while: { _ in n += 1; return true }))
        #expect(n == 6000)
        n = 0
        #expect(try !memory.forEach(while: { _ in n += 1; return n < 10 }))
        #expect(n == 10)
    }

    @Test func sharedRecordingsStreamAsTheyLoad() throws {
        guard TestFiles.hasShared, let shared = TestFiles.shared else { return }
        let files = [
            shared + "/apps/motiondatacollector/running/r1.csv",
            shared + "/apps/motiondatacollector/standing/23E915F4-1705-40F3-BC0F-F3B64635B3F2.csv",
        ] + ((try? RecordingLoader.recordings(under: shared + "/motionsense"))?.prefix(2) ?? [])
        for f in files {
            let (s, b) = try both(f)
            #expect(s.count == b.count && !s.isEmpty, "\(f)")
            #expect(s == b, "\(f)")
        }
    }
}

extension SampleReaderTests {
    /// A native file cut inside its last number: an error, as the whole-file reader rules; with
    /// `.drop` the line is left out and the samples are the whole-file reader's.
    @Test func aCutLastLineFollowsTheReadersRule() throws {
        let p = TestFiles.temp("#motus,1\n@stream,a,acc,t_s,x,y,z\na,0,0,0,9.8\na,0.01,0,0.1,9.8\na,0.02,0,0.", name: "cut.motus")
        #expect(throws: InputError.self) { _ = try SampleReader(path: p, kinds: Self.kinds) }
        var o = DelimitedOptions()
        o.incompleteLastLine = .drop
        let (s, b) = try both(p, options: o)
        #expect(s.count == 2 && s == b)
        let csv = TestFiles.temp("t,acc_x,acc_y,acc_z\n0,0.125,0.25,9.875\n0.01,0.125,0.25,9.875\n0.02,0.125,0.25,9.", name: "cut.csv")
        var reader = try SampleReader(path: csv, kinds: Self.kinds)
        #expect(throws: InputError.self) { try reader.forEach { _ in } }
        let (cs, cb) = try both(csv, options: o)
        #expect(cs.count == 2 && cs == cb)
    }
}
