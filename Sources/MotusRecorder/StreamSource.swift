import Foundation
import MotusCore
import MotusIO

/// Splits a byte stream into lines with a bound on line length: a line longer than
/// `maxLineBytes` is discarded up to its newline and reported, never buffered whole.
public struct BoundedLineSplitter: Sendable {
    public let maxLineBytes: Int
    var line: [UInt8] = []
    var discarding = false
    public init(maxLineBytes: Int = 64 << 10) { self.maxLineBytes = maxLineBytes; line.reserveCapacity(1024) }

    /// Feeds bytes; calls `body(line)` for each complete line and `overlong()` for each line
    /// dropped for its length.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void, overlong: () -> Void) {
        for b in bytes {
            if b == 0x0A {
                if discarding { discarding = false } else { line.withUnsafeBufferPointer(body) }
                line.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { continue }
            if line.count >= maxLineBytes { discarding = true; line.removeAll(keepingCapacity: true); overlong(); continue }
            line.append(b)
        }
    }

    /// The unfinished last line at the end of the input.
    public mutating func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if !line.isEmpty && !discarding { line.withUnsafeBufferPointer(body) }
        line.removeAll(); discarding = false
    }
}

/// What standard input carries.
public enum StdinFormat: String, Sendable, CaseIterable {
    /// Decided by the first line that is not blank: `{` means JSON Lines, else CSV.
    case auto, csv, jsonl
}

/// Reads lines (CSV or JSON Lines) from a file descriptor, standard input by default, on its
/// own thread, and feeds the session. Malformed lines are counted and logged. Ends at end of
/// input (then calls `onEnd`).
public final class LineSource: @unchecked Sendable {
    public let fd: Int32
    let session: RecordingSession
    let log: RateLimitedLog
    var format: StdinFormat
    var csv: CSVLineParser
    let jsonl: JSONLinesParser
    var splitter: BoundedLineSplitter
    var source = 0
    var lineNumber = 0
    var thread: Thread?
    public var onEnd: (@Sendable () -> Void)?

    public init(fd: Int32 = 0, format: StdinFormat = .auto, options: DelimitedOptions = DelimitedOptions(), coreMotionSign: Bool = false,
                maxLineBytes: Int = 64 << 10, session: RecordingSession, log: RateLimitedLog) {
        self.fd = fd; self.format = format; self.session = session; self.log = log
        csv = CSVLineParser(options: options)
        jsonl = JSONLinesParser(coreMotionSign: coreMotionSign || options.coreMotionSign == true)
        splitter = BoundedLineSplitter(maxLineBytes: maxLineBytes)
    }

    public func start() {
        // Times on standard input are as the file gives them (a replay runs faster than the laptop's
        // clock), so only the absolute time rule applies to them.
        source = session.registerSource(key: "stdin", description: "standard input; clock: as given (receive time, epoch s, when there is no time column)",
                                        liveClock: false) ?? 0
        let t = Thread { [self] in self.run() }
        t.name = "motus-stdin"
        thread = t
        t.start()
    }

    func run() {
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        var batch = SampleBatch(source: source)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            let now = wallClock()
            batch.receivedAt = now
            buf.withUnsafeBufferPointer { p in
                splitter.feed(UnsafeBufferPointer(rebasing: p[0..<n]), { line in handle(line, now, &batch) },
                              overlong: { lineNumber += 1; session.count(.bad("overlong")); log("stdin line \(lineNumber): longer than \(splitter.maxLineBytes) bytes, dropped") })
            }
            flush(&batch)
        }
        splitter.finish { line in handle(line, wallClock(), &batch) }
        flush(&batch)
        onEnd?()
    }

    func flush(_ batch: inout SampleBatch) {
        if batch.isEmpty { return }
        session.submit(batch)
        batch = SampleBatch(source: source)
    }

    func handle(_ line: UnsafeBufferPointer<UInt8>, _ now: Double, _ batch: inout SampleBatch) {
        lineNumber += 1
        if format == .auto {
            var i = 0
            while i < line.count && (line[i] == 0x20 || line[i] == 0x09 || line[i] == 0x0D) { i += 1 }
            if i == line.count { return }
            format = line[i] == UInt8(ascii: "{") ? .jsonl : .csv
        }
        let o = format == .jsonl ? jsonl.parse(line, receivedAt: now, into: &batch) : csv.parse(line, receivedAt: now, into: &batch)
        if o.malformed > 0 || o.ignored > 0 { session.count(o) }
        if o.malformed > 0 { log("stdin line \(lineNumber): \(o.warning ?? "malformed")") }
        if batch.count >= 4096 { flush(&batch) }
    }
}
