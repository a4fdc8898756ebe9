import MotusCore
import MotusFeatures

/// What the classifier layer reports: one line, what was found and what was expected.
public enum ClassifierError: Error, Sendable, CustomStringConvertible {
    case badArgument(String)
    case badModel(path: String, found: String, expected: String)
    case notEnoughData(String)
    case input(InputError)
    case features(path: String, FeatureError)
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
