#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore
import MotusIO

/// Opens any track Motus reads, by content: FIT (`.FIT` at byte 8), GPX (`<gpx`), TCX
/// (`<TrainingCenterDatabase`), an encoded polyline (only characters '?'…'~'; precision 6 for
/// `*.polyline6`, else 5), or any recording `RecordingLoader` reads that has a location stream.
public enum TrackLoader {
    public enum Format: String, Sendable { case fit, gpx, tcx, polyline, recording }

    public static func detect(path: String) throws(InputError) -> Format {
        guard DatasetLocator.exists(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing there", expected: "a track file (FIT, GPX, TCX, polyline or .motus)")
        }
        if DatasetLocator.isDirectory(path) {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a track file")
        }
        let head = try GeoFiles.readHead(path, 512)
        if FITReader.looksLikeFIT(head) { return .fit }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<gpx") { return .gpx }
        if text.contains("<TrainingCenterDatabase") { return .tcx }
        let body = head.filter { $0 != 0x0A && $0 != 0x0D }
        if !body.isEmpty, !NativeFormat.isNative(path: path), body.allSatisfy({ $0 >= 63 && $0 <= 126 }) { return .polyline }
        return .recording
    }

    public static func load(path: String) throws(InputError) -> Track {
        switch try detect(path: path) {
        case .fit: return try FITReader.read(path: path)
        case .gpx: return try GPXReader.read(path: path)
        case .tcx: return try TCXReader.read(path: path)
        case .polyline: return try Polyline.readTrack(path: path)
        case .recording:
            let r = try RecordingLoader.load(path: path)
            guard r.stream(.location) != nil else {
                throw InputError(.missingColumn, at: SourceLocation(file: path), found: "streams \(r.streams.map(\.name).joined(separator: ", "))", expected: "a location stream")
            }
            return Track(recording: r, source: path)
        }
    }
}

extension GeoFiles {
    static func readHead(_ path: String, _ n: Int) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing readable there", expected: "a track file") }
        defer { _ = Posix.close(fd) }
        var buf = [UInt8](repeating: 0, count: n)
        let got = buf.withUnsafeMutableBytes { Posix.read(fd, $0.baseAddress!, n) }
        return Array(buf.prefix(max(0, got)))
    }
}
