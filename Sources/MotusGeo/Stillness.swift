import MotusCore

/// Finds when a device lay still from its accelerometer, for the ride auto-pause: GPS speed
/// can read 1–2 m/s while standing in a street canyon, an accelerometer cannot pretend.
///
/// Rule: in consecutive windows of `windowSeconds`, the standard deviation of |a| (m/s²)
/// below `thresholdMetersPerSecondSquared` means still. A bike computer on the bars or a
/// phone in a pocket shows 0.5–3 m/s² while riding or running and under 0.05 m/s² at rest.
public struct StillIntervalDetector: Sendable {
    /// Window length (s).
    public var windowSeconds: Seconds = 2
    /// Largest standard deviation of |a| (m/s²) of a still window.
    public var thresholdMetersPerSecondSquared: MetersPerSecondSquared = 0.15
    /// A detector with this window (s) and threshold (m/s²).
    public init(windowSeconds: Seconds = 2, thresholdMetersPerSecondSquared: MetersPerSecondSquared = 0.15) {
        self.windowSeconds = windowSeconds; self.thresholdMetersPerSecondSquared = thresholdMetersPerSecondSquared
    }

    /// Still intervals (s, on the stream's clock), adjacent windows merged.
    public func stillIntervals(acceleration a: SensorStream) -> [ClosedRange<Seconds>] {
        guard a.kind.width == 3, a.count > 1 else { return [] }
        var out: [ClosedRange<Double>] = []
        var start = a.times[0]
        var n = 0.0, sum = 0.0, sum2 = 0.0
        func close(_ end: Double) {
            if n >= 3 {
                let mean = sum / n
                let sd = max(0, sum2 / n - mean * mean).squareRoot()
                if sd < thresholdMetersPerSecondSquared {
                    if let l = out.last, l.upperBound >= start - 1e-9 { out[out.count - 1] = l.lowerBound...end } else { out.append(start...end) }
                }
            }
            n = 0; sum = 0; sum2 = 0; start = end
        }
        for i in 0..<a.count {
            let t = a.times[i]
            if t - start >= windowSeconds { close(t) }
            let v = a.vector(i)
            let m = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
            n += 1; sum += m; sum2 += m * m
        }
        close(a.times[a.count - 1])
        return out
    }
}
