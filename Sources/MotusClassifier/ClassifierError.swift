import MotusCore
import MotusFeatures

/// What the classifier layer reports: one line, what was found and what was expected.
public enum ClassifierError: Error, Sendable, CustomStringConvertible {
    /// An argument that cannot be used (the text says which and why).
    case badArgument(String)
    /// A model file that is not a usable model: what was found and what was expected.
    case badModel(path: String, found: String, expected: String)
    /// Too few windows or classes to train or evaluate (the text says what is missing).
    case notEnoughData(String)
    /// A recording that could not be read.
    case input(InputError)
    /// Features that could not be computed for the file at `path`.
    case features(path: String, FeatureError)
    /// The estimator failed to learn (the text says why).
    case learning(String)

    public var description: String {
        switch self {
        case .badArgument(let s): s
        case let .badModel(path, found, expected): "\(path): found \(found), expected \(expected)"
        case .notEnoughData(let s): s
        case .input(let e): e.description
        case let .features(path, e): "\(path): \(e)"
        case .learning(let s): s
        }
    }
}
