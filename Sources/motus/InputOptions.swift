import ArgumentParser
import Motus

/// The flags every command that reads a recording takes, for delimited text files.
/// Native recordings and known datasets need none of them.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("time-column"), help: ArgumentHelp("Column with the sample time: header name or 0-based index.", valueName: "C"))
    var timeColumn: String?

    @Option(name: .customLong("time-unit"), help: ArgumentHelp("Unit of the time column: s, ms, us or ns (default: from the column name's suffix, else s).", valueName: "s|ms|us|ns"))
    var timeUnit: String?

    @Option(name: .customLong("rate"), help: ArgumentHelp("Sampling rate in Hz when there is no time column: row i is at i/HZ seconds. With a time column Motus recognises, the timestamps are used and a rate more than 2 % from theirs is a warning.", valueName: "HZ"))
    var rate: Double?

    @Option(name: .customLong("accel-columns"), help: ArgumentHelp("Raw acceleration (gravity included) columns.", valueName: "X,Y,Z"))
    var accelColumns: String?

    @Option(name: .customLong("accel-unit"), help: ArgumentHelp("Unit of acceleration, gravity and user-acceleration columns: g or mps2 (default mps2; g for CoreMotion headers).", valueName: "g|mps2"))
    var accelUnit: String?

    @Option(name: .customLong("gyro-columns"), help: ArgumentHelp("Rotation-rate columns.", valueName: "X,Y,Z"))
    var gyroColumns: String?

    @Option(name: .customLong("gyro-unit"), help: ArgumentHelp("Unit of rotation rate: rads or degs (default rads).", valueName: "rads|degs"))
    var gyroUnit: String?

    @Option(name: .customLong("gravity-columns"), help: ArgumentHelp("Gravity columns (in the acceleration unit).", valueName: "X,Y,Z"))
    var gravityColumns: String?

    @Option(name: .customLong("user-accel-columns"), help: ArgumentHelp("User-acceleration (gravity removed) columns.", valueName: "X,Y,Z"))
    var userAccelColumns: String?

    @Option(name: .customLong("mag-columns"), help: ArgumentHelp("Magnetic-field columns, in µT.", valueName: "X,Y,Z"))
    var magColumns: String?

    @Option(name: .customLong("label-column"), help: ArgumentHelp("Column whose text labels the rows: each run of rows with the same label is a label segment.", valueName: "NAME"))
    var labelColumn: String?
    @Option(name: .customLong("event-column"), help: ArgumentHelp("Column of events: a cell that is not empty or 0 is an event at its row (kind: the cell's text, or NAME for a number).", valueName: "NAME"))
    var eventColumn: String?
    @Option(name: .customLong("step-column"), help: ArgumentHelp("Column of reference steps: a cell that is not empty or 0 is a step event at its row.", valueName: "NAME"))
    var stepColumn: String?
    @Option(name: .customLong("ground-truth"), help: ArgumentHelp("Sidecar CSV of label segments (start,end,label) or events (time,kind[,detail]), in seconds on the recording's clock (default: REC.truth.csv beside the recording, when there is one).", valueName: "FILE"))
    var groundTruth: String?
    @Flag(name: .customLong("no-header"), help: "The file has no header line; give columns as 0-based indexes.")
    var noHeader = false

    @Option(name: .customLong("delimiter"), help: ArgumentHelp("Field delimiter: , or tab or space or ; (default: detected).", valueName: ",|tab|space"))
    var delimiter: String?

    @Flag(name: .customLong("coremotion-sign"), help: "Acceleration columns use CoreMotion's sign (face up reads -1 g on z); negate them.")
    var coreMotionSign = false

    @Flag(name: .customLong("drop-incomplete-line"), help: ArgumentHelp(
        "Leave out a last line without a newline that looks cut short (a file copied or read while being written) instead of stopping with an error; says so on stderr."))
    var dropIncompleteLine = false

    @Flag(name: .customLong("strict"), help: ArgumentHelp(
        "Stop with an error, instead of a warning on stderr, when values look read in the wrong unit (acceleration near 1 read as m/s², rotation rate in °/s read as rad/s) or the timestamps' rate is far from --rate."))
    var strict = false

    func validate() throws {
        _ = try delimitedOptions()
        // What the readers leave out or pass over (a cut last line, header columns no stream
        // uses) is shown as one line each on stderr.
        InputNotices.setHandler { printError("motus: \($0)") }
    }

    func delimitedOptions() throws -> DelimitedOptions {
        if timeColumn != nil && rate != nil { throw ValidationError("give --time-column or --rate, not both") }
        // The flags are set through the list layout files use too (`DelimitedLayout`), so a
        // flag means the same on the command line and in a `motus-layout` file.
        var o = DelimitedOptions()
        let given: [(String, String?)] = [
            ("time-column", timeColumn), ("time-unit", timeUnit), ("rate", rate.map { "\($0)" }),
            ("accel-columns", accelColumns), ("accel-unit", accelUnit), ("gyro-columns", gyroColumns), ("gyro-unit", gyroUnit),
            ("gravity-columns", gravityColumns), ("user-accel-columns", userAccelColumns), ("mag-columns", magColumns),
            ("delimiter", delimiter), ("label-column", labelColumn), ("event-column", eventColumn), ("step-column", stepColumn),
        ]
        for case let (flag, value?) in given {
            if let wanted = o.set(flag: flag, value: value) { throw ValidationError("--\(flag) must be \(wanted), not '\(value)'") }
        }
        if noHeader { _ = o.set(flag: "no-header", value: nil) }
        if coreMotionSign { _ = o.set(flag: "coremotion-sign", value: nil) }
        if dropIncompleteLine { o.incompleteLastLine = .drop }
        if strict { o.plausibility = .error }
        o.groundTruthFile = groundTruth
        return o
    }
}
