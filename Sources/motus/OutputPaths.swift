import Motus

/// The one place commands prepare what they write (`--out`, `--profile`, `--plot`): missing
/// folders are created, and a path that cannot be used is a one-line error naming the part of
/// it at fault, before any work is done.
enum OutputPaths {
    /// A file to be written; its missing parent folders are created.
    static func file(_ path: String) throws {
        do { try OutputPath.prepareFile(path) } catch { throw CLIError(error.message) }
    }

    /// A folder to write into, created with its parents when missing.
    static func folder(_ path: String) throws {
        do { try OutputPath.prepareFolder(path) } catch { throw CLIError(error.message) }
    }
}
