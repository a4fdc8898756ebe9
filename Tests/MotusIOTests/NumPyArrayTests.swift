import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// `NumPyArray`: the bytes written are those NumPy writes, NumPy's own files read back
/// (versions 1.0 and 2.0), NaN and −0 survive, and every malformed file is one error at its byte.
struct NumPyArrayTests {
    /// `numpy.lib.format.write_array(f, numpy.array([[1.5, -2.0, 0.1], [nan, 3.25, -0.0]]),
    /// version=(1, 0))` with NumPy 2.4: NumPy's header for this shape is 128 bytes too.
    static let numpyV1 = hex("934e554d5059010076007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028322c2033292c207d202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a000000000000f83f00000000000000c09a9999999999b93f000000000000f87f0000000000000a400000000000000080")
    /// The same array written with `version=(2, 0)` (a 4-byte header length).
    static let numpyV2 = hex("934e554d50590200740000007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a000000000000f83f00000000000000c09a9999999999b93f000000000000f87f0000000000000a400000000000000080")

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = [], chars = Array(s.utf8)[...]
        while chars.count >= 2 { out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) ?? 0); chars = chars.dropFirst(2) }
        return out
    }

    static let values: [Double] = [1.5, -2.0, 0.1, .nan, 3.25, -0.0]

    @Test func writesTheBytesNumPyWrites() {
        let a = NumPyArray(rows: 2, columns: 3, values: Self.values)
        #expect(a.bytes == Self.numpyV1)
    }

    @Test func headerLengthDoesNotDependOnTheShape() {
        for (r, c) in [(0, 0), (0, 83), (1, 1), (123_456_789, 104), (Int.max, Int.max)] {
            let h = NumPyArray.header(rows: r, columns: c)
            #expect(h.count == NumPyArray.headerLength && h.count % 64 == 0 && h.last == 0x0A)
            #expect(String(decoding: h[10...], as: UTF8.self).contains("'shape': (\(r), \(c)), }"))
        }
    }

    @Test func readsNumPysFilesBitForBit() throws {
        for bytes in [Self.numpyV1, Self.numpyV2] {
            let a = try NumPyArray(bytes: bytes, file: "a.npy")
            #expect(a.rows == 2 && a.columns == 3)
            #expect(a.values.map(\.bitPattern) == Self.values.map(\.bitPattern))
            #expect(a[1, 0].isNaN && a[1, 2].sign == .minus && a[0, 2] == 0.1)
        }
    }

    @Test func oneDimensionIsOneColumn() throws {
        var bytes = NumPyArray.magic + [1, 0]
        var dict = Array("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }".utf8)
        dict += [UInt8](repeating: 0x20, count: 128 - 10 - 1 - dict.count) + [0x0A]
        bytes += [UInt8(dict.count), 0] + dict
        NumPyArray.appendLittleEndian([0.5, 2.0], to: &bytes)
        let a = try NumPyArray(bytes: bytes, file: "v.npy")
        #expect(a.rows == 2 && a.columns == 1 && a.values == [0.5, 2.0])
    }

    @Test func writtenFilesReadBack() throws {
        var values: [Double] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<(17 * 5) { values.append(Double(bitPattern: rng.next())) }  // every bit pattern, NaNs and infinities included
        let a = NumPyArray(rows: 17, columns: 5, values: values)
        let path = NSTemporaryDirectory() + "motus-npy-\(UUID().uuidString).npy"
        _ = FileManager.default.createFile(atPath: path, contents: Data(a.bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let b = try NumPyArray(path: path)
        #expect(b.rows == 17 && b.columns == 5 && b.values.map(\.bitPattern) == values.map(\.bitPattern))
    }

    /// Each malformed file: the reason, the byte offset and the text of the error.
    @Test func badFilesAreOneErrorAtTheirByte() {
        let good = Self.numpyV1
        func replacing(_ old: String, _ new: String) -> [UInt8] {
            let text = String(decoding: good[10..<128], as: UTF8.self).replacingOccurrences(of: old, with: new)
            var dict = Array(text.utf8)
            dict = Array(dict.prefix(117)) + [UInt8](repeating: 0x20, count: max(0, 117 - dict.count)) + [0x0A]
            return Array(good[0..<8]) + [UInt8(dict.count), 0] + dict + good[128...]
        }
        let cases: [([UInt8], InputError.Reason, Int, String)] = [
            ([], .emptyFile, 0, "expected the .npy magic string"),
            (Array("PK\u{3}\u{4}abcdefgh".utf8), .badHeader, 0, "found 'PK\\x03\\x04ab'"),
            (Array(good[0..<6]) + [4, 0] + good[8...], .badHeader, 6, "found 'version 4.0'"),
            (Array(good[0..<60]), .truncated, 60, "a header of 118 bytes from byte 10"),
            (Array(good.dropLast(3)), .truncated, 173, "found '45 bytes of data', expected 2 × 3 float64 values"),
            (good + [0, 0], .badValue, 176, "found '2 bytes after the data'"),
            (replacing("'<f8'", "'<f4'"), .badValue, 10, "found 'element type '<f4'', expected float64"),
            (replacing("False", "True "), .badValue, 10, "'fortran_order': True"),
            (replacing("(2, 3)", "(2, 3, 1)"), .badValue, 10, "shape of 3 dimensions"),
            (replacing("'descr'", "'dtype'"), .badHeader, 11, "expected the key 'descr', 'fortran_order' or 'shape'"),
            (replacing("(2, 3)", "(2, x)"), .badHeader, 64, "expected a dimension"),
            (replacing("(2, 3)", "(99999999999999999999, 3)"), .badHeader, 61, "a dimension that fits an Int"),
            (replacing("(2, 3)", "(4611686018427387904, 4)"), .truncated, 176, "4611686018427387904 × 4 float64 values"),
        ]
        for (bytes, reason, offset, text) in cases {
            do {
                _ = try NumPyArray(bytes: bytes, file: "bad.npy")
                Issue.record("no error for \(text)")
            } catch {
                #expect(error.reason == reason, "\(error)")
                #expect(error.location == .byteOffset(offset, in: "bad.npy"), "\(error)")
                #expect(error.description.contains(text), "\(error)")
            }
        }
    }
}
