import MotusCore
import MotusFeatures
import MotusClassifier

/// A `MotionModel` run live: frames at the model's fixed rate go in, and each completed window
/// (2.56 s every 1.28 s with the shipped model) gives the probability of "moving".
///
/// p(moving) is the probability of the class named `moving` when the model has one, otherwise
/// 1 − p(`still`) (so an activity model with `walk`, `run`, … and `still` works too).
///
/// For a logistic model the scaler and weights are copied out at init and a window costs one
/// feature-kernel run and a dot product, with no allocation. Other estimators (MLP) go through
/// `MotionModel.probabilities`, which allocates a one-row matrix per window (once per hop,
/// not per frame).
public struct StreamingClassifier: Sendable {
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case noMovingOrStillClass(classes: [String])
        case badFeatures(String)
        public var description: String {
            switch self {
            case .noMovingOrStillClass(let c): "the model's classes \(c) include neither 'moving' nor 'still'"
            case .badFeatures(let s): "the model's feature configuration is unusable: \(s)"
            }
        }
    }

    public let model: MotionModel
    /// Frame rate the model expects (Hz).
    public var rateHz: Double { model.features.rateHz }
    /// Window length (s).
    public var windowSeconds: Double { Double(model.features.windowLength) / model.features.rateHz }
    /// True when the model reads the rotation rate.
    public var requiresRotationRate: Bool { model.features.requiresRotationRate }

    @usableFromInline var extractor: StreamingFeatureExtractor
    @usableFromInline var buffer: [Double]
    @usableFromInline let mean: [Double]
    @usableFromInline let scale: [Double]
    /// Logistic weights, `outputs × d` row-major, and intercepts; empty for other estimators.
    @usableFromInline let weights: [Double]
    @usableFromInline let intercepts: [Double]
    @usableFromInline var scores: [Double]
    @usableFromInline let classCount: Int
    @usableFromInline let movingIndex: Int     // −1 when the model has no "moving" class
    @usableFromInline let stillIndex: Int
    /// p(moving) of the latest completed window (NaN before the first).
    public private(set) var lastProbability = Double.nan
    /// Windows classified so far.
    public private(set) var windows = 0

    public init(model: MotionModel) throws(Failure) {
        self.model = model
        do { extractor = try StreamingFeatureExtractor(configuration: model.features) } catch {
            throw .badFeatures("\(error)")
        }
        let d = model.features.featureCount
        buffer = [Double](repeating: 0, count: d)
        mean = model.scaler.mean
        scale = model.scaler.scale
        classCount = model.classes.count
        movingIndex = model.classes.firstIndex(of: "moving") ?? -1
        stillIndex = model.classes.firstIndex(of: "still") ?? -1
        guard movingIndex >= 0 || stillIndex >= 0 else { throw .noMovingOrStillClass(classes: model.classes) }
        if case .logistic(let lr) = model.estimator, let s = lr.state, s.featureCount == d {
            weights = s.coefficients.values
            intercepts = s.intercepts
        } else {
            weights = []; intercepts = []
        }
        scores = [Double](repeating: 0, count: max(classCount, 1))
    }

    /// Forgets the current window (after a gap in the input): windows restart at the next frame.
    public mutating func restart() { extractor.reset() }

    /// Adds one frame; returns true when it completed a window, whose p(moving) is then in
    /// `lastProbability`.
    @discardableResult
    public mutating func push(_ frame: MotionFrame) -> Bool {
        guard extractor.push(frame) else { return false }
        var b: [Double] = []
        swap(&b, &buffer)          // unique, and no overlapping access to self
        b.withUnsafeMutableBufferPointer { extractor.features(into: $0) }
        swap(&b, &buffer)
        lastProbability = weights.isEmpty ? generalProbability() : logisticProbability()
        windows += 1
        return true
    }

    @usableFromInline
    mutating func logisticProbability() -> Double {
        let d = buffer.count
        let outputs = intercepts.count
        var probs: [Double] = []
        swap(&probs, &scores)      // unique buffer: written in place, no copy
        buffer.withUnsafeBufferPointer { x in
            weights.withUnsafeBufferPointer { w in
                for o in 0..<outputs {
                    var z = intercepts[o]
                    for j in 0..<d {
                        let v = x[j].isFinite ? (x[j] - mean[j]) / scale[j] : 0
                        z += w[o * d + j] * v
                    }
                    probs[o] = z
                }
            }
        }
        if classCount == 2 {
            let z = probs[0]
            let p1 = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z))
            probs[0] = 1 - p1; probs[1] = p1
        } else {
            var m = probs[0]
            for c in 1..<classCount where probs[c] > m { m = probs[c] }
            var s = 0.0
            for c in 0..<classCount { probs[c] = Math.exp(probs[c] - m); s += probs[c] }
            for c in 0..<classCount { probs[c] /= s }
        }
        let p = movingIndex >= 0 ? probs[movingIndex] : 1 - probs[stillIndex]
        swap(&probs, &scores)
        return p
    }

    mutating func generalProbability() -> Double {
        var m = FeatureMatrix(columns: buffer.count, names: [])
        m.rows = 1
        m.values = buffer
        for j in 0..<m.values.count where !m.values[j].isFinite { m.values[j] = mean[j] }
        guard let p = try? model.probabilities(m) else { return 0.5 }
        return movingIndex >= 0 ? p[0, movingIndex] : 1 - p[0, stillIndex]
    }
}
