import MotusCore

/// What a device sampling at another rate would have recorded, to try an algorithm at the rates
/// real devices use (10–400 Hz) on recordings made at one rate.
extension SensorStream {
    /// This stream as a device sampling at `rateHz` would give it.
    ///
    /// - Below the stream's own rate (its median interval's), each component is first low-passed
    ///   at 0.4 × `rateHz` by two second-order Butterworth sections run forwards in time, each
    ///   started in the steady state of the stretch's first value, as a sensor's own anti-alias
    ///   filter runs: about −11 dB at the new Nyquist frequency, a component at a fifth of
    ///   `rateHz` keeps 91 % of its amplitude, and the output lags the input by about one
    ///   period of the new rate (1.1 / `rateHz` at low frequencies), as a slower sensor's
    ///   output lags the motion (a filter run forwards and backwards would give a lag-free
    ///   sensor, which no device is; sensor fusion is judged by that lag). At or above the stream's own rate
    ///   nothing is filtered: a faster grid adds no information, only interpolated samples.
    ///   `antiAlias` false leaves the filter out (a reference, or a device's own fusion output,
    ///   which a slower device would sample as it is).
    /// - Then the samples are taken on the grid `t₀ + k / rateHz` (t₀ `originSeconds`, by
    ///   default the first sample's time; streams resampled with one origin share their grid
    ///   times exactly) by `Resampler` (straight lines; slerp for an attitude), with no sample
    ///   inside an interval longer than `maximumGapSeconds`: a gap of the recording stays a gap.
    ///
    /// The filter runs over each stretch between such gaps on its own. Streams of other kinds
    /// than acceleration, user acceleration, gravity, rotation rate, magnetic field and
    /// attitude (a step counter, locations, pressure) are returned unchanged, as are streams of
    /// fewer than two samples. Attitudes are interpolated, not filtered.
    /// Precondition: `rateHz` finite and > 0, `maximumGapSeconds` > 0.
    public func resampledAsDevice(rateHz: Hertz, originSeconds: Seconds? = nil, maximumGapSeconds: Seconds = 0.5,
                                  antiAlias: Bool = true) -> SensorStream {
        precondition(rateHz.isFinite && rateHz > 0, "rateHz must be finite and > 0")
        precondition(maximumGapSeconds > 0, "maximumGapSeconds must be > 0")
        precondition(originSeconds?.isFinite ?? true, "originSeconds must be finite")
        guard isResampledAsDevice, count > 1, let t0 = times.first,
              let period = TimingStatistics.medianPositiveInterval(times) else { return self }
        let ownRate = 1 / period
        let lowPass: BiquadCascade? = antiAlias && kind != .attitude && rateHz < ownRate
            ? BiquadCascade(sections: [Biquad](repeating: .butterworthLowPass(cutoffHz: 0.4 * rateHz, sampleRateHz: ownRate), count: 2))
            : nil
        let settings = ResamplerSettings(rateHz: rateHz, originSeconds: originSeconds ?? t0, maxGapSeconds: maximumGapSeconds)
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
                    // Forwards only, from the steady state of the stretch's first value.
                    var component = (0..<n).map { values[$0 * width + c] }
                    lowPass.run(&component)
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
    /// the others, labels and events unchanged), its nominal rate `rateHz`; a measured
    /// reference (a stream whose name starts with `reference`) by `resampledAsReference`. One
    /// grid for every stream, so streams that shared their timestamps still do: it starts at
    /// `resampledAsDeviceOrigin`, shifted by `gridPhase` periods of the new rate (0 ≤
    /// `gridPhase` < 1). A device that started sampling a fraction of a period later would have
    /// taken its samples there; the shift shows how much a result owes to where the samples
    /// happen to fall.
    /// Precondition: `rateHz` finite and > 0, `gridPhase` in [0, 1).
    public func resampledAsDevice(rateHz: Hertz, maximumGapSeconds: Seconds = 0.5, gridPhase: Double = 0) -> Recording {
        precondition(gridPhase >= 0 && gridPhase < 1, "gridPhase must lie in [0, 1)")
        var r = self
        let origin = resampledAsDeviceOrigin(rateHz: rateHz, gridPhase: gridPhase)
        r.streams = streams.map {
            // A measured reference (a stream named `reference…`, as BROAD's optical motion
            // capture) is no device output: taken on the grid as it is, holes kept.
            $0.isMeasuredReference ? $0.resampledAsReference(rateHz: rateHz, originSeconds: origin)
                : $0.resampledAsDevice(rateHz: rateHz, originSeconds: origin, maximumGapSeconds: maximumGapSeconds)
        }
        r.metadata.nominalRateHz = rateHz
        return r
    }

    /// The origin of the grid `resampledAsDevice` puts every stream on: the earliest first sample
    /// of the streams it resamples (0 when there is none).
    public var resampledAsDeviceOrigin: Seconds {
        streams.compactMap { $0.isResampledAsDevice ? $0.times.first : nil }.min() ?? 0
    }

    /// The origin of the grid of `resampledAsDevice(rateHz:maximumGapSeconds:gridPhase:)`:
    /// `resampledAsDeviceOrigin` plus `gridPhase` / `rateHz` (s).
    public func resampledAsDeviceOrigin(rateHz: Hertz, gridPhase: Double) -> Seconds {
        resampledAsDeviceOrigin + gridPhase / rateHz
    }
}

/// A measured reference on a device's grid, and the kinds a device's rate applies to.
extension SensorStream {
    /// A measured reference (optical motion capture's orientation, a device's own gravity
    /// estimate) on the grid of `resampledAsDevice`: interpolated without a filter (slerp for
    /// an attitude), with no sample where the stream has a hole of more than one and a half of
    /// its own periods, so that nothing is made up where the measurement was lost.
    public func resampledAsReference(rateHz: Hertz, originSeconds: Seconds? = nil) -> SensorStream {
        guard let period = TimingStatistics.medianPositiveInterval(times) else { return self }
        return resampledAsDevice(rateHz: rateHz, originSeconds: originSeconds, maximumGapSeconds: 1.5 * period, antiAlias: false)
    }

    /// Whether `resampledAsDevice` resamples a stream of this kind (the inertial streams and
    /// attitudes; not step counters, locations or pressure).
    var isResampledAsDevice: Bool {
        switch kind {
        case .acceleration, .userAcceleration, .gravity, .rotationRate, .magneticField, .attitude: true
        default: false
        }
    }
}
