import MotusCore

/// Numbers in the JSON Motus prints: what the measurement carries, not the binary noise of
/// the arithmetic behind it (`6.4`, not `6.3999999999999515`), and never a string for a value
/// that is not a number:
/// - times (keys `t`, `time…`, or with a word `start`, `end`, `at`, `timestamp` …, or ending
///   in `_s`): to the microsecond (6 decimals);
/// - latitudes and longitudes (keys with a word starting `lat` or `lon`): 7 decimals (1 cm);
/// - every other number with a fraction or exponent: 6 significant digits, the whole part
///   always kept (123456.7 → 123457, 1234567.8 → 1234568);
/// - whole numbers as they are;
/// - NaN and infinities (written by the encoder as `nonFiniteMarker`): `null`.
/// The numbers in an array take the precision of the array's key.
public enum JSONNumbers {
    /// The string an encoder is told to write for NaN and ±infinity; `tidy` makes it `null`.
    public static let nonFiniteMarker = "\u{1}motus-not-a-number"

    /// How a number is rounded for printing.
    public enum Precision: Equatable, Sendable {
        /// This many digits after the decimal point (6 for times in s: the microsecond).
        case decimals(Int)
        /// This many significant digits, counted from the first; a whole part is never cut.
        case significant(Int)
    }

    /// The precision for a number under the JSON key `key`, by the rules above: 7 decimals for
    /// latitudes and longitudes, 6 for times, else 6 significant digits.
    public static func precision(forKey key: String) -> Precision {
        let k = key.lowercased()
        let words = k.split(whereSeparator: { $0 == "_" || $0 == "." || $0 == "-" }).map(String.init)
        if words.contains(where: { $0.hasPrefix("lat") || $0.hasPrefix("lon") || $0 == "lng" }) { return .decimals(7) }
        let timeWords: Set<String> = ["t", "time", "times", "timestamp", "start", "end", "begin", "stop", "at"]
        if words.contains(where: { timeWords.contains($0) }) || k.hasPrefix("time") || k.hasSuffix("_s") { return .decimals(6) }
        return .significant(6)
    }

    /// `v` rounded as `p` says, in the shortest form that reads back to the rounded value
    /// (whole values without a fraction); `null` when not finite.
    public static func format(_ v: Double, _ p: Precision) -> String {
        guard v.isFinite else { return "null" }
        if v == 0 { return "0" }
        let digits: Int
        switch p {
        case .decimals(let d): digits = d
        // Significant digits round the fraction only: a whole part is never rounded away.
        case .significant(let n): digits = max(0, n - 1 - Int((Math.log(abs(v)) / 2.302585092994046).rounded(.down)))
        }
        if digits >= 0 {
            let scale = pow10(digits)
            guard abs(v * scale) < 9e15 else { return describe(v) }
            return describe((v * scale).rounded() / scale)
        }
        let scale = pow10(-digits)
        return describe((v / scale).rounded() * scale)
    }

    static func describe(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<min(n, 308) { p *= 10 }
        return p
    }

    /// `json` (as JSONEncoder writes it) with every number that has a fraction or exponent
    /// rounded for its key, and every `nonFiniteMarker` string made `null`.
    public static func tidy(_ json: String) -> String {
        let b = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        // The encoder escapes the marker's control character as \u0001.
        let placeholder = Array("\"\\u0001motus-not-a-number\"".utf8)
        var i = 0
        var key = ""
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                if b.count - i >= placeholder.count && Array(b[i..<(i + placeholder.count)]) == placeholder {
                    out += Array("null".utf8)
                    i += placeholder.count
                    continue
                }
                var j = i + 1
                while j < b.count && b[j] != UInt8(ascii: "\"") { j += b[j] == UInt8(ascii: "\\") ? 2 : 1 }
                j = min(j, b.count - 1)
                let text = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                out += b[i...j]
                i = j + 1
                // A string followed by ':' is a key.
                var k = i
                while k < b.count && (b[k] == 0x20 || b[k] == 0x0A || b[k] == 0x0D || b[k] == 0x09) { k += 1 }
                if k < b.count && b[k] == UInt8(ascii: ":") { key = text }
                continue
            }
            if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                var j = i
                var fractional = false
                while j < b.count {
                    let d = b[j]
                    let isDigit = d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9")
                    let isMark = d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E")
                    guard isDigit || isMark || d == UInt8(ascii: "-") || d == UInt8(ascii: "+") else { break }
                    if isMark { fractional = true }
                    j += 1
                }
                let token = String(decoding: b[i..<j], as: UTF8.self)
                if fractional, let v = Double(token) { out += Array(format(v, precision(forKey: key)).utf8) } else { out += b[i..<j] }
                i = j
                continue
            }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
