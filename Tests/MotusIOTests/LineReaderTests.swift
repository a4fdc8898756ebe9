import Testing
@testable import MotusIO
import MotusCore

@Suite struct LineReaderTests {
    func lines(_ text: String, chunk: Int) throws -> [String] {
        let p = TestFiles.temp(text)
        let r = try LineReader(path: p, chunkBytes: chunk)
        var out: [String] = []
        var numbers: [Int] = []
        try r.forEachLine { line, n in out.append(line.text(0, line.count)); numbers.append(n) }
        #expect(numbers == Array(1...max(1, out.count)).prefix(out.count).map { $0 })
        return out
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func splitsAcrossChunkBoundaries(chunk: Int) throws {
        let text = "first line\r\nsecond,with,fields\n\nfourth is a much longer line than the chunk size" + String(repeating: "x", count: 100) + "\nlast without newline"
        let got = try lines(text, chunk: chunk)
        #expect(got == ["first line", "second,with,fields", "", "fourth is a much longer line than the chunk size" + String(repeating: "x", count: 100), "last without newline"])
    }

    @Test func dropsByteOrderMark() throws {
        #expect(try lines("\u{FEFF}code,weight\n1,2", chunk: 1 << 20) == ["code,weight", "1,2"])
    }

    @Test func missingFileIsAClearError() {
        #expect(throws: InputError.self) { _ = try LineReader(path: "/nonexistent/file.csv") }
        do { _ = try LineReader(path: "/nonexistent/file.csv") } catch {
            #expect(error.description == "/nonexistent/file.csv: found 'No such file or directory', expected a readable file")
        }
    }

    @Test func fieldSplitterHandlesQuotesAndSpaces() {
        var s = "a,\"b,c\",,\"d\"\"e\""
        let f = s.withUTF8 { FieldSplitter(delimiter: UInt8(ascii: ",")).strings($0) }
        #expect(f == ["a", "b,c", "", "d\"\"e"])
        var t = "  1.0   2.0 3.0  "
        let g = t.withUTF8 { FieldSplitter(delimiter: 0x20).strings($0) }
        #expect(g == ["1.0", "2.0", "3.0"])
    }
}
