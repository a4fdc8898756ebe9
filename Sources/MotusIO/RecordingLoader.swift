import MotusCore

/// Opens any recording Motus reads, choosing the reader in this order:
/// 1. the native format (first line `#motus,1`);
/// 2. with no delimited-text flags given, a dataset format Motus knows (MotionSense CSV, an
///    Oxford walk folder or its files, an IPOL `_lb.txt` or its JSON, an mPower JSON file, a
///    BROAD `.mat` trial), a phyphox export folder (`PhyphoxExport`, its sensor files merged
///    into one recording), or a MATLAB Mobile sensor log (`MATLABMobileReader`, recognised by
///    its MAT-file header and timetable names); other `.mat` files are refused with the
///    variables they hold;
/// 3. delimited text, mapped by `DelimitedOptions`, by the layout file beside it
///    (`DelimitedLayout`: the same flags, written once) or by a header Motus recognises.
public enum RecordingLoader {
    /// Reads the whole recording into memory. `kinds` limits a native recording to streams of
    /// those kinds (others are skipped unparsed); other formats are read whole.
    /// A last line without a newline that looks cut is an error, or with
    /// `options.incompleteLastLine == .drop` is left out and posted to `InputNotices`.
    /// The values are then checked (`PlausibilityCheck`) as `options.plausibility` says.
    /// Standard input (`-`), pipes and devices are copied whole first (`InputSpool`).
    public static func load(path given: String, options: DelimitedOptions = .init(), kinds: Set<StreamKind>? = nil) throws(InputError) -> Recording {
        let path = try InputSpool.readablePath(for: given)
        do { return try loadReadable(path: path, options: options, kinds: kinds) } catch { throw InputSpool.renamed(error) }
    }

    static func loadReadable(path: String, options given: DelimitedOptions, kinds: Set<StreamKind>?) throws(InputError) -> Recording {
        let native = NativeFormat.isNative(path: path)
        if !native { try refuseExport(path: path) }
        let options = native ? given : try DelimitedLayout.options(for: path, given: given)
        let r = try GroundTruthInput.adding(to: try loadUnchecked(path: path, native: native, options: options, kinds: kinds), path: path, options: options)
        if options.plausibility != .off {
            var check = PlausibilityCheck(declaredRateHz: native ? nil : options.rateHz, native: native)
            check.add(r)
            try check.report(file: path, policy: options.plausibility)
        }
        return r
    }

    static func loadUnchecked(path: String, native: Bool, options: DelimitedOptions, kinds: Set<StreamKind>?) throws(InputError) -> Recording {
        if let e = TrackLoader.emptyFileError(path: path, expectedDefault: nil) { throw e }
        if native {
            return try NativeFormat.read(path: path, options: NativeReadOptions(incompleteLastLine: options.incompleteLastLine, kinds: kinds))
        }
        if options.isEmpty && PhyphoxExport.isExport(path) {
            return try ReadingPolicy.with(options.incompleteLastLine) { () throws(InputError) -> Recording in try PhyphoxExport.read(folder: path) }
        }
        if options.isEmpty && path.lowercased().hasSuffix(".zip") && ZipArchive.isZip(path) {
            return try ReadingPolicy.with(options.incompleteLastLine) { () throws(InputError) -> Recording in try PhyphoxExport.read(zip: path) }
        }
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), !probe.isDataset || probe.format == .wisdm && !DatasetLocator.isDirectory(path) {
            // A WISDM v1.1 file is a dataset of users, and one recording when it holds one user.
            return try ReadingPolicy.with(options.incompleteLastLine) { () throws(InputError) -> Recording in try probe.format.readRecording(path: path) }
        }
        if DatasetLocator.isDirectory(path) {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a recording file (or an Oxford walk folder)")
        }
        if options.isEmpty && MATLABMobileReader.isLog(path) {
            return try ReadingPolicy.with(options.incompleteLastLine) { () throws(InputError) -> Recording in try MATLABMobileReader.read(path: path) }
        }
        if path.lowercased().hasSuffix(".mat") { throw BROADDataset.notATrial(path) }
        return try DelimitedReader(path: path, options: options).read()
    }

    /// Streams the recording into `sink`: with bounded memory for native and delimited files;
    /// dataset files are small and are read whole, then replayed. Returns the last line when it
    /// was left out (`allowTruncatedTail` or `options.incompleteLastLine == .drop`; a dataset
    /// reader posts it to `InputNotices` instead).
    /// The values are checked on the way (`PlausibilityCheck`) as `options.plausibility` says.
    @discardableResult
    public static func scan<S: RecordingSink>(path given: String, options: DelimitedOptions = .init(), into sink: inout S,
                                              allowTruncatedTail: Bool = false) throws(InputError) -> LeftOutLine? {
        let path = try InputSpool.readablePath(for: given)
        do { return try scanReadable(path: path, options: options, into: &sink, allowTruncatedTail: allowTruncatedTail) } catch {
            throw InputSpool.renamed(error)
        }
    }

    static func scanReadable<S: RecordingSink>(path: String, options given: DelimitedOptions, into sink: inout S,
                                               allowTruncatedTail: Bool) throws(InputError) -> LeftOutLine? {
        let native = NativeFormat.isNative(path: path)
        if !native { try refuseExport(path: path) }
        let options = native ? given : try DelimitedLayout.options(for: path, given: given)
        func groundTruth() throws(InputError) {
            guard GroundTruthInput.applies(to: path, options: options) else { return }
            let (labels, events) = try GroundTruthInput.read(path: path, options: options)
            for l in labels { sink.label(l) }
            for e in events.sorted(by: { $0.time < $1.time }) { sink.event(e) }
        }
        guard options.plausibility != .off else {
            let left = try scanUnchecked(path: path, native: native, options: options, into: &sink, allowTruncatedTail: allowTruncatedTail)
            try groundTruth()
            return left
        }
        var checked = CheckedSink(inner: sink, check: PlausibilityCheck(declaredRateHz: native ? nil : options.rateHz, native: native))
        let left = try scanUnchecked(path: path, native: native, options: options, into: &checked, allowTruncatedTail: allowTruncatedTail)
        sink = checked.inner
        try checked.check.report(file: path, policy: options.plausibility)
        try groundTruth()
        return left
    }

    /// Refuses a file `motus convert` wrote as CSV or JSON Lines with an error that says so:
    /// those tables are for pandas, R and spreadsheets, and Motus reads its recordings back
    /// only from the native format (read as delimited text, the CSV's first row would fail at
    /// its empty `time_s`, saying nothing of why).
    static func refuseExport(path: String) throws(InputError) {
        guard let first = try? TableScanner.head(path: path, lines: 1).first else { return }
        let what: String
        if first == RecordingCSVWriter.header {
            what = "a CSV table"
        } else if first.hasPrefix("{\"type\":\"meta\"") || first.hasPrefix("{\"type\":\"stream\"") {
            what = "a JSON Lines file"
        } else { return }
        throw InputError(.badHeader, at: SourceLocation(file: path, line: 1, column: 1), found: first,
                         expected: "a recording Motus reads, not \(what) motus convert wrote: Motus reads its own recordings back from the native format only (read the .motus it came from)")
    }

    static func scanUnchecked<S: RecordingSink>(path: String, native: Bool, options: DelimitedOptions, into sink: inout S,
                                                allowTruncatedTail: Bool) throws(InputError) -> LeftOutLine? {
        if let e = TrackLoader.emptyFileError(path: path, expectedDefault: nil) { throw e }
        let policy: IncompleteLinePolicy = allowTruncatedTail ? .drop : options.incompleteLastLine
        if native {
            return try NativeFormat.scan(path: path, into: &sink, options: NativeReadOptions(incompleteLastLine: policy))
        }
        if options.isEmpty && PhyphoxExport.isExport(path) {
            let r = try ReadingPolicy.with(policy) { () throws(InputError) -> Recording in try PhyphoxExport.read(folder: path) }
            RecordingBuilder.replay(r, into: &sink)
            return nil
        }
        if options.isEmpty && path.lowercased().hasSuffix(".zip") && ZipArchive.isZip(path) {
            let r = try ReadingPolicy.with(policy) { () throws(InputError) -> Recording in try PhyphoxExport.read(zip: path) }
            RecordingBuilder.replay(r, into: &sink)
            return nil
        }
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), !probe.isDataset || probe.format == .wisdm && !DatasetLocator.isDirectory(path) {
            let r = try ReadingPolicy.with(policy) { () throws(InputError) -> Recording in try probe.format.readRecording(path: path) }
            RecordingBuilder.replay(r, into: &sink)
            return nil
        }
        if options.isEmpty && !DatasetLocator.isDirectory(path) && MATLABMobileReader.isLog(path) {
            let r = try ReadingPolicy.with(policy) { () throws(InputError) -> Recording in try MATLABMobileReader.read(path: path) }
            RecordingBuilder.replay(r, into: &sink)
            return nil
        }
        if path.lowercased().hasSuffix(".mat") { throw BROADDataset.notATrial(path) }
        var o = options
        o.incompleteLastLine = policy
        return try DelimitedReader(path: path, options: o).scan(into: &sink)
    }

    /// Summarises a recording in one streaming pass. A recording still being written may end
    /// in an unfinished line: by default it is left out, and `RecordingSummary.leftOut` says so.
    public static func summarize(path: String, options: DelimitedOptions = .init(), allowTruncatedTail: Bool = true) throws(InputError) -> RecordingSummary {
        var sink = SummarySink()
        let left = try scan(path: path, options: options, into: &sink, allowTruncatedTail: allowTruncatedTail)
        var s = sink.summary(path: path)
        s.leftOut = left
        return s
    }

    /// The recordings under `path`: the file itself; a phyphox export folder (one recording);
    /// every recording of a dataset folder Motus knows; or, for any other folder, its `.motus`, `.csv`, `.txt` and `.json` files (READMEs
    /// and licences left out) and its MATLAB Mobile logs (`.mat` files `MATLABMobileReader.isLog` takes), sorted. A folder with none (empty, or only other files) is an
    /// error naming what it holds.
    public static func recordings(under path: String) throws(InputError) -> [String] {
        if path == "-" || InputSpool.needsSpooling(path) { return [path] }
        let found = try collect(under: path)
        if found.isEmpty && DatasetLocator.isDirectory(path) {
            let names = ReaderFiles.list(path).filter { !$0.hasPrefix(".") }
            let held = names.isEmpty ? "an empty folder" : "\(names.count) \(names.count == 1 ? "entry" : "entries"), no recording"
            let listing = names.isEmpty ? "" : "; it holds " + names.sorted().prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: held,
                             expected: "recordings (.motus, .csv, .txt or .json files or MATLAB Mobile .mat logs, in it or in its subfolders) or a dataset folder Motus knows" + listing)
        }
        return found
    }

    static func collect(under path: String) throws(InputError) -> [String] {
        guard DatasetLocator.exists(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing there", expected: "a recording file or folder")
        }
        if !DatasetLocator.isDirectory(path) { return [path] }
        // A phyphox export is one recording, its sensor files merged.
        if PhyphoxExport.isExport(path) { return [path] }
        if let probe = DatasetFormat.probe(path: path) {
            if !probe.isDataset { return [path] }
            // Entries that share a file (WISDM v1.1 users, UCI HAR subjects) list it once.
            var seen = Set<String>()
            return try probe.format.openDataset(root: path).entries.map(\.path).filter { seen.insert($0).inserted }
        }
        var out: [String] = []
        for name in ReaderFiles.list(path) {
            if name.hasPrefix(".") { continue }
            let p = ReaderFiles.join(path, name)
            if DatasetLocator.isDirectory(p) {
                out += try collect(under: p)
                continue
            }
            let lower = name.lowercased()
            let ext = lower.split(separator: ".").last.map(String.init) ?? ""
            if ext == "mat" {
                if MATLABMobileReader.isLog(p) { out.append(p) }
                continue
            }
            guard ["motus", "csv", "txt", "json"].contains(ext), !GroundTruthInput.isSidecar(lower), !lower.hasPrefix("readme"), !lower.hasPrefix("license"), !lower.hasPrefix("licence") else { continue }
            out.append(p)
        }
        return out.sorted()
    }
}

/// Passes everything to `inner` and shows the first stream of each kind to a plausibility check.
struct CheckedSink<Inner: RecordingSink>: RecordingSink {
    var inner: Inner
    var check: PlausibilityCheck
    /// Per declared stream index: its kind when it is the first stream of that kind, else nil.
    var checkedKind: [StreamKind?] = []
    var seenKinds: Set<StreamKind> = []
    /// Whether each stream name is checked (a native file may declare a name again to append).
    var checkedNames: [String: Bool] = [:]

    mutating func metadata(_ metadata: RecordingMetadata) { inner.metadata(metadata) }
    mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        inner.declare(stream: index, name: name, kind: kind)
        while checkedKind.count <= index { checkedKind.append(nil) }
        let checked: Bool
        if let c = checkedNames[name] { checked = c } else {
            checked = seenKinds.insert(kind).inserted
            checkedNames[name] = checked
        }
        checkedKind[index] = checked ? kind : nil
    }
    @inline(__always)
    mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
        if index < checkedKind.count, let k = checkedKind[index] { check.add(kind: k, time: time) { values[$0] } }
        inner.sample(stream: index, time: time, values: values)
    }
    mutating func label(_ label: LabelSegment) { inner.label(label) }
    mutating func event(_ event: GroundTruthEvent) { inner.event(event) }
    mutating func expectSamples(_ count: Int) { inner.expectSamples(count) }
}
