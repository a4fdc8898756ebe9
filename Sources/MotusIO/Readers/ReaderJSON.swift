import MotusCore

/// A small byte-level JSON parser for the dataset readers (mPower device motion, IPOL
/// annotations). Unlike Foundation's, it accepts the bare `NaN`, `Infinity` and `-Infinity`
/// tokens that Python's `json.dump` writes (IPOL files have `"Weight": NaN`), reports errors as
/// `InputError` with line and column, and keeps each value's byte offset so that readers can
/// point at the element that is wrong.
struct ReaderJSON {
    enum Value {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([ReaderJSON])
        case object([(key: String, value: ReaderJSON)])
    }
    var value: Value
    /// Byte offset of the value's first character in the document.
    var offset: Int

    subscript(key: String) -> ReaderJSON? {
        if case .object(let members) = value {
            for m in members where m.key == key { return m.value }
        }
        return nil
    }
    var number: Double? { if case .number(let d) = value { return d }; return nil }
    var string: String? { if case .string(let s) = value { return s }; return nil }
    var array: [ReaderJSON]? { if case .array(let a) = value { return a }; return nil }
    var isNull: Bool { if case .null = value { return true }; return false }
    var isObject: Bool { if case .object = value { return true }; return false }
    var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A parsed document with what is needed to turn offsets into line:column.
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
        var p = ReaderJSONParser(path: path, bytes: bytes)
        self.root = try p.parseDocument()
    }

    /// Line and column (1-based, column in bytes) of a byte offset.
    func location(_ offset: Int) -> SourceLocation { ReaderJSONParser.location(path: path, bytes: bytes, offset: offset) }
    func location(_ node: ReaderJSON) -> SourceLocation { location(node.offset) }

    /// Up to 40 characters of the text at `node`, for messages.
    func snippet(_ node: ReaderJSON) -> String {
        let end = min(bytes.count, node.offset + 40)
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
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    static let maxDepth = 256

    init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }

    static func location(path: String, bytes: [UInt8], offset: Int) -> SourceLocation {
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
        let found = offset < bytes.count ? String(decoding: bytes[offset..<end], as: UTF8.self) : ""
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

    mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
        }
    }

    mutating func parseValue() throws(InputError) -> ReaderJSON {
        skipSpace()
        guard i < bytes.count else { throw error(.truncated, at: i, expected: "a JSON value") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"):
            depth += 1
            if depth > ReaderJSONParser.maxDepth { throw error(.badValue, at: i, expected: "less deeply nested JSON") }
            defer { depth -= 1 }
            i += 1
            var members: [(key: String, value: ReaderJSON)] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return ReaderJSON(value: .object(members), offset: start) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error(.badValue, at: i, expected: "a key in double quotes") }
                let key = try parseString()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error(.badValue, at: i, expected: "':' after a key") }
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
            if depth > ReaderJSONParser.maxDepth { throw error(.badValue, at: i, expected: "less deeply nested JSON") }
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
        default:
            // A bare token: number, true, false, null, NaN, Infinity, -Infinity.
            var e = i
            while e < bytes.count {
                let b = bytes[e]
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { break }
                e += 1
            }
            let token = bytes[i..<e]
            defer { i = e }
            if token.elementsEqual("true".utf8) { return ReaderJSON(value: .bool(true), offset: start) }
            if token.elementsEqual("false".utf8) { return ReaderJSON(value: .bool(false), offset: start) }
            if token.elementsEqual("null".utf8) { return ReaderJSON(value: .null, offset: start) }
            if token.elementsEqual("NaN".utf8) { return ReaderJSON(value: .number(.nan), offset: start) }
            if token.elementsEqual("Infinity".utf8) { return ReaderJSON(value: .number(.infinity), offset: start) }
            if token.elementsEqual("-Infinity".utf8) { return ReaderJSON(value: .number(-.infinity), offset: start) }
            // JSON numbers only (NumberParser would also take "nan"/"inf" words: refuse letters
            // other than an exponent marker first).
            var ok = e > i
            for b in token where !((b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")) { ok = false; break }
            let d: Double? = ok ? bytes.withUnsafeBufferPointer { NumberParser.parseDouble($0, i, e) } : nil
            guard let d else { throw error(.badNumber, at: start, expected: "a JSON value (number, string, object, array, true, false, null)") }
            return ReaderJSON(value: .number(d), offset: start)
        }
    }

    mutating func parseString() throws(InputError) -> String {
        let start = i
        i += 1  // opening quote
        var out: [UInt8] = []
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
                    out.append(contentsOf: Array(String(Character(u)).utf8))
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
