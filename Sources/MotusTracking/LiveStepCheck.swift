import MotusCore

/// The live session's check on its pedometer's steps: `StepRhythmCheck` with the confirmations
/// of `VerticalStepStream`, the two halves of the offline detector's step mending that need no
/// whole recording. A pedometer step the vertical detector does not find, which splits one
/// regular interval of the walk in two, is not counted.
///
/// The counted steps come later than the pedometer's, by a bounded delay: a step waits for the
/// vertical detector to have looked past it (about four seconds); one it did not find also
/// waits for the steps its rhythm needs (five more, or the end of the walk). Moving/still does
/// not wait: it follows the pedometer's steps as they come.
public struct LiveStepCheck: Sendable {
    /// On or off, and the vertical detector's live settings; the rhythm and the vertical
    /// detector's band, spacing and threshold are `OfflineStepDetector.Settings`'.
    public struct Settings: Sendable, Hashable, Codable {
        /// Whether the live session checks its steps (off: each pedometer step is counted as it comes).
        public var enabled = true
        /// The live vertical detector's block, settling and threshold settings.
        public var vertical = VerticalStepStream.Settings()
        /// The rhythm, the confirmation tolerance and the vertical detector's band and threshold.
        public var detector = OfflineStepDetector.Settings.default
        /// The defaults.
        public init() {}
    }

    var vertical: VerticalStepStream
    var rhythm: StepRhythmCheck
    let tolerance: Seconds

    /// A check with `settings`.
    public init(settings s: Settings = Settings()) {
        vertical = VerticalStepStream(detector: s.detector, settings: s.vertical)
        rhythm = StepRhythmCheck(settings: s.detector)
        tolerance = s.detector.confirmationToleranceSeconds
    }

    /// One acceleration sample (m/s², gravity included), as the pedometer gets it.
    public mutating func push(_ a: Vector3, time t: Seconds) { vertical.push(a, time: t) }

    /// A pedometer step, in time order. Returns a step passed on unchecked when the check is
    /// full (count it).
    public mutating func push(_ s: StepEvent) -> StepEvent? { rhythm.push(s) }

    /// The next step to count, if one is decided: no pedometer step will come dated before
    /// `noStepBefore` (s; +∞ after `finish`).
    public mutating func next(noStepBefore horizon: Seconds) -> StepEvent? {
        let v = vertical, tol = tolerance
        rhythm.confirm(until: v.decidedUntil - tol) { v.hasStep(near: $0, within: tol) }
        return rhythm.next(noStepBefore: horizon)
    }

    /// The end of the input: the vertical detector reports its last peaks.
    public mutating func finish() { vertical.finish() }

    /// Pedometer steps dropped so far.
    public var dropped: Int { rhythm.dropped }
    /// Pedometer steps pushed and not yet decided.
    public var pending: Int { rhythm.pending }
}
