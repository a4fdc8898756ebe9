#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes going to a file or to standard output, buffered, with the first write error kept: the
/// one output every recording writer (`NativeWriter`, `RecordingCSVWriter`,
/// `RecordingJSONLinesWriter`) writes through.
///
/// Writers append whole lines to `buffer` and call `flushIfFull()` after each. A write that
/// fails part-way (a full disk) is cut back to the last complete line in a file this object
/// opened, so such a file never ends inside a line; standard output is never cut (it may be a
/// file appended to, whose earlier bytes are not ours). The first error is kept and thrown again
/// by every later `flush`, `sync` and `close`, so a sink call that cannot throw loses nothing
/// unnoticed.
public final class OutputBytes {
    /// The file written, as given (`-` for standard output).
    public let path: String
    var fd: Int32
    let owns: Bool
    var buffer: [UInt8] = []
    /// The first write error, if one came.
    public private(set) var failure: NativeWriter.WriteError?
    /// Bytes handed to the operating system so far.
    public private(set) var bytesWritten = 0
    /// Length of an owned file in whole lines (what a failed write is cut back to).
    private var fileLength = 0

    /// Creates (or truncates) `path`; `-` is standard output.
    public convenience init(path: String) throws(NativeWriter.WriteError) {
        if path == "-" { self.init(standardOutput: ()) } else { try self.init(path: path, append: false) }
    }

    /// Creates `path`, truncated, or with `append` continues it after its last byte.
    init(path: String, append: Bool) throws(NativeWriter.WriteError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
        owns = true
        if fd < 0 { throw NativeWriter.WriteError(path: path, message: String(cString: strerror(errno))) }
        if append { fileLength = max(0, Int(lseek(fd, 0, SEEK_END))) }
        buffer.reserveCapacity(1 << 16)
    }

    /// Standard output, which `close` leaves open.
    init(standardOutput: ()) {
        path = "-"
        fd = 1
        owns = false
        buffer.reserveCapacity(1 << 16)
    }

    deinit { if fd >= 0 { try? flush(); if owns { _ = Posix.close(fd) } } }

    /// The output as an error message names it.
    var displayName: String { owns ? path : "standard output" }

    @inline(__always) func append(_ s: String) { buffer.append(contentsOf: s.utf8) }
    @inline(__always) func append(byte b: UInt8) { buffer.append(b) }

    /// A number in the shortest form that reads back to the same double; NaN as `nan` (the
    /// caller writes what stands for "not reported" in its format instead).
    @inline(__always) func append(number v: Double) { Self.append(number: v, to: &buffer) }

    /// `append(number:)` into a buffer a writer holds (see `appendLine`).
    @inline(__always) static func append(number v: Double, to bytes: inout [UInt8]) {
        var d = v.description
        d.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A value as `append(number:)` writes it, or `absent` where the value is not reported:
    /// NaN, and with `finiteOnly` also ±∞ (JSON has no infinity). The one rule every writer
    /// follows: the native and CSV formats leave the field empty, JSON Lines writes `null`.
    @inline(__always) func append(value v: Double, absent: StaticString = "", finiteOnly: Bool = false) {
        Self.append(value: v, absent: absent, finiteOnly: finiteOnly, to: &buffer)
    }

    /// `append(value:absent:finiteOnly:)` into a buffer a writer holds (see `appendLine`).
    @inline(__always) static func append(value v: Double, absent: StaticString = "", finiteOnly: Bool = false,
                                         to bytes: inout [UInt8]) {
        if v.isNaN || (finiteOnly && !v.isFinite) {
            absent.withUTF8Buffer { bytes.append(contentsOf: $0) }
        } else {
            append(number: v, to: &bytes)
        }
    }

    /// Lets `body` append a line to the buffer as one access, then flushes once 64 KiB are
    /// buffered. Appending a line's pieces one by one to this class's buffer has the runtime
    /// check exclusive access at each piece (a sample line has five or more); the buffer is moved
    /// out and back instead, which copies nothing.
    @inline(__always) func appendLine(_ body: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        swap(&bytes, &buffer)
        body(&bytes)
        swap(&bytes, &buffer)
        flushIfFull()
    }

    /// Flushes once 64 KiB are buffered; an error is kept for the next `flush` or `close`.
    @inline(__always) func flushIfFull() { if buffer.count >= 1 << 16 { try? flush() } }

    /// Hands the buffered bytes to the operating system (`write(2)`); throws the first failure.
    public func flush() throws(NativeWriter.WriteError) {
        if let failure { throw failure }
        var off = 0
        while off < buffer.count {
            let n = buffer.withUnsafeBytes { Posix.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                var message = String(cString: strerror(errno))
                var keep = off
                while keep > 0 && buffer[keep - 1] != 0x0A { keep -= 1 }
                if owns && keep < off && ftruncate(fd, off_t(fileLength + keep)) != 0 {
                    message += " (and the unfinished last line could not be cut off: \(String(cString: strerror(errno))))"
                }
                fileLength += keep
                bytesWritten += owns ? keep : off
                let e = NativeWriter.WriteError(path: displayName, message: message)
                failure = e
                throw e
            }
            off += n
        }
        bytesWritten += buffer.count
        fileLength += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and asks the operating system to put the bytes on disk (`fsync`; an output that
    /// cannot be synced, such as a pipe, is not an error).
    public func sync() throws(NativeWriter.WriteError) {
        try flush()
        if fsync(fd) != 0 && errno != EINVAL {
            let e = NativeWriter.WriteError(path: displayName, message: String(cString: strerror(errno)))
            failure = e
            throw e
        }
    }

    /// Flushes; a file is then synced to disk and closed, standard output stays open. Throws the
    /// first write error, also one met before.
    public func close() throws(NativeWriter.WriteError) {
        if owns { try sync(); _ = Posix.close(fd) } else { try flush() }
        fd = -1
    }
}
