import MotusCore

/// Reads WeAllWalk (Flores & Manduchi, ACM TACCESS 2018): blind and sighted walkers, two
/// iPhone 6 per trial carried in pockets, heel strikes annotated from shoe-mounted IMUs.
///
/// One recording is a phone's sensor file `sensor/iPhoneSensors_T<path>_ID<subject>_<phone>_<tool>.csv`
/// with its annotations `xml/T<path>_ID<subject>_<tool>.xml` (both phones of a trial share one
/// XML; it is looked for in `../xml/` and then beside the CSV; a missing XML is an error).
///
/// **Sensor file**: no header, 41 comma-separated numbers per row (a row with another count
/// is an error at its line), 25 Hz. Time is column 0, seconds from the start of the recording,
/// as written. It must not go backwards. Equal times are kept and counted in
/// `extra["repeated_timestamps"]`: in the files seen, such a row repeats every value of the
/// row before (all but the unknown last column) where a sample is missing (the next row is
/// 0.08 s later), so it is a re-emission, which `StreamCleaner`'s default policy removes (and
/// counts) before resampling. Streams, all on that clock, SI units, Android sign:
/// - `acc`: the raw accelerometer (columns 30–32, g, CoreMotion sign) × −9.80665, gravity
///   included: face up reads z ≈ +9.81 m/s².
/// - `gyro`: CoreMotion's bias-corrected rotation rate (17–19, rad/s), which belongs with
///   `grav`, `uacc` and `att` (CoreMotion's device-motion fusion), as MotionSense's `gyro` does:
///   what an iOS app reading device motion gets.
/// - `gyro.raw`: the raw gyroscope (33–35, rad/s) **with its bias** (on the `2R` phones it is
///   large on y). It correlates with CoreMotion's rate only about 0.9 sample for sample (it is
///   sampled at other instants), so it is kept apart, for filters that want the raw sensor.
/// - `grav`, `uacc`: CoreMotion gravity (23–25) and user acceleration (20–22), g with CoreMotion's
///   sign (gravity points down), × −9.80665, so gravity points up as `StreamKind.gravity` says.
/// - `att`: CoreMotion's attitude quaternion, stored in the file as x, y, z, w (13–16) and here
///   as (w, x, y, z); it rotates device-frame vectors into the reference frame, so the device
///   frame's gravity is `att.inverseRotate((0, 0, +9.80665))`.
/// The Euler angles and rotation matrix (1–12) repeat the quaternion and are not read; the
/// calibrated magnetic field (26–28) is all zero with accuracy −1 (uncalibrated) and the raw
/// magnetometer (36–38) is uncalibrated, so there is no `mag` stream; columns 39–40 are unknown.
///
/// **Annotations** (read with `ReaderXMLParser`, errors at line and column): every `<Step>` is a
/// `GroundTruthEvent(time:, kind: "step", detail: "left"/"right")` (`WhichFoot` L/R), every
/// turn segment's `TurnTime` an event `"turn"` whose detail is `TurnInDegrees` as written
/// (negative clockwise: TurnEtoS is −90), and every `<Feature>` (free-text incidents: a cane
/// hitting a wall, a stop, a guide dog turning) two events, `"annotation"` at its start and
/// `"annotation-end"` at its end, both with the description as detail. Events are sorted by
/// time. Each `<PathSegment>` is a label segment `[StartTime, EndTime)`: `"turn"` when its
/// `Direction` starts with `Turn`, else `"walk"`. Times are on the phone's clock (column 0).
/// The recording runs a few seconds before the first and after the last segment: those parts
/// have no label (nothing says whether the walker stood still). A phone may also stop before
/// the annotations end: every step is kept, and those after the last sample are counted in
/// `extra["steps_after_recording"]` (absent when none).
///
/// Metadata: subject `ID<n>`, device "iPhone 6", placement "pocket" (the participant chose
/// which), nominal rate 25 Hz; `extra`: `mobility_tool` (`long-cane`, `guide-dog`, `none`),
/// `phone` (`1L`/`2R`), `phone_side`, `path` (`T<n>`), the subject and other annotations,
/// the segment directions, step counts per foot and `NSteps` when it disagrees.
public enum WeAllWalkReader {
    /// The phones' sampling rate (Hz), as the dataset states it.
    public static let nominalRateHz: Hertz = 25.0
    /// Fields per row of a sensor file.
    public static let columnCount = 41
    /// CoreMotion g (gravity pointing down) to Motus m/s² (pointing up).
    public static let coreMotionToSI = -Units.standardGravity

    /// The parts of a sensor file name `iPhoneSensors_T<path>_ID<subject>_<phone>_<tool>.csv`.
    public struct FileName: Sendable, Hashable {
        /// `T1` … `T10`.
        public var path: String
        /// `ID1` … `ID15`.
        public var subject: String
        /// `1L` or `2R` (from the original folders `iPhone6-1L`, `iPhone6-2R`).
        public var phone: String
        /// `WC` (long cane), `GD` (guide dog) or `NA` (none: sighted walkers).
        public var toolCode: String
        /// The entry id of the dataset, the file name's own part: `T1_ID3_1L_WC`. The mobility
        /// tool is part of it because two of the published walkers (ID1, ID8) walked each path
        /// twice, once with a long cane and once with a guide dog: `T1_ID1_1L_WC` and
        /// `T1_ID1_1L_GD` are two recordings.
        public var id: String { "\(path)_\(subject)_\(phone)_\(toolCode)" }
        /// The annotation file's name, `T1_ID3_WC.xml`.
        public var annotationFileName: String { "\(path)_\(subject)_\(toolCode).xml" }
        /// Motus' name for the mobility tool.
        public var mobilityTool: String { WeAllWalkReader.mobilityTool(toolCode) }
    }

    /// Splits a sensor file name; nil when it is not `iPhoneSensors_T<n>_ID<n>_<phone>_<tool>.csv`.
    public static func parseFileName(_ name: String) -> FileName? {
        guard name.hasPrefix("iPhoneSensors_"), name.hasSuffix(".csv") else { return nil }
        let p = name.dropFirst("iPhoneSensors_".count).dropLast(4).split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard p.count == 4, p[0].hasPrefix("T"), p[0].count > 1, p[0].dropFirst().allSatisfy(\.readerIsDigit),
              p[1].hasPrefix("ID"), p[1].count > 2, p[1].dropFirst(2).allSatisfy(\.readerIsDigit),
              !p[2].isEmpty, !p[3].isEmpty else { return nil }
        return FileName(path: p[0], subject: p[1], phone: p[2], toolCode: p[3])
    }

    /// `WC` → "long-cane", `GD` → "guide-dog", `NA` → "none"; other codes as written.
    public static func mobilityTool(_ code: String) -> String {
        switch code {
        case "WC": "long-cane"
        case "GD": "guide-dog"
        case "NA": "none"
        default: code
        }
    }

    /// Where the annotations of a sensor file are: `../xml/<name>.xml` when it exists, else the
    /// same name beside the CSV, else nil.
    public static func annotationPath(forSensorFile path: String) -> String? {
        guard let f = parseFileName(ReaderFiles.lastComponent(path)) else { return nil }
        let dir = ReaderFiles.parent(path)
        for p in [ReaderFiles.join(ReaderFiles.join(ReaderFiles.parent(dir), "xml"), f.annotationFileName),
                  ReaderFiles.join(dir, f.annotationFileName)] where ReaderFiles.isFile(p) { return p }
        return nil
    }

    /// What an annotation file holds, on the phone's clock (seconds).
    public struct Annotations: Sendable, Equatable {
        /// `PathID`, as written (a number).
        public var pathID: String
        /// `SubjectID`, as written (a number).
        public var subjectID: String
        /// `MobilityTool`, as its code (`WC`, `GD`, `NA`).
        public var toolCode: String
        /// Steps, turns and incidents, sorted by time (see the reader's documentation).
        public var events: [GroundTruthEvent]
        /// One `walk` or `turn` segment per `<PathSegment>`.
        public var labels: [LabelSegment]
        /// The `Direction` of each segment, in order.
        public var directions: [String]
        /// The sum of the segments' `NSteps` (the listed `<Step>` elements are the reference).
        public var listedStepCount: Int
        /// The text of each non-empty `<SubjectAnnotations>` element (about the walker).
        public var subjectAnnotations: [String]
        /// The text of each non-empty `<OtherAnnotations>` element.
        public var otherAnnotations: [String]
    }

    /// Reads an annotation file `T<path>_ID<subject>_<tool>.xml`.
    public static func readAnnotations(path: String) throws(InputError) -> Annotations {
        try annotations(ReaderXMLDocument(path: path))
    }

    /// Kind and component of each numeric column read (the time has none).
    static let columnLimits: [(kind: StreamKind, component: Int)?] = {
        var out: [(kind: StreamKind, component: Int)?] = [nil]
        for (kind, n) in [(StreamKind.attitude, 4), (.rotationRate, 3), (.userAcceleration, 3), (.gravity, 3), (.acceleration, 3), (.rotationRate, 3)] {
            for c in 0..<n { out.append((kind, c)) }
        }
        return out
    }()

    static func annotations(_ doc: ReaderXMLDocument) throws(InputError) -> Annotations {
        let root = doc.root
        let ctx = "WeAllWalk annotations"
        guard root.name == "root" else {
            throw InputError(.badValue, at: doc.location(root), found: "<\(root.name)>", expected: "the WeAllWalk annotation element <root>")
        }
        var a = Annotations(pathID: try doc.text(try doc.child(root, "PathID", context: ctx), context: ctx),
                            subjectID: try doc.text(try doc.child(root, "SubjectID", context: ctx), context: ctx),
                            toolCode: try doc.text(try doc.child(root, "MobilityTool", context: ctx), context: ctx),
                            events: [], labels: [], directions: [], listedStepCount: 0,
                            subjectAnnotations: root.children("SubjectAnnotations").map(\.trimmedText).filter { !$0.isEmpty },
                            otherAnnotations: root.children("OtherAnnotations").map(\.trimmedText).filter { !$0.isEmpty })
        let segments = try doc.child(root, "Segments", context: ctx)
        for seg in segments.children("PathSegment") {
            let sctx = "a <PathSegment>"
            let start = try doc.number(seg, "StartTime", context: sctx), end = try doc.number(seg, "EndTime", context: sctx)
            guard start <= end else {
                throw InputError(.badValue, at: doc.location(try doc.child(seg, "EndTime", context: sctx)), found: "\(end)",
                                 expected: "an EndTime ≥ the StartTime \(start)")
            }
            let direction = try doc.text(try doc.child(seg, "Direction", context: sctx), context: sctx)
            let isTurn = direction.hasPrefix("Turn")
            a.directions.append(direction)
            a.labels.append(LabelSegment(start: start, end: end, label: isTurn ? "turn" : "walk"))
            let nSteps = try doc.number(seg, "NSteps", context: sctx)
            guard nSteps >= 0, nSteps == nSteps.rounded(), nSteps < 1e6 else {
                throw InputError(.badValue, at: doc.location(try doc.child(seg, "NSteps", context: sctx).textOffset), found: "\(nSteps)",
                                 expected: "a whole number of steps")
            }
            a.listedStepCount += Int(nSteps)
            if isTurn, let tt = seg.child("TurnTime") {
                var degrees = ""
                if let d = seg.child("TurnInDegrees") { degrees = try doc.text(d, context: sctx) }
                a.events.append(GroundTruthEvent(time: try doc.number(tt, context: sctx), kind: "turn", detail: degrees))
            }
            for steps in seg.children("Steps") {
                for step in steps.children("Step") {
                    let foot = try doc.child(step, "WhichFoot", context: "a <Step>")
                    let side: String
                    switch foot.trimmedText {
                    case "L": side = "left"
                    case "R": side = "right"
                    default:
                        throw InputError(.badValue, at: doc.location(foot.textOffset), found: foot.trimmedText, expected: "L or R in <WhichFoot>")
                    }
                    a.events.append(GroundTruthEvent(time: try doc.number(step, "Time", context: "a <Step>"), kind: "step", detail: side))
                }
            }
            for features in seg.children("Features") {
                for f in features.children("Feature") {
                    let fs = try doc.number(f, "StartTime", context: "a <Feature>"), fe = try doc.number(f, "EndTime", context: "a <Feature>")
                    guard fs <= fe else {
                        throw InputError(.badValue, at: doc.location(try doc.child(f, "EndTime", context: "")), found: "\(fe)",
                                         expected: "an EndTime ≥ the StartTime \(fs)")
                    }
                    let text = f.child("Description").map { collapseSpace($0.trimmedText) } ?? ""
                    a.events.append(GroundTruthEvent(time: fs, kind: "annotation", detail: text))
                    a.events.append(GroundTruthEvent(time: fe, kind: "annotation-end", detail: text))
                }
            }
        }
        guard !a.labels.isEmpty else {
            throw InputError(.missingColumn, at: doc.location(segments), found: "<Segments> without <PathSegment>", expected: "at least one <PathSegment>")
        }
        // Stable sort by time: events at the same time keep document order.
        a.events = a.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return a
    }

    /// Runs of white space (tabs, line breaks) become one space.
    static func collapseSpace(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
    }

    /// Reads a sensor file with its annotations (see the type's documentation).
    public static func read(path: String) throws(InputError) -> Recording {
        let name = ReaderFiles.lastComponent(path)
        guard let f = parseFileName(name) else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: name,
                             expected: "a WeAllWalk sensor file named iPhoneSensors_T<path>_ID<subject>_<phone>_<tool>.csv (the name finds the annotations)")
        }
        guard let xml = annotationPath(forSensorFile: path) else {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "no \(f.annotationFileName) in ../xml/ or beside the file",
                             expected: "the annotation file xml/\(f.annotationFileName) (both phones of a trial share it)")
        }
        return try read(path: path, annotationPath: xml)
    }

    /// Reads a sensor file with the annotation file at `annotationPath`.
    public static func read(path: String, annotationPath: String) throws(InputError) -> Recording {
        let name = ReaderFiles.lastComponent(path)
        let f = parseFileName(name)
        let doc = try ReaderXMLDocument(path: annotationPath)
        let a = try annotations(doc)
        if let f {
            // The XML must describe the same trial as the file name.
            for (element, want) in [("PathID", String(f.path.dropFirst())), ("SubjectID", String(f.subject.dropFirst(2))), ("MobilityTool", f.toolCode)] {
                let e = try doc.child(doc.root, element, context: "")
                guard e.trimmedText == want else {
                    throw InputError(.badValue, at: doc.location(e.textOffset), found: e.trimmedText,
                                     expected: "\(want) in <\(element)>, as the sensor file \(name) says")
                }
            }
        }

        let columns = [0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35]
        let names = ["time", "quaternion.x", "quaternion.y", "quaternion.z", "quaternion.w",
                     "rotationRate.x", "rotationRate.y", "rotationRate.z",
                     "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
                     "gravity.x", "gravity.y", "gravity.z", "accelerometer.x", "accelerometer.y", "accelerometer.z",
                     "gyroscope.x", "gyroscope.y", "gyroscope.z"]
        let rows = try TableScanner.readRows(path: path, delimiter: UInt8(ascii: ","), firstDataLine: 1, fieldCount: columnCount,
                                             columns: columns, names: names, what: "WeAllWalk iPhone sensors: 41 numbers",
                                             scales: (0..<20).map { (8...16).contains($0) ? coreMotionToSI : 1 },
                                             units: (0..<20).map { $0 == 0 ? "s" : (1...4).contains($0) ? "a unit quaternion" : (8...16).contains($0) ? "m/s²" : "rad/s" },
                                             timeColumn: 0, limits: Self.columnLimits)
        let n = rows.count
        var times = [Double](); times.reserveCapacity(n)
        var repeated = 0
        for i in 0..<n {
            let t = rows.value(i, 0)
            if i > 0 {
                if t < times[i - 1] {
                    throw InputError(.timeBackwards, at: rows.location(row: i, column: 1), found: "\(t)",
                                     expected: "a time ≥ \(times[i - 1]) (the row before)")
                }
                if t == times[i - 1] { repeated += 1 }
            }
            times.append(t)
        }
        let k = coreMotionToSI
        let acc = SensorStream.fromColumns(kind: .acceleration, times: times, rows: rows, x: 14, y: 15, z: 16, scale: k)
        let gyro = SensorStream.fromColumns(kind: .rotationRate, times: times, rows: rows, x: 5, y: 6, z: 7)
        let gyroRaw = SensorStream.fromColumns(kind: .rotationRate, name: "gyro.raw", times: times, rows: rows, x: 17, y: 18, z: 19)
        let grav = SensorStream.fromColumns(kind: .gravity, times: times, rows: rows, x: 11, y: 12, z: 13, scale: k)
        let uacc = SensorStream.fromColumns(kind: .userAcceleration, times: times, rows: rows, x: 8, y: 9, z: 10, scale: k)
        var att = [Double](); att.reserveCapacity(4 * n)
        for i in 0..<n {
            att.append(rows.value(i, 4)); att.append(rows.value(i, 1)); att.append(rows.value(i, 2)); att.append(rows.value(i, 3))
        }
        let attitude = SensorStream(kind: .attitude, times: times, values: att)

        var md = RecordingMetadata(device: "iPhone 6", placement: "pocket", subject: "ID\(a.subjectID)", nominalRateHz: nominalRateHz)
        let xmlName = ReaderFiles.lastComponent(annotationPath)
        md.source = "WeAllWalk sensor/\(name) + xml/\(xmlName)"
        md.extra["path"] = "T\(a.pathID)"
        md.extra["mobility_tool"] = mobilityTool(a.toolCode)
        if let f {
            md.extra["phone"] = f.phone
            if f.phone.hasSuffix("L") || f.phone.hasSuffix("R") {
                md.extra["phone_side"] = (f.phone.hasSuffix("L") ? "left" : "right") + " (from the folder name iPhone6-\(f.phone); not confirmed by the authors)"
            }
        }
        md.extra["time"] = "column 0: seconds from the start of the recording; annotations on the same clock"
        md.extra["repeated_timestamps"] = "\(repeated)"
        md.extra["gyro"] = "CoreMotion rotation rate, rad/s, bias-corrected (pairs with grav, uacc, att)"
        md.extra["gyro.raw"] = "raw gyroscope, rad/s, bias not removed"
        md.extra["mag"] = "left out: calibrated field all zero (accuracy -1), raw magnetometer uncalibrated"
        md.extra["segments"] = a.directions.joined(separator: " ")
        let steps = a.events.filter { $0.kind == "step" }
        md.extra["steps_left"] = "\(steps.filter { $0.detail == "left" }.count)"
        md.extra["steps_right"] = "\(steps.filter { $0.detail == "right" }.count)"
        let after = steps.filter { $0.time > (times.last ?? 0) }.count
        if after > 0 { md.extra["steps_after_recording"] = "\(after)" }
        if a.listedStepCount != steps.count {
            md.extra["quirk"] = "the segments' NSteps sum to \(a.listedStepCount), but \(steps.count) <Step> elements are listed (the steps are the reference)"
        }
        if !a.subjectAnnotations.isEmpty { md.extra["subject_annotations"] = a.subjectAnnotations.joined(separator: " | ") }
        if !a.otherAnnotations.isEmpty { md.extra["other_annotations"] = a.otherAnnotations.joined(separator: " | ") }
        return Recording(metadata: md, streams: [acc, gyro, gyroRaw, grav, uacc, attitude], labels: a.labels, events: a.events)
    }
}

extension Character {
    /// 0–9.
    var readerIsDigit: Bool { isASCII && isNumber }
}
