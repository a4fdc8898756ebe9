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
///   threshold is `prominenceFraction` times the root mean square of the filtered signal over
///   the last `amplitudeTimeConstantSeconds` (an exponential mean), where the whole-file
///   detector uses the whole signal's standard deviation.
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
        /// Time constant (s) of the filtered signal's running mean square (the peak threshold's scale).
        public var amplitudeTimeConstantSeconds: Seconds = 30
        /// The defaults.
        public init() {}
        /// The defaults.
        public static let `default` = Settings()
    }

    let rate: Double, span: Int, spacing: Int
    let fraction: Double, alpha: Double
    var gravity: [Biquad]
    // The grid: the first sample's time, the previous input.
    var t0 = Double.nan, previousTime = Double.nan, previous = Vector3.zero
    /// The band-pass of the vertical acceleration on the grid.
    var band: StreamingZeroPhaseFilter
    /// Final filtered samples and their peak thresholds (ring, `ringLength`, a power of two).
    var filtered: [Double], threshold: [Double]
    let ringMask: Int
    var finalCount = 0, examined = 1, meanSquare = 0.0
    /// Reported peak times, newest last (ring of `stepCapacity`).
    var stepTimes: [Double]
    var stepCount = 0
    static let stepCapacity = 128
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
        band = StreamingZeroPhaseFilter(.butterworthBandPass(order: 4, lowHz: d.bandLowHz, highHz: d.bandHighHz, sampleRateHz: rate),
                                        delaySamples: settle, hopSamples: hop)
        gravity = [Biquad](repeating: .butterworthLowPass(cutoffHz: d.gravityCutoffHz, sampleRateHz: rate), count: 3)
        var n = 1
        while n < 2 * span + 2 * spacing + hop + settle + 4 { n *= 2 }
        ringMask = n - 1
        filtered = [Double](repeating: 0, count: n)
        threshold = [Double](repeating: 0, count: n)
        stepTimes = [Double](repeating: 0, count: Self.stepCapacity)
    }

    /// Every peak before this time (s, input clock) has been reported; −∞ before any sample.
    public var decidedUntil: Seconds {
        t0.isNaN ? -.infinity : ended ? .infinity : t0 + Double(examined) / rate
    }

    /// Peaks reported so far.
    public var steps: Int { stepCount }

    /// Whether a reported peak lies within `tolerance` (s) of `time` (among the last 128).
    public func hasStep(near time: Seconds, within tolerance: Seconds) -> Bool {
        var k = stepCount - 1
        while k >= 0 && k >= stepCount - Self.stepCapacity {
            let s = stepTimes[k % Self.stepCapacity]
            if Swift.abs(s - time) <= tolerance { return true }
            if s < time - tolerance { return false }
            k -= 1
        }
        return false
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
        if band.push(gn > 0 ? a.dot(g) / gn : 0) > 0 { takeFinal(ended: false) }
    }

    /// Takes the band-passed samples that became final, then looks for peaks.
    mutating func takeFinal(ended final: Bool) {
        while finalCount < band.finalCount {
            let v = band.output(finalCount)
            meanSquare = finalCount == 0 ? v * v : meanSquare + alpha * (v * v - meanSquare)
            filtered[finalCount & ringMask] = v
            threshold[finalCount & ringMask] = fraction * meanSquare.squareRoot()
            finalCount += 1
        }
        // A sample is examined once its right-hand span (and the spacing's) is final.
        let last = final ? finalCount - 1 : finalCount - 1 - Swift.max(span, spacing)
        while examined < last {
            if isPeak(examined) {
                stepTimes[stepCount % Self.stepCapacity] = t0 + Double(examined) / rate
                stepCount += 1
            }
            examined += 1
        }
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
