#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Owns the file descriptor and the chunk buffer of a `LineCursor`.
final class LineStorage {
    let fd: Int32
    let ownsDescriptor: Bool
    var buffer: UnsafeMutableRawBufferPointer
    init(fd: Int32, ownsDescriptor: Bool, bytes: Int) {
        self.fd = fd; self.ownsDescriptor = ownsDescriptor
        buffer = Self.paddedBuffer(bytes)
    }

    /// Readable bytes after the end of the buffer, so a line handed out is always followed by
    /// at least this many (the number parser loads 8 bytes at a time).
    static let padding = 32

    /// A buffer of `bytes` usable bytes followed by `padding` zero bytes (deallocating the
    /// returned buffer frees both).
    static func paddedBuffer(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes + padding, alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        return UnsafeMutableRawBufferPointer(rebasing: raw[0..<bytes])
    }
    deinit {
        buffer.deallocate()
        if ownsDescriptor { _ = Posix.close(fd) }
    }
}

/// Pull-style line iteration over a file in fixed chunks: `while let line = cursor.next()`.
/// A value type driven by a plain loop, so the hot path has no closures and no dynamic
/// exclusivity checks. Memory is the chunk size plus the longest line.
///
/// Lines end at LF or CRLF; a UTF-8 byte-order mark at the start is dropped. When the first
/// chunk holds a CR not followed by LF (old Mac files end lines with CR alone), every CR, LF
/// and CRLF ends a line, so files with mixed endings keep their line numbers. The last line
/// need not end with a newline: `lastLineUnterminated` then says so once it has been returned.
/// A returned line is valid until the next call to `next()`, and is followed in memory by at
/// least 32 readable bytes (so parsers may load 8 bytes at a time near its end).
public struct LineCursor {
    let storage: LineStorage
    /// The file read, as given ("-" for standard input).
    public let path: String
    /// The longest line accepted, in bytes; a longer one is an `InputError` at its line.
    public let maxLineBytes: Int
    /// 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    var filled = 0
    var start = 0
    var scanFrom = 0
    var eof = false
    var firstChunk = true
    var oversized = false
    /// Ranged mode (`pread` from `readOffset` up to `endOffset`), for parallel readers.
    var ranged = false
    var readOffset = 0
    var endOffset = Int.max
    /// Bytes handed over by `read`/`pread` so far.
    var bytesRead = 0
    /// Lines end at CR as well as at LF (decided on the first chunk).
    public private(set) var crLineEnds = false
    /// True once the line last returned was the input's last and had no line end.
    public private(set) var lastLineUnterminated = false
    /// Bytes of that unterminated last line.
    public private(set) var lastLineBytes = 0

    /// File offset of the first byte not yet returned as part of a line.
    public var offset: Int { (ranged ? readOffset : bytesRead) - (filled - start) }

    /// Opens `path` ("-" means standard input).
    public init(path: String, chunkBytes: Int = 1 << 20, maxLineBytes: Int = 64 << 20) throws(InputError) {
        self.path = path
        self.maxLineBytes = maxLineBytes
        if path == "-" {
            storage = LineStorage(fd: 0, ownsDescriptor: false, bytes: max(chunkBytes, 16))
            return
        }
        let d = open(path, O_RDONLY)
        if d < 0 {
            let msg = String(cString: strerror(errno))
            throw InputError(.unreadable, at: SourceLocation(file: path), found: msg, expected: "a readable file")
        }
        var st = stat()
        if fstat(d, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            _ = Posix.close(d)
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a file")
        }
        storage = LineStorage(fd: d, ownsDescriptor: true, bytes: max(chunkBytes, 16))
    }

    /// Opens `path` and reads only the bytes `range` (which should start at a line start and
    /// end just after a newline); line numbers count from 1 within the range.
    public init(path: String, range: Range<Int>, chunkBytes: Int = 1 << 20) throws(InputError) {
        try self.init(path: path, chunkBytes: chunkBytes)
        ranged = true
        readOffset = range.lowerBound
        endOffset = range.upperBound
        firstChunk = range.lowerBound == 0
    }

    /// Size of the file in bytes (0 for pipes and standard input).
    public var fileSize: Int {
        var st = stat()
        return fstat(storage.fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
    }

    /// The next line, or nil at the end of the input. Throws when a line is longer than
    /// `maxLineBytes`.
    public mutating func next() throws(InputError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if oversized {
                throw InputError(.badValue, at: SourceLocation(file: path, line: lineNumber + 1), found: "a line over \(maxLineBytes >> 20) MiB",
                                 expected: "lines of text (is this a binary file?)")
            }
            let base = storage.buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if crLineEnds {
                // Old Mac or mixed line ends: the first CR or LF ends the line (CRLF as one end).
                var i = scanFrom
                while i < filled && base[i] != 0x0A && base[i] != 0x0D { i += 1 }
                if i < filled && (base[i] == 0x0A || i + 1 < filled || eof) {
                    let line = UnsafeBufferPointer(start: base + start, count: i - start)
                    start = base[i] == 0x0D && i + 1 < filled && base[i + 1] == 0x0A ? i + 2 : i + 1
                    scanFrom = start
                    lineNumber += 1
                    return line
                }
                scanFrom = i   // a CR at the chunk's end waits for the next byte
                if eof {
                    if start < filled { return lastLine(base) }
                    return nil
                }
                refill()
                continue
            }
            if scanFrom < filled {
                // memchr is vectorised; far faster than a byte loop on long lines.
                if let hit = memchr(base + scanFrom, 0x0A, filled - scanFrom) {
                    let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    var end = i
                    if end > start && base[end - 1] == 0x0D { end -= 1 }
                    let line = UnsafeBufferPointer(start: base + start, count: end - start)
                    start = i + 1
                    scanFrom = start
                    lineNumber += 1
                    return line
                }
                scanFrom = filled
            }
            if eof {
                if start < filled { return lastLine(base) }
                return nil
            }
            refill()
        }
    }

    /// The bytes from `start` to the end of the input, as the last line: ended by a CR alone
    /// (a complete line in CR or CRLF files), or unterminated.
    mutating func lastLine(_ base: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = filled
        if base[end - 1] == 0x0D { end -= 1 } else {
            lastLineUnterminated = true
            lastLineBytes = filled - start
        }
        let line = UnsafeBufferPointer(start: base + start, count: end - start)
        start = filled
        scanFrom = filled
        lineNumber += 1
        return line
    }

    /// Whether the input ends with a line end (LF or CR), read from its last byte without
    /// moving the cursor; nil for pipes and standard input, where it is known only at the end.
    public var endsWithLineEnd: Bool? {
        var st = stat()
        guard fstat(storage.fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(st.st_size)
        if size == 0 { return true }
        var b: UInt8 = 0
        guard pread(storage.fd, &b, 1, off_t(size - 1)) == 1 else { return nil }
        return b == 0x0A || b == 0x0D
    }

    mutating func refill() {
        var buffer = storage.buffer
        if start > 0 {
            let rest = filled - start
            if rest > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, rest) }
            filled = rest; scanFrom -= start; start = 0
        }
        if filled == buffer.count {
            if buffer.count >= maxLineBytes {
                // One line fills the whole buffer: stop rather than grow without bound.
                oversized = true
                return
            }
            let bigger = LineStorage.paddedBuffer(min(buffer.count * 2, maxLineBytes))
            bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
            buffer.deallocate()
            storage.buffer = bigger
            buffer = bigger
        }
        var n = 0
        if ranged {
            let want = min(buffer.count - filled, endOffset - readOffset)
            if want <= 0 { eof = true; return }
            repeat { n = pread(storage.fd, buffer.baseAddress! + filled, want, off_t(readOffset)) } while n < 0 && errno == EINTR
            if n > 0 { readOffset += n }
        } else {
            repeat { n = Posix.read(storage.fd, buffer.baseAddress! + filled, buffer.count - filled) } while n < 0 && errno == EINTR
            if n > 0 { bytesRead += n }
        }
        if n <= 0 { eof = true; return }
        if firstChunk {
            firstChunk = false
            let b = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if filled == 0 && n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
                memmove(buffer.baseAddress!, buffer.baseAddress! + 3, n - 3)
                filled = n - 3
            } else {
                filled += n
            }
            if !ranged { crLineEnds = Self.hasLoneCR(UnsafeBufferPointer(start: b, count: filled)) }
            return
        }
        filled += n
    }
}

extension LineCursor {
    /// True when `bytes` hold a CR that is neither followed by LF nor the last byte (where
    /// the LF may be in the next chunk): the text ends lines with CR alone, at least in part.
    static func hasLoneCR(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let b = bytes.baseAddress else { return false }
        let n = bytes.count
        var p = 0
        while p < n, let hit = memchr(b + p, 0x0D, n - p) {
            let i = b.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if i + 1 < n && b[i + 1] != 0x0A { return true }
            p = i + 1
        }
        return false
    }
}

/// Closure-style line iteration on top of `LineCursor`, for code off the hot path.
public final class LineReader {
    /// The file read, as given ("-" for standard input).
    public let path: String
    private var cursor: LineCursor

    /// Opens `path` ("-" means standard input).
    public init(path: String, chunkBytes: Int = 1 << 20, maxLineBytes: Int = 64 << 20) throws(InputError) {
        self.path = path
        cursor = try LineCursor(path: path, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
    }

    /// Calls `body(line, lineNumber)` for every line. Returns the number of lines.
    @discardableResult
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws(InputError) -> Void) throws(InputError) -> Int {
        var c = cursor
        while let line = try c.next() { try body(line, c.lineNumber) }
        cursor = c
        return c.lineNumber
    }

    /// Calls `body(line, lineNumber, unterminated)` for every line; `unterminated` is true only
    /// for a last line without a line end. Returns the number of lines.
    @discardableResult
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int, Bool) throws(InputError) -> Void) throws(InputError) -> Int {
        var c = cursor
        while let line = try c.next() { try body(line, c.lineNumber, c.lastLineUnterminated) }
        cursor = c
        return c.lineNumber
    }

    /// Whether the file ends with a line end (nil for pipes; see `LineCursor.endsWithLineEnd`).
    public var endsWithLineEnd: Bool? { cursor.endsWithLineEnd }

    /// Reads a whole (small) file into memory.
    public static func readAll(path: String) throws(InputError) -> [UInt8] {
        var c = try LineCursor(path: path)
        var out: [UInt8] = []
        while let line = try c.next() { out.append(contentsOf: line); out.append(0x0A) }
        return out
    }
}

/// Splits one line into fields on a single-byte delimiter, reporting byte ranges. Fields may
/// be wrapped in double quotes (the quotes are not part of the range; a doubled quote inside
/// stays as two bytes). Splitting on spaces treats a run of spaces as one delimiter.
public struct FieldSplitter {
    /// The byte that separates fields (`,`, tab, `;` or space).
    public let delimiter: UInt8
    /// A splitter on `delimiter` (an ASCII byte).
    public init(delimiter: UInt8) { self.delimiter = delimiter }

    /// Calls `body(fieldIndex, start, end)` for each field; returns the field count.
    @inlinable @discardableResult
    public func split<E: Error>(_ line: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int) throws(E) -> Void) throws(E) -> Int {
        let n = line.count
        var field = 0
        var i = 0
        let collapse = delimiter == 0x20
        if collapse { while i < n && line[i] == 0x20 { i += 1 } }
        if n == 0 { return 0 }
        while true {
            var s = i, e: Int
            if i < n && line[i] == 0x22 {
                s = i + 1
                var j = s
                while j < n {
                    if line[j] == 0x22 { if j + 1 < n && line[j + 1] == 0x22 { j += 2; continue }; break }
                    j += 1
                }
                e = j
                i = min(j + 1, n)
                while i < n && line[i] != delimiter { i += 1 }
            } else {
                while i < n && line[i] != delimiter { i += 1 }
                e = i
            }
            try body(field, s, e)
            field += 1
            if i >= n { break }
            i += 1
            if collapse {
                while i < n && line[i] == 0x20 { i += 1 }
                if i >= n { break }
            }
        }
        return field
    }

    /// The fields as strings (for headers).
    public func strings(_ line: UnsafeBufferPointer<UInt8>) -> [String] {
        var out: [String] = []
        split(line) { _, s, e in out.append(String(decoding: UnsafeBufferPointer(rebasing: line[s..<e]), as: UTF8.self)) }
        return out
    }
}

/// Text out of a line's bytes, for the readers' messages and headers.
extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes `start..<end` as text (for error messages and headers).
    public func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[start..<end]), as: UTF8.self)
    }
}
