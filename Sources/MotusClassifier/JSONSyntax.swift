import MotusCore

/// Finds the first syntax error in JSON text (RFC 8259), for messages that say where it is:
/// `JSONDecoder` only says that the text is not valid. Validation only, nothing is built; nesting
/// deeper than `maxDepth` is itself reported, so the recursion is bounded.
enum JSONSyntax {
    struct Problem: Equatable {
        /// 1-based line, and column in bytes from the start of the line.
        var line: Int
        var column: Int
        /// The text at the problem (up to 20 bytes), "" at the end of the text.
        var found: String
        var expected: String
    }

    static let maxDepth = 512

    /// The first problem in `bytes`, nil when it is one valid JSON value (white space around it).
    static func firstProblem(_ bytes: [UInt8]) -> Problem? {
        var s = Scanner(b: bytes)
        do throws(Failure) {
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { s.i = 3 }
            try s.value(depth: 0)
            s.space()
            if s.i < bytes.count { throw Failure(offset: s.i, expected: "nothing after the JSON value") }
            return nil
        } catch {
            var line = 1, lineStart = 0
            for k in 0..<min(error.offset, bytes.count) where bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
            var end = min(bytes.count, error.offset + 20)
            if let nl = bytes[min(error.offset, end)..<end].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { end = nl }
            var found = error.offset < bytes.count ? String(decoding: bytes[error.offset..<end], as: UTF8.self) : ""
            // A line end right at the problem is shown as a visible escape.
            if found.isEmpty && error.offset < bytes.count { found = String(decoding: bytes[error.offset...error.offset], as: UTF8.self).escapingControlCharacters }
            return Problem(line: line, column: error.offset - lineStart + 1, found: found, expected: error.expected)
        }
    }

    struct Failure: Error { var offset: Int; var expected: String }

    struct Scanner {
        let b: [UInt8]
        var i = 0

        mutating func space() { while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }

        func peek() -> UInt8? { i < b.count ? b[i] : nil }

        mutating func expect(_ c: UInt8, _ what: String) throws(Failure) {
            guard peek() == c else { throw Failure(offset: i, expected: what) }
            i += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            space()
            guard let c = peek() else { throw Failure(offset: i, expected: "a JSON value (the text ends here)") }
            switch c {
            case UInt8(ascii: "{"):
                guard depth < JSONSyntax.maxDepth else { throw Failure(offset: i, expected: "objects and arrays nested at most \(JSONSyntax.maxDepth) deep") }
                i += 1; space()
                if peek() == UInt8(ascii: "}") { i += 1; return }
                while true {
                    space()
                    guard peek() == UInt8(ascii: "\"") else { throw Failure(offset: i, expected: "a member name in double quotes") }
                    try string()
                    space()
                    try expect(UInt8(ascii: ":"), "':' after the member name")
                    try value(depth: depth + 1)
                    space()
                    if peek() == UInt8(ascii: ",") { i += 1; continue }
                    try expect(UInt8(ascii: "}"), "',' or '}' after a member")
                    return
                }
            case UInt8(ascii: "["):
                guard depth < JSONSyntax.maxDepth else { throw Failure(offset: i, expected: "objects and arrays nested at most \(JSONSyntax.maxDepth) deep") }
                i += 1; space()
                if peek() == UInt8(ascii: "]") { i += 1; return }
                while true {
                    try value(depth: depth + 1)
                    space()
                    if peek() == UInt8(ascii: ",") { i += 1; continue }
                    try expect(UInt8(ascii: "]"), "',' or ']' after an element")
                    return
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw Failure(offset: i, expected: "a JSON value (object, array, string, number, true, false or null)")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            let start = i
            for c in word.utf8 {
                guard peek() == c else { throw Failure(offset: start, expected: "a JSON value (\(word)?)") }
                i += 1
            }
        }

        mutating func digits() -> Int {
            let s = i
            while let c = peek(), c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }

        mutating func number() throws(Failure) {
            let start = i
            if peek() == UInt8(ascii: "-") { i += 1 }
            if peek() == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { throw Failure(offset: start, expected: "a number") }
            if peek() == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw Failure(offset: i, expected: "digits after the decimal point") }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                i += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw Failure(offset: i, expected: "digits of the exponent") }
            }
        }

        mutating func string() throws(Failure) {
            let start = i
            i += 1
            while true {
                guard let c = peek() else { throw Failure(offset: start, expected: "a closing '\"' for this string") }
                if c == UInt8(ascii: "\"") { i += 1; return }
                if c < 0x20 { throw Failure(offset: i, expected: "no control character inside a string (write \\n, \\t …)") }
                if c == UInt8(ascii: "\\") {
                    i += 1
                    guard let e = peek() else { throw Failure(offset: start, expected: "a closing '\"' for this string") }
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 1
                    case UInt8(ascii: "u"):
                        i += 1
                        for _ in 0..<4 {
                            guard let h = peek(), (h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102) else {
                                throw Failure(offset: i, expected: "four hexadecimal digits after \\u")
                            }
                            i += 1
                        }
                    default: throw Failure(offset: i - 1, expected: "an escape \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
                    }
                    continue
                }
                i += 1
            }
        }
    }
}
