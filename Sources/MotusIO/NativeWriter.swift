#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Writes the native format (see `NativeFormat`) append-only through a byte buffer.
///
/// Call `flush()` at least once a second while recording: whatever was flushed survives a
/// crash or `kill -9`. Streams are declared (`declare`) before their first sample; declarations
/// may come at any point, so the writer takes new streams as they appear. Errors (a full disk, a read-only folder) are
/// thrown as `WriteError` at once.
public final class NativeWriter: RecordingSink {
    /// A file that could not be created or written: its path and the operating system's reason.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        /// The file (or folder) that could not be written.
        public var path: String
        /// Why, in the operating system's words (`strerror`), e.g. "No space left on device".
        public var message: String
        /// `path: cannot write: message`, one line for a person.
        public var description: String { "\(path): cannot write: \(message)" }
    }

    /// The file written, or "standard output".
    public var path: String { out.displayName }
    private let out: OutputBytes
    private var declared: [Bool] = []
    private var names: [String] = []
    private var kinds: [StreamKind] = []
    /// The first write error, kept so `RecordingSink` calls (which cannot throw) surface it on `flush`/`close`.
    public var failure: WriteError? { out.failure }
    /// Bytes handed to the operating system so far.
    public var bytesWritten: Int { out.bytesWritten }

    /// Creates (or truncates) `path` and writes the magic line. With `append`, an existing
    /// native file is continued instead (its streams must be declared again by name; the
    /// duplicate declarations are harmless).
    public init(path: String, append: Bool = false) throws(WriteError) {
        let exists = access(path, F_OK) == 0
        out = try OutputBytes(path: path, append: append)
        if !(append && exists) { write("\(NativeFormat.magic),\(NativeFormat.version)\n") }
        try flush()
    }

    /// Writes to standard output (`motus convert --out -`), which `close` leaves open.
    public init(standardOutput: ()) throws(WriteError) {
        out = OutputBytes(standardOutput: ())
        write("\(NativeFormat.magic),\(NativeFormat.version)\n")
        try flush()
    }

    @inline(__always) private func write(_ s: String) { out.append(s) }

    /// A number, or an empty field where it is not reported (NaN).
    @inline(__always) private func writeNumber(_ v: Double) { out.append(value: v) }

    // MARK: RecordingSink

    /// Writes the metadata as `@meta` lines: `device`, `placement`, `subject`, `height_m`,
    /// `weight_kg`, `age`, `gender`, `nominal_rate_hz` and `source` when set, then each extra key
    /// as `x.KEY` in key order. Text is quoted (`TextEscaping.quote`).
    public func metadata(_ m: RecordingMetadata) {
        func text(_ k: String, _ v: String?) { if let v { write("@meta,\(k),\(TextEscaping.quote(v))\n") } }
        func num(_ k: String, _ v: Double?) { if let v { write("@meta,\(k),"); writeNumber(v); write("\n") } }
        text("device", m.device); text("placement", m.placement); text("subject", m.subject)
        num("height_m", m.heightMeters); num("weight_kg", m.weightKg); num("age", m.age)
        text("gender", m.gender); num("nominal_rate_hz", m.nominalRateHz); text("source", m.source)
        for k in m.extra.keys.sorted() { text("x." + k, m.extra[k]) }
    }

    /// Writes `@stream,NAME,KIND,t_s,…` with the kind's column names (for people; readers check
    /// only the kind).
    public func declare(stream index: Int, name: String, kind: StreamKind) {
        while names.count <= index { names.append(""); kinds.append(.acceleration); declared.append(false) }
        names[index] = name; kinds[index] = kind; declared[index] = true
        write("@stream,\(name),\(kind.rawValue),t_s,\(kind.columns.joined(separator: ","))\n")
    }

    /// Writes one sample line `NAME,T,V1,…`: time in s and values in SI units, each in the
    /// shortest form that reads back to the same double; a NaN value is an empty field (not
    /// reported). Flushes once 64 KiB are buffered. Precondition: the stream was declared.
    public func sample(stream index: Int, time: Seconds, values: UnsafeBufferPointer<Double>) {
        precondition(declared[index], "declare a stream before its samples")
        let name = names[index]
        out.appendLine { b in
            b.append(contentsOf: name.utf8)
            b.append(UInt8(ascii: ","))
            OutputBytes.append(value: time, to: &b)
            for v in values {
                b.append(UInt8(ascii: ","))
                OutputBytes.append(value: v, to: &b)
            }
            b.append(0x0A)
        }
    }

    /// Writes `@label,START,END,"LABEL"` (times in s).
    public func label(_ l: LabelSegment) {
        write("@label,"); writeNumber(l.start); write(","); writeNumber(l.end); write(",\(TextEscaping.quote(l.label))\n")
    }

    /// Writes `@event,T,"KIND","DETAIL"` (time in s).
    public func event(_ e: GroundTruthEvent) {
        write("@event,"); writeNumber(e.time); write(",\(TextEscaping.quote(e.kind)),\(TextEscaping.quote(e.detail))\n")
    }

    /// A comment line (ignored by readers); newlines are replaced by spaces.
    public func comment(_ text: String) {
        write("# " + text.replacingNewlines() + "\n")
    }

    /// Hands buffered bytes to the operating system (`write(2)`); throws on the first failure.
    /// The buffer holds whole lines only, and a write that fails part-way (a full disk) is cut
    /// back to its last complete line, so the file never ends inside a line (`OutputBytes`).
    public func flush() throws(WriteError) { try out.flush() }

    /// Flushes and asks the OS to put the bytes on disk (`fsync`).
    public func sync() throws(WriteError) { try out.sync() }

    /// Flushes, syncs to disk and closes the file (standard output stays open). Throws the first
    /// write error, if any came before.
    public func close() throws(WriteError) { try out.close() }

    /// Writes a whole recording to `path`.
    public static func write(_ r: Recording, to path: String) throws(WriteError) {
        let w = try NativeWriter(path: path)
        var sink = w
        RecordingBuilder.replay(r, into: &sink)
        try w.close()
    }
}

extension String {
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
