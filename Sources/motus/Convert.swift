import ArgumentParser
import Foundation
import Motus

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert any recording Motus reads into the native format.",
        discussion: "Example: motus convert walk.csv --rate 100 --accel-unit g --gyro-unit degs --out walk.motus")

    @Argument(help: "The recording to convert.")
    var input: String

    @Option(name: .shortAndLong, help: "The native recording to write (.motus).")
    var out: String

    @OptionGroup var inputOptions: InputOptions

    @Option(help: "Metadata to set, as key=value (device, placement, subject, height_m, weight_kg, source, or any other key). Repeatable.")
    var meta: [String] = []

    func run() throws {
        try Self.reportingErrors {
            try OutputPaths.file(out)
            var overrides: [(String, String)] = []
            for kv in meta {
                guard let eq = kv.firstIndex(of: "=") else { throw CLIError("--meta takes key=value, not '\(kv)'") }
                let k = String(kv[..<eq]), v = String(kv[kv.index(after: eq)...])
                if RecordingMetadata.numericKeys.contains(k) && Double(v) == nil {
                    throw CLIError("--meta \(k) takes a number, not '\(v)'")
                }
                overrides.append((k, v))
            }
            // Streamed from reader to writer: memory does not grow with the recording's length.
            // The output is written beside its final name and moved there only when the whole
            // input was read, so a bad line never leaves half a recording under that name.
            let partial = out + ".partial"
            let writer = try NativeWriter(path: partial)
            var sink = ConvertSink(writer: writer, overrides: overrides)
            do {
                try RecordingLoader.scan(path: input, options: try inputOptions.delimitedOptions(), into: &sink)
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

/// Passes a reader's output to the writer, with `--meta` applied to the metadata (written
/// before the first stream even when the input has none), counting what went through.
struct ConvertSink: RecordingSink {
    let writer: NativeWriter
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
