import MotusCore

/// Reads the IPOL gait trials of Voisard et al.: one XSens MTw at the lower back (L5), the
/// clinical protocol "stand, walk 10 m, U-turn, walk 10 m back, stand", 100 Hz.
///
/// Two layouts, told apart by the first line of the `_lb.txt` file:
/// - **Set 1** (IPOL 2023, `voisard2023_ipol497/GaitData/<subj>-<trial>_lb.txt`): line 1
///   `Acquisition frequency: 100 Hz`, line 2 a tab-separated header `PacketCounter Acc_X …
///   Mag_Z`. Annotations in `<subj>-<trial>.json`. Time is `t = PacketCounter / rate` (the JSON
///   indices are PacketCounter values).
/// - **Set 2** (Semiogram, IPOL 2025, `<visit>_lb.txt`): a raw MT Manager export with `//`
///   comment lines, then a header starting with `PacketCounter`; columns are found by name.
///   Annotations in `<visit>_ge.json`. Time is `t = (PacketCounter − first PacketCounter) / rate`
///   because the JSON indices count from the first sample. `Roll`/`Pitch`/`Yaw` (degrees,
///   XSens convention `R = Rz(yaw)·Ry(pitch)·Rx(roll)`, sensor to the ENU frame) become an
///   `att` stream.
///
/// Streams: `acc` (m/s² with gravity; at rest the up axis reads about +9.8, which is already
/// Motus' sign convention) and `gyro` (rad/s). The magnetometer (XSens normalised units, not
/// µT) is left out and said so in `extra["mag"]`. **Lost packets stay gaps**: a row is placed at
/// its counter's time and nothing is filled in; `extra["lost_packets"]` counts them. The
/// 16-bit counter's wrap-around (65535 → 0) is unwrapped. Foot sensors of the same trial
/// (`_lf.txt`, `_rf.txt`, set 1) are added as `acc.lf`, `gyro.lf`, `acc.rf`, `gyro.rf`.
///
/// Ground truth from the JSON (`LeftFootEvents`/`RightFootEvents`: `[toe_off, heel_strike]`
/// pairs): an event `step` at each heel strike and `toe-off` at each toe-off, with detail
/// "left"/"right", sorted by time. Every listed event is kept, including the extra steps some
/// trials have after the end of the protocol walk.
///
/// Label segments, with `TB = TrialBoundaries` (set 2: `gait start`/`gait end`) and
/// `U = UTurnBoundaries`, in sample units converted to seconds, half-open:
/// `still [first sample, TB0)`, `walk [TB0, U0)`, `turn [U0, U1 + 1)`, `walk [U1 + 1, TB1 + 1)`,
/// `still [TB1 + 1, last sample + 1)`. So the sample of the last heel strike is in the walk
/// and the U-turn's closing sample in the turn. Empty segments are left out.
///
/// Metadata: subject, age, gender ("male"/"female"), height (cm → m; `NaN` → unknown), weight,
/// device "XSens MTw Awinda", placement "lower-back", nominal rate from the file,
/// `extra["course_m"] = "20"` (10 m out and 10 m back).
public enum IPOLReader {
    enum Layout { case set1, semiogram }

    struct Parsed {
        var times: [Double]
        var acc: SensorStream
        var gyro: SensorStream
        var attitude: SensorStream?
        var lost: Int
        var firstCounter: Double
        var lastCounter: Double   // unwrapped, minus origin
        var rate: Double
        var layout: Layout
    }

    /// Reads a lower-back file (`…_lb.txt`) with its JSON annotations and foot files when present.
    public static func read(path: String) throws(InputError) -> Recording {
        let lb = try readSensorFile(path: path, suffix: nil)
        var streams = [lb.acc, lb.gyro]
        if let a = lb.attitude { streams.append(a) }
        var md = RecordingMetadata(device: "XSens MTw Awinda", placement: "lower-back", nominalRateHz: lb.rate)
        md.extra["course_m"] = "20"
        md.extra["lost_packets"] = "\(lb.lost)"
        md.extra["mag"] = "left out: XSens normalised units, not µT"
        md.extra["time"] = lb.layout == .set1 ? "PacketCounter / \(fmt(lb.rate)) s; lost packets are gaps"
            : "(PacketCounter - first PacketCounter) / \(fmt(lb.rate)) s; lost packets are gaps"
        let file = ReaderFiles.lastComponent(path)
        let base = file.hasSuffix("_lb.txt") ? String(file.dropLast(7)) : (file.hasSuffix(".txt") ? String(file.dropLast(4)) : file)
        let dir = ReaderFiles.parent(path)

        // Foot units (set 1).
        for side in ["lf", "rf"] {
            let p = ReaderFiles.join(dir, "\(base)_\(side).txt")
            if file.hasSuffix("_lb.txt") && ReaderFiles.isFile(p) {
                let f = try readSensorFile(path: p, suffix: side)
                streams.append(f.acc); streams.append(f.gyro)
                md.extra["lost_packets.\(side)"] = "\(f.lost)"
            }
        }

        var labels: [LabelSegment] = []
        var events: [GroundTruthEvent] = []
        let jsonPath = lb.layout == .set1 ? ReaderFiles.join(dir, base + ".json") : ReaderFiles.join(dir, base + "_ge.json")
        if ReaderFiles.isFile(jsonPath) {
            let doc = try ReaderJSONDocument(path: jsonPath)
            let root = doc.root
            guard root.isObject else {
                throw InputError(.badValue, at: doc.location(root), found: doc.snippet(root), expected: "a JSON object of IPOL annotations")
            }
            let rate = lb.rate
            // Boundaries.
            let tb0: Double, tb1: Double, u0: Double, u1: Double
            if lb.layout == .set1 {
                let tb = try doc.array(try doc.member(root, "TrialBoundaries", context: "IPOL annotations"), context: "TrialBoundaries")
                let ub = try doc.array(try doc.member(root, "UTurnBoundaries", context: "IPOL annotations"), context: "UTurnBoundaries")
                guard tb.count == 2, ub.count == 2 else {
                    let bad = tb.count != 2 ? try doc.member(root, "TrialBoundaries", context: "") : try doc.member(root, "UTurnBoundaries", context: "")
                    throw InputError(.badValue, at: doc.location(bad), found: doc.snippet(bad), expected: "[start, end]")
                }
                tb0 = try doc.number(tb[0], context: "TrialBoundaries")!; tb1 = try doc.number(tb[1], context: "TrialBoundaries")!
                u0 = try doc.number(ub[0], context: "UTurnBoundaries")!; u1 = try doc.number(ub[1], context: "UTurnBoundaries")!
            } else {
                tb0 = try doc.requiredNumber(root, "gait start", context: "Semiogram annotations")
                tb1 = try doc.requiredNumber(root, "gait end", context: "Semiogram annotations")
                u0 = try doc.requiredNumber(root, "uturn start", context: "Semiogram annotations")
                u1 = try doc.requiredNumber(root, "uturn end", context: "Semiogram annotations")
            }
            guard tb0 <= u0 && u0 <= u1 && u1 <= tb1 else {
                throw InputError(.badValue, at: doc.location(root), found: "trial [\(fmt(tb0)), \(fmt(tb1))], U-turn [\(fmt(u0)), \(fmt(u1))]",
                                 expected: "trial start ≤ U-turn start ≤ U-turn end ≤ trial end")
            }
            let first = lb.firstCounter, endCounter = lb.lastCounter + 1
            // The trial must lie inside the recording, or its labels would be cut silently.
            guard tb0 >= first && tb1 <= lb.lastCounter else {
                throw InputError(.badValue, at: doc.location(root), found: "trial [\(fmt(tb0)), \(fmt(tb1))]",
                                 expected: "a trial inside the recording's samples \(fmt(first))…\(fmt(lb.lastCounter))")
            }
            let cuts: [(Double, Double, String)] = [
                (first, tb0, "still"), (tb0, u0, "walk"), (u0, u1 + 1, "turn"), (u1 + 1, tb1 + 1, "walk"), (tb1 + 1, endCounter, "still"),
            ]
            for (a, b, name) in cuts where b > a {
                labels.append(LabelSegment(start: a / rate, end: b / rate, label: name))
            }
            // Events.
            var afterTrial = 0
            for (key, side) in [("LeftFootEvents", "left"), ("RightFootEvents", "right")] {
                let list = try doc.array(try doc.member(root, key, context: "IPOL annotations"), context: key)
                for pair in list {
                    let p = try doc.array(pair, context: "\(key) entry [toe_off, heel_strike]")
                    guard p.count == 2 else {
                        throw InputError(.badValue, at: doc.location(pair), found: doc.snippet(pair), expected: "[toe_off, heel_strike]")
                    }
                    let to = try doc.number(p[0], context: "\(key) toe-off")!, hs = try doc.number(p[1], context: "\(key) heel strike")!
                    guard to <= hs else {
                        throw InputError(.badValue, at: doc.location(pair), found: doc.snippet(pair), expected: "toe_off ≤ heel_strike")
                    }
                    // An event the sensor file has no sample for is not ground truth this
                    // recording can be scored against: an error at the event, never a step
                    // dropped (or judged) without a word.
                    for (node, v, what) in [(p[0], to, "toe-off"), (p[1], hs, "heel strike")] where !(v >= first && v <= lb.lastCounter) {
                        throw InputError(.badValue, at: doc.location(node), found: doc.snippet(node),
                                         expected: "a \(key) \(what) sample inside the recording (\(fmt(first))…\(fmt(lb.lastCounter)))")
                    }
                    events.append(GroundTruthEvent(time: to / rate, kind: "toe-off", detail: side))
                    events.append(GroundTruthEvent(time: hs / rate, kind: "step", detail: side))
                    if hs > tb1 { afterTrial += 1 }
                }
            }
            events.sort { ($0.time, $0.kind == "step" ? 1 : 0) < ($1.time, $1.kind == "step" ? 1 : 0) }
            md.extra["steps_after_trial"] = "\(afterTrial)"
            md.extra["annotations"] = ReaderFiles.lastComponent(jsonPath)
            if lb.layout == .set1 {
                if let s = root["Subject"] {
                    if let d = s.number { md.subject = fmt(d) } else if let t = s.string { md.subject = t }
                }
                if let t = root["Trial"]?.number { md.extra["trial"] = fmt(t) }
                // Body measures outside what a person can have are errors, not figures that
                // would reach the stride model.
                if let a = root["Age"] { md.age = try doc.number(a, context: "Age (years)", optional: true, in: 0...130) }
                if let g = root["Gender"]?.string {
                    md.gender = g == "M" ? "male" : g == "F" ? "female" : g
                }
                if let h = root["Height"], let cm = try doc.number(h, context: "Height (cm)", optional: true, in: 50...250) { md.heightMeters = cm / 100 }
                if let w = root["Weight"] { md.weightKg = try doc.number(w, context: "Weight (kg)", optional: true, in: 10...400) }
            } else {
                md.extra["labels"] = "algorithmic (method_ge \(root["method_ge"]?.string ?? "?"))"
            }
        } else {
            md.extra["annotations"] = "none (no \(ReaderFiles.lastComponent(jsonPath)))"
        }
        if lb.layout == .set1 {
            md.source = "IPOL 497 (Voisard et al. 2023) GaitData/\(file)"
            md.extra["trial_id"] = base
        } else {
            let group = ReaderFiles.lastComponent(dir)
            md.source = "IPOL 535 Semiogram example_datasets/\(group)/\(file)"
            md.subject = group
            md.extra["visit"] = base
        }
        return Recording(metadata: md, streams: streams, labels: labels, events: events)
    }

    static func fmt(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    /// Reads one XSens text file of either layout. `suffix` names the streams (`acc.<suffix>`).
    static func readSensorFile(path: String, suffix: String?) throws(InputError) -> Parsed {
        let head = try TableScanner.head(path: path, lines: 64)
        guard let l1 = head.first, !(head.count == 1 && l1.isEmpty) else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "an XSens export ('Acquisition frequency: …' or '//' comments, then a PacketCounter header)")
        }
        var layout = Layout.set1
        var rate = 100.0
        var headerLine = 0
        if l1.hasPrefix("Acquisition frequency:") {
            let rest = l1.dropFirst("Acquisition frequency:".count).readerTrimmed
            let number = rest.hasSuffix("Hz") ? String(rest.dropLast(2)).readerTrimmed : rest
            guard let r = NumberParser.parseDouble(number), r.isFinite, r > 0 else {
                throw InputError(.badNumber, at: SourceLocation(file: path, line: 1, column: 24), found: rest, expected: "a rate such as '100 Hz'")
            }
            rate = r
            headerLine = 2
        } else if l1.hasPrefix("//") || l1.hasPrefix("PacketCounter") {
            layout = .semiogram
            for (k, line) in head.enumerated() {
                if line.hasPrefix("//") {
                    if let r = line.firstRange(of: "Update Rate:") {
                        var t = line[r.upperBound...].readerTrimmed
                        if t.hasSuffix("Hz") { t = String(t.dropLast(2)) }
                        if let v = NumberParser.parseDouble(t), v.isFinite, v > 0 { rate = v }
                    }
                    continue
                }
                headerLine = k + 1
                break
            }
        }
        guard headerLine > 0, headerLine <= head.count, head[headerLine - 1].hasPrefix("PacketCounter") else {
            let line = headerLine > 0 && headerLine <= head.count ? headerLine : min(head.count, max(1, headerLine))
            throw InputError(.badHeader, at: SourceLocation(file: path, line: line, column: 1),
                             found: head[line - 1], expected: "a tab-separated header starting with 'PacketCounter'")
        }
        let header = head[headerLine - 1].split(separator: "\t", omittingEmptySubsequences: false).map { $0.readerTrimmed }
        var wanted = ["PacketCounter", "Acc_X", "Acc_Y", "Acc_Z", "Gyr_X", "Gyr_Y", "Gyr_Z"]
        let euler = ["Roll", "Pitch", "Yaw"]
        let hasEuler = layout == .semiogram && euler.allSatisfy { header.contains($0) }
        if hasEuler { wanted += euler }
        let cols = try TableScanner.requireColumns(wanted, in: header, path: path, line: headerLine)
        let rows = try TableScanner.readRows(path: path, delimiter: 0x09, firstDataLine: headerLine + 1, fieldCount: header.count,
                                             columns: cols, names: wanted, what: "XSens export with \(header.count) columns",
                                             limits: [nil] + (0..<3).map { (.acceleration, $0) } + (0..<3).map { (.rotationRate, $0) } + (hasEuler ? [nil, nil, nil] : []))
        let n = rows.count
        var times = [Double](); times.reserveCapacity(n)
        var lost = 0
        var offset = 0.0
        var prev = -Double.infinity
        var origin = 0.0
        var firstCounter = 0.0, last = 0.0
        for i in 0..<n {
            let raw = rows.value(i, 0)
            // XSens counts packets in 16 bits (wrapping at 65536, handled below): a larger count is
            // not a packet counter, and would make an absurd gap.
            guard raw == raw.rounded(), raw >= 0, raw < 65536 else {
                throw InputError(.badValue, at: rows.location(row: i, column: 1), found: "\(raw)",
                                 expected: "a whole PacketCounter from 0 to 65535 (XSens's 16-bit packet counter)")
            }
            var c = raw + offset
            if i > 0 && c < prev {
                if prev - c > 32768 && raw < 65536 {
                    offset += 65536; c += 65536   // 16-bit counter wrapped
                } else {
                    throw InputError(.timeBackwards, at: rows.location(row: i, column: 1), found: fmt(raw),
                                     expected: "a PacketCounter ≥ \(fmt(prev - offset)) (the row before)")
                }
            }
            if i == 0 {
                origin = layout == .semiogram ? c : 0
                firstCounter = c - origin
            } else if c - prev > 1 {
                lost += Int(c - prev) - 1
            }
            prev = c
            last = c - origin
            times.append((c - origin) / rate)
        }
        let sfx = suffix.map { "." + $0 } ?? ""
        let acc = SensorStream.fromColumns(kind: .acceleration, name: "acc" + sfx, times: times, rows: rows, x: 1, y: 2, z: 3)
        let gyro = SensorStream.fromColumns(kind: .rotationRate, name: "gyro" + sfx, times: times, rows: rows, x: 4, y: 5, z: 6)
        var att: SensorStream? = nil
        if hasEuler {
            var v = [Double](); v.reserveCapacity(4 * n)
            for i in 0..<n {
                let q = xsensAttitude(rollDegrees: rows.value(i, 7), pitchDegrees: rows.value(i, 8), yawDegrees: rows.value(i, 9))
                v.append(q.w); v.append(q.x); v.append(q.y); v.append(q.z)
            }
            att = SensorStream(kind: .attitude, name: "att" + sfx, times: times, values: v)
        }
        return Parsed(times: times, acc: acc, gyro: gyro, attitude: att, lost: lost, firstCounter: firstCounter,
                      lastCounter: last, rate: rate, layout: layout)
    }

    /// XSens Euler angles (degrees) to a quaternion: `R = Rz(yaw)·Ry(pitch)·Rx(roll)`, sensor
    /// frame to the local earth frame (ENU in these exports), i.e. `q = qz ⊗ qy ⊗ qx`.
    public static func xsensAttitude(rollDegrees: Degrees, pitchDegrees: Degrees, yawDegrees: Degrees) -> Quaternion {
        let r = rollDegrees * Math.radiansPerDegree, p = pitchDegrees * Math.radiansPerDegree, y = yawDegrees * Math.radiansPerDegree
        let cr = Math.cos(r / 2), sr = Math.sin(r / 2)
        let cp = Math.cos(p / 2), sp = Math.sin(p / 2)
        let cy = Math.cos(y / 2), sy = Math.sin(y / 2)
        return Quaternion(w: cy * cp * cr + sy * sp * sr,
                          x: cy * cp * sr - sy * sp * cr,
                          y: cy * sp * cr + sy * cp * sr,
                          z: sy * cp * cr - cy * sp * sr)
    }
}
