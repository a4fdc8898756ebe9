#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Motus's own recording format: UTF-8 text, one record per line, comma-separated, written
/// append-only so that a recorder can flush it every second and a crash loses at most what
/// was not yet flushed. It round-trips exactly: numbers are written in the shortest form that
/// reads back to the same double.
///
/// ```
/// #motus,1                                   first line: magic and version
/// @meta,device,"iPhone X"                    metadata (text values quoted)
/// @stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2   declare stream `acc` of kind `acc` (columns informative)
/// acc,12.34,0.12,9.79,0.31                   one sample: stream name, time (s), values (SI)
/// @label,0.0,12.0,"still"                    label segment [start, end)
/// @event,6.74,"step","left"                  ground-truth event: time, kind, detail
/// # anything                                 comment
/// ```
///
/// Rules: a stream is declared before its first sample; an empty value field means "not
/// reported" and is allowed only where the kind allows it (step-counter distance, location
/// fields after longitude); timestamps of one stream may go backwards by at most
/// `backwardsTolerance` seconds (the resampler re-sorts such rows), and lie within
/// `ReadingRules.maxTimeSpanSeconds` of the stream's first sample; at most
/// `ReadingRules.maxStreams` streams. Motus ends every line with a newline, so a last line
/// without one was cut short (a crash, or a file still being written): reading it is an
/// error unless `incompleteLastLine` is `.drop`, which leaves it out. See docs/FORMAT.md.
public enum NativeFormat {
    /// The first field of a native file's first line (`#motus,1`), which `isNative` looks for.
    public static let magic = "#motus"
    /// The format version this reader reads and the writer writes; a newer version is refused.
    public static let version = 1
    /// The file name extension of native recordings, without the dot.
    public static let fileExtension = "motus"


    /// True when the file starts with the native magic line.
    public static func isNative(path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        if fd < 0 { return false }
        defer { _ = Posix.close(fd) }
        var buf = [UInt8](repeating: 0, count: 6)
        let n = buf.withUnsafeMutableBytes { Posix.read(fd, $0.baseAddress!, 6) }
        return n == 6 && buf == Array(magic.utf8)
    }

    /// Reads a whole native recording into memory. A last line left out (`.drop`) is posted
    /// to `InputNotices`.
    public static func read(path: String, options: NativeReadOptions = .init()) throws(InputError) -> Recording {
        if let r = try readParallel(path: path, options: options, workers: onlineProcessors()) { return r }
        var b = RecordingBuilder()
        if let left = try scan(path: path, into: &b, options: options) { InputNotices.post(left.description) }
        return b.recording
    }

    /// Streams a native recording into `sink` with memory bounded by the line reader's chunk.
    /// Returns the last line when it had no newline and `options.incompleteLastLine` is `.drop`
    /// (it is then left out); with `.error` such a line is an `InputError`.
    @discardableResult
    public static func scan<S: RecordingSink>(path: String, into sink: inout S, options: NativeReadOptions = .init()) throws(InputError) -> LeftOutLine? {
        let reader = try LineReader(path: path)
        var parser = NativeLineParser(file: path, options: options)
        var left: LeftOutLine? = nil
        let lines: Int
        do {
            lines = try reader.forEachLine { (line, number, unterminated) throws(InputError) in
                if unterminated {
                    let bytes = line.count
                    if options.incompleteLastLine == .error {
                        throw LastLineRule.error(file: path, line: number, bytes: bytes, reason: "Motus ends every line of its own format with one")
                    }
                    left = LeftOutLine(file: path, line: number, bytes: bytes, reason: "the file may have been cut while written")
                    return
                }
                try parser.parse(line, number, into: &sink)
            }
        }
        if lines == 0 || !parser.sawMagic {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a '#motus,1' first line")
        }
        parser.finish(into: &sink)
        return left
    }
}

/// How `NativeFormat` reads a native recording: the tolerance for timestamps that step back,
/// what to do with a cut last line, and which stream kinds to read.
public struct NativeReadOptions: Sendable {
    /// How far back (s) a stream's timestamp may step before it is an error.
    public var backwardsTolerance: Seconds = 1.0
    /// What to do with a last line that has no newline (a crash, or a recording still being
    /// written, leaves one): an error, or leave it out (`motus inspect` and live tails).
    public var incompleteLastLine: IncompleteLinePolicy = .error
    /// `incompleteLastLine == .drop`, under its earlier name.
    public var allowTruncatedTail: Bool {
        get { incompleteLastLine == .drop }
        set { incompleteLastLine = newValue ? .drop : .error }
    }
    /// Read only streams of these kinds (nil: all). Lines of other streams are skipped without
    /// being parsed, so a caller that needs three streams of a ten-stream recording pays for three.
    public var kinds: Set<StreamKind>? = nil
    /// Options with `backwardsTolerance` in seconds; `allowTruncatedTail` leaves out (true) or
    /// refuses (false) a last line without a newline.
    public init(backwardsTolerance: Seconds = 1.0, allowTruncatedTail: Bool = false, kinds: Set<StreamKind>? = nil) {
        self.backwardsTolerance = backwardsTolerance; self.incompleteLastLine = allowTruncatedTail ? .drop : .error; self.kinds = kinds
    }
    /// Options with `backwardsTolerance` in seconds and a policy for a last line without a newline.
    public init(backwardsTolerance: Seconds = 1.0, incompleteLastLine: IncompleteLinePolicy, kinds: Set<StreamKind>? = nil) {
        self.backwardsTolerance = backwardsTolerance; self.incompleteLastLine = incompleteLastLine; self.kinds = kinds
    }
}

/// Parses native-format lines one at a time (shared by the file reader and live readers).
struct NativeLineParser {
    let file: String
    let options: NativeReadOptions
    var sawMagic = false
    var names: [[UInt8]] = []
    var kinds: [StreamKind] = []
    /// Sink index of each declared stream, or -1 when its kind is not wanted.
    var sinkIndex: [Int] = []
    var lastTime: [Double] = []
    /// Time of each stream's first sample (NaN before it): later times must lie within
    /// `ReadingRules.maxTimeSpanSeconds` of it.
    var firstTime: [Double] = []
    /// Stream number of each declared name, for declarations; `lookup` serves sample lines.
    var nameIndex: [[UInt8]: Int] = [:]
    /// Open-addressing table of stream numbers + 1 (0: empty) by a hash of the name, used once
    /// there are more streams than a linear scan handles well.
    var lookup: [Int32] = []
    /// Streams handed to the sink so far (the next sink index).
    var sinkCount = 0
    var metadata = RecordingMetadata()
    var metadataDirty = false
    var scratch = [Double](repeating: 0, count: 16)
    let splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
    /// Set by the parallel reader for the data ranges it parses off the main thread: only
    /// samples, `@label`, `@event` and comments are handled; any other directive sets
    /// `needsSequential` (the one-thread pass then reads the file).
    var dataOnly = false
    var needsSequential = false

    init(file: String, options: NativeReadOptions) { self.file = file; self.options = options }

    func loc(_ line: Int, _ col: Int) -> SourceLocation { SourceLocation(file: file, line: line, column: col) }

    mutating func parse<S: RecordingSink>(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, into sink: inout S) throws(InputError) {
        if !sawMagic {
            let text = line.text(0, line.count)
            guard text.hasPrefix(NativeFormat.magic + ",") else {
                throw InputError(.badHeader, at: loc(number, 1), found: text, expected: "'#motus,1' (the native format's first line)")
            }
            let v = text.dropFirst(NativeFormat.magic.count + 1)
            guard let ver = Int(v), ver >= 1 else {
                throw InputError(.badHeader, at: loc(number, 8), found: String(v), expected: "a format version number")
            }
            guard ver <= NativeFormat.version else {
                throw InputError(.badHeader, at: loc(number, 8), found: String(v), expected: "version \(NativeFormat.version) or lower (upgrade Motus)")
            }
            sawMagic = true
            return
        }
        if line.isEmpty { return }
        let first = line[0]
        if first == UInt8(ascii: "#") { return }
        if first == UInt8(ascii: "@") {
            if dataOnly && !(Self.starts(line, with: "@label,") || Self.starts(line, with: "@event,")) {
                needsSequential = true
                return
            }
            try parseDirective(line, number, into: &sink)
            return
        }
        if metadataDirty { sink.metadata(metadata); metadataDirty = false }
        // Sample line: name, t, values…
        var nameEnd = 0
        while nameEnd < line.count && line[nameEnd] != UInt8(ascii: ",") { nameEnd += 1 }
        guard let index = streamIndex(line, nameEnd) else {
            throw InputError(.badValue, at: loc(number, 1), found: line.text(0, nameEnd), expected: "a stream declared by an earlier '@stream' line")
        }
        let target = sinkIndex[index]
        if target < 0 { return }
        let kind = kinds[index]
        let width = kind.width
        let n = line.count
        let L = line.baseAddress!
        let comma = UInt8(ascii: ",")
        // One pass: the time, then `width` values, each parsed where it stands.
        func fieldEnd(_ from: Int) -> Int {
            var j = from
            while j < n && L[j] != comma { j += 1 }
            return j
        }
        func valuesFound() -> Int {
            var commas = 0
            for j in 0..<n where L[j] == comma { commas += 1 }
            return commas - 1
        }
        var time = Double.nan
        var i = nameEnd + 1
        var failure: InputError? = nil
        withUnsafeTemporaryAllocation(of: Double.self, capacity: max(width, 1)) { values in
            var field = 1   // 1 = time, 2… = values
            while field < width + 2 {
                if i > n {
                    // Fewer fields than the kind needs.
                    failure = InputError(.missingColumn, at: loc(number, n + 1), found: "\(valuesFound()) values",
                                         expected: "\(width) values for a '\(kind.rawValue)' sample")
                    return
                }
                let c = field - 2
                if i == n || L[i] == comma {
                    if field >= 2 && kind.allowsMissing(component: c) {
                        values[c] = .nan
                    } else {
                        failure = InputError(.missingColumn, at: loc(number, i + 1), found: "",
                                             expected: field == 1 ? "a time in seconds" : "\(kind.columns[c]) of '\(kind.rawValue)'")
                        return
                    }
                    i += 1
                    field += 1
                    continue
                }
                guard let (v, e) = NumberParser.parsePrefix(line, i, n), e == n || L[e] == comma else {
                    failure = InputError(.badNumber, at: loc(number, i + 1), found: line.text(i, fieldEnd(i)),
                                         expected: field == 1 ? "a time in seconds" : "a number (\(kind.columns[c]))")
                    return
                }
                if !v.isFinite {
                    failure = InputError(.nonFinite, at: loc(number, i + 1), found: line.text(i, e), expected: "a finite number")
                    return
                }
                if field >= 2 && !ReadingRules.fits(v, kind, c) {
                    failure = ReadingRules.rangeError(at: loc(number, i + 1), found: line.text(i, e), kind: kind, component: c, value: v)
                    return
                }
                if field == 1 { time = v } else { values[c] = v }
                i = e + 1
                field += 1
            }
            if i <= n {
                // More fields than the kind has.
                failure = InputError(.badValue, at: loc(number, n + 1), found: "\(valuesFound()) values",
                                     expected: "\(width) values for a '\(kind.rawValue)' sample")
                return
            }
            let first = firstTime[index]
            if !ReadingRules.timeFits(time, first: first) {
                if first.isNaN { firstTime[index] = time } else {
                    failure = ReadingRules.timeError(at: loc(number, nameEnd + 2), found: line.text(nameEnd + 1, fieldEnd(nameEnd + 1)), time: time, first: first)
                    return
                }
            }
            if time < lastTime[index] - options.backwardsTolerance {
                failure = InputError(.timeBackwards, at: loc(number, nameEnd + 2), found: "\(time)",
                                     expected: "a time no earlier than \(lastTime[index] - options.backwardsTolerance) s (previous \(lastTime[index]) s)")
                return
            }
            if time > lastTime[index] { lastTime[index] = time }
            sink.sample(stream: target, time: time, values: UnsafeBufferPointer(start: values.baseAddress!, count: width))
        }
        if let f = failure { throw f }
    }

    static func starts(_ line: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard line.count >= n else { return false }
        let p = prefix.utf8Start
        for i in 0..<n where line[i] != p[i] { return false }
        return true
    }

    /// The declared stream whose name equals `line[0..<end]`: a linear scan for a handful of
    /// streams, a hash table beyond (so the cost per line does not grow with the stream
    /// count); allocates nothing.
    func streamIndex(_ line: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int? {
        if lookup.isEmpty {
            outer: for (i, n) in names.enumerated() where n.count == end {
                for k in 0..<end where n[k] != line[k] { continue outer }
                return i
            }
            return nil
        }
        let mask = lookup.count - 1
        var slot = Self.hash(UnsafeBufferPointer(rebasing: line[0..<end])) & mask
        while true {
            let v = Int(lookup[slot])
            if v == 0 { return nil }
            let n = names[v - 1]
            if n.count == end && n.withUnsafeBufferPointer({ memcmp($0.baseAddress!, line.baseAddress!, end) == 0 }) { return v - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a of a stream name.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h & 0x7fff_ffff_ffff_ffff)
    }

    /// Adds stream `i` (already in `names`) to the hash table, growing it to keep it at most
    /// half full; the table exists only past 8 streams.
    mutating func index(stream i: Int) {
        if names.count <= 8 { return }
        if lookup.count < 2 * names.count {
            lookup = [Int32](repeating: 0, count: max(32, lookup.count * 2))
            for k in names.indices where k != i { insert(k) }
        }
        insert(i)
    }

    mutating func insert(_ i: Int) {
        let mask = lookup.count - 1
        var slot = names[i].withUnsafeBufferPointer { Self.hash($0) } & mask
        while lookup[slot] != 0 { slot = (slot + 1) & mask }
        lookup[slot] = Int32(i + 1)
    }

    mutating func finish<S: RecordingSink>(into sink: inout S) {
        if metadataDirty { sink.metadata(metadata); metadataDirty = false }
    }

    mutating func parseDirective<S: RecordingSink>(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, into sink: inout S) throws(InputError) {
        var ranges: [(Int, Int)] = []
        var quoted: [Bool] = []
        splitter.split(line) { _, s, e in ranges.append((s, e)); quoted.append(s > 0 && line[s - 1] == 0x22) }
        let word = line.text(ranges[0].0, ranges[0].1)
        func text(_ i: Int) -> String { quoted[i] ? TextEscaping.unquote(line, ranges[i].0, ranges[i].1) : line.text(ranges[i].0, ranges[i].1) }
        func need(_ n: Int, _ what: String) throws(InputError) {
            if ranges.count < n { throw InputError(.missingColumn, at: loc(number, line.count + 1), found: "\(ranges.count - 1) fields", expected: what) }
        }
        func parseNumber(_ i: Int, _ what: String) throws(InputError) -> Double {
            guard let v = NumberParser.parseDouble(line, ranges[i].0, ranges[i].1), v.isFinite else {
                throw InputError(.badNumber, at: loc(number, ranges[i].0 + 1), found: line.text(ranges[i].0, ranges[i].1), expected: what)
            }
            return v
        }
        switch word {
        case "@stream":
            try need(3, "'@stream,<name>,<kind>'")
            let nameBytes = Array(UnsafeBufferPointer(rebasing: line[ranges[1].0..<ranges[1].1]))
            let kindText = text(2)
            guard let kind = StreamKind(rawValue: kindText) else {
                throw InputError(.badValue, at: loc(number, ranges[2].0 + 1), found: kindText,
                                 expected: "a stream kind (\(StreamKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if nameBytes.isEmpty || nameBytes.first == UInt8(ascii: "@") || nameBytes.first == UInt8(ascii: "#") {
                throw InputError(.badValue, at: loc(number, ranges[1].0 + 1), found: text(1), expected: "a stream name not starting with @ or #")
            }
            if let existing = nameIndex[nameBytes] {
                guard kinds[existing] == kind else {
                    throw InputError(.badValue, at: loc(number, ranges[2].0 + 1), found: kindText, expected: "'\(kinds[existing].rawValue)' (stream \(text(1)) was declared with that kind)")
                }
                return
            }
            guard names.count < ReadingRules.maxStreams else {
                throw InputError(.badValue, at: loc(number, ranges[1].0 + 1), found: "stream \(names.count + 1) '\(text(1))'",
                                 expected: "at most \(ReadingRules.maxStreams) streams in one recording")
            }
            if metadataDirty { sink.metadata(metadata); metadataDirty = false }
            names.append(nameBytes)
            nameIndex[nameBytes] = names.count - 1
            index(stream: names.count - 1)
            kinds.append(kind)
            lastTime.append(-.infinity)
            firstTime.append(.nan)
            if options.kinds.map({ $0.contains(kind) }) ?? true {
                let target = sinkCount
                sinkCount += 1
                sinkIndex.append(target)
                sink.declare(stream: target, name: text(1), kind: kind)
            } else {
                sinkIndex.append(-1)
            }
        case "@meta":
            try need(3, "'@meta,<key>,<value>'")
            let key = text(1), value = text(2)
            let n = RecordingMetadata.numericKeys.contains(key) ? try parseNumber(2, "a number for \(key)") : nil
            if !metadata.setField(key, text: value, number: n) {
                if key.hasPrefix("x.") { metadata.extra[String(key.dropFirst(2))] = value } else {
                    throw InputError(.badValue, at: loc(number, ranges[1].0 + 1), found: key, expected: "a metadata key (\(RecordingMetadata.fieldKeys.joined(separator: ", ")), or x.<name>)")
                }
            }
            metadataDirty = true
        case "@label":
            try need(4, "'@label,<start_s>,<end_s>,<label>'")
            let s = try parseNumber(1, "a start time in seconds"), e = try parseNumber(2, "an end time in seconds")
            guard e >= s else {
                throw InputError(.badValue, at: loc(number, ranges[2].0 + 1), found: line.text(ranges[2].0, ranges[2].1), expected: "an end time not before the start \(s)")
            }
            sink.label(LabelSegment(start: s, end: e, label: text(3)))
        case "@event":
            try need(3, "'@event,<time_s>,<kind>[,<detail>]'")
            let t = try parseNumber(1, "an event time in seconds")
            sink.event(GroundTruthEvent(time: t, kind: text(2), detail: ranges.count > 3 ? text(3) : ""))
        default:
            throw InputError(.badValue, at: loc(number, 1), found: word, expected: "@stream, @meta, @label or @event")
        }
    }
}
