import MotusCore

// The pieces of a Level-5 MAT-file below `MATFile`: header, data types, and the decoder of
// data elements and arrays.

/// The 128-byte header.
struct MATHeader {
    let text: String
    let bigEndian: Bool

    init(_ b: ArraySlice<UInt8>, file: String, fileSize: Int) throws(InputError) {
        let h = Array(b)
        guard h.count == 128 else {
            throw InputError(.truncated, at: .byteOffset(h.count, in: file), found: "\(fileSize) bytes", expected: "a 128-byte MAT-file header")
        }
        let raw = h[0..<116]
        var end = raw.count
        while end > 0 && (raw[end - 1] == 0 || raw[end - 1] == 0x20) { end -= 1 }
        let t = String(decoding: raw[0..<end], as: UTF8.self)
        guard h[0..<6].elementsEqual("MATLAB".utf8) else {
            throw InputError(.badHeader, at: .byteOffset(0, in: file), found: String(t.prefix(24)),
                             expected: "a Level-5 MAT-file header starting 'MATLAB 5.0 MAT-file' (Level-4 files are not read)")
        }
        if h[126] == UInt8(ascii: "I") && h[127] == UInt8(ascii: "M") { bigEndian = false }
        else if h[126] == UInt8(ascii: "M") && h[127] == UInt8(ascii: "I") { bigEndian = true }
        else {
            throw InputError(.badHeader, at: .byteOffset(126, in: file), found: String(decoding: h[126..<128], as: UTF8.self),
                             expected: "the endian indicator 'IM' (little-endian) or 'MI' (big-endian)")
        }
        let version = bigEndian ? Int(h[124]) << 8 | Int(h[125]) : Int(h[125]) << 8 | Int(h[124])
        guard version == 0x0100 else {
            throw InputError(.badHeader, at: .byteOffset(124, in: file), found: "version 0x\(String(version, radix: 16))",
                             expected: version == 0x0200 ? "version 0x0100 (this is a MATLAB 7.3 HDF5 file: save it with -v7)"
                                                         : "version 0x0100 (Level-5 MAT-file)")
        }
        text = t
    }
}

/// MAT-file data types (miINT8 … miUTF32).
enum MATType {
    static let int8 = 1, uint8 = 2, int16 = 3, uint16 = 4, int32 = 5, uint32 = 6, single = 7, double = 9
    static let int64 = 12, uint64 = 13, matrix = 14, compressed = 15, utf8 = 16, utf16 = 17, utf32 = 18

    /// Bytes per value of a numeric data type; nil for the others.
    static func width(_ t: Int) -> Int? {
        switch t {
        case int8, uint8, utf8: 1
        case int16, uint16, utf16: 2
        case int32, uint32, single, utf32: 4
        case double, int64, uint64: 8
        default: nil
        }
    }

    static func name(_ t: Int) -> String {
        switch t {
        case int8: "miINT8"
        case uint8: "miUINT8"
        case int16: "miINT16"
        case uint16: "miUINT16"
        case int32: "miINT32"
        case uint32: "miUINT32"
        case single: "miSINGLE"
        case double: "miDOUBLE"
        case int64: "miINT64"
        case uint64: "miUINT64"
        case matrix: "miMATRIX"
        case compressed: "miCOMPRESSED"
        case utf8: "miUTF8"
        case utf16: "miUTF16"
        case utf32: "miUTF32"
        default: "type \(t)"
        }
    }
}

/// Decodes data elements in one buffer: the file itself, or the decompressed bytes of one
/// `miCOMPRESSED` element (then `compressedAt` is that element's offset in the file).
struct MATParser {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool
    let file: String
    let compressedAt: Int?
    /// File offset of `bytes[0]` when they are a piece of the file read on its own.
    let base: Int
    var depth: Int
    /// Arrays not decoded inside the variable being read.
    var skipped: [MATSkipped] = []

    static let maxDepth = 64

    init(bytes: UnsafeRawBufferPointer, bigEndian: Bool, file: String, compressedAt: Int?, base: Int = 0, depth: Int) {
        self.bytes = bytes; self.bigEndian = bigEndian; self.file = file; self.compressedAt = compressedAt
        self.base = base; self.depth = depth
    }

    /// An error at `offset` of this buffer.
    func fail(_ reason: InputError.Reason, at offset: Int, found: String, expected: String) -> InputError {
        if let c = compressedAt {
            return InputError(reason, at: .byteOffset(c, in: file), found: found,
                              expected: expected + " (at byte \(base + offset) of the element compressed at byte \(c), decompressed)")
        }
        return InputError(reason, at: .byteOffset(base + offset, in: file), found: found, expected: expected)
    }

    @inline(__always) func u32(_ o: Int) -> UInt32 {
        let v = bytes.loadUnaligned(fromByteOffset: o, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
    }

    /// A data element's tag: its type, data size, where the data start and where the next
    /// element starts (after padding to 8 bytes; compressed elements are not padded).
    struct Tag {
        var type: Int
        var size: Int
        var data: Int
        var next: Int
    }

    /// Reads the tag at `o`; the element must end by `end` (by `declaredEnd` when only the tag
    /// is in the buffer).
    func tag(at o: Int, end: Int, declaredEnd: Int? = nil) throws(InputError) -> Tag {
        guard end - o >= 8 else {
            throw fail(.truncated, at: o, found: "\(max(0, end - o)) bytes", expected: "an 8-byte data element tag")
        }
        let w = u32(o)
        if w >> 16 != 0 {
            // Small data element: type and size share the first four bytes, data in the next four.
            let type = Int(w & 0xFFFF), size = Int(w >> 16)
            guard size <= 4 else {
                throw fail(.badValue, at: o, found: "a small element of \(size) bytes (\(MATType.name(type)))",
                           expected: "at most 4 bytes in a small data element")
            }
            return Tag(type: type, size: size, data: o + 4, next: o + 8)
        }
        // (UInt32 → Int is exact on 64-bit platforms; on 32-bit ones a size past Int.max is
        // reported as too large instead of trapping.)
        let type = Int(exactly: w) ?? -1, size = Int(exactly: u32(o + 4)) ?? Int.max
        let limit = declaredEnd ?? end
        guard size <= limit - (o + 8) else {
            throw fail(.truncated, at: o, found: "\(size) bytes of \(MATType.name(type))",
                       expected: "a data element that ends within the \(compressedAt == nil ? "file" : "decompressed data") (\(max(0, limit - o - 8)) bytes left)")
        }
        var next = o + 8 + size
        if type != MATType.compressed {
            // Padding to 8 bytes; a missing pad at the very end is tolerated.
            next = min(o + 8 + (size + 7) / 8 * 8, max(next, limit))
        }
        return Tag(type: type, size: size, data: o + 8, next: next)
    }

    // MARK: Arrays

    /// Decodes the miMATRIX element `t`; `name` is where it sits inside a cell or struct (nil
    /// for a variable, whose name is in the element).
    mutating func matrix(_ t: Tag, name path: String?) throws(InputError) -> MATArray {
        let end = t.data + t.size
        if t.size == 0 {   // an empty array (e.g. an empty cell)
            return MATArray(name: "", arrayClass: .double, dimensions: [0, 0])
        }
        guard depth < MATParser.maxDepth else {
            throw fail(.badValue, at: t.data - 8, found: "arrays nested \(depth) deep", expected: "at most \(MATParser.maxDepth) levels of cells and structs")
        }
        // Array flags: class in the low byte, flag bits in the next.
        let ft = try tag(at: t.data, end: end)
        guard ft.type == MATType.uint32, ft.size == 8 else {
            throw fail(.badValue, at: t.data, found: "\(MATType.name(ft.type)) of \(ft.size) bytes", expected: "array flags (miUINT32, 8 bytes)")
        }
        let flags = u32(ft.data)
        let classCode = Int(flags & 0xFF)
        let cls = MATArray.Class(code: classCode)
        let isComplex = flags & 0x800 != 0, isGlobal = flags & 0x400 != 0, isLogical = flags & 0x200 != 0
        var at = ft.next

        if cls == .unknown {
            // A class this reader does not know: its name, when it comes next as for opaque
            // objects, is all that is taken.
            let nt = try tag(at: at, end: end)
            var name = ""
            if nt.type == MATType.int8 || nt.type == MATType.uint8 || nt.type == MATType.utf8 { name = try ascii(nt, "an array name") }
            return placeholder(name: name, path: path, cls: cls, dims: [])
        }
        if cls == .opaque { return try opaque(at: at, end: end, path: path) }

        let dt = try tag(at: at, end: end)
        guard dt.type == MATType.int32, dt.size % 4 == 0, dt.size >= 8 else {
            throw fail(.badValue, at: at, found: "\(MATType.name(dt.type)) of \(dt.size) bytes", expected: "dimensions (miINT32, at least two)")
        }
        var dims: [Int] = []
        var count = 1
        for k in 0..<(dt.size / 4) {
            let d = Int(Int32(bitPattern: u32(dt.data + 4 * k)))
            guard d >= 0 else { throw fail(.badValue, at: dt.data + 4 * k, found: "dimension \(d)", expected: "a dimension ≥ 0") }
            let (p, o) = count.multipliedReportingOverflow(by: d)
            guard !o else { throw fail(.badValue, at: dt.data, found: "dimensions overflowing", expected: "an array that fits in memory") }
            dims.append(d); count = p
        }
        at = dt.next

        let nt = try tag(at: at, end: end)
        guard nt.type == MATType.int8 || nt.type == MATType.uint8 || nt.type == MATType.utf8 else {
            throw fail(.badValue, at: at, found: MATType.name(nt.type), expected: "an array name (miINT8)")
        }
        let name = try ascii(nt, "an array name")
        at = nt.next
        let label = path ?? name

        switch cls {
        case .double, .single, .int8, .uint8, .int16, .uint16, .int32, .uint32, .int64, .uint64:
            let rt = try tag(at: at, end: end)
            var inexact = 0
            let real = try numbers(rt, count: count, what: "the values of '\(label)'", inexact: &inexact)
            var imag: [Double] = []
            if isComplex {
                let it = try tag(at: rt.next, end: end)
                imag = try numbers(it, count: count, what: "the imaginary part of '\(label)'", inexact: &inexact)
            }
            return MATArray(name: name, arrayClass: cls, dimensions: dims, isLogical: isLogical, isComplex: isComplex,
                            isGlobal: isGlobal, values: real, imaginary: imag, inexactIntegers: inexact)
        case .char:
            var text = ""
            if at < end || count > 0 { text = try chars(try tag(at: at, end: end), dims: dims, count: count, label: label) }
            return MATArray(name: name, arrayClass: .char, dimensions: dims, isGlobal: isGlobal, text: text)
        case .cell:
            var cells: [MATArray] = []
            cells.reserveCapacity(min(count, (end - at) / 8))
            for i in 0..<count {
                let (cell, ct) = try nested(at: at, end: end, name: "\(label){\(i + 1)}", expected: "cell \(i + 1) of '\(label)'")
                cells.append(cell)
                at = ct.next
            }
            return MATArray(name: name, arrayClass: .cell, dimensions: dims, isGlobal: isGlobal, elements: cells)
        case .structure, .object:
            var className: String? = nil
            if cls == .object {
                let ct = try tag(at: at, end: end)
                className = try ascii(ct, "the class name of '\(label)'")
                at = ct.next
            }
            let lt = try tag(at: at, end: end)
            guard lt.type == MATType.int32, lt.size == 4 else {
                throw fail(.badValue, at: at, found: "\(MATType.name(lt.type)) of \(lt.size) bytes", expected: "the field name length of '\(label)' (miINT32)")
            }
            let nameLength = Int(Int32(bitPattern: u32(lt.data)))
            guard nameLength > 0 else {
                throw fail(.badValue, at: lt.data, found: "\(nameLength)", expected: "a field name length > 0 for '\(label)'")
            }
            at = lt.next
            let fnt = try tag(at: at, end: end)
            guard fnt.type == MATType.int8 || fnt.type == MATType.uint8, fnt.size % nameLength == 0 else {
                throw fail(.badValue, at: at, found: "\(MATType.name(fnt.type)) of \(fnt.size) bytes",
                           expected: "field names of '\(label)' (miINT8, a multiple of \(nameLength) bytes)")
            }
            var fields: [String] = []
            for k in 0..<(fnt.size / nameLength) {
                let s = fnt.data + k * nameLength
                var e = s
                while e < s + nameLength && bytes[e] != 0 { e += 1 }
                fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[s..<e]), as: UTF8.self))
            }
            at = fnt.next
            var values: [MATArray] = []
            if !fields.isEmpty {
                let (n, o) = count.multipliedReportingOverflow(by: fields.count)
                guard !o else { throw fail(.badValue, at: at, found: "too many fields", expected: "a struct that fits in memory") }
                values.reserveCapacity(min(n, (end - at) / 8))
                for i in 0..<n {
                    let fieldPath = count == 1 ? "\(label).\(fields[i % fields.count])" : "\(label)(\(i / fields.count + 1)).\(fields[i % fields.count])"
                    let (v, vt) = try nested(at: at, end: end, name: fieldPath, expected: "field \(fieldPath)")
                    values.append(v)
                    at = vt.next
                }
            }
            return MATArray(name: name, arrayClass: cls, dimensions: dims, isGlobal: isGlobal, fieldNames: fields,
                            elements: values, className: className)
        default:
            // Sparse arrays and function handles: known, not decoded.
            return placeholder(name: name, path: path, cls: cls, dims: dims)
        }
    }

    /// An opaque object (class 17): no dimensions element; the array name, the type system
    /// (`MCOS` for MATLAB's classes), the class name, then the object's metadata as an array
    /// (for MCOS objects a uint32 reference into the subsystem data, see `MATSubsystem`).
    /// Returned undecoded, the metadata as its one element, until `MATSubsystem` resolves it.
    /// The miMATRIX element at `at` inside a cell, struct or object, one level deeper, and its
    /// tag; any other element is an error naming what was `expected` there.
    mutating func nested(at: Int, end: Int, name: String, expected: String) throws(InputError) -> (MATArray, Tag) {
        let t = try tag(at: at, end: end)
        guard t.type == MATType.matrix else {
            throw fail(.badValue, at: at, found: MATType.name(t.type), expected: expected + " (miMATRIX)")
        }
        depth += 1
        let array = try matrix(t, name: name)
        depth -= 1
        return (array, t)
    }

    mutating func opaque(at start: Int, end: Int, path: String?) throws(InputError) -> MATArray {
        var at = start
        func text(_ what: String) throws(InputError) -> String {
            let t = try tag(at: at, end: end)
            guard t.type == MATType.int8 || t.type == MATType.uint8 || t.type == MATType.utf8 else {
                throw fail(.badValue, at: at, found: MATType.name(t.type), expected: "\(what) of an opaque object (miINT8)")
            }
            let s = try ascii(t, what)
            at = t.next
            return s
        }
        let name = try text("the array name")
        let label = path ?? name
        let typeSystem = try text("the type system of '\(label)'")
        let className = try text("the class name of '\(label)'")
        let (metadata, _) = try nested(at: at, end: end, name: "\(label) (metadata)", expected: "the metadata of object '\(label)'")
        if let path { skipped.append(MATSkipped(name: path, arrayClass: .opaque, dimensions: [])) }
        return MATArray(name: name, arrayClass: .opaque, dimensions: [], elements: [metadata], className: className,
                        isDecoded: false, typeSystem: typeSystem)
    }

    /// The data range of the unnamed uint8 array `t` (the subsystem data: the contents of the
    /// file's objects); nil when `t` is another array.
    func subsystemData(_ t: Tag) -> Range<Int>? {
        let end = t.data + t.size
        guard t.type == MATType.matrix, t.size > 0, let ft = try? tag(at: t.data, end: end), ft.type == MATType.uint32, ft.size == 8,
              u32(ft.data) & 0xFF == 9, let dt = try? tag(at: ft.next, end: end), dt.type == MATType.int32,
              let nt = try? tag(at: dt.next, end: end), nt.size == 0, let vt = try? tag(at: nt.next, end: end),
              vt.type == MATType.uint8 else { return nil }
        return vt.data..<(vt.data + vt.size)
    }

    mutating func placeholder(name: String, path: String?, cls: MATArray.Class, dims: [Int]) -> MATArray {
        // Nested ones are reported here; top-level ones by the caller (which knows whether the
        // variable was wanted).
        if let path { skipped.append(MATSkipped(name: path, arrayClass: cls, dimensions: dims)) }
        return MATArray(name: name, arrayClass: cls, dimensions: dims, isDecoded: false)
    }

    /// An 8-bit text element (names), as UTF-8.
    func ascii(_ t: Tag, _ what: String) throws(InputError) -> String {
        var e = t.data + t.size
        while e > t.data && bytes[e - 1] == 0 { e -= 1 }
        guard let s = String(validating: UnsafeRawBufferPointer(rebasing: bytes[t.data..<e]), as: UTF8.self) else {
            throw fail(.badValue, at: t.data, found: "bytes that are not UTF-8", expected: what)
        }
        return s
    }

    /// The `count` numbers of a numeric data element, as `Double`.
    func numbers(_ t: Tag, count: Int, what: String, inexact: inout Int) throws(InputError) -> [Double] {
        guard let w = MATType.width(t.type), t.type != MATType.utf8, t.type != MATType.utf16, t.type != MATType.utf32 else {
            throw fail(.badValue, at: t.data - (t.data == t.next - 4 ? 4 : 8), found: MATType.name(t.type), expected: "a numeric data type for \(what)")
        }
        guard t.size % w == 0, t.size / w == count else {
            throw fail(.badValue, at: t.data, found: "\(t.size) bytes of \(MATType.name(t.type))",
                       expected: "\(count) values (\(count)×\(w) bytes) for \(what)")
        }
        if count == 0 { return [] }
        let src = bytes.baseAddress! + t.data
        let big = bigEndian
        var inexactCount = 0
        let out = [Double](unsafeUninitializedCapacity: count) { buf, n in
            let dst = buf.baseAddress!
            switch t.type {
            case MATType.double:
                if !big && 1.littleEndian == 1 {
                    UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count * 8)
                } else {
                    for i in 0..<count {
                        let v = src.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                        dst[i] = Double(bitPattern: big ? UInt64(bigEndian: v) : UInt64(littleEndian: v))
                    }
                }
            case MATType.single:
                for i in 0..<count {
                    let v = src.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                    dst[i] = Double(Float(bitPattern: big ? UInt32(bigEndian: v) : UInt32(littleEndian: v)))
                }
            case MATType.int8:
                for i in 0..<count { dst[i] = Double(Int8(bitPattern: src.load(fromByteOffset: i, as: UInt8.self))) }
            case MATType.uint8:
                for i in 0..<count { dst[i] = Double(src.load(fromByteOffset: i, as: UInt8.self)) }
            case MATType.int16, MATType.uint16:
                for i in 0..<count {
                    var v = src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)
                    v = big ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
                    dst[i] = t.type == MATType.int16 ? Double(Int16(bitPattern: v)) : Double(v)
                }
            case MATType.int32, MATType.uint32:
                for i in 0..<count {
                    var v = src.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                    v = big ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
                    dst[i] = t.type == MATType.int32 ? Double(Int32(bitPattern: v)) : Double(v)
                }
            default:   // int64, uint64
                for i in 0..<count {
                    var v = src.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                    v = big ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
                    if t.type == MATType.int64 {
                        let s = Int64(bitPattern: v)
                        dst[i] = Double(s)
                        if Double(exactly: s) == nil { inexactCount += 1 }
                    } else {
                        dst[i] = Double(v)
                        if Double(exactly: v) == nil { inexactCount += 1 }
                    }
                }
            }
            n = count
        }
        inexact += inexactCount
        return out
    }

    /// The text of a char array: code units in any of the types MATLAB and other writers use,
    /// rows of a char matrix joined by "\n".
    func chars(_ t: Tag, dims: [Int], count: Int, label: String) throws(InputError) -> String {
        // Unicode scalars (UTF-8, UTF-32, 8-bit) or UTF-16 code units, column-major.
        var units: [UInt32] = []
        var utf16 = false
        let raw = UnsafeRawBufferPointer(rebasing: bytes[t.data..<(t.data + t.size)])
        switch t.type {
        case MATType.utf8:
            guard let s = String(validating: raw, as: UTF8.self) else {
                throw fail(.badValue, at: t.data, found: "bytes that are not UTF-8", expected: "the UTF-8 text of '\(label)'")
            }
            units = s.unicodeScalars.map(\.value)
        case MATType.uint8, MATType.int8:
            units = raw.map { UInt32($0) }   // 8-bit characters: Latin-1
        case MATType.uint16, MATType.utf16, MATType.int16:
            guard t.size % 2 == 0 else {
                throw fail(.badValue, at: t.data, found: "\(t.size) bytes", expected: "2-byte characters for '\(label)'")
            }
            utf16 = true
            units = (0..<(t.size / 2)).map { i in
                let v = raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)
                return UInt32(bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
            }
        case MATType.uint32, MATType.utf32, MATType.int32:
            guard t.size % 4 == 0 else {
                throw fail(.badValue, at: t.data, found: "\(t.size) bytes", expected: "4-byte characters for '\(label)'")
            }
            units = (0..<(t.size / 4)).map { i in
                let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
            }
        default:
            throw fail(.badValue, at: t.data, found: MATType.name(t.type), expected: "character data for '\(label)'")
        }
        guard units.count == count else {
            throw fail(.badValue, at: t.data, found: "\(units.count) characters",
                       expected: "\(count) characters (\(dims.map(String.init).joined(separator: "×"))) for '\(label)'")
        }
        // Column-major: row r is units[r], units[r + rows], …. An array without characters
        // (R×0) is empty text: its rows come from the dimensions alone, which a damaged file
        // can make as large as 2^31, so they are not spelled out as newlines.
        let rows = dims[0]
        var ordered = units
        if rows > 1 && count > 0 {
            ordered = []
            ordered.reserveCapacity(units.count + rows)
            let cols = count / rows
            for r in 0..<rows {
                if r > 0 { ordered.append(0x0A) }
                for c in 0..<cols { ordered.append(units[r + c * rows]) }
            }
        }
        if utf16 {
            guard let s = String(validating: ordered.map { UInt16($0) }, as: UTF16.self) else {
                throw fail(.badValue, at: t.data, found: "unpaired UTF-16 surrogates", expected: "the text of '\(label)'")
            }
            return s
        }
        var s = ""
        s.unicodeScalars.reserveCapacity(ordered.count)
        for u in ordered {
            guard let scalar = Unicode.Scalar(u) else {
                throw fail(.badValue, at: t.data, found: "character code 0x\(String(u, radix: 16))", expected: "Unicode text for '\(label)'")
            }
            s.unicodeScalars.append(scalar)
        }
        return s
    }

    /// The name of the miMATRIX element at the start of `b` (which may be only its first
    /// bytes); nil when the bytes do not reach it or do not hold one.
    static func peekName(_ b: [UInt8], bigEndian: Bool) -> String? {
        b.withUnsafeBufferPointer { p -> String? in
            let parser = MATParser(bytes: UnsafeRawBufferPointer(p), bigEndian: bigEndian, file: "", compressedAt: nil, depth: 0)
            guard let t = try? parser.tag(at: 0, end: p.count, declaredEnd: Int.max), t.type == MATType.matrix,
                  let flags = try? parser.tag(at: t.data, end: p.count), flags.type == MATType.uint32, flags.size == 8 else { return nil }
            var at = flags.next
            let cls = parser.u32(flags.data) & 0xFF
            if cls != 17 {
                guard let dims = try? parser.tag(at: at, end: p.count), dims.type == MATType.int32 else { return nil }
                at = dims.next
            }
            guard let nt = try? parser.tag(at: at, end: p.count), nt.type == MATType.int8 || nt.type == MATType.uint8 else { return nil }
            return try? parser.ascii(nt, "")
        }
    }
}
