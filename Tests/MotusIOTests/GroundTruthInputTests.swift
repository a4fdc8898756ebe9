import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Labels and step events from CSV columns and sidecar files (`GroundTruthInput`).
@Suite("Ground truth from columns and sidecars")
struct GroundTruthInputTests {
    static let bundled = TestFiles.packageRoot + "/datasets/lowback-straight-walk.motus"

    /// The bundled mobgap walk (real samples, INDIP reference steps and walk label) written as
    /// one CSV with a label column and a step column, as a user's own export would hold them.
    static func walkCSV(_ t: TempDir) throws -> (path: String, native: Recording) {
        let r = try RecordingLoader.load(path: bundled)
        let acc = try #require(r.stream(.acceleration))
        var text = "time,acc_x,acc_y,acc_z,activity,step\n"
        let steps = r.events.filter { $0.kind == "step" }
        var next = 0
        for i in 0..<acc.count {
            let t = acc.times[i]
            let label = r.label(at: t) ?? ""
            // A step at its sample's time (the reference steps lie on the 100 Hz grid).
            var step = ""
            while next < steps.count && steps[next].time <= t + 1e-9 { step = steps[next].detail.isEmpty ? "1" : steps[next].detail; next += 1 }
            text += "\(t),\(acc.value(i, 0)),\(acc.value(i, 1)),\(acc.value(i, 2)),\(label),\(step)\n"
        }
        return (t.write("walk.csv", text), r)
    }

    @Test("label and step columns give the bundled walk's own labels and reference steps")
    func columnsMatchNative() throws {
        let t = TempDir()
        let (path, native) = try Self.walkCSV(t)
        var o = DelimitedOptions()
        o.labelColumn = .name("activity"); o.stepColumn = .name("step")
        let r = try RecordingLoader.load(path: path, options: o)
        let steps = native.events.filter { $0.kind == "step" }
        #expect(r.events.map(\.time) == steps.map(\.time) && r.events.allSatisfy { $0.kind == "step" })
        #expect(r.events.map(\.detail) == steps.map(\.detail))
        // One segment per run of rows: starts on the first labelled row, ends on the first row after it.
        let nl = try #require(native.labels.first), l = try #require(r.labels.first)
        #expect(r.labels.count == native.labels.count && l.label == nl.label)
        #expect(abs(l.start - nl.start) < 0.0101 && abs(l.end - nl.end) < 0.0101)
        // The streamed path hands the same truth to its sink.
        var b = RecordingBuilder()
        try RecordingLoader.scan(path: path, options: o, into: &b)
        #expect(b.recording.labels == r.labels && b.recording.events == r.events)
        // And a streaming reader knows it before the samples.
        let s = try SampleReader(path: path, options: o, kinds: [.acceleration])
        #expect(s.labels == r.labels && s.events == r.events)
    }

    @Test("event column: text is the kind, a number other than 0 an event named for the column; rows timed by --rate")
    func eventColumn() throws {
        let t = TempDir()
        let p = t.write("e.csv", "acc_x,acc_y,acc_z,marker\n0,0,9.8,\n0,0,9.8,turn\n0,0,9.8,0\n0,0,9.8,2\n")
        var o = DelimitedOptions()
        o.rateHz = 10; o.eventColumn = .name("marker")
        let r = try RecordingLoader.load(path: p, options: o)
        #expect(r.events == [GroundTruthEvent(time: 0.1, kind: "turn"), GroundTruthEvent(time: 0.3, kind: "marker")])
    }

    @Test("a sidecar beside the recording is found by itself; --ground-truth names another")
    func sidecar() throws {
        let t = TempDir()
        let p = t.write("w.csv", "time,acc_x,acc_y,acc_z\n0,0,0,9.8\n1,0,0,9.8\n2,0,0,9.8\n")
        t.write("w.csv.truth.csv", "# reference steps\ntime,kind,detail\n0.5,step,left\n1.5,step\n")
        let r = try RecordingLoader.load(path: p)
        #expect(r.events == [GroundTruthEvent(time: 0.5, kind: "step", detail: "left"), GroundTruthEvent(time: 1.5, kind: "step")])
        // Not a recording of its own in a folder.
        #expect(try RecordingLoader.recordings(under: t.path) == [p])
        let labels = t.write("labels.csv", "start,end,label\n0,1,still\n1,2,walk\n")
        var o = DelimitedOptions()
        o.groundTruthFile = labels
        let l = try RecordingLoader.load(path: p, options: o)
        #expect(l.labels == [LabelSegment(start: 0, end: 1, label: "still"), LabelSegment(start: 1, end: 2, label: "walk")] && l.events.isEmpty)
        // A native recording takes a sidecar too.
        let native = try RecordingLoader.load(path: Self.bundled, options: o)
        #expect(native.labels.suffix(2) == l.labels[...])
    }

    @Test("bad ground truth: one error at its file, line and column")
    func badInput() {
        let t = TempDir()
        let p = t.write("w.csv", "time,acc_x,acc_y,acc_z,step\n0,0,0,9.8,1\n1,0,0,9.8\n")
        var o = DelimitedOptions()
        o.stepColumn = .name("steps")
        var e = inputError { _ = try RecordingLoader.load(path: p, options: o) }
        #expect(e?.reason == .missingColumn && e?.location.line == 1 && e?.found == "steps")

        func sidecarError(_ text: String) -> InputError? {
            let d = TempDir()
            let ok = d.write("ok.csv", "time,acc_x,acc_y,acc_z\n0,0,0,9.8\n")
            var o = DelimitedOptions()
            o.groundTruthFile = d.write("sidecar.csv", text)
            return withExtendedLifetime(d) { inputError { _ = try RecordingLoader.load(path: ok, options: o) } }
        }
        e = sidecarError("begin,end,label\n0,1,walk\n")
        #expect(e?.reason == .badHeader && e?.location.line == 1 && e?.expected.hasPrefix("a header 'start,end,label'") == true)
        e = sidecarError("start,end,label\n0,1,walk\n3,2.5,still\n")
        #expect(e?.reason == .badValue && e?.location.line == 3 && e?.location.column == 3 && e?.found == "2.5")
        e = sidecarError("time,kind\n0.5,step\nsoon,step\n")
        #expect(e?.reason == .badNumber && e?.location.line == 3 && e?.location.column == 1 && e?.found == "soon")
        e = sidecarError("time,kind\n0.5,step,left,extra\n")
        #expect(e?.reason == .missingColumn && e?.location.line == 2 && e?.found == "4 fields")
    }
}
