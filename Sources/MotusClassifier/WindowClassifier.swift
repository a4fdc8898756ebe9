import MotusCore
import MotusFusion
import MotusFeatures

/// Classifies windows as samples arrive, by the road `MotionPipeline.windows` and
/// `MotionModel.classify` take (the same frames, feature rows and predictions, bit for bit),
/// holding one window's frames: `motus classify` streams a file of any length through it.
///
/// Push the samples of `FrameBuilder.inputKinds` in time order (`SampleMerge` order, as
/// MotusIO's `SampleReader` gives them); each completed window is handed to the caller.
public struct WindowClassifier {
    /// The model applied.
    public let model: MotionModel
    var builder: FrameBuilder
    var extractor: StreamingFeatureExtractor
    var segmentStart = 0.0
    var buffer: [Double]

    /// `kinds`: the stream kinds the input has (with samples); a model needs acceleration (or
    /// user acceleration and gravity), and a rotation rate when its features read one.
    public init(model: MotionModel, kinds: Set<StreamKind>, path: String) throws(ClassifierError) {
        let features = model.pipeline.features
        do { try features.validate() } catch { throw .features(path: path, error) }
        guard model.pipeline.maximumGapSeconds > 0 else {
            throw .badArgument("the frames' maximum gap must be > 0 s, not \(model.pipeline.maximumGapSeconds)")
        }
        guard kinds.contains(.acceleration) || kinds.isSuperset(of: [.userAcceleration, .gravity]) else {
            throw .features(path: path, .missingStream(.acceleration, neededBy: "every model"))
        }
        if features.requiresRotationRate && !kinds.contains(.rotationRate) {
            throw .features(path: path, .missingStream(.rotationRate, neededBy: features.channels.first { $0.usesRotationRate }?.rawValue ?? "gyroMag"))
        }
        self.model = model
        builder = FrameBuilder(settings: model.pipeline.frameSettings)
        do { extractor = try StreamingFeatureExtractor(configuration: features) } catch { throw .features(path: path, error) }
        buffer = [Double](repeating: 0, count: features.featureCount + model.classes.count + model.predictionScratchCount)
    }

    /// Pushes one sample; calls `window` for every window it completed.
    public mutating func push(_ s: SensorSample, _ window: (WindowPrediction) -> Void) {
        guard builder.push(s) else { return }
        let run = builder.latest
        guard run.count > 0 else { return }
        if run.startsSegment {
            // Windows restart at every segment, as the batch extractor's do.
            extractor.reset()
            segmentStart = run.firstTime
        }
        let features = model.pipeline.features
        let d = features.featureCount, k = model.classes.count
        for j in 0..<run.count where extractor.push(run.frame(j)) {
            let start = segmentStart + Double(extractor.windowStartFrame) / features.rateHz
            let end = segmentStart + Double(extractor.windowStartFrame + features.windowLength) / features.rateHz
            var probs = [Double](repeating: 0, count: k)
            buffer.withUnsafeMutableBufferPointer { p in
                let base = p.baseAddress!
                extractor.features(into: UnsafeMutableBufferPointer(start: base, count: d))
                model.probabilities(row: UnsafePointer(base), into: base + d, scratch: base + d + k)
                for c in 0..<k { probs[c] = base[d + c] }
            }
            window(model.prediction(start: start, end: end, probabilities: probs))
        }
    }
}

extension MotionModel {
    /// The prediction for one window's class probabilities: the likeliest class (the first
    /// of equals).
    func prediction(start: Double, end: Double, probabilities probs: [Double]) -> WindowPrediction {
        let best = probs.indices.max { probs[$0] < probs[$1] || (probs[$0] == probs[$1] && $0 > $1) }!
        return WindowPrediction(start: start, end: end, classIndex: best, label: classes[best], probability: probs[best], probabilities: probs)
    }
}
