#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Opens any track Motus reads, by content: FIT (`.FIT` at byte 8), GPX (root `<gpx>`), TCX
/// (root `<TrainingCenterDatabase>`), an encoded polyline (only characters '?'…'~'; precision 6 for
/// `*.polyline6`, else 5), or any recording `RecordingLoader` reads that has a location stream.
///
/// MotusGeo adds `TrackLoader.load(path:)`, which also turns a recording into a `Track`
/// (altitude from a pressure stream, still intervals from an accelerometer).
public enum TrackLoader {
    /// The kinds of file a track is read from.
    public enum Format: String, Sendable {
        /// A FIT activity file (`FITReader`).
        case fit
        /// A GPX file (`GPXReader`).
        case gpx
        /// A Training Center XML file (`TCXReader`).
        case tcx
        /// An encoded polyline (`Polyline`).
        case polyline
        /// A recording with a location stream (`RecordingLoader`).
        case recording
    }

    /// What a track file holds: the points of a FIT, GPX, TCX or polyline file, or a recording
    /// with a location stream.
    public enum Contents: Sendable {
        /// The points of a FIT, GPX, TCX or polyline file.
        case track(Track)
        /// A recording, whose location stream holds the points.
        case recording(Recording)
    }

    /// The format of the file at `path`, by content: FIT by its header; XML by its root element
    /// (`<gpx>`, `<TrainingCenterDatabase>`) after any byte order mark, XML declaration,
    /// comments, processing instructions and DOCTYPE, in UTF-8 or UTF-16 (another root, or a
    /// prolog longer than 1 MiB, goes by the name: `.tcx` to the TCX reader, else the GPX
    /// reader, which say what they found); an encoded polyline; else a recording. An empty file
    /// is `.emptyFile`, naming the format its extension promises.
    public static func detect(path: String) throws(InputError) -> Format {
        guard DatasetLocator.exists(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing there", expected: "a track file (FIT, GPX, TCX, polyline or .motus)")
        }
        if DatasetLocator.isDirectory(path) {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a track file")
        }
        // An unreadable file gives no bytes here; the reader then reports why.
        let head = ReaderFiles.headBytes(path, count: 4096)
        if head.isEmpty, let e = emptyFileError(path: path, expectedDefault: "a track file (FIT, GPX, TCX, polyline or .motus)") { throw e }
        if FITReader.looksLikeFIT(head) { return .fit }
        if looksLikeXML(head) {
            let prolog = head.count < 4096 ? head : ReaderFiles.headBytes(path, count: 1 << 20)
            switch xmlRootName(prolog) {
            case "gpx": return .gpx
            case "TrainingCenterDatabase": return .tcx
            default: return path.lowercased().hasSuffix(".tcx") ? .tcx : .gpx
            }
        }
        let body = head.filter { $0 != 0x0A && $0 != 0x0D }
        if !body.isEmpty, !NativeFormat.isNative(path: path), body.allSatisfy({ $0 >= 63 && $0 <= 126 }) { return .polyline }
        return .recording
    }

    /// The error for an empty file at `path` (nil when it is not empty, or cannot be read): the
    /// format its extension names (FIT, GPX, TCX, JSON, CSV, native, polyline) is what was
    /// expected, else `expectedDefault` (nil: no error for other names, nor for delimited text,
    /// whose reader says what it expected).
    public static func emptyFileError(path: String, expectedDefault: String?) -> InputError? {
        guard DatasetLocator.exists(path), !DatasetLocator.isDirectory(path), fileSize(path) == 0 else { return nil }
        let ext = path.split(separator: "/").last.flatMap { n in n.lastIndex(of: ".").map { String(n[n.index(after: $0)...]).lowercased() } } ?? ""
        let expected: String
        switch ext {
        case "fit": expected = "a FIT file (a 12 or 14 byte header, then records)"
        case "gpx": expected = "a GPX file (<gpx> …)"
        case "tcx": expected = "a TCX file (<TrainingCenterDatabase> …)"
        case "json": expected = "a JSON document"
        case "csv", "txt", "tsv":
            guard expectedDefault != nil else { return nil }
            expected = "a header line and rows of numbers"
        case "motus": expected = "a native recording (#motus,1 …)"
        case "polyline", "polyline6": expected = "an encoded polyline"
        default:
            guard let d = expectedDefault else { return nil }
            expected = d
        }
        return InputError(.emptyFile, at: SourceLocation(file: path), found: "an empty file", expected: expected)
    }

    /// The size of the file at `path` in bytes (nil when it cannot be read).
    static func fileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// Whether `head` starts (after a byte order mark and white space, UTF-8 or UTF-16) with
    /// XML markup: `<?`, `<!` or a start tag.
    static func looksLikeXML(_ head: [UInt8]) -> Bool {
        guard let text = try? ReaderXMLParser.utf8(Array(head.prefix(head.count & ~1)), path: "") else { return false }
        var k = 0
        if text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF { k = 3 }
        while k < text.count && ReaderXMLParser.isSpace(text[k]) { k += 1 }
        guard k + 1 < text.count, text[k] == UInt8(ascii: "<") else { return false }
        let n = text[k + 1]
        return n == UInt8(ascii: "?") || n == UInt8(ascii: "!") || (n >= 65 && n <= 90) || (n >= 97 && n <= 122) || n == UInt8(ascii: "_")
    }

    /// The local name of the root element of the XML document starting `prolog` (nil when the
    /// prolog does not end inside it, or is not XML).
    static func xmlRootName(_ prolog: [UInt8]) -> String? {
        guard let text = try? ReaderXMLParser.utf8(Array(prolog.prefix(prolog.count & ~1)), path: "") else { return nil }
        var p = ReaderXMLParser(path: "", bytes: text)
        var probe = RootProbe()
        do { try p.parse(into: &probe) } catch {}
        return probe.root.map { XMLTrackParser.localName($0) }
    }

    /// Stops the parse at the first start tag.
    struct RootProbe: ReaderXMLHandler {
        var root: String?
        mutating func startElement(_ name: String, attributes: [(name: String, value: String)], offset: Int) throws(InputError) {
            root = name
            throw InputError(.badValue, at: SourceLocation(file: ""), found: "", expected: "")
        }
        mutating func endElement(_ name: String, text: [UInt8], textOffset: Int) throws(InputError) {}
    }

    /// Reads a track file; a recording must have a location stream. Standard input (`-`),
    /// pipes and devices are copied whole first (`InputSpool`): detecting the format reads the
    /// first bytes, which a pipe would otherwise lose.
    public static func read(path given: String) throws(InputError) -> Contents {
        let path = try InputSpool.readablePath(for: given)
        do {
            switch try readReadable(path: path) {
            case .track(var t):
                if t.source == path { t.source = InputSpool.displayName(path) }
                return .track(t)
            case .recording(let r): return .recording(r)
            }
        } catch { throw InputSpool.renamed(error) }
    }

    static func readReadable(path: String) throws(InputError) -> Contents {
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
