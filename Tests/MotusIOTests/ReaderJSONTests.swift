import Testing
import MotusCore
@testable import MotusIO

/// The one JSON parser, as the live recorder uses it: a buffer of one line or body, exact
/// integers, numbers written as strings, errors with line and column.
@Suite struct ReaderJSONTests {
    func parse(_ s: String) throws(InputError) -> ReaderJSON { try ReaderJSON.parse(Array(s.utf8), file: "<t>") }

    @Test func valuesAndExactIntegers() throws {
        let v = try parse(#" {"a":[1,-2.5e3,true,null,"x\"\u00e9\ud83d\ude00"],"t":1700000000123456768,"n":-9223372036854775808} "#)
        #expect(v["t"]?.integer == 1700000000123456768)
        #expect(v["t"]?.number == 1.700000000123456768e18)
        #expect(v["n"]?.integer == Int64.min)
        let a = try #require(v["a"]?.array)
        #expect(a[0].integer == 1 && a[1].number == -2500 && a[1].integer == nil)
        #expect(a[2].bool == true && a[3].isNull && a[3].bool == nil)
        #expect(a[4].string == "x\"é😀")
        #expect(v.members?.map(\.key) == ["a", "t", "n"])
        #expect(a[1].offset == 9)
        // Twenty digits do not fit Int64: the double stays, the exact value is nil.
        #expect(try parse("12345678901234567890").integer == nil)
    }

    @Test func looseNumbersAndIntegers() throws {
        let v = try parse(#"["1.5", "nan", "-Inf", "1700000000123456768", 2.0, 2.5, "x", true]"#)
        let a = try #require(v.array)
        #expect(a[0].looseNumber == 1.5 && a[0].number == nil)
        #expect(a[1].looseNumber?.isNaN == true && a[2].looseNumber == -.infinity)
        #expect(a[3].looseInteger == 1700000000123456768)
        #expect(a[4].looseInteger == 2 && a[5].looseInteger == nil)
        #expect(a[6].looseNumber == nil && a[7].looseNumber == nil)
        #expect(try parse("[NaN, Infinity, -Infinity]").array?.map { $0.number?.isFinite } == [false, false, false])
    }

    /// A line inside a larger buffer parses in place; offsets and errors count from its start.
    @Test func bufferSlices() throws {
        let text = Array(#"xx{"acc":[1,2,3]}{"t":"#.utf8)
        try text.withUnsafeBufferPointer { p in
            let v = try ReaderJSON.parse(UnsafeBufferPointer(rebasing: p[2..<17]), file: "<line>")
            #expect(v["acc"]?.array?.compactMap(\.number) == [1, 2, 3] && v["acc"]?.offset == 7)
            let (objects, rest) = ReaderJSON.splitObjects(p)
            #expect(objects == [2..<17] && rest == 17)
            #expect { _ = try ReaderJSON.parse(UnsafeBufferPointer(rebasing: p[17...]), file: "<line>") } throws: { e in
                (e as? InputError)?.reason == .truncated && (e as? InputError)?.location == SourceLocation(file: "<line>", line: 1, column: 6)
            }
        }
    }

    @Test func errorsSayWhereAndWhat() {
        func error(_ s: String) -> InputError? {
            do { _ = try parse(s); return nil } catch { return error }
        }
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01x", "[1] 2", "\"\u{01}\"", "tru", "nan", "[1.]", "[1e]", "[-]", "+1", "[1.5.3]", "{\"a\":1:}", "\"\\x\""] {
            #expect(error(bad) != nil, "\(bad) should fail")
        }
        #expect(error("")?.reason == .emptyFile)
        #expect(error("[1,\n 2x]") == InputError(.badNumber, at: SourceLocation(file: "<t>", line: 2, column: 3), found: "x]", expected: "',', ']', '}' or white space after the number"))
        #expect(error("{\"a\" 1}")?.expected == "':' after a key")
        #expect(error("[1.]")?.expected == "digits after '.'")
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(error(deep)?.expected == "JSON nested at most \(ReaderJSON.maxDepth) deep")
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(error(ok) == nil)
    }
}
