import MotusCore

/// The files of a ZIP archive (PKWARE APPNOTE: end-of-central-directory record, central
/// directory, local headers), stored or DEFLATE-compressed, for app exports shared as one
/// `.zip` (phyphox). Only what such exports use: one disk, no ZIP64, no encryption.
///
/// Every problem (no end record, a header signature or offset that is not where the directory
/// says, a method other than stored or deflate, sizes past the file, a CRC-32 that does not
/// match) is an `InputError` at its byte offset in the archive.
public struct ZipArchive {
    /// One file of the archive, as the central directory lists it.
    public struct Entry: Sendable, Equatable {
        /// The path inside the archive, `/`-separated (`meta/device.csv`).
        public var name: String
        /// The compression method: 0 stored, 8 deflate (no other is read).
        public var method: Int
        /// The CRC-32 of the uncompressed bytes, which `contents(of:)` checks.
        public var crc32: UInt32
        /// Bytes stored in the archive.
        public var compressedSize: Int
        /// Bytes once decompressed.
        public var size: Int
        /// Byte offset of the entry's local header in the archive.
        public var localHeaderOffset: Int
    }

    /// The archive's file, as given.
    public let path: String
    /// Every entry, in central-directory order.
    public let entries: [Entry]
    let bytes: [UInt8]

    /// True when the file starts with a ZIP local-header signature.
    public static func isZip(_ path: String) -> Bool {
        ReaderFiles.isFile(path) && ReaderFiles.headBytes(path, count: 4) == [0x50, 0x4B, 0x03, 0x04]
    }

    /// Reads the archive at `path` into memory and its central directory. Throws `InputError`
    /// at the byte offset of the first problem in the directory (above), or when the file
    /// cannot be read.
    public init(path: String) throws(InputError) {
        self.path = path
        bytes = try ReaderFiles.readBytes(path)
        entries = try Self.directory(bytes, path)
    }

    static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }

    static func directory(_ b: [UInt8], _ path: String) throws(InputError) -> [Entry] {
        func fail(_ at: Int, _ found: String, _ expected: String) -> InputError {
            InputError(.badValue, at: .byteOffset(at, in: path), found: found, expected: expected)
        }
        // The end record: its signature within the last 22 + 65535 bytes, searched backwards.
        var end = -1
        var i = b.count - 22
        while i >= 0 && i >= b.count - 22 - 65535 {
            if b[i] == 0x50 && b[i + 1] == 0x4B && b[i + 2] == 0x05 && b[i + 3] == 0x06 { end = i; break }
            i -= 1
        }
        guard end >= 0 else { throw fail(b.count, "\(b.count) bytes without an end-of-central-directory record", "a ZIP archive") }
        let count = u16(b, end + 10), size = u32(b, end + 12), start = u32(b, end + 16)
        guard count != 0xFFFF, size != 0xFFFF_FFFF, start != 0xFFFF_FFFF else { throw fail(end, "a ZIP64 archive", "a ZIP archive without ZIP64") }
        guard start + size <= end else { throw fail(end + 16, "a central directory at \(start) of \(size) bytes", "one before the end record at \(end)") }
        var out: [Entry] = []
        var p = start
        for _ in 0..<count {
            guard p + 46 <= end, u32(b, p) == 0x0201_4B50 else { throw fail(p, "no central-directory header", "one of \(count) entries") }
            let flags = u16(b, p + 8), method = u16(b, p + 10)
            let crc = UInt32(u32(b, p + 16)), csize = u32(b, p + 20), usize = u32(b, p + 24)
            let nameLength = u16(b, p + 28), extra = u16(b, p + 30), comment = u16(b, p + 32), local = u32(b, p + 42)
            guard p + 46 + nameLength <= end else { throw fail(p + 28, "a name past the directory", "an entry name inside it") }
            let name = String(decoding: b[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            guard flags & 1 == 0 else { throw fail(p + 8, "an encrypted entry '\(name)'", "entries that are not encrypted") }
            guard method == 0 || method == 8 else { throw fail(p + 10, "compression method \(method) for '\(name)'", "stored (0) or deflate (8)") }
            guard csize != 0xFFFF_FFFF, usize != 0xFFFF_FFFF, local != 0xFFFF_FFFF else { throw fail(p + 20, "ZIP64 sizes for '\(name)'", "a ZIP archive without ZIP64") }
            out.append(Entry(name: name, method: method, crc32: crc, compressedSize: csize, size: usize, localHeaderOffset: local))
            p += 46 + nameLength + extra + comment
        }
        return out
    }

    /// The bytes of `entry`, decompressed and checked against its CRC-32.
    public func contents(of entry: Entry) throws(InputError) -> [UInt8] {
        let b = bytes, h = entry.localHeaderOffset
        func fail(_ at: Int, _ found: String, _ expected: String) -> InputError {
            InputError(.badValue, at: .byteOffset(at, in: path), found: found, expected: expected)
        }
        guard h + 30 <= b.count, Self.u32(b, h) == 0x0403_4B50 else { throw fail(h, "no local header", "the local header of '\(entry.name)'") }
        let data = h + 30 + Self.u16(b, h + 26) + Self.u16(b, h + 28)
        guard data + entry.compressedSize <= b.count else {
            throw fail(data, "\(b.count - data) bytes left", "\(entry.compressedSize) bytes of '\(entry.name)'")
        }
        let raw = Array(b[data..<(data + entry.compressedSize)])
        let out = entry.method == 0 ? raw : try Inflate.deflate(raw, maxOutputBytes: entry.size, file: path, baseOffset: data).output
        guard out.count == entry.size else { throw fail(data, "\(out.count) bytes of '\(entry.name)'", "\(entry.size) as the directory says") }
        let crc = Self.crc32(out)
        guard crc == entry.crc32 else {
            throw fail(data, "CRC-32 \(String(crc, radix: 16)) for '\(entry.name)'", "\(String(entry.crc32, radix: 16)) as the directory says")
        }
        return out
    }

    /// CRC-32 (IEEE 802.3, reflected, as ZIP uses it).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }
}
