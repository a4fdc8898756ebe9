import MotusCore
import MotusSignal

/// Which step counter a recording's steps come from.
public enum StepMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The live pedometer: causal, what a session counts as the samples arrive.
    case live
    /// The offline detector (`OfflineStepDetector`): the whole recording is known, so it may
    /// look back and ahead. For files; never used by a live session.
    case offline
}

/// Steps of a whole recording, looking back and ahead: for files, where the whole recording is
/// known (`StepMode.offline`).
///
/// Two detectors see different things:
/// - the live pedometer (`Pedometer`) follows |a| in a 0.5–3 Hz band with an adaptive
///   hysteresis and only counts a walk once five candidates came at a regular rhythm. It is
///   robust at walk starts and ends, at any carry position, but a slow or irregular gait
///   (turning, a cane, shuffling) makes it trigger on the small oscillations between impacts,
///   and a weak step breaks its rhythm;
/// - a zero-phase peak detector on the *vertical* acceleration (the acceleration along gravity,
///   gravity estimated by a zero-phase 0.3 Hz low-pass): band-pass 1–5 Hz forwards and
///   backwards, resampled to 100 Hz, peaks at least 0.3 s apart whose prominence reaches the
///   filtered signal's standard deviation (the peers' method, on the component that carries the
///   impacts). Turning and swinging move the device sideways, not along gravity, so it counts
///   slow and irregular walks better; but at the trunk it misses steps a lower-back sensor sees
///   only weakly in |a|.
///
/// Neither is better everywhere, and a miscount shows as a broken rhythm: a missed step makes
/// an interval about twice the others, an extra one splits an interval in two. So the recording
/// is cut into walking bouts (the union of both detectors' steps, cut where no step comes for
/// `boutGap`), and each bout takes the steps of the detector whose intervals there are the more
/// regular: the smaller fraction of intervals more than `irregularityRatio` away from the
/// bout's median interval (a detector with fewer than `minimumIntervals` intervals in a bout
/// counts as wholly irregular there; a tie keeps the live steps).
///
/// The vertical detector's steps get a peak-to-peak value like the live ones (the range of
/// |a| low-passed at 3 Hz since the previous step), which the Weinberg stride model uses.
public enum OfflineStepDetector {
    /// The detector's settings (units in the names' doc comments: s, Hz).
    public struct Settings: Sendable, Hashable, Codable {
        /// Cut-off (Hz) of the zero-phase low-pass that estimates gravity's direction.
        public var gravityCutoffHz: Hertz = 0.3
        /// Rate (Hz) of the grid the vertical acceleration is resampled to.
        public var gridRateHz: Hertz = 100
        /// Band (Hz) of the 4th-order zero-phase Butterworth band-pass on the vertical acceleration.
        public var bandLowHz: Hertz = 1
        /// Upper edge (Hz) of that band.
        public var bandHighHz: Hertz = 5
        /// Shortest time (s) between two peaks (of two closer ones the higher stays).
        public var minimumPeakSpacingSeconds: Seconds = 0.3
        /// A peak's prominence must reach this fraction of the filtered signal's standard deviation.
        public var prominenceFraction: Double = 1
        /// A walking bout ends where neither detector finds a step for this long (s).
        public var boutGapSeconds: Seconds = 2
        /// An interval counts as irregular when it is more than this factor from the bout's median.
        public var irregularityRatio: Double = 1.5
        /// A detector needs at least this many intervals in a bout to be judged regular there.
        public var minimumIntervals: Int = 4
        /// Cut-off (Hz) of the low-pass of |a| whose range between steps is a step's peak-to-peak.
        public var peakToPeakCutoffHz: Hertz = 3

        /// The defaults.
        public init() {}
        /// The defaults.
        public static let `default` = Settings()
    }

    /// The steps of a whole acceleration stream (m/s², gravity included, times in s): the live
    /// pedometer's (`Pedometer.detect` with `pedometer`) and the vertical detector's, each bout
    /// from the more regular of the two. In time order.
    public static func detect(_ acc: SensorStream, pedometer: Pedometer.Settings = .default,
                              settings: Settings = .default) -> [StepEvent] {
        detect(acc, live: Pedometer.detect(acc, settings: pedometer), settings: settings)
    }

    /// The same with the live steps already counted (`live`: the steps a session credited on
    /// this stream, in time order).
    public static func detect(_ acc: SensorStream, live: [StepEvent], settings: Settings = .default) -> [StepEvent] {
        let vertical = verticalSteps(acc, settings: settings)
        return choose(live: live, vertical: vertical, settings: settings)
    }

    /// Per walking bout, the steps of the more regular detector (see the type's description).
    public static func choose(live: [StepEvent], vertical: [StepEvent], settings: Settings = .default) -> [StepEvent] {
        let all = (live.map(\.time) + vertical.map(\.time)).sorted()
        guard let first = all.first else { return [] }
        var out: [StepEvent] = []
        out.reserveCapacity(Swift.max(live.count, vertical.count))
        var lo = first, prev = first
        var li = 0, vi = 0
        func bout(to hi: Double) {
            var l: [StepEvent] = [], v: [StepEvent] = []
            while li < live.count && live[li].time <= hi { if live[li].time >= lo { l.append(live[li]) }; li += 1 }
            while vi < vertical.count && vertical[vi].time <= hi { if vertical[vi].time >= lo { v.append(vertical[vi]) }; vi += 1 }
            out += irregularity(v.map(\.time), settings) < irregularity(l.map(\.time), settings) ? v : l
        }
        for t in all.dropFirst() {
            if t - prev > settings.boutGapSeconds { bout(to: prev); lo = t }
            prev = t
        }
        bout(to: prev)
        return out
    }

    /// The fraction of the intervals between `times` (those shorter than the bout gap) that lie
    /// more than `irregularityRatio` from their median; 1 with fewer than `minimumIntervals`.
    static func irregularity(_ times: [Double], _ s: Settings) -> Double {
        var d: [Double] = []
        for i in times.indices.dropFirst() {
            let dt = times[i] - times[i - 1]
            if dt < s.boutGapSeconds { d.append(dt) }
        }
        guard d.count >= Swift.max(1, s.minimumIntervals) else { return 1 }
        let median = TimingStatistics.percentile(d.sorted(), 0.5)
        let r = s.irregularityRatio
        let off = d.filter { $0 > median * r || $0 * r < median }.count
        return Double(off) / Double(d.count)
    }

    /// The vertical detector alone: peaks of the band-passed vertical acceleration (see the
    /// type's description), with their peak-to-peak values. In time order.
    public static func verticalSteps(_ acc: SensorStream, settings s: Settings = .default) -> [StepEvent] {
        precondition(acc.width == 3, "an acceleration stream has three components")
        let n = acc.count
        guard n > 2, let t0 = acc.times.first, let t1 = acc.times.last, t1 > t0 else { return [] }
        // The device's own rate, for the gravity low-pass (median interval: robust to gaps).
        var intervals = [Double]()
        intervals.reserveCapacity(n - 1)
        for i in 1..<n where acc.times[i] > acc.times[i - 1] { intervals.append(acc.times[i] - acc.times[i - 1]) }
        guard !intervals.isEmpty else { return [] }
        intervals.sort()
        let rate = 1 / TimingStatistics.percentile(intervals, 0.5)
        guard s.gravityCutoffHz < rate / 2, s.bandHighHz < s.gridRateHz / 2 else { return [] }
        let lowPass = BiquadCascade(sections: [.butterworthLowPass(cutoffHz: s.gravityCutoffHz, sampleRateHz: rate)])
        var comp = [[Double]](repeating: [], count: 3)
        for c in 0..<3 { comp[c] = lowPass.filteredZeroPhase((0..<n).map { acc.value($0, c) }) }
        var vertical = [Double](repeating: 0, count: n), magnitude = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let a = acc.vector(i)
            let g = Vector3(comp[0][i], comp[1][i], comp[2][i])
            let gn = g.norm
            vertical[i] = gn > 0 ? a.dot(g) / gn : 0
            magnitude[i] = a.norm
        }
        // The grid t0, t0 + 1/rate, … below t1, by linear interpolation.
        let step = 1 / s.gridRateHz
        let m = Int(((t1 - t0) * s.gridRateHz).rounded(.up))
        var grid = [Double](repeating: 0, count: m), gridMagnitude = [Double](repeating: 0, count: m)
        var j = 0
        for k in 0..<m {
            let t = t0 + Double(k) * step
            while j + 1 < n - 1 && acc.times[j + 1] <= t { j += 1 }
            let ta = acc.times[j], tb = acc.times[j + 1]
            let w = tb > ta ? Swift.min(Swift.max((t - ta) / (tb - ta), 0), 1) : 0
            grid[k] = vertical[j] + w * (vertical[j + 1] - vertical[j])
            gridMagnitude[k] = magnitude[j] + w * (magnitude[j + 1] - magnitude[j])
        }
        guard m > 2 else { return [] }
        let band = BiquadCascade.butterworthBandPass(order: 4, lowHz: s.bandLowHz, highHz: s.bandHighHz, sampleRateHz: s.gridRateHz)
        let f = band.filteredZeroPhase(grid)
        let mean = f.reduce(0, +) / Double(m)
        let std = (f.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(m)).squareRoot()
        let peaks = Peaks.find(f, minimumDistance: Int((s.minimumPeakSpacingSeconds * s.gridRateHz).rounded()),
                               minimumProminence: s.prominenceFraction * std)
        let smooth = BiquadCascade(sections: [.butterworthLowPass(cutoffHz: s.peakToPeakCutoffHz, sampleRateHz: s.gridRateHz)])
            .filteredZeroPhase(gridMagnitude)
        var out: [StepEvent] = []
        out.reserveCapacity(peaks.count)
        var from = 0
        for (i, p) in peaks.enumerated() {
            // A step's peak-to-peak: the range of smoothed |a| since the previous peak (for the
            // first, over the same span before it as after it to the next).
            let start = i > 0 ? from : Swift.max(0, p - (i + 1 < peaks.count ? peaks[i + 1] - p : p))
            var lo = Double.infinity, hi = -Double.infinity
            for k in start...p { lo = Swift.min(lo, smooth[k]); hi = Swift.max(hi, smooth[k]) }
            out.append(StepEvent(time: t0 + Double(p) * step, peakToPeak: hi - lo))
            from = p
        }
        return out
    }
}

extension OfflineStepDetector {
    /// The offline steps of a whole recording: on `acceleration(of:)`, the live pedometer's
    /// steps (`Pedometer.detect`: the update a session runs on each acceleration sample; the
    /// platform step counter plays no part) and the vertical detector's, each bout from the more
    /// regular (`detect(_:live:settings:)`). What `evaluate-steps` scores and `MotionSession.run`
    /// counts with `stepMode` `.offline`. `session`: the settings whose pedometer tuning the live
    /// steps use. Nil when the recording has no acceleration to count on.
    public static func steps(of r: Recording, session: SessionSettings = .default, settings: Settings = .default) -> [StepEvent]? {
        guard let acc = acceleration(of: r) else { return nil }
        return detect(acc, pedometer: session.tuning.pedometer, settings: settings)
    }

    /// The acceleration (gravity included) a recording's steps are counted on: its raw
    /// acceleration stream; else its user acceleration plus gravity
    /// (`Recording.deviceMotionAcceleration`, as a session combines them); else its user
    /// acceleration alone through `UserAccelerationOnlyInput` (as a session adapts it). Nil
    /// without any.
    public static func acceleration(of r: Recording) -> SensorStream? {
        if let a = r.stream(.acceleration), !a.isEmpty { return a }
        if let a = r.deviceMotionAcceleration { return a }
        guard let u = r.stream(.userAcceleration), !u.isEmpty else { return nil }
        var out = SensorStream(kind: .acceleration)
        out.reserveCapacity(u.count)
        var input = UserAccelerationOnlyInput()
        for i in 0..<u.count {
            out.append(time: u.times[i], input.acceleration(userAcceleration: u.vector(i), time: u.times[i]))
        }
        return out
    }
}
