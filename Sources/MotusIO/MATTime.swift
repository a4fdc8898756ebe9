import MotusCore

/// A MATLAB `datetime` array read from a MAT-file (an MCOS object, see `MATSubsystem`).
///
/// MATLAB saves it as the properties `data` (milliseconds since 1970-01-01 00:00, a double
/// array; complex when the times carry less than a millisecond, the imaginary part then
/// holding that remainder, also in milliseconds), `tz` (the time zone, empty for a
/// datetime without one) and `fmt` (the display format). With a time zone the milliseconds
/// count from 1970-01-01 00:00 UTC; without one they are the clock reading as written, taken
/// as if it were UTC.
public struct MATDateTime: Sendable, Equatable {
    /// Whole and fractional milliseconds since 1970 (the real part), column-major.
    public var milliseconds: [Double]
    /// What MATLAB keeps below `milliseconds`' precision (the imaginary part, in ms); zeros
    /// when the file has none.
    public var remainderMilliseconds: [Double]
    /// MATLAB's dimensions of the array.
    public var dimensions: [Int]
    /// The time zone (`America/New_York`, `UTC`, …); empty when the datetime has none.
    public var timeZone: String
    /// MATLAB's display format; empty for the default.
    public var format: String

    /// Seconds since 1970-01-01 00:00 (see the type's note on time zones), each value the
    /// sum of its two parts.
    public var seconds: [Double] {
        (0..<milliseconds.count).map { milliseconds[$0] / 1000 + ($0 < remainderMilliseconds.count ? remainderMilliseconds[$0] / 1000 : 0) }
    }

    /// A datetime with these parts; `remainderMilliseconds` empty means zeros.
    public init(milliseconds: [Double], remainderMilliseconds: [Double] = [], dimensions: [Int]? = nil, timeZone: String = "", format: String = "") {
        self.milliseconds = milliseconds
        self.remainderMilliseconds = remainderMilliseconds.isEmpty ? [Double](repeating: 0, count: milliseconds.count) : remainderMilliseconds
        self.dimensions = dimensions ?? [milliseconds.count, 1]
        self.timeZone = timeZone; self.format = format
    }

    /// Reads a resolved `datetime` object; `context` places errors.
    init(_ a: MATArray, _ context: MATContext) throws(InputError) {
        try context.expectClass(a, "datetime")
        guard let data = a.field("data"), data.arrayClass == .double else {
            throw context.fail(found: "data: \(a.field("data")?.summary ?? "missing")",
                               expected: "the datetime's milliseconds since 1970 (a double array)")
        }
        self.init(milliseconds: data.values, remainderMilliseconds: data.isComplex ? data.imaginary : [], dimensions: data.dimensions,
                  timeZone: try context.text(a, "tz"), format: try context.text(a, "fmt"))
    }
}

/// A MATLAB `duration` array read from a MAT-file: the properties `millis` (milliseconds, a
/// double array) and `fmt` (the display format: `s`, `hh:mm:ss`, …).
public struct MATDuration: Sendable, Equatable {
    /// Milliseconds, column-major.
    public var milliseconds: [Double]
    /// MATLAB's dimensions of the array.
    public var dimensions: [Int]
    /// MATLAB's display format.
    public var format: String

    /// The durations in seconds.
    public var seconds: [Double] { milliseconds.map { $0 / 1000 } }

    /// A duration with these parts.
    public init(milliseconds: [Double], dimensions: [Int]? = nil, format: String = "") {
        self.milliseconds = milliseconds; self.dimensions = dimensions ?? [milliseconds.count, 1]; self.format = format
    }

    /// Reads a resolved `duration` object; `context` places errors.
    init(_ a: MATArray, _ context: MATContext) throws(InputError) {
        try context.expectClass(a, "duration")
        guard let m = a.field("millis"), m.arrayClass == .double, !m.isComplex else {
            throw context.fail(found: "millis: \(a.field("millis")?.summary ?? "missing")",
                               expected: "the duration's milliseconds (a real double array)")
        }
        self.init(milliseconds: m.values, dimensions: m.dimensions, format: try context.text(a, "fmt"))
    }
}

/// Where a MATLAB object came from, to place errors about its contents: the variable's
/// element in the file (its properties were read from the subsystem data, which keeps no
/// byte positions of its own for them).
struct MATContext {
    let file: String
    let offset: Int
    /// The path inside the variable, e.g. `Acceleration.rowTimes`.
    let label: String

    func fail(_ reason: InputError.Reason = .badValue, found: String, expected: String) -> InputError {
        InputError(reason, at: .byteOffset(offset, in: file), found: found, expected: expected + " in variable '\(label)'")
    }

    func inside(_ name: String) -> MATContext { MATContext(file: file, offset: offset, label: label + "." + name) }

    func expectClass(_ a: MATArray, _ name: String) throws(InputError) {
        guard a.arrayClass == .opaque, a.isDecoded, a.className == name else {
            throw fail(found: a.arrayClass == .opaque ? "\(a.className ?? "an object")\(a.isDecoded ? "" : " (not decoded)")" : a.summary,
                       expected: "a MATLAB \(name)")
        }
        guard a.count == 1 else {
            throw fail(found: "an array of \(a.count) \(name) objects", expected: "one \(name) object")
        }
    }

    /// A char property (empty when absent or an empty array).
    func text(_ a: MATArray, _ field: String) throws(InputError) -> String {
        guard let f = a.field(field) else { return "" }
        if f.arrayClass == .char { return f.text ?? "" }
        if f.count == 0 { return "" }
        throw fail(found: "\(field): \(f.summary)", expected: "text")
    }
}
