#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Standard input (`-`), `/dev/stdin`, named pipes (FIFOs) and other inputs that can be read
/// only once, made readable like a file.
///
/// Deciding how to read a recording looks at it before reading it (is it native? a dataset
/// file?), and each look opened the path and read its first bytes: on a pipe those bytes were
/// then gone, so `cat f | motus inspect /dev/stdin` lost the header's first bytes. Now such an
/// input is copied once, whole, into a temporary file (deleted when the process exits), and
/// every reader reads that (on Linux the copy is unlinked at once and read through
/// `/proc/self/fd`, so nothing is left behind). Messages name the input as the user gave it: errors thrown and
/// notices posted by `RecordingLoader` and `SampleReader` have the temporary path replaced,
/// and `-` is shown as `<stdin>`.
public enum InputSpool {
    /// How standard input is named in messages.
    public static let standardInputName = "<stdin>"

    final class Registry: @unchecked Sendable {
        var lock = pthread_mutex_t()
        /// Original path → spooled copy, and the copy → the name shown.
        var copies: [String: String] = [:]
        var names: [String: String] = [:]
        var cleanupInstalled = false
        init() { pthread_mutex_init(&lock, nil) }
    }
    static let registry = Registry()

    /// True for `-` and for paths that are neither regular files nor folders (pipes, FIFOs,
    /// character devices such as `/dev/stdin`).
    public static func needsSpooling(_ path: String) -> Bool {
        if path == "-" { return true }
        var st = stat()
        guard stat(path, &st) == 0 else { return false }   // missing: the reader says so
        let type = st.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// A path every reader can open as often as it likes: `path` itself for regular files and
    /// folders; for standard input, pipes and devices a temporary copy of everything they give,
    /// made once per path and process.
    public static func readablePath(for path: String) throws(InputError) -> String {
        guard needsSpooling(path) else { return path }
        pthread_mutex_lock(&registry.lock)
        defer { pthread_mutex_unlock(&registry.lock) }
        if let copy = registry.copies[path] { return copy }
        let source = path == "-" ? Int32(0) : open(path, O_RDONLY)
        if source < 0 {
            throw InputError(.unreadable, at: SourceLocation(file: displayName(path)), found: String(cString: strerror(errno)), expected: "a readable input")
        }
        defer { if path != "-" { _ = Posix.close(source) } }
        let base = (getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var template = Array((base + "/motus-input-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 {
            throw InputError(.unreadable, at: SourceLocation(file: displayName(path)), found: String(cString: strerror(errno)),
                             expected: "a temporary file in \(base) to hold the input (set TMPDIR)")
        }
        let file = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #if os(Linux)
        // The copy is unlinked at once and read through /proc/self/fd/N, which opens the file
        // afresh each time (its own offset): nothing is left behind however the process ends
        // (a broken pipe, Ctrl-C). The descriptor stays open for the life of the process.
        _ = unlink(file)
        let copy = "/proc/self/fd/\(fd)"
        #else
        // Elsewhere the copy is a named file, removed when the process exits normally.
        let copy = file
        if !registry.cleanupInstalled {
            registry.cleanupInstalled = true
            atexit { InputSpool.removeCopies() }
        }
        defer { _ = Posix.close(fd) }
        #endif
        registry.copies[path] = copy
        registry.names[copy] = path == "-" ? standardInputName : path
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Posix.read(source, buffer, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(.unreadable, at: SourceLocation(file: displayName(path)), found: String(cString: strerror(errno)), expected: "a readable input")
            }
            if n == 0 { break }
            var off = 0
            while off < n {
                let w = Posix.write(fd, buffer + off, n - off)
                if w < 0 {
                    if errno == EINTR { continue }
                    throw InputError(.unreadable, at: SourceLocation(file: displayName(path)), found: String(cString: strerror(errno)),
                                     expected: "room in \(base) for a copy of the input (set TMPDIR)")
                }
                off += w
            }
        }
        return copy
    }

    /// The name to show for `path`: the input a spooled copy was made from, `<stdin>` for
    /// `-`, else `path`.
    public static func displayName(_ path: String) -> String {
        if path == "-" { return standardInputName }
        pthread_mutex_lock(&registry.lock)
        defer { pthread_mutex_unlock(&registry.lock) }
        return registry.names[path] ?? path
    }

    /// `text` with every spooled copy's path replaced by the name of its input.
    public static func restoringNames(_ text: String) -> String {
        pthread_mutex_lock(&registry.lock)
        let names = registry.names
        pthread_mutex_unlock(&registry.lock)
        guard !names.isEmpty else { return text }
        var out = text
        // Longer paths first, so /proc/self/fd/31 is not read as /proc/self/fd/3 and a "1".
        for (copy, name) in names.sorted(by: { $0.key.count > $1.key.count }) where out.contains(copy) { out = out.replacingAll(copy, with: name) }
        return out
    }

    /// `error` naming the input instead of its spooled copy.
    public static func renamed(_ error: InputError) -> InputError {
        var e = error
        e.location.file = displayName(e.location.file)
        return e
    }

    static func removeCopies() {
        pthread_mutex_lock(&registry.lock)
        for copy in registry.copies.values { _ = unlink(copy) }
        registry.copies = [:]
        pthread_mutex_unlock(&registry.lock)
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        let t = Array(target.utf8), s = Array(utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if i + t.count <= s.count && s[i] == t[0] && Array(s[i..<(i + t.count)]) == t {
                out.append(contentsOf: replacement.utf8)
                i += t.count
            } else {
                out.append(s[i]); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
