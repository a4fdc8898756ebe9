import MotusCore

/// How elevation gain and loss are counted from a noisy elevation series.
public enum ClimbRule: Sendable, Equatable, Codable {
    /// Every positive step is gain, every negative step loss (adds up noise).
    case raw
    /// Dead band: keep a reference elevation (the first value); when the current value is at
    /// least `meters` above it, add the difference to gain and move the reference there; when
    /// at least `meters` below, add it to loss and move the reference. Smaller changes are
    /// ignored. Noise smaller than the band never adds up; a real climb loses at most the band
    /// once per change of direction.
    case deadBand(meters: Meters)
    /// BRouter's "filtered ascend": a buffer starts at 0; each step's change is added to it;
    /// when it is above 0 it goes to gain and resets to 0; it never goes below −`meters`
    /// (loss is counted the same way mirrored). Climbing counts once a preceding dip of up to
    /// `meters` has been regained.
    case dipBuffer(meters: Meters)

    /// Motus's one rule for every file: a 5 m dead band (see docs in `ElevationGain`).
    public static let standard = ClimbRule.deadBand(meters: 5)
}

/// Elevation gain and loss (m).
public struct ElevationGain: Sendable, Equatable, Codable {
    /// Total climbing (m).
    public var gainMeters: Meters
    /// Total descending (m), positive.
    public var lossMeters: Meters
    /// A gain and a loss (m).
    public init(gainMeters: Meters, lossMeters: Meters) { self.gainMeters = gainMeters; self.lossMeters = lossMeters }

    /// Gain and loss of `elevations` under `rule`; NaN values are skipped.
    ///
    /// Motus's default is the 5 m dead band. Chosen because the same rule, with no tuning per
    /// file, stays within 10 % of the device's own figure on the Edge 530 and Edge 1030 rides
    /// and of BRouter's filtered ascent on its route (`QualityBarTests`; the figures are in
    /// the MotusGeo article), while the raw sum counts every step of a jittering barometer
    /// (the Edge 1030's jitters in 0.2 m steps). It ignores any oscillation smaller than 5 m,
    /// so a flat ride with ±2 m barometric noise adds 0 m.
    public static func compute(_ elevations: [Meters], rule: ClimbRule = .standard) -> ElevationGain {
        var gain = 0.0, loss = 0.0
        switch rule {
        case .raw:
            var last = Double.nan
            for e in elevations where !e.isNaN {
                if !last.isNaN { let d = e - last; if d > 0 { gain += d } else { loss -= d } }
                last = e
            }
        case .deadBand(let band):
            var ref = Double.nan
            for e in elevations where !e.isNaN {
                if ref.isNaN { ref = e; continue }
                let d = e - ref
                if d >= band { gain += d; ref = e } else if d <= -band { loss -= d; ref = e }
            }
        case .dipBuffer(let limit):
            var last = Double.nan, up = 0.0, down = 0.0
            for e in elevations where !e.isNaN {
                if !last.isNaN {
                    let d = e - last
                    up += d
                    if up > 0 { gain += up; up = 0 } else if up < -limit { up = -limit }
                    down -= d
                    if down > 0 { loss += down; down = 0 } else if down < -limit { down = -limit }
                }
                last = e
            }
        }
        return ElevationGain(gainMeters: gain, lossMeters: loss)
    }
}

/// Altitude from barometric pressure, and its offset calibrated against GPS altitude.
///
/// The barometer measures relative height well (±0.1 m over minutes) but its absolute level
/// depends on the weather; GPS altitude is absolute but noisy (±5–15 m). So: altitude from
/// the international standard atmosphere (h = 44,330.8 · (1 − (p/p₀)^0.190263) m), then one
/// constant offset = the median of (GPS altitude − barometric altitude) over all fixes that
/// have a GPS altitude.
public enum BarometricAltitude {
    /// Standard sea-level pressure (Pa).
    public static let standardSeaLevelPascals: Pascals = 101_325.0

    /// ISA altitude (m) for a pressure in pascals.
    @inlinable public static func altitude(pascals: Pascals, seaLevelPascals: Pascals = standardSeaLevelPascals) -> Meters {
        44_330.8 * (1 - Math.pow(pascals / seaLevelPascals, 0.190_263))
    }

    /// Barometric altitude at each of `times` (linear interpolation of the pressure stream;
    /// NaN outside it), offset so its median matches the GPS altitudes given (NaN = none). With
    /// no GPS altitude at all, the ISA altitude is returned unchanged.
    public static func elevations(pressure: SensorStream, at times: [Seconds], gpsAltitudes: [Meters]) -> [Meters] {
        var out = [Double](repeating: .nan, count: times.count)
        guard pressure.count > 0 else { return out }
        var j = 0
        for (i, t) in times.enumerated() {
            guard !t.isNaN, t >= pressure.times[0], t <= pressure.times[pressure.count - 1] else { continue }
            while j + 1 < pressure.count && pressure.times[j + 1] < t { j += 1 }
            let p: Double
            if j + 1 < pressure.count && pressure.times[j + 1] > pressure.times[j] {
                let w = (t - pressure.times[j]) / (pressure.times[j + 1] - pressure.times[j])
                p = pressure.values[j] * (1 - w) + pressure.values[j + 1] * min(1, max(0, w))
            } else { p = pressure.values[j] }
            out[i] = altitude(pascals: p)
        }
        var diffs: [Double] = []
        for i in out.indices where !out[i].isNaN && i < gpsAltitudes.count && !gpsAltitudes[i].isNaN {
            diffs.append(gpsAltitudes[i] - out[i])
        }
        guard !diffs.isEmpty else { return out }
        diffs.sort()
        let offset = diffs[diffs.count / 2]
        return out.map { $0 + offset }
    }
}
