import MotusCore

/// The input flags that describe a delimited file's columns (`--rate`, `--accel-unit` …), set
/// by name: the CLI and layout files (`DelimitedLayout`) read them through this one list.
extension DelimitedOptions {
    /// Flags that take a value, by their long name without the dashes.
    public static let valueFlags: [String] = [
        "time-column", "time-unit", "rate", "accel-columns", "accel-unit", "gyro-columns", "gyro-unit",
        "gravity-columns", "user-accel-columns", "mag-columns", "delimiter", "label-column", "event-column", "step-column",
    ]
    /// Flags that take no value.
    public static let switchFlags: [String] = ["no-header", "coremotion-sign"]

    /// Sets what `--flag value` sets (`value` nil for a flag without one). Returns nil, or
    /// what the value should have been (`g or mps2`).
    public mutating func set(flag: String, value: String?) -> String? {
        if Self.switchFlags.contains(flag) {
            if value != nil { return "no value" }
            if flag == "no-header" { noHeader = true } else { coreMotionSign = true }
            return nil
        }
        guard Self.valueFlags.contains(flag) else { return "an input flag (" + (Self.valueFlags + Self.switchFlags).map { "--" + $0 }.joined(separator: ", ") + ")" }
        guard let v = value, !v.isEmpty else { return "a value" }
        func triple() -> [ColumnRef]? {
            let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
            return parts.map(ColumnRef.init(parsing:))
        }
        let columnsWanted = "three columns X,Y,Z"
        switch flag {
        case "time-column": timeColumn = ColumnRef(parsing: v)
        case "time-unit":
            guard let t = TimeUnit(rawValue: v) else { return "s, ms, us or ns" }
            timeUnit = t
        case "rate":
            guard let r = Double(v), r > 0, r.isFinite else { return "a positive number of Hz" }
            rateHz = r
        case "accel-columns": guard let c = triple() else { return columnsWanted }; accelColumns = c
        case "gyro-columns": guard let c = triple() else { return columnsWanted }; gyroColumns = c
        case "gravity-columns": guard let c = triple() else { return columnsWanted }; gravityColumns = c
        case "user-accel-columns": guard let c = triple() else { return columnsWanted }; userAccelColumns = c
        case "mag-columns": guard let c = triple() else { return columnsWanted }; magColumns = c
        case "label-column": labelColumn = ColumnRef(parsing: v)
        case "event-column": eventColumn = ColumnRef(parsing: v)
        case "step-column": stepColumn = ColumnRef(parsing: v)
        case "accel-unit":
            guard let a = AccelerationUnit(rawValue: v) else { return "g or mps2" }
            accelUnit = a
        case "gyro-unit":
            guard let g = RotationUnit(rawValue: v) else { return "rads or degs" }
            gyroUnit = g
        case "delimiter":
            switch v {
            case ",", "comma": delimiter = UInt8(ascii: ",")
            case "tab", "\\t", "\t": delimiter = 0x09
            case "space", " ": delimiter = 0x20
            case ";", "semicolon": delimiter = UInt8(ascii: ";")
            default: return "',', 'tab', 'space' or ';'"
            }
        default: return "an input flag"
        }
        return nil
    }

    /// These options, with every column setting they leave unset taken from `layout`. A time
    /// given here (`timeColumn` or `rateHz`) replaces the layout's time, whichever it names.
    public func filling(from layout: DelimitedOptions) -> DelimitedOptions {
        var o = self
        if o.timeColumn == nil && o.rateHz == nil {
            o.timeColumn = layout.timeColumn
            o.rateHz = layout.rateHz
        }
        o.timeUnit = o.timeUnit ?? layout.timeUnit
        o.accelColumns = o.accelColumns ?? layout.accelColumns
        o.accelUnit = o.accelUnit ?? layout.accelUnit
        o.gyroColumns = o.gyroColumns ?? layout.gyroColumns
        o.gyroUnit = o.gyroUnit ?? layout.gyroUnit
        o.gravityColumns = o.gravityColumns ?? layout.gravityColumns
        o.userAccelColumns = o.userAccelColumns ?? layout.userAccelColumns
        o.magColumns = o.magColumns ?? layout.magColumns
        o.labelColumn = o.labelColumn ?? layout.labelColumn
        o.eventColumn = o.eventColumn ?? layout.eventColumn
        o.stepColumn = o.stepColumn ?? layout.stepColumn
        o.noHeader = o.noHeader || layout.noHeader
        o.delimiter = o.delimiter ?? layout.delimiter
        o.coreMotionSign = o.coreMotionSign ?? layout.coreMotionSign
        return o
    }
}

/// A layout file: how to read delimited text files whose header alone does not say (no time
/// column, values in g or deg/s), written once beside the files instead of as flags on every
/// command. It holds the input flags, one per line, exactly as they are typed:
///
/// ```
/// # mobgap's CSV export: sample index, no time column, 100 Hz, g and deg/s
/// --rate 100
/// --accel-unit g
/// --gyro-unit degs
/// ```
///
/// `FILE.motus-layout` applies to `FILE`; `motus-layout` in a folder applies to every `.csv`,
/// `.tsv` and `.txt` file in that folder (not in its subfolders) that has no file of its own.
/// Flags given on the command line win over the layout's, one by one. Blank lines and lines
/// starting with `#` are comments; anything else that is not an input flag is an error at its
/// line and column.
public enum DelimitedLayout {
    /// The name of a folder's layout file.
    public static let folderFileName = "motus-layout"
    /// The ending of a file's own layout file (`walk.csv.motus-layout`).
    public static let fileSuffix = ".motus-layout"

    /// The layout file that applies to `path`, if any (standard input and pipes have none).
    public static func file(for path: String) -> String? {
        guard path != "-", DelimitedReader.isRegularFile(path) else { return nil }
        let own = path + fileSuffix
        if DelimitedReader.isRegularFile(own) { return own }
        let name = ReaderFiles.lastComponent(path).lowercased()
        guard name.hasSuffix(".csv") || name.hasSuffix(".tsv") || name.hasSuffix(".txt") else { return nil }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let shared = folder + folderFileName
        return DelimitedReader.isRegularFile(shared) ? shared : nil
    }

    /// `given` filled from the layout file that applies to `path` (unchanged when none does).
    /// A native recording is never read through a layout.
    public static func options(for path: String, given: DelimitedOptions) throws(InputError) -> DelimitedOptions {
        guard let layoutPath = file(for: path), !NativeFormat.isNative(path: path) else { return given }
        var o = given.filling(from: try read(path: layoutPath))
        o.layoutFile = layoutPath
        return o
    }

    /// Reads a layout file's flags.
    public static func read(path: String) throws(InputError) -> DelimitedOptions {
        var cursor = try LineCursor(path: path)
        var o = DelimitedOptions()
        while let bytes = try cursor.next() {
            let line = String(decoding: bytes, as: UTF8.self)
            let lead = line.prefix { $0 == " " || $0 == "\t" }
            let text = line.dropFirst(lead.count)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let at = SourceLocation(file: path, line: cursor.lineNumber, column: lead.utf8.count + 1)
            guard text.hasPrefix("--") else {
                throw InputError(.badValue, at: at, found: String(text), expected: "an input flag such as '--rate 100' (or a # comment)")
            }
            // `--flag value` or `--flag=value`; the value is the rest of the line, trailing spaces removed.
            var body = text.dropFirst(2)
            while let l = body.last, l == " " || l == "\t" || l == "\r" { body = body.dropLast() }
            let split = body.firstIndex { $0 == " " || $0 == "\t" || $0 == "=" }
            let flag = String(split.map { body[..<$0] } ?? body)
            var value: String? = nil
            var valueColumn = at.column
            if let s = split {
                let rest = body[body.index(after: s)...].drop { $0 == " " || $0 == "\t" }
                value = rest.isEmpty ? nil : String(rest)
                valueColumn = line.utf8.distance(from: line.startIndex, to: rest.startIndex) + 1
            }
            if let wanted = o.set(flag: flag, value: value) {
                let known = DelimitedOptions.valueFlags.contains(flag) || DelimitedOptions.switchFlags.contains(flag)
                throw InputError(.badValue, at: known && value != nil ? SourceLocation(file: path, line: at.line, column: valueColumn) : at,
                                 found: known ? (value ?? "") : "--" + flag, expected: known ? "\(wanted) after --\(flag)" : wanted)
            }
        }
        if o.timeColumn != nil && o.rateHz != nil {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "--time-column and --rate", expected: "one of them")
        }
        return o
    }
}

