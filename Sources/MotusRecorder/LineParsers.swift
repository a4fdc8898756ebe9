import MotusCore
import MotusIO

/// Parses delimited text arriving line by line (`motus record --source stdin`), mapped by the
/// same `DelimitedOptions` every reader takes (`--time-column`, `--accel-columns`, …) or by a
/// header Motus recognises (`acc_x`/`accX`/`ax`, `gyr_x`/`gyro_x`/`gx`, `mag_x`, CoreMotion's
/// `userAcceleration.x`, `gravity.x`, `rotationRate.x` in g with CoreMotion's sign; time in
/// `time`, `timestamp`, `t`, `time_s`, `timestamp_ms`, `timestamp_ns`, …).
///
/// Unlike the file reader, a bad row does not stop anything: it is counted as malformed and
/// the next row is read. Time: the time column (unit from `--time-unit` or the name's suffix);
/// else `--rate` (row i at i/rate s); else the laptop receive time (s since the Unix epoch).
/// CoreMotion attitude angles are not converted live.
public struct CSVLineParser: Sendable {
    public let options: DelimitedOptions
    struct Plan: Sendable {
        var timeField = -1
        var timeScale = 1.0
        var streams: [(kind: StreamKind, fields: [Int], scale: Double)] = []
        var needed = 0
    }
    var plan: Plan?
    var delimiter: UInt8 = UInt8(ascii: ",")
    var row = 0
    var tokens = Tokens()

    public init(options: DelimitedOptions = DelimitedOptions()) { self.options = options }

    /// True once the header (or, with `noHeader`, the first row) fixed the column mapping.
    public var isReady: Bool { plan != nil }

    /// The streams the mapping produces, in order.
    public var streamKinds: [StreamKind] { plan?.streams.map(\.kind) ?? [] }

    public mutating func parse(_ line: String, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var s = line
        return s.withUTF8 { parse($0, receivedAt: receivedAt, into: &batch) }
    }

    /// Parses one line (without its newline).
    public mutating func parse(_ p: UnsafeBufferPointer<UInt8>, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var e = p.count
        if e > 0 && p[e - 1] == 0x0D { e -= 1 }
        if e == 0 || p[0] == UInt8(ascii: "#") || (e > 1 && p[0] == UInt8(ascii: "/") && p[1] == UInt8(ascii: "/")) { return ParseOutcome() }
        let line = UnsafeBufferPointer(rebasing: p[0..<e])
        if plan == nil {
            delimiter = options.delimiter ?? DelimitedReader.detectDelimiter(line)
            tokens.split(line, 0, e, delimiter: delimiter)
            var names: [String]? = nil
            if !options.noHeader {
                var n: [String] = []
                for k in 0..<tokens.count {
                    var t = tokens.text(line, k)
                    if t.hasPrefix("\u{FEFF}") { t.removeFirst() }
                    if t.count >= 2 && t.hasPrefix("\"") && t.hasSuffix("\"") { t = String(t.dropFirst().dropLast()) }
                    n.append(t)
                }
                names = n
            }
            do { plan = try Self.makePlan(options: options, header: names, fieldCount: tokens.count) } catch {
                return ParseOutcome(samples: 0, malformed: 1, warning: error.description)
            }
            if !options.noHeader { return ParseOutcome() }
        }
        return parseRow(line, receivedAt: receivedAt, into: &batch)
    }

    mutating func parseRow(_ p: UnsafeBufferPointer<UInt8>, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        guard let plan else { return .bad("no column mapping") }
        tokens.split(p, 0, p.count, delimiter: delimiter)
        if delimiter == 0x20 {
            // Runs of spaces are one delimiter.
            var s: [Int] = [], e: [Int] = []
            for k in 0..<tokens.count where tokens.starts[k] < tokens.ends[k] { s.append(tokens.starts[k]); e.append(tokens.ends[k]) }
            tokens.starts = s; tokens.ends = e
        }
        guard tokens.count >= plan.needed else {
            return .bad("\(tokens.count) fields, expected at least \(plan.needed) in '\(excerpt(p))'")
        }
        func value(_ f: Int) -> Double? {
            let s = tokens.starts[f], e = tokens.ends[f]
            if e - s >= 2 && p[s] == 0x22 && p[e - 1] == 0x22 { return NumberParser.parseDouble(p, s + 1, e - 1).flatMap { $0.isFinite ? $0 : nil } }
            return tokens.number(p, f)
        }
        let t: Double
        if plan.timeField >= 0 {
            guard let v = value(plan.timeField) else { return .bad("time field '\(tokens.text(p, plan.timeField))' is not a finite number") }
            t = v * plan.timeScale
        } else if let r = options.rateHz {
            t = Double(row) / r
        } else {
            t = receivedAt
        }
        let before = batch.count
        for s in plan.streams {
            guard let x = value(s.fields[0]), let y = value(s.fields[1]), let z = value(s.fields[2]) else {
                batch.truncate(to: before)
                let bad = s.fields.first { value($0) == nil } ?? s.fields[0]
                return .bad("field \(bad + 1) '\(tokens.text(p, bad))' is not a finite number")
            }
            batch.append(s.kind, time: t, x * s.scale, y * s.scale, z * s.scale)
        }
        row += 1
        return ParseOutcome(samples: plan.streams.count)
    }

    /// The column mapping, by the rules of `DelimitedReader` (explicit flags first, then
    /// names Motus knows).
    static func makePlan(options o: DelimitedOptions, header: [String]?, fieldCount: Int) throws(InputError) -> Plan {
        let names = header?.map { $0.trimmingCharacters() } ?? []
        let lower = names.map { $0.lowercased() }
        let here = SourceLocation(file: "<stdin>", line: 1)
        func resolve(_ c: ColumnRef, _ role: String) throws(InputError) -> Int {
            switch c {
            case .index(let i):
                guard i < fieldCount else { throw InputError(.missingColumn, at: here, found: "\(fieldCount) columns", expected: "column index \(i) for \(role)") }
                return i
            case .name(let n):
                guard header != nil else { throw InputError(.missingColumn, at: here, found: n, expected: "a 0-based column index for \(role) (no header)") }
                if let i = names.firstIndex(of: n) ?? lower.firstIndex(of: n.lowercased()) { return i }
                throw InputError(.missingColumn, at: here, found: n, expected: "a column named for \(role); the header has \(names.prefix(12).joined(separator: ", "))")
            }
        }
        func find(_ stems: [String]) -> [Int]? {
            for s in stems {
                for sep in ["_", ".", ""] {
                    let want = ["x", "y", "z"].map { s + sep + $0 }
                    let idx = want.compactMap { lower.firstIndex(of: $0) }
                    if idx.count == 3 { return idx }
                }
            }
            return nil
        }
        func given(_ g: [ColumnRef]?, _ role: String) throws(InputError) -> [Int]? {
            guard let g else { return nil }
            guard g.count == 3 else { throw InputError(.badValue, at: here, found: g.map(\.description).joined(separator: ","), expected: "three columns X,Y,Z for \(role)") }
            var out: [Int] = []
            for c in g { out.append(try resolve(c, role)) }
            return out
        }
        var p = Plan()
        let cmUser = find(["useracceleration"]), cmGrav = find(["gravity"]), cmRot = find(["rotationrate"])
        let isCoreMotion = cmUser != nil && cmGrav != nil
        let accelScale = (o.accelUnit ?? (isCoreMotion ? .g : .metersPerSecondSquared)).toSI * ((o.coreMotionSign ?? isCoreMotion) ? -1 : 1)
        let gyroScale = (o.gyroUnit ?? .radiansPerSecond).toSI
        let explicit = o.accelColumns != nil || o.gyroColumns != nil || o.gravityColumns != nil || o.userAccelColumns != nil || o.magColumns != nil
        if let f = try given(o.accelColumns, "acceleration") ?? (explicit ? nil : find(["acc", "accel", "acceleration", "accelerometer", "a"])) {
            p.streams.append((.acceleration, f, accelScale))
        }
        if let f = try given(o.gravityColumns, "gravity") ?? (explicit ? nil : cmGrav) { p.streams.append((.gravity, f, accelScale)) }
        if let f = try given(o.userAccelColumns, "user acceleration") ?? (explicit ? nil : cmUser) { p.streams.append((.userAcceleration, f, accelScale)) }
        if let f = try given(o.gyroColumns, "rotation rate") ?? (explicit ? nil : cmRot ?? find(["gyr", "gyro", "gyroscope", "g", "rot", "omega"])) {
            p.streams.append((.rotationRate, f, gyroScale))
        }
        if let f = try given(o.magColumns, "magnetic field") ?? (explicit ? nil : find(["mag", "magnetometer", "magneticfield", "m"])) {
            p.streams.append((.magneticField, f, 1))
        }
        if p.streams.isEmpty {
            throw InputError(.badHeader, at: here, found: header.map { $0.prefix(8).joined(separator: ",") } ?? "no header",
                             expected: "columns Motus knows (acc_x…, userAcceleration.x…) or --accel-columns / --gyro-columns / …")
        }
        if let tc = o.timeColumn {
            p.timeField = try resolve(tc, "time")
        } else if o.rateHz == nil, header != nil {
            for c in ["time", "timestamp", "t", "time_s", "timestamp_s", "time_ms", "timestamp_ms", "time_us", "timestamp_us", "time_ns", "timestamp_ns"] {
                if let i = lower.firstIndex(of: c) { p.timeField = i; break }
            }
        }
        if p.timeField >= 0 {
            let n = p.timeField < lower.count ? lower[p.timeField] : ""
            let suffix: TimeUnit? = n.hasSuffix("_ns") ? .nanoseconds : n.hasSuffix("_us") ? .microseconds : n.hasSuffix("_ms") ? .milliseconds : nil
            p.timeScale = (o.timeUnit ?? suffix ?? .seconds).toSI
        }
        p.needed = max(p.timeField, p.streams.flatMap(\.fields).max() ?? 0) + 1
        return p
    }
}

/// Parses JSON Lines arriving on standard input, one object per line:
/// - Motus's own shape: `{"t": 12.5, "acc": [x, y, z], "gyro": [x, y, z], …}` with stream
///   kinds as keys (`acc`, `uacc`, `grav`, `gyro`, `mag`, `att` (w,x,y,z), `steps`, `loc`,
///   `baro`), values in SI units and Motus's sign; `t` in seconds on any clock (absent: the
///   laptop receive time);
/// - a Sensor Logger reading `{"name": …, "time": <epoch ns>, "values": {…}}` or a whole
///   Sensor Logger message (see `SensorLoggerParser`).
public struct JSONLinesParser: Sendable {
    public var coreMotionSign: Bool
    public init(coreMotionSign: Bool = false) { self.coreMotionSign = coreMotionSign }

    public func parse(_ line: String, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var s = line
        return s.withUTF8 { parse($0, receivedAt: receivedAt, into: &batch) }
    }

    public func parse(_ p: UnsafeBufferPointer<UInt8>, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var a = 0
        while a < p.count && (p[a] == 0x20 || p[a] == 0x09 || p[a] == 0x0D) { a += 1 }
        if a == p.count { return ParseOutcome() }
        let v: ReaderJSON
        do { v = try ReaderJSON.parse(UnsafeBufferPointer(rebasing: p[a...]), file: "<line>") } catch { return .bad("not JSON: \(error)") }
        guard let members = v.members else { return .bad("a JSON line must be an object") }
        if v["payload"] != nil || v["name"] != nil {
            return SensorLoggerParser.parse(v, coreMotionSign: coreMotionSign, into: &batch).0
        }
        var t = receivedAt
        if let tv = v["t"] ?? v["time_s"] {
            guard let d = tv.looseNumber, d.isFinite else { return .bad("'t' is not a finite number of seconds") }
            t = d
        }
        let before = batch.count
        var n = 0
        for (key, value) in members where key != "t" && key != "time_s" {
            guard let kind = StreamKind(rawValue: key) else { continue }
            guard let arr = value.array, arr.count == kind.width else {
                batch.truncate(to: before)
                return .bad("'\(key)' needs an array of \(kind.width) numbers")
            }
            let nums = arr.map { $0.isNull ? Double.nan : ($0.looseNumber ?? .infinity) }
            guard SampleBatch.isValid(kind, time: t, nums) else {
                batch.truncate(to: before)
                return .bad("'\(key)' holds a value that is not a finite number")
            }
            batch.append(kind, time: t, values: nums)
            n += 1
        }
        if n == 0 { return .bad("no stream key (acc, gyro, …) in the object") }
        return ParseOutcome(samples: n)
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\u{FEFF}" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
