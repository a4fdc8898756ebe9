/// Round tick values for an axis: steps of 1, 2 or 5 × a power of ten.
public struct Ticks: Sendable, Equatable {
    /// The tick values, lowest first; the first and last are the axis range.
    public var values: [Double]
    /// The distance between ticks.
    public var step: Double

    /// The first tick: the axis range's lower end.
    public var lower: Double { values[0] }
    /// The last tick: the axis range's upper end.
    public var upper: Double { values[values.count - 1] }

    /// About `target` ticks covering [lo, hi]; at least two, at most 50. A zero-width range is
    /// widened to a unit around it; non-finite bounds give 0…1.
    public init(_ lo: Double, _ hi: Double, target: Int = 5) {
        var lo = lo, hi = hi
        if !lo.isFinite || !hi.isFinite || hi < lo { lo = 0; hi = 1 }
        // Values near the largest Double leave no room for a tick beyond them.
        lo = max(lo, -1e306); hi = min(max(hi, lo), 1e306)
        // A range too narrow to divide (equal bounds, or a difference lost to rounding) is
        // widened around its value; a range wider than a Double holds is divided piecewise.
        if hi - lo <= max(abs(lo), abs(hi)) * 1e-12 || hi - lo < 1e-290 {
            let pad = max(abs(lo), abs(hi)) < 1e-290 ? 1 : max(abs(lo), abs(hi)) * 0.1
            lo -= pad; hi += pad
        }
        let t = Double(max(target, 1))
        let raw = hi / t - lo / t
        var mag = 1.0
        while mag * 10 <= raw { mag *= 10 }
        while mag > raw { mag /= 10 }
        let r = raw / mag
        step = r < 1.5 ? mag : r < 3 ? 2 * mag : r < 7 ? 5 * mag : 10 * mag
        let first = (lo / step + 1e-9).rounded(.down)
        // Each value is rounded to the step's decimals, so 3 × 0.2 is 0.6, not 0.6000000000000001.
        var scale = 1.0
        for _ in 0..<Ticks.decimals(of: step) { scale *= 10 }
        var out: [Double] = []
        var k = first
        while out.count < 50 {
            let v = k * step
            out.append(abs(v) < step * 1e-9 ? 0 : (v * scale).rounded() / scale)
            if v >= hi - step * 1e-9 { break }
            k += 1
        }
        if out.count < 2 { out.append(out[0] + step) }
        values = out
    }

    /// Decimals that show every tick of this step exactly (0 for whole steps, at most 6).
    public var decimals: Int { Ticks.decimals(of: step) }

    static func decimals(of step: Double) -> Int {
        var d = 0, s = step
        while d < 6 && abs(s - s.rounded()) > 1e-6 * max(1, abs(s)) { s *= 10; d += 1 }
        return d
    }

    /// The label of a tick value.
    public func label(_ v: Double) -> String { num(v, decimals) }
}
