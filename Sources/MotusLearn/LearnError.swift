/// Errors raised by MotusLearn. Every case says what was found and what was expected, so a
/// person can fix the call or the data without reading the source.
public enum LearnError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two inputs disagree in shape (e.g. `y` has a different length than `X` has rows).
    case shapeMismatch(what: String, expected: String, found: String)
    /// A label is outside `0..<classCount`.
    case invalidLabel(index: Int, found: Int, classCount: Int)
    /// A hyperparameter or argument is outside its valid range.
    case invalidParameter(name: String, expected: String, found: String)
    /// A value is NaN or infinite.
    case nonFinite(what: String, row: Int, column: Int)
    /// The estimator was asked to predict before it was fitted.
    case notFitted(estimator: String)
    /// The input holds no rows (or too few for the request).
    case notEnoughData(what: String, expected: String, found: String)

    public var description: String {
        switch self {
        case let .shapeMismatch(what, expected, found):
            return "shape mismatch in \(what): expected \(expected), found \(found)"
        case let .invalidLabel(index, found, classCount):
            return "invalid label at index \(index): found \(found), expected an integer in 0..<\(classCount)"
        case let .invalidParameter(name, expected, found):
            return "invalid parameter \(name): expected \(expected), found \(found)"
        case let .nonFinite(what, row, column):
            return "non-finite value in \(what) at row \(row), column \(column): expected a finite number"
        case let .notFitted(estimator):
            return "\(estimator) is not fitted: call fit(_:_:) first or restore a fitted state"
        case let .notEnoughData(what, expected, found):
            return "not enough data in \(what): expected \(expected), found \(found)"
        }
    }
}
