import Dispatch
import MotusCore

extension NativeFormat {
    /// Files smaller than this are read on one thread.
    static let parallelThreshold = 4 << 20

    /// Reads a whole native recording on all cores, or returns nil when the one-thread `scan`
    /// must decide (a small file, a truncated-tail read, a last line without a newline, CR line
    /// ends, a time far from its stream's first, or anything unusual in the data:
    /// a stream, metadata or unknown directive after the first sample, or an error of any
    /// kind, whose file, line and column the one-thread pass reports exactly).
    ///
    /// The header (everything before the first sample line) is read on this thread; the rest
    /// is cut into line-aligned byte ranges, each parsed on its own thread into its own
    /// columns, which are then joined in order. The result equals `scan`'s.
    static func readParallel(path: String, options: NativeReadOptions, workers: Int,
                             minimumBytes: Int = parallelThreshold) throws(InputError) -> Recording? {
        if options.allowTruncatedTail || workers < 2 { return nil }
        var cursor = try LineCursor(path: path)
        let size = cursor.fileSize
        if size < minimumBytes || cursor.endsWithLineEnd != true { return nil }
        var header = RecordingBuilder()
        var parser = NativeLineParser(file: path, options: options)
        var dataStart = -1, firstLineBytes = 0
        while true {
            let before = cursor.offset
            guard let line = try cursor.next() else { break }
            if parser.sawMagic, let first = line.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "@") {
                dataStart = before
                firstLineBytes = line.count
                break
            }
            try parser.parse(line, cursor.lineNumber, into: &header)
        }
        guard dataStart >= 0, size - dataStart >= minimumBytes, !cursor.crLineEnds else { return nil }
        parser.finish(into: &header)
        // The sink's streams must be numbered 0, 1, 2… in the header builder's column order
        // (always so unless two declared names differ only in quoting; then go one-thread).
        let declared = header.declaredColumns
        guard declared.count == parser.sinkCount else { return nil }

        // The data region, mapped (no second copy of the file), cut at line starts.
        let file = try MappedFile(path: path)
        guard let raw = file.base, file.size == size else { return nil }
        let bytes = UncheckedBox(UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)))
        let cuts = MappedFile.lineCuts(bytes.value, from: dataStart, to: size, pieces: workers)
        let chunks = cuts.count - 1
        let results = (0..<chunks).map { _ in NativeChunk() }
        let box = UncheckedBox(results)
        // Samples per stream to reserve for: lines at least half as long as the first one.
        let cutsFixed = cuts, start = UncheckedBox(parser), region = size - dataStart, bytesPerLine = max(12, firstLineBytes / 2) * max(1, declared.count)
        DispatchQueue.concurrentPerform(iterations: chunks) { k in
            let r = box.value[k]
            var p = start.value
            p.dataOnly = true
            var b = RecordingBuilder()
            for (i, c) in declared.enumerated() { b.declare(stream: i, name: c.name, kind: c.kind) }
            // Chunk 0 reserves room for the whole file, so the join appends in place; pages
            // reserved and never written cost nothing.
            let span = k == 0 ? region : cutsFixed[k + 1] - cutsFixed[k]
            b.expectSamples(span / bytesPerLine + 16)
            do throws(InputError) {
                var pos = cutsFixed[k], number = 0
                let end = cutsFixed[k + 1]
                while pos < end {
                    let (line, next) = DelimitedReader.line(bytes.value, pos, end)
                    number += 1
                    try p.parse(line, number, into: &b)
                    if p.needsSequential { r.failed = true; return }
                    pos = next
                }
            } catch {
                r.failed = true
                return
            }
            r.builder = b
            r.firstTime = p.firstTime
            r.lastTime = p.lastTime
        }
        withExtendedLifetime(file) {}
        if results.contains(where: \.failed) { return nil }

        // Every chunk's times within the time span of each stream's first sample: a chunk's
        // times lie between its own first minus the tolerance and its latest.
        let span = ReadingRules.maxTimeSpanSeconds, tolerance = options.backwardsTolerance
        for s in parser.firstTime.indices {
            guard let first = results.lazy.map({ $0.firstTime[s] }).first(where: { !$0.isNaN }) else { continue }
            for r in results where !r.firstTime[s].isNaN {
                if r.firstTime[s] - tolerance < first - span || r.lastTime[s] > first + span { return nil }
            }
        }

        // Time order across chunk borders, as one pass would check it.
        for s in declared.indices {
            var latest = -Double.infinity
            for r in results {
                for t in r.builder.columnTimes(s) {
                    if t >= latest { break }   // from here on the chunk's own check holds
                    if t < latest - tolerance { return nil }
                }
                latest = max(latest, r.builder.columnTimes(s).max() ?? -.infinity)
            }
        }

        var out = results[0].builder
        results[0].builder = RecordingBuilder()
        for k in 1..<chunks {
            out.append(contentsOf: &results[k].builder)
        }
        out.prepend(labelsAndEventsOf: header)
        out.metadata(parser.metadata)
        return out.recording
    }
}

/// What one thread of `readParallel` produced.
final class NativeChunk: @unchecked Sendable {
    var builder = RecordingBuilder()
    var failed = false
    /// Each declared stream's first and latest time in this chunk (NaN, -inf: none).
    var firstTime: [Double] = []
    var lastTime: [Double] = []
}
