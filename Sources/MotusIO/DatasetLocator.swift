#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds the real datasets that tests, benchmarks and CI read: the folder named by the
/// `MOTUS_DATASETS` environment variable, else `../shared/datasets` next to the package.
public enum DatasetLocator {
    /// The shared datasets folder, or nil when it is absent (tests then skip with a message).
    /// `packageRoot` is the folder holding Package.swift.
    public static func sharedDatasets(packageRoot: String) -> String? {
        if let env = getenv("MOTUS_DATASETS") {
            let p = String(cString: env)
            return isDirectory(p) ? p : nil
        }
        let p = packageRoot + "/../shared/datasets"
        return isDirectory(p) ? p : nil
    }

    /// The package's own `datasets/` folder (the bundled real sample).
    public static func bundledDatasets(packageRoot: String) -> String { packageRoot + "/datasets" }

    /// The package root for a test file: walks up from `#filePath` to the folder holding Package.swift.
    public static func packageRoot(fromFile file: String) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while !parts.isEmpty {
            parts.removeLast()
            let dir = parts.joined(separator: "/")
            if access(dir + "/Package.swift", F_OK) == 0 { return dir }
        }
        return "."
    }

    /// True when `path` names a directory (following symbolic links); false when it is absent,
    /// unreadable or anything else.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when something exists at `path` (a file, a directory, a device; a symbolic link counts
    /// only when its target exists).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
