import MotusCore
import MotusSignal

/// One counted step.
@frozen
public struct StepEvent: Sendable, Hashable, Codable {
    /// Time of the step's acceleration peak (s, on the input clock). For a step filled into
    /// a gap (see `Pedometer.Settings.maximumFilledGap`), a time spread evenly over the gap.
    public var time: Seconds
    /// The step's swing (m/s²): the peak-to-trough, since the step before, of the acceleration's
    /// norm after each axis is low-passed (`StepSwingFilter`), the input of Weinberg's stride
    /// model; for a filled step, the mean of its two neighbours'.
    public var peakToPeak: MetersPerSecondSquared
    /// True for a step credited without its own peak (filled into a gap of weak impacts).
    public var filled: Bool
    /// A step at `time` (s) with its `peakToPeak` (m/s²).
    @inlinable public init(time: Seconds, peakToPeak: MetersPerSecondSquared, filled: Bool = false) {
        self.time = time; self.peakToPeak = peakToPeak; self.filled = filled
    }
}

/// A streaming step counter on the raw accelerometer (gravity included), for any rate from
/// about 20 to 400 Hz, regular or not, and any carry position.
///
/// How it works, every constant in Hz, seconds or m/s² (so it behaves the same at any rate):
/// 1. The acceleration magnitude |a| (orientation-free) is averaged onto a fixed internal grid
///    (`internalRateHz`, `CellAverager`).
/// 2. A Butterworth high-pass (`bandLowHz`) and low-pass (`bandHighHz`) keep the step band.
/// 3. A Schmitt trigger finds one candidate per oscillation: the filtered signal must fall
///    below −h and then rise above +h, with h = max(`minimumHysteresis`,
///    `hysteresisFraction` × running RMS over `rmsTimeConstant`), and candidates at least
///    `minimumStepInterval` apart (and at least half the current step interval).
/// 4. Gating: while still, candidates are held, not counted. When `confirmationSteps`
///    candidates in a row have regular intervals (each within `regularityRatio` of their
///    median, or, for a gait whose intervals alternate short and long, each stride within
///    `strideRegularityRatio` of theirs; all ≤ `maximumConfirmationInterval`), the pedometer
///    starts walking and credits all of
///    them at once (the steps taken while confirming are not lost). While walking, every
///    candidate counts at once. With no candidate for max(`stopTimeout`, 2.5 × interval) it
///    stops; isolated or irregular candidates (fidgeting) never reach confirmation.
/// 5. Gaps: when a step comes after a gap of `gapFactor` × the step interval or more, not
///    longer than `maximumFilledGap`, and the signal in the gap kept moving (RMS ≥
///    `gapMotionFraction` × the walking RMS), the missing steps are credited (weak impacts,
///    e.g. in a turn, are still steps).
///
/// `update` allocates nothing; state is a few dozen numbers and two fixed buffers.
public struct Pedometer: Sendable {
    /// What an app may tune; units on each property (Hz, s, m/s²).
    public struct Settings: Sendable, Hashable, Codable {
        /// Internal grid rate (Hz).
        public var internalRateHz: Hertz = 50
        /// Band of step frequencies kept (Hz).
        public var bandLowHz: Hertz = 0.5
        /// Upper edge of the band (Hz), and the cut-off of the step's swing (`StepSwingFilter`).
        public var bandHighHz: Hertz = 3.0
        /// Hysteresis as a fraction of the running RMS of the band-passed magnitude.
        public var hysteresisFraction: Double = 0.35
        /// Hysteresis floor (m/s²): smaller oscillations are never steps.
        public var minimumHysteresis: MetersPerSecondSquared = 0.15
        /// Time constant of the running RMS (s).
        public var rmsTimeConstant: Seconds = 1.5
        /// Shortest step interval (s): 4 steps/s, a sprint.
        public var minimumStepInterval: Seconds = 0.25
        /// Longest step interval that still counts as walking (s).
        public var maximumStepInterval: Seconds = 2.0
        /// Longest interval (s) in a run that starts walking (40 steps/min): slower regular
        /// jolts are not taken for the start of a walk.
        public var maximumConfirmationInterval: Seconds = 1.5
        /// Candidates in a row needed to start counting.
        public var confirmationSteps: Int = 5
        /// Each interval of the confirming run must lie within [median / r, median × r].
        public var regularityRatio: Double = 1.4
        /// A run whose step intervals alternate short and long (a limp, a turn, or a phone in
        /// one pocket, where the peak of the near leg's step and of the far leg's fall at
        /// different phases) also starts walking when its strides (two consecutive intervals,
        /// one per foot) lie within [median / r, median × r] of the strides' median…
        public var strideRegularityRatio: Double = 1.2
        /// …and its longest step interval is at most this many times its shortest.
        public var maximumStepAsymmetry: Double = 1.6
        /// While walking, candidates closer than this fraction of the step interval are merged.
        public var minimumIntervalFraction: Double = 0.5
        /// Walking stops after this long (s) without a step (or 2.5 step intervals if longer).
        public var stopTimeout: Seconds = 2.0
        /// A gap of at least this many step intervals may be filled.
        public var gapFactor: Double = 1.6
        /// Longest gap (s) filled with steps; 0 turns gap filling off (the default).
        public var maximumFilledGap: Seconds = 0
        /// The gap's RMS must reach this fraction of the walking RMS to be filled.
        public var gapMotionFraction: Double = 0.15
        /// Input gaps longer than this (s) restart the internal grid.
        public var maximumInputGap: Seconds = 1.0
        /// The defaults, as given on each property.
        public init() {}
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// The settings this pedometer runs with.
    public let settings: Settings
    /// Steps counted so far.
    public private(set) var steps = 0
    /// Steps seen but not yet confirmed as walking (they are credited if walking is confirmed).
    public var pendingSteps: Int { pendingCount }
    /// True while steps are being counted as they come.
    public private(set) var isWalking = false
    /// Current step interval estimate (s), from the intervals counted while walking.
    public private(set) var stepInterval: Seconds = 0.55
    /// Cadence in steps per minute while walking, 0 when still.
    public var cadence: StepsPerMinute { isWalking ? 60 / stepInterval : 0 }
    /// Time of the last counted step (s, on the input clock), −∞ before the first.
    public var lastStepTime: Seconds { lastStep + origin }

    /// The input clock's origin: the first sample's time. Everything inside runs on times
    /// relative to it, so the grid, the intervals and the timeouts are computed on small
    /// numbers and come out the same whatever the clock's origin (Unix seconds carry rounding
    /// of the order of 10⁻⁷ s, enough to flip a comparison of two grid times lying exactly one
    /// timeout apart); step times are put back on the input clock as they are read.
    var origin = 0.0
    var hasOrigin = false
    /// Time of the last counted step (s, relative to `origin`), −∞ before the first.
    var lastStep = -Double.infinity

    // Signal chain.
    var grid: CellAverager
    var highPass: Biquad
    var lowPass: Biquad
    var swing: StepSwingFilter   // a step's swing (peak-to-peak, Weinberg's input)
    var primed = false
    var meanSquare = 0.0
    let rmsAlpha: Double
    var armed = false
    var lastCandidate = -Double.infinity
    var segMax = -Double.infinity, segMin = Double.infinity
    // Motion energy since the last candidate.
    var gapSum = 0.0, gapN = 0
    var walkingRMS = 0.0

    // Pending candidates (fixed storage of `capacity`).
    var pendTime: [Double]
    var pendP2P: [Double]
    var pendCount = 0
    var pendGapRMS = 0.0   // motion in the gap before the first pending one
    let rhythm: StepRhythm
    var rhythmScratch: [Double]   // room for the pending intervals (`isRegularRun`)
    var pendingCount: Int { pendCount }
    /// Time (s, input clock) of the `i`-th pending candidate, oldest first; `i < pendingSteps`.
    func pendingStepTime(_ i: Int) -> Double { pendTime[i] + origin }

    // Credited steps, newest last, in a ring (read with `recentStep`).
    var outTime: [Double]
    var outP2P: [Double]
    var outFilled: [Bool]
    var outHead = 0
    static let outCapacity = 128
    var lastP2P = 0.0

    /// A pedometer that has counted nothing. Traps on settings that cannot run (an internal rate
    /// not above twice the band's upper edge, no confirmation step): a programming error, not input.
    public init(settings: Settings = .default) {
        precondition(settings.internalRateHz > 2 * settings.bandHighHz, "internal rate must exceed twice the band's upper edge")
        precondition(settings.confirmationSteps >= 1, "confirmationSteps must be ≥ 1")
        self.settings = settings
        let fs = settings.internalRateHz
        grid = CellAverager(rateHz: fs, maximumGap: settings.maximumInputGap)
        highPass = .butterworthHighPass(cutoffHz: settings.bandLowHz, sampleRateHz: fs)
        lowPass = .butterworthLowPass(cutoffHz: settings.bandHighHz, sampleRateHz: fs)
        swing = StepSwingFilter(cutoffHz: settings.bandHighHz, sampleRateHz: fs)
        rmsAlpha = 1 - Math.exp(-1 / (settings.rmsTimeConstant * fs))
        let cap = settings.confirmationSteps + 1
        pendTime = [Double](repeating: 0, count: cap)
        pendP2P = [Double](repeating: 0, count: cap)
        rhythm = StepRhythm(intervalRatio: settings.regularityRatio, strideRatio: settings.strideRegularityRatio,
                            asymmetry: settings.maximumStepAsymmetry, longIntervalsBreak: true, median: .lower)
        rhythmScratch = [Double](repeating: 0, count: cap)
        outTime = [Double](repeating: 0, count: Pedometer.outCapacity)
        outP2P = [Double](repeating: 0, count: Pedometer.outCapacity)
        outFilled = [Bool](repeating: false, count: Pedometer.outCapacity)
    }

    /// Feeds one accelerometer sample (m/s², gravity included; `time` in seconds, increasing).
    /// Returns how many steps were credited by this sample (usually 0; 1 per step while
    /// walking; several when walking is confirmed or a gap is filled). Read them with
    /// `recentStep(_:)`.
    @discardableResult
    public mutating func update(acceleration a: Vector3, time: Seconds) -> Int {
        let before = steps
        let m = a.norm
        guard m.isFinite, time.isFinite else { return 0 }
        if !hasOrigin { origin = time; hasOrigin = true }
        var g = grid
        // |a| and the axes (for the step's swing) on one grid.
        g.push(time: time - origin, values: SIMD4(m, a.x, a.y, a.z)) { t, v in
            self.gridSample(time: t, value: v[0], acceleration: Vector3(v[1], v[2], v[3]))
        }
        grid = g
        return steps - before
    }

    /// The `i`-th most recent counted step (0 = newest). Precondition: `i < min(steps, 128)`.
    public func recentStep(_ i: Int) -> StepEvent {
        precondition(i >= 0 && i < Swift.min(steps, Pedometer.outCapacity), "step index out of range")
        var j = outHead - 1 - i
        if j < 0 { j += Pedometer.outCapacity }
        return StepEvent(time: outTime[j] + origin, peakToPeak: outP2P[j], filled: outFilled[j])
    }

    mutating func gridSample(time t: Double, value v: Double, acceleration a: Vector3) {
        if !primed {
            primed = true
            highPass.prime(with: v)
            swing.prime(with: a)
        }
        let y = lowPass.process(highPass.process(v))
        let s = swing.process(a)
        if s > segMax { segMax = s }
        if s < segMin { segMin = s }
        meanSquare += rmsAlpha * (y * y - meanSquare)
        gapSum += y * y; gapN += 1
        let h = Swift.max(settings.minimumHysteresis, settings.hysteresisFraction * meanSquare.squareRoot())
        if y < -h { armed = true }
        let minInterval = Swift.max(settings.minimumStepInterval, isWalking ? settings.minimumIntervalFraction * stepInterval : 0)
        if armed && y > h && t - lastCandidate >= minInterval {
            armed = false
            let p2p = segMax - segMin
            segMax = s; segMin = s
            candidate(time: t, peakToPeak: p2p)
        }
        if isWalking && t - lastStep > Swift.max(settings.stopTimeout, 2.5 * stepInterval) {
            isWalking = false
        }
        if pendCount > 0 && t - pendTime[pendCount - 1] > settings.maximumStepInterval {
            pendCount = 0
        }
    }

    mutating func candidate(time t: Double, peakToPeak p2p: Double) {
        let gapRMS = gapN > 0 ? (gapSum / Double(gapN)).squareRoot() : 0
        gapSum = 0; gapN = 0
        lastCandidate = t
        if isWalking {
            let dt = t - lastStep
            fillGap(until: t, interval: dt, gapRMS: gapRMS, nextP2P: p2p)
            if dt <= settings.maximumStepInterval {
                let d = Swift.min(dt, 1.5 * stepInterval)   // a missed impact must not double the estimate
                stepInterval += 0.25 * (d - stepInterval)
            }
            walkingRMS = meanSquare.squareRoot()
            credit(time: t, peakToPeak: p2p, filled: false)
            return
        }
        if pendCount == 0 { pendGapRMS = gapRMS }
        if pendCount == pendTime.count {   // keep the newest `capacity − 1`
            for i in 1..<pendCount { pendTime[i - 1] = pendTime[i]; pendP2P[i - 1] = pendP2P[i] }
            pendCount -= 1
        }
        pendTime[pendCount] = t; pendP2P[pendCount] = p2p; pendCount += 1
        trimIrregular()
        if pendCount >= settings.confirmationSteps {
            let n = pendCount
            let first = pendTime[0]
            let interval = (pendTime[n - 1] - first) / Double(n - 1)
            stepInterval = interval
            walkingRMS = meanSquare.squareRoot()
            if lastStep.isFinite {
                fillGap(until: first, interval: first - lastStep, gapRMS: pendGapRMS, nextP2P: pendP2P[0])
            }
            for i in 0..<n { credit(time: pendTime[i], peakToPeak: pendP2P[i], filled: false) }
            pendCount = 0
            isWalking = true
        }
    }

    /// Drops the oldest pending candidates until the intervals of the rest are regular: every
    /// step interval near their median, or (an asymmetric gait) every stride near the strides'
    /// median with the step intervals no more than `maximumStepAsymmetry` apart.
    mutating func trimIrregular() {
        while pendCount >= 3 {
            let n = pendCount - 1   // intervals (at most `confirmationSteps` of them)
            var hi = 0.0
            for i in 0..<n { hi = Swift.max(hi, interval(i)) }
            if hi <= settings.maximumConfirmationInterval && isRegularRun(count: n) { return }
            for i in 1..<pendCount { pendTime[i - 1] = pendTime[i]; pendP2P[i - 1] = pendP2P[i] }
            pendCount -= 1
        }
        if pendCount == 2 {
            let d = pendTime[1] - pendTime[0]
            if d > settings.maximumConfirmationInterval { pendTime[0] = pendTime[1]; pendP2P[0] = pendP2P[1]; pendCount = 1 }
        }
    }

    /// The `i`-th interval between pending candidates (s).
    func interval(_ i: Int) -> Double { pendTime[i + 1] - pendTime[i] }

    /// The rhythm test of `trimIrregular` on the `n` pending intervals (`StepRhythm` with
    /// `regularityRatio`, `strideRegularityRatio` and `maximumStepAsymmetry`).
    mutating func isRegularRun(count n: Int) -> Bool {
        let times = pendTime
        return rhythm.step(count: n, judging: n, scratch: &rhythmScratch, time: { times[$0] }) != nil
    }

    mutating func fillGap(until t: Double, interval dt: Double, gapRMS: Double, nextP2P: Double) {
        guard dt >= settings.gapFactor * stepInterval, dt <= settings.maximumFilledGap,
              gapRMS >= settings.gapMotionFraction * walkingRMS else { return }
        let k = Int((dt / stepInterval).rounded()) - 1
        guard k > 0 else { return }
        let start = lastStep, p = 0.5 * (lastP2P + nextP2P)
        for i in 1...k { credit(time: start + dt * Double(i) / Double(k + 1), peakToPeak: p, filled: true) }
    }

    mutating func credit(time t: Double, peakToPeak p2p: Double, filled: Bool) {
        outTime[outHead] = t; outP2P[outHead] = p2p; outFilled[outHead] = filled
        outHead += 1
        if outHead == Pedometer.outCapacity { outHead = 0 }
        steps += 1
        lastStep = t
        if !filled { lastP2P = p2p }
    }
}

extension Pedometer {
    /// Runs a fresh pedometer over a whole acceleration stream (the same `update` as live) and
    /// returns every counted step in time order.
    public static func detect(_ acc: SensorStream, settings: Settings = .default) -> [StepEvent] {
        precondition(acc.width == 3, "an acceleration stream has three components")
        var p = Pedometer(settings: settings)
        var out: [StepEvent] = []
        out.reserveCapacity(acc.count / 20)
        for i in 0..<acc.count {
            let k = p.update(acceleration: acc.vector(i), time: acc.times[i])
            if k > 0 { for j in stride(from: k - 1, through: 0, by: -1) { out.append(p.recentStep(j)) } }
        }
        return out
    }
}
