import MotusCore

/// What a device sampling at another rate would have recorded, to try an algorithm at the rates
/// real devices use (10–400 Hz) on recordings made at one rate.
extension SensorStream {
    /// This stream as a device sampling at `rateHz` would give it.
    ///
    /// - Below the stream's own rate (its median interval's), each component is first low-passed
    ///   at 0.4 × `rateHz`, forwards and backwards (`filteredZeroPhase`, so no sample moves in
    ///   time), by two second-order Butterworth sections: −21 dB at the new Nyquist frequency,
    ///   as a sensor's anti-alias filter would (a component at a fifth of `rateHz` keeps 89 %
    ///   of its amplitude). At or above it nothing is filtered: a faster
    ///   grid adds no information, only interpolated samples.
    /// - Then the samples are taken on the grid `t₀ + k / rateHz` (t₀ the first sample's time)
    ///   by `Resampler` (straight lines; slerp for an attitude), with no sample inside an
    ///   interval longer than `maximumGapSeconds`: a gap of the recording stays a gap.
    ///
    /// The filter runs over each stretch between such gaps on its own. Streams of other kinds
    /// than acceleration, user acceleration, gravity, rotation rate, magnetic field and
    /// attitude (a step counter, locations, pressure) are returned unchanged, as are streams of
    /// fewer than two samples. Attitudes are interpolated, not filtered.
    /// Precondition: `rateHz` finite and > 0, `maximumGapSeconds` > 0.
    public func resampledAsDevice(rateHz: Hertz, maximumGapSeconds: Seconds = 0.5) -> SensorStream {
        precondition(rateHz.isFinite && rateHz > 0, "rateHz must be finite and > 0")
        precondition(maximumGapSeconds > 0, "maximumGapSeconds must be > 0")
        switch kind {
        case .acceleration, .userAcceleration, .gravity, .rotationRate, .magneticField, .attitude: break
        default: return self
        }
        guard count > 1, let t0 = times.first else { return self }
        var intervals: [Double] = []
        intervals.reserveCapacity(count - 1)
        for i in 1..<count where times[i] > times[i - 1] { intervals.append(times[i] - times[i - 1]) }
        guard !intervals.isEmpty else { return self }
        intervals.sort()
        let ownRate = 1 / TimingStatistics.percentile(intervals, 0.5)
        let lowPass: BiquadCascade? = kind != .attitude && rateHz < ownRate
            ? BiquadCascade(sections: [Biquad](repeating: .butterworthLowPass(cutoffHz: 0.4 * rateHz, sampleRateHz: ownRate), count: 2))
            : nil
        let settings = ResamplerSettings(rateHz: rateHz, originSeconds: t0, maxGapSeconds: maximumGapSeconds)
        var out = SensorStream(kind: kind, name: name)
        out.reserveCapacity(Int(Swift.min((duration * rateHz).rounded(.up) + 1, Double(1 << 28))))
        // The stretches between gaps (and between times that do not increase, which the
        // resampler skips anyway), each filtered and resampled on its own.
        var start = 0
        var row = [Double](repeating: 0, count: width)
        for end in 1...count where end == count || !(times[end] > times[end - 1] && times[end] - times[end - 1] <= maximumGapSeconds) {
            let n = end - start
            var values = Array(self.values[(start * width)..<(end * width)])
            if let lowPass, n > 1 {
                for c in 0..<width {
                    let component = lowPass.filteredZeroPhase((0..<n).map { values[$0 * width + c] })
                    for i in 0..<n { values[i * width + c] = component[i] }
                }
            }
            for segment in Resampler.resample(times: Array(times[start..<end]), values: values, width: width, settings: settings,
                                              interpolation: .natural(for: kind)) {
                for i in 0..<segment.count {
                    for c in 0..<width { row[c] = segment.value(i, c) }
                    out.append(time: segment.time(i), row)
                }
            }
            start = end
        }
        return out
    }
}

/// A whole recording as a device sampling at another rate would have recorded it.
extension Recording {
    /// The recording as a device sampling its inertial streams at `rateHz` would have given
    /// it: every stream through `SensorStream.resampledAsDevice(rateHz:maximumGapSeconds:)`
    /// (acceleration, user acceleration, gravity, rotation rate, magnetic field, attitude;
    /// the others, labels and events unchanged), its nominal rate `rateHz`. Precondition:
    /// `rateHz` finite and > 0.
    public func resampledAsDevice(rateHz: Hertz, maximumGapSeconds: Seconds = 0.5) -> Recording {
        var r = self
        r.streams = streams.map { $0.resampledAsDevice(rateHz: rateHz, maximumGapSeconds: maximumGapSeconds) }
        r.metadata.nominalRateHz = rateHz
        return r
    }
}
