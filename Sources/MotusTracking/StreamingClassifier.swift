import MotusCore
import MotusFeatures
import MotusClassifier

/// A `MotionModel` run live: frames at the model's rate go in (from `FrameBuilder`), and each
/// completed window gives the probability of "moving", by the model's one prediction path
/// (`MotionModel.probabilities(row:into:scratch:)`, which `evaluate` and `classify` run too).
///
/// p(moving) is the probability of the class named `moving` when the model has one, otherwise
/// 1 − p(`still`) (so an activity model with `walk`, `run`, … and `still` works too).
///
/// Buffers are allocated at init; a frame and a window allocate nothing, for every estimator.
public struct StreamingClassifier: Sendable {
    /// Why a model cannot run live.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The model has neither a `moving` nor a `still` class (its classes are given).
        case noMovingOrStillClass(classes: [String])
        /// The model's feature configuration cannot be computed live (the reason is given).
        case badFeatures(String)
        public var description: String {
            switch self {
            case .noMovingOrStillClass(let c): "the model's classes \(c) include neither 'moving' nor 'still'"
            case .badFeatures(let s): "the model's feature configuration is unusable: \(s)"
            }
        }
    }

    /// The model run.
    public let model: MotionModel
    /// Frame rate the model expects (Hz).
    public var rateHz: Hertz { model.features.rateHz }
    /// Window length (s).
    public var windowSeconds: Seconds { Double(model.features.windowLength) / model.features.rateHz }
    /// Time between the starts of consecutive windows (s).
    public var hopSeconds: Seconds { Double(model.features.hopLength) / model.features.rateHz }
    /// True when the model reads the rotation rate.
    public var requiresRotationRate: Bool { model.features.requiresRotationRate }

    private var extractor: StreamingFeatureExtractor
    /// The latest window's features, then its class probabilities, then the prediction scratch.
    private var buffer: [Double]
    private let classCount: Int
    private let movingIndex: Int     // −1 when the model has no "moving" class
    private let stillIndex: Int
    /// p(moving) of the latest completed window (NaN before the first).
    public private(set) var lastProbability = Double.nan
    /// Windows classified so far.
    public private(set) var windows = 0

    /// A classifier for `model`, with its buffers allocated.
    public init(model: MotionModel) throws(Failure) {
        self.model = model
        do { extractor = try StreamingFeatureExtractor(configuration: model.features) } catch {
            throw .badFeatures("\(error)")
        }
        classCount = model.classes.count
        movingIndex = model.classes.firstIndex(of: "moving") ?? -1
        stillIndex = model.classes.firstIndex(of: "still") ?? -1
        guard movingIndex >= 0 || stillIndex >= 0 else { throw .noMovingOrStillClass(classes: model.classes) }
        buffer = [Double](repeating: 0, count: model.features.featureCount + classCount + model.predictionScratchCount)
    }

    /// Forgets the current window (after a gap in the input): windows restart at the next frame.
    public mutating func restart() { extractor.reset() }

    /// Frames pushed since the last restart (the latest window starts at `windowStartFrame`).
    public var framesSinceRestart: Int { extractor.framesSeen }
    /// Index, counted from the last restart, of the first frame of the latest completed window.
    public var windowStartFrame: Int { extractor.windowStartFrame }

    /// Adds one frame; returns true when it completed a window, whose p(moving) is then in
    /// `lastProbability` and its features in `lastFeatures`.
    @discardableResult
    public mutating func push(_ frame: MotionFrame) -> Bool {
        guard extractor.push(frame) else { return false }
        let d = model.features.featureCount, k = classCount
        var b: [Double] = []
        swap(&b, &buffer)          // unique, and no overlapping access to self
        b.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!
            extractor.features(into: UnsafeMutableBufferPointer(start: base, count: d))
            model.probabilities(row: UnsafePointer(base), into: base + d, scratch: base + d + k)
            lastProbability = movingIndex >= 0 ? base[d + movingIndex] : 1 - base[d + stillIndex]
        }
        swap(&b, &buffer)
        windows += 1
        return true
    }

    /// The features of the latest completed window (allocates; for diagnostics and tests).
    public var lastFeatures: [Double] { Array(buffer[0..<model.features.featureCount]) }
}
