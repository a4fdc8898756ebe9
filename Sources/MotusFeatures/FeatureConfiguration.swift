import MotusCore

/// A scalar signal derived from each `MotionFrame`, on which window features are computed.
///
/// The first five do not depend on how the phone sits in a pocket or hand (they use only
/// norms and the direction of gravity); the raw axes do, and are there for when the user asks.
/// Units: m/s² for acceleration channels, rad/s for rotation channels.
public enum FeatureChannel: String, Codable, Sendable, CaseIterable, Hashable {
    /// |a|: norm of the raw acceleration, gravity included (about 9.81 at rest).
    case accelerationMagnitude = "accMag"
    /// |a − g|: norm of the user acceleration (about 0 at rest).
    case userAccelerationMagnitude = "uaccMag"
    /// (a − g)·ĝ = a·ĝ − |g|: user acceleration along "up" (ĝ = gravity / |gravity|, gravity
    /// points up in the device frame). About 0 at rest; positive when accelerating upwards.
    /// 0 when the gravity vector is zero (unknown).
    case verticalAcceleration = "accVert"
    /// |a − (a·ĝ)ĝ|: norm of the acceleration across gravity (equal for a and a − g, since g is
    /// along ĝ). |a| when the gravity vector is zero (unknown).
    case horizontalAccelerationMagnitude = "accHoriz"
    /// |ω|: norm of the rotation rate.
    case rotationRateMagnitude = "gyroMag"
    /// Raw acceleration axes (device frame, gravity included).
    case accelerationX = "accX", accelerationY = "accY", accelerationZ = "accZ"
    /// Raw rotation-rate axes (device frame).
    case rotationRateX = "gyroX", rotationRateY = "gyroY", rotationRateZ = "gyroZ"

    /// True for the channels computed from the rotation rate (need a gyroscope).
    public var usesRotationRate: Bool {
        switch self {
        case .rotationRateMagnitude, .rotationRateX, .rotationRateY, .rotationRateZ: true
        default: false
        }
    }

    /// True for the channels that need the gravity vector.
    public var usesGravity: Bool {
        switch self {
        case .userAccelerationMagnitude, .verticalAcceleration, .horizontalAccelerationMagnitude: true
        default: false
        }
    }

    /// The channels that do not depend on device orientation.
    public static let orientationIndependent: [FeatureChannel] =
        [.accelerationMagnitude, .userAccelerationMagnitude, .verticalAcceleration, .horizontalAccelerationMagnitude, .rotationRateMagnitude]
}

/// A per-channel window feature. All use the window of N samples x[0..<N] of one channel.
public enum Feature: String, Codable, Sendable, CaseIterable, Hashable {
    /// Arithmetic mean.
    case mean
    /// Population standard deviation (ddof = 0, numpy's default), two-pass.
    case standardDeviation = "std"
    /// Smallest value in the window.
    case minimum = "min"
    /// Largest value in the window.
    case maximum = "max"
    /// max − min.
    case range
    /// 50th percentile, linear interpolation (numpy `percentile` default).
    case median
    /// 75th − 25th percentile, each with linear interpolation (numpy `percentile` default:
    /// value at fractional index (N − 1) p of the sorted window).
    case interquartileRange = "iqr"
    /// sqrt(mean(x²)).
    case rms
    /// Biased sample skewness m3 / m2^1.5 (scipy.stats.skew default, bias=True). 0 for a
    /// constant window (max == min).
    case skewness
    /// Biased excess kurtosis m4 / m2² − 3 (scipy.stats.kurtosis default: Fisher, bias=True).
    /// 0 for a constant window.
    case kurtosis
    /// Fraction of the N − 1 adjacent pairs that cross the mean: (x[i] − m ≥ 0) ≠ (x[i+1] − m ≥ 0).
    case meanCrossingRate = "mcr"
    /// Signal magnitude area of one channel: mean(|x|). (The classic SMA sums this over the
    /// three axes; a model can add the per-axis values.)
    case signalMagnitudeArea = "sma"
    /// Highest local maximum of the normalised autocorrelation r(k) = Σᵢ dᵢ dᵢ₊ₖ / Σᵢ dᵢ²
    /// (d = x − mean; biased: the sum runs over the N − k overlapping pairs, the denominator is
    /// the full-window energy) over lags k in [ceil(minLag × rate), floor(maxLag × rate)]
    /// clipped to [1, N − 2]. A local maximum has r(k) > r(k − 1) and r(k) ≥ r(k + 1). 0 when
    /// there is none or the window is constant.
    case autocorrelationPeak = "acfPeak"
    /// The lag of `autocorrelationPeak` in seconds (integer lag / rate); 0 when there is none.
    case autocorrelationLag = "acfLag"
    /// Frequency (Hz) of the largest bin of the power spectrum, DC excluded, refined by a
    /// parabola through that bin and its neighbours. 0 for a constant window.
    case dominantFrequency = "domFreq"
    /// Fraction of the spectral power (DC excluded) in each band of
    /// `FeatureConfiguration.bandEdgesHz`: one value per band, bin frequency f in [lo, hi)
    /// (the last band also takes f = hi). 0 for a constant window.
    case bandEnergy = "band"
    /// Shannon entropy of the power spectrum (DC excluded) normalised to probabilities,
    /// divided by log(number of bins), so in [0, 1]. 0 for a constant window.
    case spectralEntropy = "specEntropy"

    /// The standard set, in a fixed order.
    public static let standard: [Feature] = allCases
}

/// Two channels whose Pearson correlation over the window is a feature.
public struct ChannelPair: Codable, Sendable, Hashable {
    /// One channel of the pair.
    public var first: FeatureChannel
    /// The other channel.
    public var second: FeatureChannel
    /// The pair (first, second).
    public init(_ first: FeatureChannel, _ second: FeatureChannel) { self.first = first; self.second = second }
}

/// Why a configuration or an input cannot be used.
public enum FeatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field of the configuration is out of range: which field, what was found, what was expected.
    case invalidConfiguration(field: String, found: String, expected: String)
    /// The configuration's channels need a stream that the input does not have.
    case missingStream(StreamKind, neededBy: String)
    /// The input's rate differs from the configuration's.
    case rateMismatch(found: Hertz, expected: Hertz)

    public var description: String {
        switch self {
        case let .invalidConfiguration(field, found, expected):
            "feature configuration: \(field): found \(found), expected \(expected)"
        case let .missingStream(kind, neededBy):
            "input has no \(kind.title) stream, needed by feature channel \(neededBy)"
        case let .rateMismatch(found, expected):
            "input sampled at \(found) Hz, expected \(expected) Hz (resample first)"
        }
    }
}

/// What features a model computes, as data (it travels inside the model file, so a model
/// always computes its own features). Units: Hz and seconds.
///
/// **Frames** arrive at `rateHz` (built from samples by `FrameBuilder`). Windows hold
/// `windowLength` = round(windowSeconds × rateHz) frames and start every `hopLength` =
/// round(hopSeconds × rateHz) frames, the first at frame 0.
///
/// **Spectra**: the window's mean is removed, a periodic Hann window applied, and the result
/// zero-padded to the next power of two M ≥ N for the FFT (M = N = 128 with the defaults:
/// 2.56 s at 50 Hz). Bin k (1 ≤ k ≤ M/2) is at k × rate / M Hz.
///
/// **Missing gyroscope**: frames always carry a rotation rate, but a configuration only reads
/// it when `requiresRotationRate` is true. For a device without a gyroscope, use
/// `withoutRotationRate()` (or `.standardNoGyroscope`) and train a model on it; giving a
/// gyro-less input to a configuration that needs it throws `FeatureError.missingStream`
/// (there is no silent fill value).
///
/// **Output layout**: for each channel in `channels`, the features in `features` order (with
/// `bandEnergy` expanded to one value per band), then one Pearson correlation per entry of
/// `correlations`. `featureNames` gives `channel.feature` strings in that order.
public struct FeatureConfiguration: Codable, Equatable, Sendable {
    /// Version of the feature definitions; bump when a kernel's meaning changes.
    public static let currentVersion = 1

    /// The feature definitions' version this configuration was made with.
    public var version: Int
    /// Frame rate in Hz.
    public var rateHz: Hertz
    /// Window length in seconds.
    public var windowSeconds: Seconds
    /// Hop between window starts in seconds.
    public var hopSeconds: Seconds
    /// The channels each feature is computed on, in column order.
    public var channels: [FeatureChannel]
    /// The features computed on each channel, in column order.
    public var features: [Feature]
    /// Band edges in Hz, increasing, at least two; bands are consecutive pairs. An edge above
    /// Nyquist is allowed (the band simply ends at Nyquist).
    public var bandEdgesHz: [Hertz]
    /// Autocorrelation lag search range in seconds (step 0.25 s … stride 2.5 s by default).
    public var minLagSeconds: Seconds
    /// Longest autocorrelation lag searched (s).
    public var maxLagSeconds: Seconds
    /// Channel pairs whose Pearson correlation (0 when either is constant) is a feature. Both
    /// channels must be in `channels`.
    public var correlations: [ChannelPair]

    /// A configuration; the defaults are the shipped moving/still model's.
    public init(rateHz: Hertz = 50, windowSeconds: Seconds = 2.56, hopSeconds: Seconds = 1.28,
                channels: [FeatureChannel] = FeatureChannel.orientationIndependent,
                features: [Feature] = Feature.standard,
                bandEdgesHz: [Hertz] = [0, 0.5, 3, 8, 25],
                minLagSeconds: Seconds = 0.25, maxLagSeconds: Seconds = 2.5,
                correlations: [ChannelPair] = [ChannelPair(.verticalAcceleration, .horizontalAccelerationMagnitude),
                                               ChannelPair(.userAccelerationMagnitude, .rotationRateMagnitude)],
                version: Int = FeatureConfiguration.currentVersion) {
        self.version = version; self.rateHz = rateHz; self.windowSeconds = windowSeconds; self.hopSeconds = hopSeconds
        self.channels = channels; self.features = features; self.bandEdgesHz = bandEdgesHz
        self.minLagSeconds = minLagSeconds; self.maxLagSeconds = maxLagSeconds; self.correlations = correlations
    }

    /// Orientation-independent channels, all features, two correlations (5 × 20 + 2 = 102 values).
    public static let standard = FeatureConfiguration()
    /// `standard` without the rotation-rate channel and correlation, for devices with no gyroscope.
    public static let standardNoGyroscope = FeatureConfiguration().withoutRotationRate()
    /// All eleven channels (orientation-independent plus raw axes) and the three within-sensor
    /// axis correlations of each sensor besides the standard two.
    public static let allChannels = FeatureConfiguration(
        channels: FeatureChannel.allCases,
        correlations: [ChannelPair(.verticalAcceleration, .horizontalAccelerationMagnitude),
                       ChannelPair(.userAccelerationMagnitude, .rotationRateMagnitude),
                       ChannelPair(.accelerationX, .accelerationY), ChannelPair(.accelerationX, .accelerationZ),
                       ChannelPair(.accelerationY, .accelerationZ), ChannelPair(.rotationRateX, .rotationRateY),
                       ChannelPair(.rotationRateX, .rotationRateZ), ChannelPair(.rotationRateY, .rotationRateZ)])

    /// Frames per window.
    public var windowLength: Int { Int((windowSeconds * rateHz).rounded()) }
    /// Frames between window starts.
    public var hopLength: Int { Int((hopSeconds * rateHz).rounded()) }
    /// FFT length: the next power of two ≥ `windowLength`.
    public var fftLength: Int {
        var p = 2
        while p < windowLength { p <<= 1 }
        return p
    }
    /// Number of bands.
    public var bandCount: Int { max(0, bandEdgesHz.count - 1) }
    /// Values per channel (bandEnergy counts `bandCount`).
    public var valuesPerChannel: Int { features.reduce(0) { $0 + ($1 == .bandEnergy ? bandCount : 1) } }
    /// Length of one feature vector.
    public var featureCount: Int { channels.count * valuesPerChannel + correlations.count }
    /// True when some channel needs the rotation rate (a gyroscope).
    public var requiresRotationRate: Bool { channels.contains { $0.usesRotationRate } }
    /// True when some channel needs the gravity vector.
    public var requiresGravity: Bool { channels.contains { $0.usesGravity } }

    /// The same configuration without rotation-rate channels and the correlations that use them.
    public func withoutRotationRate() -> FeatureConfiguration {
        var c = self
        c.channels = channels.filter { !$0.usesRotationRate }
        c.correlations = correlations.filter { !$0.first.usesRotationRate && !$0.second.usesRotationRate }
        return c
    }

    /// Autocorrelation lag range in samples, clipped to [1, N − 2] (may be empty).
    public var lagRange: ClosedRange<Int>? {
        let lo = max(1, Int((minLagSeconds * rateHz - 1e-9).rounded(.up)))
        let hi = min(windowLength - 2, Int((maxLagSeconds * rateHz + 1e-9).rounded(.down)))
        return lo <= hi ? lo...hi : nil
    }

    /// Name of each band feature, e.g. `band_0.5-3Hz`.
    public var bandNames: [String] {
        (0..<bandCount).map { "band_\(Self.format(bandEdgesHz[$0]))-\(Self.format(bandEdgesHz[$0 + 1]))Hz" }
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// `channel.feature` names in output order, e.g. `accMag.std`, `accMag.band_0.5-3Hz`,
    /// `corr.accVert.accHoriz`.
    public var featureNames: [String] {
        var out: [String] = []
        out.reserveCapacity(featureCount)
        let bands = bandNames
        for c in channels {
            for f in features {
                if f == .bandEnergy { for b in bands { out.append("\(c.rawValue).\(b)") } }
                else { out.append("\(c.rawValue).\(f.rawValue)") }
            }
        }
        for p in correlations { out.append("corr.\(p.first.rawValue).\(p.second.rawValue)") }
        return out
    }

    /// Checks every field; the extractors call it.
    public func validate() throws(FeatureError) {
        func bad(_ field: String, _ found: String, _ expected: String) -> FeatureError {
            .invalidConfiguration(field: field, found: found, expected: expected)
        }
        if version < 1 || version > Self.currentVersion { throw bad("version", "\(version)", "1…\(Self.currentVersion)") }
        if !(rateHz.isFinite && rateHz > 0) { throw bad("rateHz", "\(rateHz)", "a finite rate > 0") }
        // Frame counts are checked as numbers before they become integers (`windowLength`,
        // `hopLength`), so a huge or non-finite product is an error, not a trap.
        let windowFrames = (windowSeconds * rateHz).rounded(), hopFrames = (hopSeconds * rateHz).rounded()
        if !(windowFrames.isFinite && windowFrames >= 4) { throw bad("windowSeconds", "\(windowSeconds)", "at least 4 frames at \(rateHz) Hz") }
        if windowFrames > Double(1 << 20) { throw bad("windowSeconds", "\(windowSeconds)", "at most 2^20 frames at \(rateHz) Hz") }
        if !(hopFrames.isFinite && hopFrames >= 1) { throw bad("hopSeconds", "\(hopSeconds)", "at least 1 frame at \(rateHz) Hz") }
        if hopFrames > Double(1 << 20) { throw bad("hopSeconds", "\(hopSeconds)", "at most 2^20 frames at \(rateHz) Hz") }
        if channels.isEmpty { throw bad("channels", "none", "at least one channel") }
        if Set(channels).count != channels.count { throw bad("channels", "a repeated channel", "distinct channels") }
        if Set(features).count != features.count { throw bad("features", "a repeated feature", "distinct features") }
        if features.contains(.bandEnergy) {
            if bandEdgesHz.count < 2 { throw bad("bandEdgesHz", "\(bandEdgesHz.count) edges", "at least 2 edges") }
            for i in bandEdgesHz.indices {
                let e = bandEdgesHz[i]
                if !(e.isFinite && e >= 0) { throw bad("bandEdgesHz[\(i)]", "\(e)", "a finite frequency ≥ 0") }
                if i > 0 && !(e > bandEdgesHz[i - 1]) { throw bad("bandEdgesHz[\(i)]", "\(e)", "an edge above \(bandEdgesHz[i - 1])") }
            }
        }
        if !(minLagSeconds.isFinite && maxLagSeconds.isFinite && minLagSeconds > 0 && maxLagSeconds >= minLagSeconds) {
            throw bad("minLagSeconds/maxLagSeconds", "\(minLagSeconds)/\(maxLagSeconds)", "0 < min ≤ max")
        }
        for (i, p) in correlations.enumerated() {
            if !channels.contains(p.first) || !channels.contains(p.second) {
                throw bad("correlations[\(i)]", "\(p.first.rawValue), \(p.second.rawValue)", "two channels listed in channels")
            }
        }
    }
}
