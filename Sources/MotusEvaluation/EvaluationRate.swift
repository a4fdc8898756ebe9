import MotusCore
import MotusSignal

extension EvaluationRecording {
    /// The recording as a device sampling at `rateHz` would have given it, with its truth on the
    /// same grid: what `evaluate-steps --resample` and `evaluate-fusion --resample` score.
    ///
    /// The device's streams go through `Recording.resampledAsDevice(rateHz:)` (anti-alias filter
    /// below the recording's rate, one grid for every stream). The orientation reference is
    /// taken on that grid without a filter: a device gravity (CoreMotion's) as the device would
    /// sample its own estimate, a measured orientation (optical motion capture) by slerp, with no
    /// sample where the measurement had a hole of more than one and a half of its own periods
    /// (no orientation is made up where the cameras lost the markers). Labels, reference steps
    /// and the course length stay as they are: they are times, not samples. `gridPhase` shifts
    /// the grid by that fraction of a period (`Recording.resampledAsDevice`).
    /// Precondition: `rateHz` finite and > 0, `gridPhase` in [0, 1).
    public func resampledAsDevice(rateHz: Hertz, gridPhase: Double = 0) -> EvaluationRecording {
        var out = self
        let origin = recording.resampledAsDeviceOrigin(rateHz: rateHz, gridPhase: gridPhase)
        out.recording = recording.resampledAsDevice(rateHz: rateHz, gridPhase: gridPhase)
        switch truth.orientation {
        case .deviceGravity(let g, let corrected):
            out.truth.orientation = .deviceGravity(g.resampledAsDevice(rateHz: rateHz, originSeconds: origin, antiAlias: false),
                                                   biasCorrectedRotationRate: corrected)
        case .measured(let q, let scored):
            out.truth.orientation = .measured(q.resampledAsReference(rateHz: rateHz, originSeconds: origin), scored: scored)
        case nil: break
        }
        return out
    }
}
