import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// UCI HAR raw inertial signals, on the sample written to the documented layout
/// (`Tests/HandWritten/uci-har/make_sample.py`: made-up signals, real layout).
@Suite("Readers: UCI HAR")
struct ReadersUCIHARTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath) + "/Tests/HandWritten/uci-har/UCI HAR Dataset"
    static let train = root + "/train"

    /// The sample's total_acc x in g at sample i of a stretch (make_sample.py's `signal`).
    static func totalX(stretch: Int, _ i: Int) -> Double { 1 + 0.25 * sin(2 * Double.pi * 1.8 * Double(i) / 50 + Double(stretch)) }

    @Test func detectsTheFolders() {
        #expect(DatasetFormat.probe(path: Self.root) == .init(format: .ucihar, isDataset: true))
        #expect(DatasetFormat.probe(path: Self.train) == .init(format: .ucihar, isDataset: true))
        #expect(UCIHARReader.split(of: Self.train) == "train")
    }

    @Test func oneRecordingPerSubject() throws {
        let ds = try UCIHARDataset(root: Self.root)
        #expect(ds.entries.map(\.id) == ["train/1", "train/3"] && ds.subjects == ["1", "3"])

        // Subject 1: four overlapping windows, one stretch of 3 × 64 + 128 = 320 samples.
        let s1 = try ds.load("train/1")
        let acc = try #require(s1.stream(.acceleration))
        #expect(acc.count == 320 && s1.stream(.userAcceleration)?.count == 320 && s1.stream(.rotationRate)?.count == 320)
        #expect(acc.times[319] == 319.0 / 50)
        // Every sample once, in order: the de-overlapped signal is the stretch's signal.
        for i in [0, 63, 64, 127, 128, 200, 319] {
            #expect(abs(acc.vector(i).x - Self.totalX(stretch: 0, i) * Units.standardGravity) < 1e-6, "sample \(i)")
        }
        #expect(s1.labels == [LabelSegment(start: 0, end: 192.0 / 50, label: "WALKING"), LabelSegment(start: 192.0 / 50, end: 320.0 / 50, label: "STANDING")])
        #expect(s1.events.map(\.kind) == ["stretch"] && s1.metadata.extra["stretches"] == "1")
        #expect(s1.metadata.subject == "1" && s1.metadata.nominalRateHz == 50 && s1.metadata.placement == "waist")

        // Subject 3: windows 5-6 overlap (192 samples), window 7 does not: a second stretch
        // placed 10 s after the first one's last sample.
        let s3 = try ds.load("train/3")
        let a3 = try #require(s3.stream(.acceleration))
        #expect(a3.count == 192 + 128)
        #expect(abs(a3.times[192] - (191.0 / 50 + UCIHARReader.stretchGapSeconds)) < 1e-12)
        #expect(abs(a3.vector(192).x - Self.totalX(stretch: 2, 0) * Units.standardGravity) < 1e-6)
        #expect(s3.labels.map(\.label) == ["SITTING", "LAYING"])
        #expect(s3.events.map(\.detail) == ["line 5", "line 7"])
    }

    /// Copies the sample into a temporary folder and changes one file.
    static func damaged(_ file: String, _ change: (String) -> String) -> (TempDir, String) {
        let t = TempDir()
        let fm = FileManager.default
        try? fm.copyItem(atPath: root, toPath: t.path + "/UCI")
        let p = t.path + "/UCI/train/" + file
        let text = (try? String(contentsOfFile: p, encoding: .utf8)) ?? ""
        try? change(text).write(toFile: p, atomically: true, encoding: .utf8)
        return (t, p)
    }

    @Test func badInput() {
        // A value that is not a number: line and column.
        do {
            let (t, p) = Self.damaged("Inertial Signals/body_gyro_y_train.txt") { $0.replacingOccurrences(of: "  ", with: "  x", options: [], range: $0.range(of: "  ")) }
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "1") }
            #expect(e?.description.hasPrefix("\(p):1:3: found 'x") == true && e?.description.hasSuffix("', expected a number (sample 1 of 128)") == true, "\(String(describing: e))")
        }
        // A short window.
        do {
            let (t, p) = Self.damaged("Inertial Signals/total_acc_z_train.txt") { text in
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                lines[1] = String(lines[1].dropLast(15))
                return lines.joined(separator: "\n")
            }
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "1") }
            // The column just past the line's end.
            let short = ((try? String(contentsOfFile: p, encoding: .utf8)) ?? "").split(separator: "\n")[1].utf8.count
            #expect(e?.description == "\(p):2:\(short + 1): found '127 numbers', expected 128 numbers (one window of 2.56 s at 50 Hz)")
        }
        // A file with a window too few.
        do {
            let (t, p) = Self.damaged("y_train.txt") { String($0.dropLast(2)) }
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "1") }
            #expect(e?.description == "\(p): found '6 lines', expected 7 lines, one per line of subject_train.txt")
        }
        // An activity code activity_labels.txt does not have.
        do {
            let (t, p) = Self.damaged("y_train.txt") { "9" + $0.dropFirst() }
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "1") }
            #expect(e?.description == "\(p):1:1: found '9', expected an activity code of activity_labels.txt (1, 2, 3, 4, 5, 6)")
        }
        // One axis of a signal missing.
        do {
            let (t, p) = Self.damaged("Inertial Signals/body_acc_y_train.txt") { $0 }
            try? FileManager.default.removeItem(atPath: p)
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "1") }
            #expect(e?.description == "\(p): found 'no such file', expected body_acc x, y and z together")
        }
    }

    /// A signal file cut anywhere in its last line: an error naming the file, never a
    /// window read with a value the cut changed.
    @Test func cutInTheLastWindow() throws {
        let name = "Inertial Signals/total_acc_x_train.txt"
        let full = try String(contentsOfFile: Self.train + "/" + name, encoding: .utf8)
        let lastLineStart = full.dropLast().lastIndex(of: "\n").map { full.index(after: $0) } ?? full.startIndex
        let offsets = stride(from: full.utf8.distance(from: full.startIndex, to: lastLineStart) + 1, to: full.utf8.count, by: 7)
        for cut in offsets {
            let (t, p) = Self.damaged(name) { String(decoding: Array($0.utf8)[..<cut], as: UTF8.self) }
            let e = inputError { _ = try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "3") }
            #expect(e?.description.hasPrefix(p) == true, "cut at \(cut): \(String(describing: e))")
        }
        // Only the newline missing: the file is whole.
        let (t, _) = Self.damaged(name) { String($0.dropLast()) }
        #expect(try UCIHARReader.read(folder: t.path + "/UCI/train", subject: "3").stream(.acceleration)?.count == 320)
    }

    /// The dataset reads a split's files once for all its subjects, gives each subject the
    /// recording the reader gives it alone, and reads the split again when a file changed.
    @Test func theSplitIsReadOncePerRun() throws {
        let (t, p) = Self.damaged("Inertial Signals/total_acc_x_train.txt") { $0 }
        let ds = try UCIHARDataset(root: t.path + "/UCI")
        for e in ds.entries {
            #expect(try ds.load(e.id) == UCIHARReader.read(folder: e.path, subject: e.subject ?? ""), "\(e.id)")
        }
        #expect(ds.entries.count == 2 && ds.cache.reads == 1)
        // A changed file: the next load reads the split again and sees the new value.
        let text = try String(contentsOfFile: p, encoding: .utf8)
        let first = try #require(text.split(separator: " ", omittingEmptySubsequences: true).first)
        try text.replacingOccurrences(of: String(first), with: "2.5000000e+00", options: [], range: text.range(of: String(first)))
            .write(toFile: p, atomically: true, encoding: .utf8)
        let again = try ds.load("train/1")
        #expect(ds.cache.reads == 2)
        #expect(try #require(again.stream(.acceleration)).vector(0).x == 2.5 * Units.standardGravity)
    }

    /// A bad number in one subject's window is that subject's error only: the others still read.
    @Test func aBadWindowIsItsSubjectsErrorOnly() throws {
        // Line 5 of the sample is subject 3's first window (the `stretch` event of `oneRecordingPerSubject`).
        let (t, p) = Self.damaged("Inertial Signals/body_gyro_x_train.txt") { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[4] = lines[4].replacingOccurrences(of: "e", with: "x", options: [], range: lines[4].range(of: "e"))
            return lines.joined(separator: "\n")
        }
        let ds = try UCIHARDataset(root: t.path + "/UCI")
        #expect(try ds.load("train/1").stream(.rotationRate)?.count == 320)
        let e = inputError { _ = try ds.load("train/3") }
        #expect(e?.description.hasPrefix("\(p):5:") == true && e?.description.contains("expected a number") == true, "\(String(describing: e))")
        #expect(ds.cache.reads == 1)
    }
}
