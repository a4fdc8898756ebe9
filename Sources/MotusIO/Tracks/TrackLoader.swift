import MotusCore

/// Opens any track Motus reads, by content: FIT (`.FIT` at byte 8), GPX (`<gpx`), TCX
/// (`<TrainingCenterDatabase`), an encoded polyline (only characters '?'…'~'; precision 6 for
/// `*.polyline6`, else 5), or any recording `RecordingLoader` reads that has a location stream.
///
/// MotusGeo adds `TrackLoader.load(path:)`, which also turns a recording into a `Track`
/// (altitude from a pressure stream, still intervals from an accelerometer).
public enum TrackLoader {
    public enum Format: String, Sendable { case fit, gpx, tcx, polyline, recording }

    /// What a track file holds: the points of a FIT, GPX, TCX or polyline file, or a recording
    /// with a location stream.
    public enum Contents: Sendable {
        case track(Track)
        case recording(Recording)
    }

    public static func detect(path: String) throws(InputError) -> Format {
        guard DatasetLocator.exists(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing there", expected: "a track file (FIT, GPX, TCX, polyline or .motus)")
        }
        if DatasetLocator.isDirectory(path) {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a track file")
        }
        // An unreadable file gives no bytes here; `RecordingLoader` then reports why.
        let head = ReaderFiles.headBytes(path, count: 512)
        if FITReader.looksLikeFIT(head) { return .fit }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<gpx") { return .gpx }
        if text.contains("<TrainingCenterDatabase") { return .tcx }
        let body = head.filter { $0 != 0x0A && $0 != 0x0D }
        if !body.isEmpty, !NativeFormat.isNative(path: path), body.allSatisfy({ $0 >= 63 && $0 <= 126 }) { return .polyline }
        return .recording
    }

    /// Reads a track file; a recording must have a location stream.
    public static func read(path: String) throws(InputError) -> Contents {
        switch try detect(path: path) {
        case .fit: return .track(try FITReader.read(path: path))
        case .gpx: return .track(try GPXReader.read(path: path))
        case .tcx: return .track(try TCXReader.read(path: path))
        case .polyline: return .track(try Polyline.readTrack(path: path))
        case .recording:
            let r = try RecordingLoader.load(path: path)
            guard r.stream(.location) != nil else {
                throw InputError(.missingColumn, at: SourceLocation(file: path), found: "streams \(r.streams.map(\.name).joined(separator: ", "))", expected: "a location stream")
            }
            return .recording(r)
        }
    }
}
