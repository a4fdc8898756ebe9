import MotusCore
import MotusSignal
import MotusFusion
import MotusFeatures

/// From a recording to feature windows: fill in gravity (sensor fusion) when the recording has
/// only raw acceleration and rotation rate, align the streams onto the configuration's fixed
/// rate (splitting at gaps, never interpolating across them), and extract windowed features.
/// The same steps run for training, evaluation and classification.
public struct MotionPipeline: Sendable {
    public var features: FeatureConfiguration
    /// Filter used when a recording lacks gravity.
    public var fusion: AttitudeFilter.Settings
    /// Gaps longer than this split the data (s).
    public var maxGapSeconds: Double

    public init(features: FeatureConfiguration = .standard, fusion: AttitudeFilter.Settings = .default, maxGapSeconds: Double = 0.1) {
        self.features = features; self.fusion = fusion; self.maxGapSeconds = maxGapSeconds
    }

    /// Feature windows of a recording (window times on the recording's clock).
    public func windows(of recording: Recording, path: String) throws(ClassifierError) -> FeatureMatrix {
        var r = recording
        if r.stream(.gravity) == nil || (r.stream(.acceleration) == nil && r.stream(.userAcceleration) == nil) {
            guard r.stream(.acceleration) != nil else {
                throw .features(path: path, .missingStream(.acceleration, neededBy: "every model"))
            }
            FusionPipeline.complete(&r, settings: fusion)
        }
        var streams: [SensorStream] = []
        if let a = r.stream(.acceleration) { streams.append(a) } else if let u = r.stream(.userAcceleration) { streams.append(u) }
        if let g = r.stream(.gravity) { streams.append(g) }
        if features.requiresRotationRate {
            guard let w = r.stream(.rotationRate) else {
                throw .features(path: path, .missingStream(.rotationRate, neededBy: features.channels.first { $0.usesRotationRate }?.rawValue ?? "gyroMag"))
            }
            streams.append(w)
        }
        let settings = ResamplerSettings(rateHz: features.rateHz, maxGapSeconds: maxGapSeconds)
        let segments = StreamAligner.align(streams, settings: settings)
        do {
            return try FeatureExtractor(configuration: features).extract(segments: segments)
        } catch {
            throw .features(path: path, error)
        }
    }
}
