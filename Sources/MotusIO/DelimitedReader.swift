#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// Reads delimited text (CSV, TSV, space-separated) into a recording, streaming: memory is
/// bounded by the line reader's chunk however long the file is.
///
/// Columns are mapped to streams by `DelimitedOptions`, or by header names Motus knows:
/// - CoreMotion / MotionSense: `userAcceleration.x`, `gravity.x`, `rotationRate.x`,
///   `attitude.w`… (also `userAccelerationX` and `_x` spellings): g and rad/s, CoreMotion sign;
/// - common names: `acc_x`/`accX`/`ax`/`accel_x`/`Acc_X`, `gyr_x`/`gyro_x`/`gx`/`Gyr_X`,
///   time in `time`, `timestamp`, `t`, `time_s`, `timestamp_ns` (unit from a `_s`/`_ms`/`_us`/
///   `_ns` suffix, else `--time-unit`, else seconds).
///
/// Every row must have every mapped column as a number that is finite in SI units, with a time
/// within `ReadingRules.maxTimeSpanSeconds` of the first row's, or reading stops with an
/// `InputError` naming file, line and column. No row is ever skipped silently: blank lines
/// and lines starting with `#` or `//` are comments and are the only lines passed over, and a
/// last line without a newline that looks cut (`LastLineRule`) is an error, or with
/// `options.incompleteLastLine == .drop` is left out and reported. Lines may end in LF, CRLF
/// or CR. Header columns that feed no stream are posted to `InputNotices` in one line.
public struct DelimitedReader {
    /// The file read, as given (`-` or `/dev/stdin` for standard input).
    public let path: String
    /// The flags the file is read with; unset fields come from the header.
    public let options: DelimitedOptions
    /// What an app's lines before the header say (HyperIMU's `@` lines).
    let preamble: AppPreamble

    /// A reader of the file at `path`. Nothing is read until `read()`, except the lines an app
    /// writes before the header (HyperIMU's `@` lines), which say the time unit and nominal rate.
    public init(path: String, options: DelimitedOptions = .init()) {
        self.path = path; self.options = options
        preamble = AppPreamble(path: path)
    }

    /// Reads the whole file: a regular file is mapped and parsed in place, on all cores when
    /// it is large (see `readParallel`); standard input and pipes are read in one streaming pass.
    public func read() throws(InputError) -> Recording {
        try read(maxThreads: min(onlineProcessors(), 8))
    }

    /// `read()` on at most `maxThreads` threads (1: only the calling thread). The result does
    /// not depend on the number of threads.
    ///
    /// A file whose last line has no newline, or whose lines end in CR alone, is read by the
    /// streaming pass, which applies the last-line rule and the CR line ends.
    public func read(maxThreads: Int) throws(InputError) -> Recording {
        if path != "-" && Self.isRegularFile(path) && Self.endsWithLF(path) && !Self.hasLoneCRNearStart(path) {
            let size = Self.fileSize(path)
            return try readParallel(workers: size >= Self.parallelThreshold ? max(1, maxThreads) : 1)
        }
        var b = RecordingBuilder()
        if let left = try scan(into: &b) { InputNotices.post(left.description) }
        return b.recording
    }

    /// The metadata of the recording read: the options' (declared rate, file, layout), with
    /// the app's nominal rate when its preamble gives one.
    func recordingMetadata() -> RecordingMetadata {
        var m = options.metadata(source: path)
        if let app = preamble.app { m.extra["app"] = app }
        if m.nominalRateHz == nil, let r = preamble.nominalRateHz { m.nominalRateHz = r }
        return m
    }

    /// True when the file's last byte is LF (or it is empty).
    static func endsWithLF(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        if fd < 0 { return true }   // the reader reports the problem
        defer { _ = Posix.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return true }
        var b: UInt8 = 0
        return pread(fd, &b, 1, off_t(st.st_size - 1)) == 1 && b == 0x0A
    }

    /// True when the file's first MiB ends a line with CR alone (as `LineCursor` decides).
    static func hasLoneCRNearStart(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        if fd < 0 { return false }
        defer { _ = Posix.close(fd) }
        let n = 1 << 20
        let buf = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        defer { buf.deallocate() }
        var got = 0
        while got < n {
            let r = pread(fd, buf.baseAddress! + got, n - got, off_t(got))
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { break }
            got += r
        }
        return LineCursor.hasLoneCR(UnsafeBufferPointer(start: buf.baseAddress, count: got))
    }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
    }

    /// A resolved plan: which field feeds which stream component, with which scale.
    struct Plan {
        var timeField: Int = -1
        var timeScale: Double = 1
        var rate: Double = 0
        var streams: [(kind: StreamKind, fields: [Int], scale: Double)] = []
        var fieldNames: [String] = []
        var needed: Int = 0   // fields a row must have
        var attitudeFromEuler: [Int]? = nil   // roll, pitch, yaw fields (MotionSense)
    }

    /// Streams the file into `sink`, until its end or until `sink.isSatisfied`. Returns the last
    /// line when it had no newline, looked cut and was left out
    /// (`options.incompleteLastLine == .drop`).
    @discardableResult
    public func scan<S: RecordingSink>(into sink: inout S) throws(InputError) -> LeftOutLine? {
        var cursor = try LineCursor(path: path)
        // The first line that is not a comment is the header (or, with --no-header, the first row).
        var parser: RowParser? = nil
        var splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        var tail = TailCheck()
        var pending: UnsafeBufferPointer<UInt8>? = nil   // with --no-header: the first line, a row
        while let line = try cursor.next() {
            if Self.isPreamble(line) { continue }
            let (p, delimiter, fieldCount) = try firstLinePlan(line, number: cursor.lineNumber)
            splitter = FieldSplitter(delimiter: delimiter)
            sink.metadata(recordingMetadata())
            for (i, s) in p.streams.enumerated() { sink.declare(stream: i, name: s.kind.rawValue, kind: s.kind) }
            if p.attitudeFromEuler != nil { sink.declare(stream: p.streams.count, name: StreamKind.attitude.rawValue, kind: .attitude) }
            parser = RowParser(plan: p, file: path, delimiter: delimiter, backwardsTolerance: options.backwardsTolerance)
            if line.count > 0 && cursor.fileSize > 0 { sink.expectSamples(cursor.fileSize / (line.count + 1) + 16) }
            if options.noHeader { pending = line } else { tail.headerFields = fieldCount }
            break
        }
        guard var rows = parser else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: options.noHeader ? "rows of numbers" : "a header line and rows of numbers")
        }
        defer { rows.deallocate() }
        // The printed precision of the last column is followed only when the file may end
        // without a newline (a pipe, or a file whose last byte is not a line end).
        let follow = cursor.endsWithLineEnd != true
        while !sink.isSatisfied {
            let next: UnsafeBufferPointer<UInt8>?
            if let p = pending { next = p; pending = nil } else { next = try cursor.next() }
            guard let line = next else { break }
            if Self.isComment(line) { continue }
            if cursor.lastLineUnterminated, let (reason, column) = tail.reason(line, splitter: splitter, rows: rows) {
                let n = cursor.lineNumber, bytes = cursor.lastLineBytes
                if options.incompleteLastLine == .error { throw LastLineRule.error(file: path, line: n, column: column, bytes: bytes, reason: reason) }
                return LeftOutLine(file: path, line: n, bytes: bytes, reason: reason)
            }
            try rows.parse(line, cursor.lineNumber, into: &sink)
            if follow { tail.follow(line, splitter: splitter, rows: rows) }
        }
        return nil
    }

    /// What the last-line rule needs to know of the rows before the last: the field count of
    /// the header and of the first row, and the printed precision of the first row's last
    /// field's column (when that column is read).
    struct TailCheck {
        var headerFields = 0
        var rowFields = -1
        var column = -1
        var precision = ColumnPrecision()

        mutating func follow(_ line: UnsafeBufferPointer<UInt8>, splitter: FieldSplitter, rows: RowParser) {
            if rowFields < 0 {
                rowFields = splitter.split(line) { _, _, _ in }
                let c = rowFields - 1
                column = c >= 0 && c < rows.plan.needed && rows.used[c] ? c : -1
            }
            if column >= 0 {
                let s = rows.fieldStart[column]
                precision.add(NumberShape(line, s, rows.fieldEnd(line, s)))
            }
        }

        /// Why `line`, the last and without a newline, looks cut (nil: it is complete).
        func reason(_ line: UnsafeBufferPointer<UInt8>, splitter: FieldSplitter, rows: RowParser) -> (String, Int)? {
            var ranges: [(Int, Int)] = []
            splitter.split(line) { _, s, e in ranges.append((s, e)) }
            let expected = rowFields >= 0 ? rowFields : headerFields
            let needed = rows.plan.needed, used = rows.used
            let followed = column >= 0 && ranges.count == rowFields && column == ranges.count - 1
            return LastLineRule.delimitedReason(line, fields: ranges, expectedFields: expected, lastColumn: followed ? precision : nil,
                                                numeric: { $0 < needed && used[$0] })
        }
    }

    /// A line before the header that is not read: a comment, or an app's `@` line (HyperIMU
    /// writes its banner and start date so). After the header, `@` lines are errors.
    static func isPreamble(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        isComment(line) || line[0] == UInt8(ascii: "@")
    }

    @inline(__always)
    static func isComment(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.isEmpty || line[0] == UInt8(ascii: "#") || (line.count > 1 && line[0] == UInt8(ascii: "/") && line[1] == UInt8(ascii: "/"))
    }

    /// Parses data rows in one pass: mapped fields are parsed where they stand, others are
    /// skipped with `memchr`; nothing on this path allocates.
    struct RowParser {
        let plan: Plan
        let file: String
        let delimiter: UInt8
        let backwardsTolerance: Double
        /// For each field up to `plan.needed`: whether its value is used.
        let used: UnsafeMutablePointer<Bool>
        let fieldValue: UnsafeMutablePointer<Double>
        let fieldStart: UnsafeMutablePointer<Int>
        let scratch: UnsafeMutablePointer<Double>
        /// Flattened stream plan: stream si takes fields gather[offset[si] ..< offset[si+1]] times scale[si].
        let gather: UnsafeMutablePointer<Int>
        let offset: UnsafeMutablePointer<Int>
        let scale: UnsafeMutablePointer<Double>
        let streamCount: Int
        /// For the whole-file reader: where field f's value goes (`dest[f][row * destStride[f]]`,
        /// times `destScale[f]`); nil for fields not stored directly.
        let dest: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>
        let destStride: UnsafeMutablePointer<Int>
        let destScale: UnsafeMutablePointer<Double>
        /// The largest magnitude field f may have once scaled (`ReadingRules.limit`; infinity
        /// for the time), and the same per entry of `gather`.
        let destLimit: UnsafeMutablePointer<Double>
        let limits: UnsafeMutablePointer<Double>
        var row = 0
        var lastTime = -Double.infinity
        /// The first row's time (SI); later times must lie within `ReadingRules.maxTimeSpanSeconds`.
        var firstTime = Double.nan

        init(plan: Plan, file: String, delimiter: UInt8, backwardsTolerance: Double) {
            self.plan = plan; self.file = file; self.delimiter = delimiter; self.backwardsTolerance = backwardsTolerance
            used = .allocate(capacity: plan.needed)
            used.initialize(repeating: false, count: plan.needed)
            if plan.timeField >= 0 { used[plan.timeField] = true }
            for s in plan.streams { for f in s.fields where f < plan.needed { used[f] = true } }
            if let e = plan.attitudeFromEuler { for f in e { used[f] = true } }
            // One slot past the fields: NaN, what a component the header has no column for
            // (a location's altitude, a step counter's distance) reads.
            fieldValue = .allocate(capacity: plan.needed + 1)
            fieldValue.initialize(repeating: 0, count: plan.needed)
            (fieldValue + plan.needed).initialize(to: .nan)
            fieldStart = .allocate(capacity: plan.needed + 1)
            fieldStart.initialize(repeating: 0, count: plan.needed + 1)
            scratch = .allocate(capacity: 8)
            scratch.initialize(repeating: 0, count: 8)
            streamCount = plan.streams.count
            let total = plan.streams.reduce(0) { $0 + $1.fields.count }
            gather = .allocate(capacity: max(total, 1))
            limits = .allocate(capacity: max(total, 1))
            offset = .allocate(capacity: streamCount + 1)
            scale = .allocate(capacity: max(streamCount, 1))
            var k = 0
            for (si, s) in plan.streams.enumerated() {
                offset[si] = k
                scale[si] = s.scale
                for (c, f) in s.fields.enumerated() { gather[k] = f; limits[k] = ReadingRules.limit(s.kind, c); k += 1 }
            }
            offset[streamCount] = k
            dest = .allocate(capacity: plan.needed)
            dest.initialize(repeating: nil, count: plan.needed)
            destStride = .allocate(capacity: plan.needed)
            destStride.initialize(repeating: 0, count: plan.needed)
            destScale = .allocate(capacity: plan.needed)
            destScale.initialize(repeating: 0, count: plan.needed)
            destLimit = .allocate(capacity: plan.needed)
            destLimit.initialize(repeating: .infinity, count: plan.needed)
        }

        /// Points every used field at its column (`columns[si]` for stream si, `times` for the
        /// time field) so `directFields` can store rows without staging. False when that cannot
        /// be done (a field feeding two places, or attitude computed from Euler angles).
        func setDestinations(times: UnsafeMutablePointer<Double>, columns: [UnsafeMutablePointer<Double>]) -> Bool {
            if plan.attitudeFromEuler != nil { return false }
            if plan.streams.contains(where: { $0.fields.contains(plan.needed) }) { return false }
            var uses = [Int](repeating: 0, count: plan.needed)
            if plan.timeField >= 0 { uses[plan.timeField] += 1 }
            for s in plan.streams { for f in s.fields { uses[f] += 1 } }
            if uses.contains(where: { $0 > 1 }) { return false }
            if plan.timeField >= 0 {
                dest[plan.timeField] = times; destStride[plan.timeField] = 1; destScale[plan.timeField] = plan.timeScale
            }
            for (si, s) in plan.streams.enumerated() {
                for (c, f) in s.fields.enumerated() {
                    dest[f] = columns[si] + c; destStride[f] = s.kind.width; destScale[f] = s.scale
                    destLimit[f] = ReadingRules.limit(s.kind, c)
                }
            }
            return true
        }

        /// `directFields` without finding the line first: parses the row that starts at
        /// `base[pos]` with numbers bounded by `limit` (8 bytes past `limit` must be readable),
        /// and returns where the next line starts, or -1 when the row needs the line-by-line
        /// path (a comment, an unused or unusual field, a short row, `limit` reached). A row
        /// taken here is exactly one line: numbers and delimiters never contain a newline.
        @inline(__always)
        func directRow(_ base: UnsafePointer<UInt8>, _ pos: Int, _ limit: Int, row: Int) -> Int {
            let bytes = UnsafeBufferPointer(start: base, count: limit)
            let needed = plan.needed
            var i = pos
            var f = 0
            while true {
                guard let d = dest[f] else { return -1 }
                let c: UInt8
                if i &+ 8 < limit, let (v, n, next) = NumberParser.plainDecimal(base + i) {
                    // The common shape: value, length and the byte after it in one step.
                    // A value past the sensor limit takes the slow path, which names it.
                    let x = v * destScale[f]
                    guard abs(x) <= destLimit[f] else { return -1 }
                    d[row &* destStride[f]] = x
                    i &+= n
                    c = next
                } else {
                    guard let (v, e) = NumberParser.scanPaddedFinite(bytes, i, limit) else { return -1 }
                    let x = v * destScale[f]
                    guard x.isFinite, abs(x) <= destLimit[f] else { return -1 }
                    d[row &* destStride[f]] = x
                    i = e
                    guard i < limit else { return -1 }
                    c = base[i]
                }
                f &+= 1
                if f == needed {
                    if c == 0x0A { return i &+ 1 }
                    if c == 0x0D { return i &+ 1 < limit && base[i &+ 1] == 0x0A ? i &+ 2 : -1 }
                    if c != delimiter || i >= limit { return -1 }
                    guard let hit = memchr(base + i, 0x0A, limit - i) else { return -1 }
                    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) &+ 1
                }
                if c != delimiter { return -1 }
                i &+= 1
            }
        }

        /// Two plain rows at once, one starting at `a` (numbers bounded by `limitA`) and one at
        /// `b`: field by field, each row's field parsed with `plainDecimal`. The two rows are
        /// independent dependency chains (each field's end is where the next one starts), so
        /// the core overlaps them. Returns where both next lines start, or nil (having stored
        /// some values or none) as soon as either row has anything else: an unusual number, a
        /// comment, an unused field, a short or long row, a limit reached.
        @inline(__always)
        func directRowPair(_ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ limitA: Int, _ limitB: Int, rowA: Int, rowB: Int) -> (Int, Int)? {
            let needed = plan.needed
            var i = a, j = b
            var f = 0
            while true {
                guard let d = dest[f], i &+ 8 < limitA, j &+ 8 < limitB,
                      let (va, na, ca) = NumberParser.plainDecimal(base + i),
                      let (vb, nb, cb) = NumberParser.plainDecimal(base + j) else { return nil }
                let stride = destStride[f], scale = destScale[f], lim = destLimit[f]
                let xa = va * scale, xb = vb * scale
                guard abs(xa) <= lim && abs(xb) <= lim else { return nil }
                d[rowA &* stride] = xa
                d[rowB &* stride] = xb
                i &+= na; j &+= nb
                f &+= 1
                if f == needed {
                    // The line ends here: LF, or CR LF (the byte after a number is readable).
                    let ea = ca == 0x0A ? i &+ 1 : ca == 0x0D && i &+ 1 < limitA && base[i &+ 1] == 0x0A ? i &+ 2 : -1
                    let eb = cb == 0x0A ? j &+ 1 : cb == 0x0D && j &+ 1 < limitB && base[j &+ 1] == 0x0A ? j &+ 2 : -1
                    guard ea >= 0 && eb >= 0 else { return nil }
                    return (ea, eb)
                }
                guard ca == delimiter && cb == delimiter else { return nil }
                i &+= 1; j &+= 1
            }
        }

        /// The whole-file reader's common case: parses a plain row (as `fastFields` does) and
        /// stores each value, converted, straight into its column at `row`. False (having
        /// stored some values or none) when the row needs `fields`.
        @inline(__always)
        func directFields(_ line: UnsafeBufferPointer<UInt8>, row: Int) -> Bool {
            guard let L = line.baseAddress else { return false }
            let n = line.count
            let needed = plan.needed
            var i = 0
            var f = 0
            while true {
                if let d = dest[f] {
                    guard let (v, e) = NumberParser.scanPaddedFinite(line, i, n) else { return false }
                    let x = v * destScale[f]
                    guard x.isFinite, abs(x) <= destLimit[f] else { return false }
                    d[row &* destStride[f]] = x
                    i = e
                    if i < n && L[i] != delimiter { return false }
                } else {
                    i = fieldEnd(line, i)
                }
                f &+= 1
                if f == needed { return true }
                if i >= n { return false }
                i &+= 1
            }
        }

        func deallocate() {
            used.deallocate(); fieldValue.deallocate(); fieldStart.deallocate(); scratch.deallocate()
            gather.deallocate(); offset.deallocate(); scale.deallocate()
            dest.deallocate(); destStride.deallocate(); destScale.deallocate(); destLimit.deallocate(); limits.deallocate()
        }

        mutating func parse<S: RecordingSink>(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, into sink: inout S) throws(InputError) {
            try fields(line, number)
            let p = plan
            let t: Double
            if p.timeField >= 0 {
                t = fieldValue[p.timeField] * p.timeScale
                if !ReadingRules.timeFits(t, first: firstTime) {
                    if row == 0 { firstTime = t } else { throw timeSpanError(line, number, time: t) }
                }
                if t < lastTime - backwardsTolerance { throw backwardsError(line, number, latest: lastTime) }
                if t > lastTime { lastTime = t }
            } else {
                t = Double(row) / p.rate
            }
            for si in 0..<streamCount {
                let o = offset[si], w = offset[si + 1] - o, k = scale[si]
                for c in 0..<w { scratch[c] = fieldValue[gather[o + c]] * k }
                for c in 0..<w where !(abs(scratch[c]) <= limits[o + c]) && !scratch[c].isNaN {
                    throw valueError(line, number, entry: o + c, stream: si, value: scratch[c])
                }
                sink.sample(stream: si, time: t, values: UnsafeBufferPointer(start: scratch, count: w))
            }
            if let e = p.attitudeFromEuler {
                let q = DelimitedReader.coreMotionAttitude(roll: fieldValue[e[0]], pitch: fieldValue[e[1]], yaw: fieldValue[e[2]])
                scratch[0] = q.w; scratch[1] = q.x; scratch[2] = q.y; scratch[3] = q.z
                sink.sample(stream: p.streams.count, time: t, values: UnsafeBufferPointer(start: scratch, count: 4))
            }
            row += 1
        }

        /// Throws the conversion error for the first value of this line (as `fields` left it)
        /// that is not finite in SI units; the whole-file reader checks its slow-path rows so.
        func checkConverted(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws(InputError) {
            for si in 0..<streamCount {
                for k in offset[si] ..< offset[si + 1] {
                    let x = fieldValue[gather[k]] * scale[si]
                    if !(abs(x) <= limits[k]) && !x.isNaN { throw valueError(line, number, entry: k, stream: si, value: x) }
                }
            }
        }

        /// The error for entry `k` of `gather` (a field of stream si) whose value `x` (SI) is not
        /// finite once converted, or past what any sensor gives.
        func valueError(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, entry k: Int, stream si: Int, value x: Double) -> InputError {
            let f = gather[k]
            guard x.isFinite else { return conversionError(line, number, field: f, stream: si) }
            let s = fieldStart[f]
            return ReadingRules.rangeError(at: SourceLocation(file: file, line: number, column: s + 1), found: line.text(s, fieldEnd(line, s)),
                                           kind: plan.streams[si].kind, component: k - offset[si], value: x)
        }

        /// The error for field `f` of this line, finite as read but not once converted.
        func conversionError(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, field f: Int, stream si: Int) -> InputError {
            let s = fieldStart[f]
            let kind = plan.streams[si].kind
            return ReadingRules.conversionError(at: SourceLocation(file: file, line: number, column: s + 1), found: line.text(s, fieldEnd(line, s)),
                                                what: "value of column '\(plan.fieldNames[f])' (\(kind.title))", unit: kind.siUnitName)
        }

        /// The error for a row whose time lies too far from the first row's (`fieldStart` must
        /// hold this line's field starts).
        func timeSpanError(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, time: Double) -> InputError {
            let s = fieldStart[plan.timeField]
            return ReadingRules.timeError(at: SourceLocation(file: file, line: number, column: s + 1), found: line.text(s, fieldEnd(line, s)),
                                          time: time, first: firstTime)
        }

        /// The error for a row whose time steps back more than the tolerance from `latest` (SI).
        /// `fieldStart` must hold this line's field starts (as `fields` leaves them).
        func backwardsError(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, latest: Double) -> InputError {
            let s = fieldStart[plan.timeField]
            return InputError(.timeBackwards, at: SourceLocation(file: file, line: number, column: s + 1), found: line.text(s, fieldEnd(line, s)),
                              expected: "a time no more than \(backwardsTolerance) s before the latest (\(latest / plan.timeScale))")
        }

        /// Parses the first `plan.needed` fields of a data line into `fieldValue` (and their
        /// starts into `fieldStart`), or throws the exact error. The line must be followed by
        /// at least 8 readable bytes (`LineCursor` and the whole-file reader pad their buffers).
        @inline(__always)
        func fields(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws(InputError) {
            if delimiter != 0x20 && fastFields(line) { return }
            try slowFields(line, number)
        }

        /// The common case: every field a plain number directly followed by the delimiter (or
        /// the line end). False as soon as anything else is seen; `slowFields` then reads the
        /// line again and gives exactly what it always gave (value or error).
        @inline(__always)
        func fastFields(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let L = line.baseAddress else { return false }
            let n = line.count
            let needed = plan.needed
            var i = 0
            var f = 0
            while true {
                fieldStart[f] = i
                if used[f] {
                    guard let (v, e) = NumberParser.scanPaddedFinite(line, i, n) else { return false }
                    fieldValue[f] = v
                    i = e
                    if i < n && L[i] != delimiter { return false }
                } else {
                    i = fieldEnd(line, i)
                }
                f &+= 1
                if f == needed { return true }
                if i >= n { return false }
                i &+= 1
            }
        }

        func slowFields(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws(InputError) {
            let n = line.count
            guard let L = line.baseAddress else {
                throw InputError(.missingColumn, at: SourceLocation(file: file, line: number, column: 1), found: "0 fields", expected: "at least \(plan.needed) fields")
            }
            var i = 0
            var f = 0
            let needed = plan.needed
            let collapse = delimiter == 0x20
            if collapse { while i < n && L[i] == 0x20 { i += 1 } }
            var more = true   // a field starts at i
            while f < needed {
                if !more {
                    throw InputError(.missingColumn, at: SourceLocation(file: file, line: number, column: n + 1),
                                     found: "\(f) fields", expected: "at least \(needed) fields ('\(plan.fieldNames[min(f, plan.fieldNames.count - 1)])' is missing)")
                }
                fieldStart[f] = i
                if used[f] {
                    if i < n && L[i] == 0x22 {
                        // Quoted field: find the closing quote, parse what is inside.
                        var j = i + 1
                        while j < n && L[j] != 0x22 { j += 1 }
                        guard let v = NumberParser.parseDouble(line, i + 1, j) else { throw bad(line, number, f, i, j + 1) }
                        fieldValue[f] = v
                        i = min(j + 1, n)
                        while i < n && L[i] == 0x20 { i += 1 }
                    } else if let (v, e) = NumberParser.parsePrefix(line, i, n) {
                        var k = e
                        while k < n && L[k] == 0x20 && !collapse { k += 1 }
                        if k < n && L[k] != delimiter { throw bad(line, number, f, i, fieldEnd(line, i)) }
                        fieldValue[f] = v
                        i = k
                    } else {
                        throw bad(line, number, f, i, fieldEnd(line, i))
                    }
                    if !fieldValue[f].isFinite {
                        throw InputError(.nonFinite, at: SourceLocation(file: file, line: number, column: fieldStart[f] + 1),
                                         found: line.text(fieldStart[f], fieldEnd(line, fieldStart[f])), expected: "a finite number in column '\(plan.fieldNames[f])'")
                    }
                } else {
                    i = fieldEnd(line, i)
                }
                // Step over the delimiter (a run of spaces when splitting on spaces).
                if i < n {
                    i += 1
                    if collapse { while i < n && L[i] == 0x20 { i += 1 }; more = i < n }
                } else {
                    more = false
                }
                f += 1
            }
        }

        @inline(__always)
        func fieldEnd(_ line: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
            guard from < line.count else { return line.count }
            if let hit = memchr(line.baseAddress! + from, Int32(delimiter), line.count - from) {
                return line.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            return line.count
        }

        func bad(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ f: Int, _ s: Int, _ e: Int) -> InputError {
            // A field with no closing quote runs to the end of the line: the range stops there.
            var a = min(s, line.count), b = min(e, line.count)
            while a < b && line[a] == 0x20 { a += 1 }
            while b > a && line[b - 1] == 0x20 { b -= 1 }
            let inner = a < b && line[a] == 0x22 ? (a + 1, max(a + 1, b - (line[b - 1] == 0x22 ? 1 : 0))) : (a, b)
            return InputError(a == b ? .missingColumn : .badNumber, at: SourceLocation(file: file, line: number, column: s + 1),
                              found: line.text(inner.0, inner.1), expected: "a number in column '\(plan.fieldNames[f])'")
        }
    }

    /// The delimiter of a delimited text, guessed from one line (the header or the first row):
    /// the most frequent of tab, comma and semicolon (tab on a tie, then comma), else a space.
    /// Every reader of delimited text (files, standard input) uses this one rule.
    public static func detectDelimiter(_ line: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var comma = 0, tab = 0, semi = 0
        for b in line {
            if b == UInt8(ascii: ",") { comma += 1 } else if b == 0x09 { tab += 1 } else if b == UInt8(ascii: ";") { semi += 1 }
        }
        if comma == 0 && tab == 0 && semi == 0 { return 0x20 }
        if tab >= comma && tab >= semi { return 0x09 }
        return semi > comma ? UInt8(ascii: ";") : UInt8(ascii: ",")
    }

    /// Attitude quaternion from CoreMotion's roll, pitch, yaw (radians). CoreMotion's Euler
    /// angles compose as R = Rz(yaw) · Rx(pitch) · Ry(roll).
    public static func coreMotionAttitude(roll: Radians, pitch: Radians, yaw: Radians) -> Quaternion {
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
        let qy = Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        return qz * qx * qy
    }

    // MARK: - Column mapping

    /// The first line that is not a comment (the header, or with `noHeader` the first row), read
    /// as every reader of the file reads it: its delimiter, its field count and the plan with
    /// the field names. `notify`: post the columns left out (once per read).
    func firstLinePlan(_ line: UnsafeBufferPointer<UInt8>, number: Int, notify: Bool = true) throws(InputError) -> (plan: Plan, delimiter: UInt8, fieldCount: Int) {
        let delimiter = options.delimiter ?? Self.detectDelimiter(line)
        let splitter = FieldSplitter(delimiter: delimiter)
        let header = options.noHeader ? nil : splitter.strings(line)
        let fieldCount = splitter.split(line) { _, _, _ in }
        var p = try makePlan(header: header, fieldCount: fieldCount, line: number, firstLine: line, notify: notify)
        p.fieldNames = header ?? (0..<fieldCount).map { "column \($0)" }
        return (p, delimiter, fieldCount)
    }

    /// The plan for a file whose header (or, with `noHeader`, first row) is `firstLine`, on
    /// line `line`. Besides the columns it maps, it refuses what would silently change a
    /// result: column indexes on a file whose first line is a row of numbers (it would be
    /// taken for the header), `noHeader` on a first line with no number, a header with two
    /// axes of a triple and not the third, and a unit for a stream the file does not have. The
    /// header columns it reads nothing from are posted to `InputNotices` in one line.
    func makePlan(header: [String]?, fieldCount: Int, line: Int, firstLine: UnsafeBufferPointer<UInt8>, notify: Bool = true) throws(InputError) -> Plan {
        let p = try makePlan(header: header, fieldCount: fieldCount, line: line)
        let delimiter = options.delimiter ?? Self.detectDelimiter(firstLine)
        var ranges: [(Int, Int)] = []
        FieldSplitter(delimiter: delimiter).split(firstLine) { _, s, e in ranges.append((s, e)) }
        let numbers = ranges.filter { NumberParser.parseDouble(firstLine, $0.0, $0.1) != nil }.count
        let refs = [options.timeColumn].compactMap { $0 } + (options.accelColumns ?? []) + (options.gyroColumns ?? [])
            + (options.gravityColumns ?? []) + (options.userAccelColumns ?? []) + (options.magColumns ?? [])
        let byIndex = refs.contains { if case .index = $0 { true } else { false } }
        let text = firstLine.text(0, firstLine.count)
        if header != nil && byIndex && numbers == ranges.count && !ranges.isEmpty {
            throw InputError(.badHeader, at: SourceLocation(file: path, line: line, column: 1), found: text,
                             expected: "a header line: this first line is a row of numbers and would be taken for the header (add --no-header)")
        }
        if header == nil && numbers == 0 && !ranges.isEmpty {
            throw InputError(.badHeader, at: SourceLocation(file: path, line: line, column: 1), found: text,
                             expected: "a row of numbers: this first line looks like a header (leave out --no-header; columns may then be named)")
        }
        guard let header else { return p }
        let kinds = Set(p.streams.map(\.kind))
        // Columns read, and the rest.
        var read = Set<Int>()
        if p.timeField >= 0 { read.insert(p.timeField) }
        for s in p.streams { read.formUnion(s.fields) }
        if let e = p.attitudeFromEuler { read.formUnion(e) }
        let names = header.map { $0.trimmingSpaces() }
        if options.accelColumns == nil && options.gyroColumns == nil && options.gravityColumns == nil
            && options.userAccelColumns == nil && options.magColumns == nil {
            // Two axes of a triple Motus knows and not the third: the stream would be dropped.
            let lower = names.map { $0.lowercased() }
            let roles: [(StreamKind, [String], [String])] = [
                (.acceleration, ["acc", "accel", "acceleration", "accelerometer", "a", "accelerometeracceleration"], ["_", ".", ""]),
                (.rotationRate, ["gyr", "gyro", "gyroscope", "g", "rotationrate", "rot", "omega"], ["_", ".", ""]),
                (.magneticField, ["mag", "magnetometer", "magneticfield", "m"], ["_", ".", ""]),
                (.gravity, ["gravity"], ["_", ".", ""]), (.userAcceleration, ["useracceleration"], ["_", ".", ""]),
            ]
            for (kind, stems, seps) in roles where !kinds.contains(kind) {
                for stem in stems {
                    for sep in seps {
                        let axes = ["x", "y", "z"].map { stem + sep + $0 }
                        let present = axes.compactMap { lower.firstIndex(of: $0) }
                        guard !present.isEmpty && present.count < 3, let missing = axes.first(where: { !lower.contains($0) }) else { continue }
                        // Point at the column after the last axis found when Motus reads nothing there
                        // (gyr_q in place of gyr_z), else at that axis.
                        let last = present.max()!
                        let at = last + 1 < ranges.count && !read.contains(last + 1) ? last + 1 : last
                        throw InputError(.missingColumn, at: SourceLocation(file: path, line: line, column: ranges[at].0 + 1), found: names[at],
                                         expected: "'\(missing)' (the header has \(present.sorted().map { names[$0] }.joined(separator: ", ")): \(kind.title) needs all three axes)")
                    }
                }
            }
        }
        // Units given for streams the file does not have.
        func noStream(_ what: String, _ flag: String) -> InputError {
            InputError(.badValue, at: SourceLocation(file: path, line: line), found: "no \(what) columns",
                       expected: "\(what) columns for \(flag) (the header has \(header.prefix(12).joined(separator: ", ")))")
        }
        if options.accelUnit != nil && kinds.isDisjoint(with: [.acceleration, .gravity, .userAcceleration]) { throw noStream("acceleration", "--accel-unit") }
        if options.gyroUnit != nil && !kinds.contains(.rotationRate) { throw noStream("rotation-rate", "--gyro-unit") }
        if options.timeUnit != nil && p.timeField < 0 { throw noStream("time", "--time-unit") }
        // Ground-truth columns are read by `GroundTruthInput`, not left out.
        let truthNames = [options.labelColumn, options.eventColumn, options.stepColumn].compactMap { c -> String? in
            switch c { case .name(let n)?: n.lowercased(); case .index(let i)? where i < names.count: names[i].lowercased(); default: nil }
        }
        let left = names.indices.filter { !read.contains($0) && !names[$0].isEmpty && !truthNames.contains(names[$0].lowercased()) }.map { names[$0] }
        if notify && p.timeField < 0 && options.rateHz == nil, let r = preamble.nominalRateHz {
            InputNotices.post("\(path): no time column; rows taken at \(preamble.app ?? "the app")'s nominal \(r) Hz (the app does not keep it exactly; --rate sets another)")
        }
        if notify && !left.isEmpty {
            InputNotices.post("\(path): left out columns: \(left.joined(separator: ", ")) (Motus reads no stream from them)")
        }
        return p
    }

    func makePlan(header: [String]?, fieldCount: Int, line: Int) throws(InputError) -> Plan {
        var p = Plan()
        let names = header?.map { $0.trimmingSpaces() } ?? []
        let exactLower = names.map { $0.lowercased() }
        // Header keys without units and with spaces as `_` (`Linear Acceleration x (m/s^2)` is
        // `linear_acceleration_x`, unit `m/s^2`): what names are matched on.
        let parsed = names.map(HeaderName.init)
        let lower = parsed.map(\.key)
        func resolve(_ c: ColumnRef, _ role: String) throws(InputError) -> Int {
            switch c {
            case .index(let i):
                guard i < fieldCount else {
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: "\(fieldCount) columns", expected: "column index \(i) for \(role)")
                }
                return i
            case .name(let n):
                guard header != nil else {
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: n, expected: "a 0-based column index for \(role) (the file has no header)")
                }
                if let i = names.firstIndex(of: n) ?? exactLower.firstIndex(of: n.lowercased()) ?? lower.firstIndex(of: HeaderName(n).key) { return i }
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: n,
                                 expected: "a column named for \(role); the header has \(names.prefix(12).joined(separator: ", "))")
            }
        }
        func find(_ candidates: [[String]]) -> [Int]? {
            for set in candidates {
                var idx: [Int] = []
                for c in set { if let i = lower.firstIndex(of: c) { idx.append(i) } else { break } }
                if idx.count == set.count { return idx }
            }
            return nil
        }
        func axes(_ stems: [String], _ seps: [String] = ["_", ".", ""]) -> [[String]] {
            var out: [[String]] = []
            for s in stems { for sep in seps { out.append(["x", "y", "z"].map { s + sep + $0 }) } }
            // Axis first (`x_acc`, `x_gyro`), for stems long enough not to be a unit or a letter.
            for s in stems where s.count >= 3 { out.append(["x", "y", "z"].map { $0 + "_" + s }) }
            return out
        }
        /// A triple named `<sensor>_<stem>.x` or `<sensor>.<stem>_x` as Android loggers and
        /// HyperIMU write it (`MPL_Accelerometer.x`, `lsm6dsr_accelerometer.x`): any prefix
        /// ending in `_` or `.`, the same for the three axes.
        func prefixed(_ stems: [String]) -> [Int]? {
            for stem in stems {
                for sep in [".", "_"] {
                    let tail = stem + sep + "x"
                    for (i, k) in lower.enumerated() where k.hasSuffix(tail) {
                        let prefix = String(k.dropLast(tail.count))
                        guard prefix.isEmpty || prefix.hasSuffix("_") || prefix.hasSuffix(".") else { continue }
                        guard let y = lower.firstIndex(of: prefix + stem + sep + "y"), let z = lower.firstIndex(of: prefix + stem + sep + "z") else { continue }
                        return [i, y, z]
                    }
                }
            }
            return nil
        }
        func first(_ keys: [String]) -> Int? { lower.firstIndex { keys.contains($0) } }
        /// The factor into SI the header's unit names for these fields, or nil when it names none.
        func headerScale(_ fields: [Int], _ kind: StreamKind) throws(InputError) -> Double? {
            guard let f = fields.first(where: { $0 >= 0 && $0 < parsed.count && parsed[$0].unit != nil }), let u = parsed[f].unit else { return nil }
            guard let s = HeaderName.scale(unit: u, for: kind) else {
                throw InputError(.badHeader, at: SourceLocation(file: path, line: line), found: names[f],
                                 expected: "a unit Motus knows for \(kind.title) (\(kind == .rotationRate ? "rad/s or deg/s" : kind == .magneticField ? "µT" : kind == .pressure ? "Pa, hPa or kPa" : "m/s^2 or g")), or the unit flag")
            }
            return s
        }
        // CoreMotion names.
        let cmUser = find(axes(["useracceleration"])), cmGrav = find(axes(["gravity"])), cmRot = find(axes(["rotationrate"]))
        let cmEuler = find([["attitude.roll", "attitude.pitch", "attitude.yaw"], ["roll", "pitch", "yaw"]])
        let isCoreMotion = cmUser != nil && cmGrav != nil
        let sign: Double = (options.coreMotionSign ?? isCoreMotion) ? -1 : 1
        let accelDefault = (options.accelUnit ?? (isCoreMotion ? .g : .metersPerSecondSquared)).toSI * sign
        let gyroDefault = (options.gyroUnit ?? .radiansPerSecond).toSI
        /// The scale of an acceleration-like stream: the flag's unit, else the header's, else the default.
        func accelScale(_ fields: [Int]) throws(InputError) -> Double {
            if options.accelUnit != nil { return accelDefault }
            return try headerScale(fields, .acceleration).map { $0 * sign } ?? accelDefault
        }
        func gyroScale(_ fields: [Int]) throws(InputError) -> Double {
            if options.gyroUnit != nil { return gyroDefault }
            return try headerScale(fields, .rotationRate) ?? gyroDefault
        }

        func columns(_ given: [ColumnRef]?, _ auto: [Int]?, _ role: String) throws(InputError) -> [Int]? {
            if let given {
                guard given.count == 3 else {
                    throw InputError(.badValue, at: SourceLocation(file: path), found: given.map(\.description).joined(separator: ","), expected: "three columns X,Y,Z for \(role)")
                }
                var out: [Int] = []
                for g in given { out.append(try resolve(g, role)) }
                return out
            }
            return auto
        }
        let explicit = options.accelColumns != nil || options.gyroColumns != nil || options.gravityColumns != nil || options.userAccelColumns != nil || options.magColumns != nil
        // A single-sensor export (phyphox's `Accelerometer.csv`: `Time (s)`, `X (m/s^2)` …):
        // the file's name says which sensor its bare X, Y, Z columns hold.
        let bare = explicit ? nil : find([["x", "y", "z"]])
        let fileKind = bare == nil ? nil : SensorFileName.kind(path: path)
        func byFile(_ kind: StreamKind) -> [Int]? { fileKind == kind ? bare : nil }
        let accAuto = explicit ? nil : find(axes(["acc", "accel", "acceleration", "accelerometer", "a"], ["_", ".", ""]) + axes(["accelerometeracceleration"]))
            ?? prefixed(["accelerometer"]) ?? byFile(.acceleration)
        let gyroAuto = explicit ? nil : find(axes(["gyr", "gyro", "gyroscope", "g", "rotationrate", "rot", "omega"], ["_", ".", ""]))
            ?? prefixed(["gyroscope", "gyro"]) ?? byFile(.rotationRate)
        // Gravity-free acceleration: CoreMotion's user acceleration, Android's and phyphox's
        // linear acceleration.
        let userAuto = cmUser ?? prefixed(["linear_acceleration", "linearacceleration", "user_acceleration", "useracceleration"]) ?? byFile(.userAcceleration)
        let gravAuto = cmGrav ?? prefixed(["gravity"]) ?? byFile(.gravity)
        if let acc = try columns(options.accelColumns, accAuto, "acceleration") { p.streams.append((.acceleration, acc, try accelScale(acc))) }
        if let g = try columns(options.gravityColumns, explicit ? nil : gravAuto, "gravity") { p.streams.append((.gravity, g, try accelScale(g))) }
        if let u = try columns(options.userAccelColumns, explicit ? nil : userAuto, "user acceleration") { p.streams.append((.userAcceleration, u, try accelScale(u))) }
        let gyroAutoPick = explicit ? nil : (cmRot ?? gyroAuto)
        if let r = try columns(options.gyroColumns, gyroAutoPick, "rotation rate") { p.streams.append((.rotationRate, r, try gyroScale(r))) }
        let magAuto = explicit ? nil : find(axes(["mag", "magnetometer", "magneticfield", "m"], ["_", ".", ""]))
            ?? prefixed(["magnetic_field", "magneticfield", "magnetometer"]) ?? byFile(.magneticField)
        if let m = try columns(options.magColumns, magAuto, "magnetic field") { p.streams.append((.magneticField, m, try headerScale(m, .magneticField) ?? 1)) }
        if !explicit, let e = cmEuler, isCoreMotion { p.attitudeFromEuler = e }
        if !explicit {
            // Location, barometer and step counter, by the names apps give them; a component
            // without a column reads NaN (-1 here, the slot past the fields once `needed` is known).
            if let lat = first(["latitude", "lat"]), let lon = first(["longitude", "lon", "lng"]) {
                let rest = [["altitude", "height", "alt", "elevation"], ["speed", "velocity"], ["course", "direction", "bearing"],
                            ["horizontal_accuracy", "horizontalaccuracy", "hacc", "accuracy"], ["vertical_accuracy", "verticalaccuracy", "vacc"]]
                p.streams.append((.location, [lat, lon] + rest.map { first($0) ?? -1 }, 1))
            }
            if let b = first(["pressure", "pressure_hpa", "pressure_pa", "pressure_kpa", "air_pressure", "barometer", "baro"]) {
                // Android's TYPE_PRESSURE and phyphox give hPa; a `_pa`/`_kpa` name or a unit says otherwise.
                let k = lower[b]
                let byName: Double = k.hasSuffix("_kpa") ? 1000 : k.hasSuffix("_pa") ? 1 : 100
                p.streams.append((.pressure, [b], try headerScale([b], .pressure) ?? byName))
            }
            if let st = first(["steps", "step_count", "stepcount", "step_counter", "stepcounter"]) {
                p.streams.append((.stepCounter, [st, first(["distance", "distance_m"]) ?? -1], 1))
            }
        }
        if p.streams.isEmpty {
            throw InputError(.badHeader, at: SourceLocation(file: path, line: line), found: header.map { $0.prefix(8).joined(separator: ",") } ?? "no header",
                             expected: "columns Motus knows (acc_x…, userAcceleration.x…) or --accel-columns / --gyro-columns / --gravity-columns / --user-accel-columns")
        }
        // Time.
        var headerTimeUnit: TimeUnit? = nil
        if let tc = options.timeColumn {
            p.timeField = try resolve(tc, "time")
        } else if header != nil {
            // A time column Motus recognises gives the times even when a rate is declared: the
            // declared rate is then checked against them (`PlausibilityCheck`), not put in their place.
            for cand in ["time", "timestamp", "t", "time_s", "timestamp_s", "time_ms", "timestamp_ms", "time_us", "timestamp_us", "time_ns", "timestamp_ns", "seconds_elapsed"] {
                if let i = lower.firstIndex(of: cand) { p.timeField = i; break }
            }
            if p.timeField >= 0, let u = parsed[p.timeField].unit {
                guard let t = HeaderName.timeUnit(u) else {
                    throw InputError(.badHeader, at: SourceLocation(file: path, line: line), found: names[p.timeField], expected: "a time unit s, ms, us or ns (or --time-unit)")
                }
                headerTimeUnit = t
            } else if p.timeField >= 0 && lower[p.timeField] == "timestamp" {
                headerTimeUnit = preamble.timestampUnit
            }
        }
        if p.timeField >= 0 {
            let n = p.timeField < lower.count ? lower[p.timeField] : ""
            let suffixUnit: TimeUnit? = n.hasSuffix("_ns") ? .nanoseconds : n.hasSuffix("_us") ? .microseconds : n.hasSuffix("_ms") ? .milliseconds : nil
            p.timeScale = (options.timeUnit ?? suffixUnit ?? headerTimeUnit ?? .seconds).toSI
        } else if let r = options.rateHz, r > 0, r.isFinite {
            p.rate = r
        } else if let r = preamble.nominalRateHz {
            p.rate = r
        } else {
            throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: "no time column",
                             expected: "--time-column C (with --time-unit) or --rate HZ for equally spaced rows (as flags, or in a motus-layout file beside it)")
        }
        var maxField = p.timeField
        for s in p.streams { maxField = max(maxField, s.fields.max() ?? 0) }
        if let e = p.attitudeFromEuler { maxField = max(maxField, e.max() ?? 0) }
        if maxField >= 64 {
            throw InputError(.badValue, at: SourceLocation(file: path, line: line), found: "column \(maxField)", expected: "columns among the first 64")
        }
        p.needed = maxField + 1
        for i in p.streams.indices { p.streams[i].fields = p.streams[i].fields.map { $0 < 0 ? p.needed : $0 } }
        return p
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\u{FEFF}" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
