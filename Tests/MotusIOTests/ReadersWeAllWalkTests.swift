import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("WeAllWalk reader")
struct ReadersWeAllWalkTests {
    /// The shared datasets, with this dataset in them (skip with a message otherwise).
    static let available = ReadersData.available && FileManager.default.fileExists(atPath: ReadersData.path("weallwalk/sensor"))
    static let skipMessage: Comment = "WeAllWalk not found in the shared datasets (../shared/datasets or MOTUS_DATASETS): skipping real-data test"

    static var sensorFiles: [String] { ReadersData.list("weallwalk/sensor").filter { $0.hasSuffix(".csv") } }

    /// Occurrences of `needle` in `text` (the independent reference for counts in the XML).
    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("file names: parts, entry id, annotation file, mobility tool")
    func fileNames() {
        let f = WeAllWalkReader.parseFileName("iPhoneSensors_T1_ID3_1L_WC.csv")
        #expect(f?.path == "T1" && f?.subject == "ID3" && f?.phone == "1L" && f?.toolCode == "WC")
        #expect(f?.id == "T1_ID3_1L_WC" && f?.annotationFileName == "T1_ID3_WC.xml" && f?.mobilityTool == "long-cane")
        #expect(WeAllWalkReader.parseFileName("iPhoneSensors_T10_ID15_2R_NA.csv")?.mobilityTool == "none")
        #expect(WeAllWalkReader.mobilityTool("GD") == "guide-dog")
        for bad in ["iPhoneSensors_T1_ID3_1L.csv", "iPhoneSensors_Tx_ID3_1L_WC.csv", "iPhoneSensors_T1_3_1L_WC.csv",
                    "iPhoneSensors_T1_ID3_1L_WC.txt", "T1_ID3_WC.xml", "iPhoneSensors_T1_ID3__WC.csv"] {
            #expect(WeAllWalkReader.parseFileName(bad) == nil, "\(bad)")
        }
    }

    @Test("every shared phone file reads: rows, 25 Hz, steps = <Step> elements, segments, turns, incidents",
          .enabled(if: Self.available, Self.skipMessage), arguments: sensorFiles)
    func file(_ name: String) throws {
        let path = ReadersData.path("weallwalk/sensor/" + name)
        let r = try WeAllWalkReader.read(path: path)
        let f = try #require(WeAllWalkReader.parseFileName(name))
        let xml = try String(contentsOfFile: ReadersData.path("weallwalk/xml/" + f.annotationFileName), encoding: .utf8)

        // Every row, on the file's clock (column 0 as written), 25 Hz.
        let lines = ReadersData.lines(path)
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.count == lines.count)
        let t0 = lines.map { Double($0.split(separator: ",")[0])! }
        #expect(acc.times == t0)
        #expect(r.streams.map(\.name) == ["acc", "gyro", "gyro.raw", "grav", "uacc", "att"])
        #expect(r.streams.allSatisfy { $0.times == acc.times })
        #expect(abs(Double(acc.count - 1) / acc.duration - 25) < 1e-6)
        let repeats = zip(t0, t0.dropFirst()).filter { $0 == $1 }.count
        #expect(r.metadata.extra["repeated_timestamps"] == "\(repeats)")
        for i in 1..<lines.count where t0[i] == t0[i - 1] {
            // A repeated time is a copy of the row before (all but the unknown last column).
            #expect(lines[i].split(separator: ",").dropLast() == lines[i - 1].split(separator: ",").dropLast())
        }

        // Values: the raw accelerometer and gyroscope of a middle row, converted.
        let mid = lines.count / 2
        let row = lines[mid].split(separator: ",").map { Double($0)! }
        #expect(row.count == 41)
        #expect(acc.vector(mid) == Vector3(row[30], row[31], row[32]) * -Units.standardGravity)
        #expect(r.stream(named: "gyro")?.vector(mid) == Vector3(row[17], row[18], row[19]))
        #expect(r.stream(named: "gyro.raw")?.vector(mid) == Vector3(row[33], row[34], row[35]))
        #expect(r.stream(.attitude)?.quaternion(mid) == Quaternion(w: row[16], x: row[13], y: row[14], z: row[15]))

        // Ground truth against the XML text.
        let steps = r.events.filter { $0.kind == "step" }
        #expect(steps.count == Self.count("<Step>", in: xml))
        #expect(steps.filter { $0.detail == "left" }.count == Self.count("<WhichFoot>L</WhichFoot>", in: xml))
        #expect(steps.filter { $0.detail == "right" }.count == Self.count("<WhichFoot>R</WhichFoot>", in: xml))
        #expect(r.events.filter { $0.kind == "turn" }.count == Self.count("<TurnTime>", in: xml))
        #expect(r.events.filter { $0.kind == "annotation" }.count == Self.count("<Feature>", in: xml))
        #expect(r.events.filter { $0.kind == "annotation-end" }.count == Self.count("<Feature>", in: xml))
        #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(r.labels.count == Self.count("<PathSegment>", in: xml))
        #expect(r.labels.filter { $0.label == "turn" }.count == Self.count("<Direction>Turn", in: xml))
        #expect(Set(r.labels.map(\.label)).isSubset(of: ["walk", "turn"]))
        #expect(zip(r.labels, r.labels.dropFirst()).allSatisfy { $0.end == $1.start }, "segments follow one another")
        let range = try #require(r.timeRange)
        #expect(r.labels.allSatisfy { range.contains($0.start) })
        let after = steps.filter { $0.time > range.upperBound }.count
        #expect(r.metadata.extra["steps_after_recording"] == (after > 0 ? "\(after)" : nil))
        #expect(after == (name == "iPhoneSensors_T4_ID12_1L_NA.csv" ? 1 : 0), "the one phone that stopped before the last step")

        // Metadata.
        #expect(r.metadata.subject == f.subject && r.metadata.device == "iPhone 6" && r.metadata.placement == "pocket")
        #expect(r.metadata.nominalRateHz == 25)
        #expect(r.metadata.extra["mobility_tool"] == f.mobilityTool && r.metadata.extra["phone"] == f.phone)
        #expect(r.metadata.extra["path"] == f.path)
    }

    @Test("CoreMotion gravity: norm 9.81, up in the device frame, equal to the attitude's up; at rest acc ≈ gravity",
          .enabled(if: Self.available, Self.skipMessage), arguments: sensorFiles)
    func gravity(_ name: String) throws {
        let r = try WeAllWalkReader.read(path: ReadersData.path("weallwalk/sensor/" + name))
        let grav = try #require(r.stream(.gravity)), acc = try #require(r.stream(.acceleration))
        let att = try #require(r.stream(.attitude))
        let up = Vector3(0, 0, Units.standardGravity)
        // Gravity is a unit vector in g, here 9.81 m/s² (to 6 decimals on almost every row; a
        // few rows are off by up to 0.6 %).
        let deviations = (0..<grav.count).map { abs(grav.vector($0).norm / Units.standardGravity - 1) }.sorted()
        #expect(deviations[deviations.count / 2] < 1e-5 && deviations[deviations.count - 1] < 0.01)
        // The attitude rotates device → reference (z up), so gravity in the device frame is the
        // reference 'up' rotated back. The two agree on almost every row (a few rows, where the
        // quaternion is not quite unit, differ by some degrees); a wrong sign or component
        // order would put them far apart on every row.
        var angles = (0..<grav.count).map { i -> Double in
            let a = att.quaternion(i).normalized.inverseRotate(up), g = grav.vector(i)
            return Math.acos(min(1, a.dot(g) / (a.norm * g.norm))) * 180 / .pi
        }
        angles.sort()
        #expect(angles[angles.count / 2] < 0.05 && angles[angles.count * 99 / 100] < 0.5 && angles[angles.count - 1] < 15)
        // The first second: the walker stands, so the accelerometer reads gravity alone.
        var a = Vector3.zero, g = Vector3.zero
        for i in 0..<25 { a += acc.vector(i); g += grav.vector(i) }
        let angle = Math.acos(min(1, a.dot(g) / (a.norm * g.norm))) * 180 / .pi
        #expect(angle < 2, "mean acceleration and gravity over the first second differ by \(angle)°")
        #expect(abs(a.norm / g.norm - 1) < 0.03)
        // The raw gyroscope carries a bias (about 0.1 rad/s on y on the 2R phones); CoreMotion's
        // rate is bias-corrected. Both measure the same rotation: their means differ by that bias.
        let bias = r.stream(named: "gyro.raw")!.mean() - r.stream(named: "gyro")!.mean()
        #expect(bias.norm > 1e-3 && bias.norm < 0.2)
    }

    @Test("a recording with free-text incidents survives the native format exactly", .enabled(if: Self.available, Self.skipMessage))
    func nativeRoundTrip() throws {
        let r = try WeAllWalkReader.read(path: ReadersData.path("weallwalk/sensor/iPhoneSensors_T6_ID3_1L_WC.csv"))
        #expect(r.events.filter { $0.kind == "annotation" }.count == 6)
        let t = TempDir()
        let out = t.path + "/T6_ID3_1L.motus"
        try NativeWriter.write(r, to: out)
        let back = try NativeFormat.read(path: out)
        #expect(back.streams == r.streams && back.labels == r.labels && back.events == r.events && back.metadata == r.metadata)
    }

    @Test("the dataset: 48 phone files of 4 walkers, ids, subjects, labels; the same from sensor/",
          .enabled(if: Self.available, Self.skipMessage))
    func dataset() throws {
        let ds = try WeAllWalkDataset(root: ReadersData.path("weallwalk"))
        #expect(ds.entries.count == Self.sensorFiles.count && ds.entries.count == 48)
        #expect(ds.name == "weallwalk")
        #expect(Set(ds.subjects) == ["ID3", "ID4", "ID11", "ID12"])
        #expect(ds.recordingIDs.prefix(3) == ["T1_ID3_1L_WC", "T1_ID3_2R_WC", "T1_ID4_1L_GD"])   // natural order
        #expect(ds.entry("T1_ID3_1L_WC")?.label == "long-cane" && ds.entry("T2_ID4_2R_GD")?.label == "guide-dog")
        #expect(ds.entry("T6_ID12_1L_NA")?.subject == "ID12" && ds.entry("T6_ID12_1L_NA")?.label == "none")
        let r = try ds.load("T1_ID3_2R_WC")
        #expect(r.metadata.extra["phone"] == "2R" && r.events.contains { $0.kind == "step" })
        #expect(try WeAllWalkDataset(root: ReadersData.path("weallwalk/sensor")).entries == ds.entries)
        #expect(inputError { _ = try ds.load("T1_ID3_1L") }?.reason == .badValue)
    }

    @Test("one walker's path walked with a long cane and with a guide dog: two recordings, each read from its own file",
          .enabled(if: Self.available, Self.skipMessage))
    func oneWalkerTwoTools() throws {
        // The published data set has such pairs (ID1 and ID8 walked every path with both; they
        // are not in the shared folder), e.g. iPhoneSensors_T1_ID1_1L_WC.csv and
        // iPhoneSensors_T1_ID1_1L_GD.csv with T1_ID1_WC.xml and T1_ID1_GD.xml. Two shared files
        // of different walkers stand in for them under those names.
        let t = TempDir()
        let fm = FileManager.default
        try fm.createDirectory(atPath: t.path + "/sensor", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: t.path + "/xml", withIntermediateDirectories: true)
        for (from, tool) in [("T1_ID3_1L_WC", "WC"), ("T1_ID4_1L_GD", "GD")] {
            try fm.copyItem(atPath: ReadersData.path("weallwalk/sensor/iPhoneSensors_\(from).csv"),
                            toPath: t.path + "/sensor/iPhoneSensors_T1_ID1_1L_\(tool).csv")
            let xml = try String(contentsOfFile: ReadersData.path("weallwalk/xml/\(from.replacingOccurrences(of: "_1L", with: "")).xml"), encoding: .utf8)
            try xml.replacingOccurrences(of: #"<SubjectID>\d+</SubjectID>"#, with: "<SubjectID>1</SubjectID>", options: .regularExpression)
                .write(toFile: t.path + "/xml/T1_ID1_\(tool).xml", atomically: true, encoding: .utf8)
        }
        let ds = try DatasetFormat.openDataset(root: t.path)
        #expect(ds.recordingIDs == ["T1_ID1_1L_GD", "T1_ID1_1L_WC"])
        #expect(ds.entries.map(\.label) == ["guide-dog", "long-cane"] && Set(ds.subjects) == ["ID1"])
        let own = try WeAllWalkReader.read(path: ReadersData.path("weallwalk/sensor/iPhoneSensors_T1_ID3_1L_WC.csv"))
        let cane = try ds.load("T1_ID1_1L_WC")
        #expect(cane.metadata.extra["mobility_tool"] == "long-cane")
        #expect(cane.streams == own.streams && cane.events.filter { $0.kind == "step" } == own.events.filter { $0.kind == "step" })
        #expect(try ds.load("T1_ID1_1L_GD").streams != own.streams)
    }

    @Test("format detection, RecordingLoader and recordings(under:)", .enabled(if: Self.available, Self.skipMessage))
    func detection() throws {
        let folder = DatasetFormat.probe(path: ReadersData.path("weallwalk"))
        #expect(folder?.format == .weallwalk && folder?.isDataset == true)
        #expect(DatasetFormat.probe(path: ReadersData.path("weallwalk/sensor"))?.format == .weallwalk)
        let csv = ReadersData.path("weallwalk/sensor/iPhoneSensors_T3_ID4_1L_GD.csv")
        let file = DatasetFormat.probe(path: csv)
        #expect(file?.format == .weallwalk && file?.isDataset == false)
        #expect(DatasetFormat.probe(path: ReadersData.path("weallwalk/xml/T3_ID4_GD.xml")) == nil)
        let r = try RecordingLoader.load(path: csv)
        #expect(r.metadata.subject == "ID4" && r.metadata.extra["mobility_tool"] == "guide-dog")
        #expect(try RecordingLoader.recordings(under: ReadersData.path("weallwalk")).count == 48)
        #expect(try DatasetFormat.openDataset(root: ReadersData.path("weallwalk")).entries.count == 48)
        let summary = try RecordingLoader.summarize(path: csv)
        #expect(summary.streams.count == 6)
    }
}
