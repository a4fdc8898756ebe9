#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFuzzDriver
import MotusCore

/// What every fuzz target shares: the libFuzzer driver, a scratch folder for readers that
/// want a path, splitting one input into several files, and the rule for what counts as a
/// finding.
///
/// A reader may reject an input with its typed error (`InputError`, or the model's
/// `ClassifierError`): that is the promised behaviour. A trap, a sanitizer report, a timeout
/// or running out of memory is a finding. With `MOTUS_FUZZ_STRICT=1` a result is also checked
/// for values that should have been an error (non-finite samples, times beyond ±1e10 s of the
/// first, latitudes off the globe): such a result traps with a message saying which rule broke.
public enum Fuzz {
    nonisolated(unsafe) static var body: ((UnsafeBufferPointer<UInt8>) -> Void)?
    nonisolated(unsafe) static var root = ""
    nonisolated(unsafe) static var written: [String] = []
    nonisolated(unsafe) static var folders: Set<String> = []
    /// True when results are checked for silently accepted values (`MOTUS_FUZZ_STRICT=1`).
    public nonisolated(unsafe) static var strict = false

    /// Runs libFuzzer with `body` as the target (argv holds libFuzzer's flags and corpus folders).
    public static func main(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
        Fuzz.body = body
        strict = getenv("MOTUS_FUZZ_STRICT").map { String(cString: $0) == "1" } ?? false
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        root = "\(base)/motus-fuzz-\(getpid())"
        mkdir(root, 0o700)
        atexit { Fuzz.removeScratch() }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in LLVMFuzzerTestOneInput(data, size) })
    }

    /// One input: runs the target's closure, then removes the files it wrote.
    static func one(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        Fuzz.body?(UnsafeBufferPointer(start: size == 0 ? nil : data, count: size))
        Fuzz.removeWritten()
    }

    // MARK: Inputs made of several files

    /// The line that separates the files of a multi-file input.
    public static let separator: [UInt8] = Array("\n--8<--\n".utf8)

    /// Splits an input at `separator` into at most `count` parts; the last part keeps any
    /// further separators. Fewer parts than `count` means the later files are absent.
    public static func parts(_ data: UnsafeBufferPointer<UInt8>, count: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0, i = 0
        let s = separator
        while i + s.count <= data.count && out.count < count - 1 {
            var match = true
            for k in 0..<s.count where data[i + k] != s[k] { match = false; break }
            if match {
                out.append(Array(data[start..<i]))
                i += s.count; start = i
            } else {
                i += 1
            }
        }
        out.append(Array(data[start..<data.count]))
        return out
    }

    // MARK: Scratch files

    /// Writes `bytes` to `relative` inside this process's scratch folder (creating folders on
    /// the way) and returns the full path. Files are removed after each input.
    @discardableResult
    public static func write(_ bytes: [UInt8], to relative: String) -> String {
        let path = root + "/" + relative
        var folder = root
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            if !folders.contains(folder) { mkdir(folder, 0o700); folders.insert(folder) }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { fatalError("fuzz harness: cannot create \(path)") }
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, bytes.count - off) }
            guard n > 0 else { fatalError("fuzz harness: cannot write \(path)") }
            off += n
        }
        close(fd)
        written.append(path)
        return path
    }

    /// The full path of `relative` in the scratch folder (for a folder to hand to a reader).
    public static func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

    static func removeWritten() {
        for p in written { unlink(p) }
        written.removeAll(keepingCapacity: true)
    }

    static func removeScratch() {
        removeWritten()
        for f in folders.sorted(by: { $0.count > $1.count }) { rmdir(f) }
        rmdir(root)
    }

    // MARK: What counts as a finding

    /// Runs one read. A thrown error of the reader's own type is a clean rejection; it must be
    /// one line that names a file.
    public static func read<T, E: Error & CustomStringConvertible>(_ body: () throws(E) -> T) -> T? {
        do {
            return try body()
        } catch {
            let text = error.description
            if text.contains(where: { $0 == "\n" || $0 == "\r" }) {
                fatalError("error message on more than one line: \(text.debugDescription)")
            }
            if let e = error as? InputError, e.location.file.isEmpty {
                fatalError("error names no file: \(text)")
            }
            return nil
        }
    }

    /// With `strict`, traps when a recording holds a value a reader should have refused.
    public static func check(_ r: Recording?) {
        guard strict, let r else { return }
        var first: Double? = nil
        for s in r.streams {
            for i in 0..<s.count {
                let t = s.times[i]
                guard t.isFinite else { fatalError("strict: stream \(s.name) sample \(i) has time \(t)") }
                if first == nil { first = t }
                if let f = first, abs(t - f) > 1e10 {
                    fatalError("strict: stream \(s.name) sample \(i) has time \(t), more than 1e10 s from the first (\(f))")
                }
                for c in 0..<s.width {
                    let v = s.value(i, c)
                    if v.isFinite || (v.isNaN && s.kind.allowsMissing(component: c)) { continue }
                    fatalError("strict: stream \(s.name) sample \(i) component \(c) is \(v)")
                }
            }
        }
        for l in r.labels where !(l.start.isFinite && l.end.isFinite) {
            fatalError("strict: label \(l.label) spans \(l.start)...\(l.end)")
        }
        for e in r.events where !e.time.isFinite { fatalError("strict: event \(e.kind) at \(e.time)") }
    }

    /// With `strict`, traps when a track holds a position off the globe (a point without a fix,
    /// NaN latitude and longitude, is allowed) or an infinite time.
    public static func check(_ t: Track?) {
        guard strict, let t else { return }
        for i in t.latitudes.indices {
            let la = t.latitudes[i], lo = t.longitudes[i]
            if la.isNaN && lo.isNaN { continue }   // a point without a fix (FIT records indoors)
            guard la.isFinite, lo.isFinite, abs(la) <= 90, abs(lo) <= 180 else {
                fatalError("strict: track point \(i) at latitude \(la), longitude \(lo)")
            }
        }
        for (i, x) in t.times.enumerated() where x.isInfinite { fatalError("strict: track point \(i) has time \(x)") }
    }
}

/// libFuzzer's callback. `Fuzz.main` passes it to the driver; the symbol is also what
/// libFuzzer's own `main` (linked in, but not used) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.one(data, size)
    return 0
}
