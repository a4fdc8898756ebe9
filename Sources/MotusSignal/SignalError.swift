import MotusCore

/// A stream that MotusSignal cannot clean or resample as it is.
///
/// `sampleIndex` is the 0-based index of the offending sample in the stream *as it was
/// given* (arrival order, before any sample was dropped or re-sorted). A reader that knows
/// which line each sample came from maps it to a file position with
/// `inputError(file:line:)`; when no line is known the error stands on its own.
public struct SignalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the sample.
    public enum Reason: String, Sendable, Hashable {
        /// A timestamp earlier than an already seen one by more than the reorder tolerance.
        case timeBackwards
        /// A timestamp that is NaN or infinite, with the policy set to fail.
        case nonFiniteTime
        /// A value that must be finite (see `StreamKind.allowsMissing`) is not, with the policy set to fail.
        case nonFiniteValue
    }
    /// What is wrong.
    public var reason: Reason
    /// Name of the stream (`SensorStream.name`).
    public var stream: String
    /// 0-based index of the sample in arrival order.
    public var sampleIndex: Int
    /// Timestamp of the offending sample (seconds, stream clock).
    public var time: Seconds
    /// What was expected, for people: e.g. "a time ≥ 12.345 s (tolerance 0.05 s)".
    public var expected: String

    /// An error about sample `sampleIndex` (arrival order) of `stream` at `time` (s).
    public init(_ reason: Reason, stream: String, sampleIndex: Int, time: Seconds, expected: String) {
        self.reason = reason; self.stream = stream; self.sampleIndex = sampleIndex; self.time = time; self.expected = expected
    }

    public var description: String {
        "\(stream) sample \(sampleIndex): found \(reason.rawValue) at time \(time) s, expected \(expected)"
    }

    /// The same problem as an `InputError` located at `line` of `file` (the reader knows the
    /// line of sample `sampleIndex`; column 0 = the whole line).
    public func inputError(file: String, line: Int) -> InputError {
        let r: InputError.Reason
        switch reason {
        case .timeBackwards: r = .timeBackwards
        case .nonFiniteTime, .nonFiniteValue: r = .nonFinite
        }
        return InputError(r, at: SourceLocation(file: file, line: line), found: "time \(time) s", expected: expected)
    }
}
