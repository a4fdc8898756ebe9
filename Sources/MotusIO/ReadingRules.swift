#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// The rules every sample reader applies to the numbers and times it reads (native, delimited
/// text, MotionSense, Oxford, IPOL, mPower, WeAllWalk, sp-sw-har, MotionDataCollector, phyphox,
/// Sensor Logger), kept in one place so that they say the same thing in the same words:
///
/// - a value that is not finite after its unit conversion (1e308 g is infinite in m/s²) is an
///   `InputError` at its line and column;
/// - a time more than `maxTimeSpanSeconds` from the first sample of its stream is an
///   `InputError` at its line and column (no sensor runs for 317 years; such a time is a
///   damaged digit or a unit mix-up, and would make every later computation meaningless);
/// - a last line without a newline may have been cut while the file was written
///   (`LastLineRule`); reading it is an error unless the caller chose to leave it out
///   (`IncompleteLinePolicy.drop`);
/// - a native recording declares at most `maxStreams` streams.
public enum ReadingRules {
    /// How far (s) a sample's time may lie from its stream's first sample.
    public static let maxTimeSpanSeconds: Seconds = 1e10
    /// Streams a native recording may declare.
    public static let maxStreams = 4096

    /// True when `t` lies within `maxTimeSpanSeconds` of `first` (false for NaN).
    @inlinable @inline(__always)
    public static func timeFits(_ t: Seconds, first: Seconds) -> Bool {
        abs(t - first) <= maxTimeSpanSeconds
    }

    /// The error for a time too far from its stream's first sample (both in seconds).
    public static func timeError(at location: SourceLocation, found: String, time: Seconds, first: Seconds) -> InputError {
        InputError(.badValue, at: location, found: found,
                   expected: "a time within 1e10 s of the stream's first sample (\(first) s); this is \(time - first) s from it")
    }

    /// The largest magnitude (SI) component `c` of a `kind` sample can have from any sensor, far
    /// beyond what real ones report: a value past it is a damaged digit or a unit mix-up, and
    /// would change every result computed from it. Acceleration 1e4 m/s² (about 1,000 g; the
    /// widest accelerometers read ±400 g), rotation rate 1e3 rad/s (57,000 °/s; gyroscopes
    /// stop near 4,000 °/s), magnetic field 1e5 µT (0.1 T), attitude components 2 (unit
    /// quaternions), steps and step distance 1e10, latitude 90°, longitude 180°, altitude 1e5 m,
    /// speed 1e4 m/s, course 1e3°, accuracies 1e7 m, pressure 1e7 Pa.
    @inlinable
    public static func limit(_ kind: StreamKind, _ c: Int) -> Double {
        switch kind {
        case .acceleration, .userAcceleration, .gravity: 1e4
        case .rotationRate: 1e3
        case .magneticField: 1e5
        case .attitude: 2
        case .stepCounter: 1e10
        case .location: c == 0 ? 90 : c == 1 ? 180 : c == 2 ? 1e5 : c == 3 ? 1e4 : c == 4 ? 1e3 : 1e7
        case .pressure: 1e7
        }
    }

    /// True when `v` (SI) is within `limit(kind, c)` (false for NaN and infinities).
    @inlinable @inline(__always)
    public static func fits(_ v: Double, _ kind: StreamKind, _ c: Int) -> Bool { abs(v) <= limit(kind, c) }

    /// The error for a value beyond what any sensor gives (`limit`); `v` is the value in SI.
    public static func rangeError(at location: SourceLocation, found: String, kind: StreamKind, component c: Int, value v: Double) -> InputError {
        let name = c < kind.columns.count ? kind.columns[c] : "value \(c)"
        let title = kind.title
        let article = "aeiou".contains(title.first ?? "x") ? "an" : "a"
        let lim = limit(kind, c)
        let bound = lim == lim.rounded() && lim < 1e15 ? "\(Int(lim))" : "\(lim)"
        return InputError(.badValue, at: location, found: found,
                          expected: "\(article) \(title) \(name) within ±\(bound) (no sensor gives \(v))")
    }

    /// The error for a value that parsed but is not finite once converted to SI.
    public static func conversionError(at location: SourceLocation, found: String, what: String, unit: String) -> InputError {
        InputError(.nonFinite, at: location, found: found, expected: "a \(what) that stays finite in \(unit) (it overflows when converted)")
    }
}

/// What a reader does with a last line that `LastLineRule` finds incomplete.
public enum IncompleteLinePolicy: Sendable, Hashable {
    /// An `InputError` at the line (reading a recording).
    case error
    /// Leave the line out and say so (`InputNotices`, or `RecordingSummary.leftOut`).
    case drop
}

/// A last line that was left out: where, and how many bytes it had (no newline).
public struct LeftOutLine: Sendable, Hashable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// The line's 1-based number.
    public var line: Int
    /// The line's length in bytes.
    public var bytes: Int
    /// Why it was taken for cut, in words ("the file may have been cut while written").
    public var reason: String
    /// A record of line `line` of `file`, `bytes` long, left out for `reason`.
    public init(file: String, line: Int, bytes: Int, reason: String) {
        self.file = file; self.line = line; self.bytes = bytes; self.reason = reason
    }
    /// One line for stderr: `file:line: left out the last line (N bytes, no newline: reason)`,
    /// control characters escaped.
    public var description: String {
        "\(file):\(line): left out the last line (\(bytes) bytes, no newline: \(reason))".escapingControlCharacters
    }
}

/// Where readers post what they left out or passed over on the way, for a command-line tool to
/// show (one line each on standard error). Nothing is posted unless a handler is installed, and
/// a library user that installs none sees nothing change.
public enum InputNotices {
    final class Box: @unchecked Sendable {
        var lock = pthread_mutex_t()
        var handler: (@Sendable (String) -> Void)?
        init() { pthread_mutex_init(&lock, nil) }
    }
    static let box = Box()

    /// Installs (or, with nil, removes) the handler that receives each notice.
    public static func setHandler(_ handler: (@Sendable (String) -> Void)?) {
        pthread_mutex_lock(&box.lock)
        box.handler = handler
        pthread_mutex_unlock(&box.lock)
    }

    /// Hands `text` to the installed handler, if any.
    public static func post(_ text: String) {
        pthread_mutex_lock(&box.lock)
        let h = box.handler
        pthread_mutex_unlock(&box.lock)
        // A notice about standard input or a pipe names it, not the copy it was read from.
        h?(InputSpool.restoringNames(text).escapingControlCharacters)
    }
}

/// How a number was printed: digits after the point, digits in all, whether it had an
/// exponent, and whether it ends where no complete number can end ('.', 'e', 'E', '+', '-').
struct NumberShape: Equatable {
    var fractionDigits = 0
    var digits = 0
    var hasExponent = false
    var endsOpen = false

    /// The shape of `bytes[start..<end]` (spaces and quotes around it ignored).
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        var s = start, e = end
        while s < e && (bytes[s] == 0x20 || bytes[s] == 0x09 || bytes[s] == 0x22) { s += 1 }
        while e > s && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 || bytes[e - 1] == 0x22) { e -= 1 }
        guard e > s else { endsOpen = true; return }
        let last = bytes[e - 1]
        endsOpen = last == UInt8(ascii: ".") || last == UInt8(ascii: "e") || last == UInt8(ascii: "E")
            || last == UInt8(ascii: "+") || last == UInt8(ascii: "-")
        var afterPoint = false
        for i in s..<e {
            let c = bytes[i]
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { hasExponent = true; break }
            if c == UInt8(ascii: ".") { afterPoint = true; continue }
            if c &- 0x30 < 10 {
                digits += 1
                if afterPoint { fractionDigits += 1 }
            }
        }
    }
}

/// The printed precision of one column over the rows read so far: the fewest digits after
/// the point, the fewest digits in all, and whether every value had an exponent.
struct ColumnPrecision {
    var values = 0
    var minFractionDigits = Int.max
    var minDigits = Int.max
    var allHaveExponent = true

    mutating func add(_ s: NumberShape) {
        values += 1
        if s.fractionDigits < minFractionDigits { minFractionDigits = s.fractionDigits }
        if s.digits < minDigits { minDigits = s.digits }
        if !s.hasExponent { allHaveExponent = false }
    }

    /// Why the last value, printed as `s`, may be a cut-short copy of a longer one (nil: it
    /// cannot be, by the column's own printed precision).
    func cutReason(_ s: NumberShape, text: String) -> String? {
        if s.endsOpen { return "'\(text)' ends where no number ends" }
        func digits(_ n: Int) -> String { n == 1 ? "1 digit" : "\(n) digits" }
        guard values > 0 else { return nil }
        if allHaveExponent && !s.hasExponent { return "'\(text)' has no exponent and every other value of its column has one" }
        if s.fractionDigits < minFractionDigits {
            return "'\(text)' has \(digits(s.fractionDigits)) after the point and every other value of its column at least \(minFractionDigits)"
        }
        if s.digits < minDigits {
            return "'\(text)' has \(digits(s.digits)) and every other value of its column at least \(minDigits)"
        }
        return nil
    }
}

/// The rule for a last line that does not end with a newline (see docs/FORMAT.md).
///
/// Motus's own format always ends its lines, so there such a line is incomplete. Text from
/// other programs often just stops after its last value, so there the line is incomplete only
/// when it shows a cut: fewer fields than the rows before it, a number ending in '.', 'e',
/// 'E', '+' or '-', or a last field printed with fewer digits (after the point, or in all), or
/// without the exponent, than every other value of its column. A cut can only reach the last
/// field of a line that still has all its fields, so that field's column is the one whose
/// precision is followed. A line that passes is complete: a cut it could hide changes the value
/// by less than the column's own printed precision.
enum LastLineRule {
    /// The error for an incomplete last line.
    static func error(file: String, line: Int, column: Int = 0, bytes: Int, reason: String) -> InputError {
        InputError(.truncated, at: SourceLocation(file: file, line: line, column: column), found: "an incomplete last line",
                   expected: "a complete line: this one has \(bytes) bytes and no newline, and \(reason); the file may have been cut while written (--drop-incomplete-line leaves the line out)")
    }

    /// Why a delimited last line looks cut (nil: complete). `fields` are its field ranges,
    /// `expectedFields` the count of the rows before it, `lastColumn` the precision of the
    /// column its last field falls in (nil when that column is not read).
    static func delimitedReason(_ line: UnsafeBufferPointer<UInt8>, fields: [(Int, Int)], expectedFields: Int,
                                lastColumn: ColumnPrecision?, numeric: (Int) -> Bool) -> (reason: String, column: Int)? {
        if fields.count < expectedFields { return ("\(fields.count) fields where the rows before have \(expectedFields)", line.count + 1) }
        for (k, (s, e)) in fields.enumerated() where numeric(k) {
            let shape = NumberShape(line, s, e)
            if shape.endsOpen { return ("'\(line.text(s, e))' ends where no number ends", s + 1) }
        }
        if let (s, e) = fields.last, let p = lastColumn, numeric(fields.count - 1),
           let why = p.cutReason(NumberShape(line, s, e), text: line.text(s, e)) {
            return (why, s + 1)
        }
        return nil
    }
}

/// The incomplete-last-line policy for readers reached through a dataset format, which take no
/// options of their own (`RecordingLoader` sets it from `DelimitedOptions.incompleteLastLine`
/// around such a read). Default: `.error`.
public enum ReadingPolicy {
    /// The policy in force for the current task (`.error` unless `with(_:_:)` set another).
    @TaskLocal public static var incompleteLastLine: IncompleteLinePolicy = .error

    /// Runs `body` with `policy` in force for the dataset readers it calls.
    public static func with<R>(_ policy: IncompleteLinePolicy, _ body: () throws(InputError) -> R) throws(InputError) -> R {
        let result: Result<R, InputError> = $incompleteLastLine.withValue(policy) {
            do throws(InputError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension StreamKind {
    /// The SI unit of the kind's values, for messages.
    var siUnitName: String {
        switch self {
        case .acceleration, .userAcceleration, .gravity: "m/s²"
        case .rotationRate: "rad/s"
        case .magneticField: "µT"
        case .attitude: "a unit quaternion"
        case .stepCounter: "steps and m"
        case .location: "degrees and m"
        case .pressure: "Pa"
        }
    }
}
