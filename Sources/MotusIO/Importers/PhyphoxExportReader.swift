import MotusCore

/// phyphox exports: a folder (an unzipped "CSV" export) with one CSV per sensor of the
/// experiment, `Accelerometer.csv`, `Gyroscope.csv`, `Linear Acceleration.csv`,
/// `Magnetometer.csv`, `Location.csv`, `Pressure.csv` … or one `Raw Data.csv`, each with a
/// quoted header carrying units (`"Time (s)","X (m/s^2)","Y (m/s^2)","Z (m/s^2)"`), and a
/// `meta/` folder in newer versions.
///
/// Every sensor file is read by the delimited reader (its header and file name say which
/// stream it holds; `AppHeaders.swift`), and the streams are merged into one recording: all
/// of phyphox's times are seconds since the experiment started, one clock for every sensor,
/// so nothing is shifted. Two files giving the same kind of stream are refused (which one
/// would be the recording's is not for Motus to guess), as is a CSV in the folder that is not
/// a phyphox table.
public enum PhyphoxExport {
    /// True when `folder` holds a CSV whose header starts with phyphox's `"Time (s)"`.
    public static func isExport(_ folder: String) -> Bool {
        guard ReaderFiles.isDirectory(folder) else { return false }
        return !sensorFiles(folder).isEmpty
    }

    /// The folder's CSV files whose first line is a phyphox header, sorted by name.
    static func sensorFiles(_ folder: String) -> [String] {
        ReaderFiles.list(folder).sorted().filter { name in
            guard name.lowercased().hasSuffix(".csv"), !name.hasPrefix(".") else { return false }
            return isPhyphoxTable(ReaderFiles.join(folder, name))
        }
    }

    static func isPhyphoxTable(_ path: String) -> Bool {
        guard ReaderFiles.isFile(path) else { return false }
        var head = ReaderFiles.headBytes(path, count: 16)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        return head.starts(with: Array("\"Time (s)\"".utf8))
    }

    /// Reads every sensor file of the export into one recording.
    public static func read(folder: String) throws(InputError) -> Recording {
        let files = sensorFiles(folder)
        guard !files.isEmpty else {
            throw InputError(.emptyFile, at: SourceLocation(file: folder), found: "no phyphox table",
                             expected: "CSV files whose header starts with \"Time (s)\" (a phyphox export)")
        }
        // Other CSV files beside the tables: refused rather than left out unseen.
        for name in ReaderFiles.list(folder).sorted() where name.lowercased().hasSuffix(".csv") && !files.contains(name) {
            throw InputError(.badHeader, at: SourceLocation(file: ReaderFiles.join(folder, name), line: 1),
                             found: String(decoding: ReaderFiles.headBytes(ReaderFiles.join(folder, name), count: 40), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "",
                             expected: "a phyphox table (header starting with \"Time (s)\"), as the other files of this export")
        }
        var out = Recording(metadata: RecordingMetadata(source: "phyphox export " + ReaderFiles.lastComponent(folder)))
        out.metadata.extra["app"] = "phyphox"
        var from: [StreamKind: String] = [:]
        for name in files {
            let path = ReaderFiles.join(folder, name)
            let r = try DelimitedReader(path: path).read()
            for s in r.streams {
                if let other = from[s.kind] {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: 1), found: "a second \(s.kind.title) stream (the first is in \(other))",
                                     expected: "one file per sensor in a phyphox export")
                }
                from[s.kind] = name
                out.streams.append(s)
            }
        }
        return out
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PhyphoxExport {
    /// Reads a phyphox export shared as one `.zip`: its top-level CSV files (the `meta/` folder
    /// and other folders are passed over) are unpacked into a temporary folder, read as an export
    /// folder, and the folder removed. Errors name the file inside the archive
    /// (`export.zip:Accelerometer.csv:12:3`).
    public static func read(zip: String) throws(InputError) -> Recording {
        let archive = try ZipArchive(path: zip)
        let base = (getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var template = Array((base + "/motus-zip-XXXXXX").utf8CString)
        guard let dirPointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw InputError(.unreadable, at: SourceLocation(file: zip), found: String(cString: strerror(errno)), expected: "a temporary folder to unpack into")
        }
        let dir = String(cString: dirPointer)
        var written: [String] = []
        defer {
            for f in written { _ = unlink(f) }
            _ = rmdir(dir)
        }
        for entry in archive.entries where !entry.name.contains("/") && entry.name.lowercased().hasSuffix(".csv") && !entry.name.hasPrefix(".") {
            let data = try archive.contents(of: entry)
            let target = dir + "/" + entry.name
            guard let f = fopen(target, "wb") else {
                throw InputError(.unreadable, at: SourceLocation(file: target), found: String(cString: strerror(errno)), expected: "a file to unpack into")
            }
            written.append(target)
            let n = data.withUnsafeBytes { fwrite($0.baseAddress, 1, data.count, f) }
            fclose(f)
            guard n == data.count else { throw InputError(.unreadable, at: SourceLocation(file: target), found: "a short write", expected: "\(data.count) bytes") }
        }
        do {
            var r = try read(folder: dir)
            r.metadata.source = "phyphox export " + ReaderFiles.lastComponent(zip)
            return r
        } catch {
            var e = error
            if e.location.file.hasPrefix(dir + "/") { e.location.file = zip + ":" + String(e.location.file.dropFirst(dir.count + 1)) }
            else if e.location.file == dir { e.location.file = zip }
            throw e
        }
    }
}
