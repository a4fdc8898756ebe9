#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why an output path cannot be used, in one line that names the part of the path at fault:
/// `cannot create folder '/etc/passwd/x': '/etc/passwd' is not a folder`.
public struct OutputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole message, e.g. `cannot create folder '/etc/passwd/x': '/etc/passwd' is not a folder`.
    public var message: String
    /// An error carrying `message`.
    public init(_ message: String) { self.message = message }
    /// The message as it is.
    public var description: String { message }
}

/// Prepares the paths commands write to (`--out`, `--profile`, `--plot`): creates the missing
/// folders (`mkdir -p`) and, when that cannot be done, says which component is in the way and
/// why, before anything is written.
public enum OutputPath {
    /// Creates the folder `path` and its missing parents. Throws when a component exists but is
    /// not a folder, or cannot be created (with the system's reason).
    public static func prepareFolder(_ path: String) throws(OutputPathError) {
        let folder = trimmed(path)
        try makeFolders(folder, for: "cannot create folder '\(folder)'")
    }

    /// Makes `path` ready to be written as a file: its missing parent folders are created. Throws
    /// when `path` is a folder (or ends in `/`), or when a parent cannot be made.
    public static func prepareFile(_ path: String) throws(OutputPathError) {
        guard !path.isEmpty else { throw OutputPathError("cannot write '': expected a file name") }
        if path.hasSuffix("/") || isDirectory(path) {
            if let f = notAFolder(in: trimmed(path)) { throw OutputPathError("cannot write '\(path)': '\(f)' is not a folder") }
            throw OutputPathError("cannot write '\(path)': expected a file name, found \(isDirectory(path) ? "a folder" : "a name ending in '/'")")
        }
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = String(path[..<slash])
        if parent.isEmpty { return }
        try makeFolders(trimmed(parent), for: "cannot write '\(path)'")
    }

    /// `path` without trailing slashes ("/" stays).
    static func trimmed(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }

    /// Whether `path` is a folder (following symbolic links).
    public static func isFolder(_ path: String) -> Bool { isDirectory(path) }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The first component of `folder` that exists and is not a folder (nil when none).
    static func notAFolder(in folder: String) -> String? {
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            var st = stat()
            guard stat(prefix, &st) == 0 else { return nil }
            if (st.st_mode & S_IFMT) != S_IFDIR { return prefix }
        }
        return nil
    }

    static func makeFolders(_ folder: String, for what: String) throws(OutputPathError) {
        if isDirectory(folder) { return }
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            var st = stat()
            if stat(prefix, &st) == 0 {
                if (st.st_mode & S_IFMT) == S_IFDIR { continue }
                throw OutputPathError("\(what): '\(prefix)' is not a folder")
            }
            if mkdir(prefix, 0o755) != 0 {
                let e = errno
                if e == EEXIST && isDirectory(prefix) { continue }
                let reason = String(cString: strerror(e)).lowercased()
                throw OutputPathError(prefix == folder && what.hasPrefix("cannot create folder") ? "\(what): \(reason)" : "\(what): cannot create '\(prefix)': \(reason)")
            }
        }
    }
}
