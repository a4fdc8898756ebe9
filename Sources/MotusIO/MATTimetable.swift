import MotusCore

/// A MATLAB `timetable` read from a MAT-file: variables (columns) with one time per row.
///
/// MATLAB saves a timetable through its `saveobj` method: the object (see `MATSubsystem`)
/// has the one property `any`, a struct whose fields this reads: `data` (a cell, one array
/// per variable, each `numRows` rows), `varNames` (a cell of names), `numRows`, `varUnits`
/// (a cell, empty when no units were set), `dimNames` (the row-times name, e.g. `Timestamp`,
/// then `Variables`) and `rowTimes`, which is either the row times themselves (a `datetime`
/// or `duration` object) or, for a timetable made with `SampleRate` or `TimeStep`, a struct
/// of `origin` (the first time, a datetime or duration), `specifiedAsRate`, `sampleRate`
/// (Hz) and `stepSize` (a duration): row `i` (from 0) is then at `origin + i / sampleRate`
/// or `origin + i × stepSize`. Calendar steps (`calmonths`, `caldays`, a `calendarDuration`)
/// are not read: their length depends on the calendar, and loading one is an error saying so.
public struct MATTimetable: Sendable, Equatable {
    /// The row times: dates and times, or durations.
    public enum RowTimes: Sendable, Equatable {
        /// `datetime` row times.
        case datetime(MATDateTime)
        /// `duration` row times.
        case duration(MATDuration)

        /// The times in seconds: since 1970 for datetimes (see `MATDateTime`), else as given.
        public var seconds: [Double] {
            switch self {
            case .datetime(let d): d.seconds
            case .duration(let d): d.seconds
            }
        }
        /// Number of times.
        public var count: Int {
            switch self {
            case .datetime(let d): d.milliseconds.count
            case .duration(let d): d.milliseconds.count
            }
        }
    }

    /// The row times.
    public var rowTimes: RowTimes
    /// The row times' name (`dimNames` 1: `Time` by default, `Timestamp` in MATLAB Mobile's logs).
    public var rowTimesName: String
    /// Number of rows.
    public var rowCount: Int
    /// The variables' names, in order.
    public var variableNames: [String]
    /// The variables, in order: each `rowCount` rows (a numeric N×k array for numbers).
    public var variables: [MATArray]
    /// Each variable's unit as saved (empty strings when none were set).
    public var units: [String]
    /// The sample rate (Hz) or time step (s) the timetable was made with, when its row times
    /// are implied by them rather than saved one by one.
    public var regularity: Regularity?

    /// How the row times of a regular timetable were given.
    public enum Regularity: Sendable, Equatable {
        /// `SampleRate`, in Hz.
        case sampleRate(Hertz)
        /// `TimeStep`, in seconds.
        case timeStep(Seconds)
    }

    /// The variable called `name`; nil when there is none.
    public func variable(_ name: String) -> MATArray? {
        variableNames.firstIndex(of: name).map { variables[$0] }
    }

    /// Reads a resolved `timetable` object (a variable of `MATFile`); `context` places errors.
    init(_ a: MATArray, _ context: MATContext) throws(InputError) {
        try context.expectClass(a, "timetable")
        guard let s = a.field("any"), s.arrayClass == .structure, s.count == 1 else {
            throw context.fail(found: "properties \(a.fieldNames.joined(separator: ", "))",
                               expected: "a timetable saved by MATLAB (one property 'any' holding a struct)")
        }
        func field(_ name: String) throws(InputError) -> MATArray {
            guard let f = s.field(name) else {
                throw context.fail(found: "fields \(s.fieldNames.prefix(6).joined(separator: ", "))…",
                                   expected: "a field '\(name)' in the saved timetable (MATLAB R2016b or later)")
            }
            return f
        }
        func cellOfText(_ f: MATArray, _ name: String) throws(InputError) -> [String] {
            guard f.arrayClass == .cell else { throw context.fail(found: "'\(name)' \(f.summary)", expected: "a cell of text") }
            var out: [String] = []
            for e in f.elements {
                guard e.arrayClass == .char || e.count == 0 else { throw context.fail(found: "a '\(name)' cell \(e.summary)", expected: "text") }
                out.append(e.text ?? "")
            }
            return out
        }
        let rowsField = try field("numRows")
        guard rowsField.arrayClass.isNumeric, rowsField.count == 1, let r = rowsField.values.first, r >= 0, r <= Double(Int32.max), r == r.rounded() else {
            throw context.fail(found: "numRows \(rowsField.summary) \(rowsField.values.prefix(1))", expected: "a whole number of rows")
        }
        rowCount = Int(r)
        // A name that older MATLAB releases cannot take is saved in their form in varNames and
        // as written in varNamesOrig (names that are not identifiers) or varNames2048 (names
        // longer than 63 characters), each with its use… flag set; likewise for dimNames.
        func names(_ field: String) throws(InputError) -> [String]? {
            guard let f = s.field(field) else { return nil }
            let plain = try cellOfText(f, field)
            let stem = field.prefix(1).uppercased() + field.dropFirst()
            for variant in ["2048", "Orig"] {
                if let use = s.field("use" + stem + variant), use.values.first.map({ $0 != 0 }) == true, let o = s.field(field + variant) {
                    let whole = try cellOfText(o, field + variant)
                    if whole.count == plain.count { return whole }
                }
            }
            return plain
        }
        _ = try field("varNames")
        variableNames = try names("varNames") ?? []
        let data = try field("data")
        guard data.arrayClass == .cell, data.elements.count == variableNames.count else {
            throw context.fail(found: "'data' \(data.summary) for \(variableNames.count) variables", expected: "one cell per variable")
        }
        for (k, v) in data.elements.enumerated() where v.rows != rowCount {
            throw context.fail(found: "variable '\(variableNames[k])' \(v.summary)", expected: "\(rowCount) rows (numRows)")
        }
        variables = data.elements
        if let u = s.field("varUnits"), u.count > 0 {
            units = try cellOfText(u, "varUnits")
            guard units.count == variableNames.count else {
                throw context.fail(found: "\(units.count) units", expected: "one unit per variable (\(variableNames.count))")
            }
        } else {
            units = [String](repeating: "", count: variableNames.count)
        }
        let dimNames = try names("dimNames") ?? []
        rowTimesName = dimNames.first ?? "Time"

        let times = try field("rowTimes")
        let tc = context.inside("rowTimes")
        if times.arrayClass == .structure {
            // Implied row times are made here, one per row: unless a variable holds that many
            // values, nothing in the file backs numRows (variables may be empty, or N×0), so a
            // damaged count could ask for gigabytes.
            let rows = rowCount
            guard rows <= MATTimetable.maxUnbackedImpliedRows || variables.contains(where: { $0.count >= rows }) else {
                throw tc.fail(found: "\(rows) rows, no variable holding as many values",
                              expected: "at most \(MATTimetable.maxUnbackedImpliedRows) rows implied by a time step")
            }
            let (rt, reg) = try MATTimetable.implied(times, rows: rowCount, tc)
            rowTimes = rt; regularity = reg
        } else {
            rowTimes = try MATTimetable.explicit(times, tc)
            regularity = nil
        }
        guard rowTimes.count == rowCount else {
            throw tc.fail(found: "\(rowTimes.count) row times", expected: "\(rowCount) (numRows)")
        }
    }

    /// Most rows whose times a timetable may imply when no variable holds as many values (2^24).
    static let maxUnbackedImpliedRows = 1 << 24

    /// Row times saved one by one: a datetime or duration object.
    static func explicit(_ t: MATArray, _ c: MATContext) throws(InputError) -> RowTimes {
        switch t.className {
        case "datetime": return .datetime(try MATDateTime(t, c))
        case "duration": return .duration(try MATDuration(t, c))
        default:
            throw c.fail(found: t.arrayClass == .opaque ? t.className ?? "an object" : t.summary, expected: "datetime or duration row times")
        }
    }

    /// Row times implied by an origin and a sample rate or a time step.
    static func implied(_ s: MATArray, rows: Int, _ c: MATContext) throws(InputError) -> (RowTimes, Regularity) {
        guard let origin = s.field("origin") else {
            throw c.fail(found: "fields \(s.fieldNames.joined(separator: ", "))", expected: "the first row time ('origin') of a regular timetable")
        }
        let asRate = s.field("specifiedAsRate").map { $0.values.first ?? 0 } ?? 0
        let stepMs: (Int) -> Double
        let regularity: Regularity
        if asRate != 0 {
            guard let rate = s.field("sampleRate"), rate.arrayClass.isNumeric, rate.count == 1, let hz = rate.values.first, hz.isFinite, hz > 0 else {
                throw c.fail(found: "sampleRate \(s.field("sampleRate")?.summary ?? "missing")", expected: "a positive sample rate in Hz")
            }
            stepMs = { Double($0) * 1000 / hz }
            regularity = .sampleRate(hz)
        } else {
            guard let step = s.field("stepSize") else {
                throw c.fail(found: "fields \(s.fieldNames.joined(separator: ", "))", expected: "the time step ('stepSize') of a regular timetable")
            }
            if step.className == "calendarDuration" {
                throw c.fail(found: "a calendarDuration time step", expected: "a time step of fixed length (a duration): calendar steps (months, days) are not read")
            }
            let d = try MATDuration(step, c.inside("stepSize"))
            guard d.milliseconds.count == 1, let ms = d.milliseconds.first, ms.isFinite else {
                throw c.fail(found: "time step \(d.milliseconds.prefix(2))", expected: "one finite time step")
            }
            stepMs = { Double($0) * ms }
            regularity = .timeStep(ms / 1000)
        }
        let oc = c.inside("origin")
        switch try explicit(origin, oc) {
        case .datetime(let o):
            guard o.milliseconds.count == 1 else { throw oc.fail(found: "\(o.milliseconds.count) values", expected: "one first row time") }
            let ms = (0..<rows).map { o.milliseconds[0] + stepMs($0) }
            return (.datetime(MATDateTime(milliseconds: ms, remainderMilliseconds: [Double](repeating: o.remainderMilliseconds.first ?? 0, count: rows),
                                          timeZone: o.timeZone, format: o.format)), regularity)
        case .duration(let o):
            guard o.milliseconds.count == 1 else { throw oc.fail(found: "\(o.milliseconds.count) values", expected: "one first row time") }
            return (.duration(MATDuration(milliseconds: (0..<rows).map { o.milliseconds[0] + stepMs($0) }, format: o.format)), regularity)
        }
    }
}

extension MATFile {
    /// The timetable variable `name`. Throws when there is none by that name, or it is not a
    /// timetable this reader can read (the error names what is missing or unsupported).
    public func timetable(_ name: String) throws(InputError) -> MATTimetable {
        try MATTimetable(try object(name), MATContext(file: path, offset: offsets[name] ?? 0, label: name))
    }

    /// The datetime variable `name`.
    public func datetime(_ name: String) throws(InputError) -> MATDateTime {
        try MATDateTime(try object(name), MATContext(file: path, offset: offsets[name] ?? 0, label: name))
    }

    /// The duration variable `name`.
    public func duration(_ name: String) throws(InputError) -> MATDuration {
        try MATDuration(try object(name), MATContext(file: path, offset: offsets[name] ?? 0, label: name))
    }

    func object(_ name: String) throws(InputError) -> MATArray {
        guard let v = variables[name] else {
            let undecoded = skipped.first { $0.name == name }
            throw InputError(.missingColumn, at: SourceLocation(file: path), found: undecoded.map { "'\(name)' \($0.arrayClass.rawValue), not decoded" } ?? "variables \(names.joined(separator: ", "))",
                             expected: "a variable '\(name)'")
        }
        return v
    }
}
