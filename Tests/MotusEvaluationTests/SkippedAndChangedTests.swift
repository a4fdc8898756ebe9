import Testing
import Foundation
import MotusCore
import MotusIO
import MotusEvaluation

/// Issue #18: an evaluation never covers fewer recordings, nor other files, than it says.
/// Datasets list what they find (a walk with a file missing is set aside with the reason, not
/// left out), every skipped recording carries its reason, reference steps outside a
/// recording's data are counted, and a file that changes while it is read is an error.
@Suite struct SkippedAndChangedTests {
    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "motus-eval-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// An Oxford walk folder: `rows` accelerometer rows at 100 Hz (no header, as the dataset
    /// writes them) and, unless `steps` is false, a foot-switch file with two steps.
    static func oxfordWalk(_ data: String, _ name: String, rows: Int = 200, steps: Bool = true) {
        let dir = data + "/" + name
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var acc = ""
        for i in 0..<rows { acc += "\(1_000_000_000 + i * 10_000_000),3,0.1,\(0.2 + Double(i % 7) * 0.01),9.8\r\n" }
        try! acc.write(toFile: dir + "/accelerometer.csv", atomically: true, encoding: .utf8)
        if steps {
            try! "1000000000,0,0\r\n1500000000,1,0\r\n1800000000,0,1\r\n".write(toFile: dir + "/stepcounter.csv", atomically: true, encoding: .utf8)
        }
    }

    /// The attacker's case: one of three walks lacks `stepcounter.csv`. It was left out of the
    /// listing (2 recordings, nothing skipped); now it is listed, set aside with its reason,
    /// and the run reports it.
    @Test func oxfordWalkWithoutStepCounterIsSkippedWithItsReason() throws {
        let root = Self.tempDir()
        let data = root + "/optimisation/data"
        Self.oxfordWalk(data, "Pixel_Ann_Hard_InHand_1")
        Self.oxfordWalk(data, "Pixel_Ann_Hard_InHand_2", steps: false)
        Self.oxfordWalk(data, "Pixel_Ann_Hard_InHand_3")
        let ds = try EvaluationDataset.open(root)
        #expect(ds.entries.map(\.id) == ["Pixel_Ann_Hard_InHand_1", "Pixel_Ann_Hard_InHand_2", "Pixel_Ann_Hard_InHand_3"])
        #expect(ds.entries[1].setAside == "no stepcounter.csv in the walk folder")
        let run = try Evaluation.run([ds]) { e in e.id }
        #expect(run.rows == ["Pixel_Ann_Hard_InHand_1", "Pixel_Ann_Hard_InHand_3"])
        #expect(run.skipped == [Evaluation.Skipped(id: "Pixel_Ann_Hard_InHand_2", reason: "no stepcounter.csv in the walk folder")])
        // Loading it directly names the missing file; training (setAside: .fail) stops on it.
        let missing = data + "/Pixel_Ann_Hard_InHand_2/stepcounter.csv"
        #expect { _ = try ds.source.load("Pixel_Ann_Hard_InHand_2") } throws: { ($0 as? InputError)?.location.file == missing }
        #expect { _ = try Evaluation.run([ds], setAside: .fail) { e in e.id } } throws: { ($0 as? InputError)?.location.file == missing }
    }

    /// Step scoring says why it skips: no step events (with the annotation file the reader
    /// looked for), and reference steps outside the data are counted, not judged (WeAllWalk:
    /// a phone that stopped before the walk's end).
    @Test func stepScoringReasonsAndStepsOutsideTheRecording() throws {
        var acc = SensorStream(kind: .acceleration)
        for i in 0..<1000 {
            let t = Double(i) / 100
            acc.append(time: t, Vector3(0.5 * sin(2 * .pi * 2 * t), 0.3, 9.81 + 2 * sin(2 * .pi * 2 * t)))
        }
        var md = RecordingMetadata()
        md.extra["annotations"] = "none (no 1-2.json)"
        let bare = EvaluationRecording(entry: DatasetEntry(id: "a", subject: nil, label: nil, path: "a"),
                                       loaded: Recording(metadata: md, streams: [acc]))
        guard case .skipped(let why) = StepEvaluation.score(bare) else { Issue.record("scored without steps"); return }
        #expect(why == "no step events in its ground truth (annotations: none (no 1-2.json))")

        let steps = [1.0, 1.5, 2.0, 2.5, 9.5, 10.5, 11.0].map { GroundTruthEvent(time: $0, kind: "step") }
        let late = EvaluationRecording(entry: DatasetEntry(id: "b", subject: nil, label: nil, path: "b"),
                                       loaded: Recording(streams: [acc], events: steps))
        let row = try #require(StepEvaluation.evaluate(late))
        #expect(row.trueSteps == 5 && row.trueStepsOutsideRecording == 2)
        #expect(StepEvaluation.summarize([row]).trueStepsOutsideRecording == 2)

        let after = EvaluationRecording(entry: DatasetEntry(id: "c", subject: nil, label: nil, path: "c"),
                                        loaded: Recording(streams: [acc], events: [GroundTruthEvent(time: 12, kind: "step")]))
        guard case .skipped(let none) = StepEvaluation.score(after) else { Issue.record("scored steps it cannot see"); return }
        #expect(none == "all 1 reference steps lie outside the recording's span")
    }

    /// Separate annotated walks (Mobilise-D's walking bouts between sitting and standing) are
    /// judged each in its own window: reference steps between them are reported apart, as are
    /// the steps counted there; a trial's touching walk and turn labels make one window.
    @Test func separateWalksAreJudgedEachInItsWindow() throws {
        let labels = [LabelSegment(start: 2, end: 4, label: "walk"), LabelSegment(start: 4, end: 5, label: "turn"),
                      LabelSegment(start: 5, end: 12, label: "still"), LabelSegment(start: 12, end: 14, label: "walk")]
        let spans = StepEvaluation.judgedSpans(labels.filter { $0.label != "still" })
        let m = StepEvaluation.windowMargin
        #expect(spans.count == 2 && spans[0] == (2 - m, 5 + m) && spans[1] == (12 - m, 14 + m))
        var acc = SensorStream(kind: .acceleration)
        for i in 0..<2000 { acc.append(time: Double(i) / 100, Vector3(0.1, 0.2, 9.81)) }
        let steps = [2.5, 3.5, 4.5, 8.0, 13.0].map { GroundTruthEvent(time: $0, kind: "step") }
        let e = EvaluationRecording(entry: DatasetEntry(id: "d", subject: nil, label: nil, path: "d"),
                                    loaded: Recording(streams: [acc], labels: labels, events: steps))
        let row = try #require(StepEvaluation.evaluate(e))
        #expect(row.trueSteps == 4 && row.trueStepsOutside == 1)
        // The row says the windows it judged in (what a peer's steps are counted in); a
        // recording without walk labels judges every step and has none.
        #expect(row.judgedSpans == spans.map { [$0.start, $0.end] })
        let unlabelled = EvaluationRecording(entry: DatasetEntry(id: "u", subject: nil, label: nil, path: "u"),
                                             loaded: Recording(streams: [acc], labels: [], events: steps))
        #expect(try #require(StepEvaluation.evaluate(unlabelled)).judgedSpans == nil)
    }

    static let motus = "#motus,1\n@stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2\nacc,0.00,0.1,0.2,9.8\nacc,0.01,0.1,0.2,9.8\nacc,0.02,0.1,0.2,9.8\n@event,0.01,\"step\"\n"

    /// A file rewritten in the middle of its read (through the test seam) is an error naming
    /// it, never a recording made of two versions, even when the half-read file parsed.
    @Test func fileRewrittenWhileReadIsAnError() throws {
        let root = Self.tempDir()
        let p = root + "/walk.motus"
        try Self.motus.write(toFile: p, atomically: false, encoding: .utf8)
        let ds = try RecordingFolderDataset(root: root)
        #expect(try ds.load("walk.motus").stream(.acceleration)?.count == 3)
        let hook: @Sendable ([String]) -> Void = { paths in
            guard paths.contains(p) else { return }
            // In place, as an editor or a copy would: same inode, other size.
            let h = FileHandle(forWritingAtPath: p)!
            h.truncateFile(atOffset: 0)
            h.write(Data((Self.motus + "acc,0.03,0.1,0.2,9.8\n").utf8))
            h.closeFile()
        }
        let size = Self.motus.utf8.count, newSize = size + "acc,0.03,0.1,0.2,9.8\n".utf8.count
        #expect { try StableRead.$willRead.withValue(hook) { _ = try ds.load("walk.motus") } } throws: { e in
            (e as? InputError) == InputError(.unreadable, at: SourceLocation(file: p), found: "changed while it was read",
                                             expected: "a file that stays the same while Motus reads it (size \(size) → \(newSize) bytes; run again once the files are written)")
        }
        // A file renamed over it (a new inode) is caught the same way.
        let replace: @Sendable ([String]) -> Void = { paths in
            guard paths.contains(p) else { return }
            try! Self.motus.write(toFile: p, atomically: true, encoding: .utf8)
        }
        #expect { try StableRead.$willRead.withValue(replace) { _ = try ds.load("walk.motus") } } throws: { e in
            (e as? InputError)?.found == "changed while it was read" && ((e as? InputError)?.expected.contains("replaced by another file") ?? false)
        }
    }

    /// A file rewritten after the dataset was listed, or a recording that appears during the
    /// run, fails the run when it ends (`verifyUnchanged`), naming the file or the recording.
    @Test func datasetThatChangesDuringARunIsAnError() throws {
        let root = Self.tempDir()
        try Self.motus.write(toFile: root + "/a.motus", atomically: false, encoding: .utf8)
        try Self.motus.write(toFile: root + "/b.motus", atomically: false, encoding: .utf8)
        let ds = try EvaluationDataset.open(root)
        #expect(try Evaluation.run([ds]) { e in e.id }.rows == ["a.motus", "b.motus"])
        #expect { _ = try Evaluation.run([ds]) { e -> String? in
            if e.id == "a.motus" { try (Self.motus + "acc,0.03,0.1,0.2,9.8\n").write(toFile: root + "/b.motus", atomically: true, encoding: .utf8) }
            return e.id
        } } throws: { e in
            let i = e as? InputError
            return i?.location.file == root + "/b.motus" && i?.found == "changed while the dataset was read"
        }
        let again = try EvaluationDataset.open(root)
        #expect { _ = try Evaluation.run([again]) { e -> String? in
            if e.id == "a.motus" { try Self.motus.write(toFile: root + "/c.motus", atomically: false, encoding: .utf8) }
            return e.id
        } } throws: { e in
            (e as? InputError) == InputError(.unreadable, at: SourceLocation(file: root), found: "changed while the dataset was read",
                                             expected: "the recordings listed when it was opened (newly listed: c.motus; run again once the files are written)")
        }
    }
}
