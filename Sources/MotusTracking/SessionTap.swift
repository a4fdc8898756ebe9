import MotusFeatures

/// A session's own frames and feature rows, kept on request (`MotionSession.recordFrames()`),
/// in the shapes training uses (`MotionPipeline.frames(of:)` and `windows(of:)`), so the two
/// can be compared value for value.
public struct SessionTap: Sendable {
    /// The frames, in segments split at gaps.
    public private(set) var segments: [FrameSegment] = []
    /// The classifier's feature rows, with their windows' start and end times.
    public private(set) var featureRows: FeatureMatrix

    init(featureNames: [String]) {
        featureRows = FeatureMatrix(columns: featureNames.count, names: featureNames)
    }

    mutating func startSegment(firstIndex: Int, startTime: Double) {
        segments.append(FrameSegment(firstIndex: firstIndex, startTime: startTime, frames: []))
    }

    mutating func add(_ f: MotionFrame) {
        if segments.isEmpty { return }
        segments[segments.count - 1].frames.append(f)
    }

    /// A window of `length` frames starting at frame `startFrame` of the current segment; its
    /// times are computed as the batch extractor computes them.
    mutating func addWindow(_ values: [Double], startFrame: Int, length: Int, rateHz: Double) {
        guard let s = segments.last else { return }
        featureRows.values.append(contentsOf: values)
        featureRows.startTimes.append(s.startTime + Double(startFrame) / rateHz)
        featureRows.endTimes.append(s.startTime + Double(startFrame + length) / rateHz)
        featureRows.rows += 1
    }
}
