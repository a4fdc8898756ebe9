import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Prints how fast the CSV readers go on the real files (run with `-c release` for figures).
@Suite("Readers: throughput")
struct ReadersThroughputTests {
    static func bytes(_ p: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }

    @Test("MotionSense and Oxford read speed", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func throughput() throws {
        let clock = ContinuousClock()
        var msBytes = 0, msRows = 0
        let files = ReadersData.motionSenseFiles.map { ReadersData.path("motionsense/A_DeviceMotion_data/" + $0) }
        for f in files { msBytes += Self.bytes(f) }
        let t1 = try clock.measure {
            for f in files { msRows += try MotionSenseReader.read(path: f, subjects: nil, includeRaw: false).streams[0].count }
        }
        var oxBytes = 0, oxRows = 0
        let walks = ReadersData.oxfordWalks.map { ReadersData.path("oxford/optimisation/data/" + $0) }
        for w in walks { oxBytes += Self.bytes(w + "/accelerometer.csv") + Self.bytes(w + "/stepcounter.csv") }
        let t2 = try clock.measure {
            for w in walks { oxRows += try OxfordReader.read(folder: w).streams[0].count }
        }
        func rate(_ b: Int, _ d: Duration) -> Double {
            Double(b) / 1e6 / (Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        print("MotionSense A: \(files.count) files, \(msRows) rows, \(msBytes / 1_000_000) MB in \(t1): \(Int(rate(msBytes, t1))) MB/s")
        print("Oxford: \(walks.count) walks, \(oxRows) rows, \(oxBytes / 1_000_000) MB in \(t2): \(Int(rate(oxBytes, t2))) MB/s")
        #expect(msRows == 439_869)   // dataset README
    }
}
