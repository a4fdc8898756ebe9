import MotusTestSupport
import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// The whole-file reader (mapped file, line-counted ranges, columns filled in place, gaps
/// closed, time order checked afterwards) against the one-pass streaming `scan`, which is the
/// obviously-right reference: same recording bit for bit, or the same error.
@Suite struct DelimitedWholeFileTests {
    func sequential(_ path: String, _ o: DelimitedOptions) -> Result<Recording, InputError> {
        var b = RecordingBuilder()
        do { try DelimitedReader(path: path, options: o).scan(into: &b); return .success(b.recording) } catch { return .failure(error) }
    }

    func whole(_ path: String, _ o: DelimitedOptions, workers: Int) -> Result<Recording, InputError> {
        do { return .success(try DelimitedReader(path: path, options: o).readParallel(workers: workers)) } catch { return .failure(error) }
    }

    func expectSame(_ text: String, _ o: DelimitedOptions = .init(), workers: [Int] = [1, 2, 5], note: String) {
        let p = TestFiles.temp(text)
        let s = sequential(p, o)
        for w in workers {
            let q = whole(p, o, workers: w)
            switch (s, q) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(note) workers \(w)")
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(note) workers \(w)")
            default: Issue.record("\(note) workers \(w): sequential \(s), whole-file \(q)")
            }
        }
    }

    static func rows(_ n: Int, seed: UInt64, every comment: Int = 0, nl: String = "\n") -> [String] {
        var rng = SplitMix64(seed: seed)
        var out: [String] = []
        var t = 5.0
        for i in 0..<n {
            if comment > 0 && i % comment == 3 { out.append(i % 2 == 0 ? "# comment \(i)" : "") }
            t += 0.01
            let v = (0..<9).map { _ in String(format: "%.6f", (rng.uniform() - 0.5) * 30) }
            out.append(([String(format: "%.5f", t)] + v).joined(separator: ","))
        }
        return out
    }

    static let header = "time,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z"

    @Test func commentsAndBlankLinesInEveryRangeAreClosedUp() {
        let text = ([Self.header] + Self.rows(20_000, seed: 1, every: 37)).joined(separator: "\n") + "\n"
        expectSame(text, workers: [1, 2, 3, 8], note: "comments")
    }

    @Test func crlfBomAndNoFinalNewline() {
        let text = "\u{FEFF}" + ([Self.header] + Self.rows(3000, seed: 2)).joined(separator: "\r\n")
        expectSame(text, note: "crlf+bom")
        let p = TestFiles.temp(text)
        if case .success(let r) = whole(p, .init(), workers: 3) { #expect(r.stream(.acceleration)?.count == 3000) } else { Issue.record("no recording") }
    }

    @Test func headerOnlyAndEmptyFiles() {
        expectSame(Self.header + "\n", note: "header only")
        expectSame("", note: "empty")
        expectSame("# only a comment\n\n", note: "only comments")
    }

    /// Every file size around a page boundary: the last line may end where the mapping ends,
    /// so it must be parsed from a padded copy.
    @Test func fileSizesAroundPageBoundaries() {
        let base = ([Self.header] + Self.rows(60, seed: 3)).joined(separator: "\n")
        for target in [4096, 8192] {
            for delta in -9...1 {
                var text = base
                let pad = target + delta - text.utf8.count - 1
                guard pad > 3 else { continue }
                // A comment line of the right length before the data keeps the rows unchanged.
                text = "#" + String(repeating: "x", count: pad - 1) + "\n" + text
                #expect(text.utf8.count == target + delta)
                expectSame(text, workers: [1, 2], note: "size \(target + delta)")
            }
        }
    }

    @Test func unusualFieldsFallBackToTheCarefulParser() {
        var lines = [Self.header] + Self.rows(4000, seed: 4)
        lines[100] = lines[100].replacingOccurrences(of: ",", with: " ,")          // spaces before delimiters
        lines[200] = "\"" + lines[200].replacingOccurrences(of: ",", with: "\",\"") + "\""   // quoted fields
        lines[300] = lines[300] + ",extra,fields"
        var parts = lines[400].split(separator: ",").map(String.init)
        parts[1] = "1.0e1"; parts[2] = "-2.5E-3"; parts[3] = "+7"; parts[4] = ".5"; parts[5] = "5."   // exponents, signs, bare points
        lines[400] = parts.joined(separator: ",")
        parts = lines[500].split(separator: ",").map(String.init)
        parts[1] = "12345678901234567.25"; parts[2] = "0.12345678901234567890123"; parts[3] = "123456789.5"   // long mantissas
        lines[500] = parts.joined(separator: ",")
        expectSame(lines.joined(separator: "\n") + "\n", note: "fallbacks")
    }

    @Test func delimitersUnitsAndEulerAttitude() {
        let rows = Self.rows(3000, seed: 5)
        expectSame(([Self.header] + rows).joined(separator: "\n").replacingOccurrences(of: ",", with: "\t"), note: "tab")
        expectSame(([Self.header] + rows).joined(separator: "\n").replacingOccurrences(of: ",", with: ";"), note: "semicolon")
        expectSame(([Self.header] + rows).joined(separator: "\n").replacingOccurrences(of: ",", with: "  "), note: "spaces")
        var o = DelimitedOptions()
        o.accelUnit = .g; o.gyroUnit = .degreesPerSecond; o.timeUnit = .milliseconds
        o.timeColumn = .index(0); o.accelColumns = [.index(1), .index(2), .index(3)]; o.gyroColumns = [.index(6), .index(5), .index(4)]
        expectSame(([Self.header] + rows).joined(separator: "\n"), o, note: "units and column order")
        // CoreMotion header: attitude from Euler angles (the staged path).
        var cm = ["attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z"]
        var rng = SplitMix64(seed: 6)
        for _ in 0..<3000 { cm.append((0..<12).map { _ in String(format: "%.5f", (rng.uniform() - 0.5) * 3) }.joined(separator: ",")) }
        var r = DelimitedOptions(); r.rateHz = 50
        expectSame(cm.joined(separator: "\n"), r, note: "coremotion")
        // The same column feeding two places (time and acc x): staged path.
        var twice = DelimitedOptions()
        twice.timeColumn = .index(0); twice.accelColumns = [.index(0), .index(2), .index(3)]
        expectSame(([Self.header] + rows).joined(separator: "\n"), twice, note: "column used twice")
    }

    /// The first problem in file order wins: time going back in an early range beats a bad
    /// number in a later one, and a bad number before a step back beats the step back.
    @Test func firstProblemInFileOrderIsReported() {
        var lines = [Self.header] + Self.rows(8000, seed: 7)
        lines[2000] = "1.0" + lines[2000].drop { $0 != "," }   // 5 s back
        lines[7000] = lines[7000].replacingOccurrences(of: ",", with: ",x", options: [], range: lines[7000].range(of: ","))
        expectSame(lines.joined(separator: "\n"), note: "back first")
        let p = TestFiles.temp(lines.joined(separator: "\n"))
        if case .failure(let e) = whole(p, .init(), workers: 4) {
            #expect(e.reason == .timeBackwards && e.location.line == 2001 && e.location.column == 1 && e.found == "1.0")
        } else { Issue.record("no error") }
        var other = [Self.header] + Self.rows(8000, seed: 8)
        other[1500] = other[1500].replacingOccurrences(of: ",", with: ",1.2.3", options: [], range: other[1500].range(of: ","))
        other[6000] = "1.0" + other[6000].drop { $0 != "," }
        expectSame(other.joined(separator: "\n"), note: "bad number first")
        // A non-finite value and a missing column, in the middle of a range.
        var nf = [Self.header] + Self.rows(8000, seed: 9)
        nf[4321] = nf[4321].replacingOccurrences(of: ",", with: ",inf", options: [], range: nf[4321].range(of: ","))
        expectSame(nf.joined(separator: "\n"), note: "inf")
        var short = [Self.header] + Self.rows(8000, seed: 10)
        short[5555] = "1,2,3"
        expectSame(short.joined(separator: "\n"), note: "short row")
    }

    /// Ranges are parsed in pairs, a row of each in turn, while both rows are plain: odd rows
    /// (long numbers, exponents, CR LF, an extra field, a comment, a bad value) in either range
    /// of a pair, early or late, end the pairing there and must give exactly what `scan` gives.
    @Test func pairedRangesFallBackOnAnyOddRow() {
        let odd = ["1.5e-3", "12345678.5", "0.123456789", "-.5", "7", "+2.5"]
        for (n, where_) in [(9000, 8000), (9000, 10), (9000, 4600), (9000, 4400)] {
            for (m, o) in odd.enumerated() {
                var lines = [Self.header] + Self.rows(n, seed: 30 + UInt64(m))
                lines[where_] = lines[where_].replacingOccurrences(of: ",", with: "," + o + ",", options: [], range: lines[where_].range(of: ","))
                    .split(separator: ",").prefix(10).joined(separator: ",")
                expectSame(lines.joined(separator: "\n") + "\n", workers: [1, 2], note: "\(o) at \(where_)")
            }
            var tail = [Self.header] + Self.rows(n, seed: 40)
            tail[where_] += ",99"
            expectSame(tail.joined(separator: "\n"), workers: [1, 2], note: "extra field at \(where_)")
            tail[where_ + 1] = "# note"
            tail[where_ + 2] = tail[where_ + 2].replacingOccurrences(of: ",", with: ",x", options: [], range: tail[where_ + 2].range(of: ","))
            expectSame(tail.joined(separator: "\r\n"), workers: [1, 2], note: "crlf, comment and bad value at \(where_)")
        }
    }

    @Test func readUsesTheWholeFileReaderAndAgreesForAnyThreadCount() throws {
        let text = ([Self.header] + Self.rows(60_000, seed: 11, every: 1000)).joined(separator: "\n") + "\n"
        let p = TestFiles.temp(text)
        #expect(text.utf8.count >= DelimitedReader.parallelThreshold)
        let one = try DelimitedReader(path: p).read(maxThreads: 1)
        let two = try DelimitedReader(path: p).read(maxThreads: 2)
        #expect(one == two)
        guard case .success(let s) = sequential(p, .init()) else { Issue.record("sequential failed"); return }
        #expect(one == s)
        #expect(one.stream(.magneticField)?.count == 60_000)
        // Streams share one time column.
        #expect(one.streams.map(\.times).allSatisfy { $0 == one.streams[0].times })
    }
}
