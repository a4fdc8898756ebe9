#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Exact, allocation-free parsing of decimal numbers from ASCII bytes.
///
/// Grammar: optional sign, digits with an optional `.` and fraction, optional exponent
/// (`e`/`E`, sign, digits), surrounding spaces allowed; also `nan`, `inf`, `infinity` in any
/// case (returned as non-finite values for the caller to judge). The result is the correctly
/// rounded double: numbers of at most 19 significant digits whose mantissa fits in 53 bits
/// and whose decimal exponent is within ±22 are computed exactly with one multiplication or
/// division (Clinger's fast path, which covers nearly all sensor data); anything else goes to
/// the C library's `strtod` through a stack buffer.
public enum NumberParser {
    @usableFromInline static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses `bytes[start..<end]`; nil when it is not a number.
    @inlinable
    public static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start, e = end
        while i < e && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        while e > i && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
        if i >= e { return nil }
        let numberStart = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0          // significant digits accumulated into mantissa
        var dropped = false     // a nonzero digit did not fit
        var exponent = 0
        var sawDigit = false
        // integer part
        while i < e {
            let d = bytes[i] &- 0x30
            if d > 9 { break }
            sawDigit = true
            if digits < 19 {
                if mantissa != 0 || d != 0 { mantissa = mantissa &* 10 &+ UInt64(d); digits += 1 }
            } else { exponent += 1; if d != 0 { dropped = true } }
            i += 1
        }
        if i < e && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < e {
                let d = bytes[i] &- 0x30
                if d > 9 { break }
                sawDigit = true
                if digits < 19 {
                    if mantissa != 0 || d != 0 { mantissa = mantissa &* 10 &+ UInt64(d); digits += 1 }
                    exponent -= 1
                } else if d != 0 { dropped = true }
                i += 1
            }
        }
        if !sawDigit { return parseSpecial(bytes, numberStart, e) }
        if i < e && (bytes[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < e && bytes[i] == UInt8(ascii: "-") { expNegative = true; i += 1 } else if i < e && bytes[i] == UInt8(ascii: "+") { i += 1 }
            var ev = 0
            var expDigits = 0
            while i < e {
                let d = bytes[i] &- 0x30
                if d > 9 { break }
                if ev < 100_000 { ev = ev * 10 + Int(d) }
                expDigits += 1
                i += 1
            }
            if expDigits == 0 { return nil }
            exponent += expNegative ? -ev : ev
        }
        if i != e { return nil }
        if mantissa == 0 && !dropped { return negative ? -0.0 : 0.0 }
        if !dropped && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= powersOfTen[-exponent] } else { v *= powersOfTen[exponent] }
            return negative ? -v : v
        }
        return slowPath(bytes, numberStart, e)
    }

    @usableFromInline
    static func parseSpecial(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        var negative = false
        if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { negative = bytes[i] == UInt8(ascii: "-"); i += 1 }
        let n = end - i
        func matches(_ word: StaticString) -> Bool {
            guard n == word.utf8CodeUnitCount else { return false }
            let w = word.utf8Start
            for k in 0..<n where (bytes[i + k] | 0x20) != w[k] { return false }
            return true
        }
        if matches("nan") { return .nan }
        if matches("inf") || matches("infinity") { return negative ? -.infinity : .infinity }
        return nil
    }

    @usableFromInline
    static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let n = end - start
        if n > 400 { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buf -> Double? in
            for k in 0..<n { buf[k] = CChar(bitPattern: bytes[start + k]) }
            buf[n] = 0
            var endPtr: UnsafeMutablePointer<CChar>? = nil
            let v = strtod(buf.baseAddress!, &endPtr)
            guard let endPtr, endPtr - buf.baseAddress! == n else { return nil }
            return v
        }
    }

    /// Convenience for tests and edge code: parses a whole string.
    public static func parseDouble(_ text: String) -> Double? {
        var s = text
        return s.withUTF8 { parseDouble($0, 0, $0.count) }
    }

    /// Parses a base-10 integer (optional sign); nil when not an integer or out of range.
    @inlinable
    public static func parseInt(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start, e = end
        while i < e && bytes[i] == 0x20 { i += 1 }
        while e > i && bytes[e - 1] == 0x20 { e -= 1 }
        if i >= e { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        if i >= e { return nil }
        var v = 0
        while i < e {
            let d = bytes[i] &- 0x30
            if d > 9 { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            v = a
            i += 1
        }
        return negative ? -v : v
    }
}
