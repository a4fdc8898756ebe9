import MotusCore
import MotusFusion
import MotusFeatures

/// From a recording to feature windows, by the road the live session takes: the recording's
/// samples are replayed in time order through `FrameBuilder` (gravity given or fused, rotation
/// rate held, fixed-rate frames, segments split at gaps), and each segment's frames go through
/// the feature extractor (windows restart at every segment, as a live session's do). Training,
/// evaluation and classification all run this.
public struct MotionPipeline: Sendable {
    /// The features each window gets.
    public var features: FeatureConfiguration
    /// Filter used when a recording lacks gravity.
    public var fusion: GravityFusion
    /// Longest interval (s) that frames are interpolated across (`FrameBuilder.Settings`).
    public var maximumGapSeconds: Seconds
    /// `.offline`: a recording without gravity gets it first from `OrientationFilter`'s offline
    /// mode over the whole recording (`FusionPipeline.complete(mode: .offline)`), and the frames
    /// then take it as given. For recordings on disk only: a live session fuses causally, so a
    /// figure from this mode is not what an app sees live. Default `.live`.
    public var fusionMode: FusionPipeline.Mode

    /// A pipeline; the defaults are the shipped models'.
    public init(features: FeatureConfiguration = .standard, fusion: GravityFusion = .default,
                maximumGapSeconds: Seconds = FrameBuilder.Settings.defaultMaximumGapSeconds, fusionMode: FusionPipeline.Mode = .live) {
        self.features = features; self.fusion = fusion; self.maximumGapSeconds = maximumGapSeconds; self.fusionMode = fusionMode
    }

    /// The frame builder's settings: the features' rate, this pipeline's filter and gap policy.
    public var frameSettings: FrameBuilder.Settings {
        FrameBuilder.Settings(rateHz: features.rateHz, maximumGapSeconds: maximumGapSeconds, fusion: fusion)
    }

    /// The frames of a recording, in segments. Throws when the recording lacks a stream the
    /// features need.
    public func frames(of recording: Recording, path: String) throws(ClassifierError) -> [FrameSegment] {
        // A configuration that cannot work (a rate that is not finite and positive, …) is an
        // error here, before the frame builder, which requires a valid rate.
        do { try features.validate() } catch { throw .features(path: path, error) }
        guard maximumGapSeconds > 0 else {
            throw .badArgument("the frames' maximum gap must be > 0 s, not \(maximumGapSeconds)")
        }
        let hasAcc = recording.stream(.acceleration).map { !$0.isEmpty } ?? false
        let hasDeviceMotion = (recording.stream(.userAcceleration).map { !$0.isEmpty } ?? false)
            && (recording.stream(.gravity).map { !$0.isEmpty } ?? false)
        guard hasAcc || hasDeviceMotion else {
            throw .features(path: path, .missingStream(.acceleration, neededBy: "every model"))
        }
        if features.requiresRotationRate && (recording.stream(.rotationRate)?.isEmpty ?? true) {
            throw .features(path: path, .missingStream(.rotationRate, neededBy: features.channels.first { $0.usesRotationRate }?.rawValue ?? "gyroMag"))
        }
        if fusionMode == .offline && (recording.stream(.gravity)?.isEmpty ?? true) && hasAcc {
            var r = recording
            FusionPipeline.complete(&r, mode: .offline)
            return FrameBuilder.frames(of: r, settings: frameSettings)
        }
        return FrameBuilder.frames(of: recording, settings: frameSettings)
    }

    /// Feature windows of a recording (window times on the recording's clock).
    public func windows(of recording: Recording, path: String) throws(ClassifierError) -> FeatureMatrix {
        let segments = try frames(of: recording, path: path)
        let extractor: FeatureExtractor
        do { extractor = try FeatureExtractor(configuration: features) } catch { throw .features(path: path, error) }
        var m = FeatureMatrix(columns: features.featureCount, names: features.featureNames)
        for s in segments { m.append(contentsOf: extractor.extract(frames: s.frames, startTime: s.startTime)) }
        return m
    }
}
