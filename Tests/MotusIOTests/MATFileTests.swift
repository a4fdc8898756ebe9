import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Builds Level-5 MAT-files byte by byte, in either byte order, following the MathWorks
/// "MAT-File Format" document: header, tags (normal and small), padding, miMATRIX
/// sub-elements, and miCOMPRESSED elements (zlib with stored blocks, written here).
struct MATBuilder {
    let big: Bool

    func u16(_ v: UInt16) -> [UInt8] { big ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        return big ? le.reversed() : le
    }
    func u64(_ v: UInt64) -> [UInt8] {
        let le = (0..<8).map { UInt8(v >> (8 * UInt64($0)) & 0xFF) }
        return big ? le.reversed() : le
    }
    func i32(_ v: Int32) -> [UInt8] { u32(UInt32(bitPattern: v)) }

    func header(_ text: String = "MATLAB 5.0 MAT-file, Platform: motus-test, Created on: now",
                version: UInt16 = 0x0100) -> [UInt8] {
        var h = Array(text.utf8)
        h += [UInt8](repeating: 0x20, count: 116 - h.count)
        h += [UInt8](repeating: 0, count: 8)
        h += u16(version)
        h += big ? Array("MI".utf8) : Array("IM".utf8)
        return h
    }

    /// A data element; payloads of up to 4 bytes use the small format unless `small` is false.
    func element(_ type: Int, _ payload: [UInt8], small: Bool = true) -> [UInt8] {
        if small && payload.count <= 4 {
            return u32(UInt32(payload.count) << 16 | UInt32(type)) + payload + [UInt8](repeating: 0, count: 4 - payload.count)
        }
        let pad = (8 - payload.count % 8) % 8
        return u32(UInt32(type)) + u32(UInt32(payload.count)) + payload + [UInt8](repeating: 0, count: pad)
    }

    func doubles(_ v: [Double]) -> [UInt8] { v.flatMap { u64($0.bitPattern) } }

    /// An miMATRIX element: flags, dimensions, name, then `body` (already-built elements).
    func matrix(_ name: String, cls: Int, flags: UInt32 = 0, dims: [Int32], _ body: [UInt8]...) -> [UInt8] {
        let content = element(6, u32(flags << 8 | UInt32(cls)) + u32(0), small: false)
            + element(5, dims.flatMap(i32)) + element(1, Array(name.utf8)) + body.joined()
        return element(14, Array(content), small: false)
    }

    /// An miCOMPRESSED element holding `inner`: zlib with stored blocks of at most `block` bytes.
    func compressed(_ inner: [UInt8], block: Int = 40) -> [UInt8] {
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(block, inner.count - i)
            let last = i + n == inner.count
            z.append(last ? 1 : 0)
            z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += inner[i..<(i + n)]
            i += n
        } while i < inner.count
        var a: UInt32 = 1, b: UInt32 = 0
        for x in inner { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        z += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return u32(15) + u32(UInt32(z.count)) + z   // compressed elements are not padded
    }
}

@Suite("MAT-file reader")
struct MATFileTests {
    /// Every kind of variable the reader handles, built for one byte order.
    static func variables(_ m: MATBuilder) -> [[UInt8]] {
        let utf16 = Array("héllo".utf16).flatMap { m.u16($0) }
        let utf8 = Array("µT ü".utf8)
        return [
            // 2×3 doubles, column-major.
            m.matrix("a", cls: 6, dims: [2, 3], m.element(9, m.doubles([1, 2, 3, 4, 5, 6.5]))),
            // Class double stored as uint8 (MATLAB saves small integers that way), small element.
            m.matrix("b", cls: 6, dims: [1, 3], m.element(2, [1, 2, 250])),
            // int16 in a small element.
            m.matrix("c", cls: 10, dims: [2, 1], m.element(3, m.u16(UInt16(bitPattern: -3)) + m.u16(7))),
            m.matrix("d", cls: 7, dims: [1, 2], m.element(7, m.u32(Float(1.5).bitPattern) + m.u32(Float(-2.25).bitPattern))),
            m.matrix("e", cls: 14, dims: [1, 2], m.element(12, m.u64(UInt64(bitPattern: -(1 << 62) - 1)) + m.u64(5))),
            m.matrix("f", cls: 15, dims: [1, 1], m.element(13, m.u64(.max))),
            m.matrix("flag", cls: 9, flags: 0x02, dims: [3, 1], m.element(2, [1, 0, 1])),
            m.matrix("z", cls: 6, flags: 0x08, dims: [1, 2], m.element(9, m.doubles([1, 3])), m.element(9, m.doubles([2, -4]))),
            m.matrix("s", cls: 4, dims: [1, 5], m.element(4, utf16)),
            m.matrix("u", cls: 4, dims: [1, 4], m.element(16, utf8)),
            // 2×3 char matrix ["abc"; "def"], column-major.
            m.matrix("m", cls: 4, dims: [2, 3], m.element(4, Array("adbecf".utf16).flatMap { m.u16($0) })),
            // struct with fields x = 4 and label = 'hi'.
            m.matrix("st", cls: 2, dims: [1, 1], m.element(5, m.i32(8)),
                     m.element(1, Array("x".utf8) + [0, 0, 0, 0, 0, 0, 0] + Array("label".utf8) + [0, 0, 0]),
                     m.matrix("", cls: 6, dims: [1, 1], m.element(9, m.doubles([4]))),
                     m.matrix("", cls: 4, dims: [1, 2], m.element(4, Array("hi".utf16).flatMap { m.u16($0) }))),
            // cell {7, 'q', []}.
            m.matrix("ce", cls: 1, dims: [1, 3],
                     m.matrix("", cls: 6, dims: [1, 1], m.element(9, m.doubles([7]))),
                     m.matrix("", cls: 4, dims: [1, 1], m.element(4, m.u16(0x71))),
                     m.element(14, [], small: false)),
            // sparse 2×2 with one value: skipped, listed.
            m.matrix("sp", cls: 5, dims: [2, 2], m.element(5, m.i32(1)), m.element(5, m.i32(0) + m.i32(1) + m.i32(1)),
                     m.element(9, m.doubles([3]))),
            m.matrix("empty", cls: 6, dims: [0, 0], m.element(9, [], small: false)),
        ]
    }

    static func file(big: Bool, compressed: Bool) -> [UInt8] {
        let m = MATBuilder(big: big)
        return m.header() + variables(m).flatMap { compressed ? m.compressed($0) : $0 }
    }

    @Test("every variable kind, both byte orders, plain and compressed",
          arguments: [(false, false), (true, false), (false, true), (true, true)])
    func variables(big: Bool, compressed: Bool) throws {
        let f = try MATFile.decode(Self.file(big: big, compressed: compressed), file: "t.mat")
        #expect(f.byteOrder == (big ? .bigEndian : .littleEndian))
        #expect(f.headerText == "MATLAB 5.0 MAT-file, Platform: motus-test, Created on: now")
        #expect(f.names == ["a", "b", "c", "d", "e", "f", "flag", "z", "s", "u", "m", "st", "ce", "empty"])
        let a = try #require(f["a"])
        #expect(a.arrayClass == .double && a.dimensions == [2, 3] && a.values == [1, 2, 3, 4, 5, 6.5])
        #expect(a.value(1, 2) == 6.5 && a.rows == 2 && a.columns == 3 && Array(a.column(1)) == [3, 4])
        #expect(f["b"]?.values == [1, 2, 250] && f["b"]?.arrayClass == .double)
        #expect(f["c"]?.values == [-3, 7] && f["c"]?.arrayClass == .int16)
        #expect(f["d"]?.values == [1.5, -2.25] && f["d"]?.arrayClass == .single)
        #expect(f["e"]?.values == [Double(-(1 << 62) - 1), 5])
        #expect(f["e"]?.inexactIntegers == 1)   // -(2^62) - 1 is not a Double
        #expect(f["f"]?.values == [Double(UInt64.max)] && f["f"]?.inexactIntegers == 1)
        let flag = try #require(f["flag"])
        #expect(flag.isLogical && flag.values == [1, 0, 1] && flag.dimensions == [3, 1] && flag.summary == "logical 3×1")
        let z = try #require(f["z"])
        #expect(z.isComplex && z.values == [1, 3] && z.imaginary == [2, -4])
        #expect(f["s"]?.text == "héllo")
        #expect(f["u"]?.text == "µT ü")
        #expect(f["m"]?.text == "abc\ndef")
        let st = try #require(f["st"])
        #expect(st.arrayClass == .structure && st.fieldNames == ["x", "label"])
        #expect(st.field("x")?.values == [4] && st.field("label")?.text == "hi" && st.field("nope") == nil)
        let ce = try #require(f["ce"])
        #expect(ce.elements.count == 3 && ce.elements[0].values == [7] && ce.elements[1].text == "q")
        #expect(ce.elements[2].dimensions == [0, 0])
        #expect(f["sp"] == nil)
        #expect(f.skipped == [MATSkipped(name: "sp", arrayClass: .sparse, dimensions: [2, 2])])
        #expect(f["empty"]?.values == [] && f["empty"]?.count == 0)
    }

    @Test("only the variables asked for", arguments: [false, true])
    func only(compressed: Bool) throws {
        let f = try MATFile.decode(Self.file(big: false, compressed: compressed), options: .init(only: ["a", "s", "sp"]))
        #expect(f.names == ["a", "s"])
        #expect(f.skipped.map(\.name) == ["sp"])
    }

    @Test("variable names without decoding", arguments: [(false, false), (true, true)])
    func names(big: Bool, compressed: Bool) throws {
        let t = TempDir()
        let p = t.path + "/n.mat"
        #expect(FileManager.default.createFile(atPath: p, contents: Data(Self.file(big: big, compressed: compressed))))
        #expect(try MATFile.variableNames(path: p) == ["a", "b", "c", "d", "e", "f", "flag", "z", "s", "u", "m", "st", "ce", "sp", "empty"])
        #expect(try MATFile.read(path: p).names.count == 14)
    }

    @Test("nested unsupported arrays are listed by path")
    func nestedSkipped() throws {
        let m = MATBuilder(big: false)
        let sparse = m.matrix("", cls: 5, dims: [1, 1], m.element(5, m.i32(0)), m.element(5, m.i32(0) + m.i32(1)), m.element(9, m.doubles([1])))
        let bytes = m.header() + m.matrix("c", cls: 1, dims: [1, 2], m.matrix("", cls: 6, dims: [1, 1], m.element(9, m.doubles([1]))), sparse)
        let f = try MATFile.decode(bytes)
        #expect(f["c"]?.elements[1].isDecoded == false)
        #expect(f.skipped.map(\.description) == ["c{2} (sparse 1×1)"])
    }

    @Test("the loader refuses a MAT-file that is not a BROAD trial, naming its variables")
    func loaderRefusesOtherMAT() throws {
        let t = TempDir()
        let p = t.path + "/other.mat"
        #expect(FileManager.default.createFile(atPath: p, contents: Data(Self.file(big: false, compressed: true))))
        #expect(DatasetFormat.probe(path: p) == nil)
        let e = inputError { _ = try RecordingLoader.load(path: p) }
        #expect(e?.reason == .badValue && e?.found.hasPrefix("variables a, b, c") == true && e?.expected.contains("BROAD") == true)
        // A damaged one gets the MAT-file error instead.
        #expect(FileManager.default.createFile(atPath: p, contents: Data(Self.file(big: false, compressed: true).prefix(60))))
        #expect(inputError { _ = try RecordingLoader.summarize(path: p) }?.reason == .truncated)
        // Cut inside the second variable: the listing points at it.
        let full = Self.file(big: true, compressed: false), first = Self.variables(MATBuilder(big: true))[0].count
        #expect(FileManager.default.createFile(atPath: p, contents: Data(full.prefix(128 + first + 20))))
        let e2 = inputError { _ = try MATFile.variableNames(path: p) }
        #expect(e2?.location.column == 128 + first && e2?.reason == .truncated && e2?.expected.contains("(12 bytes left)") == true)
    }

    /// MATLAB Mobile's sensor log: timetables are opaque MATLAB objects (class 17, no
    /// dimensions element; the type system and class names follow the array name). Here their
    /// metadata is not an object reference, so they stay undecoded and the log reader says so.
    @Test("a sensor log whose timetables cannot be decoded is an error naming the variable")
    func matlabMobileLog() throws {
        let m = MATBuilder(big: false)
        func opaque(_ name: String) -> [UInt8] {
            let content = m.element(6, m.u32(17) + m.u32(0), small: false) + m.element(1, Array(name.utf8))
                + m.element(1, Array("MCOS".utf8)) + m.element(1, Array("timetable".utf8))
                + m.matrix("", cls: 13, dims: [6, 1], m.element(6, (0..<6).flatMap { _ in m.u32(1) }, small: false))
            return m.element(14, content, small: false)
        }
        let t = TempDir()
        let p = t.path + "/sensorlog_20260101_120000.mat"
        #expect(FileManager.default.createFile(atPath: p, contents: Data(m.header() + opaque("Acceleration") + opaque("AngularVelocity"))))
        #expect(try MATFile.variableNames(path: p) == ["Acceleration", "AngularVelocity"])
        #expect(try MATFile.read(path: p).skipped.map(\.description) == ["Acceleration (opaque)", "AngularVelocity (opaque)"])
        let e = inputError { _ = try RecordingLoader.load(path: p) }
        #expect(e?.description == "\(p): found ''Acceleration' opaque, not decoded', expected a variable 'Acceleration'")
    }

    // MARK: - Errors

    func error(_ bytes: [UInt8]) -> InputError? { inputError { _ = try MATFile.decode(bytes, file: "bad.mat") } }

    @Test("bad headers say what they are")
    func badHeaders() {
        let m = MATBuilder(big: false)
        var e = error(Array(m.header().prefix(100)))
        #expect(e?.reason == .truncated && e?.location.column == 100)
        var h = m.header()
        h[126] = UInt8(ascii: "X")
        e = error(h)
        #expect(e?.reason == .badHeader && e?.location.column == 126 && e?.expected.contains("'IM'") == true)
        e = error(m.header(version: 0x0200))
        #expect(e?.expected.contains("7.3") == true && e?.location.column == 124)
        h = m.header()
        h.replaceSubrange(0..<6, with: [0, 0, 0, 0, 1, 0])   // a Level-4 file starts with a numeric type
        e = error(h)
        #expect(e?.reason == .badHeader && e?.expected.contains("Level-4") == true)
        #expect(error(m.header())?.reason == nil)   // a header alone is an empty, valid file
    }

    /// Found by fuzzing (fuzz/findings/fuzz-mat/): a 218-byte file declaring a char array of
    /// 553,779,454×0 made the reader reserve 2 GB for the newlines between its empty rows.
    @Test("a char array without characters is empty text, however many rows it declares")
    func emptyCharArrayWithManyRows() throws {
        for big in [false, true] {
            let m = MATBuilder(big: big)
            for rows in [Int32(1_000_000), Int32.max] {
                let bytes = m.header() + m.matrix("t", cls: 4, dims: [rows, 0], m.element(4, [], small: false))
                let f = try MATFile.decode(bytes, file: "rows.mat")
                #expect(f["t"]?.text == "")
                #expect(f["t"]?.dimensions == [Int(rows), 0])
            }
        }
        let found = TestFiles.packageRoot + "/fuzz/findings/fuzz-mat/char-array-huge-rows-no-columns.mat"
        // The char array now decodes at once; the file's next element is junk, reported there.
        let e = inputError { _ = try MATFile.read(path: found) }
        #expect(e?.location.column == 208 && e?.found == "data type 0", "\(String(describing: e))")
    }

    @Test("bad elements: found and expected at the element's byte")
    func badElements() {
        let m = MATBuilder(big: true)
        let a = m.matrix("a", cls: 6, dims: [2, 2], m.element(9, m.doubles([1, 2, 3])))
        // Too few values for the dimensions.
        var e = error(m.header() + a)
        #expect(e?.reason == .badValue && e?.expected.contains("4 values") == true && e?.found == "24 bytes of miDOUBLE")
        #expect(e?.location.column == 128 + 8 + 16 + 16 + 8 + 8)   // the data element's payload
        #expect(e?.description.hasPrefix("bad.mat at byte 184: found '24 bytes of miDOUBLE'") == true)
        // The same inside a compressed element: located at the element, offset named.
        e = error(m.header() + m.compressed(a))
        #expect(e?.location.column == 128)
        #expect(e?.expected.contains("at byte 56 of the element compressed at byte 128") == true)
        // An element that runs past the end of the file.
        let good = m.matrix("a", cls: 6, dims: [1, 1], m.element(9, m.doubles([1])))
        e = error(m.header() + good + Array(good.prefix(20)))
        #expect(e?.reason == .truncated && e?.location.column == 128 + good.count)
        // A top-level element that is not a variable.
        e = error(m.header() + m.element(9, m.doubles([1])))
        #expect(e?.found == "data type 9")
        // Damaged compressed data: the zlib error points into the file.
        var c = m.compressed(good)
        c[8 + 2 + 1] ^= 0xFF   // first stored block's LEN
        e = error(m.header() + c)
        #expect(e?.location.column == 128 + 8 + 2 + 1)
        // Names must be unique.
        e = error(m.header() + good + good)
        #expect(e?.found == "a second variable 'a'")
        // Cells nested deeper than the limit.
        var deep = m.matrix("", cls: 6, dims: [1, 1], m.element(9, m.doubles([1])))
        for _ in 0..<70 { deep = m.matrix("", cls: 1, dims: [1, 1], deep) }
        e = error(m.header() + m.matrix("x", cls: 1, dims: [1, 1], deep))
        #expect(e?.found.contains("nested") == true)
        // Dimensions that overflow.
        e = error(m.header() + m.matrix("x", cls: 6, dims: [Int32.max, Int32.max, Int32.max], m.element(9, [])))
        #expect(e?.found == "dimensions overflowing")
        // Text that is not UTF-8.
        e = error(m.header() + m.matrix("t", cls: 4, dims: [1, 2], m.element(16, [0xC3, 0x28])))
        #expect(e?.found == "bytes that are not UTF-8")
    }
}
