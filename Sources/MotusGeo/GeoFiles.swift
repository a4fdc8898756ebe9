#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore
import MotusIO

/// Whole-file reads and writes for the track readers (files here are at most a few MB).
enum GeoFiles {
    static func readAll(_ path: String) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing readable there", expected: "a track file (FIT, GPX, TCX, polyline or .motus)")
        }
        defer { _ = Posix.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a track file")
        }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < out.count {
            let n = out.withUnsafeMutableBytes { Posix.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n <= 0 { break }
            got += n
        }
        if got < out.count { out.removeLast(out.count - got) }
        return out
    }

    /// Writes text to a file; false when it cannot be written.
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { _ = Posix.close(fd) }
        var ok = true
        var s = text
        s.withUTF8 { p in
            var off = 0
            while off < p.count {
                let n = Posix.write(fd, p.baseAddress! + off, p.count - off)
                if n <= 0 { ok = false; return }
                off += n
            }
        }
        return ok
    }
}
