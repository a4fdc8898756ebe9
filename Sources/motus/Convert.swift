import ArgumentParser
import Foundation
import Motus

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert any recording Motus reads into the native format, CSV or JSON Lines.",
        discussion: """
        The format is the one --out names: .motus (native), .csv (one table: a row per sample, \
        label, event and metadata field; header in docs/FORMAT.md) or .jsonl (one JSON object \
        per line). `--out -` writes to standard output (native unless --to says otherwise), and \
        an input of `-` reads standard input.

        --resample HZ writes the recording as a device sampling its accelerometer, gyroscope \
        and magnetometer at HZ would have recorded it: below the recording's own rate each \
        stream is low-passed at 0.4 × HZ first, causally, as a sensor's anti-alias filter is; \
        then every stream is taken on one grid of HZ (gaps of more than 0.5 s stay gaps). To try \
        an algorithm, or a peer, at another device's rate on the very samples `evaluate-steps \
        --resample` and `evaluate-fusion --resample` score. It reads the whole recording into \
        memory first (without it, convert streams). --grid-phase F starts that grid F of a \
        period after the first sample (0 ≤ F < 1), as `evaluate-steps --grid-phase` does.

        Examples:
          motus convert walk.csv --rate 100 --accel-unit g --gyro-unit degs --out walk.motus
          motus convert walk.motus --out walk.csv
          motus convert walk.motus --resample 25 --out walk-25hz.motus
          cat walk.motus | motus convert - --out - --to jsonl | head
        """)

    @Argument(help: "The recording to convert (- for standard input).")
    var input: String

    @Option(name: .shortAndLong, help: "The file to write: .motus, .csv or .jsonl (- for standard output).")
    var out: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The format to write: motus, csv or jsonl (default: from --out's extension; motus for -).", valueName: "motus|csv|jsonl"))
    var to: String?

    @OptionGroup var inputOptions: InputOptions

    @Option(help: "Metadata to set, as key=value (device, placement, subject, height_m, weight_kg, source, or any other key). Repeatable.")
    var meta: [String] = []

    @Option(name: .customLong("resample"), help: ArgumentHelp("Write the recording as a device sampling its inertial streams at HZ would have recorded it (see above).", valueName: "HZ"))
    var resampleHz: Double?

    @Option(name: .customLong("grid-phase"), help: ResampleOption.gridPhaseHelp)
    var gridPhase: Double?

    func validate() throws {
        try ResampleOption.validate(resampleHz)
        try ResampleOption.validate(gridPhase: gridPhase, resampleHz: resampleHz)
    }

    /// Reads the input into `sink`: streamed (parsed on a second thread while this one writes,
    /// when there is a second core: `SinkReadAhead`), or whole and resampled with `--resample`.
    func read<S: RecordingSink>(into sink: inout S, options: DelimitedOptions) throws {
        guard let hz = resampleHz else {
            let path = input
            if SinkReadAhead.worthIt {
                _ = try SinkReadAhead.run(into: &sink) { (b: inout BatchingSink) throws(InputError) in
                    try RecordingLoader.scan(path: path, options: options, into: &b)
                }
            } else {
                _ = try RecordingLoader.scan(path: path, options: options, into: &sink)
            }
            return
        }
        let r = try RecordingLoader.load(path: input, options: options).resampledAsDevice(rateHz: hz, gridPhase: gridPhase ?? 0)
        RecordingBuilder.replay(r, into: &sink)
    }

    func run() throws {
        try Self.reportingErrors {
            // A folder given as the output is named as such before its (missing) extension is.
            if out != "-" && (out.hasSuffix("/") || OutputPath.isFolder(out)) { try OutputPaths.file(out) }
            let format = try outputFormat()
            if out != "-" { try OutputPaths.file(out) }
            var overrides: [(String, String)] = []
            for kv in meta {
                guard let eq = kv.firstIndex(of: "=") else { throw CLIError("--meta takes key=value, not '\(kv)'") }
                let k = String(kv[..<eq]), v = String(kv[kv.index(after: eq)...])
                if RecordingMetadata.numericKeys.contains(k) && Double(v) == nil {
                    throw CLIError("--meta \(k) takes a number, not '\(v)'")
                }
                overrides.append((k, v))
            }
            // Streamed from reader to writer: memory does not grow with the recording's length
            // (except with --resample, which needs the whole recording).
            // To standard output it goes as it is read (an error stops it, exit status 1).
            let options = try inputOptions.delimitedOptions()
            if out == "-" {
                let writer = try format.writer(path: "-")
                var sink = ConvertSink(writer: writer, overrides: overrides)
                try read(into: &sink, options: options)
                sink.finish()
                try writer.close()
                printError("motus: wrote standard output (\(format.rawValue)): \(sink.streams) streams, \(sink.samples) samples, \(sink.labels) labels, \(sink.events) events")
                return
            }
            // The output is written beside its final name and moved there only when the whole
            // input was read, so a bad line never leaves half a recording under that name.
            let partial = out + ".partial"
            let writer = try format.writer(path: partial)
            var sink = ConvertSink(writer: writer, overrides: overrides)
            do {
                try read(into: &sink, options: options)
                sink.finish()
                try writer.close()
                // rename(2) replaces an existing file in one step.
                if rename(partial, out) != 0 { throw CLIError("\(out): cannot write: \(String(cString: strerror(errno)))") }
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
            printError("motus: wrote \(out): \(sink.streams) streams, \(sink.samples) samples, \(sink.labels) labels, \(sink.events) events")
        }
    }
}

extension Convert {
    /// The format --out names, or --to gives; refuses an --out whose extension names none.
    func outputFormat() throws -> RecordingOutputFormat {
        let given = try to.map { t throws -> RecordingOutputFormat in
            guard let f = RecordingOutputFormat(rawValue: t.lowercased()) else { throw CLIError("--to must be motus, csv or jsonl, not '\(t)'") }
            return f
        }
        if out == "-" { return given ?? .native }
        let named = RecordingOutputFormat(path: out)
        switch (given, named) {
        case (let g?, let n?) where g != n:
            throw CLIError("--to \(g.rawValue) but --out '\(out)' names \(n.rawValue): give an --out ending in .\(g.rawValue), or leave out --to")
        case (let g?, _): return g
        case (nil, let n?): return n
        case (nil, nil):
            throw CLIError("convert writes \(RecordingOutputFormat.extensionsText); --out '\(out)' names none of them (or give --to motus|csv|jsonl)")
        }
    }
}

/// Passes a reader's output to the writer, with `--meta` applied to the metadata (written
/// before the first stream even when the input has none), counting what went through.
struct ConvertSink: RecordingSink {
    var writer: any RecordingWriter
    let overrides: [(String, String)]
    var wroteMetadata = false
    var written = RecordingMetadata()
    var streams = 0, samples = 0, labels = 0, events = 0

    mutating func metadata(_ m: RecordingMetadata) {
        var m = m
        for (k, v) in overrides where !m.setField(k, text: v, number: Double(v)) { m.extra[k] = v }
        // A reader reports the whole metadata again when a later line adds to it: write only
        // what changed since the last call.
        var changed = RecordingMetadata()
        func pick<T: Equatable>(_ k: WritableKeyPath<RecordingMetadata, T?>) { if m[keyPath: k] != written[keyPath: k] { changed[keyPath: k] = m[keyPath: k] } }
        pick(\.device); pick(\.placement); pick(\.subject); pick(\.heightMeters); pick(\.weightKg); pick(\.age)
        pick(\.gender); pick(\.nominalRateHz); pick(\.source)
        for (k, v) in m.extra where written.extra[k] != v { changed.extra[k] = v }
        writer.metadata(changed)
        written = m
        wroteMetadata = true
    }
    mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        if !wroteMetadata { metadata(RecordingMetadata()) }
        streams += 1
        writer.declare(stream: index, name: name, kind: kind)
    }
    mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
        samples += 1
        writer.sample(stream: index, time: time, values: values)
    }
    mutating func label(_ l: LabelSegment) { labels += 1; writer.label(l) }
    mutating func event(_ e: GroundTruthEvent) { events += 1; writer.event(e) }
    mutating func finish() { if !wroteMetadata { metadata(RecordingMetadata()) } }
}
