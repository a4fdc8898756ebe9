import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("sp-sw-har reader")
struct ReadersSPSWHARTests {
    /// The shared datasets, with this dataset in them (skip with a message otherwise).
    static let available = ReadersData.available && FileManager.default.fileExists(atPath: ReadersData.path("sp-sw-har/DATA"))
    static let skipMessage: Comment = "sp-sw-har not found in the shared datasets (../shared/datasets or MOTUS_DATASETS): skipping real-data test"

    /// "s01/s01_01_sp.csv" for every shared recording.
    static var files: [String] {
        ReadersData.list("sp-sw-har/DATA").filter { $0.hasPrefix("s") && !$0.hasSuffix(".csv") }.flatMap { s in
            ReadersData.list("sp-sw-har/DATA/\(s)").filter { $0.hasSuffix(".csv") }.map { "\(s)/\($0)" }
        }
    }

    static let header = "x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label\n"

    @Test("file names")
    func fileNames() {
        let f = SPSWHARReader.parseFileName("s01_07_sw.csv")
        #expect(f?.subject == "s01" && f?.execution == "s01_07" && f?.device == .watch && f?.device.deviceName == "smartwatch")
        #expect(SPSWHARReader.parseFileName("s23_10_sp.csv")?.device == .phone)
        for bad in ["s01_07_xx.csv", "s01_sp.csv", "x01_07_sp.csv", "s01_07_sp.txt", "subjects_info.csv", "s01_a_sp.csv"] {
            #expect(SPSWHARReader.parseFileName(bad) == nil, "\(bad)")
        }
    }

    @Test("repeated milliseconds are spread evenly inside the millisecond; every row is kept, in order")
    func repeatedTimestamps() throws {
        let t = TempDir()
        let rows: [(Int, String)] = [(1000, "A"), (1010, "A"), (1010, "B"), (1010, "B"), (1020, "B"), (1021, "A"), (1021, "A")]
        var text = Self.header
        for (k, (ms, label)) in rows.enumerated() { text += "\(k).5,0,9.8,0,0,\(k),\(ms),\(label)\n" }
        let r = try SPSWHARReader.read(path: t.write("s09/s09_01_sp.csv", text))
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
        let third: Double = 1.0 / 3
        let expectedMs: [Double] = [0, 10, 10 + third, 10 + 2 * third, 20, 21, 21.5]
        let expected = expectedMs.map { $0 / 1000 }
        #expect(acc.count == 7 && gyro.count == 7)
        for i in 0..<7 {
            #expect(abs(acc.times[i] - expected[i]) < 1e-15)
            #expect(acc.vector(i).x == Double(i) + 0.5 && gyro.vector(i).z == Double(i), "row \(i) kept in file order")
            // The stamp is recoverable.
            #expect(Int((acc.times[i] * 1000 + 1e-6).rounded(.down)) == rows[i].0 - 1000)
        }
        #expect(zip(acc.times, acc.times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(r.metadata.extra["repeated_timestamps"] == "3" && r.metadata.extra["unix_start_ms"] == "1000")
        // Runs A | B B B | A A: segments end at the next run's first time; the last one a mean
        // interval (21.5 ms / 6) after the last sample.
        #expect(r.labels.map(\.label) == ["A", "B", "A"])
        #expect(r.labels[0].start == 0 && r.labels[0].end == acc.times[2])
        #expect(r.labels[1].start == acc.times[2] && r.labels[1].end == acc.times[5])
        #expect(abs(r.labels[2].end - (0.0215 + 0.0215 / 6)) < 1e-15)
        for i in 0..<7 { #expect(r.label(at: acc.times[i]) == rows[i].1) }
        // Without the information files: subject and device from the name, nothing invented.
        #expect(r.metadata.subject == "s09" && r.metadata.device == "smartphone" && r.metadata.heightMeters == nil)
        // A one-row file: a 1 ms segment.
        let one = try SPSWHARReader.read(path: t.write("s09/s09_02_sw.csv", Self.header + "0,0,9.8,0,0,0,5,SEATED\n"))
        #expect(one.labels == [LabelSegment(start: 0, end: 0.001, label: "SEATED")])
    }

    @Test("every shared file reads: rows and values in order, lossless times, labels match every row, rate",
          .enabled(if: Self.available, Self.skipMessage), arguments: files)
    func file(_ rel: String) throws {
        let path = ReadersData.path("sp-sw-har/DATA/" + rel)
        let r = try SPSWHARReader.read(path: path)
        let lines = ReadersData.lines(path)
        #expect(lines.first.map(String.init) == String(Self.header.dropLast()))
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
        #expect(acc.count == rows.count && gyro.count == rows.count)
        #expect(acc.times == gyro.times)
        let ms = rows.map { Int64($0[6])! }
        var repeats = 0
        for (i, f) in rows.enumerated() {
            #expect(acc.vector(i) == Vector3(Double(f[0])!, Double(f[1])!, Double(f[2])!))
            #expect(gyro.vector(i) == Vector3(Double(f[3])!, Double(f[4])!, Double(f[5])!))
            #expect(Int64((acc.times[i] * 1000 + 1e-6).rounded(.down)) == ms[i] - ms[0])
            #expect(r.label(at: acc.times[i]) == String(f[7]), "row \(i + 2)")
            if i > 0 && ms[i] == ms[i - 1] { repeats += 1 }
        }
        #expect(zip(acc.times, acc.times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(r.metadata.extra["repeated_timestamps"] == "\(repeats)")
        #expect(r.metadata.extra["unix_start_ms"] == "\(ms[0])")
        // Segments: contiguous, from the first sample, one per run of labels, known labels.
        #expect(r.labels.first?.start == 0)
        #expect(zip(r.labels, r.labels.dropFirst()).allSatisfy { $0.end == $1.start && $0.label != $1.label })
        #expect((r.labels.last?.end ?? 0) > acc.times[acc.count - 1])
        #expect(Set(r.labels.map(\.label)).isSubset(of: Set(SPSWHARReader.activityLabels)))
        // Rate from the timestamps: phone about 102.5 Hz, watch about 104.3 Hz.
        let rate = Double(acc.count - 1) / (Double(ms[ms.count - 1] - ms[0]) / 1000)
        let phone = rel.hasSuffix("_sp.csv")
        #expect(phone ? (rate > 101.5 && rate < 103.5) : (rate > 103.5 && rate < 105.5), "\(rate) Hz")
        // Acceleration with gravity, Android sign, m/s²: the median norm is about 9.8.
        let norms = (0..<acc.count).map { acc.vector($0).norm }.sorted()
        #expect(norms[norms.count / 2] > 9 && norms[norms.count / 2] < 11)
        // Metadata.
        let fn = try #require(SPSWHARReader.parseFileName(String(rel.split(separator: "/")[1])))
        #expect(r.metadata.subject == fn.subject && r.metadata.device == (phone ? "smartphone" : "smartwatch"))
        #expect(r.metadata.heightMeters != nil && r.metadata.gender != nil && r.metadata.extra["phone_orientation"] != nil)
    }

    @Test("subject and execution information", .enabled(if: Self.available, Self.skipMessage))
    func info() throws {
        let s = try SPSWHARReader.subjectInfo(path: ReadersData.path("sp-sw-har/DATA/subjects_info.csv"))
        #expect(s.count == 23)
        #expect(s["s01"] == SPSWHARReader.Subject(id: "s01", age: 54, gender: "male", heightMeters: 1.90, weightKg: 83, dominantHand: "right", executions: 6))
        #expect(s["s16"]?.dominantHand == "left" && s["s03"]?.gender == "female")
        let e = try SPSWHARReader.executionInfo(path: ReadersData.path("sp-sw-har/DATA/executions_info.csv"))
        #expect(e.count == 223)
        #expect(e["s01_02"] == SPSWHARReader.Execution(id: "s01_02", phoneOrientation: "back_inv", firstTurn: "right", secondTurn: "right"))
        let r = try SPSWHARReader.read(path: ReadersData.path("sp-sw-har/DATA/s01/s01_02_sw.csv"))
        #expect(r.metadata.heightMeters == 1.90 && r.metadata.weightKg == 83 && r.metadata.age == 54 && r.metadata.gender == "male")
        #expect(r.metadata.extra["dominant_hand"] == "right" && r.metadata.extra["first_turn"] == "right")
        #expect(r.metadata.extra["phone_orientation"] == "back_inv" && r.metadata.extra["execution"] == "s01_02")
    }

    @Test("the dataset: every file, phone-only and watch-only listings, roots", .enabled(if: Self.available, Self.skipMessage))
    func dataset() throws {
        let ds = try SPSWHARDataset(root: ReadersData.path("sp-sw-har"))
        #expect(ds.name == "sp-sw-har")
        #expect(ds.entries.count == Self.files.count && ds.entries.count == 150)
        #expect(ds.recordingIDs.prefix(2) == ["s01/s01_01_sp", "s01/s01_01_sw"])
        #expect(ds.subjects == ["s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08"])
        #expect(ds.entry("s03/s03_04_sw")?.label == "sw" && ds.entry("s03/s03_04_sw")?.subject == "s03")
        let phone = try SPSWHARDataset(root: ReadersData.path("sp-sw-har"), devices: [.phone])
        #expect(phone.entries.count == 75 && phone.entries.allSatisfy { $0.label == "sp" })
        let watch = try SPSWHARDataset(root: ReadersData.path("sp-sw-har/DATA"), devices: [.watch])
        #expect(watch.entries.count == 75 && watch.entries.allSatisfy { $0.label == "sw" })
        let one = try SPSWHARDataset(root: ReadersData.path("sp-sw-har/DATA/s02"))
        #expect(one.entries.allSatisfy { $0.id.hasPrefix("s02/s02_") } && one.subjectInfo?["s02"] != nil)
        let r = try ds.load("s02/s02_03_sp")
        #expect(r.metadata.heightMeters == 1.71 && r.labels.count > 4)
        #expect(inputError { _ = try ds.load("s02/s02_99_sp") }?.reason == .badValue)
    }

    @Test("format detection, RecordingLoader and recordings(under:)", .enabled(if: Self.available, Self.skipMessage))
    func detection() throws {
        for rel in ["sp-sw-har", "sp-sw-har/DATA", "sp-sw-har/DATA/s05"] {
            let p = DatasetFormat.probe(path: ReadersData.path(rel))
            #expect(p?.format == .spswhar && p?.isDataset == true, "\(rel)")
        }
        let csv = ReadersData.path("sp-sw-har/DATA/s05/s05_03_sw.csv")
        let p = DatasetFormat.probe(path: csv)
        #expect(p?.format == .spswhar && p?.isDataset == false)
        #expect(DatasetFormat.probe(path: ReadersData.path("sp-sw-har/DATA/subjects_info.csv")) == nil)
        #expect(DatasetFormat(rawValue: "sp-sw-har") == .spswhar)
        let r = try RecordingLoader.load(path: csv)
        #expect(r.metadata.device == "smartwatch" && r.metadata.subject == "s05" && r.metadata.heightMeters != nil)
        #expect(try RecordingLoader.recordings(under: ReadersData.path("sp-sw-har")).count == 150)
        #expect(try RecordingLoader.summarize(path: csv).streams.map(\.duplicates) == [0, 0])
    }
}
