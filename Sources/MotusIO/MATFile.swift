#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// A MATLAB Level-5 MAT-file (`save -v6` / `-v7`, scipy's `savemat`, Octave's `-mat`,
/// MATLAB Mobile's sensor logs), read whole into memory.
///
/// Read: the 128-byte header (descriptive text, version 0x0100, endian indicator `IM` for
/// little-endian or `MI` for big-endian files); data elements in the normal and the small
/// (4-byte) format; `miCOMPRESSED` elements (zlib, decoded by `Inflate`); `miMATRIX` arrays
/// of the numeric classes (converted to `Double` from whatever type they are stored in),
/// logical, char (UTF-8, UTF-16, UTF-32 or 8-bit → `String`), cell, struct and object (fields
/// read). Complex arrays keep both parts. MATLAB objects (MCOS: `timetable`, `datetime`,
/// `duration`, `table`, `string`, user classes) stored as top-level variables are decoded from
/// the file's subsystem data (`MATSubsystem`) into `.opaque` arrays whose fields are the
/// objects' saved properties; `timetable(_:)`, `datetime(_:)` and `duration(_:)` read the
/// common ones further. Sparse arrays, function handles, objects of other type systems, MCOS
/// enumerations and objects nested in plain structs or cells are not decoded: they are listed
/// in `skipped` and left out of `variables`.
///
/// Errors are `InputError`s at the byte offset where the problem is
/// (`SourceLocation.byteOffset`). Inside a compressed element the location is the element's
/// tag, and the message names the offset within its decompressed bytes. MATLAB 7.3 files
/// (HDF5) and Level-4 files are recognised and refused with a message saying so.
public struct MATFile: Sendable {
    /// The byte order of the file's numbers, from the header's endian indicator.
    public enum ByteOrder: String, Sendable, Hashable {
        /// Least significant byte first: the indicator reads `IM`.
        case littleEndian
        /// Most significant byte first: the indicator reads `MI`.
        case bigEndian
    }

    /// What to read.
    public struct Options: Sendable, Hashable {
        /// Read only the variables with these names (nil: all). Others are skipped without
        /// being decompressed.
        public var only: Set<String>?
        /// Largest decompressed size accepted for one compressed element (bytes), so a damaged
        /// or hostile file cannot make the reader allocate without bound.
        public var maxElementBytes: Int
        /// Options reading `only` those variables (nil: all), each compressed element
        /// decompressing to at most `maxElementBytes` bytes.
        public init(only: Set<String>? = nil, maxElementBytes: Int = Int(Int32.max)) {
            self.only = only; self.maxElementBytes = maxElementBytes
        }
    }

    /// The path it was read from (or the name given to `decode`).
    public var path: String
    /// The header's descriptive text, e.g. "MATLAB 5.0 MAT-file, Platform: posix, Created on: …".
    public var headerText: String
    /// The byte order the file was written in.
    public var byteOrder: ByteOrder
    /// The decoded variables by name.
    public var variables: [String: MATArray]
    /// Names of `variables` in file order.
    public var names: [String]
    /// Arrays found but not decoded, top-level or nested.
    public var skipped: [MATSkipped]
    /// Byte offset of each variable's element (its `miCOMPRESSED` element when compressed),
    /// for errors about what a variable holds.
    public var offsets: [String: Int] = [:]

    /// Opaque variables waiting for the subsystem data, with their element offsets.
    var pending: [(name: String, array: MATArray, offset: Int)] = []
    /// The subsystem data (objects' contents) and where it sits, once found.
    var subsystem: (bytes: [UInt8], compressedAt: Int?, base: Int)? = nil

    /// The decoded variable `name`; nil when the file has none by that name, or it was
    /// skipped (not decoded, or left out by `Options.only`).
    public subscript(name: String) -> MATArray? { variables[name] }

    /// Reads the MAT-file at `path`.
    public static func read(path: String, options: Options = .init()) throws(InputError) -> MATFile {
        try decode(try ReaderFiles.readBytes(path), file: path, options: options)
    }

    /// Decodes a MAT-file held in memory; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String = "<memory>", options: Options = .init()) throws(InputError) -> MATFile {
        let header = try MATHeader(bytes.prefix(128), file: file, fileSize: bytes.count)
        var result = MATFile(path: file, headerText: header.text, byteOrder: header.bigEndian ? .bigEndian : .littleEndian,
                             variables: [:], names: [], skipped: [])
        try bytes.withUnsafeBufferPointer { (p) throws(InputError) in
            var parser = MATParser(bytes: UnsafeRawBufferPointer(p), bigEndian: header.bigEndian, file: file, compressedAt: nil, depth: 0)
            var offset = 128
            while offset < p.count {
                let tag = try parser.tag(at: offset, end: p.count)
                switch tag.type {
                case MATType.matrix:
                    if let r = parser.subsystemData(tag) {
                        if result.subsystem == nil { result.subsystem = (Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[r])), nil, r.lowerBound) }
                        break
                    }
                    try add(try parser.matrix(tag, name: nil), &result, at: offset, parser: parser, options: options)
                case MATType.compressed:
                    try readCompressed(tag, at: offset, bytes: UnsafeRawBufferPointer(p), header: header, file: file,
                                       options: options, into: &result)
                default:
                    throw parser.fail(.badValue, at: offset, found: "data type \(tag.type)",
                                      expected: "a variable (miMATRIX, type 14, or miCOMPRESSED, type 15)")
                }
                parser.skipped.removeAll()
                offset = tag.next
            }
        }
        try resolveObjects(&result)
        return result
    }

    /// Puts the opaque variables waiting in `pending` into `variables` with their objects'
    /// properties from the subsystem data (`MATSubsystem`); those it cannot decode (other type
    /// systems, enumerations) go to `skipped`.
    static func resolveObjects(_ result: inout MATFile) throws(InputError) {
        defer { result.pending = []; result.subsystem = nil }
        guard !result.pending.isEmpty else { return }
        var table: MATSubsystem? = nil
        for (name, array, offset) in result.pending {
            guard array.typeSystem == "MCOS", let meta = array.elements.first, let ref = MATSubsystem.reference(meta) else {
                result.skipped.append(MATSkipped(name: name, arrayClass: array.arrayClass, dimensions: array.dimensions))
                continue
            }
            if table == nil {
                guard let s = result.subsystem else {
                    throw InputError(.badValue, at: .byteOffset(offset, in: result.path), found: "'\(name)', \(array.className ?? "an object") \(ref.ids.count == 1 ? "object \(ref.ids[0])" : "\(ref.ids.count) objects")",
                                     expected: "the subsystem data holding its contents (an unnamed uint8 array after the variables)")
                }
                table = try MATSubsystem(bytes: s.bytes, file: result.path, compressedAt: s.compressedAt, base: s.base)
            }
            guard let t = table else { continue }
            let v = try t.resolve(array, at: offset)
            guard result.variables[name] == nil else {
                throw InputError(.badValue, at: .byteOffset(offset, in: result.path), found: "a second variable '\(name)'", expected: "unique variable names")
            }
            result.variables[name] = v
            result.names.append(name)
            result.offsets[name] = offset
        }
    }

    /// Names of the variables in the file at `path`, in file order, read without decoding the
    /// data: a few small reads per variable (for recognising a file cheaply). Nested and
    /// skipped arrays are included by name; unnamed elements (subsystem data) are not.
    public static func variableNames(path: String) throws(InputError) -> [String] {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: String(cString: strerror(errno)), expected: "a readable file")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "not a regular file", expected: "a MAT-file")
        }
        let size = Int(clamping: st.st_size)
        func bytes(_ offset: Int, _ n: Int) -> [UInt8] {
            var buf = [UInt8](repeating: 0, count: max(0, min(n, size - offset)))
            if buf.isEmpty { return buf }
            let got = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
            return got > 0 ? Array(buf.prefix(got)) : []
        }
        let header = try MATHeader(bytes(0, 128)[...], file: path, fileSize: size)
        var names: [String] = []
        var offset = 128
        while offset < size {
            let head = bytes(offset, 8)
            let tag = try head.withUnsafeBufferPointer { (p) throws(InputError) -> MATParser.Tag in
                let parser = MATParser(bytes: UnsafeRawBufferPointer(p), bigEndian: header.bigEndian, file: path, compressedAt: nil,
                                       base: offset, depth: 0)
                return try parser.tag(at: 0, end: p.count, declaredEnd: size - offset)
            }
            var start: [UInt8]
            if tag.type == MATType.compressed {
                start = try Inflate.zlibPrefix(bytes(offset + tag.data, min(tag.size, 4096)), count: 1024, file: path,
                                               baseOffset: offset + tag.data)
            } else if tag.type == MATType.matrix {
                start = bytes(offset, min(tag.next, 1024))
            } else {
                throw InputError(.badValue, at: .byteOffset(offset, in: path), found: "data type \(tag.type)",
                                 expected: "a variable (miMATRIX, type 14, or miCOMPRESSED, type 15)")
            }
            if let name = MATParser.peekName(start, bigEndian: header.bigEndian), !name.isEmpty { names.append(name) }
            offset += tag.next
        }
        return names
    }

    /// Whether `bytes` (at least the first 128 of a file) start like a Level-5 MAT-file.
    public static func looksLikeMAT(_ bytes: [UInt8]) -> Bool {
        (try? MATHeader(bytes.prefix(128), file: "", fileSize: 128)) != nil
    }

    // MARK: - Top level

    static func add(_ array: MATArray, _ result: inout MATFile, at offset: Int, parser: MATParser, options: Options) throws(InputError) {
        if array.name.isEmpty { return }   // subsystem data (objects' contents), not a variable
        if let only = options.only, !only.contains(array.name) { return }
        if array.arrayClass == .opaque {
            result.pending.append((array.name, array, offset))
            return
        }
        if !array.isDecoded {
            result.skipped.append(MATSkipped(name: array.name, arrayClass: array.arrayClass, dimensions: array.dimensions))
            return
        }
        guard result.variables[array.name] == nil else {
            throw parser.fail(.badValue, at: offset, found: "a second variable '\(array.name)'", expected: "unique variable names")
        }
        result.variables[array.name] = array
        result.names.append(array.name)
        result.offsets[array.name] = offset
        result.skipped += parser.skipped
    }

    static func readCompressed(_ tag: MATParser.Tag, at offset: Int, bytes: UnsafeRawBufferPointer, header: MATHeader, file: String,
                               options: Options, into result: inout MATFile) throws(InputError) {
        let data = UnsafeRawBufferPointer(rebasing: bytes[tag.data..<(tag.data + tag.size)])
        // The first bytes give the inner element's declared size (the output limit) and, when
        // only some variables are wanted, its name.
        let prefix = try Inflate.zlibPrefix(Array(data.prefix(4096)), count: 1024, file: file, baseOffset: tag.data)
        if let only = options.only, let name = MATParser.peekName(prefix, bigEndian: header.bigEndian), !name.isEmpty, !only.contains(name) {
            return
        }
        guard prefix.count >= 8 else {
            throw InputError(.truncated, at: .byteOffset(offset, in: file), found: "\(prefix.count) decompressed bytes",
                             expected: "a compressed data element of at least 8 bytes")
        }
        let inner = try prefix.withUnsafeBufferPointer { (p) throws(InputError) -> MATParser.Tag in
            let parser = MATParser(bytes: UnsafeRawBufferPointer(p), bigEndian: header.bigEndian, file: file, compressedAt: offset, depth: 0)
            return try parser.tag(at: 0, end: p.count, declaredEnd: Int.max)
        }
        let declared = inner.next   // tag, data and padding
        guard declared <= options.maxElementBytes else {
            throw InputError(.badValue, at: .byteOffset(offset, in: file), found: "a compressed element of \(declared) bytes",
                             expected: "at most \(options.maxElementBytes) bytes (MATFile.Options.maxElementBytes)")
        }
        let plain = try Inflate.zlib(data, maxOutputBytes: declared, file: file, baseOffset: tag.data)
        try plain.withUnsafeBufferPointer { (p) throws(InputError) in
            var parser = MATParser(bytes: UnsafeRawBufferPointer(p), bigEndian: header.bigEndian, file: file, compressedAt: offset, depth: 0)
            var at = 0
            while at < p.count {
                let t = try parser.tag(at: at, end: p.count)
                guard t.type == MATType.matrix else {
                    throw parser.fail(.badValue, at: at, found: "data type \(t.type)", expected: "a compressed variable (miMATRIX, type 14)")
                }
                if let r = parser.subsystemData(t) {
                    if result.subsystem == nil { result.subsystem = (Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[r])), offset, r.lowerBound) }
                    at = t.next
                    continue
                }
                try add(try parser.matrix(t, name: nil), &result, at: offset, parser: parser, options: options)
                parser.skipped.removeAll()
                at = t.next
            }
        }
    }
}
