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
    /// Exact powers of ten 10^0 … 10^22 (each is exactly a double).
    @inlinable @inline(__always)
    static func exactPowerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// One pass over a number starting at `start` (after optional spaces), stopping at the
    /// first byte of `bytes[start..<limit]` that cannot continue it. Nil when no number
    /// starts there; otherwise the value and the end index.
    @inlinable @inline(__always)
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> (Double, Int)? {
        guard let b = bytes.baseAddress else { return nil }
        var i = start
        while i < limit && b[i] == 0x20 { i += 1 }
        let numberStart = i
        var negative = false
        if i < limit {
            let c = b[i]
            if c == UInt8(ascii: "-") { negative = true; i += 1 } else if c == UInt8(ascii: "+") { i += 1 }
        }
        // Accumulate every digit; more than 19 digits (leading zeros included) go to strtod,
        // which is exact. This keeps the common loop free of special cases.
        var mantissa: UInt64 = 0
        var exponent = 0
        let intStart = i
        accumulateDigits(bytes, &i, limit, &mantissa)
        var digitCount = i - intStart
        if i < limit && b[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            accumulateDigits(bytes, &i, limit, &mantissa)
            exponent = fracStart - i
            digitCount += i - fracStart
        }
        let sawDigit = digitCount > 0
        var dropped = digitCount > 19
        if dropped {
            // Leading zeros (0.000123…) add nothing to the mantissa: only significant digits count.
            var zeros = 0, j = intStart
            while j < i && (b[j] == 0x30 || b[j] == 0x2E) { if b[j] == 0x30 { zeros += 1 }; j += 1 }
            dropped = digitCount - zeros > 19
        }
        if !sawDigit {
            var j = i
            while j < limit && (b[j] | 0x20) >= UInt8(ascii: "a") && (b[j] | 0x20) <= UInt8(ascii: "z") { j += 1 }
            guard j > i, let v = parseSpecial(bytes, numberStart, j) else { return nil }
            return (v, j)
        }
        if i < limit && (b[i] | 0x20) == UInt8(ascii: "e") {
            var j = i + 1
            var expNegative = false
            if j < limit && b[j] == UInt8(ascii: "-") { expNegative = true; j += 1 } else if j < limit && b[j] == UInt8(ascii: "+") { j += 1 }
            guard j < limit && b[j] &- 0x30 <= 9 else { return nil }  // "1e", "1e+": not a number
            var ev = 0
            while j < limit {
                let d = b[j] &- 0x30
                if d > 9 { break }
                if ev < 100_000 { ev = ev &* 10 &+ Int(d) }
                j += 1
            }
            exponent += expNegative ? -ev : ev
            i = j
        }
        if mantissa == 0 && !dropped { return (negative ? -0.0 : 0.0, i) }
        if !dropped && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= exactPowerOfTen(-exponent) } else { v *= exactPowerOfTen(exponent) }
            return (negative ? -v : v, i)
        }
        #if arch(x86_64) && !os(Windows)
        if !dropped && exponent >= -27 && exponent <= 27, let v = extendedPrecision(mantissa, exponent) {
            return (negative ? -v : v, i)
        }
        #endif
        guard let v = slowPath(bytes, numberStart, i) else { return nil }
        return (v, i)
    }

    #if arch(x86_64) && !os(Windows)
    /// Up to 19 significant digits and |exponent| ≤ 27, in x87 extended precision: the
    /// mantissa and 10^|e| are exact there (5^27 < 2^63), the one operation rounds to 64 bits,
    /// and rounding that to a double is correct unless the 64-bit result sits within one unit
    /// of a halfway point between two doubles, which is detected (nil: use `strtod`).
    @inlinable @inline(__always)
    static func extendedPrecision(_ mantissa: UInt64, _ exponent: Int) -> Double? {
        let m = Float80(mantissa)
        let p = extendedPowerOfTen(exponent < 0 ? -exponent : exponent)
        let r = exponent < 0 ? m / p : m * p
        let low = r.significandBitPattern & 0x7FF
        if low >= 0x3FF && low <= 0x401 { return nil }
        guard r.exponent > -1022 && r.exponent < 1023 else { return nil }
        return Double(r)
    }

    /// 10^0 … 10^27, each exact in Float80.
    @inlinable @inline(__always)
    static func extendedPowerOfTen(_ e: Int) -> Float80 {
        switch e {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        case 23: 1e23
        case 24: 1e24
        case 25: 1e25
        case 26: 1e26
        default: 1e27
        }
    }
    #endif

    /// Appends the run of decimal digits at `i` to `mantissa` (wrapping: the caller falls back to
    /// `strtod` past 19 digits), eight or four at a time where it can (SWAR: all lanes are
    /// checked to be digits, then combined with three or two multiplications).
    @inlinable @inline(__always)
    static func accumulateDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ limit: Int, _ mantissa: inout UInt64) {
        let b = bytes.baseAddress!
        let base = UnsafeRawPointer(b)
        while i + 8 <= limit {
            let v = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // Every byte in 0x30...0x39?
            guard (v & 0xF0F0_F0F0_F0F0_F0F0) | (((v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4) == 0x3333_3333_3333_3333 else { break }
            mantissa = mantissa &* 100_000_000 &+ eightDigitValue(v & 0x0F0F_0F0F_0F0F_0F0F)
            i += 8
        }
        if i + 4 <= limit {
            let v = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            if (v & 0xF0F0_F0F0) | (((v &+ 0x0606_0606) & 0xF0F0_F0F0) >> 4) == 0x3333_3333 {
                var x = v & 0x0F0F_0F0F
                x = (x &* 2561) >> 8
                x = ((x & 0x00FF_00FF) &* 6_553_601) >> 16
                mantissa = mantissa &* 10_000 &+ UInt64(x)
                i += 4
            }
        }
        while i < limit {
            let d = b[i] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
    }

    /// Byte lanes of `d` (= an 8-byte word minus "00000000") that are not a digit 0…9: their
    /// high bit set (d > 9: d + 0x76 reaches 0x80, or d wrapped below zero).
    @inlinable @inline(__always)
    static func nonDigitLanes(_ d: UInt64) -> UInt64 {
        ((d &+ 0x7676_7676_7676_7676) | d) & 0x8080_8080_8080_8080
    }

    /// The value of eight digit lanes (lowest byte = most significant digit; zero lanes at
    /// the bottom act as leading zeros), by three multiply-shifts.
    @inlinable @inline(__always)
    static func eightDigitValue(_ lanes: UInt64) -> UInt64 {
        var x = (lanes &* 2561) &>> 8
        x = ((x & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return ((x & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    }

    /// The run of decimal digits at `p[i..<limit]`, at most eight of them, found and converted
    /// with one unaligned 8-byte load (SWAR): the value and how many digits there were.
    /// Precondition: 8 bytes from `p + i` are readable (bytes past `limit` are loaded but ignored).
    @inlinable @inline(__always)
    static func digitRun(_ p: UnsafePointer<UInt8>, _ i: Int, _ limit: Int) -> (value: UInt64, count: Int) {
        let v = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
        // Byte-wise v - '0'; a byte below '0' borrows from the bytes above it, which only
        // disturbs bytes after the first non-digit, and those are discarded below.
        let d = v &- 0x3030_3030_3030_3030
        let n = Swift.min(nonDigitLanes(d).trailingZeroBitCount &>> 3, limit &- i)
        if n <= 0 { return (0, 0) }
        // Keep the n digit lanes, moved to the top; the zero lanes below act as leading zeros.
        return (eightDigitValue(d &<< UInt64(truncatingIfNeeded: (8 &- n) &* 8)), n)
    }

    /// 10^n for n in 0...8, as an integer.
    @inlinable @inline(__always)
    static func smallPowerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// `scan` for callers that guarantee at least 8 readable bytes past every index below
    /// `limit` (the delimited reader's buffers are padded so): the common shape of sensor data,
    /// `[-+]digits[.digits]` with at most 19 digits, is parsed with two or three SWAR digit runs
    /// and one exact multiplication or division; anything else (exponents, `nan`, spaces, long
    /// mantissas) goes to `scan`, so the result is always the same as `scan`'s.
    @inlinable @inline(__always)
    public static func scanPadded(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> (Double, Int)? {
        scanPadded(bytes, start, limit, finiteOnly: false)
    }

    /// `scanPadded`, but nil also for a value that is not finite (the readers' fast paths
    /// then take their careful path, which reports it); the straight-line case never needs
    /// the check.
    @inlinable @inline(__always)
    public static func scanPaddedFinite(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> (Double, Int)? {
        scanPadded(bytes, start, limit, finiteOnly: true)
    }

    @inlinable @inline(__always)
    static func scanPadded(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int, finiteOnly: Bool) -> (Double, Int)? {
        guard let b = bytes.baseAddress, start < limit else { return scan(bytes, start, limit) }
        // Branch-free sign (signs of sensor values are random, so a branch would mispredict);
        // a '+' goes to the general path.
        let c0 = b[start]
        let negative = c0 == UInt8(ascii: "-")
        let signBit: UInt64 = negative ? 1 << 63 : 0
        let i = start &+ (negative ? 1 : 0)
        // Straight-line common case: at most 7 integer digits, optionally a point and at most
        // 8 fraction digits. At most 15 digits: the mantissa is below 10^15 < 2^53 and the power
        // of ten at most 10^8, both exact, so one correctly rounded division is the correctly
        // rounded value (Clinger's fast path, as `scan` takes it).
        let int = digitRun(b, i, limit)
        if int.count < 8 {
            let j = i &+ int.count
            if j < limit && b[j] == UInt8(ascii: ".") {
                let frac = digitRun(b, j &+ 1, limit)
                let k = j &+ 1 &+ frac.count
                let next = k < limit ? b[k] : 0
                // Up to 8 fraction digits (a ninth digit or an exponent: the general path).
                if int.count &+ frac.count > 0 && (next | 0x20) != UInt8(ascii: "e") && !(frac.count == 8 && next &- 0x30 < 10) {
                    let v = Double(int.value &* smallPowerOfTen(frac.count) &+ frac.value) / exactPowerOfTen(frac.count)
                    return (Double(bitPattern: v.bitPattern | signBit), k)
                }
            } else if int.count > 0 && !(j < limit && (b[j] | 0x20) == UInt8(ascii: "e")) {
                let v = Double(int.value)
                return (Double(bitPattern: v.bitPattern | signBit), j)
            }
        }
        guard let r = longerNumber(bytes, start, limit) else { return nil }
        if finiteOnly && !r.0.isFinite { return nil }
        return r
    }

    /// The shape nearly every sensor CSV field has, `-?d{1,7}.d{1,7}`, parsed from `p` with two
    /// unaligned 8-byte loads (SWAR: the point and the end are found by bit tricks on the
    /// loaded words, each digit run converted with three multiply-shifts) and one correctly
    /// rounded division (at most 14 digits: the mantissa and 10^q are exact doubles, Clinger's
    /// fast path, so the value is bit-identical to `scan`'s). Returns the bit pattern of the
    /// value, how many bytes the number took, and the byte after it; nil for any other shape
    /// (no integer digit, no point, no or eight or more fraction digits, eight or more integer
    /// digits), which the caller gives to the general parser.
    /// Precondition: the 17 bytes from `p` are readable.
    @inlinable @inline(__always)
    static func plainDecimal(_ p: UnsafePointer<UInt8>) -> (value: Double, length: Int, next: UInt8)? {
        let negative = p[0] == UInt8(ascii: "-")
        let s = p + (negative ? 1 : 0)
        let w1 = UInt64(littleEndian: UnsafeRawPointer(s).loadUnaligned(as: UInt64.self))
        let d1 = w1 &- 0x3030_3030_3030_3030
        let m1 = nonDigitLanes(d1)
        // 8 × (integer digits); 1...7 digits and then a point.
        let ib = UInt64(truncatingIfNeeded: m1.trailingZeroBitCount) & ~7
        guard ib &- 8 < 56 && (w1 &>> ib) & 0xFF == 0x2E else { return nil }
        let w2 = UInt64(littleEndian: UnsafeRawPointer(s).loadUnaligned(fromByteOffset: Int(ib &>> 3) &+ 1, as: UInt64.self))
        let d2 = w2 &- 0x3030_3030_3030_3030
        let m2 = nonDigitLanes(d2)
        let fb = UInt64(truncatingIfNeeded: m2.trailingZeroBitCount) & ~7
        guard fb &- 8 < 56 else { return nil }
        let x = eightDigitValue(d1 &<< (64 &- ib))
        let y = eightDigitValue(d2 &<< (64 &- fb))
        let q = Int(fb &>> 3)
        let v = Double(x &* smallPowerOfTen(q) &+ y) / exactPowerOfTen(q)
        let signBit: UInt64 = negative ? 1 << 63 : 0
        return (Double(bitPattern: v.bitPattern | signBit), (negative ? 1 : 0) &+ Int(ib &>> 3) &+ 1 &+ q, UInt8(truncatingIfNeeded: w2 &>> fb))
    }

    /// `scanPadded` past its straight-line case: digit runs of eight at a time, then `scan`
    /// for anything but plain `digits[.digits]` of at most 19 digits.
    @inlinable
    static func longerNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> (Double, Int)? {
        let b = bytes.baseAddress!
        let negative = b[start] == UInt8(ascii: "-")
        var i = start &+ (negative || b[start] == UInt8(ascii: "+") ? 1 : 0)
        var run = digitRun(b, i, limit)
        var mantissa = run.value
        var digits = run.count
        i &+= run.count
        while run.count == 8 && digits <= 19 {
            run = digitRun(b, i, limit)
            mantissa = mantissa &* smallPowerOfTen(run.count) &+ run.value
            digits &+= run.count; i &+= run.count
        }
        var exponent = 0
        if i < limit && b[i] == UInt8(ascii: ".") {
            i &+= 1
            repeat {
                run = digitRun(b, i, limit)
                mantissa = mantissa &* smallPowerOfTen(run.count) &+ run.value
                digits &+= run.count; i &+= run.count; exponent &-= run.count
            } while run.count == 8 && digits <= 19
        }
        guard digits > 0 && digits <= 19 && mantissa <= (1 << 53) else { return scan(bytes, start, limit) }
        if i < limit && (b[i] | 0x20) == UInt8(ascii: "e") { return scan(bytes, start, limit) }
        // |exponent| <= 19: mantissa and 10^|exponent| are exact doubles (Clinger).
        var v = Double(mantissa)
        if exponent < 0 { v /= exactPowerOfTen(-exponent) }
        return (negative ? -v : v, i)
    }

    /// Parses `bytes[start..<end]` (spaces and tabs around it allowed); nil when it is not a number.
    @inlinable
    public static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start, e = end
        while i < e && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        while e > i && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
        if i >= e { return nil }
        guard let (v, stop) = scan(bytes, i, e), stop == e else { return nil }
        return v
    }

    /// Parses the number that starts at `start` (after spaces) and ends at the first byte of
    /// `bytes[start..<limit]` that cannot continue it: the value and that end index, or nil
    /// when no number starts there. The delimited reader splits and parses a row in one pass
    /// with it.
    @inlinable @inline(__always)
    public static func parsePrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> (Double, Int)? {
        scan(bytes, start, limit)
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
