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
/// Every row must have every mapped column as a finite number, or reading stops with an
/// `InputError` naming file, line and column. No row is ever skipped silently: blank lines
/// and lines starting with `#` or `//` are comments and are the only lines passed over.
public struct DelimitedReader {
    public let path: String
    public let options: DelimitedOptions

    public init(path: String, options: DelimitedOptions = .init()) {
        self.path = path; self.options = options
    }

    public func read() throws(InputError) -> Recording {
        var b = RecordingBuilder()
        try scan(into: &b)
        return b.recording
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

    public func scan<S: RecordingSink>(into sink: inout S) throws(InputError) {
        let reader = try LineReader(path: path)
        var plan: Plan? = nil
        var splitter = FieldSplitter(delimiter: options.delimiter ?? UInt8(ascii: ","))
        var row = 0
        var lastTime = -Double.infinity
        var fieldStart = [Int](repeating: 0, count: 64)
        var fieldEnd = [Int](repeating: 0, count: 64)
        var scratch = [Double](repeating: 0, count: 8)
        var sawContent = false
        let file = path
        let lines = try reader.forEachLine { (line, lineNumber) throws(InputError) in
            if line.isEmpty || line[0] == UInt8(ascii: "#") || (line.count > 1 && line[0] == UInt8(ascii: "/") && line[1] == UInt8(ascii: "/")) { return }
            if plan == nil {
                sawContent = true
                if options.delimiter == nil { splitter = FieldSplitter(delimiter: Self.detectDelimiter(line)) }
                let header = options.noHeader ? nil : splitter.strings(line)
                let fieldCount = splitter.split(line) { _, _, _ in }
                var p = try makePlan(header: header, fieldCount: fieldCount, line: lineNumber)
                p.fieldNames = header ?? (0..<fieldCount).map { "column \($0)" }
                plan = p
                sink.metadata(RecordingMetadata(nominalRateHz: options.rateHz, source: file))
                for (i, s) in p.streams.enumerated() { sink.declare(stream: i, name: s.kind.rawValue, kind: s.kind) }
                if p.attitudeFromEuler != nil { sink.declare(stream: p.streams.count, name: StreamKind.attitude.rawValue, kind: .attitude) }
                if !options.noHeader { return }
            }
            let p = plan!
            // Split the row into field ranges.
            var n = 0
            splitter.split(line) { f, s, e in
                if f < 64 { fieldStart[f] = s; fieldEnd[f] = e }
                n = f + 1
            }
            if n < p.needed {
                throw InputError(.missingColumn, at: SourceLocation(file: file, line: lineNumber, column: line.count + 1),
                                 found: "\(n) fields", expected: "at least \(p.needed) fields ('\(p.fieldNames[min(n, p.fieldNames.count - 1)])' is missing)")
            }
            func field(_ f: Int) throws(InputError) -> Double {
                let s = fieldStart[f], e = fieldEnd[f]
                guard let v = NumberParser.parseDouble(line, s, e) else {
                    throw InputError(s == e ? .missingColumn : .badNumber, at: SourceLocation(file: file, line: lineNumber, column: s + 1),
                                     found: line.text(s, e), expected: "a number in column '\(p.fieldNames[f])'")
                }
                guard v.isFinite else {
                    throw InputError(.nonFinite, at: SourceLocation(file: file, line: lineNumber, column: s + 1),
                                     found: line.text(s, e), expected: "a finite number in column '\(p.fieldNames[f])'")
                }
                return v
            }
            let t: Double
            if p.timeField >= 0 {
                t = try field(p.timeField) * p.timeScale
                if t < lastTime - options.backwardsTolerance {
                    throw InputError(.timeBackwards, at: SourceLocation(file: file, line: lineNumber, column: fieldStart[p.timeField] + 1),
                                     found: line.text(fieldStart[p.timeField], fieldEnd[p.timeField]),
                                     expected: "a time no more than \(options.backwardsTolerance) s before the latest (\(lastTime / p.timeScale))")
                }
                if t > lastTime { lastTime = t }
            } else {
                t = Double(row) / p.rate
            }
            for (si, s) in p.streams.enumerated() {
                for (c, f) in s.fields.enumerated() { scratch[c] = try field(f) * s.scale }
                scratch.withUnsafeBufferPointer { sink.sample(stream: si, time: t, values: UnsafeBufferPointer(rebasing: $0[0..<s.fields.count])) }
            }
            if let e = p.attitudeFromEuler {
                let q = Self.coreMotionAttitude(roll: try field(e[0]), pitch: try field(e[1]), yaw: try field(e[2]))
                scratch[0] = q.w; scratch[1] = q.x; scratch[2] = q.y; scratch[3] = q.z
                scratch.withUnsafeBufferPointer { sink.sample(stream: p.streams.count, time: t, values: UnsafeBufferPointer(rebasing: $0[0..<4])) }
            }
            row += 1
        }
        if lines == 0 || !sawContent {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: options.noHeader ? "rows of numbers" : "a header line and rows of numbers")
        }
    }

    static func detectDelimiter(_ line: UnsafeBufferPointer<UInt8>) -> UInt8 {
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
    public static func coreMotionAttitude(roll: Double, pitch: Double, yaw: Double) -> Quaternion {
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
        let qy = Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        return qz * qx * qy
    }

    // MARK: - Column mapping

    func makePlan(header: [String]?, fieldCount: Int, line: Int) throws(InputError) -> Plan {
        var p = Plan()
        let names = header?.map { $0.trimmingSpaces() } ?? []
        let lower = names.map { $0.lowercased() }
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
                if let i = names.firstIndex(of: n) ?? lower.firstIndex(of: n.lowercased()) { return i }
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
            return out
        }
        // CoreMotion names.
        let cmUser = find(axes(["useracceleration"])), cmGrav = find(axes(["gravity"])), cmRot = find(axes(["rotationrate"]))
        let cmEuler = find([["attitude.roll", "attitude.pitch", "attitude.yaw"], ["roll", "pitch", "yaw"]])
        let isCoreMotion = cmUser != nil && cmGrav != nil
        let accelScale = (options.accelUnit ?? (isCoreMotion ? .g : .metersPerSecondSquared)).toSI * ((options.coreMotionSign ?? isCoreMotion) ? -1 : 1)
        let gyroScale = (options.gyroUnit ?? .radiansPerSecond).toSI

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
        let explicit = options.accelColumns != nil || options.gyroColumns != nil || options.gravityColumns != nil || options.userAccelColumns != nil
        let accAuto = explicit ? nil : find(axes(["acc", "accel", "acceleration", "accelerometer", "a"], ["_", ".", ""]) + axes(["accelerometeracceleration"]))
        let gyroAuto = explicit ? nil : find(axes(["gyr", "gyro", "gyroscope", "g", "rotationrate", "rot", "omega"], ["_", ".", ""]))
        if let acc = try columns(options.accelColumns, accAuto, "acceleration") { p.streams.append((.acceleration, acc, accelScale)) }
        if let g = try columns(options.gravityColumns, explicit ? nil : cmGrav, "gravity") { p.streams.append((.gravity, g, accelScale)) }
        if let u = try columns(options.userAccelColumns, explicit ? nil : cmUser, "user acceleration") { p.streams.append((.userAcceleration, u, accelScale)) }
        let gyroAutoPick = explicit ? nil : (cmRot ?? gyroAuto)
        if let r = try columns(options.gyroColumns, gyroAutoPick, "rotation rate") { p.streams.append((.rotationRate, r, gyroScale)) }
        if !explicit, let e = cmEuler, isCoreMotion { p.attitudeFromEuler = e }
        if p.streams.isEmpty {
            throw InputError(.badHeader, at: SourceLocation(file: path, line: line), found: header.map { $0.prefix(8).joined(separator: ",") } ?? "no header",
                             expected: "columns Motus knows (acc_x…, userAcceleration.x…) or --accel-columns / --gyro-columns / --gravity-columns / --user-accel-columns")
        }
        // Time.
        if let tc = options.timeColumn {
            p.timeField = try resolve(tc, "time")
        } else if options.rateHz == nil, header != nil {
            for cand in ["time", "timestamp", "t", "time_s", "timestamp_s", "time_ms", "timestamp_ms", "time_us", "timestamp_us", "time_ns", "timestamp_ns", "seconds_elapsed"] {
                if let i = lower.firstIndex(of: cand) { p.timeField = i; break }
            }
        }
        if p.timeField >= 0 {
            let n = p.timeField < lower.count ? lower[p.timeField] : ""
            let suffixUnit: TimeUnit? = n.hasSuffix("_ns") ? .nanoseconds : n.hasSuffix("_us") ? .microseconds : n.hasSuffix("_ms") ? .milliseconds : nil
            p.timeScale = (options.timeUnit ?? suffixUnit ?? .seconds).toSI
        } else {
            guard let r = options.rateHz, r > 0, r.isFinite else {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: line), found: "no time column",
                                 expected: "--time-column C (with --time-unit) or --rate HZ for equally spaced rows")
            }
            p.rate = r
        }
        var maxField = p.timeField
        for s in p.streams { maxField = max(maxField, s.fields.max() ?? 0) }
        if let e = p.attitudeFromEuler { maxField = max(maxField, e.max()!) }
        if maxField >= 64 {
            throw InputError(.badValue, at: SourceLocation(file: path, line: line), found: "column \(maxField)", expected: "columns among the first 64")
        }
        p.needed = maxField + 1
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
