import MotusTestSupport
import Testing
import Foundation
@testable import MotusIO

@Suite struct NumberParserTests {
    @Test(arguments: [
        "0", "-0", "1", "-1", "3.14159", "9.80665", "1e-05", "1E5", "-2.5e+3", ".5", "5.", "0.1", "0.2", "0.30000000000000004",
        "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "123456789012345678901234567890", "1016752819830886",
        "0.000000000000000000000000001", "4.9406564584124654e-324", "9007199254740993", "  42.5 ", "1.23512E1", "9.81E0", "0E0",
        "-1.23E-2", "0.17004639", "4.505032", "-0.454532",
    ])
    func matchesStrtod(_ text: String) {
        let expected = Double(text.trimmingCharacters(in: .whitespaces))!
        let got = NumberParser.parseDouble(text)
        #expect(got?.bitPattern == expected.bitPattern, "\(text): got \(String(describing: got)), expected \(expected)")
    }

    @Test(arguments: ["", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "abc", "1,5", "--1", "0x10", "1 2"])
    func rejectsNonNumbers(_ text: String) {
        #expect(NumberParser.parseDouble(text) == nil, "\(text) should not parse")
    }

    @Test func specialValuesAreParsedForTheCallerToJudge() {
        #expect(NumberParser.parseDouble("NaN")!.isNaN)
        #expect(NumberParser.parseDouble("nan")!.isNaN)
        #expect(NumberParser.parseDouble("-inf") == -.infinity)
        #expect(NumberParser.parseDouble("Infinity") == .infinity)
    }

    /// Shortest round-trip text of random doubles (what the native writer produces) parses back bit for bit.
    @Test func roundTripsRandomDoubles() {
        var rng = SplitMix64(seed: 7)
        for i in 0..<200_000 {
            let d: Double
            switch i % 3 {
            case 0: d = Double(bitPattern: rng.next())
            case 1: d = (rng.uniform() - 0.5) * 40
            default: d = Double(Int(rng.next() % 2_000_000) - 1_000_000) / 1e4
            }
            if !d.isFinite { continue }
            let text = d.description
            #expect(NumberParser.parseDouble(text)?.bitPattern == d.bitPattern, "\(text)")
        }
    }

    /// Long decimal strings (up to 19 digits, exponents ±30) against the C library, including
    /// values built to sit exactly halfway between two doubles.
    @Test func longMantissasMatchStrtod() {
        var rng = SplitMix64(seed: 11)
        for i in 0..<300_000 {
            var digits = ""
            let n = 15 + Int(rng.next() % 5)
            for k in 0..<n { digits += String((k == 0 ? 1 : 0) + Int(rng.next() % (k == 0 ? 9 : 10))) }
            let e = Int(rng.next() % 61) - 30
            var text = "\(digits)e\(e)"
            if i % 7 == 0 {
                // A double's exact halfway neighbour, printed with 25 digits, cut to 19.
                let d = Double(bitPattern: 0x3FF0_0000_0000_0000 | (rng.next() & 0x000F_FFFF_FFFF_FFFF))
                let half = d.nextUp - d
                text = String(String(format: "%.24e", d + half / 2).prefix(21))
            }
            let expected = strtod(text, nil)
            #expect(NumberParser.parseDouble(text)?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    /// Small values written in plain decimal with many leading zeros (0.000123…, as small
    /// rotation rates are): only significant digits count towards the 19 the fast paths take;
    /// more than 19 significant digits still go to the C library. Against strtod.
    @Test func leadingZerosDoNotCountAsDigits() {
        var rng = SplitMix64(seed: 23)
        for i in 0..<100_000 {
            let zeros = Int(rng.next() % 8)
            let n = 12 + Int(rng.next() % 10)   // 12…21 significant digits
            var digits = ""
            for k in 0..<n { digits += String((k == 0 ? 1 : 0) + Int(rng.next() % (k == 0 ? 9 : 10))) }
            let text = (i % 2 == 0 ? "-" : "") + "0." + String(repeating: "0", count: zeros) + digits
            let expected = strtod(text, nil)
            #expect(NumberParser.parseDouble(text)?.bitPattern == expected.bitPattern, "\(text)")
        }
        // Shortest text of small random doubles in plain notation (the native writer's form).
        for _ in 0..<50_000 {
            let d = (rng.uniform() - 0.5) * 0.02
            let text = d.description
            #expect(NumberParser.parseDouble(text)?.bitPattern == d.bitPattern, "\(text)")
        }
    }

    @Test func integers() {
        var s = "  -1234 "
        let v = s.withUTF8 { NumberParser.parseInt($0, 0, $0.count) }
        #expect(v == -1234)
        var big = "99999999999999999999"
        #expect(big.withUTF8 { NumberParser.parseInt($0, 0, $0.count) } == nil)
    }
}

/// The padded fast path must give exactly what `scan` gives (value bits and end index), and
/// the correctly rounded value (Swift's `Double(String)`), on every shape of number.
@Suite struct NumberParserPaddedTests {
    /// Naive digit run: the reference for the SWAR one.
    func naiveRun(_ b: [UInt8], _ i: Int, _ limit: Int) -> (UInt64, Int) {
        var v: UInt64 = 0, n = 0
        while n < 8 && i + n < limit && b[i + n] >= 0x30 && b[i + n] <= 0x39 { v = v * 10 + UInt64(b[i + n] - 0x30); n += 1 }
        return (v, n)
    }

    @Test func digitRunMatchesNaive() {
        var rng = SplitMix64(seed: 21)
        let alphabet = Array("0123456789.,-e\n\r /:".utf8)
        for _ in 0..<100_000 {
            var b = (0..<24).map { _ in rng.next() % 3 == 0 ? alphabet[Int(rng.next() % UInt64(alphabet.count))] : UInt8(0x30 + rng.next() % 10) }
            if rng.next() % 5 == 0 { b[Int(rng.next() % 8)] = UInt8(truncatingIfNeeded: rng.next()) }   // any byte
            let i = Int(rng.next() % 8), limit = i + Int(rng.next() % 10)
            let got = b.withUnsafeBufferPointer { NumberParser.digitRun($0.baseAddress!, i, limit) }
            let want = naiveRun(b, i, limit)
            #expect(got.value == want.0 && got.count == want.1, "\(b) at \(i) limit \(limit)")
        }
    }

    @Test func scanPaddedEqualsScanAndDoubleParsing() {
        var rng = SplitMix64(seed: 22)
        let after = Array(",;\t \n\re.x-+0".utf8)
        for k in 0..<300_000 {
            var text = ""
            switch rng.next() % 4 { case 0: text += "-"; case 1: text += "+"; default: break }
            let intDigits = Int(rng.next() % (k % 3 == 0 ? 20 : 9))
            for _ in 0..<intDigits { text += String(rng.next() % 10) }
            if rng.next() % 4 != 0 {
                text += "."
                let frac = Int(rng.next() % (k % 5 == 0 ? 24 : 9))
                for _ in 0..<frac { text += String(rng.next() % 10) }
            }
            if rng.next() % 10 == 0 { text += (rng.next() % 2 == 0 ? "e" : "E") + (rng.next() % 2 == 0 ? "-" : "") + String(rng.next() % 40) }
            if k % 97 == 0 { text = ["inf", "-inf", "nan", "1e400", "-1e400", "Infinity", "+7.5", "+.5"][k / 97 % 8] }
            let tail = after[Int(rng.next() % UInt64(after.count))]
            var bytes = Array(text.utf8) + [tail]
            // The limit is the number's end or the byte after it; padding follows.
            let limit = rng.next() % 2 == 0 ? bytes.count - 1 : bytes.count
            bytes += [UInt8](repeating: UInt8(0x30 + rng.next() % 10), count: 16)
            let (fast, slow) = bytes.withUnsafeBufferPointer { b in (NumberParser.scanPadded(b, 0, limit), NumberParser.scan(b, 0, limit)) }
            #expect(fast?.0.bitPattern == slow?.0.bitPattern && fast?.1 == slow?.1, "\(text) + \(tail) limit \(limit)")
            let finite = bytes.withUnsafeBufferPointer { NumberParser.scanPaddedFinite($0, 0, limit) }
            let expectedFinite = slow.flatMap { $0.0.isFinite ? $0 : nil }
            #expect(finite?.0.bitPattern == expectedFinite?.0.bitPattern && finite?.1 == expectedFinite?.1, "finite \(text)")
            if let f = fast, f.1 == text.utf8.count, let d = Double(text) {
                #expect(f.0.bitPattern == d.bitPattern, "\(text)")
            }
        }
    }

    /// `plainDecimal` against `scan` (the reference) and Foundation's Double(String): when it
    /// takes a number it must give scan's bits, length and following byte; it must take every
    /// `-?d{1,7}.d{1,7}` and nothing else.
    @Test func plainDecimalEqualsScan() {
        var rng = SplitMix64(seed: 23)
        let after = Array(",;\t \n\re.x-+0".utf8)
        var taken = 0
        for k in 0..<300_000 {
            var text = ""
            switch rng.next() % 4 { case 0, 1: text += "-"; case 2: text += (k % 2 == 0 ? "+" : ""); default: break }
            let intDigits = Int(rng.next() % 10)
            for _ in 0..<intDigits { text += String(rng.next() % 10) }
            var frac = -1
            if rng.next() % 8 != 0 {
                text += "."
                frac = Int(rng.next() % 10)
                for _ in 0..<frac { text += String(rng.next() % 10) }
            }
            let tail = after[Int(rng.next() % UInt64(after.count))]
            var bytes = Array(text.utf8) + [tail]
            let count = bytes.count
            bytes += [UInt8](repeating: UInt8(0x30 + rng.next() % 10), count: 17)
            let got = bytes.withUnsafeBufferPointer { NumberParser.plainDecimal($0.baseAddress!) }
            let plain = !text.hasPrefix("+")
                && (1...7).contains(intDigits) && (1...7).contains(frac) && !(tail >= 0x30 && tail <= 0x39)
            #expect((got != nil) == plain, "\(text) + \(tail)")
            guard let g = got else { continue }
            taken += 1
            let ref = bytes.withUnsafeBufferPointer { NumberParser.scan($0, 0, count - 1) }
            #expect(g.value.bitPattern == ref?.0.bitPattern && g.length == ref?.1, "\(text)")
            #expect(g.next == bytes[g.length], "\(text)")
            #expect(g.value.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        #expect(taken > 50_000)
    }
}
