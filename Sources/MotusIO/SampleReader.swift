import MotusCore

/// A recording's samples in time order, read from its file without holding the recording:
/// memory does not grow with the recording's length, so a week at 100 Hz reads like a minute.
///
/// `forEach` calls its body with the samples of the first stream of each kind in `kinds`,
/// in exactly the order `SampleMerge` visits the same streams of the recording `RecordingLoader`
/// reads (time, ties in `kinds` order), so a command that streams gives the numbers the batch
/// road gives, bit for bit.
///
/// - Native files: one line cursor per kind walks the file and parses only that stream's
///   lines, so streams written one after another (as `convert` did) merge as well as
///   interleaved ones (as the recorder writes). A first pass reads the directives (`@stream`,
///   `@meta`, `@label`, `@event`), so metadata, labels and events are known before any sample.
/// - Delimited text: one pass; a row's samples wait in small per-stream queues until they are
///   older than the newest time minus the reader's backwards tolerance (no later row can come
///   before them), or every stream has one.
/// - Dataset files (MotionSense, Oxford, IPOL, mPower, BROAD…), standard input and pipes are
///   read whole first: dataset trials are minutes long, and a pipe cannot be read twice.
public struct SampleReader {
    /// The file read, as given.
    public let path: String
    /// The kinds asked for, in the order that breaks ties between equal times.
    public let kinds: [StreamKind]
    /// The recording's metadata (delimited text has only the rate and source).
    public private(set) var metadata: RecordingMetadata
    /// The recording's label segments (times in s), known before any sample.
    public private(set) var labels: [LabelSegment]
    /// The recording's ground-truth events (times in s), known before any sample.
    public private(set) var events: [GroundTruthEvent]
    /// The kinds among `kinds` the file has a stream of (declared by a native file, mapped by a
    /// delimited file's header or options).
    public private(set) var declaredKinds: Set<StreamKind>

    enum Source {
        case native
        case delimited(DelimitedOptions)
        case memory(Recording)
    }
    let source: Source
    let plausibility: PlausibilityPolicy
    /// The rate declared for a delimited file, checked against its timestamps.
    let declaredRateHz: Double?
    /// True once a pass has checked the values (a second pass, as `track --calibrate-distance`
    /// makes, says nothing again).
    var checked = false

    /// Opens `path` as `RecordingLoader.load` would, reading only the directives of a native file.
    /// Standard input (`-`), pipes and devices are first copied whole (`InputSpool`); `path`
    /// is then the copy, and messages name the input.
    public init(path given: String, options: DelimitedOptions = .init(), kinds: [StreamKind]) throws(InputError) {
        let readable = try InputSpool.readablePath(for: given)
        do { try self.init(readable: readable, options: options, kinds: kinds) } catch { throw InputSpool.renamed(error) }
    }

    /// The samples of a recording already read (a dataset's entry: `RecordingLoader.load(path:recording:)`);
    /// `path` names it.
    public init(recording r: Recording, path: String, kinds: [StreamKind]) {
        self.path = path
        self.kinds = kinds
        metadata = r.metadata
        labels = r.labels
        events = r.events
        declaredKinds = Set(r.streams.map(\.kind)).intersection(kinds)
        source = .memory(r)
        plausibility = DelimitedOptions().plausibility
        declaredRateHz = nil
    }

    init(readable path: String, options given: DelimitedOptions, kinds: [StreamKind]) throws(InputError) {
        self.path = path
        self.kinds = kinds
        labels = []
        events = []
        declaredKinds = []
        let regular = DelimitedReader.isRegularFile(path)
        let options = try DelimitedLayout.options(for: path, given: given)
        plausibility = options.plausibility
        declaredRateHz = options.rateHz
        if regular && NativeFormat.isNative(path: path) {
            var directives = Directives()
            try Self.readDirectives(path: path, kinds: Set(kinds), policy: options.incompleteLastLine, into: &directives)
            metadata = directives.metadata
            labels = directives.labels
            events = directives.events
            declaredKinds = directives.kinds
            source = .native
            if GroundTruthInput.applies(to: path, options: options) {
                let truth = try GroundTruthInput.read(path: path, options: options)
                labels += truth.labels
                events = (events + truth.events).sorted { $0.time < $1.time }
            }
        } else if regular && !DatasetLocator.isDirectory(path) && !path.lowercased().hasSuffix(".mat")
                    && !(options.isEmpty && DatasetFormat.probe(path: path) != nil)
                    && !(options.isEmpty && path.lowercased().hasSuffix(".zip") && ZipArchive.isZip(path)) {
            // (The other roads go through `RecordingLoader.load`, which checks this itself.)
            try RecordingLoader.refuseExport(path: path)
            let reader = DelimitedReader(path: path, options: options)
            metadata = reader.recordingMetadata()
            declaredKinds = Set(try reader.headerKinds()).intersection(kinds)
            source = .delimited(options)
            let truth = try GroundTruthInput.read(path: path, options: options)
            labels = truth.labels
            events = truth.events.sorted { $0.time < $1.time }
        } else {
            let r = try RecordingLoader.load(path: path, options: options, kinds: Set(kinds))
            metadata = r.metadata
            labels = r.labels
            events = r.events
            declaredKinds = Set(r.streams.map(\.kind)).intersection(kinds)
            source = .memory(r)
        }
    }

    /// True when the file is read as it goes (native and delimited files); false when it was
    /// read whole (dataset files, pipes).
    public var isStreamed: Bool {
        if case .memory = source { return false }
        return true
    }

    /// Calls `body` with every sample, in time order (see the type's documentation). May be
    /// called more than once (each call reads the file again).
    ///
    /// The first pass over a native or delimited file also checks the values
    /// (`PlausibilityCheck`, as the options' `plausibility` says); a file read whole was
    /// checked by `RecordingLoader.load`.
    public mutating func forEach(_ body: (SensorSample) -> Void) throws(InputError) {
        do { try forEachChecked(body) } catch { throw InputSpool.renamed(error) }
    }

    /// Calls `body` with the samples of `only` (default: every kind of `kinds`), in the order
    /// `forEach` gives them, until it returns false; the file is read no further than the row
    /// of that sample (give or take the rows a delimited file's merge holds back), and a
    /// native file's other kinds are not parsed. Returns false when `body` stopped the walk,
    /// true when every sample was given. An early stop checks no values, so the next
    /// `forEach` still checks the whole file.
    @discardableResult
    public func forEach(only: Set<StreamKind>? = nil, while body: (SensorSample) -> Bool) throws(InputError) -> Bool {
        let wanted = only.map { o in kinds.filter { o.contains($0) } } ?? kinds
        do { return try forEachFromFile(kinds: wanted, body) } catch { throw InputSpool.renamed(error) }
    }

    mutating func forEachChecked(_ body: (SensorSample) -> Void) throws(InputError) {
        switch source {
        case .memory(let r):
            r.forEachSample(kinds: kinds, body)
        case .native, .delimited:
            guard !checked, plausibility != .off else { return try forEachFromFile(body) }
            let native: Bool = { if case .native = source { return true }; return false }()
            var check = PlausibilityCheck(declaredRateHz: native ? nil : declaredRateHz, native: native)
            try forEachFromFile { s in
                check.add(s)
                body(s)
            }
            checked = true
            try check.report(file: path, policy: plausibility)
        }
    }

    mutating func forEachFromFile(_ body: (SensorSample) -> Void) throws(InputError) {
        _ = try forEachFromFile(kinds: kinds) { body($0); return true }
    }

    /// The samples of `wanted` (a subsequence of `kinds`) in merge order, until `body` returns
    /// false; false when it did.
    func forEachFromFile(kinds wanted: [StreamKind], _ body: (SensorSample) -> Bool) throws(InputError) -> Bool {
        var more = true
        switch source {
        case .memory(let r): r.forEachSample(kinds: wanted) { s in if more { more = body(s) } }
        case .native: try forEachNative(kinds: wanted) { s in more = body(s); return more }
        case .delimited(let options): try forEachDelimited(options: options, kinds: wanted) { s in more = body(s); return more }
        }
        return more
    }

    // MARK: Native

    /// Collects what the directive lines say.
    struct Directives: RecordingSink {
        var metadata = RecordingMetadata()
        var labels: [LabelSegment] = []
        var events: [GroundTruthEvent] = []
        var kinds: Set<StreamKind> = []
        mutating func metadata(_ m: RecordingMetadata) { metadata = m }
        mutating func declare(stream index: Int, name: String, kind: StreamKind) { kinds.insert(kind) }
        mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {}
        mutating func label(_ l: LabelSegment) { labels.append(l) }
        mutating func event(_ e: GroundTruthEvent) { events.append(e) }
    }

    /// The first line and every `@` line, through the native parser (sample lines are skipped
    /// unread: the per-kind cursors parse them). A last line without a newline is incomplete,
    /// as `NativeFormat.scan` rules: an error, or with `.drop` left out (the cursors skip it)
    /// and posted to `InputNotices`.
    static func readDirectives(path: String, kinds: Set<StreamKind>, policy: IncompleteLinePolicy, into sink: inout Directives) throws(InputError) {
        var cursor = try LineCursor(path: path)
        var parser = NativeLineParser(file: path, options: NativeReadOptions(kinds: kinds))
        while let line = try cursor.next() {
            if cursor.lastLineUnterminated {
                if policy == .error {
                    throw LastLineRule.error(file: path, line: cursor.lineNumber, bytes: line.count, reason: "Motus ends every line of its own format with one")
                }
                InputNotices.post(LeftOutLine(file: path, line: cursor.lineNumber, bytes: line.count, reason: "the file may have been cut while written").description)
                break
            }
            if cursor.lineNumber == 1 || (!line.isEmpty && line[0] == UInt8(ascii: "@")) {
                try parser.parse(line, cursor.lineNumber, into: &sink)
            }
        }
        if cursor.lineNumber == 0 {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "a '#motus,1' first line")
        }
        parser.finish(into: &sink)
    }

    /// Holds the next sample of the first stream of one kind.
    struct Head: RecordingSink {
        var full = false
        var time = 0.0
        var values = [Double](repeating: .nan, count: 8)
        mutating func metadata(_ m: RecordingMetadata) {}
        mutating func declare(stream index: Int, name: String, kind: StreamKind) {}
        mutating func sample(stream index: Int, time t: Double, values v: UnsafeBufferPointer<Double>) {
            // Only kind's streams reach this sink; index 0 is the first one declared.
            guard index == 0 else { return }
            full = true
            time = t
            for c in v.indices { values[c] = v[c] }
        }
        mutating func label(_ l: LabelSegment) {}
        mutating func event(_ e: GroundTruthEvent) {}
    }

    /// One kind's walk through a native file.
    struct KindCursor {
        let kind: StreamKind
        var lines: LineCursor
        var parser: NativeLineParser
        var head = Head()
        var ended = false

        init(path: String, kind: StreamKind) throws(InputError) {
            self.kind = kind
            lines = try LineCursor(path: path)
            parser = NativeLineParser(file: path, options: NativeReadOptions(kinds: [kind]))
        }

        /// Reads lines until the kind's next sample is in `head` or the file ends.
        mutating func advance() throws(InputError) {
            head.full = false
            while !head.full {
                // The directives' pass has ruled on an unterminated last line: left out here.
                guard let line = try lines.next(), !lines.lastLineUnterminated else { ended = true; return }
                try parser.parse(line, lines.lineNumber, into: &head)
            }
        }

        func sample() -> SensorSample {
            let v = head.values
            return SensorSample(kind: kind, time: head.time) { v[$0] }
        }
    }

    /// The native file's samples of `wanted` in merge order, until `body` returns false.
    func forEachNative(kinds wanted: [StreamKind], _ body: (SensorSample) -> Bool) throws(InputError) {
        var cursors: [KindCursor] = []
        for k in wanted where declaredKinds.contains(k) {
            var c = try KindCursor(path: path, kind: k)
            try c.advance()
            if !c.ended { cursors.append(c) }
        }
        // SampleMerge's rule over the cursors' heads: earliest time, ties in `kinds` order.
        while true {
            var best = -1
            var bestT = Double.infinity
            for j in cursors.indices where !cursors[j].ended {
                if best < 0 || cursors[j].head.time < bestT { best = j; bestT = cursors[j].head.time }
            }
            guard best >= 0, body(cursors[best].sample()) else { return }
            try cursors[best].advance()
        }
    }

    // MARK: Delimited

    /// Puts a delimited file's samples in merge order through per-stream queues.
    struct Ordering: RecordingSink {
        let kinds: [StreamKind]
        let tolerance: Double
        let body: (SensorSample) -> Bool
        /// Set when `body` returned false: nothing more is given, and the reader stops.
        var isSatisfied = false
        /// Rank in `kinds` of each declared stream, or -1 (not wanted, or not its kind's first).
        var rank: [Int] = []
        var queues: [Queue]
        var latest = -Double.infinity

        struct Queue {
            var times: [Double] = []
            var values: [Double] = []
            var head = 0
            var active = false
            var isEmpty: Bool { head == times.count }
            mutating func compact() {
                if head > 4096 && head * 2 > times.count {
                    times.removeFirst(head)
                    values.removeFirst(head * 8)
                    head = 0
                }
            }
        }

        init(kinds: [StreamKind], tolerance: Double, body: @escaping (SensorSample) -> Bool) {
            self.kinds = kinds; self.tolerance = tolerance; self.body = body
            queues = [Queue](repeating: Queue(), count: kinds.count)
        }

        mutating func metadata(_ m: RecordingMetadata) {}
        mutating func declare(stream index: Int, name: String, kind: StreamKind) {
            while rank.count <= index { rank.append(-1) }
            if let r = kinds.firstIndex(of: kind), !queues[r].active {
                queues[r].active = true
                rank[index] = r
            }
        }
        mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
            let r = rank[index]
            guard r >= 0 else { return }
            if time > latest { latest = time }
            queues[r].times.append(time)
            for c in 0..<8 { queues[r].values.append(c < values.count ? values[c] : .nan) }
            drain(final: false)
        }
        mutating func label(_ l: LabelSegment) {}
        mutating func event(_ e: GroundTruthEvent) {}

        /// Emits the earliest head while it is certainly the next in merge order: every active
        /// stream has a head to compare with, or it is older than any later row can be.
        mutating func drain(final: Bool) {
            while !isSatisfied {
                var best = -1
                var bestT = Double.infinity
                var allHave = true
                for r in queues.indices where queues[r].active {
                    if queues[r].isEmpty { allHave = false; continue }
                    let t = queues[r].times[queues[r].head]
                    if best < 0 || t < bestT { best = r; bestT = t }
                }
                guard best >= 0, final || allHave || bestT < latest - tolerance else { return }
                let h = queues[best].head
                let v = queues[best].values
                isSatisfied = !body(SensorSample(kind: kinds[best], time: bestT) { v[h * 8 + $0] })
                queues[best].head = h + 1
                queues[best].compact()
            }
        }
    }

    /// The delimited file's samples of `kinds` in merge order, until `body` returns false.
    func forEachDelimited(options: DelimitedOptions, kinds: [StreamKind], _ body: (SensorSample) -> Bool) throws(InputError) {
        let path = self.path
        let result: Result<Void, InputError> = withoutActuallyEscaping(body) { escapable in
            var ordering = Ordering(kinds: kinds, tolerance: options.backwardsTolerance, body: escapable)
            do throws(InputError) {
                if let left = try DelimitedReader(path: path, options: options).scan(into: &ordering) { InputNotices.post(left.description) }
            } catch {
                return .failure(error)
            }
            ordering.drain(final: true)
            return .success(())
        }
        try result.get()
    }
}

extension DelimitedReader {
    /// The stream kinds the first line that is not a comment (the header, or the first row
    /// with `noHeader`) maps columns to, as `scan` maps them; nothing else is read (and the
    /// columns left out are posted by `scan`, not here).
    func headerKinds() throws(InputError) -> [StreamKind] {
        var cursor = try LineCursor(path: path)
        while let line = try cursor.next() {
            if Self.isPreamble(line) { continue }
            return try firstLinePlan(line, number: cursor.lineNumber, notify: false).plan.streams.map(\.kind)
        }
        throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: options.noHeader ? "rows of numbers" : "a header line and rows of numbers")
    }
}
