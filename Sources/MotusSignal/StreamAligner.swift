import MotusCore

/// One stream's values inside an `AlignedSegment`.
public struct AlignedChannel: Sendable, Equatable {
    /// The stream's name.
    public var name: String
    /// The stream's kind.
    public var kind: StreamKind
    /// Values per sample.
    public var width: Int
    /// `values[i * width + c]` for grid sample `i` of the segment; SI units of the stream.
    public var values: [Double]
    /// Component `c` at grid sample `i`.
    @inlinable public func value(_ i: Int, _ c: Int) -> Double { values[i * width + c] }
}

/// A stretch of the common fixed-rate timeline where every stream has a value.
public struct AlignedSegment: Sendable, Equatable {
    /// The common rate (Hz).
    public var rateHz: Hertz
    /// Origin of the grid (s, reference clock).
    public var originSeconds: Seconds
    /// Grid index of the first sample (time = origin + index / rate on the reference clock).
    public var firstIndex: Int
    /// Grid samples in the segment.
    public var count: Int
    /// One channel per input stream, in input order.
    public var channels: [AlignedChannel]
    /// One past the grid index of the last sample.
    @inlinable public var endIndex: Int { firstIndex + count }
    /// Time (s) of grid sample `i` of the segment.
    @inlinable public func time(_ i: Int) -> Seconds { originSeconds + Double(firstIndex + i) / rateHz }
    /// Time (s) of the first sample.
    @inlinable public var start: Seconds { time(0) }
}

/// Puts several streams onto one fixed-rate clock.
public enum StreamAligner {
    /// Resamples every stream on the grid of `settings` (each interpolated as
    /// `settings.interpolation` or naturally for its kind), after adding `offsetsSeconds[s]` to
    /// stream `s`'s timestamps (empty: no offsets), and keeps the grid points where **all**
    /// streams have a value: the intersection of their coverage, split wherever any stream has
    /// a gap longer than `settings.maxGapSeconds`.
    ///
    /// Streams must be cleaned (finite, strictly increasing times). O(total samples +
    /// outputs × streams). Returns segments in time order; empty when the streams never overlap.
    public static func align(_ streams: [SensorStream], offsetsSeconds: [Seconds] = [], settings: ResamplerSettings) -> [AlignedSegment] {
        precondition(offsetsSeconds.isEmpty || offsetsSeconds.count == streams.count, "one offset per stream")
        guard !streams.isEmpty else { return [] }
        let per: [[ResampledSegment]] = streams.indices.map { s in
            Resampler.resample(streams[s], settings: settings, offsetSeconds: offsetsSeconds.isEmpty ? 0 : offsetsSeconds[s])
        }
        // Intersect the index ranges, stream by stream.
        var common: [Range<Int>] = per[0].map { $0.firstIndex..<$0.endIndex }
        for s in 1..<per.count {
            let other = per[s].map { $0.firstIndex..<$0.endIndex }
            common = intersect(common, other)
        }
        var out: [AlignedSegment] = []
        out.reserveCapacity(common.count)
        var cursor = [Int](repeating: 0, count: streams.count)
        for r in common {
            var channels: [AlignedChannel] = []
            for s in streams.indices {
                // Find the resampled segment of stream s containing r (they are sorted).
                while per[s][cursor[s]].endIndex < r.upperBound { cursor[s] += 1 }
                let seg = per[s][cursor[s]]
                let w = seg.width
                let a = (r.lowerBound - seg.firstIndex) * w, b = (r.upperBound - seg.firstIndex) * w
                channels.append(AlignedChannel(name: streams[s].name, kind: streams[s].kind, width: w, values: Array(seg.values[a..<b])))
            }
            out.append(AlignedSegment(rateHz: settings.rateHz, originSeconds: settings.originSeconds,
                                      firstIndex: r.lowerBound, count: r.count, channels: channels))
        }
        return out
    }

    /// Intersection of two sorted lists of disjoint ranges. O(a + b).
    static func intersect(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        var i = 0, j = 0
        var out: [Range<Int>] = []
        while i < a.count && j < b.count {
            let lo = max(a[i].lowerBound, b[j].lowerBound), hi = min(a[i].upperBound, b[j].upperBound)
            if lo < hi { out.append(lo..<hi) }
            if a[i].upperBound < b[j].upperBound { i += 1 } else { j += 1 }
        }
        return out
    }
}

/// The clock offset between two streams found by cross-correlation.
public struct ClockOffsetEstimate: Sendable, Hashable {
    /// Seconds to **add** to the other stream's timestamps to put it on the reference clock
    /// (pass it as that stream's entry in `StreamAligner.align(offsetsSeconds:)`).
    public var offsetSeconds: Seconds
    /// Pearson correlation of the derived signals at the best integer lag, in [−1, 1].
    public var correlation: Double
    /// Grid samples compared at the best lag.
    public var overlapSamples: Int
    /// True when the best lag is at ±maxLag: the true offset may lie beyond the search range.
    public var atSearchLimit: Bool
}

/// Estimates the offset between the clocks of two streams that see the same motion.
public enum ClockOffsetEstimator {
    /// The scalar signal correlated.
    public enum DerivedSignal: Sendable, Hashable {
        /// Euclidean norm of the sample (orientation-free: works across sensors that are not
        /// aligned, e.g. accelerometers of two devices on one body).
        case magnitude
        /// One component.
        case component(Int)
    }

    /// Resamples both streams on a grid of `rateHz` (origin 0, `maxGapSeconds` as for
    /// resampling), derives a scalar per grid point, and finds the integer lag in
    /// [−maxLag, +maxLag] with the highest Pearson correlation over the grid points both cover;
    /// the peak is refined to a fraction of a sample with a parabola through the correlation
    /// at the best lag and its two neighbours.
    ///
    /// - Returns: nil when no lag has at least `minOverlapSeconds` of common data.
    /// - Complexity: O(n × lags), n = grid points of the common span, lags = 2 × maxLag × rate + 1.
    /// - Precision: the sub-sample refinement is good to a small fraction of 1/rateHz when the
    ///   signal has content near the rate; the resampling grid sets the floor.
    public static func estimate(reference: SensorStream, other: SensorStream, rateHz: Hertz = 100,
                                maxLagSeconds: Seconds = 1, signal: DerivedSignal = .magnitude,
                                maxGapSeconds: Seconds = 0.1, minOverlapSeconds: Seconds = 2) -> ClockOffsetEstimate? {
        let settings = ResamplerSettings(rateHz: rateHz, originSeconds: 0, maxGapSeconds: maxGapSeconds)
        guard let (x0, x) = dense(reference, settings, signal), let (y0, y) = dense(other, settings, signal) else { return nil }
        let maxLag = Int((maxLagSeconds * rateHz).rounded(.down))
        let minOverlap = max(3, Int(minOverlapSeconds * rateHz))
        var corr = [Double](repeating: .nan, count: 2 * maxLag + 1)
        var overlaps = [Int](repeating: 0, count: 2 * maxLag + 1)
        // x at grid k, y at grid k + L: correlation of reference(t) with other(t + L / rate).
        for li in 0..<(2 * maxLag + 1) {
            let L = li - maxLag
            let kLo = max(x0, y0 - L), kHi = min(x0 + x.count, y0 + y.count - L)
            if kHi - kLo < minOverlap { continue }
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, m = 0
            for k in kLo..<kHi {
                let a = x[k - x0], b = y[k + L - y0]
                if a.isNaN || b.isNaN { continue }
                sx += a; sy += b; sxx += a * a; syy += b * b; sxy += a * b; m += 1
            }
            if m < minOverlap { continue }
            let fm = Double(m)
            let cov = sxy - sx * sy / fm, vx = sxx - sx * sx / fm, vy = syy - sy * sy / fm
            if vx > 0 && vy > 0 { corr[li] = cov / (vx * vy).squareRoot(); overlaps[li] = m }
        }
        var best = -1
        for li in corr.indices where !corr[li].isNaN && (best < 0 || corr[li] > corr[best]) { best = li }
        guard best >= 0 else { return nil }
        var lag = Double(best - maxLag)
        if best > 0 && best < corr.count - 1, !corr[best - 1].isNaN, !corr[best + 1].isNaN {
            let a = corr[best - 1], b = corr[best], c = corr[best + 1]
            let den = a - 2 * b + c
            if den < 0 { lag += 0.5 * (a - c) / den }
        }
        return ClockOffsetEstimate(offsetSeconds: -lag / rateHz, correlation: corr[best], overlapSamples: overlaps[best],
                                   atSearchLimit: best == 0 || best == corr.count - 1)
    }

    /// The derived signal on the grid from the first to the last covered index, NaN in gaps.
    static func dense(_ s: SensorStream, _ settings: ResamplerSettings, _ signal: DerivedSignal) -> (Int, [Double])? {
        let segs = Resampler.resample(s, settings: ResamplerSettings(rateHz: settings.rateHz, originSeconds: settings.originSeconds,
                                                                     maxGapSeconds: settings.maxGapSeconds, interpolation: .linear))
        guard let first = segs.first, let last = segs.last else { return nil }
        var out = [Double](repeating: .nan, count: last.endIndex - first.firstIndex)
        for seg in segs {
            for i in 0..<seg.count {
                let v: Double
                switch signal {
                case .magnitude:
                    var ss = 0.0
                    for c in 0..<seg.width { let e = seg.value(i, c); ss += e * e }
                    v = ss.squareRoot()
                case .component(let c):
                    v = seg.value(i, c)
                }
                out[seg.firstIndex + i - first.firstIndex] = v
            }
        }
        return (first.firstIndex, out)
    }
}
