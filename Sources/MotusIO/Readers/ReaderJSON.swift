import MotusCore

/// Motus's one JSON parser, over bytes: dataset files (mPower device motion, IPOL annotations,
/// Sensor Logger exports) and live messages (Sensor Logger pushes, JSON Lines, HyperIMU's JSON
/// mode, phyphox answers) all go through it.
///
/// Grammar: RFC 8259, plus the bare `NaN`, `Infinity` and `-Infinity` tokens that Python's
/// `json.dump` and some devices write (IPOL files have `"Weight": NaN`); a leading UTF-8 byte
/// order mark is skipped. Unlike Foundation's parser it reports errors as `InputError` with
/// line and column, keeps each value's byte offset so that readers can point at the element
/// that is wrong, keeps the exact value of integer literals (19-digit nanosecond timestamps do
/// not fit a `Double`), and parses a caller's buffer (one line, one request body) without
/// copying it. Nesting is limited to `maxDepth`.
public struct ReaderJSON: Sendable {
    /// What a JSON value is, with its contents.
    public enum Value: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number (also `NaN`, `Infinity`, `-Infinity`). An integer literal that fits `Int64`
        /// also keeps its exact value.
        case number(Double, integer: Int64?)
        /// A string, its escapes decoded.
        case string(String)
        /// An array, its elements in order.
        case array([ReaderJSON])
        /// An object, its members in file order (a repeated key is kept each time).
        case object([(key: String, value: ReaderJSON)])
    }
    /// The value.
    public var value: Value
    /// Byte offset of the value's first character in the parsed text.
    public var offset: Int

    /// A value found at byte `offset` of the parsed text.
    public init(value: Value, offset: Int) { self.value = value; self.offset = offset }

    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 256

    /// Parses one JSON document: the whole of `bytes`, surrounded by white space at most.
    /// `file` names the input in errors; offsets count from the start of `bytes`.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(InputError) -> ReaderJSON {
        var p = ReaderJSONParser(path: file, bytes: bytes)
        return try p.parseDocument()
    }

    /// Parses one JSON document held in `bytes`; the same as the buffer form. Throws `InputError`
    /// at the line and column of the first byte that does not fit the grammar.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> ReaderJSON {
        try bytes.withUnsafeBufferPointer { (b) throws(InputError) -> ReaderJSON in try parse(b, file: file) }
    }

    /// The member `key` of an object (the first, when a key repeats); nil otherwise.
    public subscript(key: String) -> ReaderJSON? {
        if case .object(let members) = value {
            for m in members where m.key == key { return m.value }
        }
        return nil
    }
    /// The number; nil for any other value.
    public var number: Double? { if case .number(let d, _) = value { return d }; return nil }
    /// The exact value of an integer literal that fits `Int64`.
    public var integer: Int64? { if case .number(_, let i) = value { return i }; return nil }
    /// The string; nil for any other value.
    public var string: String? { if case .string(let s) = value { return s }; return nil }
    /// The boolean; nil for any other value.
    public var bool: Bool? { if case .bool(let b) = value { return b }; return nil }
    /// The elements of an array; nil for any other value.
    public var array: [ReaderJSON]? { if case .array(let a) = value { return a }; return nil }
    /// The members of an object, in file order; nil for any other value.
    public var members: [(key: String, value: ReaderJSON)]? { if case .object(let m) = value { return m }; return nil }
    /// True for `null`.
    public var isNull: Bool { if case .null = value { return true }; return false }
    /// True for an object.
    public var isObject: Bool { if case .object = value { return true }; return false }
    /// What the value is, in words for messages ("a number", "an object", "null" …).
    public var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A number, or a string holding one (`numberInText`): Sensor Logger exports write values
    /// as strings, phyphox on iOS writes "nan" and "inf".
    public var looseNumber: Double? {
        switch value {
        case .number(let d, _): return d
        case .string(let s): return Self.numberInText(s)
        default: return nil
        }
    }

    /// An exact integer: an integer literal, a number with no fraction that fits `Int64`, or a
    /// string of digits.
    public var looseInteger: Int64? {
        switch value {
        case .number(let d, let i): return i ?? (d == d.rounded() && abs(d) < 9.2e18 ? Int64(d) : nil)
        case .string(let s): return Int64(s)
        default: return nil
        }
    }

    /// The number a text holds: "nan", "inf", "+inf", "infinity", "-inf", "-infinity" (any
    /// case), else what `NumberParser` reads; nil when it is not a number.
    public static func numberInText(_ s: String) -> Double? {
        switch s.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return NumberParser.parseDouble(s)
        }
    }

    /// Splits back-to-back JSON values (`{…}{…}`, as HyperIMU's JSON mode sends them) into byte
    /// ranges, by bracket depth outside strings. An unfinished last value is left out and its
    /// start returned as `rest` (`bytes.count` when there is none). Nothing is parsed.
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
}

/// A parsed file with what is needed to turn offsets into line:column, and typed access whose
/// errors point at the text (for the dataset readers).
struct ReaderJSONDocument {
    let path: String
    let bytes: [UInt8]
    let root: ReaderJSON

    init(path: String) throws(InputError) {
        let b = try ReaderFiles.readBytes(path)
        try self.init(path: path, bytes: b)
    }

    init(path: String, bytes: [UInt8]) throws(InputError) {
        self.path = path
        self.bytes = bytes
        self.root = try ReaderJSON.parse(bytes, file: path)
    }

    /// Line and column (1-based, column in bytes) of a byte offset.
    func location(_ offset: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: offset) }
    }
    func location(_ node: ReaderJSON) -> SourceLocation { location(node.offset) }

    /// Up to 40 characters of the text at `node`, for messages.
    /// Up to 40 bytes of the text at `node`, cut at the end of its line (errors stay on one line).
    func snippet(_ node: ReaderJSON) -> String {
        var end = min(bytes.count, node.offset + 40)
        if let nl = bytes[node.offset..<end].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { end = nl }
        return String(decoding: bytes[node.offset..<end], as: UTF8.self)
    }

    // MARK: typed access with errors that point at the text

    func member(_ node: ReaderJSON, _ key: String, context: String) throws(InputError) -> ReaderJSON {
        guard node.isObject else {
            throw InputError(.badValue, at: location(node), found: snippet(node), expected: "an object (\(context))")
        }
        guard let v = node[key] else {
            throw InputError(.missingColumn, at: location(node), found: snippet(node), expected: "a key '\(key)' (\(context))")
        }
        return v
    }

    /// A number; `NaN`/`null` give nil when `optional`, else `.nonFinite` / `.badValue`.
    func number(_ node: ReaderJSON, context: String, optional: Bool = false) throws(InputError) -> Double? {
        if node.isNull {
            if optional { return nil }
            throw InputError(.badValue, at: location(node), found: "null", expected: "a number (\(context))")
        }
        guard let d = node.number else {
            throw InputError(.badNumber, at: location(node), found: snippet(node), expected: "a number (\(context))")
        }
        if !d.isFinite {
            if optional && d.isNaN { return nil }
            throw InputError(.nonFinite, at: location(node), found: snippet(node), expected: "a finite number (\(context))")
        }
        return d
    }

    /// A number that must lie in `range` (a body measure, say); outside it is a bad value at
    /// the node, never a silently kept figure.
    func number(_ node: ReaderJSON, context: String, optional: Bool = false, in range: ClosedRange<Double>) throws(InputError) -> Double? {
        guard let d = try number(node, context: context, optional: optional) else { return nil }
        guard range.contains(d) else {
            throw InputError(.badValue, at: location(node), found: snippet(node), expected: "\(context) from \(fmtRange(range.lowerBound)) to \(fmtRange(range.upperBound))")
        }
        return d
    }

    private func fmtRange(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)" }

    func requiredNumber(_ node: ReaderJSON, _ key: String, context: String) throws(InputError) -> Double {
        let v = try member(node, key, context: context)
        return try number(v, context: "\(context) '\(key)'")!
    }

    func array(_ node: ReaderJSON, context: String) throws(InputError) -> [ReaderJSON] {
        guard let a = node.array else {
            throw InputError(.badValue, at: location(node), found: snippet(node), expected: "an array (\(context))")
        }
        return a
    }
}

struct ReaderJSONParser {
    let path: String
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0

    init(path: String, bytes: UnsafeBufferPointer<UInt8>) { self.path = path; self.bytes = bytes }

    static func location(path: String, bytes: UnsafeBufferPointer<UInt8>, offset: Int) -> SourceLocation {
        var line = 1, lineStart = 0
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            if bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
            k += 1
        }
        return SourceLocation(file: path, line: line, column: end - lineStart + 1)
    }

    func error(_ reason: InputError.Reason, at offset: Int, expected: String) -> InputError {
        let end = min(bytes.count, offset + 20)
        let found = offset < bytes.count ? String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self) : ""
        return InputError(reason, at: ReaderJSONParser.location(path: path, bytes: bytes, offset: offset), found: found, expected: expected)
    }

    mutating func parseDocument() throws(InputError) -> ReaderJSON {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        skipSpace()
        if i >= bytes.count {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a JSON document")
        }
        let v = try parseValue()
        skipSpace()
        if i < bytes.count { throw error(.badValue, at: i, expected: "the end of the JSON document") }
        return v
    }

    @inline(__always) mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
        }
    }

    /// True (and moves past it) when `word` starts at `i` and is not followed by more of a token.
    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let w = word.utf8Start
        for k in 0..<n where bytes[i + k] != w[k] { return false }
        if i + n < bytes.count, Self.isTokenByte(bytes[i + n]) { return false }
        i += n
        return true
    }

    /// Bytes that continue a bare token (anything but a delimiter or white space).
    @inline(__always) static func isTokenByte(_ b: UInt8) -> Bool {
        !(b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: ":")
          || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09)
    }

    mutating func parseValue() throws(InputError) -> ReaderJSON {
        skipSpace()
        guard i < bytes.count else { throw error(.truncated, at: i, expected: "a JSON value") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"):
            depth += 1
            if depth > ReaderJSON.maxDepth { throw error(.badValue, at: i, expected: "JSON nested at most \(ReaderJSON.maxDepth) deep") }
            defer { depth -= 1 }
            i += 1
            var members: [(key: String, value: ReaderJSON)] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return ReaderJSON(value: .object(members), offset: start) }
            while true {
                skipSpace()
                guard i < bytes.count else { throw error(.truncated, at: i, expected: "a key in double quotes") }
                guard bytes[i] == UInt8(ascii: "\"") else { throw error(.badValue, at: i, expected: "a key in double quotes") }
                let key = try parseString()
                skipSpace()
                guard i < bytes.count else { throw error(.truncated, at: i, expected: "':' after a key") }
                guard bytes[i] == UInt8(ascii: ":") else { throw error(.badValue, at: i, expected: "':' after a key") }
                i += 1
                let v = try parseValue()
                members.append((key, v))
                skipSpace()
                guard i < bytes.count else { throw error(.truncated, at: i, expected: "',' or '}'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; break }
                throw error(.badValue, at: i, expected: "',' or '}'")
            }
            return ReaderJSON(value: .object(members), offset: start)
        case UInt8(ascii: "["):
            depth += 1
            if depth > ReaderJSON.maxDepth { throw error(.badValue, at: i, expected: "JSON nested at most \(ReaderJSON.maxDepth) deep") }
            defer { depth -= 1 }
            i += 1
            var items: [ReaderJSON] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return ReaderJSON(value: .array(items), offset: start) }
            while true {
                items.append(try parseValue())
                skipSpace()
                guard i < bytes.count else { throw error(.truncated, at: i, expected: "',' or ']'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; break }
                throw error(.badValue, at: i, expected: "',' or ']'")
            }
            return ReaderJSON(value: .array(items), offset: start)
        case UInt8(ascii: "\""):
            return ReaderJSON(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "t") where literal("true"): return ReaderJSON(value: .bool(true), offset: start)
        case UInt8(ascii: "f") where literal("false"): return ReaderJSON(value: .bool(false), offset: start)
        case UInt8(ascii: "n") where literal("null"): return ReaderJSON(value: .null, offset: start)
        case UInt8(ascii: "N") where literal("NaN"): return ReaderJSON(value: .number(.nan, integer: nil), offset: start)
        case UInt8(ascii: "I") where literal("Infinity"): return ReaderJSON(value: .number(.infinity, integer: nil), offset: start)
        case UInt8(ascii: "-") where literal("-Infinity"): return ReaderJSON(value: .number(-.infinity, integer: nil), offset: start)
        case UInt8(ascii: "-"), 0x30...0x39:
            return ReaderJSON(value: try parseNumber(), offset: start)
        default:
            throw error(.badNumber, at: start, expected: "a JSON value (number, string, object, array, true, false, null)")
        }
    }

    /// `-? digits (. digits)? ([eE] [+-]? digits)?`, read by `NumberParser` (so a value is the
    /// same double every other Motus reader gives for the same text), with the exact value
    /// kept for integer literals.
    mutating func parseNumber() throws(InputError) -> ReaderJSON.Value {
        let s = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
        if i == digitsStart { throw error(.badNumber, at: s, expected: "a JSON value (number, string, object, array, true, false, null)") }
        var integral = true
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            let f = i
            while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            if i == f { throw error(.badNumber, at: s, expected: "digits after '.'") }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            integral = false
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            let f = i
            while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            if i == f { throw error(.badNumber, at: s, expected: "exponent digits") }
        }
        if i < bytes.count && Self.isTokenByte(bytes[i]) {
            throw error(.badNumber, at: i, expected: "',', ']', '}' or white space after the number")
        }
        guard let d = NumberParser.parseDouble(bytes, s, i) else { throw error(.badNumber, at: s, expected: "a JSON number") }
        var exact: Int64? = nil
        if integral && i - digitsStart <= 19 {
            // Accumulated with the literal's sign, so Int64.min fits too.
            let negative = digitsStart > s
            var v: Int64 = 0, ok = true
            var k = digitsStart
            while k < i {
                let d = Int64(bytes[k] - 0x30)
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                if o1 || o2 { ok = false; break }
                v = a; k += 1
            }
            if ok { exact = v }
        }
        return .number(d, integer: exact)
    }

    mutating func parseString() throws(InputError) -> String {
        let start = i
        i += 1  // opening quote
        // Most strings (keys, names) have no escape: make the String straight from the bytes.
        var k = i
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<k]), as: UTF8.self)
                i = k + 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error(.badValue, at: k, expected: "no control character inside a string") }
            k += 1
        }
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[i..<k]))
        i = k
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if b == UInt8(ascii: "\\") {
                guard i + 1 < bytes.count else { break }
                let c = bytes[i + 1]
                i += 2
                switch c {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(at: i)
                    i += 4
                    if scalar >= 0xD800 && scalar < 0xDC00, i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        let low = try hex4(at: i + 2)
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        }
                    }
                    let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: String(Character(u)).utf8)
                default:
                    throw error(.badValue, at: i - 2, expected: "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                }
                continue
            }
            if b < 0x20 { throw error(.badValue, at: i, expected: "no control character inside a string") }
            out.append(b)
            i += 1
        }
        throw error(.truncated, at: start, expected: "a closing '\"'")
    }

    func hex4(at k: Int) throws(InputError) -> UInt32 {
        guard k + 4 <= bytes.count else { throw error(.truncated, at: k, expected: "four hex digits") }
        var v: UInt32 = 0
        for j in k..<(k + 4) {
            let b = bytes[j]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error(.badValue, at: j, expected: "a hex digit")
            }
            v = v << 4 | d
        }
        return v
    }
}
