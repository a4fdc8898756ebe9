import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// BROAD trials in ../shared/datasets/broad (skipped when absent). Reference values come from
/// scipy 1.x (`scipy.io.loadmat`), printed with `repr`, so they compare exactly.
@Suite("Readers: BROAD")
struct ReadersBROADTests {
    static let root = ReadersData.path("broad")
    static let available = ReadersData.available && DatasetLocator.isDirectory(root + "/data_mat")
    static let skip: Comment = "BROAD not found in the shared datasets: skipping real-data test"
    static var trialFiles: [String] { ReadersData.list("broad/data_mat").filter { $0.hasSuffix(".mat") } }
    static let rate = 2000.0 / 7   // 285.714… Hz (sampling_rate in every file)

    /// scipy: (rows, NaN rows of opt_quat, runs of `movement`, samples with movement = 1).
    static let known: [String: (n: Int, missing: Int, runs: Int, moving: Int)] = [
        "01_undisturbed_slow_rotation_A": (56940, 162, 3, 36007),
        "03_undisturbed_slow_rotation_C": (58412, 4086, 3, 34385),
        "05_undisturbed_slow_rotation_with_breaks_B": (59212, 2009, 9, 29132),
        "07_undisturbed_fast_rotation_B": (52518, 1594, 3, 33617),
        "09_undisturbed_fast_rotation_with_breaks_B": (53711, 701, 9, 30097),
        "11_undisturbed_slow_translation_B": (54214, 2676, 3, 34726),
        "14_undisturbed_slow_translation_with_breaks_B": (55402, 3867, 9, 26641),
        "16_undisturbed_fast_translation_B": (53392, 3268, 3, 32073),
        "21_undisturbed_fast_combined": (53612, 2226, 3, 33695),
        "25_disturbed_tapping_B": (56494, 4845, 3, 33898),
        "27_disturbed_phone_vibration_B": (54952, 3183, 3, 33531),
        "29_disturbed_stationary_magnet_B": (52444, 1474, 3, 34365),
        "31_disturbed_stationary_magnet_D": (49824, 1242, 11, 27133),
        "33_disturbed_attached_magnet_2cm": (48279, 4182, 3, 25736),
        "35_disturbed_attached_magnet_4cm": (46885, 3921, 3, 24398),
    ]

    @Test("every trial: documented shapes, rate, unit reference quaternions, movement segments",
          .enabled(if: available, skip))
    func everyTrial() throws {
        let ds = try BROADDataset(root: Self.root)
        #expect(ds.recordingIDs == Self.trialFiles.map { String($0.dropLast(4)) })
        #expect(ds.entries.count == Self.trialFiles.count && !ds.entries.isEmpty)
        for e in ds.entries {
            let r = try ds.load(e.id)
            // Top-level group from trials.json; the trial names say it too.
            #expect(e.label == (e.id.contains("_undisturbed_") ? "undisturbed" : "disturbed"), "\(e.id)")
            #expect(r.metadata.nominalRateHz == Self.rate && r.metadata.device == "myon aktos-t")
            #expect(r.metadata.extra["trial"] == e.id && r.metadata.extra["info"]?.contains("Trial: \(e.id)") == true)
            #expect(r.metadata.extra["groups"]?.hasPrefix(e.label ?? "-") == true)
            let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
            let mag = try #require(r.stream(.magneticField))
            let ref = try #require(r.stream(named: BROADReader.referenceStreamName))
            #expect(ref.kind == .attitude)
            let n = acc.count
            #expect(gyro.count == n && mag.count == n && acc.times == gyro.times && acc.times == mag.times)
            #expect(acc.times[n - 1] == Double(n - 1) / Self.rate)
            #expect(Double(n) / Self.rate > 163 && Double(n) / Self.rate < 214)   // 163–213 s per trial
            let missing = Int(r.metadata.extra["reference.missing"] ?? "") ?? -1
            #expect(ref.count + missing == n && (42...4845).contains(missing), "\(e.id)")
            for i in 0..<ref.count { #expect(abs(ref.quaternion(i).norm - 1) < 1e-9) }
            // Reference times are sample times, increasing.
            #expect(ref.times.allSatisfy { abs($0 * Self.rate - ($0 * Self.rate).rounded()) < 1e-6 })
            #expect(zip(ref.times, ref.times.dropFirst()).allSatisfy { $0 < $1 })
            // At rest before the movement phase, the accelerometer reads about g.
            #expect(abs(acc.vector(0).norm - 9.81) < 0.3)
            // Segments: rest, movement, …, rest; contiguous over the whole trial.
            let l = r.labels
            #expect(l.first?.label == "rest" && l.last?.label == "rest" && l.contains { $0.label == "movement" })
            #expect(l.first?.start == 0 && l.last?.end == Double(n) / Self.rate)
            for k in 1..<l.count { #expect(l[k].start == l[k - 1].end && l[k].label != l[k - 1].label) }
            if let want = Self.known[e.id] {
                #expect(n == want.n && missing == want.missing && l.count == want.runs, "\(e.id)")
                let moving = l.filter { $0.label == "movement" }.map { Int(($0.duration * Self.rate).rounded()) }.reduce(0, +)
                #expect(moving == want.moving, "\(e.id)")
            }
        }
    }

    @Test("values equal scipy.io.loadmat's, exactly", .enabled(if: available, skip))
    func scipyValues() throws {
        let path = Self.root + "/data_mat/01_undisturbed_slow_rotation_A.mat"
        let r = try BROADReader.read(path: path)
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
        let mag = try #require(r.stream(.magneticField)), ref = try #require(r.stream(named: "reference_attitude"))
        #expect(acc.vector(0) == Vector3(-0.23618741817190653, -0.3631648520077809, 9.91931498268406))
        #expect(gyro.vector(0) == Vector3(-0.001064650843716541, -0.0042603487041181585, 0.0053267448770866945))
        #expect(mag.vector(56939) == Vector3(0.9731800758028513, 14.53900122051634, -39.455083276889596))
        // opt_quat[1000] (no NaN row before it, so it is the stream's sample 1000).
        #expect(ref.times[1000] == 1000 / Self.rate)
        #expect(ref.quaternion(1000) == Quaternion(w: 0.9997350519900288, x: -0.019311131176493315,
                                                   y: 0.012421866135074313, z: -0.001613467353490024))
        // First NaN row is 7749: the stream skips from sample 7748 to the next seen one.
        #expect(ref.times[7748] == 7748 / Self.rate && ref.times[7749] > 7749 / Self.rate)
        // movement changes at samples 9656 and 45663.
        #expect(r.labels.map(\.label) == ["rest", "movement", "rest"])
        #expect(r.labels[1].start == 9656 / Self.rate && r.labels[1].end == 45663 / Self.rate)
        #expect(r.metadata.extra["groups"] == "undisturbed, rotation, slow, no_breaks")

        // The MAT layer directly: every variable, with scipy's shapes and classes.
        let f = try MATFile.read(path: path)
        #expect(f.names == ["imu_gyr", "imu_acc", "imu_mag", "opt_quat", "opt_pos", "sampling_rate", "movement", "info"])
        #expect(f["opt_pos"]?.dimensions == [56940, 3] && f["opt_pos"]?.value(0, 0) == -0.27734632979219276)
        #expect(f["movement"]?.arrayClass == .uint8 && f["movement"]?.isLogical == true)
        #expect(f["info"]?.text?.count == 890 && f["info"]?.dimensions == [1, 890])
        #expect(f["sampling_rate"]?.values == [285.7142857142857])
        #expect(try MATFile.variableNames(path: path) == f.names)
    }

    @Test("format detection, loader and dataset listing", .enabled(if: available, skip))
    func detection() throws {
        let file = Self.root + "/data_mat/" + Self.trialFiles[0]
        #expect(DatasetFormat.probe(path: Self.root) == .init(format: .broad, isDataset: true))
        #expect(DatasetFormat.probe(path: Self.root + "/data_mat") == .init(format: .broad, isDataset: true))
        #expect(DatasetFormat.probe(path: file) == .init(format: .broad, isDataset: false))
        #expect(DatasetFormat.probe(path: Self.root + "/data_mat/trials.json") == nil)
        #expect(try RecordingLoader.recordings(under: Self.root) == Self.trialFiles.map { Self.root + "/data_mat/" + $0 })
        let r = try RecordingLoader.load(path: file)
        #expect(r.stream(named: "reference_attitude") != nil)
        let ds = try DatasetFormat.openDataset(root: Self.root + "/data_mat")
        #expect(ds.name == "broad" && ds.entries.count == Self.trialFiles.count)
        #expect(inputError { _ = try ds.load("nope") }?.reason == .badValue)
        let s = try RecordingLoader.summarize(path: file)
        #expect(s.streams.map(\.name) == ["acc", "gyro", "mag", "reference_attitude"])
    }

    @Test("reading one trial is fast", .enabled(if: available, skip))
    func speed() throws {
        let path = Self.root + "/data_mat/" + Self.trialFiles[0]
        var r = Recording()
        let t = try ContinuousClock().measure { r = try BROADReader.read(path: path) }
        print("BROAD: \(Self.trialFiles[0]) (\(r.streams[0].count) samples) read in \(t)")
        #expect(t < .seconds(5))   // a guard against pathological slowness, not a benchmark
    }

    struct LCG {
        var state: UInt64
        mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
    }

    @Test("truncated and byte-flipped trials give an InputError or the same values", .enabled(if: available, skip))
    func corruption() throws {
        let name = "35_disturbed_attached_magnet_4cm.mat"
        let source = Self.root + "/data_mat/" + (Self.trialFiles.contains(name) ? name : Self.trialFiles[0])
        let original = Array(try #require(FileManager.default.contents(atPath: source)))
        let good = try BROADReader.read(path: source, groups: [])
        var rng = LCG(state: 2024)
        let t = TempDir()
        var errors = 0, reads = 0
        var reasons: [InputError.Reason: Int] = [:]
        for trial in 0..<36 {
            var bytes = original
            switch trial % 4 {
            case 0: bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            case 1:   // header and the start of the first element (tags, zlib header, Huffman tables)
                for _ in 0..<(1 + trial % 3) { bytes[Int(rng.next() % 400)] ^= UInt8(1 << (rng.next() % 8)) }
            default:
                for _ in 0..<(1 + trial % 5) { bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(1 << (rng.next() % 8)) }
            }
            let p = t.path + "/c\(trial).mat"
            #expect(FileManager.default.createFile(atPath: p, contents: Data(bytes)))
            do {
                let r = try BROADReader.read(path: p, groups: [])
                // Only unread bytes (opt_pos, header text, padding) may have changed.
                #expect(r.streams == good.streams && r.labels == good.labels, "trial \(trial)")
                reads += 1
            } catch {
                #expect(error.location.file == p)
                reasons[error.reason, default: 0] += 1
                errors += 1
            }
        }
        print("BROAD corruption: \(reads) read unchanged, \(errors) InputErrors \(reasons)")
        #expect(errors >= 20)
        #expect(reasons[.truncated, default: 0] > 0 && reasons[.badValue, default: 0] > 0)
    }
}
