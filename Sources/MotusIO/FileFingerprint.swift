#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// What `stat` says about a file that changes when its content is replaced or rewritten:
/// device and inode (a file renamed over it, a folder deleted and made again), size, and the
/// modification and status-change times to the nanosecond (a rewrite in place, even one that
/// keeps the size or sets the modification time back). Two equal fingerprints taken before
/// and after a read mean nobody wrote to the file in between.
public struct FileFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The device holding the file (`st_dev`).
    public var device: UInt64
    /// The file's inode number on that device (`st_ino`).
    public var inode: UInt64
    /// The file's size in bytes (`st_size`).
    public var size: Int64
    /// The last modification time (`st_mtim`): whole seconds since the Unix epoch…
    public var modifiedSeconds: Int64
    /// …and the nanoseconds (0…999,999,999) past them.
    public var modifiedNanoseconds: Int64
    /// The last status change (`st_ctim`: a write, a rename, a change of owner or mode), which,
    /// unlike the modification time, no program can set back: whole seconds since the Unix epoch…
    public var changedSeconds: Int64
    /// …and the nanoseconds (0…999,999,999) past them.
    public var changedNanoseconds: Int64

    /// The fingerprint of the file at `path`, following symbolic links; nil when nothing is there.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(st.st_mtimespec.tv_sec); modifiedNanoseconds = Int64(st.st_mtimespec.tv_nsec)
        changedSeconds = Int64(st.st_ctimespec.tv_sec); changedNanoseconds = Int64(st.st_ctimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(st.st_mtim.tv_sec); modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
        changedSeconds = Int64(st.st_ctim.tv_sec); changedNanoseconds = Int64(st.st_ctim.tv_nsec)
        #endif
    }

    /// The inode and size, for messages ("inode 1234, 5678 bytes").
    public var description: String { "inode \(inode), \(size) bytes" }

    /// How `after` differs from `self`, in words for a message ("size 120 → 64 bytes").
    public func difference(to after: FileFingerprint) -> String {
        if device != after.device || inode != after.inode { return "replaced by another file (inode \(inode) → \(after.inode))" }
        if size != after.size { return "size \(size) → \(after.size) bytes" }
        return "rewritten (modification time changed)"
    }
}

/// The fingerprints of a set of files (absent ones included, as nil), taken at one moment, so
/// that a later look can say which of them changed, appeared or went away.
public struct FileSnapshot: Sendable, Hashable {
    /// Path → fingerprint, nil for a path where no file was.
    public private(set) var files: [String: FileFingerprint?]
    /// The paths in the order given (for messages that name the first change).
    public private(set) var paths: [String]

    /// Fingerprints each of `paths` now (each once, in the order first given), recording nil
    /// for a path where nothing is.
    public init(_ paths: [String]) {
        var seen = Set<String>(), order: [String] = []
        var files: [String: FileFingerprint?] = [:]
        for p in paths where seen.insert(p).inserted {
            order.append(p)
            files[p] = .some(FileFingerprint(path: p))
        }
        self.files = files
        self.paths = order
    }

    /// The first file whose fingerprint is not the same in `later` (or that one of the two does
    /// not list), with what changed; nil when every file is as it was.
    public func firstChange(in later: FileSnapshot) -> (path: String, change: String)? {
        for p in paths {
            let a = files[p] ?? nil
            guard let entry = later.files[p] else { return (p, "no longer read") }
            let b = entry
            switch (a, b) {
            case (nil, nil): continue
            case (nil, .some): return (p, "appeared")
            case (.some, nil): return (p, "went away")
            case (.some(let x), .some(let y)): if x != y { return (p, x.difference(to: y)) }
            }
        }
        for p in later.paths where files[p] == nil { return (p, "newly listed") }
        return nil
    }
}

/// Reads that must see each file whole and as it was: the one check that every dataset load
/// (`Dataset.load`) and every evaluation run goes through.
public enum StableRead {
    /// A seam for tests, bound with `StableRead.$willRead.withValue(…)`: called after the
    /// "before" fingerprints are taken and before `body` reads (nil in normal use). Tests use
    /// it to rewrite a file in the middle of a read. Task-local, so it touches no other task.
    @TaskLocal public static var willRead: (@Sendable (_ paths: [String]) -> Void)? = nil

    /// The error for a file that changed while it was read: `path: found 'changed while it was
    /// read', expected a file that stays the same while Motus reads it (size 120 → 64 bytes; …)`.
    public static func changed(_ path: String, _ change: String, while what: String = "while it was read") -> InputError {
        InputError(.unreadable, at: SourceLocation(file: path), found: "changed \(what)",
                   expected: "a file that stays the same while Motus reads it (\(change); run again once the files are written)")
    }

    /// Runs `body` (which reads `paths`), fingerprinting the files before and after. When any of
    /// them changed, appeared or went away in between, the result is thrown away and the error
    /// names that file, also when `body` failed (a half-written file fails to parse: the change
    /// is the cause to report).
    public static func read<T>(_ paths: [String], _ body: () throws(InputError) -> T) throws(InputError) -> T {
        let before = FileSnapshot(paths)
        willRead?(paths)
        let result: Result<T, InputError>
        do { result = .success(try body()) } catch { result = .failure(error) }
        if let (p, change) = before.firstChange(in: FileSnapshot(paths)) { throw changed(p, change) }
        return try result.get()
    }
}
