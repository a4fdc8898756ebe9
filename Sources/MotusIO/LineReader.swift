#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Reads a text file or descriptor line by line in fixed chunks, so memory stays bounded by
/// the chunk size (plus the longest line) however large the input is.
///
/// Lines end at LF; a CR before the LF is dropped (CRLF files), as is a UTF-8 byte-order mark
/// at the start. The last line need not end with a newline. Each line is handed to the body
/// as a borrowed byte buffer valid only during the call, with its 1-based line number.
public final class LineReader {
    public let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: UnsafeMutableRawBufferPointer
    /// Longest line accepted, to keep memory bounded on garbage input.
    public let maxLineBytes: Int

    /// Opens `path` ("-" means standard input).
    public init(path: String, chunkBytes: Int = 1 << 20, maxLineBytes: Int = 64 << 20) throws(InputError) {
        self.path = path
        self.maxLineBytes = maxLineBytes
        if path == "-" {
            fd = 0; ownsDescriptor = false
        } else {
            let d = open(path, O_RDONLY)
            if d < 0 {
                let msg = String(cString: strerror(errno))
                throw InputError(.unreadable, at: SourceLocation(file: path), found: msg, expected: "a readable file")
            }
            var st = stat()
            if fstat(d, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                close(d)
                throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a file")
            }
            fd = d; ownsDescriptor = true
        }
        buffer = .allocate(byteCount: max(chunkBytes, 16), alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Calls `body(line, lineNumber)` for every line. Returns the number of lines.
    @discardableResult
    public func forEachLine<E: Error>(_ body: (UnsafeBufferPointer<UInt8>, Int) throws(E) -> Void) throws(E) -> Int {
        var lineNumber = 0
        var filled = 0       // bytes valid in buffer
        var start = 0        // start of the current (unfinished) line
        var scanFrom = 0
        var eof = false
        var firstChunk = true
        while true {
            // Find complete lines in buffer[start..<filled].
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var i = scanFrom
            while i < filled {
                if base[i] == 0x0A {
                    var end = i
                    if end > start && base[end - 1] == 0x0D { end -= 1 }
                    lineNumber += 1
                    try body(UnsafeBufferPointer(start: base + start, count: end - start), lineNumber)
                    start = i + 1
                }
                i += 1
            }
            scanFrom = filled
            if eof {
                if start < filled {
                    var end = filled
                    if base[end - 1] == 0x0D { end -= 1 }
                    lineNumber += 1
                    try body(UnsafeBufferPointer(start: base + start, count: end - start), lineNumber)
                }
                return lineNumber
            }
            // Move the unfinished line to the front, grow if one line fills the buffer.
            if start > 0 {
                let rest = filled - start
                if rest > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, rest) }
                filled = rest; scanFrom = rest; start = 0
            }
            if filled == buffer.count {
                if buffer.count >= maxLineBytes {
                    // Hand over what we have as one line rather than grow without bound.
                    lineNumber += 1
                    try body(UnsafeBufferPointer(start: base, count: filled), lineNumber)
                    filled = 0; scanFrom = 0
                } else {
                    let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, maxLineBytes), alignment: 16)
                    bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
                    buffer.deallocate()
                    buffer = bigger
                }
            }
            let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n <= 0 { eof = true; continue }
            if firstChunk {
                firstChunk = false
                let b = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if n >= 3 && filled == 0 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
                    memmove(buffer.baseAddress!, buffer.baseAddress! + 3, n - 3)
                    filled += n - 3; continue
                }
            }
            filled += n
        }
    }

    /// Reads a whole (small) file into memory.
    public static func readAll(path: String) throws(InputError) -> [UInt8] {
        let r = try LineReader(path: path)
        var out: [UInt8] = []
        r.forEachLine { line, _ in out.append(contentsOf: line); out.append(0x0A) }
        return out
    }
}

/// Splits one line into fields on a single-byte delimiter, reporting byte ranges. Fields may
/// be wrapped in double quotes (the quotes are not part of the range; a doubled quote inside
/// stays as two bytes). Splitting on spaces treats a run of spaces as one delimiter.
public struct FieldSplitter {
    public let delimiter: UInt8
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

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes `start..<end` as text (for error messages and headers).
    public func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[start..<end]), as: UTF8.self)
    }
}
