import Testing
import Foundation
import Motus

/// `motus features`: the rows written are `LabelledWindows.collect`'s (what `train` learns
/// from), read back from the CSV and the JSON Lines and compared value for value; pandas reads
/// the CSV when it is installed.
@Suite(.serialized) struct FeaturesCLITests {
    /// The repository's own recordings: the two mobgap walks (label `walk`), the iPhone belt
    /// test (`static-balance`, `u-turn`) and the mobgap CSV (no labels), on every clone.
    static let data = CLI.root + "/datasets"

    /// The library's labelled windows and the label map, by the road `train` takes.
    static func library() throws -> (LabelledWindows, LabelMap) {
        let datasets = [try EvaluationDataset.open(data)]
        return try LabelledWindows.collect(datasets, pipeline: MotionPipeline(), labels: nil)
    }

    /// A CSV line's fields (the files written here hold no quoted field).
    static func fields(_ line: Substring) -> [String] { line.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }

    @Test func csvRowsAreTheLibrarysWindowsValueForValue() throws {
        let out = CLI.temp("f.csv", "").replacingOccurrences(of: "f.csv", with: "features.csv")
        let r = try CLI.run(["features", Self.data, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        var lines = text.split(separator: "\n")
        let header = Self.fields(lines.removeFirst())
        let names = FeatureConfiguration.standard.featureNames
        #expect(header == FeatureExport.leadingColumns + names)
        let (windows, map) = try Self.library()
        // Every labelled row, in order, is the library's window; unlabelled rows have an empty label.
        let labelled = lines.map(Self.fields).filter { !$0[2].isEmpty }
        #expect(labelled.count == windows.count && windows.count > 0)
        for (i, row) in labelled.enumerated() where i < windows.count {
            #expect(row[0] == windows.recordingIDs[i] && row[1] == windows.subjects[i] && row[2] == map.classes[windows.classes[i]])
            #expect(Double(row[3]) == windows.features.startTimes[i] && Double(row[4]) == windows.features.endTimes[i])
            let values = windows.features.row(i)
            for (k, v) in values.enumerated() {
                let cell = row[5 + k]
                if v.isFinite { #expect(Double(cell) == v, "row \(i) \(names[k])") } else { #expect(cell.isEmpty) }
            }
        }
        #expect(r.stderr.contains("wrote \(out): \(lines.count) rows"))
        // --labelled-only writes exactly those rows.
        let only = out.replacingOccurrences(of: "features.csv", with: "labelled.csv")
        #expect(try CLI.run(["features", Self.data, "--labelled-only", "--out", only]).status == 0)
        #expect(try String(contentsOfFile: only, encoding: .utf8).split(separator: "\n").count == windows.count + 1)
    }

    @Test func jsonLinesCarryTheSameRows() throws {
        let out = CLI.temp("f.csv", "").replacingOccurrences(of: "f.csv", with: "features.jsonl")
        let r = try CLI.run(["features", Self.data, "--labelled-only", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let (windows, map) = try Self.library()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == windows.count)
        let names = FeatureConfiguration.standard.featureNames
        for i in stride(from: 0, to: min(lines.count, windows.count), by: 7) {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(lines[i].utf8)) as? [String: Any])
            #expect(o["recording"] as? String == windows.recordingIDs[i] && o["label"] as? String == map.classes[windows.classes[i]])
            // Numbers compared as written (Foundation's JSON parser on Linux does not round-trip doubles).
            #expect(Self.number(lines[i], "start_s") == windows.features.startTimes[i])
            #expect(o.count == 5 + names.count)
            for (k, v) in windows.features.row(i).enumerated() {
                if v.isFinite { #expect(Self.number(lines[i], names[k]) == v, "row \(i) \(names[k])") } else { #expect(o[names[k]] is NSNull) }
            }
        }
    }

    /// The number written after `"key":` in a JSON line, parsed as Swift parses doubles.
    static func number(_ line: Substring, _ key: String) -> Double? {
        guard let r = line.range(of: "\"" + key + "\":") else { return nil }
        return Double(line[r.upperBound...].prefix { $0 != "," && $0 != "}" })
    }

    @Test func rowsGoOutOneRecordingAtATime() throws {
        // The header, then one write per recording: nothing is held back for the end.
        var writes: [Int] = []
        let summary = try FeatureExport.run([try EvaluationDataset.open(Self.data)], pipeline: MotionPipeline(), labels: nil, format: .csv) { text in
            writes.append(text.split(separator: "\n").count)
        }
        #expect(writes.count == summary.recordings + 1 && summary.recordings == 4)
        #expect(writes.dropFirst().reduce(0, +) == summary.rows)
    }

    @Test func badOutNamesAreRefused() throws {
        let r = try CLI.run(["features", Self.data, "--out", "/tmp/x.parquet"])
        #expect(r.status != 0 && r.stderr.contains("--out must end in .csv, .jsonl, .ndjson or .npy"))
    }

    @Test func pandasReadsTheCSV() throws {
        let check = try CLI.run(["features", Self.data, "--labelled-only", "--out", "-"])
        #expect(check.status == 0)
        let csv = CLI.temp("features.csv", check.stdout)
        let (windows, _) = try Self.library()
        // pandas with round-trip parsing: the sum of every feature column and the first row's values.
        let script = """
        import sys
        try:
            import pandas
        except ImportError:
            print("NO-PANDAS"); sys.exit(0)
        df = pandas.read_csv(sys.argv[1], float_precision="round_trip")
        print(df.shape[0], df.shape[1])
        print(repr(float(df.iloc[0, 5])), repr(float(df.iloc[-1, -1])), df["label"].iloc[0])
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, csv]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = Pipe()
        do { try p.run() } catch { print("skipping: python3 not found"); return }
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        if out.hasPrefix("NO-PANDAS") || p.terminationStatus != 0 { print("skipping: pandas is not installed"); return }
        let lines = out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines[0] == ["\(windows.count)", "\(5 + windows.features.columns)"])
        #expect(Double(lines[1][0]) == windows.features[0, 0])
        #expect(Double(lines[1][1]) == windows.features[windows.count - 1, windows.features.columns - 1])
    }
}
