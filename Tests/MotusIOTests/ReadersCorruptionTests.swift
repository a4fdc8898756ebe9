import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Real files cut short and with bytes overwritten (seeded, so reproducible): every reader must
/// either read them or throw an `InputError`, never crash or throw anything else.
@Suite("Readers: corrupted real files")
struct ReadersCorruptionTests {
    struct LCG {
        var state: UInt64
        mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
    }

    static let alphabet = Array("0123456789.,-+eE\tNa \n\r{}[]\":x".utf8)

    @Test("truncations and byte flips give a Recording or an InputError",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ["motionsense", "oxford", "ipol", "mpower"])
    func corrupt(_ format: String) throws {
        let source: String, rel: String
        switch format {
        case "motionsense": source = ReadersData.path("motionsense/A_DeviceMotion_data/jog_16/sub_1.csv"); rel = "A_DeviceMotion_data/jog_16/sub_1.csv"
        case "oxford": source = ReadersData.path("oxford/optimisation/data/Samsung_Jamie_Hard_InHand_1/accelerometer.csv"); rel = "Samsung_Jamie_Hard_InHand_1/accelerometer.csv"
        case "ipol": source = ReadersData.path("ipol/voisard2023_ipol497/GaitData/2-2_lb.txt"); rel = "GaitData/2-2_lb.txt"
        default: source = ReadersData.path("mpower/mhealthtools/phone_data_test.json"); rel = "phone_data_test.json"
        }
        var original = Array(try #require(FileManager.default.contents(atPath: source)))
        if format != "mpower" {
            // Whole lines only, so that the uncorrupted prefix is a valid file.
            original = Array(original.prefix(6000))
            while original.last != 0x0A { original.removeLast() }
        }
        var rng = LCG(state: 42)
        var outcomes = (read: 0, errors: 0)
        let t = TempDir()
        for trial in 0..<60 {
            var bytes = original
            if trial == 0 {
                // unchanged: must read
            } else if trial % 3 == 0 {
                bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<(1 + trial % 4) {
                    bytes[Int(rng.next() % UInt64(bytes.count))] = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
                }
            }
            let p = t.write(rel, String(decoding: bytes, as: UTF8.self))
            if format == "oxford" { t.write("Samsung_Jamie_Hard_InHand_1/stepcounter.csv", "1000,1,1\n2000,0,1\n3000,1,1\n") }
            let expectRead = trial == 0
            do {
                switch format {
                case "motionsense": _ = try MotionSenseReader.read(path: p)
                case "oxford": _ = try OxfordReader.read(folder: ReaderFiles.parent(p))
                case "ipol": _ = try IPOLReader.read(path: p)
                default: _ = try MPowerReader.read(path: p)
                }
                outcomes.read += 1
            } catch where expectRead {
                Issue.record("the unchanged file failed: \(error)")
            } catch {
                // Typed throws: the only error there can be is an InputError with a location.
                #expect(error.location.file == p)
                outcomes.errors += 1
            }
        }
        // Both outcomes occur, so the test exercises the error paths and the good path.
        #expect(outcomes.errors > 10)
        print("\(format): \(outcomes.read) read, \(outcomes.errors) InputErrors")
    }
}
