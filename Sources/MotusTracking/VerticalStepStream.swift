import MotusCore
import MotusSignal

/// `OfflineStepDetector`'s vertical detector for a live session, with a bounded delay: peaks of
/// the band-passed acceleration along gravity, found as the samples arrive.
///
/// What differs from the whole-file detector, and why:
/// - gravity's direction is a causal low-pass (`gravityCutoffHz`) of the acceleration on the
///   grid, not a zero-phase one: only the direction is used, and it changes slowly;
/// - the band-pass is still zero-phase, with a bounded delay (`StreamingZeroPhaseFilter`): the
///   forward pass runs as the samples come, and every `hopSeconds` the backward pass runs from
///   the newest sample back, the samples older than `settlingSeconds` becoming final (the
///   backward pass has settled there);
/// - a peak's prominence is measured within `prominenceSpanSeconds` on each side, and its
///   threshold is `prominenceFraction` times the root mean square of the filtered signal, an
///   exponential mean that rises with `amplitudeTimeConstantSeconds` and falls with the slower
///   `amplitudeFallTimeConstantSeconds` (a quiet turn or pause after a walk keeps the walk's
///   scale), where the whole-file detector uses the whole signal's standard deviation; and,
///   as the whole-file detector judges a quieter stretch against itself, where the samples
///   that moved in the last `quieterWindowSeconds` (at least
///   `sideWindowMovingFraction` of them; moving by the session's `StillnessDetector`) deviate
///   less than `quieterActivityRatio` times that running scale, against their deviation: the
///   window ending at the peak, the one of the whole-file detector's three that has come. A
///   walk after a run is then judged against the walk once it fills the window, not for as
///   long as the run's mean square takes to fall; and
/// - after a pause (stillness, by the same test, for the whole-file detector's
///   `boutGapSeconds`, the silence that splits its bouts) the running mean square starts again
///   from the next moving sample, as at the input's first: the movement after a stop is a new
///   bout, judged against itself as the whole-file detector's bouts are, and not against the
///   louder activity before the stop (a walk after a run or stairs, a guide dog's walker after
///   a stop). A pause shorter than that, or a quiet turn, keeps the scale.
/// A peak is reported about `settlingSeconds` + `prominenceSpanSeconds` + `hopSeconds` after it.
/// Fixed storage: allocates nothing after `init`.
public struct VerticalStepStream: Sendable {
    /// The live detector's own settings (s); the rest are the whole-file detector's.
    public struct Settings: Sendable, Hashable, Codable {
        /// The band-passed signal is final this long (s) behind the newest sample.
        public var settlingSeconds: Seconds = 2
        /// The backward pass runs every this long (s).
        public var hopSeconds: Seconds = 0.5
        /// A peak's prominence is measured within this span (s) on each side.
        public var prominenceSpanSeconds: Seconds = 1.5
        /// Time constant (s) of the filtered signal's running mean square (the peak threshold's
        /// scale) while it rises.
        public var amplitudeTimeConstantSeconds: Seconds = 30
        /// Time constant (s) of that mean square while it falls: slower than it rises, so that
        /// after a walk a turn, a pause or a cane's taps are judged against the walk's steps,
        /// not against their own quiet.
        public var amplitudeFallTimeConstantSeconds: Seconds = 60
        /// The window (s) of the quieter-stretch rule: the moving samples of this long before a
        /// final sample, judged by the whole-file detector's `quieterActivityRatio` and
        /// `sideWindowMovingFraction`. Longer than the whole-file detector's
        /// `activityWindowSeconds`: there the rule compares with the whole recording's scale,
        /// here with a running mean square that a walk's own louder stretches raise, and with
        /// 30 s it judged cane walkers' slow stretches against themselves (WeAllWalk's cane
        /// walkers, live: 1.72 → 1.86 %; 40 s and 60 s change no shared count).
        public var quieterWindowSeconds: Seconds = 40
        /// The defaults.
        public init() {}
        /// The defaults.
        public static let `default` = Settings()
    }

    let rate: Double, span: Int, spacing: Int
    let fraction: Double, alpha: Double, alphaFall: Double
    /// The quieter-stretch rule: its ratio, its window and the moving samples it needs in it
    /// (grid samples).
    let quieterRatio: Double, activityWidth: Int, activityLeast: Double
    var gravity: [Biquad]
    /// The swing signal on the grid (`StepSwingFilter` at the detector's `peakToPeakCutoffHz`).
    var swing: StepSwingFilter
    /// The swing filter's delay in grid samples.
    let swingDelay: Int
    // The grid: the first sample's time, the previous input.
    var t0 = Double.nan, previousTime = Double.nan, previous = Vector3.zero
    /// The band-pass of the vertical acceleration on the grid.
    var band: StreamingZeroPhaseFilter
    /// Final filtered samples and their peak thresholds (ring, `ringLength`, a power of two).
    var filtered: [Double], threshold: [Double]
    let ringMask: Int
    var finalCount = 0, examined = 1, meanSquare = 0.0
    /// Final samples still in a row up to the newest final one, and how many make a pause
    /// that starts the mean square again (`boutGapSeconds`).
    var stillRun = 0
    let restartStillSamples: Int
    /// Per grid sample (ring, `ringMask`): the swing signal.
    var swingRing: [Double]
    /// Reported peak times, their peak-to-peak and their swing through the peak, newest last
    /// (rings of `stepCapacity`).
    var stepTimes: [Double], stepPeakToPeak: [Double], stepSwingThrough: [Double]
    /// The acceleration along gravity on the grid (m/s², gravity included), unfiltered
    /// (ring, `verticalMask`): the signal whose own periodicity `periodicity` measures.
    var verticalRing: [Double]
    let verticalMask: Int
    /// The acceleration on the grid (m/s², gravity included; x, y, z per sample; ring,
    /// `verticalMask`): what `meanDirection` averages.
    var accelerationRing: [Double]
    /// The session's stillness test (`StillnessDetector`, default settings) on the grid's |a|.
    var stillness: StillnessDetector
    /// Per grid sample (ring, `ringMask`): whether the device moved there (the test's window
    /// centred on it).
    var movingRing: [Bool]
    /// The final filtered samples of the last `activityWidth` (ring, `activityMask`), whether
    /// each moved, and the moving ones' running count, sum and sum of squares.
    var activityFiltered: [Double], activityMoving: [Bool]
    let activityMask: Int
    var activityCount = 0.0, activitySum = 0.0, activitySquares = 0.0
    /// Grid index of the last reported peak (−1 before the first).
    var lastPeak = -1
    var stepCount = 0
    static let stepCapacity = 128
    /// How far back (s) the unfiltered vertical acceleration is kept for `periodicity`.
    static let verticalSeconds = 20.0
    var ended = false

    /// A detector with the whole-file detector's `detector` settings and the live `settings`.
    public init(detector d: OfflineStepDetector.Settings = .default, settings s: Settings = .default) {
        rate = d.gridRateHz
        let hop = Swift.max(1, Int((s.hopSeconds * rate).rounded()))
        let settle = Swift.max(1, Int((s.settlingSeconds * rate).rounded()))
        span = Swift.max(1, Int((s.prominenceSpanSeconds * rate).rounded()))
        spacing = Swift.max(1, Int((d.minimumPeakSpacingSeconds * rate).rounded()))
        fraction = d.prominenceFraction
        alpha = 1 - Math.exp(-1 / (Swift.max(s.amplitudeTimeConstantSeconds, 1 / rate) * rate))
        alphaFall = 1 - Math.exp(-1 / (Swift.max(s.amplitudeFallTimeConstantSeconds, 1 / rate) * rate))
        band = StreamingZeroPhaseFilter(.butterworthBandPass(order: 4, lowHz: d.bandLowHz, highHz: d.bandHighHz, sampleRateHz: rate),
                                        delaySamples: settle, hopSamples: hop)
        gravity = [Biquad](repeating: .butterworthLowPass(cutoffHz: d.gravityCutoffHz, sampleRateHz: rate), count: 3)
        swing = StepSwingFilter(cutoffHz: d.peakToPeakCutoffHz, sampleRateHz: rate)
        swingDelay = Int((swing.delaySeconds * rate).rounded())
        var n = 1
        while n < 2 * span + 2 * spacing + hop + settle + 4 { n *= 2 }
        ringMask = n - 1
        filtered = [Double](repeating: 0, count: n)
        threshold = [Double](repeating: 0, count: n)
        swingRing = [Double](repeating: 0, count: n)
        var m = 1
        while Double(m) < Self.verticalSeconds * rate { m *= 2 }
        verticalMask = m - 1
        verticalRing = [Double](repeating: 0, count: m)
        accelerationRing = [Double](repeating: 0, count: 3 * m)
        stepTimes = [Double](repeating: 0, count: Self.stepCapacity)
        stepPeakToPeak = [Double](repeating: 0, count: Self.stepCapacity)
        stepSwingThrough = [Double](repeating: 0, count: Self.stepCapacity)
        stillness = StillnessDetector(rateHz: rate)
        movingRing = [Bool](repeating: false, count: n)
        quieterRatio = d.quieterActivityRatio
        // An infinite (or NaN) bout gap never starts the scale again.
        restartStillSamples = Swift.max(1, OfflineStepDetector.sampleCount(d.boutGapSeconds, rateHz: rate))
        // An endless (or NaN) window is no window: the rule is off (`activityWidth` 0).
        let width = OfflineStepDetector.sampleCount(s.quieterWindowSeconds, rateHz: rate)
        activityWidth = width == Int.max ? 0 : Swift.max(1, width)
        activityLeast = Swift.max(1, d.sideWindowMovingFraction * Double(activityWidth))
        var q = 1
        while q <= activityWidth { q *= 2 }
        activityMask = q - 1
        activityFiltered = [Double](repeating: 0, count: q)
        activityMoving = [Bool](repeating: false, count: q)
    }

    /// Every peak before this time (s, input clock) has been reported; −∞ before any sample.
    public var decidedUntil: Seconds {
        t0.isNaN ? -.infinity : ended ? .infinity : t0 + Double(examined) / rate
    }

    /// Peaks reported so far.
    public var steps: Int { stepCount }

    /// The `n`-th reported peak (0: the first): time (s), peak-to-peak (the range of the swing
    /// signal, `StepSwingFilter`, since the previous peak, at most 2 s back: the step's swing for
    /// its length), the swing through the peak (that range carried on by the swing filter's
    /// delay after the peak: a walk's first peak shows its own rise only there).
    public func reportedStep(_ n: Int) -> (time: Seconds, peakToPeak: MetersPerSecondSquared, swingThrough: MetersPerSecondSquared) {
        precondition(n >= 0 && n < stepCount && n >= stepCount - Self.stepCapacity, "peak index out of range")
        let j = n % Self.stepCapacity
        return (stepTimes[j], stepPeakToPeak[j], stepSwingThrough[j])
    }

    /// Whether a reported peak lies within `tolerance` (s) of `time` (among the last 128).
    public func hasStep(near time: Seconds, within tolerance: Seconds) -> Bool {
        ringHasTime(stepTimes, count: stepCount, near: time, within: tolerance)
    }

    /// How periodic the unfiltered acceleration along gravity is between `start` and `end` (s,
    /// input clock) at a period near `period` (s): the largest normalised autocorrelation
    /// (each side's mean removed) over lags within 10 % of it, each sample from `start` to
    /// `end` paired with the one a lag later (as far as samples have come). 1 for a signal
    /// that repeats itself; near 0 for jolts at random times, however regular the band-pass
    /// makes them look. 0 when fewer than a period of samples are kept.
    public func periodicity(from start: Seconds, to end: Seconds, period: Seconds) -> Double {
        guard !t0.isNaN, period > 0 else { return 0 }
        let (i0, last) = keptSpan(from: start, to: end), newest = band.count - 1
        let lag0 = Swift.max(1, Int((0.9 * period * rate).rounded())), lag1 = Int((1.1 * period * rate).rounded())
        var best = 0.0
        for lag in lag0...Swift.max(lag0, lag1) {
            let i1 = Swift.min(last, newest - lag)
            guard i1 - i0 >= lag else { continue }
            var sa = 0.0, sb = 0.0
            for i in i0...i1 { sa += verticalRing[i & verticalMask]; sb += verticalRing[(i + lag) & verticalMask] }
            let n = Double(i1 - i0 + 1), ma = sa / n, mb = sb / n
            var ab = 0.0, aa = 0.0, bb = 0.0
            for i in i0...i1 {
                let x = verticalRing[i & verticalMask] - ma, y = verticalRing[(i + lag) & verticalMask] - mb
                ab += x * y; aa += x * x; bb += y * y
            }
            if aa > 0 && bb > 0 { best = Swift.max(best, ab / (aa * bb).squareRoot()) }
        }
        return best
    }

    /// The share of the time between `start` and `end` (s, input clock) that the unfiltered
    /// acceleration along gravity lies more than a fifth of its largest excursion from its
    /// mean there: near 0.9 for a sinusoid, about the impulses' share of the time for jolts
    /// with stillness between them. 0 before samples have come.
    public func motionShare(from start: Seconds, to end: Seconds) -> Double {
        guard !t0.isNaN else { return 0 }
        let (i0, i1) = keptSpan(from: start, to: end)
        guard i1 > i0 else { return 0 }
        var sum = 0.0
        for i in i0...i1 { sum += verticalRing[i & verticalMask] }
        let mean = sum / Double(i1 - i0 + 1)
        var mx = 0.0
        for i in i0...i1 { mx = Swift.max(mx, Swift.abs(verticalRing[i & verticalMask] - mean)) }
        var n = 0
        for i in i0...i1 where Swift.abs(verticalRing[i & verticalMask] - mean) > 0.2 * mx { n += 1 }
        return Double(n) / Double(i1 - i0 + 1)
    }

    /// The unit direction of the mean acceleration (gravity included) between `start` and `end`
    /// (s, input clock), over the samples still kept; zero when none are. Over one stride a
    /// walk's own oscillation averages out and gravity's direction in the device is left, as it
    /// was then: a low-pass (the projection's) still turns for seconds after the device did.
    public func meanDirection(from start: Seconds, to end: Seconds) -> Vector3 {
        guard !t0.isNaN else { return .zero }
        let (i0, i1) = keptSpan(from: start, to: end)
        guard i1 >= i0 else { return .zero }
        var sum = Vector3.zero
        for i in i0...i1 {
            let r = 3 * (i & verticalMask)
            sum = sum + Vector3(accelerationRing[r], accelerationRing[r + 1], accelerationRing[r + 2])
        }
        let norm = sum.norm
        return norm > 0 ? sum / norm : .zero
    }

    /// The grid indexes of the samples from `start` to `end` (s, input clock) that the rings of
    /// `verticalMask` (the unfiltered vertical acceleration and the acceleration) still hold:
    /// the first and the last (last < first when none). `t0` must be set.
    func keptSpan(from start: Seconds, to end: Seconds) -> (first: Int, last: Int) {
        let newest = band.count - 1, oldest = Swift.max(0, band.count - verticalMask)
        return (Swift.max(oldest, Int(((start - t0) * rate).rounded())), Swift.min(newest, Int(((end - t0) * rate).rounded())))
    }

    /// One acceleration sample (m/s², gravity included; times increasing). Returns the number
    /// of peaks reported by it.
    @discardableResult
    public mutating func push(_ a: Vector3, time t: Seconds) -> Int {
        guard t.isFinite, a.isFinite, !ended else { return 0 }
        let before = stepCount
        if t0.isNaN {
            t0 = t; previousTime = t; previous = a
            gravity[0].prime(with: a.x); gravity[1].prime(with: a.y); gravity[2].prime(with: a.z)
            swing.prime(with: a)
            grid(a)
            return stepCount - before
        }
        guard t > previousTime else { return 0 }
        // Linear interpolation onto the grid t0 + k / rate up to t.
        while true {
            let tk = t0 + Double(band.count) / rate
            guard tk <= t else { break }
            let w = (tk - previousTime) / (t - previousTime)
            grid(previous + (a - previous) * Swift.min(Swift.max(w, 0), 1))
        }
        previousTime = t; previous = a
        return stepCount - before
    }

    /// The end of the input: the newest samples become final and their peaks are reported.
    public mutating func finish() {
        guard !ended else { return }
        band.finish()
        takeFinal(ended: true)
        ended = true
    }

    mutating func grid(_ a: Vector3) {
        let g = Vector3(gravity[0].process(a.x), gravity[1].process(a.y), gravity[2].process(a.z))
        let gn = g.norm
        swingRing[band.count & ringMask] = swing.process(a)
        let vertical = gn > 0 ? a.dot(g) / gn : 0
        verticalRing[band.count & verticalMask] = vertical
        let r = 3 * (band.count & verticalMask)
        accelerationRing[r] = a.x; accelerationRing[r + 1] = a.y; accelerationRing[r + 2] = a.z
        // The stillness test over the window ending here, for the sample at its centre (the
        // newest samples, whose window has not come when the input ends, count as still; so
        // do those before the first full window).
        movingRing[band.count & ringMask] = false
        let still = stillness.push(accelerationMagnitude: a.norm, rotationRateMagnitude: 0)
        let centre = band.count - stillness.windowLength / 2
        if centre >= 0 { movingRing[centre & ringMask] = stillness.accelerationStd.isFinite && !still }
        if band.push(vertical) > 0 { takeFinal(ended: false) }
    }

    /// Takes the band-passed samples that became final, then looks for peaks.
    mutating func takeFinal(ended final: Bool) {
        while finalCount < band.finalCount {
            let v = band.output(finalCount)
            let moving = movingRing[finalCount & ringMask]
            // The first moving sample after a pause starts the mean square again.
            let restart = finalCount == 0 || (moving && stillRun >= restartStillSamples)
            stillRun = moving ? 0 : stillRun + 1
            let a = v * v >= meanSquare ? alpha : alphaFall
            meanSquare = restart ? v * v : meanSquare + a * (v * v - meanSquare)
            filtered[finalCount & ringMask] = v
            threshold[finalCount & ringMask] = fraction * scale(adding: v, moving: moving)
            finalCount += 1
        }
        // A sample is examined once its right-hand span (and the spacing's) is final.
        let last = final ? finalCount - 1 : finalCount - 1 - Swift.max(span, spacing)
        while examined < last {
            if isPeak(examined) { report(examined) }
            examined += 1
        }
    }

    /// The scale of the final sample `finalCount` (filtered value `v`): the running root mean
    /// square, or the deviation of the moving samples of the last `activityWidth` when that is
    /// quieter by `quieterRatio` (see the type's description).
    mutating func scale(adding v: Double, moving: Bool) -> Double {
        guard activityWidth > 0 else { return meanSquare.squareRoot() }
        let k = finalCount & activityMask
        if finalCount >= activityWidth {
            // The sample leaving the window.
            let j = (finalCount - activityWidth) & activityMask
            if activityMoving[j] {
                let o = activityFiltered[j]
                activityCount -= 1; activitySum -= o; activitySquares -= o * o
            }
        }
        activityFiltered[k] = v
        activityMoving[k] = moving
        if moving { activityCount += 1; activitySum += v; activitySquares += v * v }
        let running = meanSquare.squareRoot()
        guard activityCount >= activityLeast else { return running }
        let mean = activitySum / activityCount
        let local = Swift.max(0, activitySquares / activityCount - mean * mean).squareRoot()
        return local > 0 && local < quieterRatio * running ? local : running
    }

    mutating func report(_ p: Int) {
        let j = stepCount % Self.stepCapacity
        stepTimes[j] = t0 + Double(p) / rate
        // The swing since the previous peak (as the pedometer measures its steps'), and the
        // same range carried on by the swing filter's delay (at most up to the newest grid
        // sample): through the peak's own rise, which a walk's first peak has only there.
        let from = Swift.min(Swift.max(lastPeak, p - Int(2 * rate), band.count - ringMask, 0), p)
        var lo = Double.infinity, hi = -Double.infinity
        for k in from...p { let v = swingRing[k & ringMask]; lo = Swift.min(lo, v); hi = Swift.max(hi, v) }
        stepPeakToPeak[j] = hi - lo
        for k in Swift.stride(from: p + 1, through: Swift.min(p + swingDelay, band.count - 1), by: 1) {
            let v = swingRing[k & ringMask]; lo = Swift.min(lo, v); hi = Swift.max(hi, v)
        }
        stepSwingThrough[j] = hi - lo
        lastPeak = p
        stepCount += 1
    }

    func f(_ k: Int) -> Double { filtered[k & ringMask] }

    /// A local maximum with no higher local maximum closer than the spacing (of equal ones
    /// the earlier), whose prominence within the span reaches its threshold.
    func isPeak(_ p: Int) -> Bool {
        let h = f(p)
        guard h > f(p - 1) && h >= f(p + 1) else { return false }
        let lo = Swift.max(1, p - spacing + 1, finalCount - ringMask), hi = Swift.min(finalCount - 2, p + spacing - 1)
        if lo <= hi {
            for k in lo...hi where k != p {
                let v = f(k)
                if (v > h || (v == h && k < p)) && v > f(k - 1) && v >= f(k + 1) { return false }
            }
        }
        let first = Swift.max(0, p - span, finalCount - ringMask), lastIndex = Swift.min(finalCount - 1, p + span)
        var leftMin = h, k = p - 1
        while k >= first && f(k) <= h { leftMin = Swift.min(leftMin, f(k)); k -= 1 }
        var rightMin = h
        k = p + 1
        while k <= lastIndex && f(k) <= h { rightMin = Swift.min(rightMin, f(k)); k += 1 }
        return h - Swift.max(leftMin, rightMin) >= threshold[p & ringMask]
    }
}

/// Whether one of the times in `ring` (a ring of increasing times, `count` written so far, the
/// newest at `(count − 1) % ring.count`) lies within `tolerance` of `time`: searched from the
/// newest back, stopping at the first one too old.
func ringHasTime(_ ring: [Double], count: Int, near time: Double, within tolerance: Double) -> Bool {
    var k = count - 1
    while k >= 0 && k >= count - ring.count {
        let s = ring[k % ring.count]
        if Swift.abs(s - time) <= tolerance { return true }
        if s < time - tolerance { return false }
        k -= 1
    }
    return false
}
