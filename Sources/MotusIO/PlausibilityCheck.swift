import MotusCore

/// What to do when a recording's values look read in the wrong unit, or its timestamps
/// disagree with the declared rate (`PlausibilityCheck`).
public enum PlausibilityPolicy: Sendable, Equatable {
    /// Say so in one line posted to `InputNotices` (the CLI prints it on stderr) and go on.
    case warn
    /// Stop with an `InputError` naming the file (the CLI's `--strict`).
    case error
    /// Check nothing.
    case off
}

/// One thing a recording's values say about how it was read.
public struct PlausibilityFinding: Sendable, Equatable, CustomStringConvertible {
    /// The checks a finding can come from.
    public enum Kind: Sendable, Equatable {
        /// Acceleration (or gravity) about 9.81 times too small: g read as m/s².
        case accelerationTooSmall
        /// Acceleration about 9.81 times too large: m/s² read as g.
        case accelerationTooLarge
        /// Rotation rate beyond what a gyroscope gives: deg/s read as rad/s.
        case rotationTooLarge
        /// The timestamps' rate is far from the declared `--rate`.
        case rateDisagrees
    }
    /// Which check found it.
    public var kind: Kind
    /// The recording's file, as the user named it.
    public var file: String
    /// What was measured and its value (`median |acceleration| 0.981 m/s²`).
    public var found: String
    /// What it should be near (`about 9.81 m/s² (gravity alone)`).
    public var reference: String
    /// What to do, naming the flag (`if the file is in g, give --accel-unit g`).
    public var advice: String

    /// One line for stderr: `file: found, expected reference: advice`.
    public var description: String { "\(file): \(found), expected \(reference): \(advice)" }

    /// The finding as the error `--strict` stops with.
    public var error: InputError {
        InputError(.badValue, at: SourceLocation(file: file), found: found, expected: "\(reference): \(advice)")
    }
}

/// Looks at a recording's values as they are read, with memory that does not grow with the
/// recording, for the mistakes that give wrong answers without an error:
///
/// - acceleration or gravity whose median magnitude is far below gravity (under 4.9 m/s²:
///   values in g read as m/s², or acceleration without gravity given as acceleration) or far
///   above it (over 49 m/s²: m/s² read as g). At rest |a| is 9.81 m/s², and over any
///   recording of a carried device the median stays close to it;
/// - rotation rate whose median magnitude is over 20 rad/s (1,150 °/s sustained) or whose
///   99th percentile is over 35 rad/s (past the ±2000 °/s range of phone and wearable
///   gyroscopes): deg/s read as rad/s (a phone carried while running, or BROAD's fast
///   rotations, have medians over 5 rad/s, so the median alone is held to a higher bar);
/// - a declared rate (`--rate`) more than 2 % from the rate the timestamps give (the median
///   interval), which the timestamps then win over.
///
/// The first stream of each kind is checked; a stream needs 50 samples (the rate: 50 intervals).
public struct PlausibilityCheck {
    /// The rate the user declared (Hz), checked against the timestamps; nil: none declared.
    public var declaredRateHz: Hertz?
    /// True when the file is Motus's own format, whose values are SI by definition: the
    /// advice then is to convert its source again with the unit flag.
    public var native: Bool
    /// Minimum samples for a verdict.
    public static let minimumSamples = 50

    var acceleration = Magnitudes()
    var gravity = Magnitudes()
    var rotation = Magnitudes()
    /// Intervals of the first stream seen (any kind), for the rate.
    var intervals = OctaveHistogram()
    var rateKind: StreamKind? = nil
    var previousTime = Double.nan

    struct Magnitudes {
        var histogram = OctaveHistogram()
        var count: Int { histogram.total }
        @inline(__always)
        mutating func add(_ x: Double, _ y: Double, _ z: Double) {
            histogram.add((x * x + y * y + z * z).squareRoot())
        }
    }

    /// A check with nothing seen yet; `declaredRateHz` in Hz (nil: none declared), `native` for
    /// Motus's own format.
    public init(declaredRateHz: Hertz? = nil, native: Bool = false) {
        self.declaredRateHz = declaredRateHz
        self.native = native
    }

    /// One sample of a stream of `kind` at `time`, values in SI units in `kind.columns` order.
    /// Only the first stream of each kind should be passed (`firstOfKind`).
    @inline(__always)
    public mutating func add(kind: StreamKind, time: Seconds, value: (Int) -> Double) {
        switch kind {
        case .acceleration: acceleration.add(value(0), value(1), value(2))
        case .gravity: gravity.add(value(0), value(1), value(2))
        case .rotationRate: rotation.add(value(0), value(1), value(2))
        default: break
        }
        guard declaredRateHz != nil else { return }
        if rateKind == nil { rateKind = kind }
        guard kind == rateKind else { return }
        if !previousTime.isNaN { intervals.add(time - previousTime) }
        previousTime = time
    }

    /// One sample, of any kind; kinds no check looks at only count for the rate. Only the first
    /// stream of each kind should be passed.
    public mutating func add(_ sample: SensorSample) {
        switch sample {
        case .acceleration(let s), .gravity(let s), .rotationRate(let s), .userAcceleration(let s), .magneticField(let s):
            add(kind: sample.kind, time: s.time) { $0 == 0 ? s.value.x : $0 == 1 ? s.value.y : s.value.z }
        default:
            add(kind: sample.kind, time: sample.time) { _ in 0 }
        }
    }

    /// Every sample of the first stream of each kind of `recording`.
    public mutating func add(_ recording: Recording) {
        var seen: Set<StreamKind> = []
        for s in recording.streams where !seen.contains(s.kind) {
            seen.insert(s.kind)
            let w = s.kind.width
            s.values.withUnsafeBufferPointer { v in
                for i in 0..<s.count { add(kind: s.kind, time: s.times[i]) { v[i * w + $0] } }
            }
        }
    }

    /// What the values seen so far say about `file`.
    public func findings(file: String) -> [PlausibilityFinding] {
        var out: [PlausibilityFinding] = []
        let give = native ? "convert its source again with" : "give"
        for (m, name) in [(acceleration, "acceleration"), (gravity, "gravity")] where m.count >= Self.minimumSamples {
            let median = m.histogram.quantile(0.5)
            let found = "median |\(name)| \(Self.figure(median)) m/s²"
            if median < 4.9 {
                out.append(PlausibilityFinding(kind: .accelerationTooSmall, file: file, found: found, reference: "about 9.81 (gravity alone)",
                    advice: "if the file is in g, \(give) --accel-unit g" + (name == "acceleration" ? " (if it holds acceleration without gravity, --user-accel-columns)" : "")))
                break
            }
            if median > 49 {
                out.append(PlausibilityFinding(kind: .accelerationTooLarge, file: file, found: found, reference: "about 9.81 (gravity alone)",
                    advice: "if the file is in m/s², \(give) --accel-unit mps2"))
                break
            }
        }
        if rotation.count >= Self.minimumSamples {
            let median = rotation.histogram.quantile(0.5), p99 = rotation.histogram.quantile(0.99)
            if median > 20 || p99 > 35 {
                out.append(PlausibilityFinding(kind: .rotationTooLarge, file: file,
                    found: median > 20 ? "median |rotation rate| \(Self.figure(median)) rad/s" : "p99 |rotation rate| \(Self.figure(p99)) rad/s",
                    reference: median > 20 ? "under 20 rad/s" : "under 35 rad/s (2000 °/s, a gyroscope's range)",
                    advice: "if the file is in °/s, \(give) --gyro-unit degs"))
            }
        }
        if let declared = declaredRateHz, intervals.total >= Self.minimumSamples {
            let median = intervals.quantile(0.5)
            if median > 0 {
                let measured = 1 / median
                if abs(measured / declared - 1) > 0.02 {
                    out.append(PlausibilityFinding(kind: .rateDisagrees, file: file, found: "timestamps at \(Self.figure(measured)) Hz",
                        reference: "the declared --rate \(Self.figure(declared)) Hz",
                        advice: "the timestamps are used; give --rate \(Self.figure(measured)), or leave it out"))
                }
            }
        }
        return out
    }

    /// Applies `policy` to the findings: posts each as a warning, or throws the first.
    public func report(file: String, policy: PlausibilityPolicy) throws(InputError) {
        guard policy != .off else { return }
        let found = findings(file: file)
        if policy == .error, let first = found.first { throw first.error }
        for f in found { InputNotices.post("warning: \(f) (--strict makes this an error)") }
    }

    /// A figure for a message: three decimals under 1, two under 10, else one (0.989, 9.81,
    /// 12.8, 102.5), trailing zeros left out.
    static func figure(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e12 else { return "\(x)" }
        let digits = abs(x) >= 10 ? 1 : abs(x) >= 1 ? 2 : 3
        var s = String(Int((x * pow10(digits)).rounded()))
        while s.count <= digits { s = "0" + s }
        let cut = s.index(s.endIndex, offsetBy: -digits)
        var out = String(s[..<cut]) + "." + String(s[cut...])
        while out.hasSuffix("0") { out.removeLast() }
        if out.hasSuffix(".") { out.removeLast() }
        return out
    }

    static func pow10(_ n: Int) -> Double { var p = 1.0; for _ in 0..<n { p *= 10 }; return p }
}

/// Counts positive values in bins 1/64 of an octave wide (about 1.1 %), found from the
/// double's exponent and top mantissa bits, so adding a value costs no logarithm. A quantile
/// is the mean of the values in its bin (exact when they are all equal, as the intervals of
/// regularly sampled data are). Values from 2⁻³⁰ to 2³⁰; others (zero too) count in the end
/// bins; negative and non-finite values are not counted.
struct OctaveHistogram {
    static let subBits = 6
    static let lowExponent = -30, highExponent = 30
    static let bins = (highExponent - lowExponent) << subBits
    /// Allocated at the first value.
    var counts: [Int] = []
    var sums: [Double] = []
    var total = 0

    @inline(__always)
    mutating func add(_ v: Double) {
        guard v >= 0, v.isFinite else { return }
        if counts.isEmpty {
            counts = [Int](repeating: 0, count: Self.bins)
            sums = [Double](repeating: 0, count: Self.bins)
        }
        // Exponent and the top mantissa bits, as one number that grows with log2(v).
        let key = Int(truncatingIfNeeded: v.bitPattern >> UInt64(52 - Self.subBits)) - ((1023 + Self.lowExponent) << Self.subBits)
        let b = Swift.max(0, Swift.min(Self.bins - 1, key))
        counts[b] += 1
        sums[b] += v
        total += 1
    }

    func quantile(_ q: Double) -> Double {
        guard total > 0 else { return 0 }
        let target = Int((Double(total - 1) * q).rounded(.down)) + 1
        var acc = 0
        for (i, c) in counts.enumerated() where c > 0 {
            acc += c
            if acc >= target { return sums[i] / Double(c) }
        }
        return 0
    }
}
