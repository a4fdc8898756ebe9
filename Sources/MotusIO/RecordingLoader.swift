import MotusCore

/// Opens any recording Motus reads: the native format, a known dataset file, or delimited
/// text described by `DelimitedOptions` (or by a header Motus recognises).
public enum RecordingLoader {
    /// Reads the whole recording into memory.
    public static func load(path: String, options: DelimitedOptions = .init()) throws(InputError) -> Recording {
        if NativeFormat.isNative(path: path) { return try NativeFormat.read(path: path) }
        if let r = try DatasetHook.load?(path) { return r }
        return try DelimitedReader(path: path, options: options).read()
    }

    /// Streams the recording into `sink` (bounded memory for native and delimited files).
    public static func scan<S: RecordingSink>(path: String, options: DelimitedOptions = .init(), into sink: inout S,
                                              allowTruncatedTail: Bool = false) throws(InputError) {
        if NativeFormat.isNative(path: path) {
            try NativeFormat.scan(path: path, into: &sink, options: NativeReadOptions(allowTruncatedTail: allowTruncatedTail))
            return
        }
        if let r = try DatasetHook.load?(path) {
            RecordingBuilder.replay(r, into: &sink)
            return
        }
        try DelimitedReader(path: path, options: options).scan(into: &sink)
    }

    /// Summarises a recording in one streaming pass.
    public static func summarize(path: String, options: DelimitedOptions = .init(), allowTruncatedTail: Bool = true) throws(InputError) -> RecordingSummary {
        var sink = SummarySink()
        try scan(path: path, options: options, into: &sink, allowTruncatedTail: allowTruncatedTail)
        return sink.summary(path: path)
    }
}

/// Dataset-specific readers plug in here (set in `DatasetReaders.swift`).
enum DatasetHook {
    nonisolated(unsafe) static var load: ((String) throws(InputError) -> Recording?)? = nil
}
