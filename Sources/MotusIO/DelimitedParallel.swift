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

    /// Reads the whole file into a recording, on `workers` threads (one for small files).
    ///
    /// The file is mapped into memory (or read with one `read` where it cannot be mapped) and
    /// parsed where it lies, with no per-chunk copies:
    /// 1. the header (or first data line) decides the plan, on this thread;
    /// 2. the data rows are cut into line-aligned byte ranges, and each range's lines are
    ///    counted (one `memchr` per line) — an upper bound for its rows;
    /// 3. the final columns are allocated once, uninitialised, at the total; each thread
    ///    parses its range straight into them at its range's row offset (units converted as
    ///    the values are stored; all streams share one time column);
    /// 4. one pass over the times, in file order, finds time going backwards; the first
    ///    problem in file order (that, or a range's parse error) is thrown;
    /// 5. ranges that held comment or blank lines leave gaps, closed with `memmove`.
    ///
    /// The result, and any error (file, line, column, text), is exactly what the one-pass
    /// `scan` into a `RecordingBuilder` gives.
    func readParallel(workers: Int) throws(InputError) -> Recording {
        let bytes = try MappedFile(path: path)
        return try bytes.withLines { (base, size, readable) throws(InputError) -> Recording in
            try readWhole(base: base, size: size, readable: readable, workers: max(1, workers))
        }
    }

    private func readWhole(base: UnsafePointer<UInt8>, size: Int, readable: Int, workers: Int) throws(InputError) -> Recording {
        // 1. Header (or the first data line with --no-header).
        var pos = size >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
        var lineNumber = 0
        var plan: Plan? = nil
        var delimiter: UInt8 = 0
        var dataStart = size
        var linesBefore = 0
        while pos < size {
            let (line, next) = Self.line(base, pos, size)
            lineNumber += 1
            if Self.isPreamble(line) { pos = next; continue }
            let first = try firstLinePlan(line, number: lineNumber)
            delimiter = first.delimiter
            plan = first.plan
            if options.noHeader {
                dataStart = pos; linesBefore = lineNumber - 1
            } else {
                dataStart = next; linesBefore = lineNumber
            }
            break
        }
        guard let plan else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: options.noHeader ? "rows of numbers" : "a header line and rows of numbers")
        }

        // 2. Line-aligned ranges, and the lines in each.
        let span = size - dataStart
        // Several ranges per thread (each at least 256 KiB): a thread that the scheduler
        // holds back on a busy machine then delays the whole read by one small range only.
        // Ranges come in pairs that one thread parses together, a row of each in turn (two
        // independent dependency chains for the core to overlap; see `directRowPair`).
        let wanted = span < 1 << 16 ? 1 : 2 * (workers == 1 ? 1 : max(workers, min(workers * 8, span >> 18)))
        let cuts = MappedFile.lineCuts(base, from: dataStart, to: size, pieces: wanted)
        let chunks = cuts.count - 1
        let lineCounts = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
        lineCounts.initialize(repeating: 0)
        defer { lineCounts.deallocate() }
        let fixedCuts = cuts
        let counts = UncheckedBox(lineCounts)
        Self.perform(chunks, threads: workers) { k in
            counts.value[k] = Self.countLines(base, fixedCuts[k], fixedCuts[k + 1])
        }
        var rowOffset = [Int](repeating: 0, count: chunks + 1)
        for k in 0..<chunks { rowOffset[k + 1] = rowOffset[k] + lineCounts[k] }
        let capacity = rowOffset[chunks]

        // 3. Columns at their final size; each range parses straight into them.
        let streamCount = plan.streams.count
        var widths = plan.streams.map { $0.kind.width }
        if plan.attitudeFromEuler != nil { widths.append(4) }
        let timeField = plan.timeField, timeScale = plan.timeScale
        var failure: InputError? = nil
        let columns = Self.withUninitializedColumns(rows: capacity, widths: [1] + widths) { (pointers: [UnsafeMutablePointer<Double>]) -> Int in
            let times = pointers[0]
            let results = (0..<chunks).map { _ in RangeResult() }
            let box = UncheckedBox((results, pointers, fixedCuts, rowOffset))
            let file = path, tolerance = options.backwardsTolerance
            Self.perform((chunks + 1) / 2, threads: workers) { task in
                let (results, pointers, cuts, rowOffset) = box.value
                let rows = RowParser(plan: plan, file: file, delimiter: delimiter, backwardsTolerance: tolerance)
                defer { rows.deallocate() }
                let scratch = LineStorage.paddedBuffer(LineStorage.padding)
                var scratchSize = LineStorage.padding
                var scratchBuffer = scratch
                defer { scratchBuffer.deallocate() }
                let fv = rows.fieldValue
                let direct = delimiter != 0x20 && rows.setDestinations(times: times, columns: Array(pointers[1...]))
                let euler = plan.attitudeFromEuler
                let kA = 2 * task, kB = 2 * task + 1
                var posA = cuts[kA], rowA = rowOffset[kA]
                var posB = kB < chunks ? cuts[kB] : 0, rowB = kB < chunks ? rowOffset[kB] : 0
                if direct && kB < chunks {
                    // Both ranges row by row together while both rows are plain; the first
                    // row that is not (or the shorter range's end) ends this.
                    let endA = cuts[kA + 1], endB = cuts[kB + 1]
                    let limitA = min(endA, readable - 8), limitB = min(endB, readable - 8)
                    while posA < endA && posB < endB,
                          let (nextA, nextB) = rows.directRowPair(base, posA, posB, limitA, limitB, rowA: rowA, rowB: rowB) {
                        posA = nextA; posB = nextB; rowA += 1; rowB += 1
                    }
                }
                for k in kA ... min(kB, chunks - 1) {
                let r = results[k]
                var pos = k == kA ? posA : posB
                let end = cuts[k + 1]
                var row = k == kA ? rowA : rowB
                var line0 = linesBefore + rowOffset[k] + (row - rowOffset[k])
                let directLimit = min(end, readable - 8)
                while pos < end {
                    if direct {
                        let next = rows.directRow(base, pos, directLimit, row: row)
                        if next >= 0 { pos = next; line0 += 1; row += 1; continue }
                    }
                    var (line, next) = Self.line(base, pos, end)
                    pos = next
                    line0 += 1
                    if Self.isComment(line) { continue }
                    if pos + 8 > readable {
                        // Near the end of the mapping: parse a padded copy.
                        if line.count > scratchSize {
                            scratchBuffer.deallocate()
                            scratchBuffer = LineStorage.paddedBuffer(line.count)
                            scratchSize = line.count
                        }
                        let s = scratchBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        s.update(from: line.baseAddress!, count: line.count)
                        line = UnsafeBufferPointer(start: s, count: line.count)
                    }
                    if direct && rows.directFields(line, row: row) { row += 1; continue }
                    do throws(InputError) {
                        try rows.fields(line, line0)
                        try rows.checkConverted(line, line0)
                    } catch {
                        r.error = error
                        break
                    }
                    if timeField >= 0 { times[row] = fv[timeField] * timeScale }
                    for si in 0..<streamCount {
                        let o = rows.offset[si], w = rows.offset[si + 1] - o, scale = rows.scale[si]
                        let d = pointers[1 + si] + row * w
                        for c in 0..<w { d[c] = fv[rows.gather[o + c]] * scale }
                    }
                    if let e = euler {
                        let q = DelimitedReader.coreMotionAttitude(roll: fv[e[0]], pitch: fv[e[1]], yaw: fv[e[2]])
                        let d = pointers[1 + streamCount] + row * 4
                        d[0] = q.w; d[1] = q.x; d[2] = q.y; d[3] = q.z
                    }
                    row += 1
                }
                r.rows = row - rowOffset[k]
                }
            }

            // 4. The first problem in file order: time going back or too far from the first
            // row's, or a range's error.
            var latest = -Double.infinity
            var first = Double.nan
            for k in 0..<chunks {
                let r = results[k]
                if timeField >= 0 {
                    if first.isNaN && r.rows > 0 { first = times[rowOffset[k]] }
                    for i in rowOffset[k] ..< rowOffset[k] + r.rows {
                        let t = times[i]
                        if t < latest - tolerance || !ReadingRules.timeFits(t, first: first) {
                            failure = rowError(base: base, range: fixedCuts[k] ..< fixedCuts[k + 1], row: i - rowOffset[k],
                                               lineBase: linesBefore + rowOffset[k], plan: plan, delimiter: delimiter) { rows, line, number in
                                t < latest - tolerance ? rows.backwardsError(line, number, latest: latest)
                                    : { var r = rows; r.firstTime = first; return r.timeSpanError(line, number, time: t) }()
                            }
                            return -1
                        }
                        if t > latest { latest = t }
                    }
                }
                if let e = r.error { failure = e; return -1 }
            }

            // 5. Close the gaps left by comment and blank lines.
            var total = 0
            for k in 0..<chunks {
                let n = results[k].rows, from = rowOffset[k]
                if from != total && n > 0 {
                    for (c, w) in ([1] + widths).enumerated() {
                        memmove(pointers[c] + total * w, pointers[c] + from * w, n * w * MemoryLayout<Double>.stride)
                    }
                }
                total += n
            }
            if timeField < 0 {
                for i in 0..<total { times[i] = Double(i) / plan.rate }
            }
            return total
        }
        if let failure { throw failure }

        var out = Recording(metadata: recordingMetadata())
        for (si, s) in plan.streams.enumerated() {
            out.streams.append(SensorStream(kind: s.kind, name: s.kind.rawValue, times: columns[0], values: columns[1 + si]))
        }
        if plan.attitudeFromEuler != nil {
            out.streams.append(SensorStream(kind: .attitude, name: StreamKind.attitude.rawValue, times: columns[0], values: columns[1 + streamCount]))
        }
        return out
    }

    /// The line starting at `pos` (without its LF and a CR before it) and where the next begins.
    @inline(__always)
    static func line(_ base: UnsafePointer<UInt8>, _ pos: Int, _ end: Int) -> (UnsafeBufferPointer<UInt8>, Int) {
        var e = end, next = end
        if let hit = memchr(base + pos, 0x0A, end - pos) {
            e = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)); next = e + 1
        }
        if e > pos && base[e - 1] == 0x0D { e -= 1 }
        return (UnsafeBufferPointer(start: base + pos, count: e - pos), next)
    }

    /// Lines in `base[from..<to]`: LFs, plus one for a last line without one.
    static func countLines(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var n = 0, p = from
        while p < to, let hit = memchr(base + p, 0x0A, to - p) {
            n += 1
            p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return p < to ? n + 1 : n
    }

    /// Runs `body(0..<n)`, on several threads when n > 1 and `threads` > 1 (else in order, here).
    static func perform(_ n: Int, threads: Int = 2, _ body: (Int) -> Void) {
        if n == 1 || threads <= 1 { for k in 0..<n { body(k) }; return }
        withoutActuallyEscaping(body) { b in
            let box = UncheckedBox(b)
            DispatchQueue.concurrentPerform(iterations: n) { box.value($0) }
        }
    }

    /// Arrays of `rows * widths[c]` doubles, made without zero-filling: `body` gets their
    /// storage, fills the first `n * widths[c]` of each and returns n (or -1: all come back empty).
    static func withUninitializedColumns(rows: Int, widths: [Int], _ body: ([UnsafeMutablePointer<Double>]) -> Int) -> [[Double]] {
        var pointers: [UnsafeMutablePointer<Double>] = []
        var filled = 0
        func level(_ c: Int) -> [[Double]] {
            if c == widths.count { filled = max(0, body(pointers)); return [] }
            var inner: [[Double]] = []
            let a = [Double](unsafeUninitializedCapacity: max(1, rows * widths[c])) { buffer, count in
                adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), buffer.count * MemoryLayout<Double>.stride)
                pointers.append(buffer.baseAddress!)
                inner = level(c + 1)
                count = filled * widths[c]
            }
            return [a] + inner
        }
        return level(0)
    }

    /// Asks Linux for transparent huge pages on the 2 MiB-aligned part of a large, untouched
    /// output buffer: the columns are then faulted in 2 MiB at a time instead of 4 KiB, one
    /// page fault where there would be 512.
    /// Advice only: where it is not available nothing changes.
    static func adviseHugePages(_ p: UnsafeMutableRawPointer, _ bytes: Int) {
        #if os(Linux)
        let huge = 2 << 20
        let start = (Int(bitPattern: p) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: p) + bytes) & ~(huge - 1)
        if end > start {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, 14)   // MADV_HUGEPAGE
        }
        #endif
    }

    /// Finds data row `row` of a range again (only on this rare error path) for its line and
    /// column, and makes its error with `make(parser, line, number)`.
    private func rowError(base: UnsafePointer<UInt8>, range: Range<Int>, row: Int, lineBase: Int,
                          plan: Plan, delimiter: UInt8, make: (RowParser, UnsafeBufferPointer<UInt8>, Int) -> InputError) -> InputError {
        let rows = RowParser(plan: plan, file: path, delimiter: delimiter, backwardsTolerance: options.backwardsTolerance)
        defer { rows.deallocate() }
        var pos = range.lowerBound, number = lineBase, seen = 0
        while pos < range.upperBound {
            let (line, next) = Self.line(base, pos, range.upperBound)
            pos = next
            number += 1
            if Self.isComment(line) { continue }
            if seen == row {
                // A padded copy: this line parsed before, so it parses again.
                var copy = Array(line) + [UInt8](repeating: 0, count: LineStorage.padding)
                return copy.withUnsafeMutableBufferPointer { b in
                    let l = UnsafeBufferPointer(start: b.baseAddress!, count: line.count)
                    try? rows.fields(l, number)
                    return make(rows, l, number)
                }
            }
            seen += 1
        }
        return InputError(.timeBackwards, at: SourceLocation(file: path), found: "", expected: "times in order")
    }
}

/// What one thread of `readParallel` produced.
final class RangeResult: @unchecked Sendable {
    var rows = 0
    var error: InputError?
}

/// A whole file in memory: mapped read-only where possible, else read into a buffer.
final class MappedFile {
    let base: UnsafeMutableRawPointer?
    let size: Int
    /// Bytes readable from `base` (≥ size: the mapping's last page, or the buffer's padding).
    let readable: Int
    let mapped: Bool

    init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: String(cString: strerror(errno)), expected: "a readable file")
        }
        defer { _ = Posix.close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a file")
        }
        let n = Int(st.st_size)
        size = n
        if n == 0 { base = nil; readable = 0; mapped = false; return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        if let m = mmap(nil, n, PROT_READ, MAP_PRIVATE, fd, 0), m != MAP_FAILED {
            base = m; mapped = true
            readable = (n + page - 1) / page * page   // the last page is zero-filled past the end
            return
        }
        // Not mappable: one buffer, read in a loop.
        let b = UnsafeMutableRawPointer.allocate(byteCount: n + LineStorage.padding, alignment: 16)
        (b + n).initializeMemory(as: UInt8.self, repeating: 0, count: LineStorage.padding)
        var got = 0
        while got < n {
            let r = Posix.read(fd, b + got, n - got)
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { break }
            got += r
        }
        base = b; mapped = false
        readable = got + LineStorage.padding
        if got < n {
            b.deallocate()
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "\(got) of \(n) bytes", expected: "a readable file")
        }
    }

    deinit {
        guard let base else { return }
        if mapped { munmap(base, size) } else { base.deallocate() }
    }

    /// About `pieces` line-aligned ranges of `base[from..<to]`, as their bounds: `from`, each
    /// cut just after the first LF at or past an even share, and `to` (fewer when lines are
    /// long; one when `pieces` ≤ 1).
    static func lineCuts(_ base: UnsafePointer<UInt8>, from: Int, to: Int, pieces: Int) -> [Int] {
        var cuts = [from]
        let span = to - from
        for k in 1..<max(pieces, 1) {
            let q = from + span * k / pieces
            guard let hit = memchr(base + q, 0x0A, to - q) else { break }
            let b = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            if b > cuts.last! && b < to { cuts.append(b) }
        }
        cuts.append(to)
        return cuts
    }

    /// Calls `body(bytes, size, readable)`; the bytes stay valid during the call.
    func withLines<R>(_ body: (UnsafePointer<UInt8>, Int, Int) throws(InputError) -> R) throws(InputError) -> R {
        if let base {
            return try withExtendedLifetime(self) { () throws(InputError) -> R in
                try body(base.assumingMemoryBound(to: UInt8.self), size, readable)
            }
        }
        var zero: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &zero) { (z) throws(InputError) -> R in
            try body(z.baseAddress!.assumingMemoryBound(to: UInt8.self), 0, 0)
        }
    }
}

/// Hands thread-confined mutable results to `concurrentPerform` (each index has one writer).
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Number of processors online.
func onlineProcessors() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
