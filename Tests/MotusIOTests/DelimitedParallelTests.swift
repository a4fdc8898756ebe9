import MotusTestSupport
import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// The parallel whole-file reader must give exactly what one sequential pass gives: the same
/// recording bit for bit, or the same error at the same line and column.
@Suite struct DelimitedParallelTests {
    func sequential(_ path: String, _ o: DelimitedOptions) -> Result<Recording, InputError> {
        var b = RecordingBuilder()
        do { try DelimitedReader(path: path, options: o).scan(into: &b); return .success(b.recording) } catch { return .failure(error) }
    }

    func parallel(_ path: String, _ o: DelimitedOptions, workers: Int) -> Result<Recording, InputError> {
        do { return .success(try DelimitedReader(path: path, options: o).readParallel(workers: workers)) } catch { return .failure(error) }
    }

    static func csv(rows: Int, seed: UInt64, header: Bool = true, time: Bool = true, crlf: Bool = false, comments: Bool = true,
                    corrupt: (Int, String)? = nil) -> String {
        var rng = SplitMix64(seed: seed)
        let nl = crlf ? "\r\n" : "\n"
        var s = header ? (time ? "time,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z" : "acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z") + nl : ""
        var t = 100.0
        for i in 0..<rows {
            if comments && i % 997 == 13 { s += "# note \(i)" + nl }
            if comments && i % 1499 == 7 { s += nl }
            t += 0.01 + (rng.uniform() - 0.5) * 0.004
            var fields = (0..<6).map { _ in String(format: "%.6f", (rng.uniform() - 0.5) * 20) }
            if let (row, text) = corrupt, row == i { fields[2] = text }
            s += (time ? [String(format: "%.5f", t)] : []) .joined() + (time ? "," : "") + fields.joined(separator: ",") + nl
        }
        return s
    }

    func same(_ a: Result<Recording, InputError>, _ b: Result<Recording, InputError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): return x == y
        case (.failure(let x), .failure(let y)): return x == y
        default: return false
        }
    }

    @Test(arguments: [2, 3, 7])
    func equalsSequentialRead(workers: Int) {
        for (header, time, crlf) in [(true, true, false), (true, false, true), (false, true, true)] {
            let p = TestFiles.temp(Self.csv(rows: 5000, seed: UInt64(workers), header: header, time: time, crlf: crlf))
            var o = DelimitedOptions()
            if !time { o.rateHz = 100 }
            if !header {
                o.noHeader = true; o.timeColumn = .index(0)
                o.accelColumns = [.index(1), .index(2), .index(3)]; o.gyroColumns = [.index(4), .index(5), .index(6)]
            }
            let s = sequential(p, o), q = parallel(p, o, workers: workers)
            #expect(same(s, q), "header \(header) time \(time) crlf \(crlf)")
            if case .success(let r) = q { #expect(r.stream(.acceleration)?.count == 5000) }
        }
    }

    @Test(arguments: [100, 2500, 4990])
    func errorsAreReportedAtTheSameLineAndColumn(row: Int) {
        let p = TestFiles.temp(Self.csv(rows: 5000, seed: 9, corrupt: (row, "1.2.3")))
        let s = sequential(p, DelimitedOptions()), q = parallel(p, DelimitedOptions(), workers: 4)
        #expect(same(s, q))
        if case .failure(let e) = q { #expect(e.reason == .badNumber && e.found == "1.2.3") } else { Issue.record("no error") }
    }

    @Test func timeGoingBackAcrossAChunkBorderIsCaught() {
        // Rows are in order except one that jumps 5 s back in the second half.
        var lines = ["t,acc_x,acc_y,acc_z"]
        for i in 0..<4000 { lines.append("\(Double(i) * 0.01 + (i == 3001 ? -5 : 0)),0,0,9.8") }
        let p = TestFiles.temp(lines.joined(separator: "\n") + "\n")
        let s = sequential(p, DelimitedOptions())
        for w in [2, 3, 4] {
            let q = parallel(p, DelimitedOptions(), workers: w)
            #expect(same(s, q), "workers \(w)")
        }
        if case .failure(let e) = s { #expect(e.reason == .timeBackwards && e.location.line == 3003) } else { Issue.record("no error") }
    }
}
