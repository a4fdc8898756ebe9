#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import MotusCore

extension DelimitedReader {
    /// Files smaller than this are read on one thread.
    static let parallelThreshold = 4 << 20

    /// Reads the whole file into a recording, on all cores for large files: the data rows are
    /// cut into line-aligned byte ranges, each range is parsed on its own thread into its own
    /// columns, and the columns are joined in order. The result, and any error (with its
    /// file, line and column), is exactly what the one-thread `scan` gives.
    func readParallel(workers: Int) throws(InputError) -> Recording {
        // The header (or first data line) on this thread: it decides the plan.
        var cursor = try LineCursor(path: path)
        let size = cursor.fileSize
        var plan: Plan? = nil
        var delimiter: UInt8 = 0
        var dataStart = 0
        var linesBefore = 0      // lines before the data region
        while let line = try cursor.next() {
            if Self.isComment(line) { continue }
            delimiter = options.delimiter ?? Self.detectDelimiter(line)
            let splitter = FieldSplitter(delimiter: delimiter)
            let header = options.noHeader ? nil : splitter.strings(line)
            let fieldCount = splitter.split(line) { _, _, _ in }
            var p = try makePlan(header: header, fieldCount: fieldCount, line: cursor.lineNumber)
            p.fieldNames = header ?? (0..<fieldCount).map { "column \($0)" }
            plan = p
            if options.noHeader {
                // This line is data: the region starts at it.
                dataStart = cursor.offset - line.count - 1
                linesBefore = cursor.lineNumber - 1
                if dataStart < 0 { dataStart = 0 }
            } else {
                dataStart = cursor.offset
                linesBefore = cursor.lineNumber
            }
            break
        }
        guard let plan else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: options.noHeader ? "rows of numbers" : "a header line and rows of numbers")
        }
        // With --no-header the first data line's length may include a CR; find its true start.
        if options.noHeader { dataStart = Self.lineStart(path: path, near: dataStart) }

        // Cut the data region at line starts.
        var cuts = [dataStart]
        let span = size - dataStart
        for k in 1..<workers {
            let b = Self.nextLineStart(path: path, after: dataStart + span * k / workers, size: size)
            if b > cuts.last! && b < size { cuts.append(b) }
        }
        cuts.append(size)
        let chunks = cuts.count - 1

        let results = (0..<chunks).map { _ in ChunkResult() }
        let box = UncheckedBox(results)
        let file = path, tolerance = options.backwardsTolerance
        let cutsFixed = cuts, delimiterFixed = delimiter
        DispatchQueue.concurrentPerform(iterations: chunks) { k in
            let r = box.value[k]
            do throws(InputError) {
                var c = try LineCursor(path: file, range: cutsFixed[k]..<cutsFixed[k + 1])
                var b = RecordingBuilder()
                for (i, s) in plan.streams.enumerated() { b.declare(stream: i, name: s.kind.rawValue, kind: s.kind) }
                if plan.attitudeFromEuler != nil { b.declare(stream: plan.streams.count, name: StreamKind.attitude.rawValue, kind: .attitude) }
                let bytes = cutsFixed[k + 1] - cutsFixed[k]
                b.expectSamples(bytes / max(1, plan.needed * 6) + 16)
                var rows = RowParser(plan: plan, file: file, delimiter: delimiterFixed, backwardsTolerance: tolerance)
                defer { rows.deallocate() }
                while let line = try c.next() {
                    if Self.isComment(line) { continue }
                    try rows.parse(line, c.lineNumber, into: &b)
                }
                r.lines = c.lineNumber
                r.rows = rows.row
                r.recording = b.recording
            } catch {
                r.error = error
            }
        }

        // The first failing chunk's error, with its line counted from the top of the file.
        var linesSoFar = linesBefore
        for r in results {
            if var e = r.error {
                if e.location.line > 0 { e.location.line += linesSoFar }
                throw e
            }
            linesSoFar += r.lines
        }

        // Check time order across chunk borders as one pass would.
        var maxTime = -Double.infinity
        linesSoFar = linesBefore
        for k in 0..<chunks {
            let part = results[k].recording!
            if plan.timeField >= 0, let times = part.streams.first?.times {
                if k > 0 {
                    var localMax = -Double.infinity
                    for (i, t) in times.enumerated() {
                        if localMax >= maxTime { break }
                        if t < maxTime - tolerance {
                            throw Self.backwardsError(path: path, range: cuts[k]..<cuts[k + 1], row: i, linesBefore: linesSoFar,
                                                      plan: plan, delimiter: delimiter, latest: maxTime, tolerance: tolerance)
                        }
                        localMax = max(localMax, t)
                    }
                }
                for t in times where t > maxTime { maxTime = t }
            }
            linesSoFar += results[k].lines
        }

        // Join: each column is built once, at its final size.
        let first = results[0].recording!
        var out = Recording(metadata: RecordingMetadata(nominalRateHz: options.rateHz, source: path))
        for s in first.streams.indices {
            let total = results.reduce(0) { $0 + $1.recording!.streams[s].count }
            var times = [Double](), values = [Double]()
            if plan.timeField >= 0 {
                times.reserveCapacity(total)
                for r in results { times.append(contentsOf: r.recording!.streams[s].times) }
            } else {
                // Row i is at i / rate, counted over the whole file.
                times = (0..<total).map { Double($0) / plan.rate }
            }
            values.reserveCapacity(total * first.streams[s].width)
            for r in results { values.append(contentsOf: r.recording!.streams[s].values) }
            out.streams.append(SensorStream(kind: first.streams[s].kind, name: first.streams[s].name, times: times, values: values))
        }
        return out
    }

    /// The offset just after the first newline at or after `after` (or `size`).
    static func nextLineStart(path: String, after: Int, size: Int) -> Int {
        guard let c = try? LineCursor(path: path, range: after..<size, chunkBytes: 1 << 16) else { return size }
        var cursor = c
        guard (try? cursor.next()) != nil else { return size }
        return cursor.offset
    }

    /// The start of the line containing `offset` (scans back at most 64 KiB).
    static func lineStart(path: String, near offset: Int) -> Int {
        var lo = max(0, offset - (1 << 16))
        guard let c = try? LineCursor(path: path, range: lo..<(offset + 1), chunkBytes: 1 << 17) else { return offset }
        var cursor = c
        var start = lo
        while let _ = try? cursor.next() {
            let o = cursor.offset
            if o > offset { break }
            start = o
        }
        lo = start
        return lo
    }

    /// Re-reads a chunk to find the line of data row `row` (only on the rare error path).
    static func backwardsError(path: String, range: Range<Int>, row: Int, linesBefore: Int, plan: Plan, delimiter: UInt8,
                               latest: Double, tolerance: Double) -> InputError {
        guard var c = try? LineCursor(path: path, range: range) else {
            return InputError(.timeBackwards, at: SourceLocation(file: path), found: "", expected: "times in order")
        }
        var seen = 0
        while let line = try? c.next() {
            if isComment(line) { continue }
            if seen == row {
                let splitter = FieldSplitter(delimiter: delimiter)
                var s = 0, e = 0
                splitter.split(line) { f, a, b in if f == plan.timeField { s = a; e = b } }
                return InputError(.timeBackwards, at: SourceLocation(file: path, line: linesBefore + c.lineNumber, column: s + 1),
                                  found: line.text(s, e),
                                  expected: "a time no more than \(tolerance) s before the latest (\(latest / plan.timeScale))")
            }
            seen += 1
        }
        return InputError(.timeBackwards, at: SourceLocation(file: path), found: "", expected: "times in order")
    }
}

/// What one thread of `readParallel` produced.
final class ChunkResult: @unchecked Sendable {
    var recording: Recording?
    var error: InputError?
    var lines = 0
    var rows = 0
}

/// Hands thread-confined mutable results to `concurrentPerform` (each index has one writer).
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Number of processors online.
func onlineProcessors() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
