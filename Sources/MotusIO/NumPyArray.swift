#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// A matrix of doubles in NumPy's `.npy` format, version 1.0: the magic `\x93NUMPY`, the
/// version bytes, a little-endian `UInt16` header length, a Python-literal header
/// (`{'descr': '<f8', 'fortran_order': False, 'shape': (rows, columns), }`) padded with spaces
/// and a line end so that the data starts on a 64-byte boundary, then the values as
/// little-endian IEEE 754 float64 in row-major order (NaN stays NaN). `numpy.load` reads it.
///
/// Writing is in pieces so that a matrix of unknown height can be streamed to a file:
/// `header(rows:columns:)` has the same length (`headerLength`) whatever the shape, so a writer
/// puts a header for 0 rows first, appends `littleEndianBytes` as rows come, and writes the
/// header again over the first one with the final row count. Reading (`init(bytes:file:)`)
/// takes versions 1.0, 2.0 and 3.0 of a 2-D (or 1-D) float64 C-order array, as NumPy writes
/// one, and anything else is an `InputError` at the byte where it is.
///
/// Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
public struct NumPyArray: Sendable, Equatable {
    /// Rows (the first dimension).
    public var rows: Int
    /// Columns (the second dimension; 1 for a 1-D array).
    public var columns: Int
    /// The values, row-major: row `i`, column `j` is `values[i * columns + j]`.
    public var values: [Double]

    /// A matrix from its shape and row-major values (`values.count` must be `rows × columns`).
    public init(rows: Int, columns: Int, values: [Double]) {
        precondition(rows >= 0 && columns >= 0 && values.count == rows * columns, "NumPyArray: shape does not match the values")
        self.rows = rows; self.columns = columns; self.values = values
    }

    /// The value at row `i`, column `j`.
    public subscript(i: Int, j: Int) -> Double { values[i * columns + j] }

    /// Bytes before the data in every file `header` makes: a multiple of 64 that holds the
    /// header of any 2-D shape whose dimensions fit an `Int`.
    public static let headerLength = 128

    /// The magic string every `.npy` file starts with.
    static let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)

    /// The `.npy` header (magic, version 1.0, length, dictionary) of a `rows × columns` float64
    /// C-order matrix, `headerLength` bytes long whatever the shape.
    public static func header(rows: Int, columns: Int) -> [UInt8] {
        precondition(rows >= 0 && columns >= 0)
        var dict = Array("{'descr': '<f8', 'fortran_order': False, 'shape': (\(rows), \(columns)), }".utf8)
        let room = headerLength - magic.count - 4 - 1
        dict += [UInt8](repeating: UInt8(ascii: " "), count: room - dict.count)
        dict.append(UInt8(ascii: "\n"))
        let length = UInt16(dict.count)
        return magic + [1, 0, UInt8(length & 0xff), UInt8(length >> 8)] + dict
    }

    /// `values` as little-endian float64 bytes, appended to `out`.
    public static func appendLittleEndian<C: Collection>(_ values: C, to out: inout [UInt8]) where C.Element == Double {
        out.reserveCapacity(out.count + 8 * values.count)
        for v in values {
            let bits = v.bitPattern
            for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
        }
    }

    /// The whole file: `header` then the values.
    public var bytes: [UInt8] {
        var out = Self.header(rows: rows, columns: columns)
        Self.appendLittleEndian(values, to: &out)
        return out
    }

    /// Reads the `.npy` file at `path` (`init(bytes:file:)`).
    ///
    /// - Throws: `InputError` `.unreadable` when the file cannot be read, else as `init(bytes:file:)`.
    public init(path: String) throws(InputError) {
        try self.init(bytes: try Self.fileBytes(path), file: path)
    }

    /// Every byte of the file at `path`.
    static func fileBytes(_ path: String) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: String(cString: strerror(errno)), expected: "a readable .npy file")
        }
        defer { _ = Posix.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Posix.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(.unreadable, at: .byteOffset(out.count, in: path), found: String(cString: strerror(errno)), expected: "a readable .npy file")
            }
            if n == 0 { return out }
            out += chunk[0..<n]
        }
    }

    /// Reads a `.npy` file's bytes: a float64 (`<f8`, or `|f8`/`=f8`/`f8` as little-endian
    /// machines write it) array in C order, 2-D, or 1-D (read as one column). `file` names the
    /// input in errors.
    ///
    /// - Throws: `InputError` at the byte offset of the problem: `.badHeader` for a missing
    ///   magic string, an unknown version or a header that is not the dictionary described,
    ///   `.badValue` for another element type, Fortran order or a shape of other than 1 or 2
    ///   dimensions, `.truncated` for data shorter than the shape needs, `.badValue` for bytes
    ///   after the data.
    public init(bytes b: [UInt8], file: String) throws(InputError) {
        func fail(_ reason: InputError.Reason, _ at: Int, _ found: String, _ expected: String) -> InputError {
            InputError(reason, at: .byteOffset(at, in: file), found: found, expected: expected)
        }
        guard b.count >= 10, Array(b[0..<6]) == Self.magic else {
            throw fail(b.isEmpty ? .emptyFile : .badHeader, 0, Self.shown(b.prefix(6)), "the .npy magic string \\x93NUMPY")
        }
        let major = b[6], minor = b[7]
        let headerStart: Int, headerBytes: Int
        switch major {
        case 1:
            headerStart = 10; headerBytes = Int(b[8]) | Int(b[9]) << 8
        case 2, 3:
            guard b.count >= 12 else { throw fail(.truncated, b.count, "end of file", "a 4-byte header length") }
            headerStart = 12; headerBytes = Int(b[8]) | Int(b[9]) << 8 | Int(b[10]) << 16 | Int(b[11]) << 24
        default:
            throw fail(.badHeader, 6, "version \(major).\(minor)", "version 1.0, 2.0 or 3.0")
        }
        guard b.count >= headerStart + headerBytes else {
            throw fail(.truncated, b.count, "end of file", "a header of \(headerBytes) bytes from byte \(headerStart)")
        }
        let text = String(decoding: b[headerStart..<(headerStart + headerBytes)], as: UTF8.self)
        let dict = try Self.parseHeader(text) { (what, offset, found) in fail(.badHeader, headerStart + offset, found, what) }
        guard ["<f8", "|f8", "=f8", "f8", "<d"].contains(dict.descr) else {
            throw fail(.badValue, headerStart, "element type '\(dict.descr)'", "float64 ('<f8')")
        }
        guard !dict.fortranOrder else { throw fail(.badValue, headerStart, "'fortran_order': True", "C order (False)") }
        let rows: Int, columns: Int
        switch dict.shape.count {
        case 1: rows = dict.shape[0]; columns = 1
        case 2: rows = dict.shape[0]; columns = dict.shape[1]
        default: throw fail(.badValue, headerStart, "shape of \(dict.shape.count) dimensions", "a 1-D or 2-D array")
        }
        let (count, overflow) = rows.multipliedReportingOverflow(by: columns)
        let (size, overflow2) = count.multipliedReportingOverflow(by: 8)
        let dataStart = headerStart + headerBytes
        guard !overflow, !overflow2, b.count - dataStart >= size else {
            throw fail(.truncated, b.count, "\(b.count - dataStart) bytes of data", "\(rows) × \(columns) float64 values")
        }
        guard b.count - dataStart == size else {
            throw fail(.badValue, dataStart + size, "\(b.count - dataStart - size) bytes after the data", "the end of the file")
        }
        var values = [Double](repeating: 0, count: count)
        for i in 0..<count {
            var bits: UInt64 = 0
            let p = dataStart + 8 * i
            for k in 0..<8 { bits |= UInt64(b[p + k]) << (8 * UInt64(k)) }
            values[i] = Double(bitPattern: bits)
        }
        self.init(rows: rows, columns: columns, values: values)
    }

    /// The three keys of a `.npy` header.
    struct Header { var descr = ""; var fortranOrder = false; var shape: [Int] = [] }

    /// Parses the header dictionary: `{'descr': '…', 'fortran_order': True|False, 'shape': (…), }`
    /// in any key order. `fail(what, offset, found)` makes the error at a character offset.
    static func parseHeader(_ text: String, fail: (String, Int, String) -> InputError) throws(InputError) -> Header {
        let c = Array(text.utf8)
        var i = 0
        func skipSpace() { while i < c.count, c[i] == UInt8(ascii: " ") || c[i] == UInt8(ascii: "\n") || c[i] == UInt8(ascii: "\t") { i += 1 } }
        func expect(_ ch: Character) throws(InputError) {
            skipSpace()
            guard i < c.count, c[i] == ch.asciiValue else { throw fail("'\(ch)'", i, i < c.count ? shown(c[i...].prefix(8)) : "end of header") }
            i += 1
        }
        func quoted() throws(InputError) -> String {
            skipSpace()
            guard i < c.count, c[i] == UInt8(ascii: "'") || c[i] == UInt8(ascii: "\"") else {
                throw fail("a quoted string", i, i < c.count ? shown(c[i...].prefix(8)) : "end of header")
            }
            let q = c[i]; i += 1
            let start = i
            while i < c.count, c[i] != q { i += 1 }
            guard i < c.count else { throw fail("a closing quote", start, "end of header") }
            defer { i += 1 }
            return String(decoding: c[start..<i], as: UTF8.self)
        }
        func integer() throws(InputError) -> Int {
            skipSpace()
            let start = i
            var v = 0
            while i < c.count, c[i] >= UInt8(ascii: "0"), c[i] <= UInt8(ascii: "9") {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int(c[i] - UInt8(ascii: "0")))
                guard !o1, !o2 else { throw fail("a dimension that fits an Int", start, shown(c[start...].prefix(20))) }
                v = a; i += 1
            }
            guard i > start else { throw fail("a dimension", start, i < c.count ? shown(c[i...].prefix(8)) : "end of header") }
            if i < c.count, c[i] == UInt8(ascii: "L") { i += 1 }  // Python 2's long suffix
            return v
        }
        var h = Header()
        var seen = Set<String>()
        try expect("{")
        while true {
            skipSpace()
            if i < c.count, c[i] == UInt8(ascii: "}") { i += 1; break }
            let keyAt = i
            let key = try quoted()
            try expect(":")
            switch key {
            case "descr": h.descr = try quoted()
            case "fortran_order":
                skipSpace()
                if c[i...].starts(with: "True".utf8) { h.fortranOrder = true; i += 4 } else if c[i...].starts(with: "False".utf8) { i += 5 } else {
                    throw fail("True or False", i, i < c.count ? shown(c[i...].prefix(8)) : "end of header")
                }
            case "shape":
                try expect("(")
                skipSpace()
                while i < c.count, c[i] != UInt8(ascii: ")") {
                    h.shape.append(try integer())
                    skipSpace()
                    if i < c.count, c[i] == UInt8(ascii: ",") { i += 1; skipSpace() }
                }
                try expect(")")
            default: throw fail("the key 'descr', 'fortran_order' or 'shape'", keyAt, key)
            }
            seen.insert(key)
            skipSpace()
            if i < c.count, c[i] == UInt8(ascii: ",") { i += 1 }
        }
        for k in ["descr", "fortran_order", "shape"] where !seen.contains(k) { throw fail("the key '\(k)'", 0, text.prefix(40).description) }
        return h
    }

    /// Bytes as text for an error, control characters and non-ASCII bytes escaped.
    static func shown<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var s = ""
        for b in bytes {
            if b >= 0x20 && b < 0x7f { s.append(Character(Unicode.Scalar(b))) } else { s += "\\x" + String(b, radix: 16, uppercase: false).leftPadded(2) }
        }
        return s
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
