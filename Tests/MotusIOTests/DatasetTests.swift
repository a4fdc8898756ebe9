import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("Datasets and format detection")
struct DatasetTests {
    /// The evaluation loop later commands use: the same code for every dataset.
    func summarise(_ ds: any Dataset, first n: Int) throws -> [(id: String, samples: Int, steps: Int)] {
        var out: [(String, Int, Int)] = []
        for e in ds.entries.prefix(n) {
            let r = try ds.load(e.id)
            out.append((e.id, r.stream(.acceleration)?.count ?? 0, r.events.filter { $0.kind == "step" }.count))
        }
        return out
    }

    @Test("MotionSense dataset: 192 recordings, 24 subjects, 6 activities", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func motionSense() throws {
        let ds = try MotionSenseDataset(root: ReadersData.path("motionsense"))
        #expect(ds.entries.count == ReadersData.motionSenseFiles.count && ds.entries.count == 192)
        #expect(ds.subjects.count == 24)
        #expect(Set(ds.entries.compactMap(\.label)) == Set(MotionSenseReader.activityCodes))
        #expect(ds.recordingIDs.first == "dws_1/sub_1" && ds.recordingIDs[1] == "dws_1/sub_2")   // natural order
        let r = try ds.load("std_14/sub_3")
        #expect(r.metadata.subject == "sub_3" && r.stream(named: "acc.raw") != nil && r.metadata.heightMeters != nil)
        let same = try MotionSenseDataset(root: ReadersData.path("motionsense/A_DeviceMotion_data"))
        #expect(same.entries == ds.entries)
        #expect(inputError { _ = try ds.load("nope") }?.reason == .badValue)
    }

    @Test("Oxford dataset: every walk, step totals from stats.csv", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func oxford() throws {
        for root in ["oxford", "oxford/optimisation", "oxford/optimisation/data"] {
            let ds = try OxfordDataset(root: ReadersData.path(root))
            #expect(ds.recordingIDs == ReadersData.oxfordWalks, "\(root)")
        }
        let ds = try OxfordDataset(root: ReadersData.path("oxford"))
        #expect(ds.stepTotals?.count == 48)
        let rows = try summarise(ds, first: 2)
        for row in rows { #expect(row.steps == ds.stepTotals?[row.id]) }
    }

    @Test("IPOL dataset: 41 set-1 trials and 4 Semiogram visits", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func ipol() throws {
        let ds = try IPOLDataset(root: ReadersData.path("ipol"))
        #expect(ds.entries.count == ReadersData.ipolTrials.count + ReadersData.semiogramFiles.count)
        #expect(ds.entries.count == 45)
        #expect(ds.entry("3-1")?.subject == "3")
        #expect(ds.entry("multiple_sclerosis/M0_edss_6")?.subject == "multiple_sclerosis")
        let gait = try IPOLDataset(root: ReadersData.path("ipol/voisard2023_ipol497/GaitData"))
        #expect(gait.entries.count == 41 && gait.recordingIDs.first == "1-2")
        let rows = try summarise(gait, first: 1)
        #expect(rows[0].steps == 33)
    }

    @Test("mPower dataset: 5 recordings", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func mpower() throws {
        let ds = try MPowerDataset(root: ReadersData.path("mpower"))
        #expect(ds.entries.count == 5)
        #expect(ds.entry("mhealthtools/walk_data.converted") != nil)
        #expect(try summarise(ds, first: 5).allSatisfy { $0.samples > 800 })
    }

    @Test("format detection on folders and files", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func detect() throws {
        let cases: [(String, DatasetFormat?, Bool?)] = [
            ("motionsense", .motionsense, true),
            ("motionsense/A_DeviceMotion_data", .motionsense, true),
            ("motionsense/A_DeviceMotion_data/wlk_15/sub_2.csv", .motionsense, false),
            ("motionsense/B_Accelerometer_data/wlk_15/sub_3.csv", .motionsense, false),
            ("oxford", .oxford, true),
            ("oxford/optimisation/data", .oxford, true),
            ("oxford/optimisation/data/Nexus_Jamie_Hard_InHand_1", .oxford, false),
            ("oxford/optimisation/data/Nexus_Jamie_Hard_InHand_1/accelerometer.csv", .oxford, false),
            ("ipol", .ipol, true),
            ("ipol/voisard2023_ipol497/GaitData", .ipol, true),
            ("ipol/voisard2023_ipol497/GaitData/3-1_lb.txt", .ipol, false),
            ("ipol/voisard2023_ipol497/GaitData/3-1.json", .ipol, false),
            ("ipol/voisard_semiogram_ipol535/example_datasets/multiple_sclerosis/M0_edss_6_lb.txt", .ipol, false),
            ("mpower", .mpower, true),
            ("mpower/mhealthtools/phone_data_test.json", .mpower, false),
            ("motionsense/README.md", nil, nil),
            ("motionsense/data_subjects_info.csv", nil, nil),
            ("", nil, nil),
            ("does-not-exist", nil, nil),
        ]
        for (rel, format, isDataset) in cases {
            let p = DatasetFormat.probe(path: ReadersData.path(rel))
            #expect(p?.format == format, "\(rel)")
            #expect(p?.isDataset == isDataset, "\(rel)")
            #expect(DatasetFormat.detect(path: ReadersData.path(rel)) == format)
        }
        // Every detected recording reads; every detected dataset opens.
        for (rel, format, isDataset) in cases where format != nil {
            if isDataset == true {
                #expect(try DatasetFormat.openDataset(root: ReadersData.path(rel)).entries.count > 0, "\(rel)")
            } else {
                #expect(try DatasetFormat.readRecording(path: ReadersData.path(rel)).streams.count > 0, "\(rel)")
            }
        }
        #expect(inputError { _ = try DatasetFormat.readRecording(path: ReadersData.path("oxford")) }?.reason == .badValue)
        #expect(inputError { _ = try DatasetFormat.readRecording(path: ReadersData.path("motionsense/README.md")) }?.reason == .badValue)
    }

    /// A dataset whose listing is given: what a reader would list.
    struct Listed: Dataset {
        let name = "listed"
        let root = "/data"
        let entries: [DatasetEntry]
        func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
            Recording(metadata: RecordingMetadata(subject: entry.path))
        }
    }

    @Test("two entries with one id are an error naming both files, not one file read twice")
    func duplicateIDs() throws {
        let a = DatasetEntry(id: "T1_ID1_1L", subject: "ID1", label: nil, path: "/data/a.csv")
        let b = DatasetEntry(id: "T1_ID1_2R", subject: "ID1", label: nil, path: "/data/b.csv")
        let c = DatasetEntry(id: "T1_ID1_1L", subject: "ID1", label: nil, path: "/data/c.csv")
        try Listed(entries: [a, b]).requireUniqueIDs()
        // What the check prevents: load finds the first entry with the id, so c would read a.
        #expect(try Listed(entries: [a, b, c]).load("T1_ID1_1L").metadata.subject == "/data/a.csv")
        let e = try #require(inputError { try Listed(entries: [a, b, c]).requireUniqueIDs() })
        #expect(e.reason == .badValue)
        #expect(e.description == "/data/c.csv: found 'recording id T1_ID1_1L', expected one recording per id in the listed dataset (/data/a.csv has this id too)")
    }

    @Test("a folder without recordings is an error, not an empty dataset")
    func emptyRoot() {
        let t = TempDir()
        #expect(inputError { _ = try MotionSenseDataset(root: t.path) }?.reason == .emptyFile)
        #expect(inputError { _ = try OxfordDataset(root: t.path) }?.reason == .emptyFile)
        #expect(inputError { _ = try IPOLDataset(root: t.path) }?.reason == .emptyFile)
        #expect(inputError { _ = try MPowerDataset(root: t.path + "/missing") }?.reason == .emptyFile)
        #expect(DatasetFormat.detect(path: t.path) == nil)
    }
}
