import MotusCore

/// Ground truth read from outside the samples, so that nobody appends `@label`/`@event` lines
/// by hand:
///
/// - **columns of a delimited file**: `--label-column NAME` (each run of rows with the same
///   non-empty text is a label segment, from its first row's time to the next run's first
///   row, the last run ending at the last row), `--event-column NAME` (a non-empty cell that
///   is not the number 0 is an event at its row: kind = the cell's text, or NAME when the
///   cell is a number) and `--step-column NAME` (a non-empty cell that is not the number 0 is
///   a `step` event; text such as `left` is its detail). Rows are timed as the samples are
///   (the same time column and unit, or row / rate).
/// - **a sidecar file**: `REC.truth.csv` beside a recording `REC` (found by itself), or the
///   file `--ground-truth FILE` names. CSV with a header: `start,end,label` for label segments
///   or `time,kind[,detail]` for events (times in seconds on the recording's clock); blank
///   lines and `#` lines are comments.
///
/// Every problem (a column that is not there, a row too short, a time or an end that is not a
/// number, an end before its start) is an `InputError` at its file, line and column.
public enum GroundTruthInput {
    /// The ending of a recording's own sidecar file (`walk.csv.truth.csv`).
    public static let sidecarSuffix = ".truth.csv"

    /// True when `name` is a sidecar file (not a recording of its own).
    public static func isSidecar(_ name: String) -> Bool { name.lowercased().hasSuffix(sidecarSuffix) }

    /// The sidecar that applies to `path`: `options.groundTruthFile`, else `path + .truth.csv` when it exists.
    static func sidecar(for path: String, options: DelimitedOptions) -> String? {
        if let f = options.groundTruthFile { return f }
        guard path != "-", !isSidecar(path) else { return nil }
        let own = path + sidecarSuffix
        return ReaderFiles.isFile(own) ? own : nil
    }

    /// True when anything would be added to a recording read from `path`.
    static func applies(to path: String, options: DelimitedOptions) -> Bool {
        options.labelColumn != nil || options.eventColumn != nil || options.stepColumn != nil || sidecar(for: path, options: options) != nil
    }

    /// The labels and events from `path`'s columns (when `options` names any) and its sidecar.
    public static func read(path: String, options: DelimitedOptions) throws(InputError) -> (labels: [LabelSegment], events: [GroundTruthEvent]) {
        var labels: [LabelSegment] = [], events: [GroundTruthEvent] = []
        if options.labelColumn != nil || options.eventColumn != nil || options.stepColumn != nil {
            try readColumns(path: path, options: options, labels: &labels, events: &events)
        }
        if let s = sidecar(for: path, options: options) { try readSidecar(path: s, labels: &labels, events: &events) }
        return (labels, events)
    }

    /// `recording` with what `read` finds added, events kept in time order.
    static func adding(to recording: Recording, path: String, options: DelimitedOptions) throws(InputError) -> Recording {
        guard applies(to: path, options: options) else { return recording }
        let (l, e) = try read(path: path, options: options)
        var out = recording
        out.labels += l
        out.events = (out.events + e).sorted { $0.time < $1.time }
        return out
    }

    static func readColumns(path: String, options: DelimitedOptions, labels: inout [LabelSegment], events: inout [GroundTruthEvent]) throws(InputError) {
        let reader = DelimitedReader(path: path, options: options)
        var cursor = try LineCursor(path: path)
        var plan: DelimitedReader.Plan? = nil
        var splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        var labelField = -1, eventField = -1, stepField = -1
        var eventName = ""
        var firstRow: [UInt8]? = nil   // with --no-header: the first line, a row
        while let line = try cursor.next() {
            if DelimitedReader.isPreamble(line) { continue }
            let first = try reader.firstLinePlan(line, number: cursor.lineNumber, notify: false)
            plan = first.plan
            splitter = FieldSplitter(delimiter: first.delimiter)
            let names = options.noHeader ? [] : splitter.strings(line).map { $0.trimmingSpaces() }
            func resolve(_ c: ColumnRef?, _ flag: String) throws(InputError) -> Int {
                guard let c else { return -1 }
                switch c {
                case .index(let i):
                    guard i < first.fieldCount else {
                        throw InputError(.missingColumn, at: SourceLocation(file: path, line: cursor.lineNumber), found: "\(first.fieldCount) columns", expected: "column index \(i) for \(flag)")
                    }
                    return i
                case .name(let n):
                    if let i = names.firstIndex(of: n) ?? names.firstIndex(where: { $0.lowercased() == n.lowercased() }) { return i }
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: cursor.lineNumber), found: n,
                                     expected: "a column named for \(flag); the header has \(names.prefix(12).joined(separator: ", "))")
                }
            }
            labelField = try resolve(options.labelColumn, "--label-column")
            eventField = try resolve(options.eventColumn, "--event-column")
            stepField = try resolve(options.stepColumn, "--step-column")
            if eventField >= 0 { eventName = eventField < names.count ? names[eventField] : "event" }
            if options.noHeader { firstRow = Array(line) }
            break
        }
        guard let plan else { return }
        let firstRowNumber = cursor.lineNumber
        var rowIndex = 0
        var current: (label: String, start: Double)? = nil
        var lastTime = Double.nan

        func row(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws(InputError) {
            var ranges: [(Int, Int)] = []
            splitter.split(line) { _, s, e in ranges.append((s, e)) }
            func cell(_ f: Int) throws(InputError) -> (String, Int) {
                guard f < ranges.count else {
                    throw InputError(.missingColumn, at: SourceLocation(file: path, line: number, column: line.count + 1),
                                     found: "\(ranges.count) fields", expected: "at least \(f + 1) fields")
                }
                return (line.text(ranges[f].0, ranges[f].1).trimmingSpaces(), ranges[f].0 + 1)
            }
            let t: Double
            if plan.timeField >= 0 {
                let (text, column) = try cell(plan.timeField)
                guard let v = Double(text), v.isFinite else {
                    throw InputError(.badNumber, at: SourceLocation(file: path, line: number, column: column), found: text, expected: "a number in the time column")
                }
                t = v * plan.timeScale
            } else {
                t = Double(rowIndex) / plan.rate
            }
            rowIndex += 1
            lastTime = t
            if labelField >= 0 {
                let (text, _) = try cell(labelField)
                if current?.label != text {
                    if let c = current, !c.label.isEmpty { labels.append(LabelSegment(start: c.start, end: t, label: c.label)) }
                    current = (text, t)
                }
            }
            for (f, isStep) in [(eventField, false), (stepField, true)] where f >= 0 {
                let (text, _) = try cell(f)
                if text.isEmpty { continue }
                if let v = Double(text) {
                    if v == 0 { continue }
                    events.append(GroundTruthEvent(time: t, kind: isStep ? "step" : eventName))
                } else {
                    events.append(isStep ? GroundTruthEvent(time: t, kind: "step", detail: text) : GroundTruthEvent(time: t, kind: text))
                }
            }
        }
        if let bytes = firstRow {
            // The copy is read with 8 bytes of padding, as lines from the cursor are.
            let padded = bytes + [UInt8](repeating: 0, count: 8)
            try padded.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(InputError) in
                try row(UnsafeBufferPointer(rebasing: b[0..<bytes.count]), firstRowNumber)
            }
        }
        while let line = try cursor.next() {
            if DelimitedReader.isComment(line) { continue }
            try row(line, cursor.lineNumber)
        }
        if let c = current, !c.label.isEmpty, lastTime > c.start { labels.append(LabelSegment(start: c.start, end: lastTime, label: c.label)) }
    }

    static func readSidecar(path: String, labels: inout [LabelSegment], events: inout [GroundTruthEvent]) throws(InputError) {
        var cursor = try LineCursor(path: path)
        var header: [String]? = nil
        let splitter = FieldSplitter(delimiter: UInt8(ascii: ","))
        let wanted = "a header 'start,end,label' (label segments) or 'time,kind' / 'time,kind,detail' (events)"
        while let line = try cursor.next() {
            if DelimitedReader.isComment(line) { continue }
            let fields = splitter.strings(line).map { $0.trimmingSpaces() }
            guard let h = header else {
                let lower = fields.map { $0.lowercased() }
                guard lower == ["start", "end", "label"] || lower == ["time", "kind"] || lower == ["time", "kind", "detail"] else {
                    throw InputError(.badHeader, at: SourceLocation(file: path, line: cursor.lineNumber, column: 1), found: line.text(0, line.count), expected: wanted)
                }
                header = lower
                continue
            }
            var ranges: [(Int, Int)] = []
            splitter.split(line) { _, s, e in ranges.append((s, e)) }
            guard fields.count >= (h.count == 3 && h[0] == "time" ? 2 : h.count), fields.count <= h.count else {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: cursor.lineNumber, column: 1), found: "\(fields.count) fields",
                                 expected: "\(h.joined(separator: ",")) (\(h.count) fields)")
            }
            func number(_ i: Int, _ what: String) throws(InputError) -> Double {
                guard let v = Double(fields[i]), v.isFinite else {
                    throw InputError(.badNumber, at: SourceLocation(file: path, line: cursor.lineNumber, column: ranges[i].0 + 1), found: fields[i], expected: "a \(what) in seconds")
                }
                return v
            }
            if h[0] == "start" {
                let s = try number(0, "start time"), e = try number(1, "end time")
                guard e > s else {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: cursor.lineNumber, column: ranges[1].0 + 1), found: fields[1], expected: "an end after the start \(fields[0])")
                }
                guard !fields[2].isEmpty else {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: cursor.lineNumber, column: ranges[2].0 + 1), found: "", expected: "a label")
                }
                labels.append(LabelSegment(start: s, end: e, label: fields[2]))
            } else {
                let t = try number(0, "time")
                guard !fields[1].isEmpty else {
                    throw InputError(.badValue, at: SourceLocation(file: path, line: cursor.lineNumber, column: ranges[1].0 + 1), found: "", expected: "an event kind (step …)")
                }
                events.append(GroundTruthEvent(time: t, kind: fields[1], detail: fields.count > 2 ? fields[2] : ""))
            }
        }
        if header == nil {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: wanted)
        }
    }
}
