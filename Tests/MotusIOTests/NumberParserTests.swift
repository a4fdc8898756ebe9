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

    @Test func integers() {
        var s = "  -1234 "
        let v = s.withUTF8 { NumberParser.parseInt($0, 0, $0.count) }
        #expect(v == -1234)
        var big = "99999999999999999999"
        #expect(big.withUTF8 { NumberParser.parseInt($0, 0, $0.count) } == nil)
    }
}
