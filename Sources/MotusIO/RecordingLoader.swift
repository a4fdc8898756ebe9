import MotusCore

/// Opens any recording Motus reads, choosing the reader in this order:
/// 1. the native format (first line `#motus,1`);
/// 2. with no delimited-text flags given, a dataset format Motus knows (MotionSense CSV, an
///    Oxford walk folder or its files, an IPOL `_lb.txt` or its JSON, an mPower JSON file, a
///    BROAD `.mat` trial; other `.mat` files are refused with the variables they hold);
/// 3. delimited text, mapped by `DelimitedOptions`, by the layout file beside it
///    (`DelimitedLayout`: the same flags, written once) or by a header Motus recognises.
public enum RecordingLoader {
    /// Reads the whole recording into memory. `kinds` limits a native recording to streams of
    /// those kinds (others are skipped unparsed); other formats are read whole.
    /// A last line without a newline that looks cut is an error, or with
    /// `options.incompleteLastLine == .drop` is left out and posted to `InputNotices`.
    public static func load(path: String, options given: DelimitedOptions = .init(), kinds: Set<StreamKind>? = nil) throws(InputError) -> Recording {
        if let e = TrackLoader.emptyFileError(path: path, expectedDefault: nil) { throw e }
        if NativeFormat.isNative(path: path) {
            return try NativeFormat.read(path: path, options: NativeReadOptions(incompleteLastLine: given.incompleteLastLine, kinds: kinds))
        }
        let options = try DelimitedLayout.options(for: path, given: given)
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), !probe.isDataset {
            return try ReadingPolicy.with(options.incompleteLastLine) { () throws(InputError) -> Recording in try probe.format.readRecording(path: path) }
        }
        if DatasetLocator.isDirectory(path) {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a recording file (or an Oxford walk folder)")
        }
        if path.lowercased().hasSuffix(".mat") { throw BROADDataset.notATrial(path) }
        return try DelimitedReader(path: path, options: options).read()
    }

    /// Streams the recording into `sink`: with bounded memory for native and delimited files;
    /// dataset files are small and are read whole, then replayed. Returns the last line when it
    /// was left out (`allowTruncatedTail` or `options.incompleteLastLine == .drop`; a dataset
    /// reader posts it to `InputNotices` instead).
    @discardableResult
    public static func scan<S: RecordingSink>(path: String, options: DelimitedOptions = .init(), into sink: inout S,
                                              allowTruncatedTail: Bool = false) throws(InputError) -> LeftOutLine? {
        if let e = TrackLoader.emptyFileError(path: path, expectedDefault: nil) { throw e }
        let policy: IncompleteLinePolicy = allowTruncatedTail ? .drop : options.incompleteLastLine
        if NativeFormat.isNative(path: path) {
            return try NativeFormat.scan(path: path, into: &sink, options: NativeReadOptions(incompleteLastLine: policy))
        }
        let options = try DelimitedLayout.options(for: path, given: options)
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), !probe.isDataset {
            let r = try ReadingPolicy.with(policy) { () throws(InputError) -> Recording in try probe.format.readRecording(path: path) }
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

    /// The recordings under `path`: the file itself; every recording of a dataset folder Motus
    /// knows; or, for any other folder, its `.motus`, `.csv`, `.txt` and `.json` files (READMEs
    /// and licences left out), sorted.
    public static func recordings(under path: String) throws(InputError) -> [String] {
        guard DatasetLocator.exists(path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "nothing there", expected: "a recording file or folder")
        }
        if !DatasetLocator.isDirectory(path) { return [path] }
        if let probe = DatasetFormat.probe(path: path) {
            if !probe.isDataset { return [path] }
            return try probe.format.openDataset(root: path).entries.map(\.path)
        }
        var out: [String] = []
        for name in ReaderFiles.list(path) {
            if name.hasPrefix(".") { continue }
            let p = ReaderFiles.join(path, name)
            if DatasetLocator.isDirectory(p) {
                out += try recordings(under: p)
                continue
            }
            let lower = name.lowercased()
            let ext = lower.split(separator: ".").last.map(String.init) ?? ""
            guard ["motus", "csv", "txt", "json"].contains(ext), !lower.hasPrefix("readme"), !lower.hasPrefix("license"), !lower.hasPrefix("licence") else { continue }
            out.append(p)
        }
        return out.sorted()
    }
}
