/// A parsed JSON value. Small and allocation-light enough for request bodies of a few
/// megabytes; depth and size are bounded by the caller (body and line limits) and by
/// `JSONLite.maxDepth`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number. Integer literals that fit also keep their exact value in `integer`, so
    /// 19-digit nanosecond timestamps survive.
    case number(Double, integer: Int64?)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x, let i), .number(let y, let j)): x == y && i == j
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object (first match), nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members where k == key { return v }
        return nil
    }

    /// A number, or a string holding a number (Sensor Logger exports write values as strings;
    /// phyphox iOS may write "nan"/"inf").
    public var double: Double? {
        switch self {
        case .number(let d, _): return d
        case .string(let s):
            switch s.lowercased() {
            case "nan": return .nan
            case "inf", "+inf", "infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return NumberParser.parseDouble(s)
            }
        default: return nil
        }
    }

    /// An exact integer (a JSON integer literal, or a string of digits).
    public var int64: Int64? {
        switch self {
        case .number(let d, let i): return i ?? (d == d.rounded() && abs(d) < 9.2e18 ? Int64(d) : nil)
        case .string(let s): return Int64(s)
        default: return nil
        }
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var isObject: Bool { if case .object = self { true } else { false } }
}

/// A JSON parse failure: byte offset and what was expected.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    public var description: String { "byte \(offset): \(message)" }
}

/// A strict JSON parser over bytes (RFC 8259, plus bare `NaN`/`Infinity` which some devices
/// write). No Foundation.
public enum JSONLite {
    public static let maxDepth = 64

    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (p) throws(JSONError) -> JSONValue in try parse(p) }
    }

    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    public static func parse(_ p: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        var r = Reader(p: p)
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        if r.i != p.count { throw r.fail("the end of the document") }
        return v
    }

    /// Splits back-to-back JSON objects (`{…}{…}`, as HyperIMU's JSON mode sends them) into
    /// byte ranges, by brace depth outside strings. An unfinished last object is left out
    /// and its start returned as `rest`.
    public static func splitObjects(_ p: UnsafeBufferPointer<UInt8>) -> (objects: [Range<Int>], rest: Int) {
        var out: [Range<Int>] = []
        var depth = 0, start = -1, inString = false, escaped = false
        for i in 0..<p.count {
            let c = p[i]
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x7B, 0x5B:
                if depth == 0 { start = i }
                depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 && start >= 0 { out.append(start..<(i + 1)); start = -1 }
                if depth < 0 { depth = 0; start = -1 }
            default: break
            }
        }
        return (out, start >= 0 ? start : p.count)
    }

    struct Reader {
        let p: UnsafeBufferPointer<UInt8>
        var i = 0

        func fail(_ expected: String) -> JSONError {
            let found = i < p.count ? "'\(String(decoding: [p[i]], as: UTF8.self))'" : "the end"
            return JSONError(offset: i, message: "found \(found), expected \(expected)")
        }

        mutating func skipSpace() {
            while i < p.count, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= p.count else { return false }
            let w = word.utf8Start
            for k in 0..<n where p[i + k] != w[k] { return false }
            i += n
            return true
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard depth < JSONLite.maxDepth else { throw JSONError(offset: i, message: "nesting deeper than \(JSONLite.maxDepth)") }
            guard i < p.count else { throw fail("a value") }
            switch p[i] {
            case 0x7B: // {
                i += 1
                var members: [(String, JSONValue)] = []
                skipSpace()
                if i < p.count && p[i] == 0x7D { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < p.count, p[i] == 0x22 else { throw fail("a member name in quotes") }
                    let k = try string()
                    skipSpace()
                    guard i < p.count, p[i] == 0x3A else { throw fail("':'") }
                    i += 1
                    skipSpace()
                    members.append((k, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < p.count else { throw fail("',' or '}'") }
                    if p[i] == 0x2C { i += 1; continue }
                    if p[i] == 0x7D { i += 1; return .object(members) }
                    throw fail("',' or '}'")
                }
            case 0x5B: // [
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < p.count && p[i] == 0x5D { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < p.count else { throw fail("',' or ']'") }
                    if p[i] == 0x2C { i += 1; continue }
                    if p[i] == 0x5D { i += 1; return .array(items) }
                    throw fail("',' or ']'")
                }
            case 0x22: return .string(try string())
            case UInt8(ascii: "t"): if literal("true") { return .bool(true) }; throw fail("true")
            case UInt8(ascii: "f"): if literal("false") { return .bool(false) }; throw fail("false")
            case UInt8(ascii: "n"): if literal("null") { return .null }; throw fail("null")
            case UInt8(ascii: "N"): if literal("NaN") { return .number(.nan, integer: nil) }; throw fail("a value")
            case UInt8(ascii: "I"): if literal("Infinity") { return .number(.infinity, integer: nil) }; throw fail("a value")
            default: return try number()
            }
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let s = i
            if i < p.count && p[i] == UInt8(ascii: "-") {
                i += 1
                if literal("Infinity") { return .number(-.infinity, integer: nil) }
            }
            var integral = true
            let digitsStart = i
            while i < p.count && p[i] >= 0x30 && p[i] <= 0x39 { i += 1 }
            if i == digitsStart { i = s; throw fail("a value") }
            if i < p.count && p[i] == UInt8(ascii: ".") {
                integral = false; i += 1
                let f = i
                while i < p.count && p[i] >= 0x30 && p[i] <= 0x39 { i += 1 }
                if i == f { throw fail("digits after '.'") }
            }
            if i < p.count && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
                integral = false; i += 1
                if i < p.count && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
                let f = i
                while i < p.count && p[i] >= 0x30 && p[i] <= 0x39 { i += 1 }
                if i == f { throw fail("exponent digits") }
            }
            guard let d = NumberParser.parseDouble(p, s, i) else { i = s; throw fail("a number") }
            var exact: Int64? = nil
            if integral && i - s <= 19 {
                var v: Int64 = 0, ok = true
                var k = p[s] == UInt8(ascii: "-") ? s + 1 : s
                while k < i {
                    let (m, o1) = v.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(Int64(p[k] - 0x30))
                    if o1 || o2 { ok = false; break }
                    v = a; k += 1
                }
                if ok { exact = p[s] == UInt8(ascii: "-") ? -v : v }
            }
            return .number(d, integer: exact)
        }

        mutating func string() throws(JSONError) -> String {
            i += 1 // opening quote
            let s = i
            var simple = true
            while i < p.count && p[i] != 0x22 {
                if p[i] == 0x5C { simple = false; i += 2; continue }
                if p[i] < 0x20 { throw fail("no control character inside a string") }
                i += 1
            }
            guard i < p.count else { throw fail("a closing quote") }
            defer { i += 1 }
            if simple { return String(decoding: UnsafeBufferPointer(rebasing: p[s..<i]), as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(i - s)
            var k = s
            while k < i {
                let c = p[k]
                if c != 0x5C { out.append(c); k += 1; continue }
                k += 1
                guard k < i else { break }
                switch p[k] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard k + 4 < i + 1, let u = hex4(k + 1) else { throw JSONError(offset: k, message: "found a bad \\u escape, expected four hex digits") }
                    k += 4
                    var scalar = u
                    if u >= 0xD800 && u < 0xDC00, k + 6 < i + 1, p[k + 1] == 0x5C, p[k + 2] == UInt8(ascii: "u"), let lo = hex4(k + 3), lo >= 0xDC00 && lo < 0xE000 {
                        scalar = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                        k += 6
                    }
                    let ch = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(ch)).utf8))
                default: out.append(p[k])
                }
                k += 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= p.count else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = p[k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: return nil
                }
                v = v * 16 + d
            }
            return v
        }
    }
}
