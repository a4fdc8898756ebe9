import MotusCore
import MotusSignal

/// Step length models. A step is one footfall (half a stride). Lengths in metres.
public enum StrideModel: Sendable, Hashable, Codable {
    /// From height alone: `factor × height`, scaled by `(cadence / referenceCadence)^exponent`
    /// so faster steps are longer. `factor` 0.415 is the usual walking rule of thumb (step
    /// ≈ 0.415 × height at about 110 steps/min).
    case height(heightMeters: Meters, factor: Double = 0.415, referenceCadence: StepsPerMinute = 110, exponent: Double = 0.5)
    /// Weinberg (2002): `k × (amax − amin)^¼` per step, with `amax − amin` the step's swing
    /// (m/s², `StepEvent.peakToPeak`: the peak-to-trough of the low-passed acceleration over the
    /// step, `StepSwingFilter`).
    case weinberg(k: Double)
    /// A constant step length (m), e.g. from a calibration.
    case fixed(stepMeters: Meters)

    /// Length of one step (m), given its swing (m/s²) and the cadence (steps/min).
    public func stepLength(peakToPeak: MetersPerSecondSquared, cadence: StepsPerMinute) -> Meters {
        switch self {
        case let .height(h, f, ref, e):
            let c = cadence > 0 && cadence.isFinite ? Swift.min(Swift.max(cadence, 50), 200) : ref
            return f * h * Math.pow(c / ref, e)
        case let .weinberg(k):
            return k * Math.pow(Swift.max(peakToPeak, 0), 0.25)
        case let .fixed(s):
            return s
        }
    }

    /// The swing (m/s², `StepEvent.peakToPeak`) of a step the height rule's length 0.415 ×
    /// height is given to before any calibration (`weinbergK`), and the swing a step without
    /// its own (a platform step counter's) is given. Chosen on the IPOL lower-back trials, the
    /// only data here with a known distance (its error there, as shipped and
    /// leave-one-subject-out: `benchmarks/steps/stride_reference.py`). It depends on where the
    /// phone is carried and on the walker; calibrate when you can.
    public static let referencePeakToPeak: MetersPerSecondSquared = 8.3

    /// Weinberg's `k` for a person of this height, such that a step of the reference swing
    /// gets the height rule's length 0.415 × height.
    public static func weinbergK(heightMeters h: Meters, referencePeakToPeak: MetersPerSecondSquared = StrideModel.referencePeakToPeak) -> Double {
        0.415 * h / Math.pow(referencePeakToPeak, 0.25)
    }
}

/// Distance from steps and calibration from a known distance.
public enum StrideEstimator {
    /// Σ step lengths over `steps` (m). Cadence per step is from the interval to the previous
    /// step (the median interval for the first, or for intervals outside 0.25–2 s).
    public static func distance(_ steps: [StepEvent], model: StrideModel) -> Meters {
        guard !steps.isEmpty else { return 0 }
        let med = medianInterval(steps)
        var d = 0.0
        for i in steps.indices {
            var dt = i > 0 ? steps[i].time - steps[i - 1].time : med
            if !(dt >= 0.25 && dt <= 2) { dt = med }
            d += model.stepLength(peakToPeak: steps[i].peakToPeak, cadence: 60 / dt)
        }
        return d
    }

    /// Median step interval (s) of consecutive steps, 0.55 s when there are fewer than two.
    public static func medianInterval(_ steps: [StepEvent]) -> Seconds {
        guard steps.count > 1 else { return 0.55 }
        let d = (1..<steps.count).map { steps[$0].time - steps[$0 - 1].time }.filter { $0 > 0.25 && $0 < 2 }
        guard !d.isEmpty else { return 0.55 }
        return TimingStatistics.percentile(d.sorted(), 0.5)
    }

    /// Calibrates a model from a walk of known length: the same model family, scaled so that
    /// `distance(steps, model)` equals `knownDistanceMeters`. GPS calibration is the same call
    /// with the GPS track length over the same steps.
    public static func calibrate(_ model: StrideModel, steps: [StepEvent], knownDistanceMeters: Meters) -> StrideModel {
        let d = distance(steps, model: model)
        guard d > 0, knownDistanceMeters > 0 else { return model }
        let s = knownDistanceMeters / d
        switch model {
        case let .height(h, f, ref, e): return .height(heightMeters: h, factor: f * s, referenceCadence: ref, exponent: e)
        case let .weinberg(k): return .weinberg(k: k * s)
        case let .fixed(x): return .fixed(stepMeters: x * s)
        }
    }
}

extension StrideEstimator {
    /// The same model family with every step `factor` times longer.
    public static func scale(_ model: StrideModel, by s: Double) -> StrideModel {
        switch model {
        case let .height(h, f, ref, e): return .height(heightMeters: h, factor: f * s, referenceCadence: ref, exponent: e)
        case let .weinberg(k): return .weinberg(k: k * s)
        case let .fixed(x): return .fixed(stepMeters: x * s)
        }
    }
}
