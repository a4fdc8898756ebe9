import ArgumentParser
import Motus

/// The flags every command that reads a recording takes, for delimited text files.
/// Native recordings and known datasets need none of them.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("time-column"), help: ArgumentHelp("Column with the sample time: header name or 0-based index.", valueName: "C"))
    var timeColumn: String?

    @Option(name: .customLong("time-unit"), help: ArgumentHelp("Unit of the time column: s, ms, us or ns (default: from the column name's suffix, else s).", valueName: "s|ms|us|ns"))
    var timeUnit: String?

    @Option(name: .customLong("rate"), help: ArgumentHelp("Sampling rate in Hz when there is no time column: row i is at i/HZ seconds.", valueName: "HZ"))
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

    @Flag(name: .customLong("no-header"), help: "The file has no header line; give columns as 0-based indexes.")
    var noHeader = false

    @Option(name: .customLong("delimiter"), help: ArgumentHelp("Field delimiter: , or tab or space or ; (default: detected).", valueName: ",|tab|space"))
    var delimiter: String?

    @Flag(name: .customLong("coremotion-sign"), help: "Acceleration columns use CoreMotion's sign (face up reads -1 g on z); negate them.")
    var coreMotionSign = false

    @Flag(name: .customLong("drop-incomplete-line"), help: ArgumentHelp(
        "Leave out a last line without a newline that looks cut short (a file copied or read while being written) instead of stopping with an error; says so on stderr."))
    var dropIncompleteLine = false

    func validate() throws {
        _ = try delimitedOptions()
        // What the readers leave out or pass over (a cut last line, header columns no stream
        // uses) is shown as one line each on stderr.
        InputNotices.setHandler { printError("motus: \($0)") }
    }

    func delimitedOptions() throws -> DelimitedOptions {
        var o = DelimitedOptions()
        o.timeColumn = timeColumn.map(ColumnRef.init(parsing:))
        if let u = timeUnit {
            guard let t = TimeUnit(rawValue: u) else { throw ValidationError("--time-unit must be s, ms, us or ns, not '\(u)'") }
            o.timeUnit = t
        }
        if let r = rate {
            guard r > 0, r.isFinite else { throw ValidationError("--rate must be a positive number of Hz, not \(r)") }
            o.rateHz = r
        }
        func cols(_ s: String?, _ flag: String) throws -> [ColumnRef]? {
            guard let s else { return nil }
            let parts = s.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { throw ValidationError("\(flag) takes three columns X,Y,Z, not '\(s)'") }
            return parts.map(ColumnRef.init(parsing:))
        }
        o.accelColumns = try cols(accelColumns, "--accel-columns")
        o.gyroColumns = try cols(gyroColumns, "--gyro-columns")
        o.gravityColumns = try cols(gravityColumns, "--gravity-columns")
        o.userAccelColumns = try cols(userAccelColumns, "--user-accel-columns")
        o.magColumns = try cols(magColumns, "--mag-columns")
        if let u = accelUnit {
            guard let a = AccelerationUnit(rawValue: u) else { throw ValidationError("--accel-unit must be g or mps2, not '\(u)'") }
            o.accelUnit = a
        }
        if let u = gyroUnit {
            guard let g = RotationUnit(rawValue: u) else { throw ValidationError("--gyro-unit must be rads or degs, not '\(u)'") }
            o.gyroUnit = g
        }
        o.noHeader = noHeader
        if let d = delimiter {
            switch d {
            case ",", "comma": o.delimiter = UInt8(ascii: ",")
            case "tab", "\\t", "\t": o.delimiter = 0x09
            case "space", " ": o.delimiter = 0x20
            case ";", "semicolon": o.delimiter = UInt8(ascii: ";")
            default: throw ValidationError("--delimiter must be ',', 'tab', 'space' or ';', not '\(d)'")
            }
        }
        if coreMotionSign { o.coreMotionSign = true }
        if dropIncompleteLine { o.incompleteLastLine = .drop }
        if timeColumn != nil && rate != nil { throw ValidationError("give --time-column or --rate, not both") }
        return o
    }
}
